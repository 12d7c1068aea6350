"""A finished game's places kept as its history: read-only, with its threads archived and locked.

When the final post is out (cogs.messages.sender), every private place of the game is closed to writing: the
power channels and pair channels keep their members' View Channel and Read Message History but lose
Send Messages; the negotiation channel's threads are archived and locked (their members can still
open and read them, nobody can write, and they stop counting towards Discord's 1,000 active threads
per server). The public game channel stays as it is. The category is left for a server admin to
delete when nobody needs it any more.

When the game says so (``talks_after_end``), its eliminated players may then read the private talks:
the negotiation channel and pair channels get a read-only overwrite for them (:data:`TALK_READER`) and
they are added to the threads before these are archived; never the power channels, and never anyone
else (spectators see the game channel only).

A rollback of a game that ended at a close (a solo, the short game's last year) makes it run again;
:func:`reopen` undoes all of the above. Both are idempotent and best effort (failures are logged).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from cogs.places.spaces import MEMBER, THREADS_ONLY, key_powers, negotiation_places
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
TALK_READER = discord.PermissionOverwrite(
    view_channel=True,
    read_message_history=True,
    send_messages=False,
    send_messages_in_threads=False,
    add_reactions=False,
    create_public_threads=False,
    create_private_threads=False,
)
"""An eliminated player reading a finished game's private talks (told apart from a player's
read-only overwrite, so that a rollback takes it back)."""


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
    """Lock the game's private places read-only and archive its threads; open the talks to the game's
    talk readers (read-only) first."""
    power_channels = {c for c in places.power_channels.values() if c is not None}
    readers = [discord.Object(id=u) for u in places.talk_readers]
    for channel in await private_channels(guild, places):
        talks = channel.id not in power_channels
        changed = _with_members(channel, guild, lambda _: _READ_ONLY) or dict(channel.overwrites)
        if talks:
            for reader in readers:
                changed[reader] = TALK_READER
        if _differs(changed, channel):
            await _quietly(channel.edit(overwrites=changed, reason="the game is over: kept read-only"))
        for thread in list(channel.threads):
            if talks:
                for reader in readers:
                    await _quietly(thread.add_user(reader))
            await _quietly(thread.edit(archived=True, locked=True, reason="the game is over"))


async def reopen(guild: discord.Guild, places: GamePlaces) -> None:
    """Undo :func:`archive` (a rollback made a finished game run again)."""
    holding = {u for u in places.holders.values() if u is not None}
    for channel in await private_channels(guild, places):
        readers = {t.id for t, o in channel.overwrites.items() if o == TALK_READER}
        member = THREADS_ONLY if channel.id == places.negotiation_channel_id else MEMBER

        def reopened(
            current: discord.PermissionOverwrite, open_: discord.PermissionOverwrite = member
        ) -> discord.PermissionOverwrite | None:
            return open_ if current == _READ_ONLY else None

        changed = _with_members(channel, guild, reopened) or dict(channel.overwrites)
        for target in [t for t in changed if t.id in readers]:  # the talks are private again
            if target.id in holding and channel.id == places.negotiation_channel_id:
                changed[target] = member  # a player (eliminated) keeps the way to their own threads
            else:
                del changed[target]
        if _differs(changed, channel):
            await _quietly(channel.edit(overwrites=changed, reason="the game was rolled back: open again"))
        if channel.id != places.negotiation_channel_id:
            continue
        keys = {place_id: key for key, place_id in places.pair_places.items()}
        try:
            async for thread in channel.archived_threads(private=True, limit=None):
                await _quietly(thread.edit(archived=False, locked=False, reason="the game was rolled back"))
                named = key_powers(keys.get(thread.id, ""))
                for reader in sorted(readers):
                    own = {p for p, u in places.holders.items() if u == reader}
                    if not own & named:
                        await _quietly(thread.remove_user(discord.Object(id=reader)))
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


def _differs(
    overwrites: dict[discord.Role | discord.Member | discord.Object, discord.PermissionOverwrite],
    channel: discord.TextChannel,
) -> bool:
    have = {t.id: o for t, o in channel.overwrites.items()}
    return {t.id: o for t, o in overwrites.items()} != have


async def _quietly(call: Awaitable[object]) -> None:
    try:
        await call
    except discord.HTTPException as exc:
        log.warning("could not archive or reopen a game's place: %s", exc)
