"""Bring a database to the latest schema with Alembic. The bot calls :func:`upgrade_database` at start-up.

.venv/bin/python -m db.migrate [DATABASE_URL]
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from db.database import database_url_from_env, make_engine

ROOT = Path(__file__).resolve().parent.parent
ALEMBIC_INI = ROOT / "alembic.ini"


def alembic_config() -> Config:
    """The project's Alembic configuration, usable from any working directory."""
    config = Config(str(ALEMBIC_INI))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["configure_logging"] = False  # the bot has configured logging already
    return config


async def upgrade_database(target: str | AsyncEngine | None = None, revision: str = "head") -> None:
    """Upgrade the database at ``target`` (a URL or an engine; default ``DATABASE_URL``) to ``revision``."""
    await _migrate(target, lambda config: command.upgrade(config, revision))


async def downgrade_database(target: str | AsyncEngine | None, revision: str) -> None:
    """Downgrade the database at ``target`` to ``revision`` (tests, and an operator undoing an upgrade)."""
    await _migrate(target, lambda config: command.downgrade(config, revision))


async def _migrate(target: str | AsyncEngine | None, alembic_command: Callable[[Config], None]) -> None:
    """Run an Alembic command in one transaction.

    SQLite cannot drop or alter most columns in place: Alembic's batch mode copies the table, drops
    the old one and renames the copy. With foreign keys enforced, dropping a table that other rows
    reference fails (a phase with orders), so they are turned off around the migration: outside the
    transaction, where SQLite honours the pragma. ``PRAGMA foreign_key_check`` runs before the commit,
    so a migration that left a dangling reference is rolled back instead of committed; then foreign
    keys are turned on again. PostgreSQL alters tables in place and needs none of this."""
    engine = target if isinstance(target, AsyncEngine) else make_engine(target or database_url_from_env())
    config = alembic_config()

    def run(connection: Connection) -> None:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            _sqlite_pragma(connection, "foreign_keys=OFF")
        try:
            with connection.begin():
                config.attributes["connection"] = connection
                alembic_command(config)
                if sqlite:
                    _check_foreign_keys(connection)
        finally:
            if sqlite:
                _sqlite_pragma(connection, "foreign_keys=ON")

    try:
        async with engine.connect() as connection:
            await connection.run_sync(run)
    finally:
        if engine is not target:
            await engine.dispose()


def _sqlite_pragma(connection: Connection, pragma: str) -> None:
    """Run a pragma on the driver connection, outside any transaction (SQLAlchemy would begin one)."""
    if connection.in_transaction():
        raise RuntimeError(f"PRAGMA {pragma} has no effect inside a transaction")
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
    """The revision the database is at (None for an empty database)."""
    async with engine.connect() as connection:
        return await connection.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


if __name__ == "__main__":
    asyncio.run(upgrade_database(sys.argv[1] if len(sys.argv) > 1 else None))
    print(f"database upgraded to {head_revision()}")
