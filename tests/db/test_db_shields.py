"""Migration 0014: the games running when it comes in are marked as set up without the players'
shields (the bot puts them on at its next start, gm.setup.shields); every other game, and every game
made afterwards, is not. The outbox's place target goes down and up again with its messages kept."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from sqlalchemy import inspect, text, update
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import col, select

from db.database import make_session_factory
from db.migrate import current_revision, downgrade_database, head_revision, upgrade_database
from db.models import Game, OutboxEntry
from gm.settings import GameSettings
from gm.setup import games

pytestmark = pytest.mark.both_backends  # on PostgreSQL too: a migration, down and up


async def test_only_the_games_running_at_the_upgrade_are_marked_for_the_shields(engine: AsyncEngine) -> None:
    await upgrade_database(engine)
    sessions = make_session_factory(engine)
    now = datetime.now(UTC)
    made: dict[str, int] = {}
    for status in ("forming", "active", "paused", "finished", "cancelled"):
        async with sessions.begin() as s:
            game = await games.create_game(
                s, guild_id=1, creator_id=10, name=status, settings=GameSettings(fill_seats=True), now=now
            )
        if status != "forming":
            async with sessions.begin() as s:
                await games.start_game(s, game.id, 10, now=now, rng=random.Random(1))
            async with sessions() as s:
                await s.exec(update(Game).where(col(Game.id) == game.id).values(status=status))
                await s.commit()
        made[status] = game.id
    async with sessions() as s:
        queued = len((await s.exec(select(OutboxEntry))).all())
    assert queued > 0

    await downgrade_database(engine, "0013")  # as a database of the version before
    assert await current_revision(engine) == "0013"
    async with engine.connect() as connection:
        columns = await connection.run_sync(lambda c: {col["name"] for col in inspect(c).get_columns("game")})
    assert "places_shielded" not in columns
    await upgrade_database(engine)
    assert await current_revision(engine) == head_revision()

    async with sessions() as s:
        shielded = {g.name: g.places_shielded for g in (await s.exec(select(Game))).all()}
        kept = len((await s.exec(select(OutboxEntry))).all())
    assert shielded == {
        "forming": True,  # its start sets the shields
        "active": False,  # running: the next start puts them on
        "paused": False,
        "finished": True,  # over: its places are archived
        "cancelled": True,
    }
    assert kept == queued
    async with sessions.begin() as s:  # a game made now has them from its start
        late = await games.create_game(
            s, guild_id=1, creator_id=10, name="late", settings=GameSettings(), now=now
        )
    async with engine.connect() as connection:
        stored = (
            await connection.execute(text("SELECT places_shielded FROM game WHERE id = :id"), {"id": late.id})
        ).scalar()
    assert stored in (True, 1)
