"""One cache of compiled SQL for every engine of a test process.

SQLAlchemy compiles each statement once per engine and keeps the result in the engine's cache, keyed
by the engine's dialect object. The bot has one engine (two on SQLite: the writers' and the readers')
for its whole life, so it compiles each statement once; a test process makes new engines for every
test (each test has a database of its own) and compiled the same statements again and again: a sixth
of the suite's CPU went to SQLAlchemy's compiler. Here every engine of the process shares one cache,
in which dialects of the same kind, version and settings count as one: the statements and the SQL
they compile to are the same, only compiled once per process.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, Dialect, Engine
from sqlalchemy.util import LRUCache

CAPACITY = 5_000  # statements (the suite's distinct ones fit many times over)


class SharedCompiledCache(LRUCache[Any, Any]):
    """SQLAlchemy's compiled cache with the dialect in each key replaced by the first equivalent one
    this cache saw (same class, server version and the settings that change the SQL it writes)."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        super().__init__(capacity)
        self._dialects: dict[Hashable, Dialect] = {}

    def _shared(self, key: Any) -> Any:
        if not (isinstance(key, tuple) and key and isinstance(key[0], Dialect)):
            return key
        dialect = key[0]
        kind = (
            type(dialect),
            dialect.server_version_info,
            dialect.paramstyle,
            dialect.positional,
            dialect.label_length,
            dialect.max_identifier_length,
            getattr(dialect, "_json_serializer", None),
            getattr(dialect, "_json_deserializer", None),
        )
        return (self._dialects.setdefault(kind, dialect), *key[1:])

    def get(self, key: Any, default: Any = None) -> Any:
        return super().get(self._shared(key), default)

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(self._shared(key), value)


_cache = SharedCompiledCache()


def _share(connection: Connection) -> None:
    engine = connection.engine
    if engine._compiled_cache is not None and engine._compiled_cache is not _cache:
        engine._compiled_cache = _cache


def install() -> None:
    """Every engine of this process, from its first connection on, uses the shared cache."""
    if not event.contains(Engine, "engine_connect", _share):
        event.listen(Engine, "engine_connect", _share)
