"""A lighter unit of work for the hot writes on SQLite: a player's own orders (a typed or tapped order, an
orders form, Ready), run on SQLite's driver alone, without SQLAlchemy's session, connection and pool.

Such a write is a handful of prepared statements (db.prepared) on a game the process holds
(gm.ordering.current); SQLAlchemy's part of it was the unit of work around them: the session, its
transaction, the pooled connection's checkout and check-in, ``BEGIN`` and the commit's bookkeeping,
about as much CPU as the statements and the judging together. A :class:`LeanUnit` takes one of its
own few connections (opened as the engine opens its own: the same pragmas), begins as the engine's
writers begin (db.sqlite: the process's writer lock, in the same turn as every other writer, the
urgent ones first; ``BEGIN IMMEDIATE``), runs the prepared statements on it, and commits as they
commit: the same fsync of the WAL (group commit) before anybody is told.

What the unit cannot do (an ORM query or object: a game not held yet, a player back from civil
disorder, an early close's deadline, a phase that opened moments ago) raises :class:`NeedsSession`
before anything is committed: the caller rolls the unit back and runs the same use case again in an
ordinary session (gm.facade: ``_write_own_orders``). A :class:`LeanSession` is what the use case is
handed: the session's ``info``, no objects, its statements on the unit's connection.

SQLite files only (their own pools: db.database); PostgreSQL and in-memory databases use sessions.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.engine import Dialect, Engine

from db import sqlite

LEAN_CONNECTIONS = 4
"""The unit's own connections at most. A writer holds one from its ``BEGIN`` until its commit is on
disk (the fsync, a few milliseconds); one writes at a time, so a few let the next writers go in while
the fsync of the one before runs. When all are taken, the write takes a session (the writers' pool)."""


class NeedsSession(Exception):
    """The lean unit met what only a session does (see the module docstring): nothing it wrote is
    committed; run the use case again in a session."""


class LeanConnection:
    """The unit's connection as db.prepared and gm's hot writes use a session's (``flushed_connection``):
    prepared statements run on SQLite's driver in the unit's transaction; anything else needs a session."""

    def __init__(self, driver: sqlite.Connection, engine: Engine) -> None:
        self.driver = driver
        self.engine = engine
        self.dialect: Dialect = engine.dialect
        self.closed = False

    @property
    def sync_connection(self) -> LeanConnection:
        return self

    def in_transaction(self) -> bool:
        return not self.closed and self.driver.in_transaction

    def run_at_once(self, sql: str, values: Any, *, many: bool) -> tuple[Any, list[Any], int, int | None]:
        """Run a prepared statement's ``sql`` in the unit's transaction (seen by the engine's
        ``before_cursor_execute`` listeners, as a session's statements are)."""
        if not self.in_transaction():
            raise NeedsSession("the lean unit's transaction is over")
        if self.engine._has_events:
            self.engine.dispatch.before_cursor_execute(self, None, sql, values, None, many)
        done = self.driver.run_at_once(sql, values, many=many)
        if done is None:  # (inside a transaction a statement always runs at once)
            raise NeedsSession(f"{sql[:40]!r} would wait")
        return done

    async def run_sync(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return fn(self, *args, **kwargs)

    async def execute(self, *_args: Any, **_kwargs: Any) -> Any:
        raise NeedsSession("a statement not prepared")

    def __getattr__(self, name: str) -> Any:
        raise NeedsSession(f"a connection's {name}")


class _NoObjects(dict[Any, Any]):
    """The identity map of a :class:`LeanSession`: it holds no object."""


class LeanSession:
    """What a hot write uses of its session (see the module docstring): ``info``, no pending objects, and
    the unit's connection (db.database.flushed_connection); every other use raises :class:`NeedsSession`."""

    new: tuple[Any, ...] = ()
    dirty: tuple[Any, ...] = ()
    deleted: tuple[Any, ...] = ()

    def __init__(self, connection: LeanConnection) -> None:
        self.lean_connection = connection
        self.info: dict[str, Any] = {}
        self.bind = connection.engine
        self.identity_map = _NoObjects()

    def __contains__(self, _item: object) -> bool:
        return False

    def __getattr__(self, name: str) -> Any:
        raise NeedsSession(f"a session's {name}")


class LeanUnit:
    """``async with unit as session``: one write transaction of :class:`LeanSession` on one of the
    pool's connections, committed (and on disk) when the block ends, rolled back when it raises."""

    def __init__(self, pool: LeanPool, driver: sqlite.Connection) -> None:
        self._pool = pool
        self._driver = driver
        self._connection = LeanConnection(driver, pool.engine)
        self._entered: Any = None

    async def __aenter__(self) -> LeanSession:
        try:
            self._entered = await self._pool.admitted()  # as a session's block (db.database)
            await self._driver.run_statement("BEGIN IMMEDIATE", ())  # the writer lock, in turn
        except BaseException:
            # not given back: a BEGIN cancelled while it waited on the connection's thread (another
            # process writing) may yet begin there; closing the connection ends whatever it began
            self._pool.give_back(self._driver, discard=True)
            self._pool.left(self._entered)
            raise
        return LeanSession(self._connection)

    async def __aexit__(self, type_: Any, value: Any, traceback: Any) -> None:
        try:
            if type_ is None:
                try:
                    await self._driver.commit()  # here, and on disk before the caller goes on
                except BaseException:
                    self._driver.rollback_now()
                    raise
            else:
                self._driver.rollback_now()
        finally:
            self._connection.closed = True
            driver = self._driver
            self._pool.give_back(driver, discard=driver._connection is None or driver.in_transaction)
            self._pool.left(self._entered)


class LeanPool:
    """The lean units' connections of one SQLite file (see :data:`LEAN_CONNECTIONS`)."""

    def __init__(
        self,
        engine: Engine,
        connect: Callable[[], Awaitable[sqlite.Connection]],
        admitted: Callable[[], Awaitable[Any]],
        left: Callable[[Any], None],
        pragmas: Callable[[sqlite3.Connection], None],
    ) -> None:
        """``admitted()`` before a unit's block begins, ``left(what it gave)`` when it ends: the
        sessions' admission; ``pragmas(connection)``: the engine's connections' (db.database)."""
        self.engine = engine
        self._connect = connect
        self._pragmas = pragmas
        self.admitted = admitted
        self.left = left
        self._free: list[sqlite.Connection] = []
        self._opened = 0
        self._closing = False
        self._closings: set[asyncio.Future[None]] = set()

    async def unit(self) -> LeanUnit | None:
        """A unit on a free connection (one opened if there are fewer than :data:`LEAN_CONNECTIONS`),
        or None when all are taken or the pool is closed: then a session."""
        if self._closing:
            return None
        if self._free:
            return LeanUnit(self, self._free.pop())
        if self._opened >= LEAN_CONNECTIONS:
            return None
        self._opened += 1
        try:
            driver = await self._connect()
            await driver._execute(self._pragmas, driver._conn)
        except BaseException:
            self._opened -= 1
            raise
        return LeanUnit(self, driver)

    def give_back(self, driver: sqlite.Connection, *, discard: bool = False) -> None:
        """``driver`` free again; ``discard``: closed instead (its state unknown)."""
        if self._closing or discard or driver._connection is None:
            self._opened -= 1
            if driver._connection is not None:  # (in a task: the unit's caller goes on)
                task = asyncio.ensure_future(_close(driver))
                self._closings.add(task)
                task.add_done_callback(self._closings.discard)
            return
        self._free.append(driver)  # the one used last goes next: its pages are warm

    async def close(self, close: bool = True) -> None:
        """No unit from now on; the free connections closed (``close`` False: dropped unclosed, as
        SQLAlchemy's ``dispose(close=False)`` drops a pool's: e.g. in a forked process, whose
        connections are its parent's)."""
        self._closing = True
        free, self._free = self._free, []
        for driver in free:
            self._opened -= 1
            if close:
                await _close(driver)


async def _close(driver: sqlite.Connection) -> None:
    with contextlib.suppress(Exception):
        await driver.close()
