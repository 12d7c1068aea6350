"""/mod through gm: who may, what each action does, what it announces and logs, and the refusals."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import select

from db.database import SessionFactory
from db.models import OrderRecord, ReadyFlag
from gm.errors import AlreadyJoined, GameOver, NotAllowed, NotAPlayer, PhaseBusy, WrongGameState
from gm.facade import Gamemaster
from gm.moderation import actions as moderation
from gm.moderation import rollback
from gm.moderation.actions import Actor
from gm.ordering import submission as orders
from gm.reading.lookup import latest_phase
from gm.reports.status import game_status
from gm.settings import GameSettings
from gm.setup.games import leave_game, set_game_channels
from tests.gm.conftest import (
    CREATOR,
    T0,
    current_phase,
    game_row,
    make_started_game,
    messages,
    player_of,
    player_row,
    submit,
    user,
)
from tests.helpers.gm import MOD, RecordingSender, snapshot

OUTSIDER = user(40)
CREATOR_ACTOR = Actor(CREATOR)


async def test_players_and_strangers_may_not_moderate_and_nothing_changes(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    game_id = started.game.id
    before = await snapshot(sessions, game_id)
    player = Actor(player_of(started, "FRANCE"))  # a player, not the creator, no moderator role
    attempts = [
        lambda s, a: moderation.extend_deadline(s, game_id, a, minutes=60, now=T0),
        lambda s, a: moderation.pause_game(s, game_id, a, now=T0),
        lambda s, a: moderation.close_now(s, game_id, a, now=T0),
        lambda s, a: moderation.replace_player(s, game_id, a, power="ITALY", new_user_id=OUTSIDER, now=T0),
        lambda s, a: moderation.set_civil_disorder(s, game_id, a, power="ITALY", on=True, now=T0),
        lambda s, a: moderation.end_game(s, game_id, a, now=T0),
    ]
    for attempt in attempts:
        for actor in (player, Actor(OUTSIDER)):
            async with sessions() as s:
                with pytest.raises(NotAllowed, match="Only the creator of Test game or a server moderator"):
                    await attempt(s, actor)
    assert await snapshot(sessions, game_id) == before
    assert await messages(sessions, "moderation") == []


async def test_a_moderator_who_plays_may_extend_pause_and_resume_but_nothing_that_reveals_a_rival(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    game_id = started.game.id
    france = player_of(started, "FRANCE")
    for actor in (CREATOR_ACTOR, Actor(france, is_server_moderator=True)):  # both hold a power
        before = await snapshot(sessions, game_id)
        refused = [
            lambda s, a: moderation.close_now(s, game_id, a, now=T0),
            lambda s, a: moderation.replace_player(
                s, game_id, a, power="ITALY", new_user_id=OUTSIDER, now=T0
            ),
            lambda s, a: moderation.set_civil_disorder(s, game_id, a, power="ITALY", on=True, now=T0),
            lambda s, a: moderation.end_game(s, game_id, a, now=T0),
            lambda s, a: rollback.plan_rollback(s, game_id, a),
            lambda s, a: rollback.rollback_last_phase(s, game_id, a, now=T0),
        ]
        for attempt in refused:
            async with sessions() as s:
                with pytest.raises(NotAllowed, match="may extend, pause or resume it but not") as told:
                    await attempt(s, actor)
            assert "Ask a moderator who does not play in this game" in str(told.value.hint)
        assert await snapshot(sessions, game_id) == before, "nothing changed"
        async with sessions.begin() as s:
            await moderation.extend_deadline(s, game_id, actor, minutes=60, now=T0)
        async with sessions.begin() as s:
            await moderation.pause_game(s, game_id, actor, now=T0)
        async with sessions.begin() as s:
            await moderation.resume_game(s, game_id, actor, now=T0)
    async with sessions.begin() as s:  # a server moderator who does not play may
        await moderation.replace_player(s, game_id, MOD, power="ITALY", new_user_id=OUTSIDER, now=T0)
    async with sessions.begin() as s:
        await moderation.close_now(s, game_id, MOD, now=T0)


async def test_extend_moves_the_deadline_and_is_logged_with_who_and_when(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    async with sessions.begin() as s:
        result = await moderation.extend_deadline(s, started.game.id, MOD, minutes=90, now=T0)
    assert started.phase.deadline is not None
    assert result.phase is not None and result.phase.deadline == started.phase.deadline + timedelta(
        minutes=90
    )
    assert result.follow_ups.schedule == (result.phase,)
    (said,) = await messages(sessions, "moderation")
    assert said.payload["title"] == "The Spring 1901 Movement deadline is extended by 1 hour 30 minutes."
    async with sessions() as s:
        status = await game_status(s, started.game.id)
    (line,) = status.moderation
    assert (line.actor_id, line.at, line.action) == (MOD.user_id, T0, "extend")
    assert line.text == "extended Spring 1901 Movement by 1 hour 30 minutes"  # as the announcement said


async def test_a_bad_extension_is_refused(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    before = await snapshot(sessions, started.game.id)
    for minutes in (0, -60, 15 * 24 * 60):
        async with sessions() as s:
            with pytest.raises(WrongGameState, match="extended by 1 minute to 14 days"):
                await moderation.extend_deadline(s, started.game.id, MOD, minutes=minutes, now=T0)
    assert await snapshot(sessions, started.game.id) == before


async def test_pause_keeps_the_time_left_and_resume_gives_it_back(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, settings=GameSettings(movement_minutes=24 * 60))
    game_id = started.game.id
    async with sessions.begin() as s:
        paused = await moderation.pause_game(s, game_id, CREATOR_ACTOR, now=T0 + timedelta(hours=20))
    assert paused.phase is not None and paused.phase.deadline is None
    assert paused.follow_ups.unschedule == ("S1901M",)
    assert (await game_row(sessions, game_id)).status == "paused"
    assert (await current_phase(sessions, game_id)).remaining_seconds == 4 * 3600
    # orders still go in while paused, but everybody ready does not close a paused phase
    report = await submit(sessions, started, "FRANCE", "A Par H")
    assert report.accepted and report.view.deadline is None
    async with sessions() as s:
        with pytest.raises(WrongGameState, match="already paused"):
            await moderation.pause_game(s, game_id, CREATOR_ACTOR, now=T0)
    later = T0 + timedelta(days=3)
    async with sessions.begin() as s:
        resumed = await moderation.resume_game(s, game_id, CREATOR_ACTOR, now=later)
    assert resumed.phase is not None and resumed.phase.deadline == later + timedelta(hours=4)
    assert (
        resumed.follow_ups.schedule == (resumed.phase,)
        and resumed.follow_ups.check_early_close == resumed.phase.id
    )
    assert (await game_row(sessions, game_id)).status == "active"
    async with sessions() as s:
        with pytest.raises(WrongGameState, match="is not paused"):
            await moderation.resume_game(s, game_id, CREATOR_ACTOR, now=later)
    titles = [m.payload["title"] for m in await messages(sessions, "moderation")]
    assert titles == [
        "Test game is paused with 4 hours left in Spring 1901 Movement.",
        "Test game is running again: Spring 1901 Movement closes in 4 hours.",
    ]


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_extending_a_paused_game_adds_to_the_time_left(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    async with sessions.begin() as s:
        await moderation.pause_game(s, started.game.id, MOD, now=T0 + timedelta(hours=23))
    async with sessions.begin() as s:
        await moderation.extend_deadline(s, started.game.id, MOD, minutes=120, now=T0)
    async with sessions.begin() as s:
        resumed = await moderation.resume_game(s, started.game.id, MOD, now=T0 + timedelta(days=1))
    assert resumed.phase is not None
    assert resumed.phase.deadline == T0 + timedelta(days=1, hours=3)


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_a_paused_game_never_closes_early_and_its_jobs_are_removed(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, players=3, settings=GameSettings(players=3))
    gm = Gamemaster(sessions, RecordingSender(), workers=0, render_maps=False)
    gm.runtime.scheduler.schedule_phase(
        started.game.id, started.phase.id, "S1901M", T0 + timedelta(days=9), (1.0,)
    )
    async with sessions.begin() as s:
        result = await moderation.pause_game(s, started.game.id, MOD, now=T0)
    await gm.runtime.apply(result.follow_ups)
    assert gm.runtime.scheduler.job_ids() == []
    for i in range(3):
        async with sessions.begin() as s:
            uid = CREATOR if i == 0 else user(i)
            view = await orders.set_ready(s, started.game.id, uid, now=T0)
        assert not view.close_now
        assert await gm.runtime.orders_changed(view) is None
    assert (await current_phase(sessions, started.game.id)).status == "open"


async def test_close_now_closes_the_phase_through_the_gamemaster(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    gm = Gamemaster(sessions, RecordingSender(), workers=0, render_maps=False, clock=lambda: T0)
    async with sessions.begin() as s:
        result = await moderation.close_now(s, started.game.id, MOD, now=T0)
    assert result.follow_ups.close_phase == started.phase.id
    outcome = await gm.runtime.apply(result.follow_ups)
    assert outcome is not None and outcome.closed and outcome.phase == "S1901M"
    async with sessions() as s:
        status = await game_status(s, started.game.id)
    assert status.phase is not None and status.phase.name == "F1901M"
    assert [line.action for line in status.moderation] == ["close"]
    await gm.runtime.shutdown()


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_a_close_asked_while_the_phase_is_being_closed_says_so_and_offers_nothing(
    sessions: SessionFactory,
) -> None:
    """A second moderator's /mod close reaching the bot while the first one's close adjudicates: the
    phase is already being closed (not "try again on the new phase", which would close the next)."""
    started = await make_started_game(sessions)
    async with sessions.begin() as s:
        phase = await latest_phase(s, started.game.id)
        assert phase is not None
        phase.status = "adjudicating"
    async with sessions() as s:
        with pytest.raises(WrongGameState, match="Spring 1901 Movement is already being closed") as told:
            await moderation.close_now(s, started.game.id, MOD, sent_at=T0, now=T0)
    assert "results follow in the game channel" in str(told.value.hint)
    async with sessions() as s:
        with pytest.raises(PhaseBusy, match="being adjudicated right now"):  # other actions: as before
            await moderation.extend_deadline(s, started.game.id, MOD, minutes=60, now=T0)


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_replace_gives_the_seat_its_orders_and_channel_to_the_new_player(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    game_id = started.game.id
    old = player_of(started, "ITALY")
    await submit(sessions, started, "ITALY", "A Ven-Tyr\nF Nap-Ion")
    async with sessions.begin() as s:
        await orders.set_ready(s, game_id, old, now=T0)
        await set_game_channels(s, game_id, power_channels={"ITALY": 777})
    async with sessions.begin() as s:
        result = await moderation.replace_player(s, game_id, MOD, power="italy", new_user_id=OUTSIDER, now=T0)
    replacement = result.details["replacement"]
    assert (replacement.old_user_id, replacement.new_user_id) == (old, OUTSIDER)
    assert replacement.powers == ("ITALY",) and replacement.channels == {"ITALY": 777}
    assert (await player_row(sessions, game_id, old)).status == "replaced"
    async with sessions() as s:
        view = await orders.my_orders(s, game_id, OUTSIDER)
        flags = (await s.exec(select(ReadyFlag).where(ReadyFlag.power == "ITALY"))).all()
    (italy,) = view.powers
    assert italy.orders == ("A VEN - TYR", "F NAP - ION") and not italy.ready and flags == []
    async with sessions() as s:
        with pytest.raises(NotAPlayer):
            await orders.submit_orders(s, game_id, old, "A Rom H", now=T0)
    (welcome,) = [m for m in await messages(sessions, "welcome") if m.target_user_id == OUTSIDER]
    assert welcome.payload["powers"] == ["ITALY"] and welcome.payload["replacement"] is True
    assert welcome.payload["orders"] == {"ITALY": ["A VEN - TYR", "F NAP - ION"]}
    (said,) = await messages(sessions, "replaced")
    assert said.payload["new_user_id"] == OUTSIDER and said.payload["old_user_id"] == old
    (told,) = await messages(sessions, "replaced_you")
    assert told.target_user_id == old


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_a_replacement_who_already_plays_is_refused_and_nothing_changes(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    before = await snapshot(sessions, started.game.id)
    for who in (player_of(started, "FRANCE"), player_of(started, "ITALY")):
        async with sessions() as s:
            with pytest.raises(AlreadyJoined, match="already plays"):
                await moderation.replace_player(
                    s, started.game.id, MOD, power="ITALY", new_user_id=who, now=T0
                )
    assert await snapshot(sessions, started.game.id) == before


async def test_a_player_who_left_is_replaced(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    async with sessions.begin() as s:
        await leave_game(s, started.game.id, player_of(started, "TURKEY"), now=T0)
    async with sessions.begin() as s:
        await moderation.replace_player(s, started.game.id, MOD, power="TURKEY", new_user_id=OUTSIDER, now=T0)
    async with sessions.begin() as s:
        report = await orders.submit_orders(s, started.game.id, OUTSIDER, "F Ank-Bla", now=T0)
    assert report.accepted and report.view.powers[0].power == "TURKEY"


async def test_civil_disorder_on_and_off_by_a_moderator(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, players=4, settings=GameSettings(players=4))
    seat = player_of(started, "ITALY")
    async with sessions.begin() as s:
        result = await moderation.set_civil_disorder(s, started.game.id, MOD, power="Russia", on=True, now=T0)
    assert result.details["powers"] == ["ITALY", "RUSSIA"]
    assert result.follow_ups.check_early_close == started.phase.id
    assert (await player_row(sessions, started.game.id, seat)).status == "civil_disorder"
    said, dm = await messages(sessions, "civil_disorder")
    assert said.target_kind == "game_channel"
    assert said.payload["alert_moderators"] is False  # a moderator did it: nobody to alert
    assert dm.target_kind == "user" and dm.target_user_id == seat  # the player hears it from the bot
    assert dm.payload["lines"][0] == "A moderator of Test game put Italy and Russia in civil disorder."
    async with sessions() as s:
        with pytest.raises(WrongGameState, match="already in civil disorder"):
            await moderation.set_civil_disorder(s, started.game.id, MOD, power="ITALY", on=True, now=T0)
    async with sessions.begin() as s:
        await moderation.set_civil_disorder(s, started.game.id, MOD, power="ITALY", on=False, now=T0)
    assert (await player_row(sessions, started.game.id, seat)).status == "active"
    async with sessions() as s:
        with pytest.raises(WrongGameState, match="not in civil disorder"):
            await moderation.set_civil_disorder(s, started.game.id, MOD, power="ITALY", on=False, now=T0)
        status = await game_status(s, started.game.id)
    assert [line.text for line in status.moderation] == [
        "put Italy and Russia in civil disorder",
        "put Italy and Russia out of civil disorder",
    ]


async def test_a_neutral_power_cannot_be_replaced_or_put_in_civil_disorder(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, players=6, settings=GameSettings(players=6))
    assert started.assignments["ITALY"] is None
    async with sessions() as s:
        with pytest.raises(WrongGameState, match="Italy is held by nobody"):
            await moderation.set_civil_disorder(s, started.game.id, MOD, power="ITALY", on=True, now=T0)
        with pytest.raises(WrongGameState, match="no power called 'Prussia'"):
            await moderation.replace_player(s, started.game.id, MOD, power="Prussia", new_user_id=OUTSIDER)


async def test_a_moderator_ends_the_game(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    async with sessions.begin() as s:
        result = await moderation.end_game(s, started.game.id, MOD, reason="players gone", now=T0)
    assert result.follow_ups.game_ended and result.follow_ups.unschedule == ("S1901M",)
    game = await game_row(sessions, started.game.id)
    assert game.status == "cancelled" and game.finished_at == T0
    assert (
        game.result is not None
        and game.result["kind"] == "moderator"
        and game.result["note"] == "players gone"
    )
    (post,) = await messages(sessions, "game_over")
    assert post.payload["lines"][:2] == ["A moderator ended the game.", "Reason: players gone"]
    async with sessions() as s:
        with pytest.raises(GameOver):
            await moderation.pause_game(s, started.game.id, MOD, now=T0)
        with pytest.raises(GameOver):
            await orders.submit_orders(s, started.game.id, player_of(started, "FRANCE"), "A Par H", now=T0)
    async with sessions() as s:
        rows = (await s.exec(select(OrderRecord))).all()
    assert rows == []
