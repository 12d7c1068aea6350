"""A requested close is never lost and never closes the wrong phase; no phase stays stuck.

A moderator's /mod close, the last player's ready and a resume with everybody done record the close in
their own transaction (the deadline becomes now), so a bot that stops before running the close closes
the phase at its next start. /mod close names the phase the moderator saw. A close asked for in the
process that fails is retried with backoff, and a sweep finishes phases left adjudicating."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import select

from db.database import SessionFactory
from db.models import OutboxEntry, PhaseRecord
from gm.clock import utcnow
from gm.delivery.scheduler import LEASE, retry_job_id
from gm.errors import WrongGameState
from gm.facade import Gamemaster
from gm.meant_for import MeantFor
from gm.moderation import actions as moderation
from gm.ordering import submission as orders
from gm.phases.closer import CloseHooks, PhaseCloser
from gm.phases.worker import close_work
from tests.gm.conftest import player_of
from tests.helpers.gm import RecordingSender, gamemaster, start_now

pytestmark = [
    pytest.mark.waits,  # processes or real time: spread through the run (tests/conftest.py)
    pytest.mark.both_backends,  # on PostgreSQL too: compare-and-set closes under row locks
]

JUDGE = moderation.Actor(2**62 + 41, is_server_moderator=True)


async def phases(sessions: SessionFactory, game_id: int) -> list[tuple[str, str]]:
    async with sessions() as s:
        rows = (await s.exec(select(PhaseRecord).where(PhaseRecord.game_id == game_id))).all()
        await s.commit()
    return sorted((p.name, str(p.status)) for p in rows)


async def restart_and_settle(sessions: SessionFactory) -> None:
    """A new bot process on the same database: its start-up and the jobs that fire at once."""
    gm = gamemaster(sessions)
    await gm.runtime.start()
    try:
        await gm.runtime.scheduler.idle(timeout=60)
    finally:
        await gm.runtime.shutdown()


async def test_a_moderators_close_survives_a_stop_before_it_ran(sessions: SessionFactory) -> None:
    started = await start_now(sessions, utcnow())  # the deadline is a day away
    async with sessions.begin() as s:
        await moderation.close_now(s, started.game.id, JUDGE, meant_for=MeantFor("S1901M"))
    # the bot stops here: the background task that would close the phase never runs
    assert await phases(sessions, started.game.id) == [("S1901M", "open")]
    await restart_and_settle(sessions)
    assert await phases(sessions, started.game.id) == [("F1901M", "open"), ("S1901M", "closed")]
    async with sessions() as s:
        closed = (await s.exec(select(PhaseRecord).where(PhaseRecord.name == "S1901M"))).one()
    assert closed.close_reason == "moderator"


async def test_the_last_ready_survives_a_stop_before_the_close_ran(sessions: SessionFactory) -> None:
    started = await start_now(sessions, utcnow())
    view = None
    for power in sorted(started.game.powers):
        async with sessions.begin() as s:
            view = await orders.set_ready(s, started.game.id, player_of(started, power))
    assert view is not None and view.close_now
    await restart_and_settle(sessions)
    assert await phases(sessions, started.game.id) == [("F1901M", "open"), ("S1901M", "closed")]


async def test_a_second_mod_close_never_closes_the_new_phase(sessions: SessionFactory) -> None:
    started = await start_now(sessions, utcnow())
    gm = gamemaster(sessions)
    async with sessions.begin() as s:
        first = await moderation.close_now(s, started.game.id, JUDGE, meant_for=MeantFor("S1901M"))
    async with sessions() as s:  # a second moderator, a moment later, before the close ran
        with pytest.raises(WrongGameState, match="already being closed"):
            await moderation.close_now(s, started.game.id, JUDGE, meant_for=MeantFor("S1901M"))
    await gm.runtime.apply(first.follow_ups)
    async with sessions() as s:  # and after it ran: the game is in the next phase now
        with pytest.raises(
            WrongGameState, match="Spring 1901 Movement was already closed; Fall 1901 Movement"
        ):
            await moderation.close_now(s, started.game.id, JUDGE, meant_for=MeantFor("S1901M"))
    assert await phases(sessions, started.game.id) == [("F1901M", "open"), ("S1901M", "closed")]
    async with sessions() as s:
        said = (await s.exec(select(OutboxEntry).where(OutboxEntry.kind == "moderation"))).all()
    assert len([e for e in said if "being closed now" in str(e.payload)]) == 1, "announced once"


async def test_a_close_sent_before_the_phase_opened_or_just_after_it_closes_nothing_unasked(
    sessions: SessionFactory,
) -> None:
    began = utcnow() - timedelta(minutes=5)
    started = await start_now(sessions, began)  # S1901M opened five minutes ago
    gm = gamemaster(sessions)
    async with sessions.begin() as s:
        first = await moderation.close_now(s, started.game.id, JUDGE, sent_at=utcnow())
    assert first.action == "close"
    await gm.runtime.apply(first.follow_ups)
    async with sessions() as s:
        fall = (await s.exec(select(PhaseRecord).where(PhaseRecord.name == "F1901M"))).one()
        await s.commit()
    async with sessions() as s:  # sent while Spring was open, read once Fall had opened
        with pytest.raises(WrongGameState) as late:
            await moderation.close_now(
                s, started.game.id, JUDGE, sent_at=fall.opened_at - timedelta(seconds=1)
            )
    assert late.value.message.startswith(
        "Spring 1901 Movement was already closed; Fall 1901 Movement has just opened"
    )
    async with sessions.begin() as s:  # sent 20 seconds after Fall opened: a question, nothing written
        asked = await moderation.close_now(
            s, started.game.id, JUDGE, sent_at=fall.opened_at + timedelta(seconds=20)
        )
    assert asked.action == "close_confirm" and asked.details == {
        "phase": "F1901M",
        "phase_id": fall.id,
        "seconds": 20,
        "first": False,
    }
    assert await phases(sessions, started.game.id) == [("F1901M", "open"), ("S1901M", "closed")]
    async with sessions() as s:
        again = (await s.exec(select(PhaseRecord).where(PhaseRecord.name == "F1901M"))).one()
        assert (again.close_reason, again.deadline) == (None, fall.deadline)
        await s.commit()
    async with sessions.begin() as s:
        confirmed = await moderation.close_now(
            s, started.game.id, JUDGE, sent_at=fall.opened_at + timedelta(seconds=20), confirmed=True
        )
    assert confirmed.action == "close" and confirmed.phase is not None and confirmed.phase.name == "F1901M"


async def test_a_failed_close_asked_for_in_the_process_is_retried_not_left_stuck(
    sessions: SessionFactory,
) -> None:
    started = await start_now(sessions, utcnow())
    failing = {"left": 1}

    async def database_gone(_phase_id: int) -> None:
        if failing["left"]:
            failing["left"] -= 1
            raise ConnectionError("the database went away while the results were written")

    closer = PhaseCloser(
        sessions, work=close_work, render_maps=False, hooks=CloseHooks(before_commit=database_gone)
    )
    gm = Gamemaster(sessions, RecordingSender(), workers=0, render_maps=False, closer=closer)
    # the retry never fires on its own while the test looks for it (a busy machine stalled the test
    # past a 3-s retry); the test then makes it due
    gm.runtime.scheduler.retry_delays = (60.0,)
    gm.runtime.scheduler.start()
    try:
        async with sessions.begin() as s:
            asked = await moderation.close_now(s, started.game.id, JUDGE, meant_for=MeantFor("S1901M"))
        assert await gm.runtime.apply(asked.follow_ups) is None, "the close failed ..."
        retry = retry_job_id(started.phase.id)
        assert retry in gm.runtime.scheduler.job_ids(), "... and is tried again"
        gm.runtime.scheduler._scheduler.modify_job(retry, next_run_time=utcnow())  # due now
        await gm.runtime.scheduler.idle(timeout=60)
        assert retry not in gm.runtime.scheduler.job_ids()
    finally:
        await gm.runtime.shutdown()
    assert await phases(sessions, started.game.id) == [("F1901M", "open"), ("S1901M", "closed")]


async def test_the_sweep_finishes_a_phase_left_adjudicating_by_a_close_that_failed(
    sessions: SessionFactory,
) -> None:
    started = await start_now(sessions, utcnow())
    async with sessions() as s:
        phase = await s.get(PhaseRecord, started.phase.id)
        assert phase is not None
        phase.status = "adjudicating"
        phase.adjudication_started_at = utcnow() - LEASE - timedelta(seconds=1)
        await s.commit()
    gm = gamemaster(sessions)
    gm.runtime.scheduler.start()
    try:
        assert await gm.runtime.scheduler.sweep(busy={started.phase.id}) == [], "one of ours: left alone"
        assert await gm.runtime.scheduler.sweep() == [started.phase.id]
        assert await gm.runtime.scheduler.sweep() == [], "once"
    finally:
        await gm.runtime.shutdown()
    assert await phases(sessions, started.game.id) == [("F1901M", "open"), ("S1901M", "closed")]


async def test_a_claim_renewed_by_its_holder_is_kept_and_a_lapsed_one_is_taken_over(
    sessions: SessionFactory,
) -> None:
    """Among several processes: the holder of a close renews its claim (heartbeat); the game's owner
    finishes the phase only once the claim went LEASE without renewal (its holder died)."""
    started = await start_now(sessions, utcnow())
    phase_id = started.phase.id

    async def claimed_at(when: object) -> None:
        async with sessions() as s:
            phase = await s.get(PhaseRecord, phase_id)
            assert phase is not None
            phase.status = "adjudicating"
            phase.adjudication_started_at = when  # type: ignore[assignment]
            await s.commit()

    await claimed_at(utcnow() - LEASE - timedelta(seconds=1))
    holder, owner = gamemaster(sessions), gamemaster(sessions)
    holder_closer = holder.runtime.closer
    assert isinstance(holder_closer, PhaseCloser)
    owner.runtime.scheduler.start()
    try:
        holder_closer.active.add(phase_id)  # the holder is working on it: it renews the claim
        assert await holder_closer.heartbeat() == 1
        assert await owner.runtime.scheduler.take_over() == [], "a live holder's claim is kept"
        holder_closer.active.discard(phase_id)
        assert await holder_closer.heartbeat() == 0
        await claimed_at(utcnow() - LEASE - timedelta(seconds=1))  # the holder died: no renewal since
        assert await owner.runtime.scheduler.take_over() == [phase_id]
        assert await owner.runtime.scheduler.take_over() == [], "once"
    finally:
        await owner.runtime.shutdown()
    assert await phases(sessions, started.game.id) == [("F1901M", "open"), ("S1901M", "closed")]
