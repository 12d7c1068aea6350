"""A per-member rate limit on what members send the bot (interactions, and the messages it reads: direct
messages and mentions), so that one member's flood cannot slow the others down.

A token bucket per member: ``burst`` tokens, refilled at ``per_second``; each interaction or message
takes one (an autocomplete, sent at each keystroke, a quarter). A player tapping fast on a sheet does
2-3 taps a second in a burst and a few a minute otherwise: the defaults (20, 4 a second: settings
MEMBER_BURST, MEMBER_RATE) never stop them, while a member sending 1,000 in a second gets about 24
through. The check is a dictionary look-up and some arithmetic, before anything is parsed or read from
the database (ops.gate calls it on the raw gateway event).

A refused member is told once ("slow down, try again in N s") and then not again for
:data:`TELL_EVERY` seconds: the answer to a flood is one message, not one per interaction (each would be
a request to Discord, and a flood of them would slow everybody's answers).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

TELL_EVERY = 10.0  # seconds between two "slow down" answers to one member
PRUNE_AT = 10_000  # members remembered before those with a full bucket are forgotten


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float  # when ``tokens`` was counted
    told_until: float = 0.0  # no "slow down" answer before then


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refused event: how long until the member may send again, and whether to tell them now."""

    wait: float
    tell: bool

    @property
    def seconds(self) -> int:
        """``wait`` in whole seconds, at least 1 (what the answer says)."""
        return max(1, math.ceil(self.wait))


class MemberLimiter:
    def __init__(
        self, burst: float = 20.0, per_second: float = 4.0, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if burst < 1 or per_second <= 0:
            raise ValueError("a member's rate limit needs a burst of 1 or more and a positive rate")
        self.burst = float(burst)
        self.per_second = float(per_second)
        self.clock = clock  # seconds, monotonic (a test may freeze it)
        self._buckets: dict[int, _Bucket] = {}

    def take(self, member_id: int, cost: float = 1.0) -> Refusal | None:
        """Take ``cost`` tokens from the member's bucket: None when they had them (go on), else the
        refusal (nothing taken)."""
        now = self.clock()
        bucket = self._buckets.get(member_id)
        if bucket is None:
            if len(self._buckets) >= PRUNE_AT:
                self._prune(now)
            bucket = self._buckets[member_id] = _Bucket(self.burst, now)
        else:
            bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.per_second)
            bucket.at = now
        if bucket.tokens >= cost:
            bucket.tokens -= cost
            return None
        tell = now >= bucket.told_until
        if tell:
            bucket.told_until = now + TELL_EVERY
        return Refusal((cost - bucket.tokens) / self.per_second, tell)

    def _prune(self, now: float) -> None:
        """Forget the members whose bucket has filled up again (they start full anyway)."""
        full = [
            member
            for member, b in self._buckets.items()
            if b.tokens + (now - b.at) * self.per_second >= self.burst and now >= b.told_until
        ]
        for member in full:
            del self._buckets[member]


def slow_down(refusal: Refusal) -> str:
    """What a refused member is told."""
    return (
        f"Slow down: you are sending me more than I take from one member, so I did not act on that. "
        f"Try again in {refusal.seconds} s."
    )
