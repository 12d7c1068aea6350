"""discord.py's rate-limit buckets, swept now and then instead of at every new one.

discord.py keeps one rate-limit bucket per route and major parameter (a channel, a direct message, a
server), and once it holds 256 of them, every request that makes a new one walks them all to drop
those unused for 5 minutes (``HTTPClient._try_clear_expired_ratelimits``). A bot in 45 busy games
posts to a few thousand channels, threads and direct messages: in ``bench/load.py paced`` that walk
ran at about one request in two, over ~2,800 buckets each time (864,000 calls of ``is_inactive``,
3.5 % of the event loop's time). A bucket unused for 5 minutes cannot appear sooner than that, so
walking more than once a minute finds nothing more: :func:`sweep_seldom` makes the walk happen at most
once every :data:`SWEEP_EVERY` seconds, and keeps what the walk does.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

SWEEP_EVERY = 60.0  # seconds between two walks of the buckets (discord.py drops one unused for 300 s)
SWEEP = "_try_clear_expired_ratelimits"  # discord.py's HTTPClient method (2.x)


def sweep_seldom(http: Any, every: float = SWEEP_EVERY, clock: Callable[[], float] = time.monotonic) -> bool:
    """Make ``http`` (the bot's ``discord.http.HTTPClient``) walk its rate-limit buckets at most once
    every ``every`` seconds (see the module docstring). False, and nothing changed, when this
    discord.py has no such walk."""
    sweep = getattr(http, SWEEP, None)
    if not callable(sweep):
        log.debug("discord.py's HTTPClient has no %s: its rate-limit buckets are left as they are", SWEEP)
        return False
    last = [clock() - every]  # the first walk may come at once

    def seldom() -> None:
        now = clock()
        if now - last[0] >= every:
            last[0] = now
            sweep()

    setattr(http, SWEEP, seldom)  # on this client only: discord.py itself is unchanged
    return True
