"""/mod rollback through gm: the last closed phase comes back exactly, and its close is undone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import col, select

from db.database import SessionFactory
from db.models import OrderRecord, OutboxEntry, PhaseMap, PhaseRecord
from gm.errors import GameOver, NotAllowed, NothingToRollBack
from gm.facade import Gamemaster
from gm.moderation import actions as moderation
from gm.moderation.actions import Actor
from gm.moderation.rollback import plan_rollback, rollback_last_phase
from gm.ordering import submission as orders
from gm.settings import GameSettings
from tests.gm.conftest import (
    T0,
    close,
    current_phase,
    france_one_move_from_a_solo,
    game_row,
    make_closer,
    make_started_game,
    messages,
    player_of,
    player_row,
    submit,
    user,
)
from tests.helpers.gm import RecordingSender

pytestmark = pytest.mark.both_backends  # on PostgreSQL too: the rollback's row locks

MOD = Actor(user(41), is_server_moderator=True)
LATER = T0 + timedelta(hours=5)


async def test_rollback_reopens_the_last_phase_as_it_was_and_voids_the_next(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    game_id = started.game.id
    await submit(sessions, started, "FRANCE", "A Par-Bur\nA Mar-Spa")
    await submit(sessions, started, "GERMANY", "A Mun-Ruh")
    spring = await current_phase(sessions, game_id)
    board_before = spring.board
    first = await make_closer(sessions, render_maps=True).close(spring.row_id)
    assert first.next_phase is not None
    await submit(sessions, started, "FRANCE", "A Bur-Bel")  # sent for the fall, voided by the rollback
    async with sessions.begin() as s:
        await orders.set_ready(s, game_id, player_of(started, "GERMANY"), now=T0)

    async with sessions.begin() as s:
        result = await rollback_last_phase(s, game_id, MOD, now=LATER)

    reopened = await current_phase(sessions, game_id)
    assert (reopened.id, reopened.name, reopened.status) == (spring.id, "S1901M", "open")
    assert reopened.board == board_before and reopened.results is None and reopened.closed_at is None
    assert reopened.deadline == LATER + timedelta(days=1)  # a full phase from now
    async with sessions() as s:
        fall = await s.get(PhaseRecord, first.next_phase.id)
        kept = (await s.exec(select(OrderRecord).where(OrderRecord.phase_id == spring.id))).all()
        maps = (await s.exec(select(PhaseMap.kind).where(PhaseMap.phase_id == spring.id))).all()
    assert fall is None
    assert sorted(o.text for o in kept) == ["A MAR - SPA", "A MUN - RUH", "A PAR - BUR"]
    assert "orders" not in maps  # the old results map is gone; the next close draws it again
    assert result.follow_ups.unschedule == ("F1901M",) and result.follow_ups.schedule[0].id == spring.id
    assert result.details == {"voided_phase": "F1901M", "orders_returned_to": [player_of(started, "FRANCE")]}

    (said,) = await messages(sessions, "rollback")
    assert said.payload["title"] == "Test game is rolled back to Spring 1901 Movement"
    assert "The results posted for Spring 1901 Movement are void" in said.payload["lines"][0]
    (returned,) = await messages(sessions, "voided_orders")
    assert returned.target_user_id == player_of(started, "FRANCE")
    assert returned.payload["orders"] == ["A Bur-Bel"]

    # the next close works again and posts fresh results for the same phase
    await submit(sessions, started, "FRANCE", "A Par-Pic", now=LATER)
    again = await make_closer(sessions).close(spring.id)
    assert again.closed and again.next_phase is not None and again.next_phase.name == "F1901M"
    async with sessions() as s:
        results = (
            await s.exec(
                select(OutboxEntry).where(OutboxEntry.kind == "phase_results").order_by(col(OutboxEntry.id))
            )
        ).all()
    assert len(results) == 2 and results[0].failed_at is not None  # unsent when voided: never sent
    france = {o["order"] for o in results[-1].payload["orders"]["FRANCE"]}
    assert "A PAR - PIC" in france and "A PAR - BUR" not in france


async def test_rollback_undoes_the_civil_disorder_that_close_caused(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, settings=GameSettings(civil_disorder_after=1))
    italy = player_of(started, "ITALY")
    await close(sessions, started.game.id)
    assert (await player_row(sessions, started.game.id, italy)).status == "civil_disorder"
    async with sessions.begin() as s:
        await rollback_last_phase(s, started.game.id, MOD, now=LATER)
    row = await player_row(sessions, started.game.id, italy)
    assert (row.status, row.missed_phases, row.missed_in_a_row) == ("active", 0, 0)
    (said,) = await messages(sessions, "rollback")
    (back,) = [line for line in said.payload["lines"] if line.startswith("Playing again")]
    assert back.startswith("Playing again, out of the civil disorder Spring 1901 Movement's close had put")
    assert f"Italy ([[user:{italy}]])" in back and back.count("[[user:") == 7  # nobody had ordered


async def test_a_replacement_made_after_the_close_survives_the_rollback(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, settings=GameSettings(civil_disorder_after=1))
    await close(sessions, started.game.id)
    newcomer = user(50)
    async with sessions.begin() as s:
        await moderation.replace_player(s, started.game.id, MOD, power="ITALY", new_user_id=newcomer, now=T0)
    async with sessions.begin() as s:
        await rollback_last_phase(s, started.game.id, MOD, now=LATER)
    async with sessions() as s:
        view = await orders.my_orders(s, started.game.id, newcomer)
    assert [p.power for p in view.powers] == ["ITALY"] and view.phase.name == "S1901M"
    assert (await player_row(sessions, started.game.id, player_of(started, "ITALY"))).status == "replaced"


async def test_rolling_back_before_the_first_phase_closed_is_refused(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    async with sessions() as s:
        with pytest.raises(NothingToRollBack, match="no phase has closed yet"):
            await rollback_last_phase(s, started.game.id, MOD, now=LATER)
        with pytest.raises(NotAllowed):
            await rollback_last_phase(s, started.game.id, Actor(player_of(started, "FRANCE")), now=LATER)
        with pytest.raises(NothingToRollBack, match="no phase has closed yet"):
            await plan_rollback(s, started.game.id, MOD)
    phase = await current_phase(sessions, started.game.id)
    assert phase.id == started.phase.id and phase.deadline == started.phase.deadline
    assert await messages(sessions, "rollback") == []


async def test_the_plan_says_what_a_rollback_would_do_and_changes_nothing(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await close(sessions, started.game.id)
    async with sessions() as s:
        plan = await plan_rollback(s, started.game.id, MOD)
        with pytest.raises(NotAllowed):
            await plan_rollback(s, started.game.id, Actor(player_of(started, "FRANCE")))
    assert (plan.target, plan.voided) == ("S1901M", "F1901M")
    assert (await current_phase(sessions, started.game.id)).name == "F1901M"
    assert await messages(sessions, "rollback") == []


async def test_twice_rolls_back_two_phases_then_refuses_at_the_first(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await close(sessions, started.game.id)
    await close(sessions, started.game.id)
    assert (await current_phase(sessions, started.game.id)).name == "S1902M"
    for expected in ("F1901M", "S1901M"):
        async with sessions.begin() as s:
            await rollback_last_phase(s, started.game.id, MOD, now=LATER)
        assert (await current_phase(sessions, started.game.id)).name == expected
    async with sessions() as s:
        with pytest.raises(NothingToRollBack):
            await rollback_last_phase(s, started.game.id, MOD, now=LATER)


async def test_a_solo_can_be_rolled_back_but_a_moderators_end_cannot(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await france_one_move_from_a_solo(sessions, started)
    won = await make_closer(sessions).close(started.phase.id)
    assert won.game_over and (await game_row(sessions, started.game.id)).status == "finished"
    async with sessions.begin() as s:
        await rollback_last_phase(s, started.game.id, MOD, now=LATER)
    game = await game_row(sessions, started.game.id)
    assert (game.status, game.result, game.finished_at) == ("active", None, None)
    (post,) = await messages(sessions, "game_over")
    assert post.failed_at is not None  # the final post was not sent yet: cancelled
    await submit(sessions, started, "FRANCE", "A Pie-Ven", now=LATER)
    again = await make_closer(sessions).close(started.phase.id)
    assert again.game_over  # and the final post can be queued once more
    assert len(await messages(sessions, "game_over")) == 2

    async with sessions.begin() as s:
        await rollback_last_phase(s, started.game.id, MOD, now=LATER)
        await moderation.end_game(s, started.game.id, MOD, now=LATER)
    async with sessions() as s:
        with pytest.raises(GameOver, match="ended by a vote or a moderator"):
            await rollback_last_phase(s, started.game.id, MOD, now=LATER)


async def test_the_gamemaster_reschedules_after_a_rollback(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    gm = Gamemaster(sessions, RecordingSender(), workers=0, render_maps=False, clock=lambda: T0)
    outcome = await gm.runtime.close_phase(started.phase.id)
    assert outcome.next_phase is not None
    gm.runtime.scheduler.schedule_phase(
        started.game.id, outcome.next_phase.id, "F1901M", T0 + timedelta(days=5)
    )
    async with sessions.begin() as s:
        result = await rollback_last_phase(s, started.game.id, MOD, now=T0 + timedelta(days=2))
    await gm.runtime.apply(result.follow_ups)
    game = started.game.id
    assert gm.runtime.scheduler.job_ids() == [  # it opens again now: no 24-hour reminder of a 24-hour phase
        f"deadline:{game}:S1901M",
        f"reminder:{game}:S1901M:1",
    ]
    job = gm.runtime.scheduler._scheduler.get_job(f"deadline:{game}:S1901M")  # not started: a pending job
    assert job.trigger.run_date == T0 + timedelta(days=3)
    await gm.runtime.shutdown()
