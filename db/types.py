"""Column types shared by the tables."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp that goes in and comes out as an aware UTC ``datetime``.

    PostgreSQL keeps the zone (``timestamptz``); SQLite has no date type and SQLAlchemy stores the
    wall-clock text without an offset. Normalising to UTC on the way in and re-attaching UTC on the
    way out makes both behave the same, so deadlines compare correctly whatever the backend.
    A naive ``datetime`` is refused: it is always a bug (whose local time would it be?).
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"naive datetime {value!r}: timestamps must be timezone-aware (UTC)")
        value = value.astimezone(UTC)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)
