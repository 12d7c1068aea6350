"""Giving memory back to the system after a burst of big buffers (Linux with glibc).

A phase close moves each map's PNG (a few hundred KiB) through the bot process: from the worker, into
the database, out to Discord. glibc serves blocks that big with mmap and gives them back when they are
freed, but it raises that threshold each time such a block is freed, up to 32 MiB, so after the first
closes the maps come from the heap, which fragments and is not given back: the bot ended a 50-game
close at 153 MiB resident (bench/load.py), 147 MiB with the threshold fixed at 128 KiB. Fixing it is
glibc's own setting (``mallopt(M_MMAP_THRESHOLD)``, as the ``MALLOC_MMAP_THRESHOLD_`` variable does).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging

log = logging.getLogger(__name__)

M_MMAP_THRESHOLD = -3  # glibc's malloc.h
BIG_BLOCK = 128 * 1024  # glibc's default starting threshold, kept fixed


def keep_big_blocks_returnable(threshold: int = BIG_BLOCK) -> bool:
    """Fix glibc's mmap threshold at ``threshold`` bytes (call once at start-up). False where the C
    library is not glibc (macOS, musl): nothing changes there."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    done = mallopt(M_MMAP_THRESHOLD, threshold) == 1
    if not done:
        log.debug("mallopt(M_MMAP_THRESHOLD) was refused; memory is managed as glibc decides")
    return done
