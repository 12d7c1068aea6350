"""Benchmark: seven-player games sharing one deadline, closed with rendering and database writes,
and order submission throughput through gm. Prints its figures; asserts nothing.

    .venv/bin/python bench/close_phases.py [--games 1000] [--workers 2] [--no-render] [--url DATABASE_URL]
        [--submit-only] [--count-sql] [--built-in LEVEL|none] [--variant standard|chaos] [--closes N]

Goals (issue 19): 1,000 games at one deadline closed (adjudicated, two maps each, written) in at most
45 s on 2 cores, memory flat, the first results committed within 2 s of the deadline; order
submission through gm.ordering.submission.submit_orders at least 1,000 lines a second with one
message per power and 400 with one message per line.

``--built-in LEVEL`` (issue 43): every seat of every game is the built-in player's at that level
(the seats nobody took filled at the start, the creator's given to it as /mod builtin does), so each
close first chooses every power's orders in the workers (Chaos: 34 powers a game); ``--built-in
none``: the same games with every seat holding in civil disorder, the close without the player's
work, to compare with. ``--closes N``: N closes in a row, each at one deadline for all the games
(Chaos opens with builds: its first movement phase is the second close).

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
from db.models import OutboxEntry, PhaseMap, PhaseRecord, PhaseStatus, Player, PlayerStatus, PowerAssignment
from engine import Board, GameMap, load_map
from engine.variants import get_variant
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


async def set_up_built_in(
    sessions: SessionFactory, n_games: int, variant: str, level: str | None
) -> list[games.StartResult]:
    """Games whose every seat the built-in player plays at ``level`` (None: every seat holds in civil
    disorder): the creator starts alone, the seats nobody took filled (``fill_seats``), and the
    creator's seat given to it as /mod builtin gives it (the player in civil disorder)."""
    started = []
    now = utcnow()
    players = max(get_variant(variant).all_seats())  # every power a seat (Chaos: 34)
    settings: dict[str, Any] = {"fill_seats": True, "builtin_level": level or "normal", "players": players}
    if players > 10:
        settings["press"] = "public"  # private threads between every pair: up to 10 players
    for g in range(n_games):
        base = 10_000 * (g + 1)
        async with sessions.begin() as s:
            game = await games.create_game(
                s, guild_id=1, creator_id=base, name=f"Bench {g}", settings=settings, variant=variant, now=now
            )
        async with sessions.begin() as s:
            start = await games.start_game(s, game.id, base, now=now)
            await s.exec(
                update(PowerAssignment)
                .where(col(PowerAssignment.game_id) == game.id)
                .values(built_in=level is not None)
            )
            await s.exec(
                update(Player)
                .where(col(Player.game_id) == game.id)
                .values(status=PlayerStatus.CIVIL_DISORDER)
            )
        started.append(start)
    return started


async def open_phases(sessions: SessionFactory) -> list[int]:
    """The ids of the phases open now (the next close's)."""
    async with sessions() as s:
        rows = await s.exec(select(PhaseRecord.id).where(col(PhaseRecord.status) == PhaseStatus.OPEN))
        return [int(i) for i in rows.all() if i is not None]


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
    sessions: SessionFactory, phase_ids: list[int], workers: int, render: bool
) -> dict[str, Any]:
    executor = WorkerPool(workers) if workers else None
    if executor is not None:  # as the bot does at start-up (gm.facade.runtime): imports, map, base layers
        await asyncio.gather(*(asyncio.wrap_future(f) for f in executor.start(warm_up)))
    closer = TimedCloser(sessions, executor=executor, render_maps=render, max_concurrent=2 * max(1, workers))
    gamemaster = Gamemaster(sessions, None, closer=closer, render_maps=render)
    deadline = utcnow() + timedelta(seconds=3)
    async with sessions() as s:
        await s.exec(update(PhaseRecord).where(col(PhaseRecord.id).in_(phase_ids)).values(deadline=deadline))
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


async def close_and_report(
    sessions: SessionFactory, started: list[games.StartResult], args: argparse.Namespace, render: bool
) -> None:
    """``args.closes`` closes in a row, each at one deadline for every game, and their figures."""
    phase_ids = [st.phase.id for st in started]
    for close in range(args.closes):
        if close:
            phase_ids = await open_phases(sessions)
        report(await close_all(sessions, phase_ids, args.workers, render), args, render, close)


def report(figures: dict[str, Any], args: argparse.Namespace, render: bool, close: int) -> None:
    """Print one close's figures."""
    seats = chosen = ""
    if args.built_in is not None:
        seats = f"every seat built-in ({args.built_in}), {args.variant}, close {close + 1}: "
        chosen = " (with every seat's orders chosen)" if args.built_in != "none" else ""
    n = int(figures["closed"])
    print(
        f"close at one deadline: {seats}{n} phases closed in {figures['wall']:.1f} s "
        f"({'with' if render else 'without'} maps, {args.workers} worker processes; load average "
        f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores); the first results committed "
        f"{figures['first']:.2f} s after the deadline"
    )
    print(
        f"  wall time in workers: adjudication{chosen} {figures['adjudicate']:.1f} s "
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
    parser.add_argument(
        "--built-in",
        choices=["easy", "normal", "hard", "none"],
        help="every seat played by the built-in player at this level (none: every seat holds)",
    )
    parser.add_argument("--variant", default="standard", help="with --built-in: the games' variant")
    parser.add_argument("--closes", type=int, default=1, help="closes in a row, each at one deadline")
    args = parser.parse_args()
    render = not args.no_render

    tmp = tempfile.TemporaryDirectory(prefix="gm-bench-")
    url = args.url or f"sqlite+aiosqlite:///{tmp.name}/bench.db"
    engine = make_engine(url)
    await upgrade_database(engine)
    sessions = make_session_factory(engine)
    game_map = load_map()

    t0 = time.perf_counter()
    if args.built_in is not None:
        level = None if args.built_in == "none" else args.built_in
        started = await set_up_built_in(sessions, args.games, args.variant, level)
        print(
            f"database: {engine.dialect.name}; {args.games} {args.variant} games, every seat "
            f"{'the built-in player' if level else 'holding'}, started in {time.perf_counter() - t0:.1f} s "
            f"(load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)"
        )
        await close_and_report(sessions, started, args, render)
        await engine.dispose()
        tmp.cleanup()
        return
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

    await close_and_report(sessions, started, args, render)
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
