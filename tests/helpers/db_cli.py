"""Running `python -m db` as a process of its own (forked from a zygote: harness/zygote.py), and a
database with started games to back up."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from db.database import make_engine, make_session_factory
from db.migrate import upgrade_database
from gm.ordering import submission as orders
from gm.settings import GameSettings
from gm.setup import games
from harness import zygote
from tests.helpers.paths import ROOT

T0 = datetime(2024, 3, 1, 18, 0, tzinfo=UTC)
GUILD = 555


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m db *args``, forked from an interpreter that imported it (harness/zygote.py)."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return zygote.run(
        [sys.executable, "-m", "db", *args], cwd=cwd, env={**env, "PYTHONPATH": str(ROOT)}, timeout=120
    )


async def acli(*args: str, cwd: Path) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    process = await zygote.create_subprocess_exec(
        sys.executable,
        "-m",
        "db",
        *args,
        cwd=cwd,
        env={**env, "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate()
    return process.returncode or 0, out.decode(), err.decode()


async def started_games(url: str, count: int) -> None:
    """``count`` seven-player games, started, each with some orders."""
    engine = make_engine(url)
    await upgrade_database(engine)
    sessions = make_session_factory(engine)
    for n in range(count):
        creator = 1000 + n * 10
        async with sessions.begin() as s:
            game = await games.create_game(
                s, guild_id=GUILD, creator_id=creator, name=f"Game {n}", settings=GameSettings(), now=T0
            )
        for i in range(1, 7):
            async with sessions.begin() as s:
                await games.join_game(s, game.id, creator + i, now=T0)
        async with sessions.begin() as s:
            started = await games.start_game(s, game.id, creator, now=T0, rng=random.Random(n))
        france = started.assignments["FRANCE"]
        assert france is not None
        async with sessions.begin() as s:
            await orders.submit_orders(s, game.id, france, "A Par-Bur\nF Bre-MAO", now=T0)
    await engine.dispose()
