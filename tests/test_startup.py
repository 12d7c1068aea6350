"""A start that cannot succeed says in one line what failed, and exits with the code the README
documents (ops.exits): the database (4) or its upgrade (5) before anything is asked of Discord, and
Discord itself (3) within CONNECT_TIMEOUT instead of a silent five-minute wait. ``bot.py --check``
answers the same questions for a health check without changing anything."""

from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from harness import zygote

pytestmark = pytest.mark.waits  # processes or real time: spread through the run (tests/conftest.py)

ROOT = Path(__file__).resolve().parent.parent


def run_bot(
    tmp_path: Path, *args: str, via_fake: str | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """``bot.py *args`` in ``tmp_path`` (no .env); with ``via_fake``, pointed at that address instead
    of discord.com (harness.bot_process). Forked from an interpreter that imported the bot
    (harness/zygote.py); with ``FRESH="1"``, a new interpreter, as the README's command starts one."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "LOG_"))}
    command = [sys.executable, str(ROOT / "bot.py"), *args]
    if via_fake is not None:
        command = [sys.executable, "-m", "harness.bot_process", *args]
        env = {"FAKE_DISCORD_URL": via_fake, "PYTHONPATH": str(ROOT), **env}
    env = {**clean, "DISCORD_TOKEN": "not.a.real.token", **env}
    if env.pop("FRESH", None) is None:
        return zygote.run(command, cwd=tmp_path, env=env, timeout=120)
    return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def reason(run: subprocess.CompletedProcess[str]) -> str:
    """The one line that says why the start failed."""
    lines = [line for line in run.stderr.splitlines() if "cannot start:" in line]
    assert len(lines) == 1, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    return lines[0]


def test_a_missing_database_directory_is_named_not_discord(tmp_path: Path) -> None:
    run = run_bot(tmp_path, DATABASE_URL=f"sqlite:///{tmp_path / 'no-such-dir' / 'gm.db'}")
    assert run.returncode == 4
    line = reason(run)
    assert f"cannot open the SQLite file {tmp_path / 'no-such-dir' / 'gm.db'}" in line
    assert "directory must exist" in line and "Discord" not in line


def test_a_read_only_database_is_named(tmp_path: Path) -> None:
    path = tmp_path / "gm.db"
    sqlite3.connect(path).close()
    run = run_bot(tmp_path, DATABASE_URL=f"sqlite:///file:{path}?mode=ro&uri=true")
    assert run.returncode == 4
    assert f"the SQLite file {path} cannot be written" in reason(run)


def test_an_unreachable_postgresql_is_named_without_its_password(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    run = run_bot(tmp_path, DATABASE_URL=f"postgresql://gm:s3cret@127.0.0.1:{port}/games")
    assert run.returncode == 4
    line = reason(run)
    assert f"PostgreSQL database games at 127.0.0.1:{port} (user gm) refused the connection" in line
    assert "s3cret" not in run.stderr


def test_a_failed_migration_is_named_and_rolled_back(tmp_path: Path) -> None:
    path = tmp_path / "gm.db"
    with closing(sqlite3.connect(path)) as conn:  # a table in the way of the first revision
        conn.execute("CREATE TABLE game (id INTEGER PRIMARY KEY)")
        conn.commit()
    run = run_bot(tmp_path, DATABASE_URL=f"sqlite:///{path}")
    assert run.returncode == 5
    line = reason(run)
    assert "upgrading the SQLite file" in line and "failed and was rolled back" in line
    with closing(sqlite3.connect(path)) as conn:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"game"}, "nothing of the failed upgrade was kept"


@contextmanager
def silent_server() -> Iterator[str]:
    """A TCP server that accepts connections and never answers (a black-holed network)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        server.close()


def test_discord_not_answering_ends_the_start_within_the_timeout_saying_so(tmp_path: Path) -> None:
    with silent_server() as url:
        run = run_bot(
            tmp_path, via_fake=url, CONNECT_TIMEOUT="2", DATABASE_URL=f"sqlite:///{tmp_path / 'gm.db'}"
        )
    # the exit code and the line a start gives up with when CONNECT_TIMEOUT runs out (a bot waiting
    # for ever would meet run_bot's own timeout instead)
    assert run.returncode == 3
    line = reason(run)
    assert f"Discord's API ({url}/api/v10) did not answer within 2 s" in line


def test_discord_refusing_connections_is_named(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    run = run_bot(
        tmp_path, via_fake=f"http://127.0.0.1:{port}", DATABASE_URL=f"sqlite:///{tmp_path / 'gm.db'}"
    )
    assert run.returncode == 3
    assert "cannot reach Discord's API" in reason(run)


def test_the_voice_libraries_are_not_mentioned(tmp_path: Path) -> None:
    """`python bot.py` from a fresh interpreter (its imports' warnings included)."""
    run = run_bot(tmp_path, FRESH="1", DATABASE_URL=f"sqlite:///{tmp_path / 'missing' / 'gm.db'}")
    assert "PyNaCl" not in run.stderr and "davey" not in run.stderr
    assert "voice will NOT be supported" not in run.stderr


# --- bot.py --check ---------------------------------------------------------------------------------


def migrated(path: Path) -> None:
    from db.migrate import upgrade_database

    asyncio.run(upgrade_database(f"sqlite:///{path}"))


def test_check_is_healthy_on_a_database_at_its_latest_revision(tmp_path: Path) -> None:
    path = tmp_path / "gm.db"
    migrated(path)
    run = run_bot(tmp_path, "--check", DATABASE_URL=f"sqlite:///{path}")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("ok: settings valid;") and "schema at revision" in run.stdout


def test_check_reports_a_pending_upgrade_and_creates_nothing(tmp_path: Path) -> None:
    run = run_bot(tmp_path, "--check", DATABASE_URL=f"sqlite:///{tmp_path / 'gm.db'}")
    assert run.returncode == 5
    assert "starting the bot creates it" in run.stderr
    assert not (tmp_path / "gm.db").exists()
    sqlite3.connect(tmp_path / "old.db").close()  # exists, never upgraded
    run = run_bot(tmp_path, "--check", DATABASE_URL=f"sqlite:///{tmp_path / 'old.db'}")
    assert run.returncode == 5 and "starting the bot upgrades it" in run.stderr


def test_check_reports_an_unreachable_database_and_missing_settings(tmp_path: Path) -> None:
    run = run_bot(tmp_path, "--check", DATABASE_URL=f"sqlite:///{tmp_path / 'nowhere' / 'gm.db'}")
    assert run.returncode == 4 and "does not exist" in run.stderr
    run = run_bot(tmp_path, "--check", DATABASE_URL="postgresql://gm:pw@127.0.0.1:1/games")
    assert run.returncode == 4 and "refused the connection" in run.stderr
    run = run_bot(tmp_path, "--check", DISCORD_TOKEN="", DATABASE_URL=f"sqlite:///{tmp_path / 'gm.db'}")
    assert run.returncode == 2 and "DISCORD_TOKEN: empty" in run.stderr


@pytest.mark.parametrize("variable", ["CONNECT_TIMEOUT", "SHUTDOWN_TIMEOUT"])
def test_a_wrong_timeout_is_a_settings_error(tmp_path: Path, variable: str) -> None:
    run = run_bot(tmp_path, "--check", **{variable: "-1"})
    assert run.returncode == 2 and variable in run.stderr
