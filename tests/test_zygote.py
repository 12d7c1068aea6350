"""The zygote (harness/zygote.py) forks the tests' `python -m harness.bot_process`, `python bot.py` and
`python -m db` from an interpreter that imported the bot once. A child must be what a fresh start
would be: what a fresh start draws anew at its import (a run's id in the outbox's claim tokens, the
logging clock) is drawn anew in each child, and the child's exit code, output and process are its own."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from harness import zygote

pytestmark = pytest.mark.waits  # processes: spread through the run (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[1]
PROBE = [sys.executable, "-m", "tests.helpers.drawn"]
# Per-process values no behaviour depends on: native function addresses (address-space layout).
IGNORED = ("ctypes.", "_ctypes.")


def test_what_a_fresh_start_draws_anew_differs_between_two_children(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    seed = zygote.hash_seed(PROBE, tmp_path, env)
    if seed is None:
        pytest.skip("no zygote (TEST_ZYGOTE=0)")
    fresh = json.loads(  # the children's hash seed, so that set orders frozen into strings do not differ
        subprocess.run(
            PROBE,
            cwd=tmp_path,
            env={**env, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    first, second = (
        json.loads(zygote.run(PROBE, cwd=tmp_path, env=env, timeout=120).stdout) for _ in range(2)
    )
    assert "gm.delivery.outbox.INSTANCE" in fresh and "logging._startTime" in fresh  # the probe sees them
    shared = sorted(
        name
        for name, value in fresh.items()
        if not name.startswith(IGNORED) and first.get(name) != value and first.get(name) == second.get(name)
    )
    assert shared == [], f"drawn at import, the same in every child: redraw them in zygote._redraw: {shared}"


def test_a_child_s_exit_code_output_and_signals_are_its_own(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    command = [sys.executable, str(ROOT / "bot.py"), "--version"]
    forked = zygote.run(command, cwd=tmp_path, env=env, timeout=60)
    real = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert (forked.returncode, forked.stdout, forked.stderr) == (real.returncode, real.stdout, real.stderr)
    missing = zygote.run([sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env, timeout=60)
    assert missing.returncode == 2 and "DISCORD_TOKEN is not set" in missing.stderr


async def test_a_signalled_child_reports_the_signal_and_its_group_is_its_own(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = await zygote.create_subprocess_exec(
        sys.executable,
        "-m",
        "db",
        "restore",
        "-",  # waits for a dump on its standard input
        cwd=tmp_path,
        env={**env, "DATABASE_URL": f"sqlite:///{tmp_path / 'gm.db'}"},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    assert os.getpgid(child.pid) == child.pid != os.getpgrp()
    os.killpg(child.pid, signal.SIGKILL)
    assert await child.wait() == -signal.SIGKILL
