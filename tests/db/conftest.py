"""Database fixtures: an empty database on a real SQLite file, and the same on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from db.database import make_engine
from tests.pg import database_url, postgres_server, postgres_url  # noqa: F401  (fixtures)


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:  # noqa: F811
    eng = make_engine(database_url)
    yield eng
    await eng.dispose()
