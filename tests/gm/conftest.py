"""gm fixtures: a migrated database (SQLite file or PostgreSQL), sessions, and game set-up helpers."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Mapping
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import col, select

from db.database import SessionFactory, make_engine, make_session_factory
from db.models import Game, OutboxEntry, PhaseRecord, Player
from gm.ordering import submission as orders
from gm.phases.closer import CloseOutcome, PhaseCloser
from gm.reading.info import GameInfo
from gm.reading.lookup import latest_phase
from gm.settings import GameSettings
from gm.setup import games
from tests.helpers.leftovers import finish_work_left
from tests.helpers.replayed import replayed, settings_key

T0 = datetime(2024, 3, 1, 18, 0, tzinfo=UTC)  # the tests' "now" (in the past: deadlines from it are overdue)


@pytest.fixture
def database_url(migrated_database_url: str) -> str:
    """The test's database, at the latest schema (tests/pg.py: a copy of the session's migrated
    template), on SQLite and on PostgreSQL."""
    return migrated_database_url


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    """An engine on the test's migrated database (``database_url``); disposed once the work the test
    left running has finished (tests/helpers/leftovers.py)."""
    eng = make_engine(database_url)
    yield eng
    await finish_work_left()
    await eng.dispose()


@pytest.fixture
def sessions(engine: AsyncEngine) -> SessionFactory:
    return make_session_factory(engine)


CREATOR = 1000
GUILD = 555


def user(i: int) -> int:
    """The id of the i-th test user (0 is the creator); large, like real snowflakes."""
    return 2**62 + i if i else CREATOR


async def make_game(
    sessions: SessionFactory,
    *,
    players: int = 7,
    settings: GameSettings | Mapping[str, object] | None = None,
    name: str = "Test game",
    variant: str = "standard",
) -> GameInfo:
    """A game by CREATOR (default settings: 7 seats; ``settings`` may be changes of them, as a user
    gives them) with ``players`` users joined, creator included (made once per process: replayed)."""
    key = ("make_game", players, settings_key(settings), name, variant)
    return await replayed(
        sessions,
        key,
        lambda: _make_game(sessions, players=players, settings=settings, name=name, variant=variant),
    )


async def _make_game(
    sessions: SessionFactory,
    *,
    players: int,
    settings: GameSettings | Mapping[str, object] | None,
    name: str,
    variant: str,
) -> GameInfo:
    settings = settings or GameSettings()
    async with sessions.begin() as s:
        game = await games.create_game(
            s, guild_id=GUILD, creator_id=CREATOR, name=name, settings=settings, variant=variant, now=T0
        )
    for i in range(1, players):
        async with sessions.begin() as s:
            game = await games.join_game(s, game.id, user(i), now=T0)
    return game


async def make_started_game(
    sessions: SessionFactory,
    *,
    players: int = 7,
    settings: GameSettings | None = None,
    seed: int = 7,
    variant: str = "standard",
) -> games.StartResult:
    """A game made by ``make_game`` and started at T0 (made once per process: replayed)."""
    key = ("make_started_game", players, settings_key(settings), seed, variant)
    return await replayed(
        sessions,
        key,
        lambda: _start(sessions, players=players, settings=settings, seed=seed, variant=variant),
    )


async def _start(
    sessions: SessionFactory, *, players: int, settings: GameSettings | None, seed: int, variant: str
) -> games.StartResult:
    settings = settings or GameSettings(players=players)
    game = await make_game(sessions, players=settings.players, settings=settings, variant=variant)
    async with sessions.begin() as s:
        return await games.start_game(s, game.id, CREATOR, now=T0, rng=random.Random(seed))


def player_of(started: games.StartResult, power: str) -> int:
    user_id = started.assignments[power]
    assert user_id is not None, f"nobody plays {power}"
    return user_id


async def submit(
    sessions: SessionFactory, started: games.StartResult, power: str, text: str, *, now: datetime = T0
) -> orders.SubmissionReport:
    async with sessions.begin() as s:
        return await orders.submit_orders(s, started.game.id, player_of(started, power), text, now=now)


async def place(
    sessions: SessionFactory, phase_id: int, board: dict, *, adjustments: dict | None = None
) -> None:
    """Put a test position on an open phase (the engine's JSON board form)."""
    async with sessions() as s:
        phase = await s.get(PhaseRecord, phase_id)
        assert phase is not None
        phase.board = {"variant": "standard", **board}
        phase.name = board["phase"]
        phase.adjustments = adjustments
        await s.commit()


async def france_one_move_from_a_solo(sessions: SessionFactory, started: games.StartResult) -> None:
    """Fall 1901 with France on 17 centers: its A Pie-Ven (ordered here) takes Italy's Venice, the 18th."""
    seventeen = ["PAR", "MAR", "BRE", "SPA", "POR", "BEL", "HOL", "MUN", "KIE", "BER", "DEN", "SWE", "NWY"]
    seventeen += ["LON", "LVP", "EDI", "TUN"]
    await place(
        sessions,
        started.phase.id,
        {
            "phase": "F1901M",
            "units": {"FRANCE": ["A PIE"], "ITALY": ["A ROM"]},
            "centers": {"FRANCE": seventeen, "ITALY": ["ROM", "VEN", "NAP"]},
        },
    )
    await submit(sessions, started, "FRANCE", "A Pie-Ven")


async def current_phase(sessions: SessionFactory, game_id: int) -> PhaseRecord:
    async with sessions() as s:
        phase = await latest_phase(s, game_id)
        assert phase is not None
        return phase


def make_closer(sessions: SessionFactory, **kwargs: Any) -> PhaseCloser:
    """A closer working in threads, without maps unless asked (tests stay fast)."""
    kwargs.setdefault("render_maps", False)
    return PhaseCloser(sessions, clock=lambda: T0, **kwargs)


async def messages(sessions: SessionFactory, kind: str) -> list[OutboxEntry]:
    """The queued outbox messages of one kind, oldest first."""
    async with sessions() as s:
        rows = await s.exec(select(OutboxEntry).where(OutboxEntry.kind == kind).order_by(col(OutboxEntry.id)))
        return list(rows.all())


async def player_row(sessions: SessionFactory, game_id: int, user_id: int) -> Player:
    async with sessions() as s:
        row = (await s.exec(select(Player).where(Player.game_id == game_id, Player.user_id == user_id))).one()
        await s.commit()
        return row


async def set_player_status(
    sessions: SessionFactory, started: games.StartResult, power: str, status: str
) -> None:
    """Put the player of ``power`` straight into ``status`` (civil disorder, left): a test's set-up."""
    async with sessions() as s:
        row = (
            await s.exec(
                select(Player).where(
                    Player.game_id == started.game.id, Player.user_id == player_of(started, power)
                )
            )
        ).one()
        row.status = status
        await s.commit()


async def game_row(sessions: SessionFactory, game_id: int) -> Game:
    async with sessions() as s:
        game = await s.get(Game, game_id)
        assert game is not None
        await s.commit()
        return game


async def close(sessions: SessionFactory, game_id: int, *, closer: PhaseCloser | None = None) -> CloseOutcome:
    """Close the game's current phase, then any phase that may close at once (only absent powers act)."""
    closer = closer or make_closer(sessions)
    outcome = await closer.close((await current_phase(sessions, game_id)).row_id)
    while outcome.next_phase is not None and outcome.next_close_now:
        outcome = await closer.close(outcome.next_phase.id)
    return outcome
