"""Fixed-time deadlines in play: a game whose phases close at 21:00 Europe/Berlin, never on a weekend.

Every deadline the game gets (at the start, at each close, when a rollback reopens a phase, when a
moderator resumes) is the schedule's, on frozen clocks across weekdays and a change of summer time;
short phases keep their length and the next movement phase comes back to the fixed hour. The settings
say so, and bad input is refused with nothing changed."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from db.database import SessionFactory
from gm.actor import Actor
from gm.errors import InvalidSettings
from gm.facade import Gamemaster
from gm.moderation import actions, rollback
from gm.phases.closer import CloseOutcome, PhaseCloser
from gm.rules.deadlines import DeadlineSchedule
from gm.settings import GameSettings, schedule_with
from gm.setup import games
from gm.setup.configure import update_settings
from tests.gm.conftest import CREATOR, current_phase, game_row, make_game, messages, place, submit
from tests.helpers.gm import RecordingSender

pytestmark = pytest.mark.both_backends  # on PostgreSQL too: dates and time zones

BERLIN_WEEKDAYS = DeadlineSchedule(at="21:00", zone="Europe/Berlin", skip_weekdays=(5, 6))
MOD = Actor(4242, is_server_moderator=True)  # a moderator who does not play


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


async def start_at(sessions: SessionFactory, now: datetime, settings: GameSettings) -> games.StartResult:
    game = await make_game(sessions, settings=settings)
    async with sessions.begin() as s:
        return await games.start_game(s, game.id, CREATOR, now=now, rng=random.Random(3))


async def close_at(sessions: SessionFactory, game_id: int, when: datetime) -> CloseOutcome:
    closer = PhaseCloser(sessions, clock=lambda: when, render_maps=False)
    return await closer.close((await current_phase(sessions, game_id)).row_id)


async def test_a_game_started_on_friday_evening_first_closes_on_monday_at_21_berlin(
    sessions: SessionFactory,
) -> None:
    friday = utc(2024, 3, 1, 18, 0)  # 19:00 in Berlin (winter time, UTC+1)
    assert friday.weekday() == 4
    started = await start_at(sessions, friday, GameSettings(deadlines=BERLIN_WEEKDAYS))
    assert started.phase.deadline == utc(2024, 3, 4, 20, 0)  # Monday 21:00 CET; no weekend deadline

    closed = await close_at(sessions, started.game.id, utc(2024, 3, 4, 20, 0))
    assert closed.next_phase is not None and closed.next_phase.name == "F1901M"
    assert closed.next_phase.deadline == utc(2024, 3, 5, 20, 0)  # Tuesday, the next playing day

    [welcome, *_] = await messages(sessions, "welcome")
    assert welcome.payload["deadline_zone"] == "Europe/Berlin"
    [results] = await messages(sessions, "phase_results")
    assert results.payload["deadline_zone"] == "Europe/Berlin"
    assert results.payload["deadline"] == "2024-03-05T20:00:00+00:00"


async def test_every_second_day_skips_the_weekend_without_counting_it(sessions: SessionFactory) -> None:
    schedule = DeadlineSchedule(at="21:00", zone="Europe/Berlin", every_days=2, skip_weekdays=(5, 6))
    thursday = utc(2024, 2, 29, 20, 30)  # Thursday 21:30 in Berlin
    started = await start_at(sessions, thursday, GameSettings(deadlines=schedule))
    # Friday is the first playing day, Monday the second: the weekend does not count
    assert started.phase.deadline == utc(2024, 3, 4, 20, 0)


async def test_deadlines_stay_at_21_berlin_across_the_change_to_summer_time(sessions: SessionFactory) -> None:
    every_day = DeadlineSchedule(at="21:00", zone="Europe/Berlin")
    started = await start_at(sessions, utc(2024, 3, 29, 20, 0), GameSettings(deadlines=every_day))
    assert started.phase.deadline == utc(2024, 3, 30, 20, 0)  # Saturday 21:00 CET (UTC+1)
    closed = await close_at(sessions, started.game.id, utc(2024, 3, 30, 20, 0))
    assert closed.next_phase is not None
    # the clocks went forward in the night: Sunday 21:00 CEST is 19:00 UTC, 23 hours later
    assert closed.next_phase.deadline == utc(2024, 3, 31, 19, 0)


async def munich_falls(sessions: SessionFactory, started: games.StartResult) -> None:
    """Spring 1901: France attacks Munich from Burgundy, supported from the Ruhr, so that Germany's
    army has to retreat after the close."""
    await place(
        sessions,
        started.phase.id,
        {
            "phase": "S1901M",
            "units": {"FRANCE": ["A BUR", "A RUH"], "GERMANY": ["A MUN"]},
            "centers": {"FRANCE": ["PAR"], "GERMANY": ["MUN", "BER"]},
        },
    )
    await submit(sessions, started, "FRANCE", "A Bur-Mun\nA Ruh S A Bur-Mun")


async def test_a_retreat_keeps_its_short_length_and_the_next_movement_returns_to_21(
    sessions: SessionFactory,
) -> None:
    settings = GameSettings(deadlines=BERLIN_WEEKDAYS, retreat_minutes=30)
    started = await start_at(sessions, utc(2024, 3, 4, 8, 0), settings)  # Monday morning
    await munich_falls(sessions, started)
    closed = await close_at(sessions, started.game.id, utc(2024, 3, 4, 20, 0))  # Monday 21:00 Berlin
    assert closed.next_phase is not None and closed.next_phase.name == "S1901R"
    assert closed.next_phase.deadline == utc(2024, 3, 4, 20, 30)  # its own 30 minutes: 21:30
    after_retreat = await close_at(sessions, started.game.id, utc(2024, 3, 4, 20, 30))
    assert after_retreat.next_phase is not None and after_retreat.next_phase.name == "F1901M"
    assert after_retreat.next_phase.deadline == utc(2024, 3, 5, 20, 0)  # 21:00 again, not 21:30


async def test_a_short_phase_ending_on_a_weekend_waits_for_the_next_fixed_time(
    sessions: SessionFactory,
) -> None:
    settings = GameSettings(deadlines=BERLIN_WEEKDAYS, retreat_minutes=6 * 60)
    started = await start_at(sessions, utc(2024, 3, 7, 8, 0), settings)  # Thursday
    await munich_falls(sessions, started)
    # Friday 21:00 Berlin + 6 hours is Saturday 03:00: no deadline on Saturday, so Monday 21:00
    closed = await close_at(sessions, started.game.id, utc(2024, 3, 8, 20, 0))
    assert closed.next_phase is not None and closed.next_phase.name == "S1901R"
    assert closed.next_phase.deadline == utc(2024, 3, 11, 20, 0)


async def test_resume_and_rollback_keep_to_the_fixed_time(sessions: SessionFactory) -> None:
    started = await start_at(sessions, utc(2024, 3, 4, 8, 0), GameSettings(deadlines=BERLIN_WEEKDAYS))
    game_id = started.game.id
    assert started.phase.deadline == utc(2024, 3, 4, 20, 0)  # opens Monday 09:00: 12 hours to 21:00
    async with sessions.begin() as s:
        await actions.pause_game(s, game_id, MOD, now=utc(2024, 3, 4, 18, 0))  # 2 hours left
    async with sessions.begin() as s:
        resumed = await actions.resume_game(s, game_id, MOD, now=utc(2024, 3, 6, 12, 0))
    # two hours from Wednesday 13:00 Berlin is 15:00: the phase closes at that day's 21:00
    assert resumed.phase is not None and resumed.phase.deadline == utc(2024, 3, 6, 20, 0)

    await close_at(sessions, game_id, utc(2024, 3, 6, 20, 0))
    async with sessions.begin() as s:
        rolled = await rollback.rollback_last_phase(s, game_id, MOD, now=utc(2024, 3, 7, 9, 0))
    # S1901M opens again on Thursday 10:00 Berlin: it closes on Friday at 21:00, as a fresh phase
    assert rolled.phase is not None and rolled.phase.name == "S1901M"
    assert rolled.phase.deadline == utc(2024, 3, 8, 20, 0)


async def test_a_phase_opened_while_paused_gets_a_fresh_fixed_deadline_at_resume(
    sessions: SessionFactory,
) -> None:
    started = await start_at(sessions, utc(2024, 3, 4, 8, 0), GameSettings(deadlines=BERLIN_WEEKDAYS))
    game_id = started.game.id
    async with sessions.begin() as s:
        await actions.pause_game(s, game_id, MOD, now=utc(2024, 3, 4, 9, 0))
    closed = await close_at(sessions, game_id, utc(2024, 3, 4, 10, 0))  # a moderator's close, say
    assert closed.next_phase is not None and closed.next_phase.deadline is None
    async with sessions.begin() as s:
        resumed = await actions.resume_game(s, game_id, MOD, now=utc(2024, 3, 8, 12, 0))  # Friday 13:00
    assert resumed.phase is not None and resumed.phase.name == "F1901M"
    assert resumed.phase.deadline == utc(2024, 3, 11, 20, 0)  # Monday: 12 hours ahead, no weekend


async def test_the_scheduler_reminds_by_the_real_length_of_a_fixed_time_phase(
    sessions: SessionFactory,
) -> None:
    # 12-hour movement phases would get no 24-hour reminder; every 2 days at 21:00 they last 2 days
    settings = GameSettings(
        movement_minutes=12 * 60,
        reminder_hours=(24.0, 1.0),
        deadlines=DeadlineSchedule(at="21:00", zone="Europe/Berlin", every_days=2),
    )
    now = utc(2024, 3, 4, 8, 0)
    started = await start_at(sessions, now, settings)
    assert started.phase.deadline == utc(2024, 3, 5, 20, 0)
    gm = Gamemaster(sessions, RecordingSender(), workers=0, render_maps=False, clock=lambda: now)
    await gm.runtime.game_started(started)
    game = started.game.id

    def planned(job_id: str) -> datetime:  # the scheduler is not started: its jobs wait, not due
        return gm.runtime.scheduler._scheduler.get_job(job_id).trigger.run_date

    assert planned(f"reminder:{game}:S1901M:24") == utc(2024, 3, 4, 20, 0)
    assert planned(f"reminder:{game}:S1901M:1") == utc(2024, 3, 5, 19, 0)
    assert planned(f"deadline:{game}:S1901M") == utc(2024, 3, 5, 20, 0)


async def test_settings_take_the_schedule_in_parts_and_refuse_unknown_zones(
    sessions: SessionFactory,
) -> None:
    game = await make_game(sessions, players=2)
    async with sessions.begin() as s:
        info = await update_settings(
            s, game.id, CREATOR, {"deadlines": {"at": "9:30", "skip_days": "weekend"}}
        )
    assert info.settings.deadlines == DeadlineSchedule(at="09:30", zone="UTC", skip_weekdays=(5, 6))
    async with sessions.begin() as s:
        info = await update_settings(s, game.id, CREATOR, {"deadlines": {"zone": "europe/berlin"}})
    assert info.settings.deadlines == DeadlineSchedule(at="09:30", zone="Europe/Berlin", skip_weekdays=(5, 6))

    before = (await game_row(sessions, game.id)).settings
    with pytest.raises(InvalidSettings) as refused:
        async with sessions.begin() as s:
            await update_settings(s, game.id, CREATOR, {"deadlines": {"zone": "Europe/Berln", "at": "25:00"}})
    assert any("did you mean Europe/Berlin" in p for p in refused.value.problems)
    assert any("'25:00'" in p for p in refused.value.problems)
    assert "Nothing was changed" in (refused.value.hint or "")
    assert (await game_row(sessions, game.id)).settings == before

    async with sessions.begin() as s:
        info = await update_settings(s, game.id, CREATOR, {"deadlines": {"at": "off"}})
    assert info.settings.deadlines is None


async def test_a_game_created_with_a_bad_schedule_is_not_created(sessions: SessionFactory) -> None:
    with pytest.raises(InvalidSettings) as refused:
        await make_game(sessions, settings={"deadlines": {"zone": "Berlin"}})
    assert "did you mean Europe/Berlin" in " ".join(refused.value.problems)
    async with sessions() as s:
        assert await games.list_games(s, 555) == []
    with pytest.raises(InvalidSettings, match="Not a day of the week"):
        schedule_with(None, {"skip_days": "caturday"})


def test_stored_settings_without_a_schedule_keep_their_lengths() -> None:
    old = {"movement_minutes": 60, "players": 7}  # a game stored before schedules existed
    settings = GameSettings.from_json(old)
    assert settings.deadlines is None and settings.zone is None
    opens = utc(2024, 3, 4, 8, 0)
    assert settings.deadline_for("M", opens) == opens + timedelta(hours=1)
    assert (
        GameSettings.from_json(GameSettings(deadlines=BERLIN_WEEKDAYS).to_json()).deadlines == BERLIN_WEEKDAYS
    )
