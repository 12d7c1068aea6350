"""Snowflake ids and timestamps in the shapes Discord uses."""

from __future__ import annotations

import time
from datetime import UTC, datetime

DISCORD_EPOCH_MS = 1_420_070_400_000
_WORKER_BITS = 1 << 17

_last_id = 0


def new_snowflake() -> int:
    """A fresh id, strictly increasing, whose embedded time is about now (discord.utils.snowflake_time)."""
    global _last_id
    candidate = ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | _WORKER_BITS
    _last_id = max(candidate, _last_id + 1)
    return _last_id


_sent_counter = 0


def snowflake_at(moment: datetime) -> int:
    """A fresh id stamped with an earlier ``moment`` (an interaction the user sent then, which reaches
    the bot only now): another worker field than :func:`new_snowflake`'s, so it never repeats one."""
    global _sent_counter
    _sent_counter = (_sent_counter + 1) % 4096
    stamp = int(moment.timestamp() * 1000) - DISCORD_EPOCH_MS
    return (stamp << 22) | (2 << 17) | _sent_counter


def snowflake_on_shard(shard_id: int, shard_count: int) -> int:
    """A fresh id (see :func:`new_snowflake`) of a guild whose events go to shard ``shard_id`` of
    ``shard_count``: ``(id >> 22) % shard_count``, its timestamp moved up by a millisecond or two."""
    global _last_id
    candidate = new_snowflake()
    stamp = candidate >> 22
    stamp += (shard_id - stamp) % shard_count
    _last_id = max(_last_id, (stamp << 22) | _WORKER_BITS)
    return _last_id


def utcnow() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime | None) -> str | None:
    """ISO 8601 with an explicit UTC offset, as Discord sends timestamps."""
    return None if moment is None else moment.isoformat()
