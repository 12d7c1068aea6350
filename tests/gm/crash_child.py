"""Run by test_gm_reliability in a separate process: start closing a phase, then die without warning
(``os._exit``, no cleanup, no rollback) at the point named on the command line.

    python -m tests.gm.crash_child DATABASE_URL PHASE_ID after_claim|before_commit
"""

from __future__ import annotations

import asyncio
import os
import sys

from db.database import make_engine, make_session_factory
from gm.phases.closer import CloseHooks, PhaseCloser

CRASH_EXIT_CODE = 17


async def main(url: str, phase_id: int, point: str) -> None:
    async def crash(_phase_id: int) -> None:
        os._exit(CRASH_EXIT_CODE)

    hooks = CloseHooks(**{point: crash})
    engine = make_engine(url)
    closer = PhaseCloser(make_session_factory(engine), render_maps=False, hooks=hooks)
    await closer.close(phase_id)
    print("the close finished without crashing", file=sys.stderr)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
