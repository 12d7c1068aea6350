"""The per-member rate limit's token bucket (ops.limits): a burst, then the refill rate; a refused
member is told once per flood; members whose bucket is full again are forgotten."""

from __future__ import annotations

import pytest

from ops import limits
from ops.limits import MemberLimiter, slow_down


def test_a_burst_then_the_rate_and_one_answer_per_flood() -> None:
    now = [0.0]
    limiter = MemberLimiter(20, 4, clock=lambda: now[0])
    assert all(limiter.take(1) is None for _ in range(20))
    first = limiter.take(1)
    assert first is not None and first.tell and first.seconds == 1
    assert "Try again in 1 s" in slow_down(first)
    later = [limiter.take(1) for _ in range(1000)]
    assert all(r is not None and not r.tell for r in later), "told once, not once per interaction"
    assert limiter.take(2) is None, "another member has their own bucket"
    now[0] += 0.5  # two tokens back
    assert limiter.take(1) is None and limiter.take(1) is None
    assert limiter.take(1) is not None
    now[0] += limits.TELL_EVERY
    assert (refused := limiter.take(1, cost=100)) is not None and refused.tell, "told again after a while"
    assert limiter.take(1, cost=0.25) is None, "a quarter for an autocomplete"


def test_a_player_tapping_fast_never_meets_it() -> None:
    now = [0.0]
    limiter = MemberLimiter(clock=lambda: now[0])
    for _ in range(600):  # three taps a second for ten minutes, in bursts of ten in a second
        for _ in range(10):
            assert limiter.take(7) is None
            now[0] += 0.1
        now[0] += 2.3


def test_full_buckets_are_forgotten_and_bad_settings_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "PRUNE_AT", 10)
    now = [0.0]
    limiter = MemberLimiter(5, 1, clock=lambda: now[0])
    for member in range(10):
        limiter.take(member)
    now[0] += 10
    limiter.take(99)
    assert len(limiter._buckets) == 1
    for burst, rate in ((0, 1), (5, 0)):
        with pytest.raises(ValueError):
            MemberLimiter(burst, rate)
