"""Spectators on Discord: a member watching a game (/game watch) gets an overwrite on its public game
channel only, to read it and its history (the results, the maps, the final post) without writing
there; they never get anything on a power's channel, the negotiation channel, a pair channel or a
private thread. After the game ends, its eliminated players may read the private talks when the game
says so (cogs.places.archive, gm.setup.places.GamePlaces.talk_readers); spectators still may not."""

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


async def let_watch(guild: discord.Guild, game_channel_id: int, user_id: int) -> bool:
    """Open the game channel to a spectator; False when it or the member cannot be found."""
    channel = guild.get_channel(game_channel_id)
    member = await member_of(guild, user_id)
    if not isinstance(channel, discord.TextChannel) or member is None:
        return False
    await channel.set_permissions(member, overwrite=SPECTATOR, reason="a spectator of the game")
    return True


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
