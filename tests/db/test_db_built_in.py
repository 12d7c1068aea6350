"""Migration 0012 (the built-in player's flag on power_assignment): a game started before it keeps its
seats and plays as before (no flag: the rulebook's civil disorder), and the migration goes down and up
again under a game whose seats have the flag."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import select

from db.database import make_session_factory
from db.migrate import current_revision, downgrade_database, head_revision, upgrade_database
from db.models import PowerAssignment
from gm.settings import GameSettings
from gm.setup import games

pytestmark = pytest.mark.both_backends  # on PostgreSQL too: a migration, down and up


async def test_the_built_in_flag_goes_down_and_up_again_keeping_every_seat(engine: AsyncEngine) -> None:
    await upgrade_database(engine)
    sessions = make_session_factory(engine)
    now = datetime.now(UTC)
    async with sessions.begin() as s:
        game = await games.create_game(
            s, guild_id=1, creator_id=10, name="Alone", settings=GameSettings(fill_seats=True), now=now
        )
    async with sessions.begin() as s:
        started = await games.start_game(s, game.id, 10, now=now, rng=random.Random(1))
    robots = sorted(p for p, u in started.assignments.items() if u is None)
    async with sessions() as s:
        rows = (await s.exec(select(PowerAssignment))).all()
    assert sorted(a.power for a in rows if a.built_in) == robots and len(robots) == 6

    await downgrade_database(engine, "0011")
    assert await current_revision(engine) == "0011"
    await upgrade_database(engine)
    assert await current_revision(engine) == head_revision()
    async with sessions() as s:
        kept = (await s.exec(select(PowerAssignment))).all()
    assert len(kept) == 7  # every seat survived the table's rebuild (SQLite's batch mode)
    assert all(a.built_in is None for a in kept)  # the flag is gone: as a game from before it
    assert sum(a.player_id is not None for a in kept) == 1
