"""The process as an operator meets it: --version and the commit, one line for a wrong DATABASE_URL,
and a .env.example that lists every setting the README documents."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from dotenv import dotenv_values

from config import Settings
from harness import zygote
from ops import sdnotify, version

ROOT = Path(__file__).resolve().parent.parent


def start_bot(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL", "GIT_COMMIT")}
    return zygote.run(  # as `python bot.py` would, forked from an interpreter that imported the bot
        [sys.executable, str(ROOT / "bot.py"), *args],
        cwd=tmp_path,  # no .env here
        env={**clean, **env},
        timeout=60,
    )


def readme_settings() -> list[str]:
    """The variables of the README's settings table ("Running it")."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("| Variable | Default |", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^\| `([A-Z_]+)` \|", table, re.MULTILINE)


def test_env_example_lists_every_setting_of_the_readme_and_of_the_bot() -> None:
    documented = readme_settings()
    assert "DISCORD_TOKEN" in documented and "SHARD_IDS" in documented and "HEALTH_PORT" in documented
    text = (ROOT / ".env.example").read_text()
    example = dotenv_values(ROOT / ".env.example")
    assert list(example) == ["DISCORD_TOKEN"], "the only line set: the others keep a deployment's values"
    listed = set(re.findall(r"^(?:# )?([A-Z_]+)=", text, re.MULTILINE))
    assert set(documented) - listed == set(), "missing from .env.example"
    assert {name.upper() for name in Settings.model_fields} == set(documented), "the README's table"


def test_version_names_the_version_and_the_commit(tmp_path: Path) -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert pyproject["project"]["version"] == version.VERSION
    run = start_bot(tmp_path, "--version", GIT_COMMIT="0123456789abcdef0123")
    assert (
        run.returncode == 0 and run.stdout.strip() == f"diplomacy-gm {version.VERSION} (commit 0123456789ab)"
    )


def test_the_commit_is_read_from_git_s_files_without_git(tmp_path: Path) -> None:
    git = tmp_path / ".git"
    (git / "refs" / "heads").mkdir(parents=True)
    (git / "HEAD").write_text("ref: refs/heads/main\n")
    (git / "packed-refs").write_text(
        "# pack-refs\nabcdef0123456789abcdef0123456789abcdef01 refs/heads/main\n"
    )
    assert version._from_git(tmp_path) == "abcdef0123456789abcdef0123456789abcdef01"
    (git / "refs" / "heads" / "main").write_text("1111111111111111111111111111111111111111\n")
    assert version._from_git(tmp_path) == "1111111111111111111111111111111111111111", "a loose ref wins"
    assert version._from_git(tmp_path / "elsewhere") is None


def test_a_wrong_database_url_is_one_line_exit_2(tmp_path: Path) -> None:
    run = start_bot(tmp_path, DISCORD_TOKEN="x", DATABASE_URL="mysql://user:secret@host/db")
    assert run.returncode == 2
    assert run.stderr.strip().count("\n") == 0, run.stderr
    assert run.stderr.startswith("cannot start: DATABASE_URL: the scheme 'mysql://' is not supported; use ")
    assert (
        "sqlite+aiosqlite://" in run.stderr and "postgresql://" in run.stderr and "secret" not in run.stderr
    )


def test_systemd_is_told_ready_and_the_watchdog_interval_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ops.sdnotify speaks systemd's notification protocol (a datagram on NOTIFY_SOCKET)."""
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(str(path))
        monkeypatch.setenv("NOTIFY_SOCKET", str(path))
        assert sdnotify.notify("READY=1")
        assert systemd.recv(100) == b"READY=1"
    monkeypatch.setenv("WATCHDOG_USEC", "120000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert sdnotify.watchdog_interval() == 60.0, "a ping every half WatchdogSec"
    monkeypatch.setenv("WATCHDOG_PID", "1")
    assert sdnotify.watchdog_interval() is None, "meant for another process"
    monkeypatch.delenv("NOTIFY_SOCKET")
    assert not sdnotify.notify("READY=1"), "outside systemd nothing is sent"
