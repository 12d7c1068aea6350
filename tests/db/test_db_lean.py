"""db.lean: the hot writes' lighter unit of work on SQLite keeps the sessions' promises: its write is on
disk before its block ends, it takes its turn with the sessions' writers, a failure or a need for a
session leaves nothing written, and where it cannot run (PostgreSQL, an in-memory database, its
connections all taken) there is none."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import bindparam, column, insert, select, table, text

from db import sqlite as db_sqlite
from db.database import Sessions, flushed_connection, make_engine, make_session_factory
from db.lean import LEAN_CONNECTIONS, NeedsSession
from db.prepared import Prepared
from db.sqlite import writer_lock

_written = table("written", column("who"))
_WRITE = Prepared(insert(_written), ("who",))
_READ = Prepared(select(_written.c.who).where(_written.c.who == bindparam("who")))


@pytest.fixture
async def sessions(tmp_path: Path) -> AsyncIterator[Sessions]:
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'lean.db'}")
    made = make_session_factory(engine)
    try:
        async with made.begin() as s:
            await (await s.connection()).execute(text("CREATE TABLE written (who TEXT)"))
        yield made
    finally:
        await engine.dispose()


async def _who(sessions: Sessions) -> list[str]:
    async with sessions.read() as s:
        rows = await (await s.connection()).execute(text("SELECT who FROM written ORDER BY rowid"))
        return [row[0] for row in rows.all()]


async def _lean_write(sessions: Sessions, who: str) -> None:
    unit = await sessions.lean()
    assert unit is not None
    async with unit as session:
        await _WRITE.run(await flushed_connection(session), {"who": who})  # type: ignore[arg-type]


async def test_a_lean_write_is_committed_and_on_disk_before_its_block_ends(
    sessions: Sessions, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[str] = []
    fsync = db_sqlite._fsync_path

    def recorded(path: str) -> None:
        fsync(path)
        synced.append(path)

    monkeypatch.setattr(db_sqlite, "_fsync_path", recorded)
    unit = await sessions.lean()
    assert unit is not None
    async with unit as session:
        connection = await flushed_connection(session)  # type: ignore[arg-type]
        await _WRITE.run(connection, {"who": "lean"})
        assert [row[0] for row in await _READ.rows(connection, {"who": "lean"})] == ["lean"]
        assert synced == []
    assert synced and synced[-1].endswith("lean.db-wal")  # the WAL synced before the block ended
    assert await _who(sessions) == ["lean"]


async def test_a_lean_write_waits_its_turn_behind_a_session_writing(
    sessions: Sessions, tmp_path: Path
) -> None:
    release = asyncio.Event()

    async def session_writer() -> None:
        async with sessions.begin() as s:
            await (await s.connection()).execute(text("INSERT INTO written VALUES ('session')"))
            await release.wait()  # holds the writer lock meanwhile

    first = asyncio.create_task(session_writer())
    lock = writer_lock(str(tmp_path / "lean.db"))
    while not lock.locked():
        await asyncio.sleep(0.005)
    lean = asyncio.create_task(_lean_write(sessions, "lean"))
    for _ in range(20):
        await asyncio.sleep(0.005)
    assert not lean.done()  # waiting for the writer lock, not writing beside the session
    release.set()
    await asyncio.gather(first, lean)
    assert await _who(sessions) == ["session", "lean"]


async def test_a_lean_write_that_fails_or_needs_a_session_leaves_nothing_written(sessions: Sessions) -> None:
    for needs in (ValueError("refused"), None):
        unit = await sessions.lean()
        assert unit is not None
        with pytest.raises(ValueError if needs else NeedsSession):
            async with unit as session:
                await _WRITE.run(await flushed_connection(session), {"who": "rolled back"})  # type: ignore[arg-type]
                if needs is not None:
                    raise needs
                await session.exec(text("SELECT 1"))  # an ORM statement: only a session runs it
    assert await _who(sessions) == []
    await _lean_write(sessions, "after")  # its connection was given back, in working order
    assert await _who(sessions) == ["after"]


async def test_no_lean_unit_when_its_connections_are_all_taken(sessions: Sessions) -> None:
    units: list[Any] = []
    for _ in range(LEAN_CONNECTIONS):
        unit = await sessions.lean()
        assert unit is not None
        units.append(unit)
    assert await sessions.lean() is None  # then the write takes a session
    entered = await units[0].__aenter__()
    await units[0].__aexit__(None, None, None)
    assert entered is not None
    assert await sessions.lean() is not None  # the one given back


async def test_no_lean_unit_on_an_in_memory_database() -> None:
    engine = make_engine("sqlite+aiosqlite:///:memory:")
    try:
        assert await make_session_factory(engine).lean() is None
    finally:
        await engine.dispose()


async def test_no_lean_unit_on_postgresql(postgres_url: str) -> None:
    engine = make_engine(postgres_url)
    try:
        assert await make_session_factory(engine).lean() is None  # its writers write side by side
    finally:
        await engine.dispose()


async def test_a_lean_write_cancelled_while_waiting_its_turn_leaves_the_writers_working(
    sessions: Sessions, tmp_path: Path
) -> None:
    release = asyncio.Event()

    async def session_writer() -> None:
        async with sessions.begin() as s:
            await (await s.connection()).execute(text("INSERT INTO written VALUES ('session')"))
            await release.wait()

    first = asyncio.create_task(session_writer())
    lock = writer_lock(str(tmp_path / "lean.db"))
    while not lock.locked():
        await asyncio.sleep(0.005)
    cancelled = asyncio.create_task(_lean_write(sessions, "cancelled"))
    for _ in range(10):
        await asyncio.sleep(0.005)
    cancelled.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    release.set()
    await first
    await asyncio.wait_for(_lean_write(sessions, "after"), 10)
    async with sessions.begin() as s:  # and the sessions' writers too
        await (await s.connection()).execute(text("INSERT INTO written VALUES ('session again')"))
    assert await _who(sessions) == ["session", "after", "session again"]
