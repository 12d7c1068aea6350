"""A restore cannot run under a live bot. SQLite: the trial removed the 0-byte lock file (it looks
stale) and restored under the running bot, which wrote on into the replaced file with /healthz ok.
Now the restore still sees the bot (SQLite's own lock on the -shm file), the bot makes its lock file
again, and a restore forced through stops the bot with one line and exit code 4 (a supervisor
restarts it on the restored file). PostgreSQL: the bot holds an advisory lock for its life; a
restore is refused meanwhile, and a bot does not start while a restore holds it. The bot runs as its
own process against the loopback fake (harness.processes)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from db.database import make_engine
from db.inuse import holders_of, lock_path
from db.migrate import current_revision, downgrade_database, head_revision
from db.pghold import PostgresHold
from harness import zygote
from harness.fakediscord import FakeDiscord
from harness.processes import bot_process
from harness.remote import env_for
from tests.helpers.db_cli import acli, started_games

pytestmark = pytest.mark.waits  # processes or real time: spread through the run (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]


async def test_removing_the_lock_file_does_not_let_a_restore_run_under_the_bot(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    database = tmp_path / "bot.db"
    url = f"sqlite+aiosqlite:///{database}"
    await started_games(url, 1)
    backed = await acli("--database-url", url, "backup", str(tmp_path / "copy.db"), cwd=tmp_path)
    assert backed[0] == 0, backed
    async with bot_process(tmp_path, fake_url=fake.base_url, **env_for(fake, tmp_path)) as bot:
        await bot.line_with("ready: connected to Discord")
        lock_path(database).unlink()  # what the trial did: the lock file looked stale
        code, _, refusal = await acli(
            "--database-url", url, "restore", str(tmp_path / "copy.db"), cwd=tmp_path
        )
        # Refused: by SQLite's own lock on -shm, or by the lock file the bot made again meanwhile
        # (tests/db/test_db_operations.py checks the first alone)
        assert code == 3 and refusal.startswith("restore refused: "), refusal
        assert f"process {bot.process.pid}" in refusal
        assert refusal.strip().count("\n") == 0 and list(tmp_path.glob("bot.db.replaced-*")) == []
        # The bot locks its lock file again within seconds (its check: every 2 s). The file itself may
        # be there already: the refused restore above made it, unlocked.
        for _ in range(150):
            if bot.process.pid in holders_of(lock_path(database)):
                break
            await asyncio.sleep(0.2)
        assert bot.process.pid in holders_of(lock_path(database)), "the bot did not lock its file again"
        code, _, refusal = await acli(
            "--database-url", url, "restore", str(tmp_path / "copy.db"), cwd=tmp_path
        )
        assert code == 3 and "a bot process is using" in refusal, refusal

        # Forced through anyway: the bot does not write on into the file that was moved away.
        code, _, err = await acli(
            "--database-url", url, "restore", "--force", str(tmp_path / "copy.db"), cwd=tmp_path
        )
        assert code == 0, err
        await bot.line_with("was replaced by another file", timeout=30)
        assert await bot.exit_code() == 4
    stopping = [line for line in bot.lines if "stopping: the SQLite file" in line]
    assert len(stopping) == 1 and "ERROR" in stopping[0], bot.output
    assert "Traceback" not in bot.output


async def test_a_postgresql_restore_is_refused_while_a_bot_runs_and_a_bot_waits_for_a_restore(
    fake: FakeDiscord, tmp_path: Path, postgres_url: str
) -> None:
    await started_games(postgres_url, 1)
    await downgrade_database(postgres_url, "0014")
    dumps = tmp_path / "dumps"
    env = env_for(fake, tmp_path, DATABASE_URL=postgres_url, BACKUP_DIR=str(dumps))
    async with bot_process(tmp_path, fake_url=fake.base_url, **env) as bot:
        await bot.line_with("ready: connected to Discord")
        (dump,) = dumps.glob("*.pre-migration.dump")  # the upgrade's, from 0014
        code, _, refusal = await acli("--database-url", postgres_url, "restore", str(dump), cwd=tmp_path)
        assert code == 3 and refusal.startswith("restore refused: a bot process is using the PostgreSQL")
        code, _ = await bot.stopped_by(signal.SIGTERM)
        assert code == 0, bot.output

    # A restore under way (its lock held): a bot does not start, with one line.
    restoring = PostgresHold(postgres_url, exclusive=True)
    await restoring.take()
    try:
        async with bot_process(tmp_path, fake_url=fake.base_url, **env) as bot:
            assert await bot.exit_code() == 4
        assert "cannot start: a restore of the PostgreSQL database" in bot.output, bot.output
        assert "Traceback" not in bot.output
    finally:
        await restoring.release()

    # The bot stopped: the rollback to the dump, the newer version's tables dropped first.
    engine = make_engine(postgres_url)
    try:
        async with engine.begin() as connection:
            await connection.exec_driver_sql("CREATE TABLE from_a_newer_version (id integer)")
            await connection.exec_driver_sql("UPDATE alembic_version SET version_num = '0099_newer'")
        # compose.yaml's procedure: the dump on standard input (docker compose run -T ... restore -)
        restore = await zygote.create_subprocess_exec(
            sys.executable,
            "-m",
            "db",
            "--database-url",
            postgres_url,
            "restore",
            "-",
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        said, complaint = await restore.communicate(dump.read_bytes())
        assert restore.returncode == 0 and b"from standard input" in said, complaint
        assert await current_revision(engine) == "0014", "the database as it was before the upgrade"
        async with engine.connect() as connection:
            left = await connection.exec_driver_sql("SELECT to_regclass('from_a_newer_version')")
            assert left.scalar() is None
            games = await connection.exec_driver_sql("SELECT count(*) FROM game")
            assert games.scalar() == 1
    finally:
        await engine.dispose()
    code, out, err = await acli("--database-url", postgres_url, "upgrade", cwd=tmp_path)
    assert code == 0 and str(head_revision()) in out, err
