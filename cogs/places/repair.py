"""The players' shields put on a game that was set up before them (gm.setup.shields' Shielder).

What a start sets today (cogs.places.spaces, "Shields"), added to the places of a game set up
without it: on each power's channel, :data:`SHIELD` for every player but the power's own; on each
pair channel, :data:`SHIELD` for every player outside the pair; on the negotiation channel, every
player's overwrite becomes :data:`THREADS_ONLY` (which denies Manage Threads); and no player stays a
member of a pair's thread that is not theirs. Nothing else is touched: a player's own overwrites, the
moderators', anything a server admin added.

Only what is missing is changed. A channel whose cached overwrites lack a shield is read afresh from
Discord (the cache may not have caught up with a change made a moment before) and written back once
with the shields added (one request instead of one per player); should Discord refuse that (an
overwrite an admin set that the bot could not grant itself), the shields go on one by one. Each
thread's members are listed once. So a game done twice changes nothing the second time; at start-up a
game marked as done is not even looked at (gm.setup.shields).
"""

from __future__ import annotations

import logging

import discord

from cogs.places.locks import PlaceLocks
from cogs.places.spaces import SHIELD, THREADS_ONLY, negotiation_places, overwrite_of, pair_powers
from gm.facade import Gamemaster
from gm.public import GamePlaces, Pacer, ShieldWork

log = logging.getLogger(__name__)

REASON = "players read only their own private places (shields for a game set up before them)"


class DiscordShielder:
    """gm.setup.shields.Shielder for a discord.py client that is connected (on_ready)."""

    def __init__(self, client: discord.Client, games: Gamemaster, locks: PlaceLocks) -> None:
        self.client = client
        self.games = games
        self.locks = locks

    async def shield_places(self, places: GamePlaces, pace: Pacer) -> ShieldWork | None:
        guild = self.client.get_guild(places.guild_id)
        if guild is None or guild.unavailable:
            return None
        async with self.locks.of(places.game_id):
            current = await self.games.game_places(places.game_id)  # a seat may have moved meanwhile
            return await shield_players(guild, current, pace)


class _Requests:
    """Counts the requests made, each after the pace allows it."""

    def __init__(self, pace: Pacer) -> None:
        self.pace = pace
        self.made = 0

    async def __call__(self) -> None:
        await self.pace()
        self.made += 1


async def shield_players(guild: discord.Guild, places: GamePlaces, pace: Pacer) -> ShieldWork:
    """Add the shields every player of the game should hold on its places (module docstring)."""
    players = {u for u in places.holders.values() if u is not None}
    requests = _Requests(pace)
    failed = 0
    if not players:
        return ShieldWork()
    for power, channel_id in sorted(places.power_channels.items()):
        channel = guild.get_channel(channel_id) if channel_id is not None else None
        if isinstance(channel, discord.TextChannel):
            rivals = players - {places.holders.get(power)}
            failed += not await _add(guild, channel, dict.fromkeys(rivals, SHIELD), requests)
    for place in await _talks(guild, places, requests):
        named = pair_powers(place, places)
        if named is None:  # the negotiation channel: every player sees their own threads only
            if isinstance(place, discord.TextChannel):
                failed += not await _add(guild, place, dict.fromkeys(players, THREADS_ONLY), requests)
            continue
        pair = {u for p, u in places.holders.items() if u is not None and p.lower() in _lower(named)}
        if isinstance(place, discord.Thread):
            failed += not await _leave(place, players - pair, requests)
        else:
            failed += not await _add(guild, place, dict.fromkeys(players - pair, SHIELD), requests)
    return ShieldWork(requests=requests.made, failed=failed)


def _lower(powers: set[str]) -> set[str]:
    return {p.lower() for p in powers}


async def _talks(
    guild: discord.Guild, places: GamePlaces, requests: _Requests
) -> list[discord.TextChannel | discord.Thread]:
    """The game's negotiation channel and pair places; a thread missing from the cache (archived) is
    asked for, paced."""
    if not places.made:  # set up before places were recorded: found in its category, from the cache
        return await negotiation_places(guild, places, list(places.power_channels))
    found: list[discord.TextChannel | discord.Thread] = []
    channel = guild.get_channel(places.negotiation_channel_id or 0)
    if isinstance(channel, discord.TextChannel):
        found.append(channel)
    for _, place_id in sorted(places.pair_places.items()):
        place = guild.get_channel_or_thread(place_id)
        if place is None:
            await requests()
            try:
                place = await guild.fetch_channel(place_id)
            except discord.HTTPException:
                continue  # deleted: nobody reads it
        if isinstance(place, discord.TextChannel | discord.Thread):
            found.append(place)
    return found


async def _add(
    guild: discord.Guild,
    channel: discord.TextChannel,
    wanted: dict[int, discord.PermissionOverwrite],
    requests: _Requests,
) -> bool:
    """Give ``channel`` the member overwrites ``wanted`` (user id -> overwrite) it lacks, keeping every
    other overwrite; False when Discord refused."""
    if all(overwrite_of(channel, user) == overwrite for user, overwrite in wanted.items()):
        return True
    try:
        await requests()
        fresh = await guild.fetch_channel(channel.id)
        if not isinstance(fresh, discord.TextChannel):
            return True
        missing = {u: o for u, o in wanted.items() if overwrite_of(fresh, u) != o}
        if not missing:
            return True
        merged = {target: o for target, o in fresh.overwrites.items() if target.id not in missing}
        merged.update({discord.Object(id=user): overwrite for user, overwrite in missing.items()})
        try:
            await requests()
            await fresh.edit(overwrites=merged, reason=REASON)
            return True
        except discord.Forbidden:  # an overwrite there the bot could not grant itself: one by one
            for user, overwrite in missing.items():
                member = guild.get_member(user)  # the members are cached (the members intent)
                if member is not None:  # one who left the server reads nothing there anyway
                    await requests()
                    await fresh.set_permissions(member, overwrite=overwrite, reason=REASON)
            return True
    except discord.HTTPException as exc:
        log.warning("could not put the players' shields on channel %s: %s", channel.id, exc)
        return False


async def _leave(thread: discord.Thread, outsiders: set[int], requests: _Requests) -> bool:
    """Take ``outsiders`` (players outside the pair) out of ``thread``; False when Discord refused."""
    try:
        await requests()
        inside = [m.id for m in await thread.fetch_members() if m.id in outsiders]
        if inside and thread.archived:  # members of an archived thread cannot be removed
            await requests()
            thread = await thread.edit(archived=False, reason=REASON)
        for user in inside:
            await requests()
            await thread.remove_user(discord.Object(id=user))
        return True
    except discord.HTTPException as exc:
        log.warning("could not take players out of thread %s: %s", thread.id, exc)
        return False
