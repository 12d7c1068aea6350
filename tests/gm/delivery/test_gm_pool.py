"""The worker processes die with the bot, however it ends: no ~145 MB orphan after a kill -9."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from db.database import SessionFactory
from gm.delivery.pool import WorkerPool
from gm.facade import Gamemaster
from tests.helpers.paths import ROOT

LINUX = sys.platform.startswith("linux")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (dead, not yet reaped by its new parent) counts as gone
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize(
    "when",
    ["running", pytest.param("slow", marks=pytest.mark.skipif(not LINUX, reason="Linux's prctl"))],
    ids=["workers running", "workers still starting"],
)
def test_workers_exit_when_the_bot_process_is_killed(when: str) -> None:
    """Also when the bot dies while its workers are still starting (importing the bot's code, before
    the pool's own set-up runs): they die at once, not once they have started (tests/gm/pool_child.py)."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.gm.pool_child", when],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        workers = [int(p) for p in child.stdout.readline().split()]
        assert len(workers) == 2 and all(alive(p) for p in workers)
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
        deadline = time.monotonic() + 10  # well under the slow workers' minute of start-up
        while any(alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(p) for p in workers), "a worker outlived the bot"
    finally:
        if child.poll() is None:
            child.kill()
        for pid in workers if "workers" in locals() else []:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


async def test_the_worker_processes_start_with_the_gamemaster(sessions: SessionFactory) -> None:
    """The first close does not wait for processes to start and import the renderer: they are
    started, and warmed up, when the gamemaster starts."""
    gm = Gamemaster(sessions, None, workers=2)
    try:
        await gm.runtime.start()
        pool = gm.runtime._executor
        assert isinstance(pool, WorkerPool)
        pids = pool.worker_pids()
        assert len(pids) == 2 and all(alive(p) for p in pids)
    finally:
        await gm.runtime.shutdown()
