"""Which games this process looks after when the bot runs as several processes, each owning a set of
shards (``SHARD_COUNT``, ``SHARD_IDS``) on one database.

A server (guild) belongs to shard ``(guild_id >> 22) % count``, as the chat server routes its events;
direct messages, which belong to no server, come to shard 0. The process owning a game's shard keeps
its deadline and reminder jobs and sends its messages; the process owning shard 0 also sends the
direct messages about no game. Anything may still be done by another process (a player's direct
message closing a phase early): a close is a compare-and-set and messages are leased, so a second
close is a no-op and no message goes out twice.

:data:`EVERYTHING` (one process, the default) owns every server and the direct messages.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import literal_column, true

SHARD_BITS = 22  # a server id's bits below its timestamp: its shard is the timestamp modulo the count
NAME = re.compile(r"[A-Za-z0-9_.-]{1,20}")
"""A process name: short (it starts every outbox claim token, 40 characters at most) and free of the
``:`` that separates it from the rest of the token."""
SINGLE = "main"  # the name of a process that owns everything


def shard_of(guild_id: int, count: int) -> int:
    """The shard a server's events go to among ``count``."""
    return (guild_id >> SHARD_BITS) % count


@dataclass(frozen=True, slots=True)
class Ownership:
    """The shards one process owns: ``ids`` of ``count`` (None: all of them)."""

    count: int = 1
    ids: frozenset[int] | None = None

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"a shard count is 1 or more, not {self.count}")
        wrong = sorted(i for i in self.ids or () if not 0 <= i < self.count)
        if wrong:
            raise ValueError(
                f"shard ids {wrong} are outside 0..{self.count - 1} (there are {self.count} shards)"
            )
        if self.ids is not None and not self.ids:
            raise ValueError("a process owns at least one shard")

    @classmethod
    def of(cls, count: int | None, ids: Iterable[int] | None) -> Ownership:
        """From the settings: no count means one process, which owns everything."""
        if count is None:
            if ids is not None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT")
            return EVERYTHING
        return cls(count, None if ids is None else frozenset(ids))

    @property
    def owns_all(self) -> bool:
        """True when this process owns every shard: there is no other process to share with."""
        return self.ids is None or len(self.ids) == self.count

    @property
    def owns_direct_messages(self) -> bool:
        return self.owns_all or 0 in (self.ids or ())

    def owns_guild(self, guild_id: int) -> bool:
        return self.owns_all or shard_of(guild_id, self.count) in (self.ids or ())

    def guild_clause(self, guild_id: Any) -> Any:
        """SQL: the server id ``guild_id`` (a column, e.g. ``Game.guild_id``) is one of ours. The shift
        and the modulo are plain SQL on SQLite and PostgreSQL alike; the constants are written into
        the statement, so that no driver has to guess their types."""
        if self.owns_all:
            return true()
        shard = (guild_id.op(">>")(literal_column(str(SHARD_BITS)))) % literal_column(str(self.count))
        return shard.in_([literal_column(str(i)) for i in sorted(self.ids or ())])

    def default_name(self) -> str:
        """A stable name for the process owning these shards (its outbox claims carry it): ``main``
        for one process, ``shard-3``, ``shards-0-3`` for a range, else the ids or a digest of them."""
        if self.owns_all or self.ids is None:
            return SINGLE
        ids = sorted(self.ids)
        if len(ids) == 1:
            return f"shard-{ids[0]}"
        if ids == list(range(ids[0], ids[-1] + 1)):
            name = f"shards-{ids[0]}-{ids[-1]}"
        else:
            name = "shards-" + ".".join(map(str, ids))
        if len(name) > 20:
            name = "shards-" + hashlib.sha1(",".join(map(str, ids)).encode()).hexdigest()[:12]
        return name

    def describe(self) -> str:
        """For the log: which shards this process owns."""
        if self.owns_all:
            return f"all {self.count} shards" if self.count > 1 else "every server (one process)"
        ids = ", ".join(map(str, sorted(self.ids or ())))
        return f"shards {ids} of {self.count}"


EVERYTHING = Ownership()
