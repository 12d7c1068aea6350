"""Database fixtures: an empty database on a real SQLite file, and the same on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

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


@pytest.fixture
async def sqlite_engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    """An empty SQLite file's engine, for the tests of what only SQLite does (no PostgreSQL database
    made for them only to be skipped); disposed like ``engine``."""
    eng = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'test.db'}")
    yield eng
    await finish_work_left()
    await eng.dispose()


@pytest.fixture
async def migrated(migrated_database_url: str) -> AsyncIterator[AsyncEngine]:
    """An engine on a database already at the latest schema: a copy of the session's migrated template
    (tests/pg.py), for the tests whose subject is not the migrations' run; disposed like ``engine``."""
    eng = make_engine(migrated_database_url)
    yield eng
    await finish_work_left()
    await eng.dispose()
