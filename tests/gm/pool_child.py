"""A process that starts a WorkerPool, prints its workers' pids and waits to be killed
(tests.gm.delivery.test_gm_pool: the workers must die with it).

``slow``: the workers are printed as soon as they are spawned, and each spends a minute importing
this module (as a worker imports the bot's main module before it runs anything of the pool's), so
that the parent is killed while they are still starting."""

from __future__ import annotations

import sys
import time

from gm.delivery.pool import WorkerPool

if __name__ == "__mp_main__" and "slow" in sys.argv:  # in a worker: a slow start
    time.sleep(60)


def warm(_: int) -> int:
    return 1


if __name__ == "__main__":
    pool = WorkerPool(2)
    if "slow" in sys.argv:
        pool.start()
    else:
        list(pool._pool.map(warm, range(4)))  # the workers are up
    print(" ".join(map(str, pool.worker_pids())), flush=True)
    sys.stdout.flush()
    time.sleep(600)
