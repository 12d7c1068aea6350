"""Benchmark: the deadline scheduler with thousands of running games. Prints its figures; asserts
nothing.

    .venv/bin/python bench/scheduler.py                      # 5,000 then 20,000 games
    .venv/bin/python bench/scheduler.py --games 5000 --closes 1000
    .venv/bin/python bench/scheduler.py --root /path/to/other/checkout   # the code before a change

For each number of games, their open phases are written straight into a SQLite file (a deadline a day
ahead, the default reminders), then it times, on the event loop:
- ``rebuild_from_db``: every job recreated from the database, as at start-up, while the bot answers:
  an interaction's read (``Gamemaster.get_game``, what every command does first to find its game)
  starts every 10 ms during the rebuild, and a probe wakes every millisecond; it prints the rebuild's
  time, the interactions' answer times (against the same reads on an idle loop) and the event loop's
  worst stall (the probe's longest wait beyond its millisecond);
- what a close does to the jobs: its phase's jobs removed, the next phase's scheduled (``--closes``
  of them, median and slowest);
- what a moderator's extend does: the phase's jobs replaced.
The APScheduler is running (started, never fired: the deadlines are ahead). Python's collector is
frozen before the rebuild and between its pages as bot.py freezes it (``--no-freeze`` for a bot
before that). The load
average is printed beside each figure.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

# the code to time: this checkout's, or another's given with --root (the code before a change)
ROOT = Path(sys.argv[sys.argv.index("--root") + 1] if "--root" in sys.argv else Path(__file__).parent.parent)
sys.path.insert(0, str(ROOT.resolve()))

from sqlmodel import select  # noqa: E402

from db.database import SessionFactory, make_engine, make_session_factory  # noqa: E402
from db.migrate import upgrade_database  # noqa: E402
from db.models import Game, GameStatus, PhaseRecord, PhaseStatus  # noqa: E402
from engine import Board  # noqa: E402
from gm.clock import utcnow  # noqa: E402
from gm.delivery.scheduler import RebuildReport  # noqa: E402
from gm.facade import Gamemaster  # noqa: E402
from gm.settings import GameSettings  # noqa: E402

ASK_EVERY = 0.010  # seconds between two interactions during the rebuild
PROBE_EVERY = 0.001


def load() -> str:
    return f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"


def figures(name: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    if not ms:
        return f"{name:<34} none"
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return (
        f"{name:<34} n={len(ms):<5} median {statistics.median(ms):6.1f} ms   p95 {p95:6.1f} ms   "
        f"max {ms[-1]:6.1f} ms"
    )


async def probe(stalls: list[float], stop: asyncio.Event) -> None:
    """Wake every millisecond; record how late each wake-up was (the loop was busy meanwhile)."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        before = loop.time()
        await asyncio.sleep(PROBE_EVERY)
        stalls.append(max(0.0, loop.time() - before - PROBE_EVERY))


async def interactions(
    gamemaster: Gamemaster, ids: list[int], answers: list[float], stop: asyncio.Event
) -> None:
    """An interaction's first read every ASK_EVERY seconds, each timed until it has its answer."""
    rng = random.Random(1)
    running: set[asyncio.Task[None]] = set()

    async def ask() -> None:
        began = time.perf_counter()
        await gamemaster.get_game(rng.choice(ids))
        answers.append(time.perf_counter() - began)

    while not stop.is_set():
        task = asyncio.create_task(ask())
        running.add(task)
        task.add_done_callback(running.discard)
        await asyncio.sleep(ASK_EVERY)
    if running:
        await asyncio.wait(running)


T = TypeVar("T")


async def answered_while(
    gamemaster: Gamemaster, ids: list[int], work: Callable[[], Awaitable[T]]
) -> tuple[T, float, list[float], list[float]]:
    """Run ``work()`` with the interactions and the probe beside it: (its result, its seconds, the
    interactions' answer times, the probe's stalls)."""
    stop = asyncio.Event()
    answers: list[float] = []
    stalls: list[float] = []
    side = [
        asyncio.create_task(probe(stalls, stop)),
        asyncio.create_task(interactions(gamemaster, ids, answers, stop)),
    ]
    await asyncio.sleep(0)
    t0 = time.perf_counter()
    result = await work()
    took = time.perf_counter() - t0
    stop.set()
    await asyncio.gather(*side)
    return result, took, answers, stalls


async def fill(sessions: SessionFactory, games: int) -> None:
    """``games`` active games, each with an open Spring 1901 phase due in a day."""
    now = utcnow()
    board: dict[str, Any] = {**Board.initial().to_json()}
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
                game_id=game.row_id,
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


async def run(games: int, closes: int, freeze: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="gm-bench-sched-") as tmp:
        engine = make_engine(f"sqlite+aiosqlite:///{tmp}/bench.db")
        await upgrade_database(engine)
        sessions = make_session_factory(engine)
        t0 = time.perf_counter()
        await fill(sessions, games)
        print(f"\n{games} games with an open phase written in {time.perf_counter() - t0:.1f} s ({load()})")

        gamemaster = Gamemaster(sessions, None, workers=0, render_maps=False)
        scheduler = gamemaster.runtime.scheduler
        scheduler.start()
        async with sessions.read() as session:
            ids = [game_id for game_id in (await session.exec(select(Game.id))).all() if game_id is not None]

        async def idle() -> None:
            await asyncio.sleep(1.0)

        _, _, idle_answers, idle_stalls = await answered_while(gamemaster, ids, idle)
        if freeze:
            gc.freeze()  # as bot.py does before the rebuild (a full collection skips what start-up made)

        async def rebuild() -> RebuildReport:  # ... and between its pages, as bot.py has it do
            if freeze:
                return await scheduler.rebuild_from_db(between_pages=gc.freeze)
            return await scheduler.rebuild_from_db()

        report, rebuilt, answers, stalls = await answered_while(gamemaster, ids, rebuild)
        jobs = len(scheduler.job_ids())
        print(
            f"rebuild_from_db: {len(report.scheduled)} phases, {jobs} jobs in {rebuilt * 1000:.0f} ms "
            f"({rebuilt / max(1, len(report.scheduled)) * 1e6:.0f} µs a phase; {load()})"
        )
        print(
            f"worst event-loop stall during the rebuild: {max(stalls, default=0) * 1000:.1f} ms "
            f"(idle loop: {max(idle_stalls, default=0) * 1000:.1f} ms)"
        )
        print(figures("interactions during the rebuild", answers))
        print(figures("the same on an idle loop", idle_answers))
        async with sessions() as session:
            found = (await session.exec(select(PhaseRecord.id, PhaseRecord.game_id))).all()
            rows = [(phase_id, game_id) for phase_id, game_id in found if phase_id is not None]
            await session.commit()
        reminders = GameSettings().reminder_hours
        now = utcnow()
        close_times, extend_times = [], []
        for phase_id, game_id in rows[:closes]:
            t0 = time.perf_counter()
            scheduler.unschedule_phase(game_id, "S1901M")  # as gm.facade.runtime does after a close
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
    parser.add_argument("--games", type=int, nargs="+", default=[5000, 20000])
    parser.add_argument("--closes", type=int, default=1000)
    parser.add_argument("--root", help="time the code of this checkout (default: this one)")
    parser.add_argument(
        "--no-freeze", action="store_true", help="no gc.freeze() before the rebuild (older bots)"
    )
    args = parser.parse_args()
    print(f"code of {ROOT}")
    for games in args.games:
        asyncio.run(run(games, args.closes, not args.no_freeze))


if __name__ == "__main__":
    main()
