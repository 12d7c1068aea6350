"""Bring a database to the latest schema with Alembic. The bot calls :func:`upgrade_database` at start-up.

.venv/bin/python -m db.migrate [DATABASE_URL]
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import inspect
from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from db.database import database_url_from_env, make_engine

if TYPE_CHECKING:
    from alembic.config import Config

ROOT = Path(__file__).resolve().parent.parent
ALEMBIC_INI = ROOT / "alembic.ini"
VERSIONS = ROOT / "migrations" / "versions"
VERSION_TABLE = "alembic_version"  # Alembic's default, which migrations/env.py keeps

# Alembic is imported only where a migration runs (_migrate), or for a chain of revisions this module
# cannot read by itself (_chain): a start on a database already at the latest revision never loads it,
# nor Mako and Pygments with it (about 10 MiB of the bot's resident memory, for as long as it runs).


def alembic_config() -> Config:
    """The project's Alembic configuration, usable from any working directory."""
    from alembic.config import Config

    config = Config(str(ALEMBIC_INI))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["configure_logging"] = False  # the bot has configured logging already
    return config


BeforeUpgrade = Callable[[str | None], None]
"""Called with the revision the database is at, under the lock, before the migrations change
anything (the backup: db.preflight); may raise to leave the database as it is."""

ADVISORY_LOCK = 0x6469706C6F6D  # "diplom": PostgreSQL's advisory lock key for migrations
LOCK_WAIT = 600.0  # seconds a migration waits for another process's (SQLite), then fails
log = logging.getLogger(__name__)


async def upgrade_database(
    target: str | AsyncEngine | None = None, revision: str = "head", *, before: BeforeUpgrade | None = None
) -> str | None:
    """Upgrade the database at ``target`` (a URL or an engine; default ``DATABASE_URL``) to
    ``revision``, under a database-wide lock (see :func:`_migrate`). ``before(current)`` runs under
    the lock when there is something to upgrade. Returns the revision it was at (the same as
    ``revision`` when another process had upgraded it meanwhile)."""
    from alembic import command

    return await _migrate(target, lambda config: command.upgrade(config, revision), revision, before)


async def downgrade_database(target: str | AsyncEngine | None, revision: str) -> None:
    """Downgrade the database at ``target`` to ``revision`` (tests, and an operator undoing an upgrade)."""
    from alembic import command

    await _migrate(target, lambda config: command.downgrade(config, revision), None, None)


async def _migrate(
    target: str | AsyncEngine | None,
    alembic_command: Callable[[Config], None],
    wanted: str | None,
    before: BeforeUpgrade | None,
) -> str | None:
    """Run an Alembic command in one transaction, one process at a time.

    Any number of processes may start together on one database: the first takes a database-wide
    lock and migrates, the others wait for it, then find the schema at ``wanted`` and do nothing.
    PostgreSQL: a transaction-level advisory lock (:data:`ADVISORY_LOCK`), taken first in the
    migration's transaction; SQLite: the transaction's own write lock (``BEGIN IMMEDIATE``), waited
    for up to :data:`LOCK_WAIT` seconds. (Without it two processes on an empty PostgreSQL database
    both created the tables, and one failed on a duplicate key.)

    SQLite cannot drop or alter most columns in place: Alembic's batch mode copies the table, drops
    the old one and renames the copy. With foreign keys enforced, dropping a table that other rows
    reference fails (a phase with orders), so they are turned off around the migration: outside the
    transaction, where SQLite honours the pragma. ``PRAGMA foreign_key_check`` runs before the commit,
    so a migration that left a dangling reference is rolled back instead of committed; then foreign
    keys are turned on again. PostgreSQL alters tables in place and needs none of this."""
    from alembic.runtime.migration import MigrationContext

    engine = target if isinstance(target, AsyncEngine) else make_engine(target or database_url_from_env())
    config = alembic_config()
    head = head_revision() if wanted == "head" else wanted

    def run(connection: Connection) -> str | None:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            _sqlite_pragma(connection, "foreign_keys=OFF")
        try:
            try:
                transaction = connection.begin()  # SQLite: BEGIN IMMEDIATE, the write lock
            except OperationalError as exc:
                if sqlite and "locked" in str(exc).lower():
                    raise _Busy from exc
                raise
            with transaction:
                if not sqlite:
                    connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({ADVISORY_LOCK})")
                current = MigrationContext.configure(connection).get_current_revision()
                if head is not None and current == head:
                    return current  # at the revision wanted (another process got there first)
                if before is not None:
                    before(current)
                config.attributes["connection"] = connection
                alembic_command(config)
                if sqlite:
                    _check_foreign_keys(connection)
                return current
        finally:
            if sqlite:
                _sqlite_pragma(connection, "foreign_keys=ON")

    loop = asyncio.get_running_loop()
    until = loop.time() + LOCK_WAIT
    told = False
    try:
        while True:
            try:
                async with engine.connect() as connection:
                    return await connection.run_sync(run)
            except _Busy:
                if loop.time() >= until:
                    raise RuntimeError(
                        f"another process held the database's write lock for {LOCK_WAIT:g} s"
                    ) from None
                if not told:
                    log.info("another process is writing the database (an upgrade?): waiting for it")
                    told = True
                await asyncio.sleep(1.0)
    finally:
        if engine is not target:
            await engine.dispose()


class _Busy(Exception):
    """SQLite's write lock is held by another process (its migration, most likely)."""


def _sqlite_pragma(connection: Connection, pragma: str) -> None:
    """Run a pragma on the driver connection, outside any transaction (SQLAlchemy would begin one)."""
    if connection.in_transaction():
        raise RuntimeError(f"PRAGMA {pragma} has no effect inside a transaction")
    # why the ignore below: None only for a detached connection, never a live one
    cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(f"PRAGMA {pragma}")
    finally:
        cursor.close()


def _check_foreign_keys(connection: Connection) -> None:
    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if broken:
        found = "; ".join(f"{row[0]} row {row[1]} -> {row[2]}" for row in broken[:10])
        raise RuntimeError(f"the migration left {len(broken)} broken foreign keys ({found}); rolled back")


async def current_revision(engine: AsyncEngine) -> str | None:
    """The revision the database is at (None for an empty database): Alembic's version table, read
    as Alembic reads it (several rows there, several heads, are refused as Alembic refuses them)."""
    async with engine.connect() as connection:
        return await connection.run_sync(_current)


def _current(connection: Connection) -> str | None:
    if not inspect(connection).has_table(VERSION_TABLE):
        return None
    found = list(connection.exec_driver_sql(f"SELECT version_num FROM {VERSION_TABLE}").scalars())
    if len(found) > 1:
        raise RuntimeError(f"the database is at several revisions at once ({', '.join(sorted(found))})")
    return found[0] if found else None


def known_revision(revision: str | None) -> bool:
    """Whether this code has ``revision`` among its migrations (None, an empty database: yes)."""
    if revision is None:
        return True
    chain = _chain()
    if chain is not None:
        return revision in chain
    from alembic.script import ScriptDirectory

    try:
        return ScriptDirectory.from_config(alembic_config()).get_revision(revision) is not None
    except Exception:  # alembic's "Can't locate revision": a newer version made it
        return False


def head_revision() -> str | None:
    """The latest revision of this code's migrations."""
    chain = _chain()
    if chain is not None:
        heads = set(chain) - {down for down in chain.values() if down is not None}
        if len(heads) == 1:
            return heads.pop()
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


_REVISION = re.compile(r"""^revision(?:\s*:[^=\n]*)?\s*=\s*["']([^"']+)["']\s*$""", re.MULTILINE)
_DOWN = re.compile(r"""^down_revision(?:\s*:[^=\n]*)?\s*=\s*(?:None|["']([^"']+)["'])\s*$""", re.MULTILINE)


@cache
def _chain() -> dict[str, str | None] | None:
    """revision -> the one it follows, read from each migration file's two assignments without
    importing it; None when a file writes them otherwise (a merge of two heads: Alembic reads it)."""
    chain: dict[str, str | None] = {}
    for path in sorted(VERSIONS.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        revision, down = _REVISION.findall(text), _DOWN.findall(text)
        if len(revision) != 1 or len(down) != 1 or revision[0] in chain:
            return None
        chain[revision[0]] = down[0] or None
    return chain or None


if __name__ == "__main__":
    asyncio.run(upgrade_database(sys.argv[1] if len(sys.argv) > 1 else None))
    print(f"database upgraded to {head_revision()}")
