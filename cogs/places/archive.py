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

Shields (cogs.places.spaces.SHIELD): a player's shields on the other powers' channels come off (a
moderator who played reads them again as a moderator); on the talks they stay, as the talks stay
private for every player, unless the player becomes a talk reader; and the read-only overwrite a
player keeps on the negotiation channel still denies Manage Threads (:data:`READ_ONLY_TALKS`).

A rollback of a game that ended at a close (a solo, the short game's last year) makes it run again;
:func:`reopen` undoes all of the above. Both are idempotent and best effort (failures are logged).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable

import discord

from cogs.places.spaces import MEMBER, SHIELD, THREADS_ONLY, negotiation_places
from gm.public import GamePlaces, key_powers

log = logging.getLogger(__name__)

_READ_ONLY = discord.PermissionOverwrite(
    view_channel=True,
    read_message_history=True,
    send_messages=False,
    send_messages_in_threads=False,
    create_public_threads=False,
    create_private_threads=False,
)
READ_ONLY_TALKS = discord.PermissionOverwrite(
    view_channel=True,
    read_message_history=True,
    send_messages=False,
    send_messages_in_threads=False,
    create_public_threads=False,
    create_private_threads=False,
    manage_threads=False,  # their own threads only, whatever their roles (as THREADS_ONLY)
)
"""A player's overwrite on a finished game's negotiation channel."""
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
    talk readers (read-only) first, and take the players' shields off the power channels."""
    power_channels = {c for c in places.power_channels.values() if c is not None}
    readers = [discord.Object(id=u) for u in places.talk_readers]
    for channel in await private_channels(guild, places):
        talks = channel.id not in power_channels
        negotiation = channel.id == places.negotiation_channel_id
        changed = _with_members(
            channel, guild, functools.partial(_closed, talks=talks, negotiation=negotiation)
        )
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
    owner_of = {c: p for p, c in places.power_channels.items() if c is not None}
    for channel in await private_channels(guild, places):
        negotiation = channel.id == places.negotiation_channel_id
        member = THREADS_ONLY if negotiation else MEMBER
        changed = _with_members(channel, guild, functools.partial(_reopened, member=member))
        # the readers as they were before the edit below: the edit's own CHANNEL_UPDATE may reach the
        # cache before its answer does (Discord sends them in either order), and then they are gone
        readers = {t.id for t, o in channel.overwrites.items() if o == TALK_READER}
        for target in [t for t, o in channel.overwrites.items() if o == TALK_READER]:
            if target.id in holding and negotiation:
                changed[target] = member  # a player (eliminated) keeps the way to their own threads
            elif target.id in holding and channel.id not in owner_of:
                changed[target] = SHIELD  # a rival's pair channel: shielded again
        power = owner_of.get(channel.id)
        if power is not None:  # the power channels' shields come back
            have = {t.id for t in changed}
            for user_id in sorted(holding - {places.holders.get(power)} - have):
                changed[discord.Object(id=user_id)] = SHIELD
        if _differs(changed, channel):
            await _quietly(channel.edit(overwrites=changed, reason="the game was rolled back: open again"))
        if not negotiation:
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


def _closed(
    current: discord.PermissionOverwrite, *, talks: bool, negotiation: bool
) -> discord.PermissionOverwrite | None:
    """A member's overwrite on a private place of a game that is over (None: taken away)."""
    if current == SHIELD:
        return SHIELD if talks else None  # the talks stay shielded; the power channels do not
    return READ_ONLY_TALKS if negotiation else _READ_ONLY


def _reopened(
    current: discord.PermissionOverwrite, *, member: discord.PermissionOverwrite
) -> discord.PermissionOverwrite | None:
    """A member's overwrite on a private place of a game that runs again (None: taken away)."""
    if current in (_READ_ONLY, READ_ONLY_TALKS):
        return member
    if current == TALK_READER:  # the talks are private again
        return None
    return current


def _with_members(
    channel: discord.TextChannel,
    guild: discord.Guild,
    change: Callable[[discord.PermissionOverwrite], discord.PermissionOverwrite | None],
) -> dict[discord.Role | discord.Member | discord.Object, discord.PermissionOverwrite]:
    """The channel's overwrites with each member's (other than the bot) replaced by ``change(current)``,
    or removed when that is None."""
    overwrites = dict(channel.overwrites)
    for target, current in list(overwrites.items()):
        if isinstance(target, discord.Role) or target.id == guild.me.id:
            continue
        new = change(current)
        if new is None:
            del overwrites[target]
        else:
            overwrites[target] = new
    return overwrites


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
