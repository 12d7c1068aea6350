"""Rolling back without losing the way back: an older version started on a database a newer one
upgraded is refused with one line and exit code 6 (which the systemd unit does not restart on),
before any backup; a start whose upgrade fails, again and again, never rotates away the backup made
before the last real upgrade; --check says which of these it is; and the documented rollback (stop,
restore the pre-upgrade backup, start the older version) gives back every row."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from db.backup import migration_backups
from db.database import make_engine
from db.migrate import current_revision, downgrade_database, head_revision
from db.preflight import DatabaseProblem, Problem, prepare_database
from harness import zygote
from ops.exits import ExitCode
from tests.helpers.db_cli import cli, started_games

ROOT = Path(__file__).resolve().parents[2]
FUTURE = "0099_from_a_newer_version"


def rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    with closing(sqlite3.connect(path)) as conn:
        found = conn.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
        tables = [r[0] for r in found]
        return {t: sorted(conn.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr) for t in tables}


def stamp(path: Path, revision: str) -> None:
    """What a newer version's upgrade leaves: a revision this code has never heard of."""
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("UPDATE alembic_version SET version_num = ?", (revision,))


def check(url: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "DISCORD_"))}
    return zygote.run(  # as `python bot.py --check` would, forked from an interpreter that imported the bot
        [sys.executable, str(ROOT / "bot.py"), "--check"],
        cwd=cwd,
        env={**env, "DISCORD_TOKEN": "x", "DATABASE_URL": url},
        timeout=60,
    )


async def test_a_database_newer_than_the_code_is_refused_before_any_backup(tmp_path: Path) -> None:
    path = tmp_path / "gm.db"
    url = f"sqlite+aiosqlite:///{path}"
    await started_games(url, 1)
    stamp(path, FUTURE)
    engine = make_engine(url)
    try:
        for _ in range(4):  # a supervisor restarting it
            with pytest.raises(DatabaseProblem) as refused:
                await prepare_database(engine, backups_kept=3)
            assert refused.value.kind == Problem.NEWER
    finally:
        await engine.dispose()
    line = refused.value.reason
    assert "\n" not in line and f"revision {FUTURE}, newer than this version knows" in line
    assert "Rolling back" in line
    assert migration_backups(path) == [], "a start that cannot succeed makes no backup"
    done = check(url, tmp_path)
    assert done.returncode == ExitCode.NEWER_DATABASE == 6
    assert "newer than this version knows" in done.stderr and "upgrades it" not in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    unit = (ROOT / "deploy" / "diplomacy-gm.service").read_text()
    prevented = next(line for line in unit.splitlines() if line.startswith("RestartPreventExitStatus="))
    assert "6" in prevented.split("=", 1)[1].split() and "2" in prevented.split("=", 1)[1].split()


async def test_failed_upgrades_never_rotate_away_the_last_pre_upgrade_backup(tmp_path: Path) -> None:
    path = tmp_path / "gm.db"
    url = f"sqlite+aiosqlite:///{path}"
    await started_games(url, 2)
    await downgrade_database(url, "0013")
    before_upgrade = rows(path)  # what the older version had
    engine = make_engine(url)
    try:
        await prepare_database(engine, backups_kept=2)  # a real upgrade: its backup is the way back
        (real,) = migration_backups(path)
        await downgrade_database(engine, "0014")
        with closing(sqlite3.connect(path)) as conn, conn:  # 0015 cannot run: its table is there
            conn.execute("CREATE TABLE sandbox (id INTEGER PRIMARY KEY)")
        for _ in range(5):
            with pytest.raises(DatabaseProblem) as failed:
                await prepare_database(engine, backups_kept=2)
            assert failed.value.kind == Problem.MIGRATION
        assert "backups made before earlier upgrades are kept" in failed.value.reason
        assert migration_backups(path) == [real], "failed starts leave the backups as they were"
        assert await current_revision(engine) == "0014", "rolled back each time"
    finally:
        await engine.dispose()
    done = check(url, tmp_path)
    assert done.returncode == ExitCode.MIGRATION and "0014" in done.stderr

    # The rollback as documented: the bot stopped, the pre-upgrade backup restored, then the version
    # that ran before (here: this one, which upgrades it again; an older one runs it as it is).
    restored = cli("--database-url", url, "restore", str(real), cwd=tmp_path)
    assert restored.returncode == 0, restored.stderr
    old = make_engine(url)
    try:
        assert await current_revision(old) == "0013"
    finally:
        await old.dispose()
    assert rows(path) == before_upgrade, "every row as the older version had it"
    upgraded = cli("--database-url", url, "upgrade", cwd=tmp_path)
    assert upgraded.returncode == 0 and str(head_revision()) in upgraded.stdout, upgraded.stderr
