"""Giving memory back to the system after a burst of big buffers (Linux with glibc).

A phase close moves each map's PNG (a few hundred KiB) through the bot process: from the worker, into
the database, out to Discord. glibc serves blocks that big with mmap and gives them back when they are
freed, but it raises that threshold each time such a block is freed, up to 32 MiB, so after the first
closes the maps come from the heap, which fragments and is not given back: the bot ended a 50-game
close at 153 MiB resident (bench/load.py), 147 MiB with the threshold fixed at 128 KiB. Fixing it is
glibc's own setting (``mallopt(M_MMAP_THRESHOLD)``, as the ``MALLOC_MMAP_THRESHOLD_`` variable does).

Smaller blocks (rows, messages, buffers under 128 KiB) come from a heap, whose free pages glibc
keeps for later unless asked to give them back (``malloc_trim``): the bot does so every
TRIM_EVERY seconds, from a thread of its own (a few milliseconds; glibc locks its heap meanwhile).
And glibc gives each thread that allocates while another does a heap of its own, up to eight per
core, each keeping its own free pages: the bot's threads (SQLite's connections, the executor)
share HEAPS of them instead (``mallopt(M_ARENA_MAX)``). With both, the bot ends the 50-game close
of bench/load.py at 139 MiB (150 without), 135 MiB once trimmed, with the same answer times.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import threading
import time
from functools import cache

log = logging.getLogger(__name__)

M_MMAP_THRESHOLD = -3  # glibc's malloc.h
M_ARENA_MAX = -8
HEAPS = 2  # malloc arenas for all the threads (one made the answers slower: every thread waits on it)
BIG_BLOCK = 128 * 1024  # glibc's default starting threshold, kept fixed
TRIM_EVERY = 10.0  # seconds between two give_back_free_memory calls (keep_giving_back)


@cache
def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name)
    except OSError:
        return None


def keep_big_blocks_returnable(threshold: int = BIG_BLOCK) -> bool:
    """Fix glibc's mmap threshold at ``threshold`` bytes (call once at start-up). False where the C
    library is not glibc (macOS, musl): nothing changes there."""
    libc = _libc()
    mallopt = getattr(libc, "mallopt", None)
    if mallopt is None:
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    done = mallopt(M_MMAP_THRESHOLD, threshold) == 1
    if not done:
        log.debug("mallopt(M_MMAP_THRESHOLD) was refused; memory is managed as glibc decides")
    return done


def share_heaps(heaps: int = HEAPS) -> bool:
    """Let all threads allocate from at most ``heaps`` malloc arenas (call once at start-up, before
    threads start). False where the C library is not glibc: nothing changes there."""
    mallopt = getattr(_libc(), "mallopt", None)
    if mallopt is None:
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_ARENA_MAX, heaps) == 1)


def give_back_free_memory() -> bool:
    """Give the heap's free pages back to the system (glibc's ``malloc_trim(0)``). True if some
    were; False too where the C library is not glibc (nothing to call)."""
    trim = getattr(_libc(), "malloc_trim", None)
    if trim is None:
        return False
    trim.argtypes = (ctypes.c_size_t,)
    trim.restype = ctypes.c_int
    return bool(trim(0))


def keep_giving_back(every: float = TRIM_EVERY) -> threading.Thread | None:
    """Call :func:`give_back_free_memory` every ``every`` seconds from a daemon thread, for as long as
    the process lives (after a phase close's burst, the bot's resident size comes back down within
    that time). None where there is no ``malloc_trim``."""
    if getattr(_libc(), "malloc_trim", None) is None:
        return None

    def loop() -> None:
        while True:
            time.sleep(every)
            give_back_free_memory()

    thread = threading.Thread(target=loop, name="memory-trim", daemon=True)
    thread.start()
    return thread
