"""SQLite's single writer: writers go in turn, and a write somebody waits for (a direct message's
orders, db.sqlite.urgent_writes) goes before the ordinary writers waiting (gm.delivery.lanes)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text

from db.database import Sessions, make_engine, make_session_factory
from db.sqlite import urgent_writes, writer_lock


async def _waiting(database: str, ordinary: int, urgent: int) -> None:
    """Until that many writers wait for the writer lock (their connections open on threads)."""
    lock = writer_lock(database)
    for _ in range(2000):
        if (len(lock._ordinary), len(lock._urgent)) == (ordinary, urgent):
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the writers never queued")


async def _written(sessions: Sessions) -> list[str]:
    """Who wrote, in the order their transactions committed."""
    async with sessions.begin() as s:
        rows = await (await s.connection()).execute(text("SELECT who FROM written ORDER BY rowid"))
        return [row[0] for row in rows.all()]


@pytest.fixture
def database(tmp_path: Path) -> str:
    return str(tmp_path / "turns.db")


class Writers:
    """Writers of one row each into a fresh database's table ``written``; ``first`` holds the
    writer lock until :attr:`release` is set."""

    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions
        self.release = asyncio.Event()

    async def write(self, who: str) -> None:
        async with self.sessions.begin() as s:
            await (await s.connection()).execute(text("INSERT INTO written VALUES (:who)"), {"who": who})
            if who == "first":
                await self.release.wait()  # holds the writer lock meanwhile

    async def first_holding_the_lock(self, database: str) -> asyncio.Task[None]:
        first = asyncio.create_task(self.write("first"))
        while not writer_lock(database).locked():
            await asyncio.sleep(0.005)
        return first


@pytest.fixture
async def writers(database: str) -> AsyncIterator[Writers]:
    engine = make_engine(f"sqlite+aiosqlite:///{database}")
    sessions = make_session_factory(engine)
    try:
        async with sessions.begin() as s:
            await (await s.connection()).execute(text("CREATE TABLE written (who TEXT)"))
        yield Writers(sessions)
    finally:
        await engine.dispose()


async def test_a_write_somebody_waits_for_goes_before_the_ordinary_writers_queued(
    database: str, writers: Writers
) -> None:
    async def urgent(who: str) -> None:
        with urgent_writes():
            await writers.write(who)

    first = await writers.first_holding_the_lock(database)
    ordinary = []
    for n in range(3):  # one after the other: their turns are the order they came in
        ordinary.append(asyncio.create_task(writers.write(f"ordinary {n}")))
        await _waiting(database, n + 1, 0)
    dm = [asyncio.create_task(urgent("dm 1"))]
    await _waiting(database, 3, 1)
    dm.append(asyncio.create_task(urgent("dm 2")))
    await _waiting(database, 3, 2)
    writers.release.set()
    await asyncio.gather(first, *ordinary, *dm)
    order = await _written(writers.sessions)
    assert order == ["first", "dm 1", "dm 2", "ordinary 0", "ordinary 1", "ordinary 2"]


async def test_a_writer_that_gives_up_waiting_leaves_the_turn_to_the_next(
    database: str, writers: Writers
) -> None:
    first = await writers.first_holding_the_lock(database)
    quitter = asyncio.create_task(writers.write("quitter"))
    await _waiting(database, 1, 0)
    later = asyncio.create_task(writers.write("later"))
    await _waiting(database, 2, 0)
    quitter.cancel()  # e.g. its interaction was dropped
    with pytest.raises(asyncio.CancelledError):
        await quitter
    writers.release.set()
    await asyncio.wait_for(asyncio.gather(first, later), 30)
    order = await _written(writers.sessions)
    assert order == ["first", "later"]
    assert not writer_lock(database).locked()
