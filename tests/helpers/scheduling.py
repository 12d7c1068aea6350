"""The order the tests run in under pytest-xdist, so that the waits overlap with work.

A few modules spend most of their time waiting, not computing: bot processes starting and stopping,
deadlines in real time, PostgreSQL servers. Collected in file order they come last in their worker's
share; xdist's work stealing then leaves them for the end of the run, when nothing else is left to use
the CPU while they wait (on two cores the last 25 s of the run were 40% busy). Here the modules of
:data:`WAITING` are dealt out over the workers' shares (longest first, to the share with the least
waiting so far) and placed among that share's other tests in its first 70%, so that every worker mixes
waiting with computing and the end of the run is made of short tests that stealing can balance.

xdist's work stealing (``--dist worksteal``) first gives worker k the k-th of N contiguous shares of the
collected list, ``remaining // (N - k)`` tests each; then an idle worker takes the last half of the
longest queue. Only the order changes: every test still runs, alone, with its own fixtures.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

# Modules that mostly wait, with their seconds on the 2-core machine in a full run (./test.sh with 3
# workers, measured before they were spread). Only the order depends on them: a wrong figure costs time.
# tests/test_scheduling.py checks that each names a module that exists.
WAITING: dict[str, float] = {
    "tests/e2e/test_bot_shutdown.py": 28,
    "tests/e2e/test_bot_shards.py": 25,
    "tests/e2e/test_bot_claims.py": 28,  # estimated (alone: a claimer killed, its close taken over)
    "tests/e2e/test_bot_outage.py": 12,  # estimated (alone: an 8-s outage)
    "tests/e2e/test_bot_offline_dms.py": 21,  # its two-process test, alone (the rest computes)
    "tests/gm/delivery/test_gm_shards.py": 23,
    "tests/gm/delivery/test_gm_scheduler.py": 20,
    "tests/test_startup.py": 19,
    "tests/e2e/test_bot_places.py": 20,
    "tests/e2e/test_bot_shield_repair.py": 13,
    "tests/db/test_db_operations.py": 11,
    "tests/gm/phases/test_gm_reliability.py": 13,
    "tests/gm/phases/test_gm_close_requests.py": 10,
    "tests/e2e/test_bot_operations.py": 9,
    "tests/e2e/test_bot_delivery.py": 14,
    "tests/e2e/test_fake_discord.py": 7,
    "tests/gm/delivery/test_gm_outbox.py": 10,
    "tests/db/test_db_backup.py": 6,
    "tests/test_config.py": 4,
    "tests/test_deploy.py": 5,
    "tests/test_deploy_env.py": 10,
    "tests/e2e/test_bot_restore_lock.py": 8,
}
SPREAD = 0.7  # the waiting modules sit in the first 70% of each share


def share_sizes(count: int, workers: int) -> list[int]:
    """How many tests xdist's work stealing first sends each worker (its initial, contiguous shares)."""
    sizes = []
    remaining = count
    for k in range(workers):
        size = remaining // (workers - k)
        sizes.append(size)
        remaining -= size
    return sizes


def interleaved(items: Sequence[T], modules: Sequence[str], workers: int) -> list[T]:
    """``items`` (whose modules are ``modules``, one per item) reordered for ``workers`` workers: the
    waiting modules dealt out over the shares and spread through the first part of each."""
    if workers < 2 or len(items) != len(modules):
        return list(items)
    groups: dict[str, list[T]] = {}
    light: list[tuple[T, str]] = []
    for item, module in zip(items, modules, strict=True):
        if module in WAITING:
            groups.setdefault(module, []).append(item)
        else:
            light.append((item, module))
    sizes = share_sizes(len(items), workers)
    heavy: list[list[str]] = [[] for _ in range(workers)]
    load = [0.0] * workers
    taken = [0] * workers
    for module in sorted(groups, key=lambda m: -WAITING[m]):
        # the share with the least waiting so far that has room for the module's tests
        fits = [k for k in range(workers) if taken[k] + len(groups[module]) <= sizes[k]]
        k = min(fits or range(workers), key=lambda k: (load[k], k))
        heavy[k].append(module)
        load[k] += WAITING[module]
        taken[k] += len(groups[module])
    ordered: list[T] = []
    start = 0
    for k in range(workers):
        count = max(0, sizes[k] - taken[k]) if k < workers - 1 else len(light) - start
        share = light[start : start + count]
        start += count
        ordered.extend(_spread(share, [groups[m] for m in heavy[k]]))
    return ordered


def _spread(share: Sequence[tuple[T, str]], waiting: Sequence[list[T]]) -> list[T]:
    """``share``'s items with the ``waiting`` groups put in, evenly through its first part, each at the
    module boundary nearest its place (a module's tests stay together)."""
    boundaries = [i for i in range(len(share) + 1) if i in (0, len(share)) or share[i][1] != share[i - 1][1]]
    places: list[int] = []
    for n in range(len(waiting)):
        target = round(n * SPREAD * len(share) / max(1, len(waiting)))
        places.append(min(boundaries, key=lambda b: abs(b - target)))
    out: list[T] = []
    at = 0
    for place, group in zip(places, waiting, strict=True):
        out.extend(item for item, _ in share[at:place])
        at = max(at, place)
        out.extend(group)
    out.extend(item for item, _ in share[at:])
    return out
