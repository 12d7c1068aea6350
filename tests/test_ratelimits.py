"""ops.ratelimits: discord.py's rate-limit buckets walked once a minute, not at every new bucket, and
the buckets unused for 5 minutes still dropped."""

from __future__ import annotations

import asyncio

import pytest
from discord.http import HTTPClient, Ratelimit

from ops.ratelimits import SWEEP_EVERY, sweep_seldom


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def age(http: HTTPClient, seconds: float) -> None:
    """Every bucket held was last used ``seconds`` ago."""
    for bucket in http._buckets.values():
        bucket._last_request = asyncio.get_running_loop().time() - seconds


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many buckets each walk looked at (discord.py's is_inactive calls, counted)."""
    looked = [0]
    seen = Ratelimit.is_inactive

    def counted(self: Ratelimit) -> bool:
        looked[0] += 1
        return seen(self)

    monkeypatch.setattr(Ratelimit, "is_inactive", counted)
    return looked


async def test_a_bot_posting_to_many_channels_walks_its_buckets_once_a_minute(walks: list[int]) -> None:
    """Without it, each of 300 new channels after the 256th walks every bucket (discord.py's own way)."""
    plain = HTTPClient(asyncio.get_running_loop())
    for channel in range(600):
        plain.get_ratelimit(f"POST /channels/{{channel_id}}/messages:{channel}")
    assert walks[0] > 100_000

    walks[0] = 0
    clock = Clock()
    http = HTTPClient(asyncio.get_running_loop())
    assert sweep_seldom(http, clock=clock)
    for channel in range(600):
        http.get_ratelimit(f"POST /channels/{{channel_id}}/messages:{channel}")
    assert walks[0] <= 256  # one walk, at the first bucket past 256
    assert len(http._buckets) == 600


async def test_buckets_unused_for_five_minutes_are_still_dropped(walks: list[int]) -> None:
    clock = Clock()
    http = HTTPClient(asyncio.get_running_loop())
    sweep_seldom(http, clock=clock)
    for channel in range(300):
        http.get_ratelimit(f"old:{channel}")
    age(http, 301)  # nobody posted there for 5 minutes

    clock.now += SWEEP_EVERY / 2
    http.get_ratelimit("new:1")
    assert len(http._buckets) == 301  # not yet: walked less than a minute ago

    clock.now += SWEEP_EVERY / 2
    http.get_ratelimit("new:2")
    assert set(http._buckets) == {"new:1", "new:2"}


def test_a_client_without_the_walk_is_left_as_it_is() -> None:
    class Other:
        pass

    other = Other()
    assert not sweep_seldom(other)
    assert vars(other) == {}
