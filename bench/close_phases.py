"""Benchmark: seven-player games sharing one deadline, closed with rendering and database writes,
and order submission throughput through gm. Prints its figures; asserts nothing.

    .venv/bin/python bench/close_phases.py [--games 1000] [--workers 2] [--no-render] [--url DATABASE_URL]
        [--submit-only] [--count-sql]

Goals (issue 19): 1,000 games at one deadline closed (adjudicated, two maps each, written) in at most
45 s on 2 cores, memory flat, the first results committed within 2 s of the deadline; order
submission through gm.ordering.submission.submit_orders at least 1,000 lines a second with one
message per power and 400 with one message per line.

The worker processes are started (and warmed up) before the deadline, as the bot starts them; the
close is timed from the deadline to the last commit. The resident memory of this process and of the
workers is sampled during the close.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import event, func, update
from sqlmodel import col, select

from bench.timing import rss_mib
from db.database import SessionFactory, make_engine, make_session_factory
from db.migrate import upgrade_database
from db.models import OutboxEntry, PhaseMap, PhaseRecord
from engine import Board, GameMap, load_map
from gm.clock import utcnow
from gm.delivery.pool import WorkerPool
from gm.facade import Gamemaster
from gm.ordering import submission as orders
from gm.phases.closer import CloseOutcome, PhaseCloser
from gm.phases.worker import warm_up
from gm.setup import games

PLAYERS = 7
calls = [0]  # the submissions made by the latest submit_all


def realistic_orders(board: Board, power: str, rng: random.Random) -> list[str]:
    """An opening-like mix: most units move to a neighbouring province, some hold, some support."""
    game_map: GameMap = board.game_map
    units = list(board.units.get(power, ()))
    lines = []
    for unit in units:
        roll = rng.random()
        assert unit.type is not None  # a unit on a board has its type
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
        async with sessions.begin() as s:
            game = await games.create_game(s, guild_id=1, creator_id=base, name=f"Bench {g}", now=now)
        for p in range(1, PLAYERS):
            async with sessions.begin() as s:
                await games.join_game(s, game.id, base + p, now=now)
        async with sessions.begin() as s:
            started.append(await games.start_game(s, game.id, base, now=now))
    return started


async def submit_all(
    sessions: SessionFactory,
    started: list[games.StartResult],
    game_map: GameMap,
    *,
    per_line: bool,
    together: bool = False,
) -> tuple[int, int, float]:
    """Submit every power's orders (one call per power, or one call per line), one after the other
    or (``together``) the seven players of a game at once; (lines, refused, seconds)."""
    rng = random.Random(1901)
    board = Board.initial(game_map)
    counts = {"lines": 0, "refused": 0, "calls": 0}

    async def player(game_id: int, power: str, user_id: int) -> None:
        lines = realistic_orders(board, power, rng)
        for batch in [[line] for line in lines] if per_line else [lines]:
            async with sessions.begin() as s:
                report = await orders.submit_orders(s, game_id, user_id, "\n".join(batch))
            counts["lines"] += len(batch)
            counts["calls"] += 1
            counts["refused"] += len(report.refused)

    t0 = time.perf_counter()
    for start in started:
        seats = [(p, u) for p, u in start.assignments.items() if u is not None]
        if together:
            await asyncio.gather(*(player(start.game.id, p, u) for p, u in seats))
        else:
            for power, user_id in seats:
                await player(start.game.id, power, user_id)
    took = time.perf_counter() - t0
    calls[0] = counts["calls"]
    return counts["lines"], counts["refused"], took


class TimedCloser(PhaseCloser):
    """The real closer, keeping each close's outcome (adjudication and render seconds) and when its
    results were committed, for the report."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.outcomes: list[CloseOutcome] = []
        self.first_commit = 0.0
        self.last_commit = 0.0

    async def _finish(self, phase_id: int) -> CloseOutcome:
        outcome = await super()._finish(phase_id)
        self.outcomes.append(outcome)
        self.last_commit = time.perf_counter()
        self.first_commit = self.first_commit or self.last_commit
        return outcome


async def sample_memory(pids: list[int], samples: list[list[float]]) -> None:
    """Every half second, the resident memory (MiB) of each of ``pids``."""
    while True:
        samples.append([rss_mib(pid) for pid in pids])
        await asyncio.sleep(0.5)


async def close_all(
    sessions: SessionFactory, started: list[games.StartResult], workers: int, render: bool
) -> dict[str, Any]:
    executor = WorkerPool(workers) if workers else None
    if executor is not None:  # as the bot does at start-up (gm.facade.runtime): imports, map, base layers
        await asyncio.gather(*(asyncio.wrap_future(f) for f in executor.start(warm_up)))
    closer = TimedCloser(sessions, executor=executor, render_maps=render, max_concurrent=2 * max(1, workers))
    gamemaster = Gamemaster(sessions, None, closer=closer, render_maps=render)
    deadline = utcnow() + timedelta(seconds=3)
    async with sessions() as s:
        await s.exec(
            update(PhaseRecord)
            .where(col(PhaseRecord.id).in_([st.phase.id for st in started]))
            .values(deadline=deadline)
        )
        await s.commit()
    await gamemaster.runtime.start()  # rebuilds the deadline jobs, all at the same moment
    pids = [os.getpid(), *(executor.worker_pids() if isinstance(executor, WorkerPool) else [])]
    memory: list[list[float]] = []
    sampler = asyncio.create_task(sample_memory(pids, memory))
    await asyncio.sleep(max(0.0, (deadline - utcnow()).total_seconds()))
    t_deadline = time.perf_counter()
    cpu = time.process_time()
    await asyncio.sleep(0.05)
    await gamemaster.runtime.scheduler.idle()
    sampler.cancel()
    main_cpu = time.process_time() - cpu
    wall = closer.last_commit - t_deadline
    await gamemaster.runtime.shutdown()
    if executor is not None:
        executor.shutdown()
    seconds = [o.seconds or {} for o in closer.outcomes]
    return {
        "closed": sum(o.closed for o in closer.outcomes),
        "wall": wall,
        "first": closer.first_commit - t_deadline,
        "main_cpu": main_cpu,
        "adjudicate": sum(s.get("adjudicate", 0.0) for s in seconds),
        "render": sum(s.get("render", 0.0) for s in seconds),
        "worker_cpu": sum(s.get("cpu", 0.0) for s in seconds),
        "memory": memory,
    }


async def count(sessions: SessionFactory, model: Any, *where: Any) -> int:
    async with sessions() as s:
        return int((await s.exec(select(func.count()).select_from(model).where(*where))).one())


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2, help="processes for adjudication and rendering")
    parser.add_argument("--no-render", action="store_true")
    parser.add_argument("--url", help="database URL (default: a new SQLite file in a temporary directory)")
    parser.add_argument("--submit-only", action="store_true", help="stop after the submission figures")
    parser.add_argument(
        "--count-sql", action="store_true", help="count the SQL statements sent per submission"
    )
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
        f"in {setup:.1f} s (load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)"
    )

    statements = [0]
    if args.count_sql:

        @event.listens_for(engine.sync_engine, "before_cursor_execute")
        def _count(*_args: Any) -> None:
            statements[0] += 1

    def per_call() -> str:
        if not args.count_sql:
            return ""
        text = f"; {statements[0] / max(1, calls[0]):.1f} SQL statements per submission"
        statements[0] = 0
        return text

    statements[0] = 0
    lines, refused, took = await submit_all(sessions, started, game_map, per_line=False)
    print(
        f"submit, one message per power: {lines} lines ({refused} refused) in {took:.2f} s "
        f"= {lines / took:.0f} lines/s{per_call()}"
    )
    lines1, refused1, took1 = await submit_all(
        sessions, started[: max(1, args.games // 4)], game_map, per_line=True
    )
    print(
        f"submit, one message per line:  {lines1} lines ({refused1} refused) in {took1:.2f} s "
        f"= {lines1 / took1:.0f} lines/s{per_call()}"
    )

    quarter = started[max(1, args.games // 4) : max(2, args.games // 2)]
    lines2, refused2, took2 = await submit_all(sessions, quarter, game_map, per_line=False, together=True)
    print(
        f"submit, one message per power, the 7 players of a game at once: {lines2} lines ({refused2} "
        f"refused) in {took2:.2f} s = {lines2 / took2:.0f} lines/s{per_call()} "
        f"(load average {os.getloadavg()[0]:.2f})"
    )
    if args.submit_only:
        await engine.dispose()
        tmp.cleanup()
        return

    figures = await close_all(sessions, started, args.workers, render)
    n = int(figures["closed"])
    print(
        f"close at one deadline: {n} phases closed in {figures['wall']:.1f} s "
        f"({'with' if render else 'without'} maps, {args.workers} worker processes; load average "
        f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores); the first results committed "
        f"{figures['first']:.2f} s after the deadline"
    )
    print(
        f"  wall time in workers: adjudication {figures['adjudicate']:.1f} s "
        f"({1000 * figures['adjudicate'] / max(n, 1):.1f} ms/game), rendering {figures['render']:.1f} s "
        f"({1000 * figures['render'] / max(n, 1):.0f} ms/game)"
    )
    print(
        f"  CPU time: workers {figures['worker_cpu']:.1f} s ({1000 * figures['worker_cpu'] / max(n, 1):.0f} "
        f"ms/game), this process (scheduler, database) {figures['main_cpu']:.1f} s "
        f"({1000 * figures['main_cpu'] / max(n, 1):.0f} ms/game): on 2 cores of its own, "
        f"{(figures['worker_cpu'] + figures['main_cpu']) / 2:.0f} s of work each"
    )
    memory = figures["memory"]
    if memory:
        names = ["this process", *(f"worker {i + 1}" for i in range(len(memory[0]) - 1))]
        cells = []
        for i, name in enumerate(names):
            column = [row[i] for row in memory]
            cells.append(f"{name} {column[0]:.0f} -> {max(column):.0f} -> {column[-1]:.0f}")
        print("  resident memory at the deadline -> most -> at the end (MiB): " + "; ".join(cells))
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
