"""What the benchmarks share: the row the bot benchmarks (bot_interactions.py, moderation.py) print
for a kind of wait, and a process's resident memory."""

from __future__ import annotations

import statistics


def summary(name: str, seconds: list[float], width: int = 34) -> str:
    """``name`` (padded to ``width``), how many waits, their median, 95th percentile and longest (ms)."""
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return (
        f"{name:<{width}} n={len(ms):<4} median {statistics.median(ms):7.1f} ms   "
        f"p95 {p95:7.1f} ms   max {ms[-1]:7.1f} ms"
    )


def rss_mib(pid: int) -> float:
    """Process ``pid``'s resident memory in MiB (Linux's /proc; 0 where it cannot be read)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0
