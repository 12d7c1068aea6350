"""ops.memory: glibc's mmap threshold fixed, so that big freed blocks (maps) go back to the system."""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GLIBC = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"


@pytest.mark.skipif(not GLIBC, reason="glibc only: elsewhere the call changes nothing and says so")
def test_freed_map_sized_blocks_go_back_to_the_system_with_the_threshold_fixed() -> None:
    """A burst of 300 KiB buffers freed at once (50 closes' maps): with glibc's moving threshold they
    stay in the process; with the threshold fixed, the resident size comes back down."""
    script = """
import sys
from ops.memory import keep_big_blocks_returnable
if sys.argv[1] == "fixed":
    assert keep_big_blocks_returnable()
def rss():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
first = bytearray(300 * 1024); del first  # a first big block freed: glibc raises its threshold
before = rss()
maps = [bytearray(300 * 1024) for _ in range(200)]
keep = [bytearray(100) for _ in range(2000)]  # small objects after them pin the heap's top
del maps
print(rss() - before)
"""
    grown = {
        mode: int(
            subprocess.run(
                [sys.executable, "-c", script, mode], capture_output=True, text=True, check=True, cwd=ROOT
            ).stdout
        )
        for mode in ("moving", "fixed")
    }
    assert grown["fixed"] < 5_000, grown  # KiB: the 60 MiB went back
    assert grown["moving"] > 20_000, grown  # without it they stay (what the bot saw after closes)
