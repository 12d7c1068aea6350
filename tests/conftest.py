"""Fixtures for every test: the databases (tests/pg.py): ``database_url`` (empty) and
``migrated_database_url`` (at the latest schema), each on SQLite and on PostgreSQL, ``postgres_url``,
``postgres_server``. Defined once here so that the whole session shares one PostgreSQL server and one
migrated template per backend; the Hypothesis profile (tests/helpers/profiles.py); and, under
pytest-xdist, the order that spreads the waiting modules over the workers (tests/helpers/scheduling.py)."""

import gc
import os

import pytest

from tests.helpers import compiled_cache, profiles, scheduling
from tests.pg import (  # noqa: F401  (fixtures)
    database_url,
    migrated_database_url,
    migrated_postgres_url,
    postgres_server,
    postgres_template,
    postgres_url,
    sqlite_template,
)

compiled_cache.install()  # one cache of compiled SQL for every engine (tests/helpers/compiled_cache.py)
profiles.load()  # HYPOTHESIS_PROFILE: thorough (default) or quick (tests/helpers/profiles.py)


def pytest_collection_finish() -> None:
    """What the session has made by now (the modules, pytest's items: most of the process's objects)
    lives to its end: frozen, Python's cycle collector no longer walks it at every full collection; and
    it runs less often. tests/gm and tests/engine alone take a sixth less CPU so; in a whole run the
    harness's bots freeze the heap at their start (bot.py) anyway, and the gain is smaller."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


@pytest.hookimpl(trylast=True)  # after -m and -k have deselected: xdist shares out what is left
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    items[:] = scheduling.interleaved(items, [item.nodeid.split("::")[0] for item in items], workers)
