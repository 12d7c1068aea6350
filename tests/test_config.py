"""Starting the bot with missing or wrong settings explains what to fix, and how to make a bot."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def start_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "LOG_LEVEL")}
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=tmp_path,  # no .env here
        env={**clean, **env},
        capture_output=True,
        text=True,
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
