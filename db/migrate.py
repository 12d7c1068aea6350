"""Bring a database to the latest schema with Alembic. The bot calls :func:`upgrade_database` at start-up.

.venv/bin/python -m db.migrate [DATABASE_URL]
"""

from __future__ import annotations

import asyncio
import sys
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
    engine = target if isinstance(target, AsyncEngine) else make_engine(target or database_url_from_env())
    config = alembic_config()

    def run(connection: Connection) -> None:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)

    try:
        async with engine.begin() as connection:
            await connection.run_sync(run)
    finally:
        if engine is not target:
            await engine.dispose()


async def current_revision(engine: AsyncEngine) -> str | None:
    """The revision the database is at (None for an empty database)."""
    async with engine.connect() as connection:
        return await connection.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


if __name__ == "__main__":
    asyncio.run(upgrade_database(sys.argv[1] if len(sys.argv) > 1 else None))
    print(f"database upgraded to {head_revision()}")
