"""The schedule rebuilt at start-up while the bot answers: in slices that let other work run, without
undoing what a use case scheduled meanwhile, and with every deadline due meanwhile closed once."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlmodel import col, select

from db.database import SessionFactory
from db.models import OutboxEntry, PhaseRecord
from gm.clock import utcnow
from gm.delivery import scheduler as scheduling
from gm.delivery.scheduler import GameScheduler, deadline_job_id
from gm.facade import Gamemaster
from gm.setup import games
from tests.gm.conftest import make_started_game
from tests.helpers.deadlines import set_deadline
from tests.helpers.gm import RecordingSender

pytestmark = pytest.mark.both_backends  # on PostgreSQL too: use cases writing while the schedule is rebuilt


async def started_games(sessions: SessionFactory, count: int) -> list[games.StartResult]:
    """``count`` running games, each with its Spring 1901 phase open (deadline overdue: started at T0)."""
    return [await make_started_game(sessions, players=3, seed=i) for i in range(count)]


async def nothing(_phase_id: int) -> None:
    return None


async def turns_during(work: asyncio.Task[object]) -> int:
    """How many times another task got the event loop before ``work`` finished."""
    turns = 0
    while not work.done():
        await asyncio.sleep(0)
        turns += 1
    return turns


async def test_the_rebuild_gives_the_event_loop_back_between_slices(sessions: SessionFactory) -> None:
    started = await started_games(sessions, 12)
    scheduler = GameScheduler(sessions, nothing, rebuild_slice=1)
    rows = await scheduler._phases_after(0)

    async def read_already(after: int) -> list[tuple[object, ...]]:
        return rows if after == 0 else []  # the database's own turns (threads, sockets) left out

    scheduler._phases_after = read_already  # type: ignore[method-assign]  # a patch: reads once, up front
    rebuild = asyncio.create_task(scheduler.rebuild_from_db())
    turns = await turns_during(rebuild)
    report = rebuild.result()
    assert sorted(report.overdue) == sorted(s.phase.id for s in started)
    assert turns >= len(started)  # a turn of other work after each phase scheduled
    assert len([j for j in scheduler.job_ids() if j.startswith("deadline:")]) == len(started)


async def test_a_phase_a_use_case_reschedules_during_the_rebuild_keeps_the_new_deadline(
    sessions: SessionFactory,
) -> None:
    """A moderator's extend answered while the rebuild runs: the rebuild's older row of that phase
    does not put the old deadline back."""
    started = await started_games(sessions, 3)
    ahead = utcnow() + timedelta(days=1)
    for one in started:
        await set_deadline(sessions, one.phase.id, ahead)
    scheduler = GameScheduler(sessions, nothing, rebuild_slice=1)
    scheduler.start()
    try:
        rebuild = asyncio.create_task(scheduler.rebuild_from_db())
        await asyncio.sleep(0)  # the rebuild has begun
        last = started[-1]
        extended = ahead + timedelta(hours=12)
        scheduler.schedule_phase(last.game.id, last.phase.id, "S1901M", extended, ())
        report = await rebuild
        assert scheduler.run_time(deadline_job_id(last.game.id, "S1901M")) == extended
        assert scheduler.run_time(deadline_job_id(started[0].game.id, "S1901M")) == ahead
        assert last.phase.id not in report.scheduled
    finally:
        await scheduler.shutdown()


async def test_deadlines_due_during_the_rebuild_close_once_beside_a_close_asked_for_meanwhile(
    sessions: SessionFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot restarts after the deadlines of four games passed: their deadline jobs fire as the
    rebuild schedules them, slice by slice, while a player's last /ready closes one of them; each phase
    closes once, each game's results are queued once, and each next phase keeps its deadline job."""
    started = await started_games(sessions, 4)
    monkeypatch.setattr(scheduling, "REBUILD_PAGE", 1)  # the next phases opened meanwhile are read too
    gm = Gamemaster(sessions, RecordingSender(), workers=0, render_maps=False)
    gm.runtime.scheduler.rebuild_slice = 1
    try:
        start_up = gm.runtime.launch()
        await asyncio.sleep(0)
        asked = await gm.runtime.request_close(started[-1].phase.id, reason="all_ready")
        await start_up
        await gm.runtime.idle()
        await gm.runtime.scheduler.idle(timeout=30)
        assert asked is not None
        async with sessions() as s:
            phases = (await s.exec(select(PhaseRecord).order_by(col(PhaseRecord.id)))).all()
            results = (await s.exec(select(OutboxEntry).where(OutboxEntry.kind == "phase_results"))).all()
        by_game = {g.game.id: [(p.name, p.status) for p in phases if p.game_id == g.game.id] for g in started}
        assert all(found == [("S1901M", "closed"), ("F1901M", "open")] for found in by_game.values()), by_game
        assert sorted(r.game_id or 0 for r in results) == sorted(one.game.id for one in started)
        for phase in phases:
            if phase.name == "F1901M":
                assert (
                    gm.runtime.scheduler.run_time(deadline_job_id(phase.game_id, "F1901M")) == phase.deadline
                )
    finally:
        await gm.runtime.shutdown()
