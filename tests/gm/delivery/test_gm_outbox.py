"""The outbox: every message sent once, in order per target, retried when Discord says "later"."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import select

from db.database import SessionFactory, make_engine, make_session_factory
from db.migrate import upgrade_database
from db.models import OutboxEntry
from gm.clock import utcnow
from gm.delivery.outbox import (
    NotYetSendable,
    OutboxMessage,
    Pace,
    PermanentSendError,
    RetriableSendError,
    Target,
    deliver_pending,
    enqueue,
    release_own_claims,
    release_stale_claims,
)
from gm.messages.kinds import Message
from gm.setup import games
from tests.gm.conftest import T0, make_started_game
from tests.helpers.gm import RecordingSender, queue

pytestmark = [
    pytest.mark.waits,  # processes or real time: spread through the run (tests/conftest.py)
    pytest.mark.both_backends,  # on PostgreSQL too: the outbox's claims: row locks and leases
]


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def titles(sender: RecordingSender) -> list[str]:
    return [m.payload["title"] for m in sender.sent]


async def test_messages_wait_for_the_game_channel_then_go_once_in_order(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    sender = RecordingSender()
    report = await deliver_pending(sessions, sender, clock=Clock(T0))
    assert [m.kind for m in sender.sent] == ["game_full"] + ["welcome"] * 7  # DMs need no channel
    assert report.pending == 1  # game_started waits for its channel
    async with sessions.begin() as s:
        await games.set_game_channels(s, started.game.id, game_channel_id=4242)
    report = await deliver_pending(sessions, sender, clock=Clock(T0))
    assert report.sent == 1 and report.pending == 0
    assert sender.sent[-1].kind == "game_started" and sender.sent[-1].channel_id == 4242
    again = await deliver_pending(sessions, sender, clock=Clock(T0))
    assert again.sent == 0 and len(sender.sent) == 9
    assert len({m.nonce for m in sender.sent}) == 9


async def test_a_retriable_failure_holds_back_that_target_only(sessions: SessionFactory) -> None:
    await queue(sessions, None, Target.user(1), 3, "a")
    await queue(sessions, None, Target.user(2), 2, "b")
    flaky = {"a0": 2}  # fails twice, then works

    def fail(message: OutboxMessage) -> Exception | None:
        title = message.payload["title"]
        if flaky.get(title):
            flaky[title] -= 1
            return RetriableSendError("429 Too Many Requests")
        return None

    sender = RecordingSender(fail)
    clock = Clock(T0)
    report = await deliver_pending(sessions, sender, clock=clock)
    assert titles(sender) == ["b0", "b1"]  # user 1's messages wait behind a0
    assert report.retrying == 1 and report.pending == 3
    await deliver_pending(sessions, sender, clock=clock)
    assert titles(sender) == ["b0", "b1"]  # a0 is not due again yet
    clock.now += timedelta(seconds=6)
    await deliver_pending(sessions, sender, clock=clock)  # second failure, backs off 10 s
    clock.now += timedelta(seconds=11)
    report = await deliver_pending(sessions, sender, clock=clock)
    assert titles(sender) == ["b0", "b1", "a0", "a1", "a2"]
    assert report.pending == 0
    async with sessions() as s:
        a0 = (await s.exec(select(OutboxEntry).where(OutboxEntry.dedup_key == "a:0"))).one()
    assert a0.attempts == 3 and a0.sent_at is not None


async def test_a_permanent_failure_is_recorded_and_not_retried(sessions: SessionFactory) -> None:
    await queue(sessions, None, Target.user(1), 2, "a")

    def fail(message: OutboxMessage) -> Exception | None:
        return (
            PermanentSendError("Cannot send messages to this user")
            if message.payload["title"] == "a0"
            else None
        )

    sender = RecordingSender(fail)
    report = await deliver_pending(sessions, sender, clock=Clock(T0))
    assert report.failed == 1 and titles(sender) == ["a1"]
    async with sessions() as s:
        a0 = (await s.exec(select(OutboxEntry).where(OutboxEntry.dedup_key == "a:0"))).one()
    assert a0.failed_at is not None and "Cannot send" in (a0.last_error or "")
    report = await deliver_pending(sessions, sender, clock=Clock(T0 + timedelta(days=1)))
    assert report.sent == 0 and titles(sender) == ["a1"]


async def test_two_deliveries_at_once_send_each_message_once(sessions: SessionFactory) -> None:
    await queue(sessions, None, Target.user(1), 5, "a")
    await queue(sessions, None, Target.user(2), 5, "b")
    sender = RecordingSender(delay=0.01)
    await asyncio.gather(
        deliver_pending(sessions, sender, clock=Clock(T0)), deliver_pending(sessions, sender, clock=Clock(T0))
    )
    assert sorted(titles(sender)) == sorted([f"a{i}" for i in range(5)] + [f"b{i}" for i in range(5)])
    assert [t for t in titles(sender) if t[0] == "a"] == [f"a{i}" for i in range(5)]


async def test_every_message_is_sent_once_across_a_restart(engine: AsyncEngine, database_url: str) -> None:
    sessions = make_session_factory(engine)
    await queue(sessions, None, Target.user(1), 6, "a")
    sent_before_crash: list[OutboxMessage] = []

    class CrashingSender(RecordingSender):
        async def send(self, message: OutboxMessage) -> None:
            sent_before_crash.append(message)
            if len(sent_before_crash) == 3:
                raise asyncio.CancelledError  # the bot is killed while Discord takes the 3rd message

    with pytest.raises(asyncio.CancelledError):
        await deliver_pending(sessions, CrashingSender(), clock=Clock(T0))
    await engine.dispose()

    restarted = make_engine(database_url)
    try:
        sender = RecordingSender()
        early = await deliver_pending(
            make_session_factory(restarted), sender, clock=Clock(T0 + timedelta(seconds=1))
        )
        assert early.sent == 0  # the crashed sender still holds its leases (2 minutes)
        late = await deliver_pending(
            make_session_factory(restarted), sender, clock=Clock(T0 + timedelta(minutes=3))
        )
        assert late.sent == 4 and late.pending == 0
    finally:
        await restarted.dispose()
    assert titles(sender) == ["a2", "a3", "a4", "a5"]
    # a2 may have reached Discord before the crash: it is sent again with the same nonce, which
    # Discord's enforce_nonce turns into the same message; a0 and a1 are never sent again.
    assert sender.sent[0].nonce == sent_before_crash[2].nonce


async def test_hundreds_of_messages_for_a_channel_never_recorded_do_not_hold_back_a_dm(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)  # its channels are never recorded
    await queue(sessions, started.game.id, Target.game_channel(), 401, "stuck")
    await queue(sessions, None, Target.user(77), 1, "dm")
    sender = RecordingSender()
    report = await deliver_pending(sessions, sender, clock=Clock(T0))
    assert "dm0" in titles(sender)
    assert report.pending == 402  # the game_started announcement and the 401 wait for the channel


async def test_hundreds_of_messages_waiting_to_be_retried_do_not_hold_back_a_dm(
    sessions: SessionFactory,
) -> None:
    await queue(sessions, None, Target.user(5), 401, "later")
    await queue(sessions, None, Target.user(77), 1, "dm")
    async with sessions() as s:  # Discord said "later" for user 5: backing off
        for row in (await s.exec(select(OutboxEntry).where(OutboxEntry.target_user_id == 5))).all():
            row.next_attempt_at = T0 + timedelta(minutes=10)
        await s.commit()
    sender = RecordingSender()
    report = await deliver_pending(sessions, sender, clock=Clock(T0))
    assert titles(sender) == ["dm0"]
    assert report.pending == 401


async def test_nonces_are_random_so_two_databases_never_share_one(
    sessions: SessionFactory, tmp_path: Path
) -> None:
    """Row ids repeat across databases (a restored backup, a second instance); nonces must not, or
    Discord drops the second message as a duplicate of the first."""
    other_engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'other.db'}")
    await upgrade_database(other_engine)
    other = make_session_factory(other_engine)
    try:
        seen: list[tuple[int, str]] = []
        for factory in (sessions, other):
            await queue(factory, None, Target.user(77), 1, "same")
            sender = RecordingSender()
            await deliver_pending(factory, sender, clock=lambda: T0 + timedelta(days=1))
            seen.extend((m.id, m.nonce) for m in sender.sent)
        assert seen[0][0] == seen[1][0], "the same row id in both databases"
        assert seen[0][1] != seen[1][1] and len(seen[0][1]) <= 20
    finally:
        await other_engine.dispose()


async def test_a_restarted_bot_takes_back_its_predecessors_claims_at_once(sessions: SessionFactory) -> None:
    await queue(sessions, None, Target.user(77), 2, "claimed")
    async with sessions() as s:  # a process that died while sending: its lease runs for minutes yet
        for row in (await s.exec(select(OutboxEntry))).all():
            row.claim_token, row.claimed_until = "dead0000-xyz", utcnow() + timedelta(minutes=2)
        await s.commit()
    assert await release_stale_claims(sessions) == 2
    sender = RecordingSender()
    report = await deliver_pending(sessions, sender, clock=utcnow)
    assert report.sent == 2 and len(sender.sent) == 2


@pytest.mark.parametrize("comeback", ["restart", "stop_out_of_time", "lease_expired"])
async def test_a_send_cut_short_by_a_crash_counts_as_tried_after_a_restart(
    sessions: SessionFactory, monkeypatch: pytest.MonkeyPatch, comeback: str
) -> None:
    """Killed while Discord takes a message, before anything is recorded: whoever sends it next must
    know it may be posted already, or past Discord's nonce window it is posted a second time."""
    await queue(sessions, None, Target.user(77), 1, "cut")

    class KilledWhilePosting(RecordingSender):
        async def send(self, message: OutboxMessage) -> None:
            self.sent.append(message)
            raise asyncio.CancelledError  # the process dies here: no mark, no retry, the claim stays

    first = KilledWhilePosting()
    with pytest.raises(asyncio.CancelledError):
        await deliver_pending(sessions, first, clock=Clock(T0))
    assert first.sent[0].first_tried_at is None  # it was the first attempt

    later = Clock(T0 + timedelta(minutes=10))
    if comeback == "restart":  # a new process: it takes back the dead one's claim at once
        monkeypatch.setattr("gm.delivery.outbox.INSTANCE", "0new0000")
        assert await release_stale_claims(sessions) == 1
    elif comeback == "stop_out_of_time":  # a graceful stop cancelled the send and put the row back
        assert await release_own_claims(sessions) == 1
    sender = RecordingSender()
    report = await deliver_pending(sessions, sender, clock=later)
    assert report.sent == 1
    assert sender.sent[0].first_tried_at == T0, "the cut-short attempt is known"
    async with sessions() as s:
        row = (await s.exec(select(OutboxEntry))).one()
    assert row.attempts == 2 and row.claim_token is None and row.sent_at is not None


async def test_a_message_the_adapter_cannot_send_yet_waits_untouched_with_its_target(
    sessions: SessionFactory,
) -> None:
    """Not connected yet: nothing was tried, so nothing is counted and nothing backs off; the next
    delivery sends it, in order."""
    await queue(sessions, None, Target.user(1), 2, "later")
    await queue(sessions, None, Target.user(2), 1, "other")
    connected = False

    def not_yet(message: OutboxMessage) -> Exception | None:
        return None if connected or message.user_id == 2 else NotYetSendable("not connected")

    sender = RecordingSender(fail=not_yet)
    first = await deliver_pending(sessions, sender, clock=Clock(T0))
    assert titles(sender) == ["other0"] and first.retrying == 0 and first.pending == 2
    async with sessions() as s:
        waiting = (await s.exec(select(OutboxEntry).where(OutboxEntry.target_user_id == 1))).all()
    assert [(r.attempts, r.claim_token, r.next_attempt_at, r.last_error) for r in waiting] == [
        (0, None, T0, None)
    ] * 2
    connected = True
    again = await deliver_pending(sessions, sender, clock=Clock(T0))  # at once: no back-off
    assert again.sent == 2 and titles(sender) == ["other0", "later0", "later1"]


class LaggingSender(RecordingSender):
    """Takes a different while for each message (as Discord does for a post, longer with pictures),
    counts how many posts are under way at once, and fails what ``fail`` says."""

    def __init__(self, fail: object = None) -> None:
        super().__init__(fail)
        self.busy = 0
        self.most_busy = 0
        self.started: list[float] = []

    async def send(self, message: OutboxMessage) -> None:
        self.started.append(time.monotonic())
        self.busy += 1
        self.most_busy = max(self.most_busy, self.busy)
        try:
            await asyncio.sleep(0.001 * (hash(message.nonce) % 7))
            await super().send(message)
        finally:
            self.busy -= 1


async def queue_games(sessions: SessionFactory, games: list[int], per_game: int) -> None:
    """``per_game`` messages for each game, written interleaved across the games and their targets
    (the game channel and three power channels), as closes at one deadline write them."""
    async with sessions() as s:
        for i in range(per_game):
            for game_id in games:
                target = Target.game_channel() if i % 4 == 0 else Target.power_channel(POWERS[i % 4])
                enqueue(
                    s,
                    Message(game_id=game_id, title=f"{game_id}:{i}"),
                    target=target,
                    key=f"{game_id}:{i}",
                    now=T0,
                )
        await s.commit()


POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY")


async def channels_recorded(sessions: SessionFactory, count: int) -> list[int]:
    """``count`` started games whose places are recorded (so their messages can go)."""
    ids = []
    for n in range(count):
        started = await make_started_game(sessions, seed=n)
        async with sessions.begin() as s:
            await games.set_game_channels(
                s,
                started.game.id,
                category_id=1000 * n + 1,
                game_channel_id=1000 * n + 2,
                power_channels={p: 1000 * n + 10 + i for i, p in enumerate(started.assignments)},
            )
        ids.append(started.game.id)
    return ids


def order_in(sent: list[OutboxMessage], key: Callable[..., bool]) -> list[str]:
    return [m.payload["title"] for m in sent if key(m)]


async def test_games_are_delivered_concurrently_each_channel_and_game_in_order(
    sessions: SessionFactory,
) -> None:
    game_ids = await channels_recorded(sessions, 6)
    async with sessions() as s:  # the set-up's own messages are not what this test is about
        for row in (await s.exec(select(OutboxEntry))).all():
            row.sent_at = T0
        await s.commit()
    await queue_games(sessions, game_ids, 12)
    sender = LaggingSender()
    report = await deliver_pending(sessions, sender, clock=Clock(T0), in_flight=4)
    assert report.sent == 6 * 12 and report.pending == 0
    titles_sent = titles(sender)
    assert len(titles_sent) == len(set(titles_sent)) == 72, "every message once"
    assert 1 < sender.most_busy <= 4, "several games at once, never more than allowed"
    for game_id in game_ids:
        mine = order_in(sender.sent, lambda m, g=game_id: m.game_id == g)
        assert mine == [f"{game_id}:{i}" for i in range(12)], "a game's messages in the order written"
        for channel in {m.channel_id for m in sender.sent if m.game_id == game_id}:
            there = order_in(sender.sent, lambda m, c=channel: m.channel_id == c)
            assert there == sorted(there, key=lambda t: int(t.split(":")[1]))


async def test_a_channel_discord_makes_wait_holds_back_its_own_game_only(sessions: SessionFactory) -> None:
    slow, other = await channels_recorded(sessions, 2)
    async with sessions() as s:
        for row in (await s.exec(select(OutboxEntry))).all():
            row.sent_at = T0
        await s.commit()
    await queue_games(sessions, [slow, other], 8)

    limited = False

    def rate_limited(message: OutboxMessage) -> Exception | None:
        nonlocal limited
        if message.payload["title"] == f"{slow}:4" and not limited:
            limited = True
            return RetriableSendError("429: too many requests in this channel")
        return None

    sender = LaggingSender(rate_limited)
    clock = Clock(T0)
    report = await deliver_pending(sessions, sender, clock=clock)
    assert order_in(sender.sent, lambda m: m.game_id == other) == [f"{other}:{i}" for i in range(8)]
    held = order_in(sender.sent, lambda m: m.game_id == slow)
    assert held[:4] == [f"{slow}:{i}" for i in range(4)] and f"{slow}:4" not in held
    assert report.retrying == 1
    # Only the 429's channel waits for the retry: later messages to its game's other channels went.
    waiting = {f"{slow}:{i}" for i in range(4, 8) if i % 4 == 0}
    assert set(held[4:]) == {f"{slow}:{i}" for i in range(5, 8)} and not waiting & set(held)
    clock.now = T0 + timedelta(minutes=1)
    await deliver_pending(sessions, sender, clock=clock)
    assert titles(sender).count(f"{slow}:4") == 1
    assert sorted(titles(sender)) == sorted(f"{g}:{i}" for g in (slow, other) for i in range(8))


async def test_the_pace_keeps_sends_under_the_rate(sessions: SessionFactory) -> None:
    await queue(sessions, None, Target.user(1), 6, "a")
    await queue(sessions, None, Target.user(2), 6, "b")
    sender = LaggingSender()
    rate, burst = 40.0, 3.0
    pace = FirstWait(rate, burst)
    await deliver_pending(sessions, sender, clock=Clock(T0), pace=pace)
    assert len(sender.sent) == 12
    assert pace.first is not None
    for k, at in enumerate(sender.started):
        # the k-th start cannot come before its token: k - burst tokens earned at ``rate`` a second
        # since the first start was booked (the bucket is full until then; the first send itself may
        # start a little later, when the machine is busy)
        assert at - pace.first >= (k + 1 - burst) / rate - 0.002


class FirstWait(Pace):
    """A pace that notes when the first start was booked."""

    def __init__(self, rate: float, burst: float) -> None:
        super().__init__(rate, burst)
        self.first: float | None = None

    async def wait(self) -> None:
        if self.first is None:
            self.first = time.monotonic()
        await super().wait()
