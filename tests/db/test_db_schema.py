"""The migrations build the schema the code expects, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError, StatementError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import SQLModel, select

from db.database import make_session_factory
from db.migrate import current_revision, downgrade_database, head_revision, upgrade_database
from db.models import Game, GameLogEntry, OrderRecord, PhaseRecord, Player
from gm.ordering import submission as orders
from gm.settings import GameSettings
from gm.setup import games

pytestmark = pytest.mark.both_backends  # on PostgreSQL too: the schema the migrations build

ROOT = Path(__file__).resolve().parents[2]


async def test_upgrade_creates_the_schema_of_the_models(engine: AsyncEngine) -> None:
    assert await current_revision(engine) is None
    await upgrade_database(engine)
    assert await current_revision(engine) == head_revision()

    async with engine.connect() as conn:
        diffs = await conn.run_sync(
            lambda c: compare_metadata(
                MigrationContext.configure(c, opts={"compare_type": True}), SQLModel.metadata
            )
        )
    assert diffs == [], f"models and migrations disagree; write a migration for: {diffs}"


async def test_an_upgrade_of_an_up_to_date_database_changes_nothing_and_keeps_data(
    migrated: AsyncEngine,
) -> None:
    sessions = make_session_factory(migrated)
    async with sessions() as session:
        session.add(_game())
        await session.commit()
    await upgrade_database(migrated)
    async with sessions() as session:
        assert len((await session.exec(select(Game))).all()) == 1


async def test_timestamps_come_back_aware_in_utc(migrated: AsyncEngine) -> None:
    sessions = make_session_factory(migrated)
    paris_summer = timezone(timedelta(hours=2))
    created = datetime(2024, 6, 1, 20, 30, tzinfo=paris_summer)
    async with sessions() as session:
        game = _game(created_at=created)
        session.add(game)
        await session.commit()
        game_id = game.id
    async with sessions() as session:
        loaded = await session.get(Game, game_id)
        assert loaded is not None
        assert loaded.created_at == created
        assert loaded.created_at.utcoffset() == timedelta(0)
        assert loaded.created_at.hour == 18


async def test_a_naive_timestamp_is_refused(migrated: AsyncEngine) -> None:
    sessions = make_session_factory(migrated)
    async with sessions() as session:
        session.add(_game(created_at=datetime(2024, 6, 1, 20, 30)))
        with pytest.raises(StatementError, match="naive datetime"):
            await session.commit()


async def test_discord_snowflakes_up_to_2_63_fit(migrated: AsyncEngine) -> None:
    sessions = make_session_factory(migrated)
    big = 2**63 - 1
    async with sessions() as session:
        game = _game(guild_id=big, creator_id=big - 1)
        session.add(game)
        await session.flush()
        session.add(Player(game_id=game.row_id, user_id=big - 2, joined_at=datetime.now(UTC)))
        await session.commit()
    async with sessions() as session:
        game = (await session.exec(select(Game))).one()
        player = (await session.exec(select(Player))).one()
    assert (game.guild_id, game.creator_id, player.user_id) == (big, big - 1, big - 2)


async def test_foreign_keys_are_enforced(migrated: AsyncEngine) -> None:
    sessions = make_session_factory(migrated)
    async with sessions() as session:
        session.add(GameLogEntry(game_id=12345, at=datetime.now(UTC), action="created"))
        with pytest.raises(IntegrityError):
            await session.commit()


async def test_sqlite_runs_in_wal_mode(sqlite_engine: AsyncEngine) -> None:
    engine = sqlite_engine
    await upgrade_database(engine)
    async with engine.connect() as conn:
        assert (await conn.execute(text("PRAGMA journal_mode"))).scalar() == "wal"
        assert (await conn.execute(text("PRAGMA foreign_keys"))).scalar() == 1


def _game(**overrides: Any) -> Game:
    fields: dict[str, Any] = {
        "guild_id": 1,
        "name": "Test game",
        "creator_id": 2,
        "settings": {},
        "created_at": datetime.now(UTC),
    }
    fields.update(overrides)
    return Game(**fields)


async def test_the_votes_migration_goes_down_and_up_again_keeping_the_games(engine: AsyncEngine) -> None:
    """0002 replaced the unused first vote table and added proposals and the paused time left."""
    await upgrade_database(engine)
    sessions = make_session_factory(engine)
    async with sessions() as session:
        session.add(_game())
        await session.commit()

    await downgrade_database(engine, "0001")
    assert await current_revision(engine) == "0001"
    async with engine.connect() as connection:
        tables = await connection.run_sync(lambda c: set(inspect(c).get_table_names()))
        vote_columns = await connection.run_sync(
            lambda c: {col["name"] for col in inspect(c).get_columns("vote")}
        )
    assert "proposal" not in tables and {"phase_id", "kind"} <= vote_columns

    await upgrade_database(engine)
    assert await current_revision(engine) == head_revision()
    async with sessions() as session:
        assert len((await session.exec(select(Game))).all()) == 1


async def test_the_migrations_go_down_and_up_again_under_a_started_game_with_orders(
    engine: AsyncEngine,
) -> None:
    """SQLite rebuilds a table to drop a column (batch mode): rows referencing it (a phase's orders,
    its outbox messages) must survive the rebuild both ways."""
    await upgrade_database(engine)
    sessions = make_session_factory(engine)
    now = datetime.now(UTC)
    async with sessions.begin() as s:
        game = await games.create_game(
            s, guild_id=1, creator_id=10, name="Kept", settings=GameSettings(), now=now
        )
    for user_id in range(11, 17):
        async with sessions.begin() as s:
            await games.join_game(s, game.id, user_id, now=now)
    async with sessions.begin() as s:
        started = await games.start_game(s, game.id, 10, now=now)
    france = started.assignments["FRANCE"]
    assert france is not None
    async with sessions.begin() as s:
        await orders.submit_orders(s, game.id, france, "A Par-Bur\nA Mar-Spa", now=now)

    await downgrade_database(engine, "0001")
    assert await current_revision(engine) == "0001"
    async with engine.connect() as connection:
        tables = await connection.run_sync(lambda c: set(inspect(c).get_table_names()))
    assert "proposal" not in tables

    await upgrade_database(engine)
    assert await current_revision(engine) == head_revision()
    async with sessions() as s:
        kept = (await s.exec(select(OrderRecord).where(OrderRecord.phase_id == started.phase.id))).all()
        phase = await s.get(PhaseRecord, started.phase.id)
    assert sorted(o.text for o in kept) == ["A MAR - SPA", "A PAR - BUR"]
    assert phase is not None and phase.name == "S1901M"
    async with engine.connect() as connection:  # foreign keys are enforced again afterwards
        if connection.dialect.name == "sqlite":
            assert (await connection.exec_driver_sql("PRAGMA foreign_keys")).scalar() == 1


async def test_a_migration_that_would_leave_broken_references_is_rolled_back(
    sqlite_engine: AsyncEngine,
) -> None:
    """SQLite only: PostgreSQL never lets a broken reference in."""
    engine = sqlite_engine
    await upgrade_database(engine, "0001")
    assert engine.url.database is not None
    with sqlite3.connect(engine.url.database) as raw:  # foreign keys off: an order whose phase is gone
        raw.execute(
            "INSERT INTO unit_order (phase_id, power, unit_key, text, input, submitted_by, submitted_at) "
            "VALUES (999, 'FRANCE', 'PAR', 'A PAR H', 'A Par H', 1, '2024-01-01 00:00:00')"
        )
    raw.close()
    with pytest.raises(RuntimeError, match="broken foreign keys"):
        await upgrade_database(engine)
    assert await current_revision(engine) == "0001"  # nothing of the upgrade was committed


async def test_the_revisions_read_from_the_migration_files_are_alembics(engine: AsyncEngine) -> None:
    """The bot tells where a database stands without loading Alembic (db.migrate): the same answers."""
    from alembic.script import ScriptDirectory

    from db.migrate import alembic_config, known_revision

    script = ScriptDirectory.from_config(alembic_config())
    assert head_revision() == script.get_current_head()
    assert all(known_revision(r.revision) for r in script.walk_revisions())
    assert not known_revision("9999") and known_revision(None)
    await upgrade_database(engine, "0003")
    assert await current_revision(engine) == "0003"
    async with engine.connect() as conn:
        assert await conn.run_sync(lambda c: MigrationContext.configure(c).get_current_revision()) == "0003"


async def test_a_database_at_two_revisions_at_once_is_refused(migrated: AsyncEngine) -> None:
    async with migrated.begin() as conn:
        await conn.execute(text("INSERT INTO alembic_version (version_num) VALUES ('0003')"))
    with pytest.raises(RuntimeError, match="several revisions"):
        await current_revision(migrated)


def test_a_start_on_an_up_to_date_database_never_loads_alembic(tmp_path: Path) -> None:
    """Alembic, Mako and Pygments stay out of the bot's process unless it upgrades (~10 MiB kept)."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    script = f"""
import asyncio, sys
import bot
from db.database import make_engine
from db.preflight import prepare_database

async def start():
    engine = make_engine({url!r})
    state = await prepare_database(engine)
    await engine.dispose()
    return state

state = asyncio.run(start())
print(state.at_head, sorted({{m.split(".")[0] for m in sys.modules}} & {{"alembic", "mako", "pygments"}}))
"""

    def start() -> str:
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert start() == "False ['alembic', 'mako', 'pygments']"  # an empty database: upgraded, with Alembic
    assert start() == "True []"  # the next start: at the latest revision, nothing of Alembic loaded
