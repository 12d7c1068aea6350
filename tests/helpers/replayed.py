"""A test's set-up made once per process and replayed: the rows it wrote, inserted again.

Most gm tests begin with the same few games (tests/gm/conftest.py: ``make_game``, ``make_started_game``),
made through the real use cases: a creation, six joins and a start, about sixty statements and 80 ms of
CPU, hundreds of times a run. :func:`replayed` runs such a set-up for real the first time a process
meets it (per backend and arguments), on a database still as migrated, and keeps the rows it added
and what it returned; later calls on a database as migrated get the same rows inserted in one
transaction (PostgreSQL's id sequences moved past them) and a copy of the same result. The rows are
the ones the use cases wrote: the set-up must depend only on its arguments (a given ``now``, a seeded
``rng``). On a database that is not as migrated any more (the test wrote before), or when the set-up
changed a row that was there before, the set-up runs for real every time.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, TypeVar

from sqlalchemy import Table, func, insert, select, text
from sqlmodel import SQLModel

from db.database import SessionFactory

T = TypeVar("T")
Rows = dict[str, list[tuple[Any, ...]]]

_pristine: dict[str, tuple[Any, ...]] = {}  # backend -> the state of a database as migrated
_kept: dict[tuple[str, Hashable], tuple[list[tuple[Table, list[dict[str, Any]]]], Any] | None] = {}


def settings_key(settings: object) -> str:
    """A hashable form of a set-up's settings (a GameSettings, a mapping of changes, or None)."""
    if settings is None:
        return ""
    to_json = getattr(settings, "to_json", None)
    return json.dumps(to_json() if to_json else dict(settings), sort_keys=True, default=str)  # type: ignore[call-overload]


def _tables() -> list[Table]:
    return list(SQLModel.metadata.sorted_tables)  # parents before children: the order to insert in


async def _state(sessions: SessionFactory, pristine: tuple[Any, ...] | None) -> tuple[Any, ...]:
    """Every table's row count (in one statement) and, when they are ``pristine``'s (or there is no
    ``pristine`` yet), the rows of the tables that have any: a database as migrated has one
    (``direct_message_read``'s first row). Two databases with the same state hold the same rows."""
    tables = _tables()
    counts = [select(func.count()).select_from(table).scalar_subquery() for table in tables]
    async with sessions.read() as s:
        connection = await s.connection()
        numbers = tuple((await connection.execute(select(*counts))).one())
        if pristine is not None and pristine[0] != numbers:
            return (numbers,)
        held = [
            tuple(sorted((tuple(r) for r in (await connection.execute(select(table))).all()), key=repr))
            for table, number in zip(tables, numbers, strict=True)
            if number
        ]
    return numbers, *held


async def _rows(sessions: SessionFactory) -> Rows:
    async with sessions.read() as s:
        connection = await s.connection()  # plain rows (SQLAlchemy Core), not model objects
        return {
            table.name: [tuple(r) for r in (await connection.execute(select(table))).all()]
            for table in _tables()
        }


async def replayed(sessions: SessionFactory, key: Hashable, make: Callable[[], Awaitable[T]]) -> T:
    """``make()``'s result; its rows replayed when this process already made the same ``key``."""
    backend = sessions.kw["bind"].dialect.name
    state = await _state(sessions, _pristine.get(backend))
    if _pristine.setdefault(backend, state) != state:
        return await make()  # the test wrote something first: the set-up may depend on it
    slot = (backend, key)
    if slot in _kept:
        kept = _kept[slot]
        if kept is None:
            return await make()
        await _insert(sessions, backend, kept[0])
        return copy.deepcopy(kept[1])
    before = await _rows(sessions)
    result = await make()
    after = await _rows(sessions)
    added: list[tuple[Table, list[dict[str, Any]]]] = []
    for table in _tables():
        old = before[table.name]
        if any(row not in after[table.name] for row in old):
            _kept[slot] = None  # a row that was there changed: not a set-up that can be replayed
            return result
        new = [row for row in after[table.name] if row not in old]
        if new:
            names = [column.name for column in table.columns]
            added.append((table, [dict(zip(names, row, strict=True)) for row in new]))
    _kept[slot] = (added, copy.deepcopy(result))
    return result


async def _insert(
    sessions: SessionFactory, backend: str, added: list[tuple[Table, list[dict[str, Any]]]]
) -> None:
    async with sessions.begin() as s:
        connection = await s.connection()
        for table, rows in added:
            await connection.execute(insert(table), rows)
        if backend == "postgresql":  # the ids given above: the next new row's comes after them
            for table, _ in added:
                for column in table.primary_key.columns:
                    sequence = f"pg_get_serial_sequence('\"{table.name}\"', '{column.name}')"
                    biggest = f'(SELECT max("{column.name}") FROM "{table.name}")'
                    await connection.execute(
                        text(f"SELECT setval({sequence}, {biggest}) WHERE {sequence} IS NOT NULL")
                    )
