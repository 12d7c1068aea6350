"""The SQLite connection under SQLAlchemy's aiosqlite dialect: statements on the event loop, waits on a
thread, and one writer at a time per process.

aiosqlite runs every call on a thread of its own, and SQLAlchemy's adapter makes four calls per
statement (open a cursor, execute, fetch, close), each a round trip through a queue and the event loop.
An order submission (a dozen statements) spent most of its time in those round trips, and under load
the thread switches cost more than the queries. Here a statement inside a transaction runs at once on
the calling (event loop) thread and its rows are fetched in the same call: SQLite answers such a
statement from its page cache in microseconds, and inside a transaction it never waits for a lock (a
writer took its lock at ``BEGIN IMMEDIATE``; in WAL mode a reader never waits for a writer). What can
wait goes to the connection's thread, as aiosqlite does it: opening and closing the connection,
``BEGIN IMMEDIATE`` (another process may hold the write lock: the busy timeout waits for it),
``COMMIT`` of a transaction that wrote (the fsync of ``synchronous=FULL``), and anything run outside a
transaction (the pragmas at connect).

Writers queue in the process, not in SQLite: ``BEGIN IMMEDIATE`` first takes an asyncio lock shared by
every connection of the process to the same file (:func:`writer_lock`), held until the transaction
commits or rolls back. Without it, every waiting writer polls SQLite's busy handler, which sleeps in
growing steps (up to 100 ms) and lets nobody in meanwhile; with it, writers go in turn, in the order
they came, with no sleep. Another process (a backup, a crashed bot's successor) still meets SQLite's
busy timeout. A writer that waits for the lock longer than that timeout fails as SQLite would
(``database is locked``).
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import weakref
from collections.abc import Awaitable, Callable, Iterable, Sequence
from functools import partial
from typing import Any

import aiosqlite

_WAITS_ON_THREAD = ("COMMIT", "END", "BEGIN IMMEDIATE", "BEGIN EXCLUSIVE", "VACUUM", "PRAGMA")
_OPENS_WRITE = ("BEGIN IMMEDIATE", "BEGIN EXCLUSIVE")

_locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Lock]] = (
    weakref.WeakKeyDictionary()
)
_locks_guard = threading.Lock()


def writer_lock(database: str) -> asyncio.Lock:
    """The lock the writers of ``database`` take in this process and its running event loop."""
    loop = asyncio.get_running_loop()
    with _locks_guard:
        per_loop = _locks.setdefault(loop, {})
        lock = per_loop.get(database)
        if lock is None:
            lock = per_loop[database] = asyncio.Lock()
        return lock


def _head(sql: str) -> str:
    return " ".join(sql.lstrip()[:24].upper().split())


class _Cursor:
    """What SQLAlchemy's adapter uses of an aiosqlite cursor. Each execute runs the statement and
    fetches all its rows in one call; fetches and close then cost nothing."""

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self.description: Any = None
        self.rowcount = -1
        self.lastrowid: int | None = None
        self.arraysize = 1
        self._rows: list[Any] = []

    async def __aenter__(self) -> _Cursor:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    async def execute(self, sql: str, parameters: Sequence[Any] | dict[str, Any] | None = None) -> _Cursor:
        self._take(await self._connection.run_statement(sql, () if parameters is None else parameters))
        return self

    async def executemany(self, sql: str, parameters: Iterable[Any]) -> _Cursor:
        self._take(await self._connection.run_statement(sql, parameters, many=True))
        return self

    def _take(self, outcome: tuple[Any, list[Any], int, int | None]) -> None:
        self.description, self._rows, self.rowcount, self.lastrowid = outcome

    async def fetchall(self) -> list[Any]:
        rows, self._rows = self._rows, []
        return rows

    async def fetchone(self) -> Any:
        return self._rows.pop(0) if self._rows else None

    async def fetchmany(self, size: int | None = None) -> list[Any]:
        count = size or self.arraysize
        rows, self._rows = self._rows[:count], self._rows[count:]
        return rows

    async def close(self) -> None:
        self._rows = []


class Connection(aiosqlite.Connection):
    """An aiosqlite connection that runs statements inside a transaction on the calling thread (see
    the module docstring). The sqlite3 connection is opened with ``check_same_thread=False``: it is
    used by one task at a time (SQLAlchemy's adapter holds a mutex per connection), from the loop
    thread for statements and from its own thread for the waits."""

    def __init__(
        self, connector: Callable[[], sqlite3.Connection], database: str, *, lock_timeout: float
    ) -> None:
        super().__init__(connector, iter_chunk_size=64)
        self._thread.daemon = True  # as SQLAlchemy's dialect sets it: an unclosed pool never blocks exit
        self._database = database
        self._lock_timeout = lock_timeout
        self._holding: asyncio.Lock | None = None  # the writer lock, while this connection holds it
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changes_at_begin = 0

    def cursor(self) -> _Cursor:  # type: ignore[override]
        return _Cursor(self)

    async def run_statement(
        self, sql: str, parameters: Any, *, many: bool = False
    ) -> tuple[Any, list[Any], int, int | None]:
        conn = self._conn
        head = _head(sql)
        try:
            if head.startswith(_OPENS_WRITE):
                await self._take_writer_lock()
                return _run_at_once(conn, sql, parameters, many) or await self._execute(
                    _run, conn, sql, parameters, many
                )
            if conn.in_transaction and not head.startswith(_WAITS_ON_THREAD):
                return _run(conn, sql, parameters, many)
            if head == "BEGIN" or head.startswith("BEGIN DEFERRED"):  # a reader: takes no lock
                self._changes_at_begin = conn.total_changes
                return _run(conn, sql, parameters, many)
            return await self._execute(_run, conn, sql, parameters, many)
        finally:
            self._release_unless_in_transaction()

    async def _take_writer_lock(self) -> None:
        if self._holding is not None:
            return
        lock = writer_lock(self._database)
        try:
            await asyncio.wait_for(lock.acquire(), self._lock_timeout)
        except TimeoutError:
            raise sqlite3.OperationalError("database is locked") from None
        self._holding = lock
        self._loop = asyncio.get_running_loop()
        self._changes_at_begin = self._conn.total_changes

    def _release_unless_in_transaction(self, *, closing: bool = False) -> None:
        if self._holding is None:
            return
        if not closing and self._connection is not None and self._connection.in_transaction:
            return
        lock, self._holding = self._holding, None
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            lock.release()
        else:  # a connection finalised outside its loop (garbage collection)
            loop.call_soon_threadsafe(lock.release)

    async def commit(self) -> None:
        conn = self._connection
        if conn is None or not conn.in_transaction:
            self._release_unless_in_transaction()
            return
        try:
            if self._holding is None and conn.total_changes == self._changes_at_begin:
                conn.commit()  # a reader's commit ends its snapshot: nothing to write or wait for
            else:
                await self._execute(conn.commit)
        finally:
            self._release_unless_in_transaction()

    async def rollback(self) -> None:
        conn = self._connection
        try:
            if conn is not None and conn.in_transaction:
                conn.rollback()  # WAL: nothing to undo on disk, no lock to wait for
        finally:
            self._release_unless_in_transaction()

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            self._release_unless_in_transaction(closing=True)

    def stop(self) -> asyncio.Future[Any] | None:
        future = super().stop()  # the thread closes the sqlite3 connection, ending its transaction
        self._release_unless_in_transaction(closing=True)
        return future


def _run(
    conn: sqlite3.Connection, sql: str, parameters: Any, many: bool
) -> tuple[Any, list[Any], int, int | None]:
    """Execute and fetch everything: (description, rows, rowcount, lastrowid)."""
    cursor = conn.cursor()
    try:
        if many:
            cursor.executemany(sql, parameters)
        else:
            cursor.execute(sql, parameters)
        description = cursor.description
        rows = cursor.fetchall() if description else []
        return description, rows, cursor.rowcount, cursor.lastrowid
    finally:
        cursor.close()


def _run_at_once(
    conn: sqlite3.Connection, sql: str, parameters: Any, many: bool
) -> tuple[Any, list[Any], int, int | None] | None:
    """Run ``sql`` (a ``BEGIN IMMEDIATE``) on this thread if SQLite's write lock is free (it is, unless
    another process holds it); None when it is not, to wait for it on the connection's thread."""
    timeout = conn.execute("PRAGMA busy_timeout").fetchone()[0]
    conn.execute("PRAGMA busy_timeout=0")
    try:
        return _run(conn, sql, parameters, many)
    except sqlite3.OperationalError as exc:
        if exc.sqlite_errorcode not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            raise
        return None
    finally:
        conn.execute(f"PRAGMA busy_timeout={int(timeout)}")


def connector(database: str, **kwargs: Any) -> Callable[[], Awaitable[Connection]]:
    """An ``async_creator`` for SQLAlchemy: opens ``database`` (a path, or a ``file:`` URI with
    ``uri=True``) with sqlite3's ``kwargs``, in autocommit mode (SQLAlchemy's begin event opens each
    transaction; see db.database)."""
    kwargs = {**kwargs, "isolation_level": None, "check_same_thread": False}
    lock_timeout = float(kwargs.get("timeout", 5.0))

    async def connect() -> Connection:
        connection = Connection(
            partial(sqlite3.connect, database, **kwargs), database, lock_timeout=lock_timeout
        )
        await connection  # starts its thread and opens the database there
        return connection

    return connect
