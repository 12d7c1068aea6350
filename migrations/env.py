"""Alembic environment: async engines, batch mode (SQLite cannot ALTER most things in place).

Two ways in:
- ``db.migrate.upgrade_database(url)`` (the bot at start-up, the tests) runs Alembic on a connection it
  opened and passes it in ``config.attributes["connection"]``;
- the ``alembic`` command line, which opens its own engine from ``sqlalchemy.url`` if set, else
  ``DATABASE_URL``, else the default SQLite file.
"""

from __future__ import annotations

import asyncio
from logging.config import fileConfig
from typing import Any

from alembic import context
from sqlalchemy import pool
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel
from sqlmodel.sql.sqltypes import AutoString

import db.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from db.database import database_url_from_env, make_engine, normalize_url
from db.types import UTCDateTime

config = context.config
target_metadata = SQLModel.metadata

if config.config_file_name is not None and config.attributes.get("configure_logging", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)


def render_item(type_: str, obj: Any, autogen_context: Any) -> str | bool:
    """Write app-specific column types as plain SQLAlchemy ones, so migrations never import app code."""
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    if type_ == "type" and isinstance(obj, AutoString):
        return f"sa.String(length={obj.length})" if obj.length else "sa.String()"
    return False


def _configure(**kwargs: Any) -> None:
    context.configure(
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
        render_item=render_item,
        **kwargs,
    )


def _url() -> str:
    return normalize_url(config.get_main_option("sqlalchemy.url") or database_url_from_env())


def run_migrations_offline() -> None:
    _configure(url=_url(), literal_binds=True, dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()


def do_run_migrations(connection: Connection) -> None:
    _configure(connection=connection)
    with context.begin_transaction():
        context.run_migrations()


async def run_async_migrations() -> None:
    engine = make_engine(_url(), poolclass=pool.NullPool)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(do_run_migrations)
            await connection.commit()
    finally:
        await engine.dispose()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        asyncio.run(run_async_migrations())
    else:
        do_run_migrations(connection)


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
