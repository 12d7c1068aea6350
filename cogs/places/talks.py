"""A seat's private talks opened mid-game, for a person who takes over a seat that had none.

A seat the built-in player held from the start (``fill_seats``) has no private talks: nobody was
there to talk with. When a person takes it over, the pair places the start would have made between
that seat and each other person's seat are made now (cogs.messages.sender, before the newcomer is let
into the seat's places): one private thread per pair in the game's negotiation channel (made too, when
the game had a single person until now), or one pair channel per pair, as the game's press setting
says. They follow the start's rules (cogs.places.spaces): the pair's two players are the thread's
members (a pair channel's overwrites let them in), every other player is shielded from it whatever
their roles, and each place is recorded the moment Discord returns it, so that a resend of the
take-over finds it instead of making a second one. Discord's limits are checked first, as the start
checks them (a server's 500 channels and 1,000 active threads, a category's 50 channels): when the
talks do not fit, none is made and the newcomer is told why in their power's channel.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord

from cogs.places.spaces import (
    ACTIVE_THREAD_LIMIT,
    CATEGORY_FULL,
    CHANNEL_LIMIT,
    LIMIT_CODES,
    PAIR_TOPIC,
    THREAD_ARCHIVE_MINUTES,
    THREADS_ONLY,
    Seat,
    moderator_role,
    negotiation_name,
    pair_channel_name,
    place_prefix,
    private_overwrites,
    seat_label,
    talk_intro,
    thread_name,
)
from gm.public import GameInfo, GamePlaces, PlaceKind, key_powers, pair_key

log = logging.getLogger(__name__)

PER_CATEGORY = 50  # channels Discord allows in one category

Record = Callable[[PlaceKind, int, str], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Talks:
    """What :func:`open_talks` did: the places it made, or why it made none."""

    made: int = 0
    refused: str | None = None


def seats_now(places: GamePlaces) -> dict[int, Seat]:
    """Each person who holds a power now, with every power they hold (sorted, as the start names seats)."""
    held: dict[int, list[str]] = {}
    for power, user in sorted(places.holders.items()):
        if user is not None:
            held.setdefault(user, []).append(power)
    return {user: tuple(powers) for user, powers in held.items()}


def missing_pairs(places: GamePlaces, user_id: int) -> list[tuple[Seat, Seat]]:
    """The pairs of ``user_id``'s seat with each other person's seat that have no place yet, each in
    the start's order (the seat of the first power first)."""
    seats = seats_now(places)
    mine = seats.get(user_id)
    if mine is None:
        return []
    recorded = [key_powers(key) for key in places.pair_places]
    missing = []
    for other, theirs in seats.items():
        if other == user_id or any(set(mine) & named and set(theirs) & named for named in recorded):
            continue
        a, b = sorted((mine, theirs))
        missing.append((a, b))
    return sorted(missing)


async def open_talks(
    guild: discord.Guild,
    places: GamePlaces,
    game: GameInfo,
    user_id: int,
    moderator_role_name: str,
    record: Record,
) -> Talks:
    """Make the pair places ``user_id``'s seat lacks with each other person's seat (module docstring)."""
    press = game.settings.press
    if game.settings.anonymous:  # relayed talks (gm.facade.relaying): no pair place shows its members
        return Talks()
    if press not in ("threads", "channels") or not places.made:  # no private talks, or a game set up
        return Talks()  # before places were recorded (it has no built-in player)
    pairs = missing_pairs(places, user_id)
    if not pairs:
        return Talks()
    category = guild.get_channel(places.category_id or 0)
    if not isinstance(category, discord.CategoryChannel):
        return Talks(refused="the game's category is gone")
    parent = guild.get_channel(places.negotiation_channel_id or 0)
    channels = len(pairs) if press == "channels" else int(not isinstance(parent, discord.TextChannel))
    threads = len(pairs) if press == "threads" else 0
    why = _no_room(guild, category, channels, threads)
    if why is not None:
        return Talks(refused=why)
    players = set(seats_now(places))
    mods = moderator_role(guild, moderator_role_name)
    prefix = place_prefix(places.game_id, places.place_tag)
    made = 0
    try:
        if press == "threads" and not isinstance(parent, discord.TextChannel):
            parent = await guild.create_text_channel(
                negotiation_name(prefix),
                category=category,
                overwrites=private_overwrites(guild, mods, players, players, THREADS_ONLY),
                topic="Private talks: one private thread per pair of players, visible only to those two.",
            )
            await record(PlaceKind.NEGOTIATION, parent.id, "")
            made += 1
        for a, b in pairs:
            pair = {u for u, seat in seats_now(places).items() if seat in (a, b)}
            if isinstance(parent, discord.TextChannel):
                thread = await parent.create_thread(
                    name=thread_name(a, b),
                    type=discord.ChannelType.private_thread,
                    invitable=False,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                )
                await record(PlaceKind.THREAD, thread.id, pair_key(a, b))
                for member in sorted(pair):
                    await thread.add_user(discord.Object(id=member))
                place: discord.abc.Messageable = thread
            else:
                place = await guild.create_text_channel(
                    pair_channel_name(prefix, a, b),
                    category=category,
                    overwrites=private_overwrites(guild, mods, players, pair),
                    topic=f"{PAIR_TOPIC} {seat_label(a)} and {seat_label(b)}.",
                )
                await record(PlaceKind.PAIR_CHANNEL, place.id, pair_key(a, b))
            made += 1
            await _introduce(place, talk_intro(a, b, game))
    except discord.HTTPException as exc:
        log.warning("game %s: could not open the private talks of %s: %s", places.game_id, user_id, exc)
        if exc.code in LIMIT_CODES or CATEGORY_FULL in (exc.text or ""):
            return Talks(made=made, refused=f"Discord refused: {exc.text or 'a limit was reached'}")
        return Talks(made=made, refused=f"Discord refused ({exc.status}: {exc.text or 'error'})")
    return Talks(made=made)


def _no_room(
    guild: discord.Guild, category: discord.CategoryChannel, channels: int, threads: int
) -> str | None:
    """Why the places do not fit under Discord's limits, or None."""
    if channels and len(guild.channels) + channels > CHANNEL_LIMIT:
        return (
            f"this server has {len(guild.channels)} of Discord's {CHANNEL_LIMIT} channels and they need "
            f"{channels} more"
        )
    if channels and len(category.channels) + channels > PER_CATEGORY:
        return (
            f"the game's category has {len(category.channels)} of Discord's {PER_CATEGORY} channels and they "
            f"need {channels} more"
        )
    if threads and len(guild.threads) + threads > ACTIVE_THREAD_LIMIT:
        return (
            f"this server has {len(guild.threads)} of Discord's {ACTIVE_THREAD_LIMIT} active threads and "
            f"they need {threads} more"
        )
    return None


async def tell_refusal(guild: discord.Guild, places: GamePlaces, user_id: int, why: str) -> None:
    """Tell the newcomer, in their power's channel, why their private talks could not be made."""
    found = [guild.get_channel(i) for i in places.channels_of(user_id)]
    channel = next((c for c in found if isinstance(c, discord.TextChannel)), None)
    if channel is None:
        return
    text = (
        f"<@{user_id}>, I could not open your private talks with the other players: {why}. A server "
        "admin can make room (finished games' places stay until someone deletes them); until then, talk "
        "to the others by direct message or in the game channel."
    )
    try:
        await channel.send(text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=user_id)]))
    except discord.HTTPException as exc:
        log.warning("could not tell %s that their private talks were not made: %s", user_id, exc)


async def _introduce(place: discord.abc.Messageable, text: str) -> None:
    try:
        await place.send(text)
    except discord.HTTPException as exc:
        log.warning("could not introduce a private place: %s", exc)
