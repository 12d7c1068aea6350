"""What is left of spectators on Discord: earlier versions had /game watch, which gave a member who did
not play an overwrite on a game's public channel to read it without writing there. The command is
gone (every member of the server reads a game's channel; the powers' channels and the private talks
stay their players'), and such an overwrite is taken back when its member takes a seat in the game
(cogs.places.spaces.admit)."""

from __future__ import annotations

import logging

import discord

from cogs.places.members import member_of

log = logging.getLogger(__name__)

SPECTATOR = discord.PermissionOverwrite(
    view_channel=True,
    read_message_history=True,
    send_messages=False,
    send_messages_in_threads=False,
    add_reactions=False,
    create_public_threads=False,
    create_private_threads=False,
)
"""A spectator's overwrite on the game channel: reading, never writing (the players talk there)."""


async def stop_watching(guild: discord.Guild, game_channel_id: int, user_id: int) -> None:
    """Take back a spectator's overwrite (only a spectator's: a player's stays as it is)."""
    channel = guild.get_channel(game_channel_id)
    if not isinstance(channel, discord.TextChannel):
        return
    current = next((o for t, o in channel.overwrites.items() if t.id == user_id), None)
    member = await member_of(guild, user_id) if current == SPECTATOR else None
    if member is not None:
        try:
            await channel.set_permissions(member, overwrite=None, reason="no longer a spectator")
        except discord.HTTPException as exc:
            log.warning("could not take back spectator %s's access to %s: %s", user_id, channel.id, exc)
