"""What an operator of a real server meets: processes started together on one database, upgrades
that cannot lose data (a backup or a dump first, under one lock), files only their owner can read,
a restore refused while a bot uses the database, and a wrong DATABASE_URL named in one line."""

from __future__ import annotations

import asyncio
import logging
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import db.preflight
from db.backup import migration_backups
from db.database import make_engine
from db.inuse import hold_shared
from db.migrate import current_revision, downgrade_database, head_revision, upgrade_database
from db.preflight import prepare_database
from tests.helpers.db_cli import acli, cli, started_games

pytestmark = [
    pytest.mark.waits,  # processes or real time: spread through the run (tests/conftest.py)
    pytest.mark.both_backends,  # on PostgreSQL too: migrations and the database's own tools
]

OLDER = "0006"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_processes_started_together_on_an_empty_database_all_come_up(
    database_url: str, tmp_path: Path
) -> None:
    """Three upgrades at once (as three bot processes starting together would make): one creates the
    tables, the others wait for its lock and find the schema done; none fails."""
    runs = await asyncio.gather(
        *(acli("--database-url", database_url, "upgrade", cwd=tmp_path) for _ in range(3))
    )
    assert [code for code, _, _ in runs] == [0, 0, 0], runs
    engine = make_engine(database_url)
    try:
        assert await current_revision(engine) == head_revision()
    finally:
        await engine.dispose()


async def test_postgresql_is_dumped_before_an_upgrade_where_pg_dump_is_installed(
    postgres_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    await started_games(postgres_url, 1)
    await downgrade_database(postgres_url, OLDER)
    engine = make_engine(postgres_url)
    caplog.set_level(logging.INFO)
    try:
        state = await prepare_database(engine, backups_kept=2, backup_dir=tmp_path / "dumps")
        assert state.current == OLDER and await current_revision(engine) == head_revision()
    finally:
        await engine.dispose()
    dumps = list((tmp_path / "dumps").glob("*.pre-migration.dump"))
    assert len(dumps) == 1 and mode(dumps[0]) == 0o600, "one dump, its owner's only"
    listing = subprocess.run(["pg_restore", "--list", str(dumps[0])], capture_output=True, text=True)
    assert listing.returncode == 0 and "TABLE DATA public game" in listing.stdout, "a dump with the games"
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("pg_dump took a dump of it first" in line and str(dumps[0]) in line for line in warned)


async def test_without_pg_dump_the_upgrade_says_no_dump_was_taken(
    postgres_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    await upgrade_database(postgres_url, OLDER)
    monkeypatch.setattr(db.preflight, "pg_dump_program", lambda: None)
    caplog.set_level(logging.INFO)
    engine = make_engine(postgres_url)
    try:
        await prepare_database(engine, backup_dir=tmp_path)
    finally:
        await engine.dispose()
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warned) == 1 and "no dump was taken, pg_dump is not installed" in warned[0], warned
    assert list(tmp_path.iterdir()) == []


async def test_a_failed_dump_leaves_the_database_as_it_was(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await upgrade_database(postgres_url, OLDER)
    failing = tmp_path / "pg_dump"
    failing.write_text("#!/bin/sh\necho 'pg_dump: error: server version mismatch' >&2\nexit 1\n")
    failing.chmod(0o700)
    monkeypatch.setattr(db.preflight, "pg_dump_program", lambda: str(failing))
    engine = make_engine(postgres_url)
    try:
        with pytest.raises(db.preflight.DatabaseProblem) as refused:
            await prepare_database(engine, backup_dir=tmp_path)
        assert "pg_dump failed: pg_dump: error: server version mismatch" in refused.value.reason
        assert "nothing was changed" in refused.value.reason
        assert await current_revision(engine) == OLDER
    finally:
        await engine.dispose()


def test_backups_copies_and_the_database_are_readable_by_their_owner_only(tmp_path: Path) -> None:
    """``python -m db`` makes its files 0600 (as the bot does, bot.main), and a database left
    world-readable by an older version is made private at its next upgrade."""
    path = tmp_path / "gm.db"
    asyncio.run(started_games(f"sqlite:///{path}", 1))
    asyncio.run(downgrade_database(f"sqlite:///{path}", OLDER))
    path.chmod(0o644)
    upgraded = cli("--database-url", f"sqlite:///{path}", "upgrade", cwd=tmp_path)
    assert upgraded.returncode == 0, upgraded.stderr
    (before,) = migration_backups(path)
    backed = cli("--database-url", f"sqlite:///{path}", "backup", str(tmp_path / "copy.db"), cwd=tmp_path)
    assert backed.returncode == 0, backed.stderr
    for made in (path, before, tmp_path / "copy.db"):
        assert mode(made) == 0o600, f"{made.name} is {mode(made):o}"


def test_a_restore_is_refused_while_a_bot_holds_the_database(tmp_path: Path) -> None:
    path = tmp_path / "gm.db"
    asyncio.run(started_games(f"sqlite:///{path}", 2))
    assert (
        cli("--database-url", f"sqlite:///{path}", "backup", str(tmp_path / "b.db"), cwd=tmp_path).returncode
        == 0
    )
    running = hold_shared(path)  # what every bot process holds while it runs (bot.DiplomacyBot)
    try:
        refused = cli("--database-url", f"sqlite:///{path}", "restore", str(tmp_path / "b.db"), cwd=tmp_path)
        assert refused.returncode == 3
        assert refused.stderr.strip().count("\n") == 0, "one line"
        assert refused.stderr.startswith(f"restore refused: a bot process is using {path}")
        assert list(tmp_path.glob("gm.db.replaced-*")) == [], "nothing was touched"
        forced = cli(
            "--database-url", f"sqlite:///{path}", "restore", "--force", str(tmp_path / "b.db"), cwd=tmp_path
        )
        assert forced.returncode == 0, forced.stderr
    finally:
        running.release()
    done = cli("--database-url", f"sqlite:///{path}", "restore", str(tmp_path / "b.db"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert mode(path) == 0o600 and mode(path.with_name("gm.db.lock")) == 0o600


def test_a_restore_sees_a_process_that_has_the_database_open_without_a_lock_file(tmp_path: Path) -> None:
    """The trial removed the lock file (it looked stale) and restored under the running bot: the
    restore now also sees SQLite's own lock that every open connection holds on the -shm file."""
    path = tmp_path / "gm.db"
    url = f"sqlite:///{path}"
    asyncio.run(started_games(url, 1))
    assert cli("--database-url", url, "backup", str(tmp_path / "b.db"), cwd=tmp_path).returncode == 0
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]);"
            " c.execute('SELECT 1 FROM game').fetchall(); print('open', flush=True); sys.stdin.read()",
            str(path),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        assert not path.with_name("gm.db.lock").exists()
        refused = cli("--database-url", url, "restore", str(tmp_path / "b.db"), cwd=tmp_path)
        assert refused.returncode == 3
        assert refused.stderr.strip() == (
            f"restore refused: process {holder.pid} has {path} open (a bot whose lock file was removed?): "
            "stop it first (systemctl stop, docker stop, Ctrl-C), then restore"
        )
        assert list(tmp_path.glob("gm.db.replaced-*")) == []
    finally:
        holder.communicate("", timeout=10)
    assert cli("--database-url", url, "restore", str(tmp_path / "b.db"), cwd=tmp_path).returncode == 0


@pytest.mark.parametrize("url", ["foo://bar", "mysql://user:secret@host/db"])
def test_a_wrong_database_url_is_one_line_naming_the_schemes(tmp_path: Path, url: str) -> None:
    run = cli("--database-url", url, "backup", "x.db", cwd=tmp_path)
    assert run.returncode == 2
    assert run.stderr.strip().count("\n") == 0 and "Traceback" not in run.stderr
    assert "is not supported; use sqlite+aiosqlite:///" in run.stderr and "postgresql://" in run.stderr
    assert "secret" not in run.stderr
