"""Fixtures for every test: the databases (tests/pg.py): ``database_url`` (empty) and
``migrated_database_url`` (at the latest schema), each on SQLite and on PostgreSQL, ``postgres_url``,
``postgres_server``. Defined once here so that the whole session shares one PostgreSQL server and one
migrated template per backend; and the Hypothesis profile (tests/helpers/profiles.py)."""

from tests.helpers import profiles
from tests.pg import (  # noqa: F401  (fixtures)
    database_url,
    migrated_database_url,
    migrated_postgres_url,
    postgres_server,
    postgres_template,
    postgres_url,
    sqlite_template,
)

profiles.load()  # HYPOTHESIS_PROFILE: thorough (default) or quick (tests/helpers/profiles.py)
