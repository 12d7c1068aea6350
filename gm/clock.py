"""The gamemaster's clock. Use cases take ``now`` as a parameter (default: :func:`utcnow`) so tests
control time; every datetime gm handles is aware and in UTC."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def utcnow() -> datetime:
    return datetime.now(UTC)


def require_aware(moment: datetime, what: str = "time") -> datetime:
    """``moment`` converted to UTC; a naive datetime is a programming error."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware, got {moment!r}")
    return moment.astimezone(UTC)
