"""One game's private places changed by one piece of work at a time in this process.

A seat changing hands (cogs.messages.sender: admit, evict, a pair's places opened for a newcomer), the
end's archive or a rollback's reopening, and the shields' repair at start-up (cogs.places.repair) each
read a game's places and change them; done at once for one game, one could undo the other's change
(the repair's merged overwrites would leave out a newcomer's). Each holds the game's lock meanwhile.
A game's messages are sent by the process owning its server (gm.delivery.shards), which is also the
one that repairs it: a lock of the process is enough.
"""

from __future__ import annotations

import asyncio


class PlaceLocks:
    """A lock per game, made on first use (one per bot: locks belong to its event loop)."""

    def __init__(self) -> None:
        self._locks: dict[int, asyncio.Lock] = {}

    def of(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())
