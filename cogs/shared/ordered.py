"""A player's taps in the order they made them, and messages never shown older than they were shown.

Discord numbers every interaction with a snowflake id that grows with the moment it was made, so a
tap's id says which of two taps came first, however the bot's work on them interleaves afterwards (a
read waiting for a connection, a 429 that holds one answer back).

- :class:`TapOrder`: a tap that writes (an order picked on the sheet, Ready, Hold the rest) waits
  until every earlier tap of the same player in the same game that this process is still handling
  has written: the writes reach gm, where each is stamped and committed, in the order of the taps,
  so the last tap on a unit is the order that stays (issue 38 F).
- :class:`Edits`: the edits of one message (an order sheet, a call to order carrying one) go out one
  at a time, and an edit drawn for an earlier tap than one already shown is dropped: a redraw held
  back by a 429 retry never lands over a later one (issue 38 E).
- :class:`Latest`: a message drawn from the state of something (a game's Join post) is edited one
  edit at a time, each drawn from the state read when it goes out; requests made meanwhile are served
  by the next edit, so the last edit shows the latest state, never an older one.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Iterator
from dataclasses import dataclass, field

KEPT = 4096  # messages whose last edit is remembered (the oldest forgotten first)


@dataclass
class Turn:
    """One tap's place among its player's taps (see :class:`TapOrder`)."""

    order: TapOrder
    key: Hashable
    number: int
    written: asyncio.Event = field(default_factory=asyncio.Event)

    @contextlib.asynccontextmanager
    async def writing(self) -> AsyncIterator[None]:
        """Wait for the earlier taps' writes, then write (the block); the later taps may write next."""
        for earlier in self.order.earlier(self):
            await earlier.written.wait()
        try:
            yield
        finally:
            self.written.set()


class TapOrder:
    """The taps being handled, per key (game, player), by interaction id."""

    def __init__(self) -> None:
        self._taps: dict[Hashable, dict[int, Turn]] = {}

    @contextlib.contextmanager
    def enter(self, key: Hashable, number: int) -> Iterator[Turn]:
        """Take the tap's turn (at once, before anything is awaited) for as long as it is handled."""
        turn = Turn(self, key, number)
        self._taps.setdefault(key, {})[number] = turn
        try:
            yield turn
        finally:
            turn.written.set()
            taps = self._taps.get(key, {})
            taps.pop(number, None)
            if not taps:
                self._taps.pop(key, None)

    def earlier(self, turn: Turn) -> list[Turn]:
        return [t for n, t in self._taps.get(turn.key, {}).items() if n < turn.number]


class Edits:
    """Per message: one edit at a time, and the newest tap shown (see the module docstring)."""

    def __init__(self) -> None:
        self._shown: OrderedDict[int, int] = OrderedDict()  # message id -> interaction id shown
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}  # message id -> its lock, its users
        self.dropped = 0  # edits not sent: a later tap's drawing was shown already

    def busy(self, message_id: int) -> bool:
        """Whether an edit of the message is going out (a new one would wait for it)."""
        return message_id in self._locks

    def last(self, message_id: int) -> int:
        """The number of the tap whose drawing the message shows (0: none of this process's): an edit
        drawn from the state now, not for a tap, goes with it (cogs.ui.sheet_live)."""
        return self._shown.get(message_id, 0)

    async def show(self, message_id: int, number: int, edit: Callable[[], Awaitable[object]]) -> bool:
        """Run ``edit`` (the drawing made for tap ``number``) unless a later tap's drawing was shown;
        whether it ran."""
        lock, users = self._locks.get(message_id) or (asyncio.Lock(), 0)
        self._locks[message_id] = (lock, users + 1)
        try:
            async with lock:
                if self._shown.get(message_id, 0) > number:
                    self.dropped += 1
                    return False
                await edit()
                self._shown[message_id] = number
                self._shown.move_to_end(message_id)
                while len(self._shown) > KEPT:
                    self._shown.popitem(last=False)
                return True
        finally:
            lock, users = self._locks[message_id]
            if users <= 1:
                del self._locks[message_id]
            else:
                self._locks[message_id] = (lock, users - 1)


class Latest:
    """Per message: edits drawn from the latest state, one at a time (see the module docstring)."""

    def __init__(self) -> None:
        self._asked: dict[int, int] = {}  # message id -> requests so far
        self._served: dict[int, int] = {}  # message id -> requests an edit under way or made covers
        self._locks: dict[int, asyncio.Lock] = {}

    async def refresh(self, message_id: int, redraw: Callable[[], Awaitable[object]]) -> bool:
        """Edit the message by ``redraw`` (which reads the state, then edits), unless an edit that
        began after this request covers it; whether this call edited."""
        asked = self._asked[message_id] = self._asked.get(message_id, 0) + 1
        # Kept for the process's life: a few numbers per Join post (a new game's), and never a lock
        # dropped while someone waits for it.
        lock = self._locks.setdefault(message_id, asyncio.Lock())
        async with lock:
            if self._served.get(message_id, 0) >= asked:
                return False
            self._served[message_id] = self._asked[message_id]  # this read sees every request so far
            await redraw()
            return True

    def busy(self, message_id: int) -> bool:
        """Whether an edit of the message is under way or asked for."""
        lock = self._locks.get(message_id)
        return lock is not None and lock.locked()
