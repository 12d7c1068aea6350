"""SQLite's single writer: writers go in turn, and a write somebody waits for (a direct message's
orders, db.sqlite.urgent_writes) goes before the ordinary writers waiting (gm.delivery.lanes)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from db import sqlite as db_sqlite
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


def test_a_commit_made_as_the_fsync_before_it_ends_is_made_durable_and_the_bot_goes_on(
    tmp_path: Path,
) -> None:
    """The group commit (db.sqlite._WalSync): a commit that asks for its fsync in the moment the one
    running has finished (its end not yet seen by those waiting for it) gets an fsync of its own and
    returns, without holding the event loop: the loop runs in a thread here, and a loop held for good
    would never let it end."""
    fsyncs: list[asyncio.Future[None]] = []
    ended: list[str] = []

    async def commits() -> None:
        loop = asyncio.get_running_loop()

        def run_in_executor(_executor: Any, _fn: Any, *_args: Any) -> asyncio.Future[None]:
            fsyncs.append(loop.create_future())  # an fsync that ends when the test says
            return fsyncs[-1]

        setattr(loop, "run_in_executor", run_in_executor)  # noqa: B010 (this loop only: its fsyncs held)
        sync = db_sqlite._WalSync(str(tmp_path / "turns.db-wal"))
        first = asyncio.ensure_future(sync.sync())
        while not fsyncs:
            await asyncio.sleep(0)

        async def disk() -> None:  # every later fsync ends a moment after it starts
            while True:
                await asyncio.sleep(0.001)
                for fsync in fsyncs[1:]:
                    if not fsync.done():
                        fsync.set_result(None)

        disk_task = asyncio.ensure_future(disk())
        fsyncs[0].set_result(None)  # the first fsync ends, and in the same moment a second commit asks
        await sync.sync()  # (in this very step: no task of its own, which would start later)
        await asyncio.wait_for(first, 5)
        disk_task.cancel()
        ended.append(f"{len(fsyncs)} fsyncs")

    ran = threading.Thread(target=lambda: asyncio.run(commits()), daemon=True)
    ran.start()
    ran.join(10)
    assert not ran.is_alive(), "the event loop was held: the second commit never returned"
    assert ended == ["2 fsyncs"]
