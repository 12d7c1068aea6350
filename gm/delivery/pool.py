"""CPU work (adjudication, maps, the final GIF) off the event loop, in worker processes that are
replaced when one of them dies.

A :class:`concurrent.futures.ProcessPoolExecutor` whose worker is killed (out of memory, a crash in a
native library, an operator's ``kill``) is *broken* for good: every later submit raises
``BrokenProcessPool``, so one dead worker would stop every close until a restart. :class:`WorkerPool`
starts a fresh pool when the one it holds is broken, and :func:`run_off_loop` runs a job again once
when its worker died under it (the work is deterministic, so running it twice is harmless).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor
from multiprocessing import get_context
from multiprocessing.context import SpawnContext, SpawnProcess
from typing import Any, ParamSpec, TypeVar

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")


class WorkerPool(Executor):
    """A process pool (spawned workers) that replaces itself when it is broken."""

    def __init__(self, workers: int) -> None:
        self._workers = workers
        self._lock = threading.Lock()
        self._pool = self._new_pool()
        self.renewals = 0  # how many times a broken pool was replaced

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self._workers,
            mp_context=_PactContext() if sys.platform.startswith("linux") else get_context("spawn"),
            initializer=die_with_parent,
            initargs=(os.getpid(),),
        )

    def submit(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        pool = self._pool
        try:
            return pool.submit(fn, *args, **kwargs)
        except BrokenExecutor:
            return self._renewed(pool).submit(fn, *args, **kwargs)

    def _renewed(self, broken: ProcessPoolExecutor) -> ProcessPoolExecutor:
        """A working pool in place of ``broken`` (once, however many callers found it broken)."""
        with self._lock:
            if self._pool is broken:
                log.error("a worker process died; starting %d new worker processes", self._workers)
                self._pool = self._new_pool()
                self.renewals += 1
                broken.shutdown(wait=False, cancel_futures=True)
            return self._pool

    def start(self, warm_up: Callable[[], object] | None = None) -> list[Future[object]]:
        """Start every worker now (a spawned worker takes about a second to import the engine and the
        renderer) instead of at the first close, each running ``warm_up`` once (the renderer's caches:
        gm.phases.worker.warm_up). Returns the futures; nothing waits for them."""
        work = warm_up or _nothing
        return [self.submit(work) for _ in range(self._workers)]

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)

    def worker_pids(self) -> list[int]:
        """The current workers' process ids (for operators and tests)."""
        processes = getattr(self._pool, "_processes", None) or {}
        return sorted(processes)

    def kill(self) -> None:
        """End the worker processes now, whatever they are doing (a stop out of time): nothing then
        waits for a render under way, at the interpreter's exit either."""
        processes = dict(getattr(self._pool, "_processes", None) or {})
        self._pool.shutdown(wait=False, cancel_futures=True)
        for process in processes.values():
            with contextlib.suppress(OSError, ValueError, AttributeError):
                process.kill()


def _nothing() -> None:
    return None


PR_SET_PDEATHSIG = 1  # linux/prctl.h

_PACT = """
try:
    import ctypes, os
    ctypes.CDLL(None).prctl(1, 9, 0, 0, 0)  # PR_SET_PDEATHSIG, SIGKILL
    if os.getppid() != {parent}:
        os._exit(0)
except Exception:
    pass
"""


class _PactName(str):
    """A worker's name that, unpickled in the new process, sets its parent-death signal first.

    A spawned worker reads two things from its parent before anything else: the preparation data
    (the process's name among them), then the process object. Between the two it imports the bot's
    main module, a second or more, and only after that would :func:`die_with_parent` run: a bot
    killed meanwhile left a worker alive for that long (the issue 29 trial found one after 4 of 30
    kills). The name is unpickled first, so the pact is made before the import. Its code is given as
    text (run by ``exec``): nothing of the bot's may be imported there, sys.path is not set yet."""

    parent: int

    def __new__(cls, name: str, parent: int) -> _PactName:
        made = super().__new__(cls, name)
        made.parent = parent
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        code = _PACT.format(parent=int(self.parent))
        return (eval, (f"exec({code!r}) or {str(self)!r}",))


class _PactProcess(SpawnProcess):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # why the ignore below: SpawnProcess sets _name in code typeshed leaves undeclared
        self._name = _PactName(self._name, os.getpid())  # type: ignore[has-type]


class _PactContext(SpawnContext):
    """The spawn start method, each worker bound to die with the bot from its first moment (Linux)."""

    Process = _PactProcess


def die_with_parent(parent_pid: int) -> None:
    """In a worker process: exit when the bot process is gone, however it ended (``kill -9`` too), so
    that no worker (about 145 MB each) outlives it. Linux delivers SIGKILL on the parent's death
    (prctl); elsewhere, and for a parent that died before this ran, a watchdog thread looks every
    second.

    A worker ignores SIGINT and SIGTERM: Ctrl-C in a terminal (and a stop that signals every process
    of the service) reaches the workers too, and the bot, stopping gracefully, still needs them for
    the close under way; they end with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(1.0)
        os._exit(0)

    if os.getppid() != parent_pid:
        os._exit(0)
    threading.Thread(target=watch, name="die-with-parent", daemon=True).start()


async def run_off_loop(executor: Executor | None, work: Callable[[Any], R], request: Any) -> R:
    """``work(request)`` in ``executor`` (a thread when None); run once more if its worker died."""
    if executor is None:
        return await asyncio.to_thread(work, request)
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(executor, work, request)
    except BrokenExecutor:
        name = getattr(work, "__name__", repr(work))
        log.warning("a worker process died while running %s; running it again", name)
        return await loop.run_in_executor(executor, work, request)
