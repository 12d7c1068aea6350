"""Readings of what every member could see in a game played in the anonymous or fogged mode on the fake
Discord (tests/e2e/test_bot_anonymous.py, test_bot_fog.py, test_bot_fog_modes.py): what named another
power's player, what showed a unit outside the reader's view; and the orders a short game plays."""

from __future__ import annotations

import re
from datetime import datetime

from sqlmodel import col, select

from bot import DiplomacyBot
from db.models import PhaseRecord
from engine import Board
from engine.fog import visible_provinces
from engine.legal import OrderKind, legal_orders
from engine.variants import game_map
from gm.rules.fog import seen_in_phase
from harness.bot_helpers import Table
from harness.fakediscord import FakeDiscord, User

UNIT = re.compile(r"\b[AF] ([A-Z]{3})(?:/[NSEW]C)?\b")
FULL_MAP = re.compile(r"-(orders|position|final)\.png$")


def names_of(user: User) -> set[str]:
    """How a member may be named on Discord: a mention, their user name, their display name."""
    return {
        f"<@{user.id}>",
        f"<@!{user.id}>",
        user.username,
        *([user.global_name] if user.global_name else []),
    }


def leaks(fake: FakeDiscord, table: Table, members: list[User], reader: User, end: datetime) -> list[str]:
    """What ``reader`` could see before ``end`` that named another of the game's ``members`` (every
    one who played in it): a message in any version they could read then (or can read now: a seat's
    newcomer reads its channel's past), a message another player wrote, a place's name, a thread's
    members, a place only some of the players read."""
    others = [u for u in members if u.id != reader.id]
    found = []
    for message in fake.world.messages.values():
        for revision in message.revisions:
            if reader.id in revision.audience and revision.at < end:
                for other in others:
                    if any(name in revision.text for name in names_of(other)):
                        found.append(f"message {revision.text[:80]!r} names {other.username}")
        if message.timestamp < end and reader.id in fake.world.audience(message):
            for other in others:
                if any(name in message.text for name in names_of(other)):
                    found.append(f"message {message.text[:80]!r}, readable now, names {other.username}")
        if message.author_id in {u.id for u in others} and reader.id in fake.world.audience(message):
            found.append(f"{message.text[:60]!r} was written by another player")
    for channel in fake.world.guild_channels(table.guild.id, threads=True):
        if not fake.world.can_view(reader.id, channel) or channel.id == table.general.id:
            continue
        for other in others:
            if any(name in channel.name for name in names_of(other)):
                found.append(f"the place {channel.name} names {other.username}")
            if channel.is_thread and other.id in channel.thread_members:
                found.append(f"the thread {channel.name} has {other.username} as a member")
        readers = {u.id for u in others if fake.world.can_view(u.id, channel)}
        if readers and readers != {u.id for u in others}:  # some players only: it shows who they are
            found.append(f"{channel.name} is read by {sorted(readers)} as well")
    return found


async def boards_of(bot: DiplomacyBot, game_id: int, variant: str) -> list[tuple[Board, Board | None]]:
    """Every phase's board at its start and after it (None while it is open), oldest first."""
    variant_map = game_map(variant)
    async with bot.runtime.sessions() as session:
        phases = (
            await session.exec(
                select(PhaseRecord).where(PhaseRecord.game_id == game_id).order_by(col(PhaseRecord.ordinal))
            )
        ).all()
    return [
        (
            Board.from_json(p.board, variant_map),
            Board.from_json(p.results["board_after"], variant_map) if p.results else None,
        )
        for p in phases
    ]


async def views(
    bot: DiplomacyBot, game_id: int, table: Table, variant: str = "standard"
) -> dict[int, set[str]]:
    """user id -> every province their powers saw in the game (at each phase's start and after it)."""
    seen: dict[int, set[str]] = {user.id: set() for user in table.players}
    for before, after in await boards_of(bot, game_id, variant):
        for user in table.players:
            powers = table.seats[user.id]
            seen[user.id] |= seen_in_phase(before, after or before, powers)
    return seen


def seen_before(fake: FakeDiscord, user: User, end: datetime) -> list[str]:
    """Every text ``user`` could read before ``end`` (each version, with who could see it then)."""
    texts = []
    for message in fake.world.messages.values():
        texts += [r.text for r in message.revisions if user.id in r.audience and r.at < end]
    return texts


def files_before(fake: FakeDiscord, user: User, end: datetime) -> list[str]:
    """The names of the bot's files ``user`` can see that were posted before ``end``."""
    return [
        a.filename
        for m in fake.visible_messages(user)
        if m.author_id == fake.world.bot.id and m.timestamp < end
        for a in m.attachments
    ]


def fog_leaks(
    fake: FakeDiscord, table: Table, seen: dict[int, set[str]], end: datetime, provinces: set[str]
) -> list[str]:
    """What a player could read before ``end`` of a unit or an order outside what their powers saw
    (a line naming a unit, none of whose provinces they saw), and every full map (not their own view)
    they got; what the onlooker could read of any unit, and any file they got."""
    found = []
    for user in table.players:
        for text in seen_before(fake, user, end):
            for line in text.splitlines():
                units = {p for p in UNIT.findall(line) if p in provinces}
                named = {p for p in re.findall(r"\b[A-Z]{3}\b", line) if p in provinces}
                if units and not named & seen[user.id]:
                    found.append(f"{table.seats[user.id]} read {line!r}")
        for name in files_before(fake, user, end):
            if FULL_MAP.search(name) or not any(name.endswith(f"-{p}.png") for p in table.seats[user.id]):
                found.append(f"{table.seats[user.id]} got the map {name}")
    for text in seen_before(fake, table.onlooker, end):
        found += [f"the onlooker read {line!r}" for line in text.splitlines() if UNIT.search(line)]
    found += [f"the onlooker got {name}" for name in files_before(fake, table.onlooker, end)]
    return found


def some_moves(board: Board, powers: list[str]) -> dict[str, str]:
    """Each power's orders for a movement phase: every unit moves to the first place it may (the first
    legal move, by the engine's order), for a short game that shows moves to whoever sees them."""
    orders = {}
    for power in powers:
        moves = [
            next((o.text for o in entry.orders if o.kind == OrderKind.MOVE and not o.via_convoy), None)
            for entry in legal_orders(board, power).entries
        ]
        if any(moves):
            orders[power] = "\n".join(m for m in moves if m)
    return orders


__all__ = [
    "FULL_MAP",
    "boards_of",
    "files_before",
    "fog_leaks",
    "leaks",
    "names_of",
    "seen_before",
    "some_moves",
    "views",
    "visible_provinces",
]
