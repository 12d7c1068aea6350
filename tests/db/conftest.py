"""Database fixtures: an empty database on a real SQLite file, and the same on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from db.database import make_engine
from tests.helpers.leftovers import finish_work_left


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    """Disposed once the work the test left running has finished (tests/helpers/leftovers.py)."""
    eng = make_engine(database_url)
    yield eng
    await finish_work_left()
    await eng.dispose()
