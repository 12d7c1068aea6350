"""A sampling profile of the bot's process over bench/load.py's play, for where its CPU goes.

Python imports a ``sitecustomize`` module found on its path at start-up; bench/load.py puts this folder
on the bot's path when ``BENCH_SAMPLE=PREFIX`` is set (with ``TEST_ZYGOTE=0``: the bot a process of
its own, not a fork of a zygote started before)::

    TEST_ZYGOTE=0 BENCH_SAMPLE=/tmp/paced .venv/bin/python bench/load.py paced --no-close
    .venv/bin/python bench/sampled.py /tmp/paced.*.json

Every millisecond of the process's CPU (``ITIMER_PROF``: any thread's; Python runs the handler in the
main thread, the event loop's), the main thread's stack is counted, from when bench/load.py creates
``PREFIX.start`` (the play begins) until ``PREFIX.stop`` (it ends): per function, the samples it was
on the stack for (inclusive) and the innermost one's (the leaf). Unlike cProfile it costs a few per
cent, times C code (SQLite, orjson, zlib) as its caller's, and does not lose its way in greenlets
(SQLAlchemy's) or coroutines. Signals that come while one is pending are counted once: the samples
are fewer than the milliseconds, evenly. Written to ``PREFIX.<pid>.json`` every 1,000 samples.
"""

from __future__ import annotations

import collections
import json
import os
import signal
import sys
from types import FrameType

EVERY = 0.001  # seconds of the process's CPU between two samples
WRITTEN_EVERY = 1000  # samples


class Sampler:
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.on = False
        self.done = False
        self.ticks = 0
        self.total = 0
        self.names: dict[object, str] = {}
        self.leaf: collections.Counter[str] = collections.Counter()
        self.inclusive: collections.Counter[str] = collections.Counter()

    def tick(self, _signum: int, frame: FrameType | None) -> None:
        if self.done:
            return
        self.ticks += 1
        if not self.on:
            self.on = self.ticks % 10 == 0 and os.path.exists(self.prefix + ".start")
            return
        if os.path.exists(self.prefix + ".stop"):
            self.done = True
            signal.setitimer(signal.ITIMER_PROF, 0)
            self.write()
            return
        stack = self.stack(frame)
        if stack:
            self.total += 1
            self.leaf[stack[0]] += 1
            self.inclusive.update(set(stack))
            if self.total % WRITTEN_EVERY == 0:
                self.write()

    def stack(self, frame: FrameType | None) -> list[str]:
        found = []
        while frame is not None:
            code = frame.f_code
            name = self.names.get(code)
            if name is None:
                name = self.names[code] = f"{code.co_filename}:{code.co_firstlineno}:{code.co_name}"
            found.append(name)
            frame = frame.f_back
        return found

    def write(self) -> None:
        path = f"{self.prefix}.{os.getpid()}.json"
        with open(path + ".part", "w", encoding="utf-8") as out:
            json.dump({"total": self.total, "leaf": self.leaf, "inclusive": self.inclusive}, out)
        os.replace(path + ".part", path)


def start() -> None:
    """Sample this process if it is the bot (not its map workers, nor a ``python -c``)."""
    prefix = os.environ.get("BENCH_SAMPLE")
    if not prefix or "-c" in sys.argv or "multiprocessing" in " ".join(sys.argv):
        return
    sampler = Sampler(prefix)
    signal.signal(signal.SIGPROF, sampler.tick)
    signal.setitimer(signal.ITIMER_PROF, EVERY, EVERY)


start()
