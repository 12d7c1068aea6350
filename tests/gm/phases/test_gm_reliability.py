"""Exactly once, on a real database file: concurrent closes, crashes, restarts, simultaneous orders."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
from datetime import timedelta
from functools import partial
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import col, select

from db.database import SessionFactory, make_engine, make_session_factory
from db.models import OrderRecord, OutboxEntry, PhaseRecord
from gm.clock import utcnow
from gm.delivery.pool import WorkerPool
from gm.endings import votes
from gm.errors import GameError, OrdersClosed
from gm.facade import Gamemaster
from gm.moderation import actions as moderation
from gm.moderation.rollback import rollback_last_phase
from gm.ordering.submission import SubmissionReport
from gm.phases.contract import CloseAnswer, CloseRequest
from gm.phases.worker import close_work
from harness import zygote
from tests.gm.conftest import T0, close, make_closer, make_started_game, player_of, submit, user
from tests.gm.crash_child import CRASH_EXIT_CODE
from tests.helpers.gm import RecordingSender
from tests.helpers.paths import ROOT

pytestmark = [
    pytest.mark.waits,  # processes or real time: spread through the run (tests/conftest.py)
    pytest.mark.both_backends,  # on PostgreSQL too: concurrent closes and writers: row locks
]


class CountingWork:
    """The real adjudication, counting its calls (threads: the closes run concurrently)."""

    def __init__(self) -> None:
        self.calls = 0
        self._lock = threading.Lock()

    def __call__(self, request: CloseRequest) -> CloseAnswer:
        with self._lock:
            self.calls += 1
        return close_work(request)


async def phases_and_results(sessions: SessionFactory) -> tuple[list[PhaseRecord], list[OutboxEntry]]:
    async with sessions() as s:
        phases = list((await s.exec(select(PhaseRecord).order_by(col(PhaseRecord.ordinal)))).all())
        results = list((await s.exec(select(OutboxEntry).where(OutboxEntry.kind == "phase_results"))).all())
    return phases, results


async def test_five_concurrent_closes_adjudicate_once(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await submit(sessions, started, "FRANCE", "A Par-Bur")
    work = CountingWork()
    closers = [make_closer(sessions, work=work) for _ in range(5)]
    outcomes = await asyncio.gather(*(c.close(started.phase.id) for c in closers))
    assert work.calls == 1
    assert sum(o.closed for o in outcomes) == 1
    assert {o.status for o in outcomes} <= {"adjudicating", "closed"}
    phases, results = await phases_and_results(sessions)
    assert [(p.name, p.status) for p in phases] == [("S1901M", "closed"), ("F1901M", "open")]
    assert len(results) == 1


async def test_closes_asked_at_once_are_claimed_together_each_phase_once(sessions: SessionFactory) -> None:
    """At a deadline shared by many games, one closer claims the phases waiting together (a
    transaction for all): each is still adjudicated once, by one of the callers that asked for it."""
    started = [await make_started_game(sessions, seed=n) for n in range(4)]
    work = CountingWork()
    closer = make_closer(sessions, work=work)
    outcomes = await asyncio.gather(*(closer.close(s.phase.id) for s in started for _ in range(3)))
    assert work.calls == 4
    for game in started:
        mine = [o for o in outcomes if o.phase_id == game.phase.id]
        assert sum(o.closed for o in mine) == 1 and len(mine) == 3
    async with sessions() as s:
        statuses = (await s.exec(select(PhaseRecord.status).where(PhaseRecord.ordinal == 0))).all()
    assert statuses == ["closed"] * 4


@pytest.mark.parametrize("point", ["after_claim", "before_commit"])
async def test_a_crash_while_closing_leaves_the_phase_to_be_finished_once_at_restart(
    engine: AsyncEngine, database_url: str, point: str
) -> None:
    sessions = make_session_factory(engine)
    started = await make_started_game(sessions)
    await submit(sessions, started, "FRANCE", "A Par-Bur\nA Mar-Spa")
    await engine.dispose()

    child = zygote.run(  # a process of its own, forked from one that imported the bot (harness/zygote.py)
        [sys.executable, "-m", "tests.gm.crash_child", database_url, str(started.phase.id), point],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert child.returncode == CRASH_EXIT_CODE, child.stderr

    phases, results = await phases_and_results(sessions)
    assert [(p.name, p.status) for p in phases] == [("S1901M", "adjudicating")]  # nothing half-written
    assert results == []

    for _restart in range(2):  # the first restart finishes it; the second finds nothing to do
        restarted = make_engine(database_url)
        gamemaster = Gamemaster(
            make_session_factory(restarted), RecordingSender(), workers=0, render_maps=False
        )
        report = await gamemaster.runtime.start()
        await gamemaster.runtime.scheduler.idle(timeout=60)
        await gamemaster.runtime.shutdown()
        await restarted.dispose()
        assert report.finishing == ([started.phase.id] if _restart == 0 else [])

    phases, results = await phases_and_results(sessions)
    assert [(p.name, p.status) for p in phases] == [("S1901M", "closed"), ("F1901M", "open")]
    assert len(results) == 1
    assert "A SPA" in phases[1].board["units"]["FRANCE"]  # the orders given before the crash counted


async def test_a_restart_after_a_missed_deadline_closes_the_phase_once(
    engine: AsyncEngine, database_url: str
) -> None:
    sessions = make_session_factory(engine)
    started = await make_started_game(sessions)  # deadline T0 + 1 day, long past in real time
    for _restart in range(3):
        restarted = make_engine(database_url)
        gamemaster = Gamemaster(
            make_session_factory(restarted), RecordingSender(), workers=0, render_maps=False
        )
        report = await gamemaster.runtime.start()
        await gamemaster.runtime.scheduler.idle(timeout=60)
        jobs = gamemaster.runtime.scheduler.job_ids()
        await gamemaster.runtime.shutdown()
        await restarted.dispose()
        if _restart == 0:
            assert report.overdue == [started.phase.id]
        else:
            assert report.overdue == [] and len(report.scheduled) == 1
        assert f"deadline:{started.game.id}:F1901M" in jobs
    phases, results = await phases_and_results(sessions)
    assert [(p.name, p.status) for p in phases] == [("S1901M", "closed"), ("F1901M", "open")]
    assert len(results) == 1
    assert phases[1].deadline is not None and phases[1].deadline > utcnow() + timedelta(hours=23)


async def test_two_players_submitting_at_the_same_moment_both_keep_their_orders(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    moves = {
        "FRANCE": ["A Par-Bur", "A Mar-Spa", "F Bre-Mid"],
        "GERMANY": ["A Mun-Ruh", "A Ber-Kie", "F Kie-Den"],
        "ENGLAND": ["F Lon-Nth", "F Edi-Nwg", "A Lvp-Yor"],
    }
    for i in range(3):
        reports = await asyncio.gather(
            *(submit(sessions, started, p, lines[i]) for p, lines in moves.items())
        )
        assert all(r.accepted for r in reports)
    async with sessions() as s:
        rows = (await s.exec(select(OrderRecord))).all()
    assert len(rows) == 9
    kept = {(r.power, r.text) for r in rows}
    assert (
        ("FRANCE", "F BRE - MAO") in kept
        and ("GERMANY", "F KIE - DEN") in kept
        and ("ENGLAND", "A LVP - YOR") in kept
    )


async def test_one_player_sending_twice_at_once_keeps_both_units_orders(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await asyncio.gather(
        submit(sessions, started, "FRANCE", "A Par-Bur"),
        submit(sessions, started, "FRANCE", "A Mar-Spa"),
        submit(sessions, started, "FRANCE", "F Bre-Mid"),
    )
    async with sessions() as s:
        rows = (await s.exec(select(OrderRecord))).all()
    assert sorted(r.text for r in rows) == ["A MAR - SPA", "A PAR - BUR", "F BRE - MAO"]


OPENINGS = {
    "AUSTRIA": "A Vie-Gal\nA Bud-Ser\nF Tri-Alb",
    "ENGLAND": "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor",
    "FRANCE": "A Par-Bur\nA Mar-Spa\nF Bre-Mid",
    "GERMANY": "A Mun-Ruh\nA Ber-Kie\nF Kie-Den",
    "ITALY": "A Ven-Tyr\nA Rom-Apu\nF Nap-Ion",
    "RUSSIA": "A War-Gal\nA Mos-Ukr\nF Sev-Bla\nF Stp/sc-Bot",
    "TURKEY": "A Con-Bul\nA Smy-Con\nF Ank-Bla",
}


@pytest.mark.parametrize("round_", range(3))
async def test_orders_racing_closes_never_deadlock_and_each_is_adjudicated_or_refused(
    sessions: SessionFactory, round_: int
) -> None:
    """Seven players submit while five closers close the phase (PostgreSQL: no deadlock between the
    submission's phase lock and the close's game lock)."""
    started = await make_started_game(sessions, seed=round_)
    work = CountingWork()
    closers = [make_closer(sessions, work=work) for _ in range(5)]
    jobs: list = []
    for i, (power, text) in enumerate(OPENINGS.items()):
        jobs.append(submit(sessions, started, power, text))
        if i < len(closers):
            jobs.append(closers[i].close(started.phase.id))
    answers = await asyncio.gather(*jobs, return_exceptions=True)
    unexpected = [a for a in answers if isinstance(a, BaseException) and not isinstance(a, OrdersClosed)]
    assert unexpected == []
    assert work.calls == 1
    outcomes = [a for a in answers if hasattr(a, "closed")]
    assert sum(o.closed for o in outcomes) == 1
    phases, results = await phases_and_results(sessions)
    assert [(p.name, p.status) for p in phases] == [("S1901M", "closed"), ("F1901M", "open")]
    assert len(results) == 1
    assert phases[0].results is not None
    adjudicated = {(o["power"], o["order"]) for o in phases[0].results["orders"] if o["input"] is not None}
    async with sessions() as s:
        later = {(r.power, r.text) for r in (await s.exec(select(OrderRecord))).all()}
    reports = [a for a in answers if isinstance(a, SubmissionReport)]
    for report in reports:
        stored_in = adjudicated if report.view.phase.name == "S1901M" else later
        for line in report.accepted:
            assert (line.power, line.order) in stored_in


async def test_orders_racing_a_rollback_and_moderators_never_deadlock(sessions: SessionFactory) -> None:
    """Submissions (phase row, then a row naming the game) against use cases that lock the game row
    first (a rollback, a deadline extension, a vote): PostgreSQL must not find a lock cycle."""
    started = await make_started_game(sessions)
    await close(sessions, started.game.id)  # now in F1901M: a phase that a rollback deletes
    mod = moderation.Actor(user(41), is_server_moderator=True)
    fall = {p: t.replace("A Par-Bur", "A Par H") for p, t in OPENINGS.items()}

    async def rollback() -> object:
        async with sessions.begin() as s:
            return await rollback_last_phase(s, started.game.id, mod, now=T0)

    async def extend() -> object:
        async with sessions.begin() as s:
            return await moderation.extend_deadline(s, started.game.id, mod, minutes=60, now=T0)

    async def draw(power: str) -> object:
        async with sessions.begin() as s:
            return await votes.propose(s, started.game.id, player_of(started, power), "draw", now=T0)

    jobs: list = []
    for i, (power, text) in enumerate(fall.items()):
        jobs.append(submit(sessions, started, power, text))
        jobs.append([rollback, extend, lambda: draw("TURKEY")][i % 3]())
    answers = await asyncio.gather(*jobs, return_exceptions=True)
    unexpected = [a for a in answers if isinstance(a, BaseException) and not isinstance(a, GameError)]
    assert unexpected == []


def die_once_then_work(marker: str, request: CloseRequest) -> CloseAnswer:
    """In a worker process: the first call kills the process (as the OOM killer would)."""
    if not os.path.exists(marker):
        Path(marker).touch()
        os._exit(9)
    return close_work(request)


async def test_a_killed_worker_process_does_not_stop_later_closes(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    gamemaster = Gamemaster(sessions, RecordingSender(), workers=1, render_maps=False)
    try:
        first = await gamemaster.runtime.close_phase(started.phase.id)
        assert first.closed and first.next_phase is not None
        pool = gamemaster.runtime.closer._executor
        assert isinstance(pool, WorkerPool)
        for pid in pool.worker_pids():
            os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0.5)  # the pool notices its dead worker
        second = await gamemaster.runtime.close_phase(first.next_phase.id)
        assert second.closed and second.next_phase is not None
        phases, results = await phases_and_results(sessions)
        assert [p.status for p in phases] == ["closed", "closed", "open"] and len(results) == 2
    finally:
        await gamemaster.runtime.shutdown()


async def test_a_worker_dying_during_the_adjudication_is_replaced_and_the_close_goes_on(
    sessions: SessionFactory, tmp_path: Path
) -> None:
    started = await make_started_game(sessions)
    await submit(sessions, started, "FRANCE", "A Par-Bur")
    pool = WorkerPool(1)
    try:
        work = partial(die_once_then_work, str(tmp_path / "died"))
        closer = make_closer(sessions, executor=pool, work=work)
        outcome = await closer.close(started.phase.id)
        assert outcome.closed and pool.renewals == 1
        phases, results = await phases_and_results(sessions)
        assert [p.status for p in phases] == ["closed", "open"] and len(results) == 1
        assert "A BUR" in phases[1].board["units"]["FRANCE"]
    finally:
        pool.shutdown()
