"""The async engine and the session factories, for SQLite (default) or PostgreSQL.

Two kinds of session (:class:`Sessions`): ``sessions()`` for a use case that writes (or reads, then
writes what it read), ``sessions.read()`` for one that only reads. A read session refuses to write
(:class:`ReadOnlySession`), on either database. A use case's unit of work is
``async with sessions.begin() as session:``: one transaction, committed when the block ends, rolled
back when it raises. Whoever opens a session owns its transaction: the functions it is handed to
flush when they need ids, and never commit (docs/ARCHITECTURE.md, "Transactions").

SQLite: WAL journal (readers never wait for the writer), foreign keys on. A writing session's
transaction opens with ``BEGIN IMMEDIATE``, after the process's writer lock (db.sqlite): the sqlite3
driver's own transaction handling begins a transaction only at the first write, so a use case that
reads then writes could act on a stale read or fail with "database is locked" when another writer got
in between; taking the write lock at BEGIN makes each writing session a serializable unit of work that
waits its turn instead of failing. A read session opens a deferred ``BEGIN``: it reads one consistent
snapshot and never waits for the writers, nor they for it. Transactions in gm/ are short (no Discord
call and no adjudication inside one), so the serialisation costs little. Statements run on the event
loop, the waits (the write lock, the commit's fsync) on the connection's thread: see db.sqlite.

PostgreSQL: READ COMMITTED, every session concurrent; gm/ serialises what must be serialised with
``SELECT ... FOR NO KEY UPDATE`` on the game and phase rows and compare-and-set updates, which SQLite
ignores (its writers are serial already).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import os
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, Self, cast

import orjson
from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.orm import ORMExecuteState, Session
from sqlalchemy.util import greenlet_spawn
from sqlmodel.ext.asyncio.session import AsyncSession

from db import sqlite
from db.lean import LeanPool, LeanSession, LeanUnit

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///diplomacy.db"
SQLITE_BUSY_TIMEOUT_MS = 30_000
PAGE_CACHE_KIB = 128
"""Each SQLite connection's page cache, at most (SQLite's default: 2,000 KiB). The bot keeps up to
56 connections (the writers' pools and the readers'), and each fills its cache with the pages it
read, up to the limit, and keeps that memory for as long as it lives: about 2 MiB each, 60 MiB for
30 connections. A smaller cache costs little here: in WAL mode a connection drops its cached pages
whenever another has written since its last transaction (on a busy bot, nearly every time), and the
pages it reads again come from the system's file cache. Both pools hand out the connection used
last (``pool_use_lifo``): the few a steady load needs stay warm (their pages, their prepared
statements), and the others, opened in a burst, stay as small as they were opened."""
READING = "gm_reading"  # the execution option (and session info key) of a read session

_admission: Callable[[], Awaitable[None]] | None = None
_IN_SESSION: contextvars.ContextVar[bool] = contextvars.ContextVar("db_in_session", default=False)


def admit_sessions_with(admission: Callable[[], Awaitable[None]] | None) -> None:
    """``admission()`` is awaited before each session's block begins (``async with``), outside any
    other session: the process's order of work (gm.delivery.lanes.turn) holds back there a step
    that may wait; None: no admission."""
    global _admission
    _admission = admission


def in_session() -> bool:
    """Whether the caller is inside a session's block (what it holds, e.g. SQLite's writer lock,
    must not wait for an admission)."""
    return _IN_SESSION.get()


async def _admitted() -> contextvars.Token[bool]:
    if _admission is not None and not _IN_SESSION.get():
        await _admission()
    return _IN_SESSION.set(True)


def _left(token: contextvars.Token[bool] | None) -> None:
    if token is None:
        return
    with contextlib.suppress(ValueError):  # left in another context than entered: never marked there
        _IN_SESSION.reset(token)


class ReadOnlySession(RuntimeError):
    """A read session (``sessions.read()``) was asked to write: a use case that writes needs
    ``sessions()``."""


class GameSession(AsyncSession):
    """An :class:`AsyncSession` whose block, on SQLite, ends in the calling task.

    SQLAlchemy ends a session's ``async with`` block (the commit of ``sessions.begin()``, the close
    that gives the connection back) in a task of its own, shielded from the caller's cancellation:
    a turn of the event loop later, and a second one before the caller goes on. Meanwhile the session
    holds its pooled connection and, when it writes, SQLite's writer lock (db.sqlite): in a burst
    (hundreds of interactions at once, every turn of the loop a round of all of them) each reader
    held a connection for rounds, the others queued for the pool's few, and the writers went one
    per round at best. On SQLite the commit (the statement runs at once, its fsync waits on a
    thread) and the close run here, at once; a cancellation that comes while they wait (the fsync of
    a commit already made, an overflow connection closed on its thread) lets the close finish as
    SQLAlchemy would, then goes on. On PostgreSQL, where commit and close are network round trips,
    SQLAlchemy's own way stays."""

    _entered: contextvars.Token[bool] | None = None

    def _ends_here(self) -> bool:
        bind = self.bind
        return bind is not None and bind.dialect.name == "sqlite"

    async def __aenter__(self) -> Self:
        self._entered = await _admitted()
        return await super().__aenter__()

    async def __aexit__(self, type_: Any, value: Any, traceback: Any) -> None:
        try:
            if not self._ends_here():
                await super().__aexit__(type_, value, traceback)
                return
            await _close_here(self)
        finally:
            _left(self._entered)
            self._entered = None

    def _maker_context_manager(self) -> Any:
        return _UnitOfWork(self) if self._ends_here() else _Admitted(super()._maker_context_manager())


class _Admitted:
    """``sessions.begin()``'s block on PostgreSQL: SQLAlchemy's own, after the admission."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.entered: contextvars.Token[bool] | None = None

    async def __aenter__(self) -> Any:
        self.entered = await _admitted()
        return await self.inner.__aenter__()

    async def __aexit__(self, type_: Any, value: Any, traceback: Any) -> None:
        try:
            await self.inner.__aexit__(type_, value, traceback)
        finally:
            _left(self.entered)


class _UnitOfWork:
    """``sessions.begin()``'s block on SQLite: committed (or rolled back) and closed in the caller's
    task (:class:`GameSession`). The session's transaction begins with its first statement (as
    SQLAlchemy's autobegin does: no step of its own on the way in); at the end the commit and the
    close are one step (one hand-over to SQLAlchemy's sync session, not two)."""

    def __init__(self, session: GameSession) -> None:
        self.session = session
        self.entered: contextvars.Token[bool] | None = None

    async def __aenter__(self) -> GameSession:
        self.entered = await _admitted()
        return self.session

    async def __aexit__(self, type_: Any, value: Any, traceback: Any) -> None:
        closed = False
        try:
            if type_ is None:
                await greenlet_spawn(_commit_and_close, self.session.sync_session)
                closed = True
        finally:
            try:
                if not closed:
                    await _close_here(self.session)  # a rollback (the block or the commit raised)
            finally:
                _left(self.entered)


def _commit_and_close(session: Session) -> None:
    session.commit()
    session.close()


async def _close_here(session: AsyncSession) -> None:
    try:
        await session.close()
    except asyncio.CancelledError:
        closing = asyncio.ensure_future(session.close())  # again: it finishes what is left
        while not closing.done():
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(closing)
        raise


class Sessions(async_sessionmaker[GameSession]):
    """``sessions()``: a session for a use case that writes; ``sessions.begin()``: the same, as a
    unit of work (committed at the end of the block, rolled back when it raises);
    ``sessions.read()``: one that only reads (ends with its block, nothing to commit).

    Loaded objects stay usable after commit (``expire_on_commit=False``)."""

    def __init__(self, engine: AsyncEngine) -> None:
        super().__init__(engine, class_=GameSession, expire_on_commit=False)
        readers = engine.reader if isinstance(engine, SQLiteEngine) else engine
        self._urgent = engine.urgent if isinstance(engine, SQLiteEngine) else None
        self._lean = engine.lean if isinstance(engine, SQLiteEngine) else None
        self._reading: async_sessionmaker[GameSession] = async_sessionmaker(
            readers.execution_options(**{READING: True}),
            class_=GameSession,
            expire_on_commit=False,
            info={READING: True},
        )

    @property
    def one_writer(self) -> bool:
        """SQLite: one writer at a time (db.sqlite's writer lock); PostgreSQL writes side by side."""
        return self._urgent is not None

    async def lean(self) -> LeanUnit | None:
        """A lighter unit of work for a hot write (db.lean: prepared statements only, the same writer
        turns and durability), or None when there is none (PostgreSQL, an in-memory database, all its
        connections taken): then :meth:`begin`."""
        return None if self._lean is None else await self._lean.unit()

    def read(self) -> GameSession:
        """A session that reads one consistent snapshot and waits for no writer (SQLite)."""
        return self._reading()

    def __call__(self, **kw: Any) -> GameSession:
        """A writing session; inside :func:`db.sqlite.urgent_writes`, on SQLite, one of the urgent
        writers' connections (their own few: they never queue behind the ordinary writers for a
        connection, only for the writer lock, where they go first)."""
        if self._urgent is not None and sqlite.writing_urgently():
            kw.setdefault("bind", self._urgent)
        return super().__call__(**kw)


SessionFactory = Sessions


def database_url_from_env() -> str:
    """``DATABASE_URL`` from the environment, or the SQLite file next to the bot."""
    return os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL


ACCEPTED_URLS = (
    "sqlite+aiosqlite:///path/to/file.db (or sqlite:///...) or "
    "postgresql://user:password@host/dbname (or postgresql+asyncpg://...)"
)
_SQLITE_DRIVERS = ("sqlite", "sqlite+pysqlite", "sqlite+aiosqlite")
_POSTGRES_DRIVERS = ("postgresql", "postgres", "postgresql+psycopg2", "postgresql+asyncpg")


def url_problem(url: str) -> str | None:
    """Why ``url`` is not a database URL this bot can use (one line naming the accepted schemes), or
    None when it is one. Checked with the settings, before anything connects."""
    try:
        parsed = make_url(url.strip())
    except Exception:
        return f"{_shown(url)} is not a database URL; use {ACCEPTED_URLS}"
    if parsed.drivername not in _SQLITE_DRIVERS + _POSTGRES_DRIVERS:
        return f"the scheme {parsed.drivername + '://'!r} is not supported; use {ACCEPTED_URLS}"
    return None


def _shown(url: str) -> str:
    """``url`` for a message, its password hidden where it can be found."""
    try:
        return repr(make_url(url).render_as_string(hide_password=True))
    except Exception:
        return repr(url.split("@", 1)[-1] if "@" in url else url)


def normalize_url(url: str) -> str:
    """Pick the async driver for plain ``sqlite://`` and ``postgresql://`` URLs."""
    parsed = make_url(url)
    if parsed.drivername in ("sqlite", "sqlite+pysqlite"):
        parsed = parsed.set(drivername="sqlite+aiosqlite")
    elif parsed.drivername in ("postgresql", "postgres", "postgresql+psycopg2"):
        parsed = parsed.set(drivername="postgresql+asyncpg")
    return parsed.render_as_string(hide_password=False)


def make_engine(url: str | None = None, **kwargs: Any) -> AsyncEngine:
    """An async engine for ``url`` (default: :func:`database_url_from_env`), configured as above.
    Statement parameters are kept out of error messages and logs (``hide_parameters``): they hold
    players' orders, which must not reach a log before the deadline."""
    url = normalize_url(url or database_url_from_env())
    kwargs.setdefault("hide_parameters", True)
    kwargs.setdefault("json_serializer", json_text)
    kwargs.setdefault("json_deserializer", json_value)
    if make_url(url).get_backend_name() == "sqlite":
        connect_args = dict(kwargs.pop("connect_args", {}))
        connect_args.setdefault("timeout", SQLITE_BUSY_TIMEOUT_MS / 1000)
        kwargs.setdefault("module", sqlite.Driver())  # statements run at once (db.sqlite._AtOnceCursor)
        opened: dict[str, Any] = {}

        async def connect() -> sqlite.Connection:
            return await opened["connect"]()

        own_pools = "poolclass" not in kwargs and _is_file(url)
        writing = {**WRITE_POOL, **kwargs} if own_pools else kwargs
        engine = create_async_engine(url, async_creator=connect, **writing)
        args, params = engine.dialect.create_connect_args(engine.url)
        params.pop("factory", None)
        opened["connect"] = sqlite.connector(str(args[0]), **{**params, **connect_args})
        if not own_pools:  # an in-memory database is one connection's: readers share it
            _configure_sqlite(engine)
            return engine
        _configure_sqlite(engine, begins="BEGIN IMMEDIATE")
        reader = create_async_engine(url, async_creator=connect, **{"pool_use_lifo": True, **kwargs})
        _configure_sqlite(reader, begins="BEGIN")
        urgent = create_async_engine(url, async_creator=connect, **{**URGENT_POOL, **kwargs})
        _configure_sqlite(urgent, begins="BEGIN IMMEDIATE")
        lean = LeanPool(engine.sync_engine, connect, _admitted, _left, partial(set_pragmas, grouped=True))
        return SQLiteEngine(engine.sync_engine, reader, urgent, lean)
    kwargs.setdefault("pool_pre_ping", True)
    return create_async_engine(url, **kwargs)


def json_text(value: Any) -> str:
    """A JSON column's value as the text stored (orjson: several times the json module's speed, the
    same JSON; keys that are not strings written as json writes them). What orjson refuses (an
    integer beyond 64 bits, a lone surrogate) is written by the json module, as before."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value)


def json_value(text: str | bytes) -> Any:
    """A JSON column's stored text read (orjson; what it refuses, e.g. a ``NaN`` the json module
    once wrote, read by the json module)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


WRITE_POOL: dict[str, Any] = {"pool_size": 16, "max_overflow": 16, "pool_timeout": 120, "pool_use_lifo": True}
"""The writers' connections. One writes at a time (db.sqlite); a writer holds its connection while it
waits for its turn and, after its commit, for the fsync that makes it durable, so there are enough
for the writers of a burst to overlap those waits; beyond them a writer waits for a connection, in
order (the pool's queue), long enough for the longest queue (a thousand games closing together)."""


URGENT_POOL: dict[str, Any] = {"pool_size": 2, "max_overflow": 6, "pool_timeout": 120, "pool_use_lifo": True}
"""The urgent writers' connections (db.sqlite.urgent_writes: a direct message's orders): a few, apart
from the ordinary writers' pool, whose queue in a burst is hundreds of writers long."""


class SQLiteEngine(AsyncEngine):
    """A SQLite database's engine: its own pool is the writers', ``reader`` has a pool of its own, so
    that a queue of writers (each holding a connection while it waits for the write lock) never
    leaves a reader without a connection, and ``urgent`` one for the urgent writers (the same lock,
    taken before the ordinary writers waiting). Disposing of it disposes of all three."""

    def __init__(
        self, sync_engine: Engine, reader: AsyncEngine, urgent: AsyncEngine, lean: LeanPool | None = None
    ) -> None:
        super().__init__(sync_engine)
        self.reader = reader
        self.urgent = urgent
        self.lean = lean  # the hot writes' own connections (db.lean)

    async def dispose(self, close: bool = True) -> None:
        if self.lean is not None:
            await self.lean.close(close)
        await self.urgent.dispose(close)
        await self.reader.dispose(close)
        await super().dispose(close)


def _is_file(url: str) -> bool:
    database = make_url(url).database
    return bool(database) and database != ":memory:" and not str(database).startswith("file:")


def make_session_factory(engine: AsyncEngine) -> Sessions:
    """The write and read sessions of ``engine`` (:class:`Sessions`)."""
    return Sessions(engine)


def _configure_sqlite(engine: AsyncEngine, *, begins: str | None = None) -> None:
    """The pragmas of every connection, and how a transaction begins: ``begins`` (``BEGIN`` for the
    readers' engine, ``BEGIN IMMEDIATE`` for the writers'), or by the session's kind (the execution
    option :data:`READING`) when readers and writers share the engine (an in-memory database)."""
    sync_engine = engine.sync_engine

    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # The connection is in autocommit mode (db.sqlite.connector): SQLAlchemy's begin below opens
        # every transaction. The pragmas must run outside a transaction.
        grouped = getattr(getattr(dbapi_connection, "_connection", None), "wal", None) is not None
        set_pragmas(dbapi_connection, grouped=grouped)

    if begins is not None:
        # The dialect's own begin, not an engine event: an engine with a listener of its own
        # dispatches every event of every statement it runs (before and after execution, before and
        # after the cursor's), about a tenth of a statement's work in SQLAlchemy
        setattr(sync_engine.dialect, "do_begin", partial(_begin, begins))  # noqa: B010 (an instance's)
        return

    @event.listens_for(sync_engine, "begin")
    def _on_begin(connection: Any) -> None:
        reading = connection.get_execution_options().get(READING, False)
        connection.exec_driver_sql("BEGIN" if reading else "BEGIN IMMEDIATE")


def set_pragmas(dbapi_connection: Any, *, grouped: bool) -> None:
    """Every SQLite connection's pragmas (the engine's, db.lean's), outside a transaction; ``grouped``:
    its commits are made durable by db.sqlite's group commit."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute(f"PRAGMA cache_size=-{PAGE_CACHE_KIB}")
    # A commit survives a power cut too, so a phase once closed stays closed: SQLite syncs every
    # commit (FULL), or the connection does, several commits at once (db.sqlite: group commit).
    cursor.execute(f"PRAGMA synchronous={'NORMAL' if grouped else 'FULL'}")
    cursor.close()


def _begin(sql: str, dbapi_connection: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(sql)
    finally:
        cursor.close()


@event.listens_for(Session, "do_orm_execute")
def _reads_only(state: ORMExecuteState) -> None:
    if not state.is_select and state.session.info.get(READING):
        raise ReadOnlySession(f"a read session may not run {state.statement.__class__.__name__}")


@event.listens_for(Session, "before_flush")
def _flushes_nothing(session: Session, _context: Any, _instances: Any) -> None:
    if session.info.get(READING) and (session.new or session.dirty or session.deleted):
        raise ReadOnlySession("a read session may not write rows")


async def flushed_connection(session: AsyncSession) -> AsyncConnection:
    """The connection of ``session``'s transaction, for Core statements (plain rows, no ORM objects),
    once what the session has pending is flushed, as an ORM query would (autoflush). A Core
    statement bypasses the session: it neither sees nor updates the ORM objects the session holds,
    and a read session's guards (:class:`ReadOnlySession`) do not apply to it."""
    if isinstance(session, LeanSession):
        return cast(AsyncConnection, session.lean_connection)  # (what db.prepared runs on: see db.lean)
    if session.new or session.dirty or session.deleted:
        await session.flush()
    transaction = session.sync_session._transaction
    held = session.info.get(_CONNECTION)
    if held is not None and held[0] is transaction and transaction is not None and transaction.is_active:
        return held[1]  # (asked again in the same transaction: no hand-over to SQLAlchemy's sync session)
    connection = await session.connection()
    transaction = session.sync_session._transaction
    if transaction is not None:
        session.info[_CONNECTION] = (transaction, connection)
    return connection


_CONNECTION = "db_connection"  # session.info: (its transaction, the AsyncConnection flushed_connection gave)


NUL = "\x00"


def without_nul(value: Any) -> Any:
    """``value`` with every U+0000 removed from its strings (JSON values included); the same object
    when it has none. PostgreSQL refuses U+0000 in text, which would lose the whole write (a player's
    valid orders with it); it is no character anybody means to type."""
    return _cleaned(value) if _has_nul(value) else value


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return NUL in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_has_nul(v) for v in value)
    return False


def _cleaned(value: Any) -> Any:
    if isinstance(value, str):
        return value.replace(NUL, "")
    if isinstance(value, dict):
        return {_cleaned(k): _cleaned(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_cleaned(v) for v in value)
    return value


@event.listens_for(Session, "before_flush")
def _strip_nul(session: Session, _context: Any, _instances: Any) -> None:
    """Every row written through a session loses its U+0000 characters (see :func:`without_nul`)."""
    for row in (*session.new, *session.dirty):
        state = getattr(row, "__dict__", {})
        for key, value in list(state.items()):
            if key.startswith("_"):
                continue
            cleaned = without_nul(value)
            if cleaned is not value:
                setattr(row, key, cleaned)
