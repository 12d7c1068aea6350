"""Benchmark: backing up and restoring the SQLite database of N seven-player games (``python -m db
backup``/``restore``), idle and while the bot writes. Prints its figures; asserts nothing.

    .venv/bin/python bench/backup.py [--games 200] [--phases 3]

Each game is started and closed through ``--phases`` phases (adjudicated, without rendering), and each
closed phase gets two maps of the size a real one has (146 KB, docs/PERFORMANCE.md; random bytes, as
incompressible as a PNG), so that the file is as large as a server's after that much play.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from db.backup import backup_sqlite, restore_sqlite
from db.database import SessionFactory, make_engine, make_session_factory
from db.migrate import upgrade_database
from db.models import PhaseMap
from gm.clock import utcnow
from gm.phases.closer import PhaseCloser
from gm.reading.lookup import latest_phase
from gm.setup import games

PLAYERS = 7
MAP_BYTES = 146_000


async def build(sessions: SessionFactory, n_games: int, n_phases: int) -> None:
    closer = PhaseCloser(sessions, render_maps=False)
    now = utcnow()
    for g in range(n_games):
        base = 10_000 * (g + 1)
        async with sessions.begin() as s:
            game = await games.create_game(s, guild_id=1, creator_id=base, name=f"Bench {g}", now=now)
        for p in range(1, PLAYERS):
            async with sessions.begin() as s:
                await games.join_game(s, game.id, base + p, now=now)
        async with sessions.begin() as s:
            await games.start_game(s, game.id, base, now=now)
        for _ in range(n_phases):
            async with sessions() as s:
                phase = await latest_phase(s, game.id)
                await s.commit()
            if phase is None or phase.status != "open":
                break
            outcome = await closer.close(phase.row_id)
            async with sessions() as s:
                for kind in ("orders", "position"):
                    s.add(
                        PhaseMap(
                            phase_id=outcome.phase_id, kind=kind, png=os.urandom(MAP_BYTES), created_at=now
                        )
                    )
                await s.commit()


async def keep_writing(sessions: SessionFactory, stop: asyncio.Event) -> int:
    """What a busy bot does meanwhile: one write transaction after another (a game created each)."""
    writes = 0
    while not stop.is_set():
        async with sessions.begin() as s:
            await games.create_game(s, guild_id=2, creator_id=900_000 + writes, name="w", now=utcnow())
        writes += 1
        await asyncio.sleep(0)
    return writes


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--phases", type=int, default=3)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="gm-bench-backup-"))
    live = tmp / "live.db"
    engine = make_engine(f"sqlite+aiosqlite:///{live}")
    await upgrade_database(engine)
    sessions = make_session_factory(engine)
    t0 = time.perf_counter()
    await build(sessions, args.games, args.phases)
    print(
        f"{args.games} games of {PLAYERS}, {args.phases} closed phases each with 2 maps: "
        f"{live.stat().st_size / 1e6:.0f} MB, built in {time.perf_counter() - t0:.0f} s"
    )

    idle = [await asyncio.to_thread(backup_sqlite, live, tmp / f"idle{i}.db") for i in range(3)]
    best = min(r.seconds for r in idle)
    print(
        f"backup, bot idle:    {best:.2f} s best of 3 ({idle[0].bytes / 1e6:.0f} MB, {idle[0].games} games)"
    )

    stop = asyncio.Event()
    writer = asyncio.create_task(keep_writing(sessions, stop))
    await asyncio.sleep(0.2)
    busy = await asyncio.to_thread(backup_sqlite, live, tmp / "busy.db")
    stop.set()
    writes = await writer
    print(f"backup, bot writing: {busy.seconds:.2f} s ({writes} write transactions committed meanwhile)")

    t0 = time.perf_counter()
    restore_sqlite(tmp / "busy.db", tmp / "restored.db")
    print(f"restore:             {time.perf_counter() - t0:.2f} s")
    await engine.dispose()
    print(f"files left in {tmp}")


if __name__ == "__main__":
    asyncio.run(main())
