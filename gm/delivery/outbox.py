"""The outbox: messages to post, written in the same transaction as the change that caused them, sent
after commit by :func:`deliver_pending`.

Delivery is at-least-once, made effectively-once:
- each part of a message is recorded the moment Discord accepts it (never posted again), and the row
  is marked sent in its own short transaction right after its last part (or by that part's record,
  when the adapter does nothing more for the message), so the only window for a duplicate is a crash
  between Discord accepting a part and that part's record;
- every message carries a stable identity (``OutboxMessage.nonce``, random, drawn when queued) that the
  Discord adapter passes as the message nonce with ``enforce_nonce``, so Discord itself drops a resend
  of the same part within its dedup window; and the unique ``dedup_key`` stops the same event (a
  reminder, a phase's results) from ever being queued twice.
- a sender claims rows with a lease (``claimed_until``/``claim_token``) before sending, so two delivery
  loops (or two processes) never send the same row at once. A restarted bot releases its predecessor's
  claims at once (:func:`release_stale_claims`; with several processes, only those made under its own
  process name). A claim that ends without its sender's verdict (a
  crash, a stop cut short, a lease run out) counts as an attempt, so the adapter knows the message may
  be on Discord already (``OutboxMessage.first_tried_at``) and, past Discord's nonce window, looks for
  it before posting.
- messages to one target go out in the order they were written: once a row for a target cannot be sent
  yet, later rows for that target wait too.

Messages of different games go out concurrently (:func:`deliver_pending`): each game is a *lane* that
posts its messages one after the other, in the order they were written (the results before the calls
to order they set off, and so every channel's messages in order), while the lanes take turns at a
bounded number of posts in flight and a bounded rate, under Discord's global limit of 50 requests a
second. A channel Discord makes wait (429), or a slow upload, holds back its own game only.

The payloads are plain data (title, lines, fields, center counts, deadline, map references); the
adapter formats them. See gm/messages/kinds.py for each kind's payload.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any, Protocol

from sqlalchemy import and_, case, exists, func, or_, true, update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.database import SessionFactory
from db.models import Game, OutboxEntry, OutboxTarget, PhaseMap, PowerAssignment
from gm.anonymity import veil_for
from gm.clock import Clock, utcnow
from gm.delivery.shards import EVERYTHING, SINGLE, Ownership
from gm.messages.kinds import KINDS, Message, SeatOffer, read_message

log = logging.getLogger(__name__)

LEASE = timedelta(minutes=2)
INSTANCE = secrets.token_hex(4)
"""This run of the process. Every claim token is ``{process name}:{INSTANCE}:{random}``
(:func:`claim_prefix`), so that a restarted bot takes back the claims of the run it replaces at once
(:func:`release_stale_claims`) instead of waiting for their lease, and never a live sibling's."""
MAX_ATTEMPTS = 30
BATCH = 400
PAGE = 400  # unsent rows read at a time while looking for a batch
IN_FLIGHT = 8  # messages being posted at once (each to a different game)
CLAIM_EVERY = 0.2  # seconds: how often a delivery under way looks for new messages
PER_SECOND = 30.0  # messages started per second on average, all games together ...
BURST = 20.0  # ... after a burst of this many (Discord allows 50 requests a second)


@dataclass(frozen=True, slots=True)
class Target:
    """Where a message goes: the game channel, a power's private channel, one of the game's private
    places (a pair's thread or channel), or a user's DMs."""

    kind: OutboxTarget
    power: str | None = None
    user_id: int | None = None
    place_id: int | None = None

    @classmethod
    def game_channel(cls) -> Target:
        return cls(OutboxTarget.GAME_CHANNEL)

    @classmethod
    def power_channel(cls, power: str) -> Target:
        return cls(OutboxTarget.POWER_CHANNEL, power=power)

    @classmethod
    def user(cls, user_id: int) -> Target:
        return cls(OutboxTarget.USER, user_id=user_id)

    @classmethod
    def place(cls, place_id: int) -> Target:
        """One of the game's recorded private places by its id (a pair's thread or channel)."""
        return cls(OutboxTarget.PLACE, place_id=place_id)


def enqueue(
    session: AsyncSession,
    message: Message,
    *,
    target: Target,
    key: str,
    now: datetime,
    phase_id: int | None = None,
) -> OutboxEntry:
    """Add ``message`` (one of gm.messages.kinds) to the session's transaction. ``key`` names the event
    uniquely (see module doc)."""
    entry = OutboxEntry(
        game_id=message.game_id,
        phase_id=phase_id,
        kind=message.kind,
        target_kind=target.kind,
        target_power=target.power,
        target_user_id=target.user_id,
        target_place_id=target.place_id,
        payload=message.to_payload(),
        dedup_key=key,
        created_at=now,
        next_attempt_at=now,
        nonce=secrets.token_hex(8),
    )
    session.add(entry)
    return entry


async def existing_keys(session: AsyncSession, keys: Sequence[str]) -> set[str]:
    """Which of ``keys`` are queued already (for events that may be raised twice, like reminders)."""
    if not keys:
        return set()
    rows = await session.exec(select(OutboxEntry.dedup_key).where(col(OutboxEntry.dedup_key).in_(keys)))
    return set(rows.all())


# --- sending ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Attachment:
    filename: str
    data: bytes


@dataclass(frozen=True, slots=True)
class OutboxMessage:
    """One message, ready for an adapter: where it goes (a channel id or a user id), what it says."""

    id: int
    nonce: str  # stable across restarts, unique across databases; use it as the Discord message nonce
    kind: str
    game_id: int | None
    target_kind: str
    channel_id: int | None  # for game and power channels
    user_id: int | None  # for direct messages
    payload: dict[str, Any]
    attachments: tuple[Attachment, ...] = ()
    phase_id: int | None = None  # the phase it is about, when it is about one
    # Parts of this message an earlier attempt already posted, in order: (channel id, message id).
    # The adapter posts only the parts after these (a part is never posted twice) and reports each
    # part it posts through ``record_part`` the moment Discord accepts it.
    sent_parts: tuple[tuple[int, int], ...] = ()
    first_tried_at: datetime | None = None  # when an attempt was first made (None: this is the first)
    # ``last``: nothing more is done for the message after that part (the record marks it sent too).
    record_part: Callable[[int, int, bool], Awaitable[None]] | None = field(default=None, compare=False)
    # The Discord message ids the other messages to the same target became: when the adapter looks
    # for an earlier post of a part, none of these is it, however alike they read (two alerts' calls).
    posted_by_others: Callable[[], Awaitable[frozenset[int]]] | None = field(default=None, compare=False)

    @property
    def content(self) -> Message:
        """What the message says, typed (gm.messages.kinds)."""
        return read_message(self.kind, self.payload)


SentMessages = Sequence[tuple[int, int]]
"""What a message became on the chat server: (channel id, message id) of each part posted."""


class SendError(Exception):
    pass


class RetriableSendError(SendError):
    """Try again later (rate limit, network, Discord 5xx)."""


class NotYetSendable(RetriableSendError):
    """Nothing was tried: the adapter cannot render the message faithfully yet (it is not connected).
    The row is put back as it was (no attempt counted, no back-off) and its target waits for the next
    delivery, which the adapter asks for once it can."""


class PermanentSendError(SendError):
    """Will never work (channel deleted, DMs closed): the row is marked failed and not retried."""


class OutboxSender(Protocol):
    async def send(self, message: OutboxMessage) -> SentMessages | None:
        """Post the message; raise RetriableSendError or PermanentSendError when it was not posted.
        May return the ids of what it posted (kept on the row, see :func:`sent_messages_of`)."""
        ...


@dataclass(slots=True)
class DeliveryReport:
    sent: int = 0
    retrying: int = 0  # failed this time, will be tried again
    failed: int = 0  # given up
    pending: int = 0  # still unsent afterwards: due later, target not known yet, or held behind another
    errors: list[str] = field(default_factory=list)


class Pace:
    """At most ``rate`` starts a second on average, with bursts of ``burst`` (a token bucket), for
    every caller together."""

    def __init__(self, rate: float = PER_SECOND, burst: float = BURST) -> None:
        self._rate = rate
        self._burst = burst
        self._tokens = burst
        self._at = time.monotonic()

    async def wait(self) -> None:
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._at) * self._rate) - 1
        self._at = now
        if self._tokens < 0:  # this start is booked: wait until its token has come
            await asyncio.sleep(-self._tokens / self._rate)


PACE = Pace()  # the process's: Discord's global limit is per bot, whoever sends


def claim_prefix(process: str = SINGLE) -> str:
    """How every claim token of this run of process ``process`` starts (see :data:`INSTANCE`)."""
    return f"{process}:{INSTANCE}:"


async def deliver_pending(
    session_factory: SessionFactory,
    sender: OutboxSender,
    *,
    clock: Clock = utcnow,
    limit: int | None = None,
    in_flight: int = IN_FLIGHT,
    pace: Pace | None = None,
    ownership: Ownership = EVERYTHING,
    process: str = SINGLE,
) -> DeliveryReport:
    """Send every unsent message that is due, oldest first; see the module docstring for guarantees.

    With several processes (``ownership`` short of everything) only the messages of games on this
    process's servers are claimed, and the direct messages about no game if it owns shard 0; the
    claims carry the process's name ``process`` (:func:`claim_prefix`).

    Claimed rows go to lanes, one per game (or per user, for direct messages about no game); a lane
    sends its rows in order, and the lanes take turns at ``in_flight`` sends at once, started no
    faster than ``pace`` allows (default: :data:`PER_SECOND` a second). While lanes are sending, new
    rows are claimed every :data:`CLAIM_EVERY` seconds and join their game's lane (or start one), so a
    game closed during a long delivery is announced without waiting for the others' messages."""
    delivery = _Delivery(
        session_factory, sender, clock, limit, ownership, process, asyncio.Semaphore(in_flight), pace or PACE
    )
    try:
        while await delivery.next_round():
            pass
    except BaseException:
        await delivery.cancel()
        raise
    async with session_factory.read() as session:
        delivery.report.pending = await pending_count(session, ownership)
    return delivery.report


@dataclass(slots=True)
class _Delivery:
    """One call of :func:`deliver_pending`: its lanes, and what they share (the report, the targets
    held back, the sends in flight, the pace)."""

    session_factory: SessionFactory
    sender: OutboxSender
    clock: Clock
    limit: int | None
    ownership: Ownership
    process: str
    slots: asyncio.Semaphore
    pace: Pace
    report: DeliveryReport = field(default_factory=DeliveryReport)
    seen: set[int] = field(default_factory=set)
    blocked: set[tuple[Any, ...]] = field(default_factory=set)  # targets with a row not sendable now
    queues: dict[tuple[Any, ...], deque[tuple[OutboxEntry, str]]] = field(default_factory=dict)
    lanes: dict[tuple[Any, ...], asyncio.Task[None]] = field(default_factory=dict)

    def _under_limit(self) -> bool:
        return self.limit is None or self.report.sent < self.limit

    async def next_round(self) -> bool:
        """Claim what is due and hand it to the lanes, then wait (at most :data:`CLAIM_EVERY`
        seconds) for a lane to finish; False once nothing runs and nothing more was claimed."""
        claimed = await self._claim()
        running = [task for task in self.lanes.values() if not task.done()]
        if not running:
            for task in self.lanes.values():
                task.result()  # a lane that failed fails the delivery
            return bool(claimed)
        done, _ = await asyncio.wait(running, timeout=CLAIM_EVERY, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            task.result()
        return True

    async def _claim(self) -> list[OutboxEntry]:
        """Claim the next batch (none once ``limit`` messages were sent) and queue each row in its lane,
        starting the lane when it is not running."""
        if not self._under_limit():
            return []
        token = claim_prefix(self.process) + secrets.token_hex(5)
        claimed = await _claim_batch(self.session_factory, token, self.clock(), self.seen, self.ownership)
        for entry in claimed:
            self.seen.add(entry.row_id)
            key = _lane_key(entry)
            queue = self.queues.setdefault(key, deque())
            queue.append((entry, token))
            if key not in self.lanes or self.lanes[key].done():
                self.lanes[key] = asyncio.create_task(self._run_lane(queue), name=f"outbox lane {key}")
        return claimed

    async def _run_lane(self, queue: deque[tuple[OutboxEntry, str]]) -> None:
        """Send a lane's rows in order; a row whose target is held back (or past ``limit``) is released
        unsent, and a row that cannot be sent now holds back the rest of its target's."""
        while queue:
            entry, token = queue.popleft()
            target = _target_key(entry)
            if target in self.blocked or not self._under_limit():
                await _release(self.session_factory, entry, token)
                continue
            async with self.slots:
                await self.pace.wait()
                if not await _deliver_one(
                    self.session_factory, self.sender, entry, token, self.clock, self.report
                ):
                    self.blocked.add(target)

    async def cancel(self) -> None:
        for task in self.lanes.values():
            task.cancel()
        await asyncio.gather(*self.lanes.values(), return_exceptions=True)


async def _deliver_one(
    session_factory: SessionFactory,
    sender: OutboxSender,
    entry: OutboxEntry,
    token: str,
    clock: Clock,
    report: DeliveryReport,
) -> bool:
    """Send one claimed row; False when its target must wait (not sendable yet, or to be retried)."""
    finish = _Finish(token, clock, entry.attempts)
    message = await _resolve(session_factory, entry, finish)
    if message is None:
        await _release(session_factory, entry, token)
        return False
    try:
        posted = await sender.send(message)
    except NotYetSendable:
        await _release(session_factory, entry, token)
        return False
    except PermanentSendError as exc:
        await _mark_failed(session_factory, entry, token, clock(), str(exc))
        report.failed += 1
        report.errors.append(f"outbox {entry.id}: {exc}")
        return True
    except Exception as exc:  # anything else is worth another try
        if not isinstance(exc, RetriableSendError):
            log.exception("outbox %s: unexpected error while sending", entry.id)
        gave_up = await _mark_retry(session_factory, entry, token, clock(), in_words(exc))
        report.failed += gave_up
        report.retrying += not gave_up
        report.errors.append(f"outbox {entry.id}: {in_words(exc)}")
        return False
    if not finish.done:  # else the last part's record marked it sent
        await _mark_sent(session_factory, entry, token, clock(), posted)
    report.sent += 1
    return True


def in_words(exc: BaseException) -> str:
    """An error as an operator reads it (/admin status, the log): its message, not Python's repr; the
    kind named only when it says something the message does not (a timeout, a lost connection)."""
    text = str(exc).strip()
    if isinstance(exc, SendError) and text:
        return text
    kind = {TimeoutError: "timed out", ConnectionError: "connection lost"}
    for cls, words in kind.items():
        if isinstance(exc, cls):
            return f"{words}: {text}" if text else words
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _lane_key(entry: OutboxEntry) -> tuple[Any, ...]:
    """The lane a row is sent in: its game's, or for a direct message about no game its user's."""
    if entry.game_id is not None:
        return ("game", entry.game_id)
    return ("user", entry.target_user_id)


def _target_key(entry: OutboxEntry) -> tuple[Any, ...]:
    return (entry.target_kind, entry.game_id, entry.target_power, entry.target_user_id, entry.target_place_id)


async def _claim_batch(
    session_factory: SessionFactory,
    token: str,
    now: datetime,
    seen: set[int],
    ownership: Ownership = EVERYTHING,
) -> list[OutboxEntry]:
    """Claim the next due rows, oldest first, skipping targets that have an earlier row not sendable now.

    Rows whose channel is not recorded yet, and rows another process owns (``ownership``), are left
    out by the query (all of a target's rows alike, so its order holds); the rest is read page by
    page, so that however many rows wait for a retry, newer messages to other targets are still
    found. Whether there is anything to claim is read first, without a writer's turn: most calls find
    nothing (a delivery's last round, a delivery asked for with nothing due)."""
    async with session_factory.read() as session:
        if not await _due_rows(session, now, seen, ownership, enough=1):
            return []
    async with session_factory() as session:
        chosen = await _due_rows(session, now, seen, ownership)
        if not chosen:
            await session.commit()
            return []
        await _lease(session, chosen, token, now)
        await session.commit()
        claimed = (
            await session.exec(
                select(OutboxEntry).where(col(OutboxEntry.claim_token) == token).order_by(col(OutboxEntry.id))
            )
        ).all()
        return list(claimed)


async def _due_rows(
    session: AsyncSession, now: datetime, seen: set[int], ownership: Ownership, enough: int = BATCH
) -> list[int]:
    """The ids of up to ``enough`` rows to claim, read :data:`PAGE` rows at a time: due, not leased,
    not already taken by this delivery, and with no earlier row of their target held back."""
    blocked: set[tuple[Any, ...]] = set()
    chosen: list[int] = []
    after = 0
    while len(chosen) < enough:
        rows = await _unsent_page(session, after, ownership)
        for row in rows:
            target = _target_key(row)
            leased = row.claimed_until is not None and row.claimed_until > now
            if target in blocked or row.next_attempt_at > now or leased or row.id in seen:
                blocked.add(target)
                continue
            chosen.append(row.row_id)
            if len(chosen) >= enough:
                break
        if len(rows) < PAGE:
            break
        after = rows[-1].row_id
    return chosen


async def _unsent_page(session: AsyncSession, after: int, ownership: Ownership) -> Sequence[OutboxEntry]:
    """The next :data:`PAGE` unsent rows past id ``after`` whose destination is known and ours."""
    return (
        await session.exec(
            select(OutboxEntry)
            .where(
                col(OutboxEntry.sent_at).is_(None),
                col(OutboxEntry.failed_at).is_(None),
                col(OutboxEntry.id) > after,
                _destination_known(),
                _owned(ownership),
            )
            .order_by(col(OutboxEntry.id))
            .limit(PAGE)
        )
    ).all()


async def _lease(session: AsyncSession, chosen: list[int], token: str, now: datetime) -> None:
    """Put this claim (``token``, for :data:`LEASE`) on the chosen rows still unsent and unleased."""
    await session.exec(
        update(OutboxEntry)
        .where(
            col(OutboxEntry.id).in_(chosen),
            col(OutboxEntry.sent_at).is_(None),
            (col(OutboxEntry.claimed_until).is_(None)) | (col(OutboxEntry.claimed_until) <= now),
        )
        .values(
            claimed_until=now + LEASE,
            claim_token=token,
            # A claim still on the row was never answered by its sender: it froze past its lease
            # (or died, and nobody released its claims), maybe after Discord took the message.
            # That attempt counts (see _ONE_MORE_ATTEMPT).
            attempts=case(
                (col(OutboxEntry.claim_token).is_not(None), col(OutboxEntry.attempts) + 1),
                else_=col(OutboxEntry.attempts),
            ),
        )
    )


def _owned(ownership: Ownership) -> Any:
    """SQL: the row is this process's to send: its game is on one of our servers, or it is about no
    game and we own the direct messages (shard 0)."""
    if ownership.owns_all:
        return true()
    ours = exists().where(
        col(Game.id) == col(OutboxEntry.game_id), ownership.guild_clause(col(Game.guild_id))
    )
    if ownership.owns_direct_messages:
        return or_(col(OutboxEntry.game_id).is_(None), ours)
    return ours


def _destination_known() -> Any:
    """SQL: the row goes to a user, or to a channel the adapter has recorded."""
    game_channel = exists().where(
        col(Game.id) == col(OutboxEntry.game_id), col(Game.game_channel_id).is_not(None)
    )
    power_channel = exists().where(
        col(PowerAssignment.game_id) == col(OutboxEntry.game_id),
        col(PowerAssignment.power) == col(OutboxEntry.target_power),
        col(PowerAssignment.channel_id).is_not(None),
    )
    return or_(
        col(OutboxEntry.target_kind) == OutboxTarget.USER,
        and_(col(OutboxEntry.target_kind) == OutboxTarget.GAME_CHANNEL, game_channel),
        and_(col(OutboxEntry.target_kind) == OutboxTarget.POWER_CHANNEL, power_channel),
        # a private place is known once recorded, and used once the game's set-up has finished
        and_(col(OutboxEntry.target_kind) == OutboxTarget.PLACE, game_channel),
    )


SETUP_WAIT = timedelta(minutes=1)
"""How long a welcome waits for its opening map while its game is being set up (gm.setup.games
.opening_map): the start draws it before it records the game's channels; then it goes without."""


async def _resolve(
    session_factory: SessionFactory, entry: OutboxEntry, finish: _Finish | None = None
) -> OutboxMessage | None:
    """The message with its destination and attachments, or None while the destination is unknown or
    a picture it requires has not been stored yet. ``finish``: how its last part's record marks it
    sent (:func:`_record_part`)."""
    async with session_factory.read() as session:
        known, channel_id = await _channel_of(session, entry)
        if not known:
            return None
        attachments = await _attachments(session, entry)
        if attachments is None:
            return None
        veil = await veil_for(
            session, entry.game_id, entry.target_kind, power=entry.target_power, user_id=entry.target_user_id
        )
    return OutboxMessage(
        id=entry.row_id,
        nonce=entry.nonce or f"gm{entry.id}",
        kind=entry.kind,
        game_id=entry.game_id,
        target_kind=entry.target_kind,
        channel_id=channel_id,
        user_id=entry.target_user_id,
        payload=veil(entry.payload) if veil else entry.payload,  # an anonymous game's (gm.anonymity)
        attachments=tuple(attachments),
        phase_id=entry.phase_id,
        sent_parts=tuple((int(c), int(m)) for c, m in (entry.sent_messages or ())),
        first_tried_at=entry.created_at if entry.attempts or entry.sent_messages else None,
        record_part=partial(_record_part, session_factory, entry.row_id, finish),
        posted_by_others=partial(_posted_by_others, session_factory, entry),
    )


async def _channel_of(session: AsyncSession, entry: OutboxEntry) -> tuple[bool, int | None]:
    """Whether the message's destination is known yet, and its channel (None for a direct message:
    the adapter opens it). A game's or a power's channel is known once the set-up recorded it."""
    if entry.target_kind == OutboxTarget.GAME_CHANNEL:
        game = await session.get(Game, entry.game_id)
        channel_id = game.game_channel_id if game else None
        return channel_id is not None, channel_id
    if entry.target_kind == OutboxTarget.POWER_CHANNEL:
        assignment = (
            await session.exec(
                select(PowerAssignment).where(
                    PowerAssignment.game_id == entry.game_id, PowerAssignment.power == entry.target_power
                )
            )
        ).first()
        channel_id = assignment.channel_id if assignment else None
        return channel_id is not None, channel_id
    if entry.target_kind == OutboxTarget.PLACE:
        return True, entry.target_place_id
    return True, None


async def _attachments(session: AsyncSession, entry: OutboxEntry) -> list[Attachment] | None:
    """The pictures the message carries, or None while one must be waited for: a required one not
    stored yet (the final post's GIF), or a welcome's opening map while its game is set up."""
    attachments = []
    setting_up: bool | None = None  # the game's start still at work (no game channel yet)
    for ref in entry.payload.get("maps", ()):
        png = (
            await session.exec(
                select(PhaseMap.png).where(PhaseMap.phase_id == ref["phase_id"], PhaseMap.kind == ref["kind"])
            )
        ).first()
        if png is not None:
            attachments.append(Attachment(ref["filename"], png))
        elif ref.get("required"):  # not stored yet (the final post's GIF): wait for it
            return None
        elif ref.get("setup") and utcnow() - entry.created_at < SETUP_WAIT:
            # a welcome's opening map, drawn while the game is set up: waited for a while
            if setting_up is None:
                game = await session.get(Game, entry.game_id)
                setting_up = game is not None and game.game_channel_id is None
            if setting_up:
                return None
    return attachments


# A claim released without its sender's verdict (sent, retry, failed) was an attempt that may have
# posted the message, or some of its parts, before the process died or stopped: it counts, so that
# the adapter knows (OutboxMessage.first_tried_at) and, past Discord's nonce window, looks for the
# message in the channel before posting it. Rows claimed in the same batch but not reached yet count
# too: at worst that costs a look at the channel.
_ONE_MORE_ATTEMPT: dict[str, Any] = {
    "claimed_until": None,
    "claim_token": None,
    "attempts": col(OutboxEntry.attempts) + 1,
}


async def release_stale_claims(session_factory: SessionFactory, process: str | None = None) -> int:
    """Release the claims of the run this one replaces (call at start-up). Returns how many were
    released; each counts as an attempt.

    One process (``process`` None) sends all of a database's messages, so every claim not made by
    this run is its predecessor's, dead with it. A process among several (``process``: its name)
    releases only the claims of earlier runs under the same name: its siblings' claims are alive,
    and a dead sibling's lapse with their lease (:data:`LEASE`)."""
    own = claim_prefix(process or SINGLE)
    stale = ~col(OutboxEntry.claim_token).startswith(own, autoescape=True)
    if process is not None:
        stale = and_(stale, col(OutboxEntry.claim_token).startswith(f"{process}:", autoescape=True))
    async with session_factory() as session:
        result = await session.exec(
            update(OutboxEntry)
            .where(col(OutboxEntry.sent_at).is_(None), col(OutboxEntry.claim_token).is_not(None), stale)
            .values(**_ONE_MORE_ATTEMPT)
        )
        await session.commit()
    return int(result.rowcount or 0)


async def release_own_claims(session_factory: SessionFactory, process: str = SINGLE) -> int:
    """Release the claims this run of process ``process`` holds on unsent messages (a stop that cut a
    delivery short), so that the next start sends them at once; returns how many. Each counts as an
    attempt."""
    async with session_factory() as session:
        result = await session.exec(
            update(OutboxEntry)
            .where(
                col(OutboxEntry.sent_at).is_(None),
                col(OutboxEntry.claim_token).startswith(claim_prefix(process), autoescape=True),
            )
            .values(**_ONE_MORE_ATTEMPT)
        )
        await session.commit()
    return int(result.rowcount or 0)


OTHERS_LOOKED_AT = 200  # the latest messages to a target whose posts _posted_by_others returns


async def _posted_by_others(session_factory: SessionFactory, entry: OutboxEntry) -> frozenset[int]:
    """The Discord message ids recorded for the latest other messages to ``entry``'s target."""
    async with session_factory.read() as session:
        rows = await session.exec(
            select(OutboxEntry.sent_messages)
            .where(
                col(OutboxEntry.id) != entry.id,
                col(OutboxEntry.game_id) == entry.game_id,
                col(OutboxEntry.target_kind) == entry.target_kind,
                col(OutboxEntry.target_power) == entry.target_power,
                col(OutboxEntry.target_user_id) == entry.target_user_id,
                col(OutboxEntry.sent_messages).is_not(None),
            )
            .order_by(col(OutboxEntry.id).desc())
            .limit(OTHERS_LOOKED_AT)
        )
        found = frozenset(int(message_id) for posted in rows.all() for _, message_id in posted or ())
    return found


@dataclass(slots=True)
class _Finish:
    """A claimed row's sending: its claim, and whether its last part's record marked it sent."""

    token: str
    clock: Clock
    attempts: int  # the row's attempts when claimed
    done: bool = False


async def _record_part(
    session_factory: SessionFactory,
    entry_id: int,
    finish: _Finish | None,
    channel_id: int,
    message_id: int,
    last: bool = False,
) -> None:
    """One more part of a message is on Discord: remember it at once, so that however the rest of the
    attempt ends (a crash, a failed part, a failed "mark sent"), that part is never posted again.

    ``last``: the adapter does nothing more for this message after it (no effect after posting, no
    edit): the same transaction marks the row sent, as :func:`_mark_sent` would right after (while
    the row is still this attempt's claim: ``finish``), instead of a transaction of its own."""
    async with session_factory() as session:
        entry = await session.get(OutboxEntry, entry_id)
        sent = False
        if entry is not None:
            entry.sent_messages = [*(entry.sent_messages or []), [int(channel_id), int(message_id)]]
            if last and finish is not None and entry.claim_token == finish.token:
                released = {
                    **_sent(finish.clock(), finish.attempts),
                    "claimed_until": None,
                    "claim_token": None,
                }
                for name, value in released.items():
                    setattr(entry, name, value)
                sent = True
        await session.commit()
    if sent and finish is not None:
        finish.done = True


async def _update_claimed(
    session_factory: SessionFactory, entry: OutboxEntry, token: str, **values: Any
) -> int:
    async with session_factory() as session:
        result = await session.exec(
            update(OutboxEntry)
            .where(col(OutboxEntry.id) == entry.id, col(OutboxEntry.claim_token) == token)
            .values(claimed_until=None, claim_token=None, **values)
        )
        await session.commit()
        return int(result.rowcount or 0)


async def _release(session_factory: SessionFactory, entry: OutboxEntry, token: str) -> None:
    await _update_claimed(session_factory, entry, token)


def _sent(now: datetime, attempts: int) -> dict[str, Any]:
    """The values that mark a row sent at ``now`` (``attempts``: its attempts when claimed); its claim
    is let go beside them (:func:`_update_claimed`, :func:`_record_part`)."""
    return {"sent_at": now, "attempts": attempts + 1, "last_error": None}


async def _mark_sent(
    session_factory: SessionFactory,
    entry: OutboxEntry,
    token: str,
    now: datetime,
    posted: SentMessages | None = None,
) -> None:
    await _update_claimed(
        session_factory,
        entry,
        token,
        **_sent(now, entry.attempts),
        **({"sent_messages": [[int(c), int(m)] for c, m in posted]} if posted else {}),
    )


async def _mark_failed(
    session_factory: SessionFactory, entry: OutboxEntry, token: str, now: datetime, error: str
) -> None:
    await _update_claimed(
        session_factory, entry, token, failed_at=now, attempts=entry.attempts + 1, last_error=error[:2000]
    )


async def _mark_retry(
    session_factory: SessionFactory, entry: OutboxEntry, token: str, now: datetime, error: str
) -> bool:
    """Schedule another attempt with exponential back-off; True when the attempts are used up."""
    attempts = entry.attempts + 1
    if attempts >= MAX_ATTEMPTS:
        await _mark_failed(session_factory, entry, token, now, f"gave up after {attempts} attempts: {error}")
        return True
    delay = min(timedelta(seconds=5 * 2 ** (attempts - 1)), timedelta(hours=1))
    await _update_claimed(
        session_factory, entry, token, attempts=attempts, last_error=error[:2000], next_attempt_at=now + delay
    )
    return False


async def sent_messages_of(
    session: AsyncSession, game_id: int, phase_id: int, kinds: Sequence[str], *, before_id: int
) -> list[tuple[int, int]]:
    """(channel id, message id) of every part posted for the game's messages of these kinds about
    this phase, written before outbox row ``before_id`` (a rollback's: the results it voids)."""
    rows = await session.exec(
        select(OutboxEntry.sent_messages)
        .where(
            OutboxEntry.game_id == game_id,
            OutboxEntry.phase_id == phase_id,
            col(OutboxEntry.kind).in_(kinds),
            col(OutboxEntry.id) < before_id,
            col(OutboxEntry.sent_messages).is_not(None),
        )
        .order_by(col(OutboxEntry.id))
    )
    return [(int(c), int(m)) for posted in rows.all() for c, m in posted or ()]


# the posts whose seats a replacement marks taken: every kind that offers seats (SeatOffer: the start,
# a player who left, civil disorder)
SEAT_KINDS = tuple(kind for kind, cls in KINDS.items() if issubclass(cls, SeatOffer))


async def seat_posts(
    session: AsyncSession, game_id: int, powers: Sequence[str], *, before_id: int
) -> list[tuple[int, int]]:
    """(channel id, message id) of the game channel's posts offering a seat of ``powers`` (the start,
    a player left, civil disorder), written before outbox row ``before_id`` (the announcement that the seat
    was filled): to say on them that it is taken."""
    rows = await session.exec(
        select(OutboxEntry.sent_messages, OutboxEntry.payload)
        .where(
            OutboxEntry.game_id == game_id,
            col(OutboxEntry.kind).in_(SEAT_KINDS),
            OutboxEntry.target_kind == OutboxTarget.GAME_CHANNEL,
            col(OutboxEntry.id) < before_id,
            col(OutboxEntry.sent_messages).is_not(None),
        )
        .order_by(col(OutboxEntry.id))
    )
    wanted = set(powers)
    return [
        (int(c), int(m))
        for posted, payload in rows.all()
        if any(wanted & set(seat) for seat in (payload or {}).get("open_seats") or ())
        for c, m in posted or ()
    ]


async def pending_count(session: AsyncSession, ownership: Ownership = EVERYTHING) -> int:
    """Messages neither sent nor given up (of those ``ownership`` makes this process's)."""
    rows = await session.exec(
        select(func.count())
        .select_from(OutboxEntry)
        .where(col(OutboxEntry.sent_at).is_(None), col(OutboxEntry.failed_at).is_(None), _owned(ownership))
    )
    return int(rows.one())


async def oldest_pending(session: AsyncSession, ownership: Ownership = EVERYTHING) -> datetime | None:
    """When the oldest message still waiting (neither sent nor given up) was queued."""
    return (await pending_backlog(session, ownership))[1]


async def pending_backlog(
    session: AsyncSession, ownership: Ownership = EVERYTHING
) -> tuple[int, datetime | None]:
    """:func:`pending_count` and :func:`oldest_pending` in one statement (/healthz asks both each time)."""
    rows = await session.exec(
        select(func.count(), func.min(OutboxEntry.created_at)).where(
            col(OutboxEntry.sent_at).is_(None), col(OutboxEntry.failed_at).is_(None), _owned(ownership)
        )
    )
    count, oldest = rows.one()
    if isinstance(oldest, str):  # SQLite hands an aggregate of a date column back as text
        oldest = datetime.fromisoformat(oldest)
    if oldest is not None and oldest.tzinfo is None:
        oldest = oldest.replace(tzinfo=UTC)
    return int(count), oldest
