"""Benchmark: 200 seven-player games sharing one deadline, closed with rendering and database writes,
and order submission throughput through gm. Prints its figures; asserts nothing.

    .venv/bin/python bench/close_phases.py [--games 200] [--workers 2] [--no-render] [--url DATABASE_URL]

Goals (the gamemaster issue): all 200 closes within 30 s on a 2-core machine; at least 200 order
lines a second through gm.ordering.submission.submit_orders.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import func, update
from sqlmodel import col, select

from db.database import SessionFactory, make_engine, make_session_factory
from db.migrate import upgrade_database
from db.models import OutboxEntry, PhaseMap, PhaseRecord
from engine import Board, GameMap, load_map
from gm.clock import utcnow
from gm.facade import Gamemaster
from gm.ordering import submission as orders
from gm.phases.closer import CloseOutcome, PhaseCloser
from gm.setup import games

PLAYERS = 7


def realistic_orders(board: Board, power: str, rng: random.Random) -> list[str]:
    """An opening-like mix: most units move to a neighbouring province, some hold, some support."""
    game_map: GameMap = board.game_map
    units = list(board.units.get(power, ()))
    lines = []
    for unit in units:
        roll = rng.random()
        neighbours = sorted(game_map.neighbours(unit.type, unit.location))
        if roll < 0.6 and neighbours:
            lines.append(f"{unit} - {rng.choice(neighbours)}")
        elif roll < 0.8 and (beside := [u for u in units if u.location in neighbours]):
            lines.append(f"{unit} S {rng.choice(beside)}")
        else:
            lines.append(f"{unit} H")
    return lines


async def set_up(sessions: SessionFactory, n_games: int) -> list[games.StartResult]:
    started = []
    now = utcnow()
    for g in range(n_games):
        base = 10_000 * (g + 1)
        async with sessions() as s:
            game = await games.create_game(s, guild_id=1, creator_id=base, name=f"Bench {g}", now=now)
        for p in range(1, PLAYERS):
            async with sessions() as s:
                await games.join_game(s, game.id, base + p, now=now)
        async with sessions() as s:
            started.append(await games.start_game(s, game.id, base, now=now))
    return started


async def submit_all(
    sessions: SessionFactory, started: list[games.StartResult], game_map: GameMap, *, per_line: bool
) -> tuple[int, int, float]:
    """Submit every power's orders (one call per power, or one call per line); (lines, refused, seconds)."""
    rng = random.Random(1901)
    board = Board.initial(game_map)
    lines_sent = refused = 0
    t0 = time.perf_counter()
    for start in started:
        for power, user_id in start.assignments.items():
            assert user_id is not None
            lines = realistic_orders(board, power, rng)
            batches = [[line] for line in lines] if per_line else [lines]
            for batch in batches:
                async with sessions() as s:
                    report = await orders.submit_orders(s, start.game.id, user_id, "\n".join(batch))
                lines_sent += len(batch)
                refused += len(report.refused)
    return lines_sent, refused, time.perf_counter() - t0


class TimedCloser(PhaseCloser):
    """The real closer, keeping each close's outcome (adjudication and render seconds) for the report."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.outcomes: list[CloseOutcome] = []
        self.last_commit = 0.0

    async def finish(self, phase_id: int) -> CloseOutcome:
        outcome = await super().finish(phase_id)
        self.outcomes.append(outcome)
        self.last_commit = time.perf_counter()
        return outcome


async def close_all(
    sessions: SessionFactory, started: list[games.StartResult], workers: int, render: bool
) -> dict[str, float]:
    executor = (
        ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) if workers else None
    )
    if executor is not None:  # start the workers (imports, map loading, font caches) before the clock runs
        warm = {
            "board": Board.initial().to_json(),
            "orders": {},
            "render": render,
        }
        from gm.phases.worker import close_work

        await asyncio.gather(
            *(
                asyncio.get_running_loop().run_in_executor(executor, close_work, warm)
                for _ in range(workers * 2)
            )
        )
    closer = TimedCloser(sessions, executor=executor, render_maps=render, max_concurrent=2 * max(1, workers))
    gamemaster = Gamemaster(sessions, None, closer=closer, render_maps=render)
    deadline = utcnow() + timedelta(seconds=2)
    async with sessions() as s:
        await s.exec(
            update(PhaseRecord)
            .where(col(PhaseRecord.id).in_([st.phase.id for st in started]))
            .values(deadline=deadline)
        )
        await s.commit()
    await gamemaster.start()  # rebuilds 200 deadline jobs, all at the same moment
    await asyncio.sleep(max(0.0, (deadline - utcnow()).total_seconds()))
    t_deadline = time.perf_counter()
    await asyncio.sleep(0.05)
    await gamemaster.scheduler.idle()
    wall = closer.last_commit - t_deadline
    await gamemaster.shutdown()
    if executor is not None:
        executor.shutdown()
    seconds = [o.seconds or {} for o in closer.outcomes]
    return {
        "closed": sum(o.closed for o in closer.outcomes),
        "wall": wall,
        "adjudicate": sum(s.get("adjudicate", 0.0) for s in seconds),
        "render": sum(s.get("render", 0.0) for s in seconds),
    }


async def count(sessions: SessionFactory, model: Any, *where: Any) -> int:
    async with sessions() as s:
        return int((await s.exec(select(func.count()).select_from(model).where(*where))).one())


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2, help="processes for adjudication and rendering")
    parser.add_argument("--no-render", action="store_true")
    parser.add_argument("--url", help="database URL (default: a new SQLite file in a temporary directory)")
    args = parser.parse_args()
    render = not args.no_render

    tmp = tempfile.TemporaryDirectory(prefix="gm-bench-")
    url = args.url or f"sqlite+aiosqlite:///{tmp.name}/bench.db"
    engine = make_engine(url)
    await upgrade_database(engine)
    sessions = make_session_factory(engine)
    game_map = load_map()

    t0 = time.perf_counter()
    started = await set_up(sessions, args.games)
    setup = time.perf_counter() - t0
    print(
        f"database: {engine.dialect.name}; {args.games} games of {PLAYERS} created, joined and started "
        f"in {setup:.1f} s"
    )

    lines, refused, took = await submit_all(sessions, started, game_map, per_line=False)
    print(
        f"submit, one message per power: {lines} lines ({refused} refused) in {took:.2f} s "
        f"= {lines / took:.0f} lines/s"
    )
    lines1, refused1, took1 = await submit_all(
        sessions, started[: max(1, args.games // 4)], game_map, per_line=True
    )
    print(
        f"submit, one message per line:  {lines1} lines ({refused1} refused) in {took1:.2f} s "
        f"= {lines1 / took1:.0f} lines/s"
    )

    figures = await close_all(sessions, started, args.workers, render)
    n = int(figures["closed"])
    print(
        f"close at one deadline: {n} phases closed in {figures['wall']:.1f} s "
        f"({'with' if render else 'without'} maps, {args.workers} worker processes)"
    )
    print(
        f"  CPU in workers: adjudication {figures['adjudicate']:.1f} s "
        f"({1000 * figures['adjudicate'] / max(n, 1):.1f} ms/game), rendering {figures['render']:.1f} s "
        f"({1000 * figures['render'] / max(n, 1):.0f} ms/game)"
    )
    opened = await count(sessions, PhaseRecord, col(PhaseRecord.ordinal) == 1)
    outbox = await count(sessions, OutboxEntry)
    maps = await count(sessions, PhaseMap)
    print(f"  written: {opened} next phases, {maps} maps, {outbox} outbox messages")
    await engine.dispose()
    if url.startswith("sqlite"):
        size = Path(tmp.name, "bench.db").stat().st_size
        print(f"  database file: {size / 1e6:.1f} MB")
    tmp.cleanup()


if __name__ == "__main__":
    asyncio.run(main())
