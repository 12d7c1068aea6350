"""Core statements prepared once for the hot paths (a submission's read and writes), which SQLite's
driver runs itself.

SQLAlchemy executes a cached Core statement in about 25-30 us of Python (the execution context, the
parameters' processing, the result's set-up, its events); the statement itself, in SQLite, takes a few.
A :class:`Prepared` statement is compiled once per dialect, with the bind processors of its columns
(a timestamp's text, a JSON column's text: what SQLAlchemy would write, by SQLAlchemy's own
processors); on SQLite it is run by the driver at once (db.sqlite.Connection.run_at_once, inside the
connection's transaction, which SQLAlchemy began as usual); on PostgreSQL, or when the statement
cannot run at once, SQLAlchemy runs it as before. The rows a read gives are plain tuples, their
columns processed by SQLAlchemy's own result processors where a column has one (a timestamp).

A statement run here is seen by the engine's ``before_cursor_execute`` listeners (the benches count
statements with them), not by the ORM's events: as a Core statement run on the session's connection
already is (:func:`db.database.flushed_connection`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any, cast

from sqlalchemy import exc
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.expression import Executable

from db.lean import LeanConnection, NeedsSession
from db.sqlite import Connection as SQLiteConnection

Params = dict[str, Any]


class _Compiled:
    """A statement's SQLite text, its parameters' names in order and their bind processors."""

    __slots__ = ("_values", "constants", "names", "processed", "processors", "results", "sql")

    def __init__(
        self,
        sql: str,
        names: tuple[str, ...],
        processors: tuple[Callable[[Any], Any] | None, ...],
        constants: Params,
        results: tuple[tuple[int, Callable[[Any], Any]], ...] = (),
    ) -> None:
        self.sql = sql
        self.results = results  # (column, its result processor): a timestamp read, for one
        self.names = names
        self.processors = processors
        self.constants = constants  # the statement's own values (a LIMIT's), unless given
        # the parameters' values in order, picked by one call (a row per parameter set: the many
        # rows of an executemany), then the few that need a bind processor (a timestamp, a JSON)
        picked = itemgetter(*names) if names else (lambda _params: ())
        self._values: Callable[[Params], tuple[Any, ...]] = (
            picked if len(names) != 1 else (lambda params: (params[names[0]],))
        )
        self.processed = tuple((i, process) for i, process in enumerate(processors) if process is not None)

    def read(self, row: tuple[Any, ...]) -> tuple[Any, ...]:
        """A row read, its columns processed as SQLAlchemy would (a timestamp's text to a datetime)."""
        values = list(row)
        for i, process in self.results:
            values[i] = process(values[i])
        return tuple(values)

    def row(self, params: Params) -> tuple[Any, ...]:
        if self.constants:
            params = {**self.constants, **params}
        values = self._values(params)
        if not self.processed:
            return values
        changed = list(values)
        for i, process in self.processed:
            value = changed[i]
            if value is not None:
                changed[i] = process(value)
        return tuple(changed)


class Prepared:
    """``statement`` (a Core insert, update, delete or select), for parameters with the keys
    ``keys`` (an insert's or update's columns set; None: its bound parameters only), run by
    :meth:`rows` (a read's rows) or :meth:`run` (a write, one row of parameters or many)."""

    def __init__(self, statement: Executable, keys: Sequence[str] | None = None) -> None:
        self.statement = statement
        self.keys = None if keys is None else list(keys)
        self._compiled: dict[type[Dialect], _Compiled | None] = {}

    async def rows(self, connection: AsyncConnection, params: Params) -> list[Any]:
        """The rows ``params`` select (tuples on SQLite, SQLAlchemy's rows otherwise)."""
        done = self._at_once(connection.sync_connection, params, many=False)
        if done is not None:
            compiled = self._compiled[type(connection.dialect)]
            if compiled is None or not compiled.results:
                return done[1]
            return [compiled.read(row) for row in done[1]]
        return list((await connection.execute(self.statement, params)).all())

    async def run(self, connection: AsyncConnection, params: Params | list[Params]) -> int:
        """Write with ``params`` (a list: executemany); the rows it changed (one row of parameters)."""
        done = self._at_once(connection.sync_connection, params, many=isinstance(params, list))
        if done is not None:
            return done[2]
        return (await connection.execute(self.statement, params)).rowcount

    def run_sync(self, connection: Connection, params: Params | list[Params]) -> None:
        """:meth:`run` in a sync function (``run_sync``'s)."""
        if self._at_once(connection, params, many=isinstance(params, list)) is None:
            connection.execute(self.statement, params)

    def _at_once(
        self, connection: Connection | None, params: Any, *, many: bool
    ) -> tuple[Any, list[Any], int, int | None] | None:
        """Run on SQLite's driver in the connection's transaction: (description, rows, rowcount,
        lastrowid), or None when SQLAlchemy must run it (another database, no transaction begun, a
        statement not prepared for it, a wait needed)."""
        if isinstance(connection, LeanConnection):  # a lean unit's (db.lean): SQLite's driver, or nothing
            compiled_for = connection.dialect
            compiled = self._compiled_for(compiled_for)
            if compiled is None:
                raise NeedsSession("a statement that cannot run on the driver")
            values = [compiled.row(p) for p in params] if many else compiled.row(params)
            try:
                return connection.run_at_once(compiled.sql, values, many=many)
            except sqlite3.Error as error:
                raise exc.DBAPIError.instance(
                    compiled.sql, values, error, sqlite3.Error, hide_parameters=True, dialect=compiled_for
                ) from error
        if connection is None or connection.closed or not connection.in_transaction():
            return None
        driver = connection.connection.driver_connection
        if not isinstance(driver, SQLiteConnection):
            return None
        compiled = self._compiled_for(connection.dialect)
        if compiled is None:
            return None
        values = [compiled.row(p) for p in params] if many else compiled.row(params)
        if connection._has_events or connection.engine._has_events:
            connection.dispatch.before_cursor_execute(connection, None, compiled.sql, values, None, many)
        try:
            return driver.run_at_once(compiled.sql, values, many=many)
        except sqlite3.Error as error:
            raise exc.DBAPIError.instance(
                compiled.sql, values, error, sqlite3.Error, hide_parameters=True, dialect=connection.dialect
            ) from error

    def _compiled_for(self, dialect: Dialect) -> _Compiled | None:
        kind = type(dialect)
        if kind not in self._compiled:
            self._compiled[kind] = _compile(self.statement, self.keys, dialect)
        return self._compiled[kind]


def _compile(statement: Executable, keys: list[str] | None, dialect: Dialect) -> _Compiled | None:
    """The statement's text and processors for ``dialect``, or None when it cannot be run as such
    (not SQLite's qmark style, a parameter expanded at execution, a column default or result
    processing SQLAlchemy would add)."""
    if dialect.name != "sqlite" or dialect.paramstyle != "qmark":
        return None
    compiled: Any = cast(Any, statement).compile(dialect=dialect, column_keys=keys)
    names = compiled.positiontup
    if names is None or compiled.literal_execute_params or compiled.post_compile_params:
        return None
    if any(getattr(compiled, name, None) for name in ("insert_prefetch", "update_prefetch", "postfetch")):
        return None  # Python-side defaults, or server-side values SQLAlchemy would fetch
    columns = compiled._result_columns
    results = tuple(column[3]._cached_result_processor(dialect, None) for column in columns)
    processors = compiled._bind_processors
    constants = {
        name: bind.effective_value
        for name, bind in compiled.binds.items()
        if name in names and not bind.required and bind.callable is None
    }
    return _Compiled(
        compiled.string,
        tuple(names),
        tuple(processors.get(name) for name in names),
        constants,
        tuple((i, process) for i, process in enumerate(results) if process is not None),
    )
