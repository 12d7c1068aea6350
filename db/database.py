"""The async engine and session factory, for SQLite (default) or PostgreSQL.

SQLite: WAL journal (readers never wait for the writer), foreign keys on, and every transaction opened
with ``BEGIN IMMEDIATE``. The sqlite3 driver's own transaction handling begins a transaction only at the
first write, so a use case that reads then writes could act on a stale read or fail with "database is
locked" when another writer got in between; taking the write lock at BEGIN makes each session a
serializable unit of work that waits (``busy_timeout``) instead of failing. Transactions in gm/ are short
(no Discord call and no adjudication inside one), so the serialisation costs little.

PostgreSQL: READ COMMITTED; gm/ serialises what must be serialised with ``SELECT ... FOR UPDATE`` on the
phase row and compare-and-set updates, which SQLite ignores (it is serial already).
"""

from __future__ import annotations

import os
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.orm import Session
from sqlmodel.ext.asyncio.session import AsyncSession

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///diplomacy.db"
SQLITE_BUSY_TIMEOUT_MS = 30_000

SessionFactory = async_sessionmaker[AsyncSession]


def database_url_from_env() -> str:
    """``DATABASE_URL`` from the environment, or the SQLite file next to the bot."""
    return os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL


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
    if make_url(url).get_backend_name() == "sqlite":
        connect_args = dict(kwargs.pop("connect_args", {}))
        connect_args.setdefault("timeout", SQLITE_BUSY_TIMEOUT_MS / 1000)
        engine = create_async_engine(url, connect_args=connect_args, **kwargs)
        _configure_sqlite(engine)
        return engine
    kwargs.setdefault("pool_pre_ping", True)
    return create_async_engine(url, **kwargs)


def make_session_factory(engine: AsyncEngine) -> SessionFactory:
    """Sessions that keep loaded objects usable after commit (``expire_on_commit=False``)."""
    return async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)


def _configure_sqlite(engine: AsyncEngine) -> None:
    sync_engine = engine.sync_engine

    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Hand transaction control to SQLAlchemy (see the module docstring), then set the pragmas,
        # which must run outside a transaction.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        # FULL: a commit survives a power cut too, so a phase once closed stays closed.
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.close()

    @event.listens_for(sync_engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


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
