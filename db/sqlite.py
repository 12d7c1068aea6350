"""The SQLite connection under SQLAlchemy's aiosqlite dialect: a transaction runs on the event loop from
``BEGIN`` to ``COMMIT``, and one writer at a time per process.

aiosqlite runs every call on a thread of its own, and SQLAlchemy's adapter makes four calls per
statement (open a cursor, execute, fetch, close), each a round trip through a queue and the event loop.
An order submission (a dozen statements) spent most of its time in those round trips; worse, each
round trip let the event loop run other work in the middle of the transaction, so that under load a
writer held SQLite's write lock for the time of everything else the bot was doing, and the writers
behind it queued for seconds.

Here a statement runs at once on the calling (event loop) thread and its rows are fetched in the same
call, and so do ``COMMIT`` and ``ROLLBACK``: a transaction never gives the loop away, so it holds the
write lock for its own work only (a few milliseconds, the commit's fsync included: SQLite answers from
its page cache, and a writer never waits for a lock once it has taken its own; in WAL mode a reader
never waits for a writer). What may wait for another process goes to the connection's thread, as
aiosqlite does it: opening and closing the connection, the pragmas run outside a transaction, and a
``BEGIN IMMEDIATE`` that finds SQLite's write lock taken (a backup, a bot process still stopping):
that one waits there, up to the busy timeout, without holding up the loop.

Commits are made durable together (group commit). A writer's ``COMMIT`` (synchronous=NORMAL: no
fsync) ends its transaction and frees the write lock at once; the commit then waits, on a thread, for
an fsync of the WAL file (:class:`_WalSync`) that started after it, before the use case goes on (and
before anybody is told "done"). Commits that come while one fsync runs share the next one. A commit is
as durable as with synchronous=FULL before its caller hears of it, but the fsync (a millisecond or more)
is no longer done with the write lock held, one writer after the other: concurrent writers overlap
their work with each other's fsync. (A reader may see a transaction a moment before it is on disk; a
power cut in that moment loses it, as it does any transaction whose commit had not returned.)

Writers queue in the process, not in SQLite: ``BEGIN IMMEDIATE`` first takes an asyncio lock shared by
every connection of the process to the same file (:func:`writer_lock`), held until the transaction
commits or rolls back. Without it, every waiting writer polls SQLite's busy handler, which sleeps in
growing steps (up to 100 ms) and lets nobody in meanwhile; with it, writers go in turn, in the order
they came, with no sleep, except that a writer for whom somebody waits (a direct message's
orders: its reply is all the player sees, :func:`urgent_writes`) goes before the others still waiting.
A writer that waits for the lock longer than the busy timeout fails as SQLite would (``database is
locked``).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import os
import sqlite3
import threading
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from functools import partial
from typing import Any, cast

import aiosqlite
from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
    AsyncAdapt_aiosqlite_dbapi,
)
from sqlalchemy.util import await_

_WAITS_ON_THREAD = ("BEGIN IMMEDIATE", "BEGIN EXCLUSIVE", "VACUUM", "PRAGMA")
_OPENS_WRITE = ("BEGIN IMMEDIATE", "BEGIN EXCLUSIVE")

_URGENT: contextvars.ContextVar[bool] = contextvars.ContextVar("gm_urgent_write", default=False)


@contextlib.contextmanager
def urgent_writes() -> Iterator[None]:
    """The transactions begun inside (in this task, and the tasks it starts) take the writer lock
    before the ordinary writers waiting for it: for a write whose answer a person waits for with
    nothing else shown meanwhile (a direct message's reply). Ordinary writers keep their turn among
    themselves; an urgent one waits only for the writer holding the lock and the urgent ones before it."""
    token = _URGENT.set(True)
    try:
        yield
    finally:
        _URGENT.reset(token)


def writing_urgently() -> bool:
    """Whether the caller is inside :func:`urgent_writes`."""
    return _URGENT.get()


class WriterLock:
    """An asyncio lock whose waiters go in turn, the urgent ones (:func:`urgent_writes`) first."""

    def __init__(self) -> None:
        self._locked = False
        self._urgent: deque[asyncio.Future[None]] = deque()
        self._ordinary: deque[asyncio.Future[None]] = deque()

    def locked(self) -> bool:
        return self._locked

    def take_if_free(self) -> bool:
        """Take the lock if nobody holds it or waits for it (without a wait); whether it did."""
        if self._locked or self._urgent or self._ordinary:
            return False
        self._locked = True
        return True

    async def acquire(self) -> bool:
        if not self._locked and not self._urgent and not self._ordinary:
            self._locked = True
            return True
        waiters = self._urgent if _URGENT.get() else self._ordinary
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiters.append(waiter)
        try:
            await waiter
        except BaseException:
            if waiter in waiters:
                waiters.remove(waiter)
            elif waiter.done() and not waiter.cancelled():
                self._locked = False  # handed over as it was cancelled: hand it on
                self._wake_next()
            raise
        return True

    def release(self) -> None:
        if not self._locked:
            raise RuntimeError("the writer lock is not held")
        self._locked = False
        self._wake_next()

    def _wake_next(self) -> None:
        for waiters in (self._urgent, self._ordinary):
            while waiters:
                waiter = waiters.popleft()
                if not waiter.done():
                    self._locked = True  # handed over: nobody can take it in between
                    waiter.set_result(None)
                    return


_locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, WriterLock]] = (
    weakref.WeakKeyDictionary()
)
_locks_guard = threading.Lock()


def writer_lock(database: str) -> WriterLock:
    """The lock the writers of ``database`` take in this process and its running event loop."""
    loop = asyncio.get_running_loop()
    with _locks_guard:
        per_loop = _locks.setdefault(loop, {})
        lock = per_loop.get(database)
        if lock is None:
            lock = per_loop[database] = WriterLock()
        return lock


_syncs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, _WalSync]] = (
    weakref.WeakKeyDictionary()
)


def wal_sync(wal: str) -> _WalSync:
    """The group commit of the WAL file ``wal`` in this process and its running event loop."""
    loop = asyncio.get_running_loop()
    with _locks_guard:
        per_loop = _syncs.setdefault(loop, {})
        sync = per_loop.get(wal)
        if sync is None:
            sync = per_loop[wal] = _WalSync(wal)
        return sync


class _WalSync:
    """fsyncs of a WAL file, each one for every commit made before it started (group commit)."""

    def __init__(self, wal: str) -> None:
        self._wal = wal
        self._asked = 0  # commits that asked for an fsync so far
        self._done = 0  # ... of which this many are on disk
        self._running: tuple[asyncio.Future[None], int] | None = None  # the fsync running, for how many

    async def sync(self) -> None:
        """Return once an fsync of the WAL that started after this call has completed."""
        self._asked += 1
        mine = self._asked
        while self._done < mine:
            if self._running is None:  # (on the executor: no task of its own to start and switch to)
                fsync = asyncio.get_running_loop().run_in_executor(None, _fsync_path, self._wal)
                self._running = (fsync, self._asked)
            running, upto = self._running
            try:
                await asyncio.shield(running)
            finally:
                if running.done() and self._running is not None and self._running[0] is running:
                    self._running = None
            self._done = max(self._done, upto)  # (it raised otherwise: the fsync failed)


def _fsync_path(path: str) -> None:
    """fsync the file at ``path`` (opened afresh: SQLite may have replaced it since)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:  # no WAL (yet, or any more): nothing was written through it
        return
    try:
        os.fdatasync(fd)  # the data and the size SQLite appended: what SQLite itself syncs
    finally:
        os.close(fd)


_HEADS: dict[str, str] = {}
_HEADS_KEPT = 4096  # statements' texts: the bot's are a few hundred, built once each


def _head(sql: str) -> str:
    """The first words of ``sql``, upper case (remembered per text: every statement asks)."""
    head = _HEADS.get(sql)
    if head is None:
        head = " ".join(sql.lstrip()[:24].upper().split())
        if len(_HEADS) < _HEADS_KEPT:
            _HEADS[sql] = head
    return head


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
        self,
        connector: Callable[[], sqlite3.Connection],
        database: str,
        *,
        lock_timeout: float,
        wal: str | None = None,
    ) -> None:
        """``wal``: the path of the database's WAL file, when commits are made durable by
        :class:`_WalSync` (None: by SQLite, synchronous=FULL)."""
        super().__init__(connector, iter_chunk_size=64)
        self._thread.daemon = True  # as SQLAlchemy's dialect sets it: an unclosed pool never blocks exit
        self._database = database
        self._lock_timeout = lock_timeout
        self.wal = wal
        self._holding: WriterLock | None = None  # the writer lock, while this connection holds it
        self._busy_ms: int | None = None  # the connection's busy timeout (read at its first write)
        self._quiet = False  # its busy timeout is 0 on the loop's thread (see _begin_at_once)
        self._loop: asyncio.AbstractEventLoop | None = None

    # why the ignore below: aiosqlite's cursor() is awaited or entered; _Cursor is both, as its own
    def cursor(self) -> _Cursor:  # type: ignore[override]
        return _Cursor(self)

    async def run_statement(
        self, sql: str, parameters: Any, *, many: bool = False
    ) -> tuple[Any, list[Any], int, int | None]:
        done = self.run_at_once(sql, parameters, many=many)
        if done is not None:
            return done
        conn = self._conn
        busy_ms = self._busy_ms if self._quiet else None  # its busy timeout again, for this wait
        try:
            if _head(sql).startswith(_OPENS_WRITE):
                await self._take_writer_lock()
                return self._begin_at_once(sql, parameters, many) or await self._execute(
                    _run_patiently, conn, sql, parameters, many, busy_ms
                )
            return await self._execute(_run_patiently, conn, sql, parameters, many, busy_ms)
        finally:
            self._release_unless_in_transaction()

    def run_at_once(
        self, sql: str, parameters: Any, *, many: bool = False
    ) -> tuple[Any, list[Any], int, int | None] | None:
        """Run ``sql`` now, on the calling thread, when nothing needs waiting for: a statement inside
        a transaction, a reader's ``BEGIN``, a ``BEGIN IMMEDIATE`` whose writer lock (this process's
        and SQLite's) is free; None when it must wait (then :meth:`run_statement`)."""
        conn = self._conn
        head = _head(sql)
        try:
            if head.startswith(_OPENS_WRITE):
                if self._holding is None and not self._take_writer_lock_if_free():
                    return None
                return self._begin_at_once(sql, parameters, many)
            if conn.in_transaction and not head.startswith(_WAITS_ON_THREAD):
                return _run(conn, sql, parameters, many)
            if head == "BEGIN" or head.startswith("BEGIN DEFERRED"):  # a reader: takes no lock
                # Run through at once, without a turn of the loop: a reader that let the loop go
                # here would hold its pooled connection for a whole round of everything else the
                # loop runs, and in a burst (hundreds of interactions at once) the readers queued for
                # the pool's few connections, a round each (an orders form waited 1.5-2.3 s to open)
                return _run(conn, sql, parameters, many)
            return None
        finally:
            self._release_unless_in_transaction()

    def _begin_at_once(
        self, sql: str, parameters: Any, many: bool
    ) -> tuple[Any, list[Any], int, int | None] | None:
        """``BEGIN IMMEDIATE`` at once when SQLite's write lock is free (None: it is not). From a
        writer's first transaction on, its connection keeps a busy timeout of 0 (SQLite answers
        "busy" at once, never waits on the loop's thread), and what runs on its thread gets the
        timeout back for its time (:func:`_run_patiently`): two statements fewer per transaction
        than setting it for each ``BEGIN``. Once a transaction holds the write lock, nothing in it
        waits for another connection (WAL: readers never block the writer)."""
        conn = self._conn
        if not self._quiet and self.wal is not None:  # (a file's own writers: db.database)
            self._busy_timeout()
            conn.execute("PRAGMA busy_timeout=0")
            self._quiet = True
        elif not self._quiet:  # (a database whose readers and writers share the connections)
            return _run_at_once(conn, sql, parameters, many, self._busy_timeout())
        try:
            return _run(conn, sql, parameters, many)
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                raise
            return None

    def _busy_timeout(self) -> int:
        if self._busy_ms is None:
            self._busy_ms = int(self._conn.execute("PRAGMA busy_timeout").fetchone()[0])
        return self._busy_ms

    def _take_writer_lock_if_free(self) -> bool:
        lock = writer_lock(self._database)
        if not lock.take_if_free():
            return False
        self._holding = lock
        self._loop = asyncio.get_running_loop()
        return True

    async def _take_writer_lock(self) -> None:
        if self._holding is not None:
            return
        lock = writer_lock(self._database)
        try:
            if not lock.take_if_free():  # (asyncio.wait_for gives the loop away even then)
                await asyncio.wait_for(lock.acquire(), self._lock_timeout)
        except TimeoutError:
            raise sqlite3.OperationalError("database is locked") from None
        self._holding = lock
        self._loop = asyncio.get_running_loop()

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
        wrote = False
        try:
            if conn is not None and conn.in_transaction:
                wrote = self._holding is not None
                conn.commit()  # here, not on the thread: see the module docstring
        finally:
            self._release_unless_in_transaction()
        if wrote and self.wal is not None:
            await wal_sync(self.wal).sync()

    async def rollback(self) -> None:
        self.rollback_now()

    def rollback_now(self) -> None:
        """:meth:`rollback`, which never waits (WAL: nothing to undo on disk, no lock to wait for)."""
        conn = self._connection
        try:
            if conn is not None and conn.in_transaction:
                conn.rollback()
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
    conn: sqlite3.Connection, sql: str, parameters: Any, many: bool, busy_ms: int
) -> tuple[Any, list[Any], int, int | None] | None:
    """Run ``sql`` (a ``BEGIN IMMEDIATE``) on this thread if SQLite's write lock is free (it is, unless
    another process holds it); None when it is not, to wait for it on the connection's thread (the
    connection's busy timeout, ``busy_ms``, is set again for that wait)."""
    conn.execute("PRAGMA busy_timeout=0")
    try:
        return _run(conn, sql, parameters, many)
    except sqlite3.OperationalError as exc:
        if exc.sqlite_errorcode not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            raise
        return None
    finally:
        conn.execute(f"PRAGMA busy_timeout={busy_ms}")


def _run_patiently(
    conn: sqlite3.Connection, sql: str, parameters: Any, many: bool, busy_ms: int | None
) -> tuple[Any, list[Any], int, int | None]:
    """:func:`_run` on the connection's thread, with the busy timeout ``busy_ms`` for its time when
    the connection keeps 0 otherwise (None: it keeps its own)."""
    if busy_ms is None:
        return _run(conn, sql, parameters, many)
    conn.execute(f"PRAGMA busy_timeout={busy_ms}")
    try:
        return _run(conn, sql, parameters, many)
    finally:
        conn.execute("PRAGMA busy_timeout=0")


def connector(database: str, **kwargs: Any) -> Callable[[], Awaitable[Connection]]:
    """An ``async_creator`` for SQLAlchemy: opens ``database`` (a path, or a ``file:`` URI with
    ``uri=True``) with sqlite3's ``kwargs``, in autocommit mode (SQLAlchemy's begin event opens each
    transaction; see db.database)."""
    kwargs = {**kwargs, "isolation_level": None, "check_same_thread": False}
    lock_timeout = float(kwargs.get("timeout", 5.0))
    plain_file = not kwargs.get("uri") and database not in ("", ":memory:")
    wal = os.path.abspath(database) + "-wal" if plain_file else None

    async def connect() -> Connection:
        connection = Connection(
            partial(sqlite3.connect, database, **kwargs), database, lock_timeout=lock_timeout, wal=wal
        )
        await connection  # starts its thread and opens the database there
        return connection

    return connect


class _AtOnceCursor(AsyncAdapt_aiosqlite_cursor):
    """SQLAlchemy's adapter of a :class:`_Cursor`, whose statements run at once when they can
    (:meth:`Connection.run_at_once`: nearly all of them) without the greenlet's hand-over to the event
    loop that SQLAlchemy's adapter makes for each call of a cursor (open, execute, close: three per
    statement); the others (a writer waiting for its turn, the pragmas) are awaited as before."""

    __slots__ = ()

    def _aenter_cursor(self, cursor: Any) -> Any:
        return cursor  # a _Cursor: entering it is itself

    def close(self) -> None:
        self._rows.clear()
        if self._cursor is not None and not self._soft_closed_memoized:
            cast(_Cursor, self._cursor)._rows = []  # all a _Cursor's close does

    def execute(self, operation: Any, parameters: Any = None) -> Any:
        if self._adapt_connection._execute_mutex.locked():
            return super().execute(operation, parameters)
        try:
            done = cast(Connection, self._connection).run_at_once(
                operation, () if parameters is None else parameters
            )
        except Exception as error:
            self._adapt_connection._handle_exception(error)
        if done is None:
            return super().execute(operation, parameters)
        cast(_Cursor, self._cursor)._take(done)
        if done[0]:
            self._rows = deque(done[1])
        await_(_nothing())  # (SQLAlchemy's AsyncConnection.execute checks that its statement awaited)
        return None

    def executemany(self, operation: Any, seq_of_parameters: Any) -> Any:
        if self._adapt_connection._execute_mutex.locked():
            return super().executemany(operation, seq_of_parameters)
        try:
            done = cast(Connection, self._connection).run_at_once(operation, seq_of_parameters, many=True)
        except Exception as error:
            self._adapt_connection._handle_exception(error)
        if done is None:
            return super().executemany(operation, seq_of_parameters)
        cast(_Cursor, self._cursor)._take(done)
        await_(_nothing())
        return None


async def _nothing() -> None:
    """An awaitable that finishes at once: a hand-over to the event loop's greenlet and straight back,
    no turn of the loop (under a microsecond)."""


class _AtOnceConnection(AsyncAdapt_aiosqlite_connection):
    """SQLAlchemy's adapter of a :class:`Connection`: its cursors are :class:`_AtOnceCursor` s, and a
    rollback (nothing to wait for: see :meth:`Connection.rollback`) runs at once."""

    __slots__ = ()
    _cursor_cls = _AtOnceCursor

    def rollback(self) -> None:
        connection = self._connection
        if isinstance(connection, Connection) and connection._connection is not None:
            try:
                connection.rollback_now()
            except Exception as error:
                self._handle_exception(error)
            return
        super().rollback()


class Driver(AsyncAdapt_aiosqlite_dbapi):
    """The DB-API module of the SQLite engines (``create_async_engine(module=Driver())``): SQLAlchemy's
    aiosqlite one, whose connections are :class:`_AtOnceConnection` s."""

    def __init__(self) -> None:
        super().__init__(aiosqlite, sqlite3)

    def connect(self, *arg: Any, **kw: Any) -> _AtOnceConnection:
        creator_fn = kw.pop("async_creator_fn", None)
        if creator_fn is None:
            raise TypeError("a SQLite engine of this bot opens its connections with db.sqlite.connector")
        return _AtOnceConnection(self, await_(creator_fn(*arg, **kw)))
