"""Grace in play (frozen clocks): at a deadline, a player who must act, sent nothing and never missed
gets the deadline extended once, announced without naming them; each player has so many extensions a
calendar year; an early or a moderator's close is never extended."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import select

from db.database import SessionFactory
from db.models import GraceUse
from gm.actor import Actor
from gm.moderation import actions as moderation
from gm.phases.closer import CloseOutcome, PhaseCloser
from gm.settings import GameSettings
from gm.setup import games
from tests.gm.conftest import CREATOR, current_phase, make_game, messages, player_row, submit, user

pytestmark = pytest.mark.both_backends  # on PostgreSQL too: dates

GRACE = GameSettings(players=3, grace_per_year=1, grace_hours=24)
JUDGE = Actor(user(41), is_server_moderator=True)


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


async def start(sessions: SessionFactory, now: datetime, settings: GameSettings = GRACE) -> games.StartResult:
    game = await make_game(sessions, players=settings.players, settings=settings)
    async with sessions.begin() as s:
        return await games.start_game(s, game.id, CREATOR, now=now, rng=random.Random(2))


def seats(started: games.StartResult) -> dict[int, list[str]]:
    """user -> the powers they hold."""
    held: dict[int, list[str]] = {}
    for power, user_id in sorted(started.assignments.items()):
        if user_id is not None:
            held.setdefault(user_id, []).append(power)
    return held


async def at_deadline(sessions: SessionFactory, game_id: int, when: datetime) -> CloseOutcome:
    """The deadline job fires at ``when``."""
    closer = PhaseCloser(sessions, clock=lambda: when, render_maps=False)
    return await closer.close((await current_phase(sessions, game_id)).row_id)


async def orders_from(
    sessions: SessionFactory, started: games.StartResult, user_id: int, now: datetime
) -> None:
    first = seats(started)[user_id][0]
    unit = {"AUSTRIA": "A Vie H", "ENGLAND": "F Lon H", "FRANCE": "A Par H", "GERMANY": "A Ber H"}
    unit |= {"ITALY": "A Rom H", "RUSSIA": "A Mos H", "TURKEY": "A Con H"}
    await submit(sessions, started, first, unit[first], now=now)


async def uses(sessions: SessionFactory) -> list[GraceUse]:
    async with sessions() as s:
        return list((await s.exec(select(GraceUse))).all())


async def test_a_first_miss_extends_the_deadline_once_and_says_nobody_s_name(
    sessions: SessionFactory,
) -> None:
    started = await start(sessions, utc(2024, 3, 4, 8, 0))
    deadline = started.phase.deadline
    assert deadline == utc(2024, 3, 5, 8, 0)
    punctual, forgetful = sorted(seats(started))[:2], sorted(seats(started))[2]
    for user_id in punctual:
        await orders_from(sessions, started, user_id, utc(2024, 3, 4, 9, 0))

    extended = await at_deadline(sessions, started.game.id, deadline)
    assert not extended.closed and extended.extended is not None
    assert extended.extended.deadline == deadline + timedelta(hours=24)
    assert (await current_phase(sessions, started.game.id)).status == "open"
    [notice] = await messages(sessions, "deadline_moved")
    assert notice.payload["reason"] == "grace" and notice.payload["deadline"] == "2024-03-06T08:00:00+00:00"
    assert notice.payload["lines"] == [
        "The deadline is extended by 24 hours: a grace extension, given once in a while to a player who "
        "has not missed a phase before."
    ]
    assert str(forgetful) not in str(notice.payload) and "orders" not in str(notice.payload["lines"])
    assert [(u.user_id, u.at) for u in await uses(sessions)] == [(forgetful, deadline)]

    closed = await at_deadline(sessions, started.game.id, deadline + timedelta(hours=24))
    assert closed.closed, "one grace extension per phase: the extended deadline closes it"
    assert len(await messages(sessions, "deadline_moved")) == 1
    assert (await player_row(sessions, started.game.id, forgetful)).missed_phases == 1

    # Fall 1901: the forgetful player sends nothing again, but has missed a phase now: no grace
    for user_id in punctual:
        await orders_from(sessions, started, user_id, utc(2024, 3, 6, 9, 0))
    fall = await at_deadline(sessions, started.game.id, utc(2024, 3, 7, 8, 0))
    assert fall.closed and fall.extended is None and len(await uses(sessions)) == 1


async def test_each_player_has_so_many_extensions_a_calendar_year(sessions: SessionFactory) -> None:
    started = await start(sessions, utc(2024, 12, 29, 12, 0))
    everyone = sorted(seats(started))
    late = everyone[0]
    for user_id in everyone[1:]:
        await orders_from(sessions, started, user_id, utc(2024, 12, 29, 13, 0))
    first = await at_deadline(sessions, started.game.id, utc(2024, 12, 30, 12, 0))
    assert first.extended is not None  # 2024's extension
    await orders_from(sessions, started, late, utc(2024, 12, 30, 14, 0))  # in time, thanks to it
    spring = await at_deadline(sessions, started.game.id, utc(2024, 12, 31, 12, 0))
    assert spring.closed and spring.next_phase is not None
    assert (await player_row(sessions, started.game.id, late)).missed_phases == 0

    for user_id in everyone[1:]:
        await orders_from(sessions, started, user_id, utc(2024, 12, 31, 13, 0))
    # Fall 1901 is due on 1 January 2025: a new year, a new extension for the same player
    assert spring.next_phase.deadline == utc(2025, 1, 1, 12, 0)
    fall = await at_deadline(sessions, started.game.id, utc(2025, 1, 1, 12, 0))
    assert fall.extended is not None and fall.extended.deadline == utc(2025, 1, 2, 12, 0)
    assert [u.user_id for u in await uses(sessions)] == [late, late]


async def test_a_second_forget_in_the_same_year_is_not_extended(sessions: SessionFactory) -> None:
    started = await start(sessions, utc(2024, 3, 4, 8, 0))
    everyone = sorted(seats(started))
    late = everyone[0]
    for user_id in everyone[1:]:
        await orders_from(sessions, started, user_id, utc(2024, 3, 4, 9, 0))
    assert (await at_deadline(sessions, started.game.id, utc(2024, 3, 5, 8, 0))).extended is not None
    await orders_from(sessions, started, late, utc(2024, 3, 5, 9, 0))
    spring = await at_deadline(sessions, started.game.id, utc(2024, 3, 6, 8, 0))
    assert spring.closed
    for user_id in everyone[1:]:
        await orders_from(sessions, started, user_id, utc(2024, 3, 6, 9, 0))
    fall = await at_deadline(sessions, started.game.id, utc(2024, 3, 7, 8, 0))
    assert fall.closed and fall.extended is None, "this year's extension is spent"


async def test_no_grace_without_the_setting_nor_for_an_early_or_a_moderator_s_close(
    sessions: SessionFactory,
) -> None:
    plain = await start(sessions, utc(2024, 3, 4, 8, 0), GameSettings(players=3))
    assert (await at_deadline(sessions, plain.game.id, utc(2024, 3, 5, 8, 0))).closed

    graced = await start(sessions, utc(2024, 3, 4, 8, 0))
    async with sessions.begin() as s:
        await moderation.close_now(s, graced.game.id, JUDGE, now=utc(2024, 3, 4, 10, 0))
    closer = PhaseCloser(sessions, clock=lambda: utc(2024, 3, 4, 10, 0), render_maps=False)
    assert (await closer.close(graced.phase.id)).closed, "a moderator's close is never extended"
    early = await PhaseCloser(sessions, clock=lambda: utc(2024, 3, 5, 9, 0), render_maps=False).close(
        (await current_phase(sessions, graced.game.id)).row_id, reason="all_ready"
    )
    assert early.closed and await uses(sessions) == []
