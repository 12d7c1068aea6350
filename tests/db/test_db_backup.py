"""Backups of the SQLite database: taken while the bot writes, restored to the same games; made by
themselves before an upgrade changes the file; PostgreSQL is sent to pg_dump."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from db.backup import backup_before_migration, migration_backups, rotate_backups
from db.database import make_engine, make_session_factory
from db.migrate import current_revision, head_revision
from db.preflight import prepare_database
from gm.settings import GameSettings
from gm.setup import games
from tests.helpers.db_cli import GUILD, T0, acli, cli, started_games

pytestmark = [
    pytest.mark.waits,  # processes or real time: spread through the run (tests/conftest.py)
    pytest.mark.both_backends,  # on PostgreSQL too: migrations and the database's own tools
]


def snapshot(path: Path) -> dict[str, list[tuple]]:
    """What a game is made of, table by table, in a stable order."""
    with closing(sqlite3.connect(path)) as conn:
        return {
            "game": conn.execute("SELECT id, name, status, settings FROM game ORDER BY id").fetchall(),
            "player": conn.execute("SELECT game_id, user_id, status FROM player ORDER BY id").fetchall(),
            "power": conn.execute(
                "SELECT game_id, power, player_id FROM power_assignment ORDER BY id"
            ).fetchall(),
            "phase": conn.execute("SELECT game_id, name, status, board FROM phase ORDER BY id").fetchall(),
            "orders": conn.execute(
                "SELECT phase_id, power, unit_key, text FROM unit_order ORDER BY id"
            ).fetchall(),
        }


async def test_a_backup_of_a_live_database_restores_to_the_same_games(tmp_path: Path) -> None:
    live = tmp_path / "live.db"
    url = f"sqlite+aiosqlite:///{live}"
    await started_games(url, 3)
    before = snapshot(live)

    # Writes in flight: new games keep being created, each in its own transaction, during the backup.
    engine = make_engine(url)
    sessions = make_session_factory(engine)
    writing = True
    written = 0

    async def keep_writing() -> None:
        nonlocal written
        while writing:
            async with sessions.begin() as s:
                await games.create_game(
                    s,
                    guild_id=GUILD,
                    creator_id=9000 + written,
                    name=f"Late {written}",
                    settings=GameSettings(),
                    now=T0,
                )
            written += 1
            await asyncio.sleep(0)

    writer = asyncio.create_task(keep_writing())
    while written < 5:
        await asyncio.sleep(0.01)
    code, out, err = await acli("--database-url", url, "backup", str(tmp_path / "copy.db"), cwd=tmp_path)
    at_backup_end = written
    while written < at_backup_end + 5:  # the bot went on writing after the backup
        await asyncio.sleep(0.01)
    writing = False
    await writer
    await engine.dispose()
    assert code == 0, err
    assert out.startswith(f"backed up {live} (") and "games) to" in out

    restored = tmp_path / "restored.db"
    run = cli("--database-url", f"sqlite:///{restored}", "restore", str(tmp_path / "copy.db"), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert f"restored {restored}" in run.stdout

    now_live, back = snapshot(live), snapshot(restored)
    games_back = back["game"]
    assert games_back[:3] == before["game"], "the three started games, as they were"
    started = {g[0] for g in before["game"]}
    for table in ("player", "power", "phase"):
        assert [r for r in back[table] if r[0] in started] == before[table], table
    assert back["orders"] == before["orders"] and len(before["orders"]) == 6
    late = [g for g in games_back if g[1].startswith("Late ")]
    assert 5 <= len(late) < len(now_live["game"]) - 3, "a snapshot taken while games were being created"
    assert games_back == now_live["game"][: len(games_back)], "a consistent prefix of what was committed"
    with closing(sqlite3.connect(restored)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",), "one self-contained file"
    check = make_engine(f"sqlite:///{restored}")
    assert await current_revision(check) == head_revision()
    await check.dispose()


def test_a_restore_keeps_the_database_it_replaces(tmp_path: Path) -> None:
    asyncio.run(started_games(f"sqlite:///{tmp_path / 'a.db'}", 1))
    asyncio.run(started_games(f"sqlite:///{tmp_path / 'b.db'}", 2))
    run = cli(
        "--database-url", f"sqlite:///{tmp_path / 'b.db'}", "restore", str(tmp_path / "a.db"), cwd=tmp_path
    )
    assert run.returncode == 0, run.stderr
    assert len(snapshot(tmp_path / "b.db")["game"]) == 1
    kept = list(tmp_path.glob("b.db.replaced-*"))
    assert len(kept) == 1 and len(snapshot(kept[0])["game"]) == 2
    assert "is kept at" in run.stdout


def test_a_file_that_is_not_a_backup_is_refused_and_nothing_is_replaced(tmp_path: Path) -> None:
    asyncio.run(started_games(f"sqlite:///{tmp_path / 'live.db'}", 1))
    (tmp_path / "junk.db").write_bytes(b"not a database at all" * 100)
    run = cli(
        "--database-url",
        f"sqlite:///{tmp_path / 'live.db'}",
        "restore",
        str(tmp_path / "junk.db"),
        cwd=tmp_path,
    )
    assert run.returncode == 1 and "is not a readable database" in run.stderr
    assert len(snapshot(tmp_path / "live.db")["game"]) == 1
    assert not list(tmp_path.glob("live.db.replaced-*"))


def test_postgresql_is_sent_to_pg_dump(tmp_path: Path) -> None:
    run = cli("--database-url", "postgresql://gm:pw@db/diplomacy", "backup", "x.dump", cwd=tmp_path)
    assert run.returncode == 2
    assert "pg_dump --format=custom" in run.stderr and "pg_restore" in run.stderr
    assert not (tmp_path / "x.dump").exists()


async def test_an_upgrade_backs_the_file_up_first_and_keeps_the_last_few(tmp_path: Path) -> None:
    path = tmp_path / "gm.db"
    url = f"sqlite:///{path}"
    await started_games(url, 1)
    older = "0006"
    from db.migrate import downgrade_database

    await downgrade_database(url, older)
    engine = make_engine(url)
    state = await prepare_database(engine, backups_kept=2)
    assert state.current == older and await current_revision(engine) == head_revision()
    backups = migration_backups(path)
    assert len(backups) == 1 and backups[0].parent == tmp_path
    saved = make_engine(f"sqlite:///{backups[0]}")
    assert await current_revision(saved) == older, "the backup is the database before the upgrade"
    await saved.dispose()
    assert len(snapshot(backups[0])["game"]) == 1

    await prepare_database(engine, backups_kept=2)  # at the latest revision: nothing to back up
    assert len(migration_backups(path)) == 1
    await engine.dispose()
    for _ in range(3):
        made = backup_before_migration(path, older, keep=2)
        assert made is not None
        rotate_backups(made, 2)  # what a successful upgrade does
    assert len(migration_backups(path)) == 2, "only the newest two are kept"


async def test_a_new_database_is_not_backed_up(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'new.db'}")
    await prepare_database(engine, backups_kept=3)
    await engine.dispose()
    assert migration_backups(tmp_path / "new.db") == []
