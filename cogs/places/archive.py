"""A finished game's places kept as its history: read-only, with its threads archived and locked.

When the final post is out (cogs.messages.sender), every private place of the game is closed to writing: the
power channels and pair channels keep their members' View Channel and Read Message History but lose
Send Messages; the negotiation channel's threads are archived and locked (their members can still
open and read them, nobody can write, and they stop counting towards Discord's 1,000 active threads
per server). The public game channel stays as it is. The category is left for a server admin to
delete when nobody needs it any more.

A rollback of a game that ended at a close (a solo, the short game's last year) makes it run again;
:func:`reopen` undoes all of the above. Both are idempotent and best effort (failures are logged).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from cogs.places.spaces import MEMBER, THREADS_ONLY, negotiation_places
from gm.setup.places import GamePlaces

log = logging.getLogger(__name__)

_READ_ONLY = discord.PermissionOverwrite(
    view_channel=True,
    read_message_history=True,
    send_messages=False,
    send_messages_in_threads=False,
    create_public_threads=False,
    create_private_threads=False,
)


async def private_channels(guild: discord.Guild, places: GamePlaces) -> list[discord.TextChannel]:
    """The game's power channels, pair channels and negotiation channel that still exist."""
    found: list[discord.TextChannel] = []
    for channel_id in places.power_channels.values():
        channel = guild.get_channel(channel_id) if channel_id is not None else None
        if isinstance(channel, discord.TextChannel):
            found.append(channel)
    for place in await negotiation_places(guild, places, list(places.power_channels)):
        if isinstance(place, discord.TextChannel) and place not in found:
            found.append(place)
    return found


async def archive(guild: discord.Guild, places: GamePlaces) -> None:
    """Lock the game's private places read-only and archive its threads."""
    for channel in await private_channels(guild, places):
        changed = _with_members(channel, guild, lambda _: _READ_ONLY)
        if changed is not None:
            await _quietly(channel.edit(overwrites=changed, reason="the game is over: kept read-only"))
        for thread in list(channel.threads):
            await _quietly(thread.edit(archived=True, locked=True, reason="the game is over"))


async def reopen(guild: discord.Guild, places: GamePlaces) -> None:
    """Undo :func:`archive` (a rollback made a finished game run again)."""
    for channel in await private_channels(guild, places):
        member = THREADS_ONLY if channel.id == places.negotiation_channel_id else MEMBER
        changed = _with_members(
            channel, guild, lambda current, open_=member: open_ if current == _READ_ONLY else None
        )
        if changed is not None:
            await _quietly(channel.edit(overwrites=changed, reason="the game was rolled back: open again"))
        if channel.id != places.negotiation_channel_id:
            continue
        try:
            async for thread in channel.archived_threads(private=True, limit=None):
                await _quietly(thread.edit(archived=False, locked=False, reason="the game was rolled back"))
        except discord.HTTPException as exc:
            log.warning("could not list the archived threads of channel %s: %s", channel.id, exc)


def _with_members(
    channel: discord.TextChannel,
    guild: discord.Guild,
    change: Callable[[discord.PermissionOverwrite], discord.PermissionOverwrite | None],
) -> dict[discord.Role | discord.Member | discord.Object, discord.PermissionOverwrite] | None:
    """The channel's overwrites with each player's (members other than the bot) replaced by
    ``change(current)`` when that is not None; None when nothing changes."""
    overwrites = dict(channel.overwrites)
    changed = False
    for target, current in list(overwrites.items()):
        if isinstance(target, discord.Role) or target.id == guild.me.id:
            continue
        new = change(current)
        if new is not None and new != current:
            overwrites[target] = new
            changed = True
    return overwrites if changed else None


async def _quietly(call: Awaitable[object]) -> None:
    try:
        await call
    except discord.HTTPException as exc:
        log.warning("could not archive or reopen a game's place: %s", exc)
