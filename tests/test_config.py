"""Starting the bot with missing or wrong settings explains what to fix, and how to make a bot."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from harness import zygote

pytestmark = pytest.mark.waits  # processes or real time: spread through the run (tests/conftest.py)

ROOT = Path(__file__).resolve().parent.parent


def start_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "LOG_LEVEL")}
    return zygote.run(  # as `python bot.py` would, forked from an interpreter that imported the bot
        [sys.executable, str(ROOT / "bot.py")],
        cwd=tmp_path,  # no .env here
        env={**clean, **env},
        timeout=60,
    )


def test_a_missing_token_is_explained_with_how_to_make_and_invite_a_bot(tmp_path: Path) -> None:
    run = start_bot(tmp_path)
    assert run.returncode == 2
    assert "DISCORD_TOKEN is not set" in run.stderr
    assert "discord.com/developers/applications" in run.stderr
    assert "applications.commands" in run.stderr
    assert "Traceback" not in run.stderr


def test_an_empty_token_and_a_bad_log_level_are_both_named(tmp_path: Path) -> None:
    run = start_bot(tmp_path, DISCORD_TOKEN="  ", LOG_LEVEL="loud")
    assert run.returncode == 2
    assert "DISCORD_TOKEN: empty" in run.stderr
    assert "LOG_LEVEL: unknown log level 'loud'" in run.stderr


def test_shards_outside_the_count_or_without_one_are_refused_at_start_up(tmp_path: Path) -> None:
    run = start_bot(tmp_path, DISCORD_TOKEN="x", SHARD_COUNT="2", SHARD_IDS="1,2", PROCESS_NAME="a:b")
    assert run.returncode == 2
    assert "SHARD_IDS: shard 2 does not exist with SHARD_COUNT=2 (shards are numbered 0 to 1)" in run.stderr
    assert "PROCESS_NAME: 'a:b' is not usable" in run.stderr
    run = start_bot(tmp_path, DISCORD_TOKEN="x", SHARD_IDS="0")
    assert run.returncode == 2
    assert "SHARD_IDS: needs SHARD_COUNT" in run.stderr
    assert "Traceback" not in run.stderr


def test_shard_settings_become_the_bot_s_shards_and_the_process_s_name() -> None:
    from bot import shard_options
    from config import Settings

    def settings(**values: Any) -> Settings:
        values.setdefault("database_url", "postgresql://gm@db/gm")  # several processes: PostgreSQL
        return Settings(_env_file=None, discord_token="x", **values)

    alone = settings()
    assert shard_options(alone) == {} and alone.process == "main" and alone.ownership.owns_all
    second = settings(shard_count=2, shard_ids="1")
    assert shard_options(second) == {"shard_count": 2, "shard_ids": [1]}
    assert second.process == "shard-1" and not second.ownership.owns_all
    named = settings(shard_count=4, shard_ids=" 3, 0 ", process_name="eu-1")
    assert named.shard_ids == (0, 3) and named.process == "eu-1"
    assert shard_options(settings(shard_count=3)) == {"shard_count": 3}


def test_several_processes_on_one_sqlite_file_are_refused_in_one_line(tmp_path: Path) -> None:
    """SHARD_COUNT > 1 with this process running only some shards means other processes on the same
    database: on SQLite that is refused at start, in one line (it was accepted silently)."""
    run = start_bot(tmp_path, DISCORD_TOKEN="x", SHARD_COUNT="2", SHARD_IDS="0")
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cannot start: SHARD_IDS: this process runs shards 0 of 2")
    assert "use PostgreSQL" in lines[0] and "Traceback" not in run.stderr
