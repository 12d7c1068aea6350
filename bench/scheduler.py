"""Benchmark: the deadline scheduler with thousands of running games. Prints its figures; asserts
nothing.

    .venv/bin/python bench/scheduler.py [--games 5000] [--closes 1000]

The games' open phases are written straight into a SQLite file (a deadline a day ahead, the default
reminders), then it times, on the event loop:
- ``rebuild_from_db``: every job recreated from the database, as at start-up;
- what a close does to the jobs: its phase's jobs removed, the next phase's scheduled (``--closes``
  of them, median and slowest);
- what a moderator's extend does: the phase's jobs replaced.
The APScheduler is running (started, never fired: the deadlines are ahead).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlmodel import select

from db.database import SessionFactory, make_engine, make_session_factory
from db.migrate import upgrade_database
from db.models import Game, GameStatus, PhaseRecord, PhaseStatus
from engine import Board
from gm.clock import utcnow
from gm.delivery.scheduler import GameScheduler
from gm.setup.settings import GameSettings


async def fill(sessions: SessionFactory, games: int) -> None:
    """``games`` active games, each with an open Spring 1901 phase due in a day."""
    now = utcnow()
    board = Board.initial().to_json()
    settings = GameSettings().to_json()
    async with sessions() as session:
        rows = [
            Game(
                guild_id=1,
                name=f"Bench {number}",
                creator_id=1,
                status=GameStatus.ACTIVE,
                settings=settings,
                created_at=now,
                started_at=now,
            )
            for number in range(games)
        ]
        session.add_all(rows)
        await session.flush()
        session.add_all(
            PhaseRecord(
                game_id=game.id,  # type: ignore[arg-type]
                ordinal=0,
                name="S1901M",
                board=board,
                status=PhaseStatus.OPEN,
                deadline=now + timedelta(days=1),
                opened_at=now,
            )
            for game in rows
        )
        await session.commit()


async def run(games: int, closes: int) -> None:
    with tempfile.TemporaryDirectory(prefix="gm-bench-sched-") as tmp:
        engine = make_engine(f"sqlite+aiosqlite:///{tmp}/bench.db")
        await upgrade_database(engine)
        sessions = make_session_factory(engine)
        t0 = time.perf_counter()
        await fill(sessions, games)
        print(
            f"{games} games with an open phase written in {time.perf_counter() - t0:.1f} s "
            f"(load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)"
        )

        async def nothing(_phase_id: int) -> None:
            return None

        scheduler = GameScheduler(sessions, nothing)
        scheduler.start()
        t0 = time.perf_counter()
        report = await scheduler.rebuild_from_db()
        rebuilt = time.perf_counter() - t0
        jobs = len(scheduler.job_ids())
        print(
            f"rebuild_from_db: {len(report.scheduled)} phases, {jobs} jobs in {rebuilt * 1000:.0f} ms "
            f"({rebuilt / max(1, len(report.scheduled)) * 1e6:.0f} µs a phase)"
        )
        async with sessions() as session:
            rows = (await session.exec(select(PhaseRecord.id, PhaseRecord.game_id))).all()
            await session.commit()
        reminders = GameSettings().reminder_hours
        now = utcnow()
        close_times, extend_times = [], []
        for phase_id, game_id in rows[:closes]:
            t0 = time.perf_counter()
            scheduler.unschedule_phase(game_id, "S1901M")  # as gm.facade.core does after a close
            scheduler.schedule_phase(
                game_id, phase_id + 10**6, "F1901M", now + timedelta(days=1), reminders, now, catch_up=False
            )
            close_times.append(time.perf_counter() - t0)
        for phase_id, game_id in rows[closes : 2 * closes]:
            t0 = time.perf_counter()
            scheduler.schedule_phase(  # an extend: the same phase, a later deadline
                game_id, phase_id, "S1901M", now + timedelta(days=2), reminders, now, catch_up=False
            )
            extend_times.append(time.perf_counter() - t0)
        await asyncio.sleep(0.1)  # let the scheduler's wake-ups run
        for name, times in (("a close (unschedule + schedule)", close_times), ("an extend", extend_times)):
            if times:
                ms = sorted(t * 1000 for t in times)
                print(
                    f"{name:<34} n={len(ms):<5} median {statistics.median(ms):.3f} ms   "
                    f"max {ms[-1]:.3f} ms   (event loop time)"
                )
        print(f"jobs afterwards: {len(scheduler.job_ids())}")
        await scheduler.shutdown(wait=False)
        await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--closes", type=int, default=1000)
    args = parser.parse_args()
    asyncio.run(run(args.games, args.closes))


if __name__ == "__main__":
    main()
