"""The order in which the process does its work when everybody acts at once (a deadline's burst).

The event loop runs its ready tasks in turn, each up to its next wait: in a burst of hundreds of
interactions, one turn of every task is one "round", and a task's every wait (a request to Discord, a
read, the writer lock) costs it a round. A few steps are heavy (the first listing of a position's legal
orders for an order sheet: tens of milliseconds), and when dozens of them fall in the same round, every
light task (a form to open, an answer to a direct message) waits for all of them at each of its waits.

:func:`heavy` lets one heavy step run at a time: the others wait, without taking a turn, until it is
done. The heavy steps take as long in all (they are the same work, one after the other), and the
light tasks' rounds stay short. :func:`urgent_writes` (db.sqlite) is the other half: the writes a
person waits for with nothing shown meanwhile (a direct message's orders) go before the other
writers waiting for SQLite's single writer.

First answers first (:class:`Turns`): the answers people wait for (an interaction's first, a direct
message's reply) are worked on a few at a time, in their order (:meth:`Turns.admit`), and the work
after an answer waits for the answers owed before it (:func:`turn`, at each database session and call
to Discord): in a burst the rounds are those of a few answers, and every answer comes out in turn
instead of all of them together at the end. The bot marks what is owed and when it is paid (ops.turns).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import functools
import heapq
import threading
import weakref
from collections.abc import AsyncIterator, Callable, Hashable, Iterator
from dataclasses import dataclass

from db.database import admit_sessions_with, in_session
from db.sqlite import urgent_writes, writing_urgently

HEAVY_AT_ONCE = 1
"""Heavy steps running at once: one is enough to keep the loop busy (they are CPU on the loop)."""

_lanes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()
_guard = threading.Lock()


@contextlib.asynccontextmanager
async def heavy() -> AsyncIterator[None]:
    """Around a heavy step on the event loop: the heavy steps go one at a time, in turn."""
    loop = asyncio.get_running_loop()
    with _guard:
        lane = _lanes.get(loop)
        if lane is None:
            lane = _lanes[loop] = asyncio.Semaphore(HEAVY_AT_ONCE)
    async with lane:
        yield


# --- first answers first -------------------------------------------------------------------------------

ANSWER, REPLY = 0, 1
"""What is owed: an interaction's first answer (Discord's 3 s: the form, the "thinking...", the redrawn
sheet of a quick tap), a direct message's reply (all its author sees). Everything else is the work
after them (followups, redraws after a deferral, results, the DM sheets' refresh)."""

FIRST, IN_TURN = 0, 1
"""The order in which the owed answers get a slot: ``FIRST`` the ones that are whole at once (a form,
opened as the answer itself: nothing follows it), then the others in the order they came. The ``FIRST``
ones have slots of their own (:data:`FORMS`): a form never waits for the other interactions' slots
(they free as each of those reaches its answer, a round of the loop or more apiece in a burst), only
for the forms before it; and while one is owed, nothing else starts (:data:`FORMS_AHEAD`)."""
FORMS = 2
"""The lane of the slots of the answers whole at once (``FIRST``), next to ``ANSWER``'s and ``REPLY``'s."""

SLOTS = 8
"""Owed answers of a kind (first answers, replies) worked on at once; the others wait for a slot,
without a turn of the loop. Few enough
that a round of the loop is short (a form opened in a few rounds), enough to keep the loop busy while
some wait for Discord or the database."""
FORM_SLOTS = 32
"""Forms (answers whole at once) opened at once: each costs the loop a few milliseconds (its orders
held in the process, or one short read), but a slot turns over only once its form is on its way,
a round of the loop or two after it was given: with few slots, the forms of a burst (one per game at
a deadline) waited for each other round after round."""
FORMS_AHEAD = 0.4
"""Seconds a form owed holds the start of other work back at most (:meth:`Turns.admit`,
:meth:`Turns.behind_forms`): in a burst the loop's rounds were full of the other interactions' and
direct messages' first steps (a direct message's orders read and checked: several milliseconds
each), all started with the form, and the form's handler and its call to Discord each waited for a
round of them. One whose answer does not go out within this time holds nothing back longer."""
FORMS_HOLD = 1.0
"""Seconds the forms owed hold the rest back at most at a stretch, however many come one after another
(a stream of forms, each owed, never keeps the other interactions from their 3 seconds): once it is
up, everything starts as if no form were owed, until none is. And a stretch that held the rest back
for a time is followed by as long a time in which a new stretch holds nothing back: forms coming one
by one through a burst (its events read as they come, not all in one go) began stretch after stretch,
and the others, held nearly all the time, went past their 3 seconds while the loop was idle."""
SLOT_FOR = 0.5
"""Seconds an owed answer keeps its slot at most (one slow to go out does not hold the others back)."""
ANSWER_WITHIN = 3.0
"""Seconds an interaction is owed its first answer: Discord refuses one later (then it is forgotten)."""
REPLY_WITHIN = 10.0
"""Seconds a direct message is owed its reply at most (one that gets none is forgotten then)."""
PATIENCE = 2.0
"""Seconds a task of the work after the answers waits at most, in all (over :data:`PATIENCE_OVER`),
for the answers owed before it (one never answered holds nothing back longer)."""
PATIENCE_OVER = 10.0
"""Seconds after its first wait a task (one that lives long: a delivery's) has its patience again."""
BUSY = 8
"""First answers owed at once from which the process is busy (:func:`busy`)."""


@dataclass(eq=False, slots=True)
class Owed:
    """An answer somebody waits for: an interaction's first (``ANSWER``) or a message's reply (``REPLY``)."""

    kind: int
    key: Hashable
    number: int = 0  # in the order they came
    paid: bool = False
    slot: asyncio.TimerHandle | None = None  # while it holds a slot: the end of its time there
    admitted: bool = False  # it had its slot (or has it)
    lane: int = 0  # whose slots it takes: its kind's, or FORMS'
    aside: bool = False  # behind work of the same person (:func:`behind_own_work`): nothing waits for it


_FOR: contextvars.ContextVar[Owed | None] = contextvars.ContextVar("gm_lanes_owed", default=None)
_WAITED: contextvars.ContextVar[tuple[float, float]] = contextvars.ContextVar(
    "gm_lanes_waited", default=(0.0, 0.0)
)  # a task's waits for the owed answers: since when, how long in all


class Turns:
    """The answers owed on one event loop, their slots (:meth:`admit`), and the work after them
    waiting (:meth:`turn`)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._owed: dict[Hashable, tuple[Owed, asyncio.TimerHandle]] = {}  # in the order they came
        self._counts = [0, 0]  # owed, by kind (ANSWER, REPLY)
        self._numbered = 0  # the number of the next answer owed
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []  # a heap: (up to, -, waiting)
        # the slots, each lane its own (ANSWER, REPLY, FORMS): a direct message's reply never waits for
        # the interactions', a form for the other interactions'
        self._held = [0, 0, 0]
        self._queues: tuple[list[tuple[int, int, Owed, Callable[[], None], Hashable]], ...] = ([], [], [])
        # group -> its worst rank queued, how many, in which lane
        self._queued: dict[Hashable, tuple[int, int, int]] = {}
        self._seq = 0
        # the forms owed (admitted, answer not yet sent): while there is one, the rest waits to start
        self._forms: dict[Owed, asyncio.TimerHandle] = {}
        self._behind: collections.deque[Callable[[], None]] = collections.deque()  # behind_forms
        self._hold: asyncio.TimerHandle | None = None  # the end of this stretch's FORMS_HOLD
        self._hold_over = False  # FORMS_HOLD is up while forms are still owed
        self._held_from = 0.0  # when this stretch's hold began
        self._rest_until = 0.0  # before then a new stretch of forms holds nothing back (FORMS_HOLD)
        self.given: list[Hashable] = []  # the keys given a slot, in order (the last 1,000)
        self.waited = 0  # steps of the work after the answers that waited

    # --- what is owed ---------------------------------------------------------------------------------

    def owe(self, kind: int, key: Hashable) -> Owed:
        self.pay(key)  # the same key twice (a redelivered event): the newer one counts
        owed = Owed(kind, key, self._numbered)
        self._numbered += 1
        within = ANSWER_WITHIN if kind == ANSWER else REPLY_WITHIN
        self._owed[key] = (owed, self._loop.call_later(within, self._forget, owed))
        self._counts[kind] += 1
        return owed

    def pay(self, key: Hashable) -> None:
        entry = self._owed.pop(key, None)
        if entry is None:
            return
        owed, timer = entry
        owed.paid = True
        timer.cancel()
        self.release(owed)
        self._form_done(owed)
        self._counts[owed.kind] -= 1
        self._wake()

    def set_aside(self, owed: Owed, aside: bool) -> None:
        """Whether ``owed`` waits behind work of the same person (:func:`behind_own_work`): while it
        does, the work after the answers does not wait for it (its answer cannot go out before that
        work is done, and that work may be what would wait)."""
        owed.aside = aside
        if aside:
            self._wake()

    def _wake(self) -> None:
        oldest = self._oldest()
        while self._waiting and self._waiting[0][0] <= oldest:  # owed before them: all answered now
            _done(heapq.heappop(self._waiting)[2])

    def _oldest(self) -> int:
        """The number of the oldest answer still owed and not set aside (past the last one when none is)."""
        for owed, _ in self._owed.values():
            if not owed.aside:
                return owed.number
        return self._numbered

    def on_its_way(self, key: Hashable) -> None:
        """The answer owed for ``key`` is being sent: its slot goes to the next one."""
        entry = self._owed.get(key)
        if entry is not None:
            self.release(entry[0])

    def _forget(self, owed: Owed) -> None:
        entry = self._owed.get(owed.key)
        if entry is not None and entry[0] is owed:
            self.pay(owed.key)

    def owed(self, kind: int) -> int:
        return self._counts[kind]

    # --- the slots ------------------------------------------------------------------------------------

    def admit(
        self, owed: Owed, then: Callable[[], None], rank: int = IN_TURN, group: Hashable = None
    ) -> None:
        """``then()`` once ``owed`` has one of its lane's slots: now if one is free and nobody waits,
        else when its turn comes (by ``rank``, then in order). An answer whole at once (``FIRST``)
        takes the :data:`FORMS` slots, others their kind's. Never before an earlier one of the same
        ``group`` (a player's own): while one of theirs waits, it waits in the same lane, with the
        rank of the latest of theirs when that one's is later."""
        if owed.admitted:
            then()
            return
        waiting = self._queued.get(group) if group is not None else None
        if waiting is not None:  # behind their own: in the same lane, not before it
            rank, owed.lane = max(rank, waiting[0]), waiting[2]
        else:
            owed.lane = FORMS if owed.kind == ANSWER and rank == FIRST else owed.kind
        if owed.lane == FORMS and owed not in self._forms:
            if not self._forms:  # a stretch of forms owed begins
                self._begin_hold()
            self._forms[owed] = self._loop.call_later(FORMS_AHEAD, self._form_done, owed)
        queue = self._queues[owed.lane]
        if self._held[owed.lane] < _slots(owed.lane) and not queue and self._may_start(owed.lane):
            self._grant(owed)
            then()
            return
        if group is not None:
            self._queued[group] = (rank, (waiting[1] if waiting is not None else 0) + 1, owed.lane)
        self._seq += 1
        heapq.heappush(queue, (rank, self._seq, owed, then, group))

    async def admitted(self, owed: Owed, rank: int = IN_TURN) -> None:
        """Wait for ``owed``'s slot (:meth:`admit`)."""
        if owed.admitted:
            return
        given: asyncio.Future[None] = self._loop.create_future()
        self.admit(owed, functools.partial(_done, given), rank)
        await given

    def release(self, owed: Owed) -> None:
        """``owed``'s slot is free for the next one (its answer is on its way, or its time is up)."""
        if owed.slot is None:
            return
        owed.slot.cancel()
        owed.slot = None
        self._held[owed.lane] -= 1
        self._fill(owed.lane)

    def _may_start(self, lane: int) -> bool:
        """Whether work of ``lane`` may start now: a form any time, the rest while no form is owed."""
        return lane == FORMS or not self._holding()

    def _holding(self) -> bool:
        """Whether the forms owed hold the rest back now (some owed, their stretch's time not up)."""
        return bool(self._forms) and not self._hold_over

    def _begin_hold(self) -> None:
        """A stretch of forms owed begins: it holds the rest back (:data:`FORMS_HOLD` at most), unless
        the last stretch's hold ended less than its own length ago."""
        now = self._loop.time()
        if now < self._rest_until:
            self._hold_over = True
            return
        self._held_from = now
        self._hold = self._loop.call_later(FORMS_HOLD, self._end_hold)

    def _hold_ends(self) -> None:
        """This stretch's hold ends now: as long a time follows in which none begins."""
        if self._hold is not None:
            self._hold.cancel()
            now = self._loop.time()
            self._rest_until = now + (now - self._held_from)
        self._hold = None

    def _end_hold(self) -> None:
        """The forms have held the rest back :data:`FORMS_HOLD`: everything starts, in order."""
        self._hold_ends()
        self._hold_over = True
        self._start_held()

    def _fill(self, lane: int) -> None:
        """The free slots of ``lane`` to the ones waiting, in their order (none while a form is owed,
        unless the lane is the forms')."""
        queue = self._queues[lane]
        while self._held[lane] < _slots(lane) and queue and self._may_start(lane):
            _, _, waiting, then, group = heapq.heappop(queue)
            if group is not None:
                rank, count, its_lane = self._queued[group]
                if count > 1:
                    self._queued[group] = (rank, count - 1, its_lane)
                else:
                    del self._queued[group]
            self._grant(waiting)
            self._loop.call_soon(then, context=contextvars.Context())  # in no task's context

    def behind_forms(self, then: Callable[[], None]) -> None:
        """``then()`` now if no form is owed, else once none is (in the order they came): work that
        takes no slot (a direct message's read: its reply takes one at its first step that waits)
        but should not fill the rounds of the loop the forms are opened in."""
        if self._holding() or self._behind:  # behind the ones held back before it, too
            self._behind.append(then)
        else:
            then()

    def _form_done(self, owed: Owed) -> None:
        """A form's answer went out (or its :data:`FORMS_AHEAD` is up): once no form is owed, the
        work held back starts, in order."""
        timer = self._forms.pop(owed, None)
        if timer is None:
            return
        timer.cancel()
        if self._forms:
            return
        self._hold_ends()
        self._hold_over = False
        self._start_held()

    def _start_held(self) -> None:
        """The free slots to the work waiting and the work held back started (in order)."""
        for lane in (ANSWER, REPLY):
            self._fill(lane)
        if self._behind:
            self._loop.call_soon(self._start_behind, context=contextvars.Context())  # in no task's context

    def _start_behind(self) -> None:
        """The work held back by the forms, in order, each in a context of its own (unless a form is
        owed again: then once it is not)."""
        while self._behind and not self._holding():
            contextvars.Context().run(self._behind.popleft())

    def _grant(self, owed: Owed) -> None:
        owed.admitted = True
        owed.slot = self._loop.call_later(SLOT_FOR, self.release, owed)
        self._held[owed.lane] += 1
        self.given.append(owed.key)
        del self.given[:-1000]

    # --- the work after the answers -------------------------------------------------------------------

    async def turn(self, patience: float = PATIENCE) -> float:
        """Wait while an answer owed before now is not sent (the ones owed later do not hold it back:
        under a steady load it waits for the few owed at the moment, in a burst for all of them),
        ``patience`` seconds at most; the seconds waited."""
        up_to = self._numbered
        if self._oldest() >= up_to or patience <= 0:
            return 0.0
        self.waited += 1
        began = self._loop.time()
        waiting: asyncio.Future[None] = self._loop.create_future()
        self._seq += 1
        heapq.heappush(self._waiting, (up_to, self._seq, waiting))
        timer = self._loop.call_later(patience, _done, waiting)
        try:
            await waiting
        finally:
            timer.cancel()
        return self._loop.time() - began


def _slots(lane: int) -> int:
    return FORM_SLOTS if lane == FORMS else SLOTS


_EARLY = 0.002  # seconds: the loop's timers may fire that much before their time


def _done(waiting: asyncio.Future[None]) -> None:
    if not waiting.done():
        waiting.set_result(None)


_turns: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Turns] = weakref.WeakKeyDictionary()


def turns() -> Turns:
    """The running loop's :class:`Turns`."""
    loop = asyncio.get_running_loop()
    with _guard:
        found = _turns.get(loop)
        if found is None:
            found = _turns[loop] = Turns(loop)
    return found


@contextlib.contextmanager
def working_for(owed: Owed) -> Iterator[Owed]:
    """Inside: the caller, and the tasks it starts (discord.py's handlers of an event), work for ``owed``
    (:func:`turn`) until it is paid (:func:`paid`)."""
    token = _FOR.set(owed)
    try:
        yield owed
    finally:
        _FOR.reset(token)


def paid(key: Hashable | None = None) -> None:
    """The answer owed for ``key`` (default: the one this task works for) has gone out."""
    if key is None:
        owed = _FOR.get()
        if owed is None or owed.paid:
            return
        key = owed.key
    turns().pay(key)


def owed_here() -> Owed | None:
    """The answer this task works for, while it is owed."""
    owed = _FOR.get()
    return owed if owed is not None and not owed.paid else None


def step_aside() -> None:
    """The owed answer this task works for now waits on work done for it elsewhere (a batch of direct
    messages' orders written by another task): its slot goes to the next one meanwhile."""
    owed = owed_here()
    if owed is not None:
        turns().release(owed)


@contextlib.contextmanager
def behind_own_work() -> Iterator[None]:
    """Inside: this task waits for work of the same person to end (their earlier direct message, still
    handled under their lock). Its owed answer cannot go out before that work does, so that work's
    steps after its own answer do not wait for it: they waited :data:`PATIENCE` for nothing, for each
    message of a player who sent several at once."""
    owed = owed_here()
    if owed is None:
        yield
        return
    found = turns()
    found.set_aside(owed, True)
    try:
        yield
    finally:
        found.set_aside(owed, False)


def busy() -> bool:
    """Whether many first answers are owed at once (a burst): a command whose answer takes work
    acknowledges at once rather than racing them (cogs.shared.replies.defer)."""
    return turns().owed(ANSWER) >= BUSY


async def turn() -> None:
    """Before a step that reads or writes the database or calls Discord. A step for an owed answer
    goes on (a direct message's reply first waits for its slot: :meth:`Turns.admitted`), and so does an
    urgent write (db.sqlite.urgent_writes: a batch of direct messages' orders, for their replies); any
    other waits while answers owed before it are not sent, :data:`PATIENCE` at most in all for its
    task. Never inside a database session: what it holds (SQLite's writer lock, a pooled connection)
    may be what an owed answer waits for."""
    if in_session() or writing_urgently():  # an urgent write is for answers owed (a batch of replies)
        return
    owed = owed_here()
    if owed is not None:
        if not owed.admitted:
            await turns().admitted(owed)
        return
    found = turns()
    if not found.owed(ANSWER) and not found.owed(REPLY):
        return
    now = asyncio.get_running_loop().time()
    since, waited = _WAITED.get()
    if now - since > PATIENCE_OVER:
        since, waited = now, 0.0
    if PATIENCE - waited > _EARLY:
        _WAITED.set((since, waited + await found.turn(PATIENCE - waited)))


def install() -> None:
    """Every database session of the process begins with :func:`turn` (db.database's admission)."""
    admit_sessions_with(turn)


__all__ = [
    "ANSWER",
    "FIRST",
    "FORMS",
    "FORM_SLOTS",
    "IN_TURN",
    "REPLY",
    "Owed",
    "Turns",
    "behind_own_work",
    "busy",
    "heavy",
    "install",
    "owed_here",
    "paid",
    "step_aside",
    "turn",
    "turns",
    "urgent_writes",
    "working_for",
]
