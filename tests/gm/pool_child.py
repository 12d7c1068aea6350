"""A process that starts a WorkerPool, prints its workers' pids and waits to be killed
(tests.gm.test_gm_pool: the workers must die with it)."""

from __future__ import annotations

import sys
import time

from gm.delivery.pool import WorkerPool


def warm(_: int) -> int:
    return 1


if __name__ == "__main__":
    pool = WorkerPool(2)
    list(pool._pool.map(warm, range(4)))  # the workers are up
    print(" ".join(map(str, pool.worker_pids())), flush=True)
    sys.stdout.flush()
    time.sleep(600)
