"""Fixed-time deadlines: the slot a phase closes at, weekdays, DST, the schedule's text and validation."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from itertools import pairwise
from zoneinfo import ZoneInfo

import pytest

from gm.errors import InvalidSettings
from gm.rules.deadlines import (
    DeadlineSchedule,
    Lengths,
    describe,
    local_time_text,
    parse_weekdays,
    phase_deadline,
    slot_on,
    slots_from,
    zone_suggestions,
)
from gm.settings import GameSettings

BERLIN = ZoneInfo("Europe/Berlin")
NEW_YORK = ZoneInfo("America/New_York")
LENGTHS = Lengths(movement=24 * 60, retreat=30, adjustment=45)
DAILY_21 = DeadlineSchedule(at="21:00", zone="Europe/Berlin")
WEEKDAYS_21 = DeadlineSchedule(at="21:00", zone="Europe/Berlin", skip_weekdays=(5, 6))


def berlin(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=BERLIN)


def new_york(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=NEW_YORK)


def local(moment: datetime, tz: ZoneInfo = BERLIN) -> datetime:
    return moment.astimezone(tz)


# 2024-01-15 is a Monday; Berlin is on winter time (UTC+1) in January.


def test_without_a_schedule_a_phase_lasts_its_length() -> None:
    opens = berlin(2024, 1, 15, 20, 55)
    assert phase_deadline("M", opens, LENGTHS, None) == opens + timedelta(days=1)
    assert phase_deadline("R", opens, LENGTHS, None) == opens + timedelta(minutes=30)
    assert phase_deadline("A", opens, LENGTHS, None) == opens + timedelta(minutes=45)
    assert phase_deadline("M", opens, LENGTHS, None).tzinfo == UTC


def test_game_settings_give_the_phase_lengths() -> None:
    settings = GameSettings(movement_minutes=48 * 60, retreat_minutes=20, adjustment_minutes=25)
    opens = berlin(2024, 1, 15, 21, 0)
    assert phase_deadline("R", opens, settings, DAILY_21) == opens + timedelta(minutes=20)
    assert phase_deadline("M", opens, settings, None) == opens + timedelta(days=2)


def test_a_movement_phase_closes_at_the_next_day_s_slot() -> None:
    deadline = phase_deadline("M", berlin(2024, 1, 15, 21, 0), LENGTHS, DAILY_21)
    assert deadline == berlin(2024, 1, 16, 21, 0)
    assert deadline == datetime(2024, 1, 16, 20, 0, tzinfo=UTC)
    assert deadline.tzinfo == UTC


def test_a_phase_opening_just_before_the_slot_does_not_close_minutes_later() -> None:
    assert phase_deadline("M", berlin(2024, 1, 15, 20, 55), LENGTHS, DAILY_21) == berlin(2024, 1, 16, 21, 0)


def test_a_slot_twelve_hours_away_is_taken_and_one_closer_is_not() -> None:
    assert phase_deadline("M", berlin(2024, 1, 15, 9, 0), LENGTHS, DAILY_21) == berlin(2024, 1, 15, 21, 0)
    assert phase_deadline("M", berlin(2024, 1, 15, 9, 1), LENGTHS, DAILY_21) == berlin(2024, 1, 16, 21, 0)


def test_the_game_s_movement_length_does_not_move_a_fixed_deadline() -> None:
    long_moves = Lengths(movement=5 * 24 * 60, retreat=30, adjustment=45)
    opens = berlin(2024, 1, 15, 21, 0)
    assert phase_deadline("M", opens, long_moves, DAILY_21) == berlin(2024, 1, 16, 21, 0)


def test_excluded_weekdays_have_no_deadline() -> None:
    friday_evening = berlin(2024, 1, 19, 21, 0)
    assert phase_deadline("M", friday_evening, LENGTHS, WEEKDAYS_21) == berlin(2024, 1, 22, 21, 0)  # Monday
    # Friday morning: still twelve hours before Friday's slot, which is allowed.
    assert phase_deadline("M", berlin(2024, 1, 19, 8, 0), LENGTHS, WEEKDAYS_21) == berlin(2024, 1, 19, 21, 0)


def test_every_two_days_counts_only_the_days_that_are_not_excluded() -> None:
    schedule = DeadlineSchedule(at="21:00", zone="Europe/Berlin", every_days=2, skip_weekdays=(5, 6))
    assert phase_deadline("M", berlin(2024, 1, 15, 21, 30), LENGTHS, schedule) == berlin(2024, 1, 17, 21, 0)
    # Thursday evening: Friday is the first playing day, Monday the second.
    assert phase_deadline("M", berlin(2024, 1, 18, 21, 0), LENGTHS, schedule) == berlin(2024, 1, 22, 21, 0)


def test_every_three_days_lasts_about_three_days() -> None:
    schedule = DeadlineSchedule(at="18:00", zone="Europe/Berlin", every_days=3)
    assert phase_deadline("M", berlin(2024, 1, 15, 18, 0), LENGTHS, schedule) == berlin(2024, 1, 18, 18, 0)
    # Opened twelve hours before a slot, that slot counts: 2 days 12 hours, the shortest it gets.
    assert phase_deadline("M", berlin(2024, 1, 15, 6, 0), LENGTHS, schedule) == berlin(2024, 1, 17, 18, 0)
    # An hour later it does not: 3 days 11 hours, the longest.
    assert phase_deadline("M", berlin(2024, 1, 15, 7, 0), LENGTHS, schedule) == berlin(2024, 1, 18, 18, 0)


def test_short_phases_keep_their_lengths_and_the_next_movement_returns_to_the_slot() -> None:
    """A whole game year: movement deadlines stay at 21:00 whatever the retreats and adjustments took."""
    opens = berlin(2024, 1, 15, 21, 0)
    movement_deadlines = []
    for kind in ["M", "R", "M", "R", "A", "M", "R", "M", "R", "A", "M"]:
        deadline = phase_deadline(kind, opens, LENGTHS, DAILY_21)
        if kind == "M":
            movement_deadlines.append(deadline)
        else:
            assert deadline - opens == timedelta(minutes=LENGTHS.phase_minutes(kind))
        opens = deadline
    assert [local(d).strftime("%a %H:%M") for d in movement_deadlines] == [
        "Tue 21:00",
        "Wed 21:00",
        "Thu 21:00",
        "Fri 21:00",
        "Sat 21:00",
    ]


def test_a_short_phase_ending_on_an_excluded_day_closes_at_the_next_slot() -> None:
    half_day = Lengths(movement=24 * 60, retreat=12 * 60, adjustment=12 * 60)
    friday_deadline = berlin(2024, 1, 19, 21, 0)
    assert phase_deadline("R", friday_deadline, half_day, WEEKDAYS_21) == berlin(2024, 1, 22, 21, 0)
    # ... but one ending on an allowed day keeps its length.
    assert phase_deadline("R", berlin(2024, 1, 18, 21, 0), half_day, WEEKDAYS_21) == berlin(2024, 1, 19, 9, 0)


def test_short_phases_can_be_fixed_to_the_slot_too() -> None:
    schedule = DeadlineSchedule(at="21:00", zone="Europe/Berlin", fix_short_phases=True)
    assert phase_deadline("R", berlin(2024, 1, 15, 21, 0), LENGTHS, schedule) == berlin(2024, 1, 16, 21, 0)
    # A short phase only needs its own length before the slot, not twelve hours.
    assert phase_deadline("A", berlin(2024, 1, 15, 20, 0), LENGTHS, schedule) == berlin(2024, 1, 15, 21, 0)


def test_weekdays_are_those_of_the_schedule_s_zone_not_utc() -> None:
    """00:30 on a Saturday in Berlin is still Friday in UTC: Saturday's exclusion applies."""
    schedule = DeadlineSchedule(at="00:30", zone="Europe/Berlin", skip_weekdays=(5,))
    deadline = phase_deadline("M", berlin(2024, 1, 18, 23, 0), LENGTHS, schedule)
    assert local(deadline) == berlin(2024, 1, 21, 0, 30)  # Sunday 00:30, not Saturday 00:30
    assert local(deadline).strftime("%A") == "Sunday"


# DST. Europe/Berlin: 31 March 2024 02:00 -> 03:00; 27 October 2024 03:00 -> 02:00.
# America/New_York: 10 March 2024 02:00 -> 03:00; 3 November 2024 02:00 -> 01:00.


def test_berlin_spring_forward_keeps_21_00_and_the_phase_is_an_hour_shorter() -> None:
    opens = berlin(2024, 3, 30, 21, 0)  # Saturday, winter time
    deadline = phase_deadline("M", opens, LENGTHS, DAILY_21)
    assert local(deadline).strftime("%Y-%m-%d %H:%M %Z") == "2024-03-31 21:00 CEST"
    assert deadline == datetime(2024, 3, 31, 19, 0, tzinfo=UTC)
    assert deadline - opens == timedelta(hours=23)


def test_berlin_fall_back_keeps_21_00_and_the_phase_is_an_hour_longer() -> None:
    opens = berlin(2024, 10, 26, 21, 0)  # Saturday, summer time
    deadline = phase_deadline("M", opens, LENGTHS, DAILY_21)
    assert local(deadline).strftime("%Y-%m-%d %H:%M %Z") == "2024-10-27 21:00 CET"
    assert deadline - opens == timedelta(hours=25)


def test_a_slot_in_the_spring_gap_comes_an_hour_later_on_the_wall_clock() -> None:
    schedule = DeadlineSchedule(at="02:30", zone="Europe/Berlin")
    deadline = phase_deadline("M", berlin(2024, 3, 30, 2, 30), LENGTHS, schedule)
    assert local(deadline).strftime("%Y-%m-%d %H:%M %Z") == "2024-03-31 03:30 CEST"
    assert deadline - berlin(2024, 3, 30, 2, 30) == timedelta(hours=24)
    # The next day is back at 02:30.
    after = phase_deadline("M", deadline, LENGTHS, schedule)
    assert local(after).strftime("%Y-%m-%d %H:%M %Z") == "2024-04-01 02:30 CEST"


def test_a_slot_that_happens_twice_in_the_fall_is_the_first() -> None:
    schedule = DeadlineSchedule(at="02:30", zone="Europe/Berlin")
    deadline = phase_deadline("M", berlin(2024, 10, 26, 2, 30), LENGTHS, schedule)
    assert deadline == datetime(2024, 10, 27, 0, 30, tzinfo=UTC)  # 02:30 CEST, not 02:30 CET
    assert local(deadline).strftime("%H:%M %Z") == "02:30 CEST"


def test_new_york_spring_gap_and_fall_repeat() -> None:
    schedule = DeadlineSchedule(at="02:30", zone="America/New_York")
    spring = phase_deadline("M", new_york(2024, 3, 9, 2, 30), LENGTHS, schedule)
    assert spring == datetime(2024, 3, 10, 7, 30, tzinfo=UTC)
    assert local(spring, NEW_YORK).strftime("%H:%M %Z") == "03:30 EDT"
    repeated = DeadlineSchedule(at="01:30", zone="America/New_York")
    fall = phase_deadline("M", new_york(2024, 11, 2, 1, 30), LENGTHS, repeated)
    assert fall == datetime(2024, 11, 3, 5, 30, tzinfo=UTC)  # 01:30 EDT, the first of the two
    assert local(fall, NEW_YORK).strftime("%H:%M %Z") == "01:30 EDT"


def test_new_york_evening_slot_across_both_changes() -> None:
    schedule = DeadlineSchedule(at="21:00", zone="America/New_York", skip_weekdays=(5,))
    # Friday 8 March: Saturday is excluded, so Sunday 10 March, after the change, at 21:00 EDT.
    spring = phase_deadline("M", new_york(2024, 3, 8, 21, 0), LENGTHS, schedule)
    assert spring == datetime(2024, 3, 11, 1, 0, tzinfo=UTC)
    assert spring - new_york(2024, 3, 8, 21, 0) == timedelta(hours=47)
    fall = phase_deadline("M", new_york(2024, 11, 2, 20, 0), LENGTHS, schedule)
    assert fall == datetime(2024, 11, 4, 2, 0, tzinfo=UTC)  # 21:00 EST on Sunday 3 November


def test_a_day_the_zone_skipped_is_judged_by_the_day_its_clocks_show() -> None:
    """Samoa skipped Friday 30 December 2011: "Friday 21:00" there is Saturday 21:00 on its clocks."""
    apia = ZoneInfo("Pacific/Apia")
    schedule = DeadlineSchedule(at="21:00", zone="Pacific/Apia", skip_weekdays=(5,))
    deadline = phase_deadline("M", datetime(2011, 12, 29, 21, 0, tzinfo=apia), LENGTHS, schedule)
    assert deadline.astimezone(apia).strftime("%A %d %H:%M") == "Sunday 01 21:00"
    assert deadline == datetime(2012, 1, 1, 7, 0, tzinfo=UTC)


def test_slots_follow_one_another_across_a_change() -> None:
    slots = slots_from(berlin(2024, 3, 29, 12, 0), DAILY_21)
    taken = [next(slots) for _ in range(4)]
    assert [local(s).strftime("%d %H:%M") for s in taken] == ["29 21:00", "30 21:00", "31 21:00", "01 21:00"]
    assert [b - a for a, b in pairwise(taken)] == [
        timedelta(hours=24),
        timedelta(hours=23),
        timedelta(hours=24),
    ]


def test_slot_on_a_day_resolves_the_wall_clock() -> None:
    assert slot_on(date(2024, 7, 1), DAILY_21) == datetime(2024, 7, 1, 19, 0, tzinfo=UTC)
    assert slot_on(date(2024, 1, 1), DAILY_21) == datetime(2024, 1, 1, 20, 0, tzinfo=UTC)


def test_bad_calls_are_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        phase_deadline("M", datetime(2024, 1, 15, 21, 0), LENGTHS, DAILY_21)
    with pytest.raises(ValueError, match="not a phase kind"):
        phase_deadline("X", berlin(2024, 1, 15, 21, 0), LENGTHS, DAILY_21)
    with pytest.raises(ValueError, match="Every day of the week is excluded"):
        DeadlineSchedule(skip_weekdays=tuple(range(7)))
    unchecked = DeadlineSchedule.model_construct(skip_weekdays=tuple(range(7)))  # past validation
    with pytest.raises(ValueError, match="no day left"):
        next(slots_from(berlin(2024, 1, 15), unchecked))


# The schedule's text, its stored form and its validation.


def test_describe_for_game_status() -> None:
    assert describe(WEEKDAYS_21) == "21:00 Europe/Berlin, every day except Saturday and Sunday"
    assert describe(DAILY_21) == "21:00 Europe/Berlin, every day"
    assert describe(DeadlineSchedule(at="07:30", zone="UTC", every_days=2, skip_weekdays=(0, 4, 6))) == (
        "07:30 UTC, every 2 days except Monday, Friday and Sunday, which are not counted"
    )
    fixed = DeadlineSchedule(at="21:00", zone="Europe/Berlin", skip_weekdays=(6,), fix_short_phases=True)
    assert describe(fixed) == (
        "21:00 Europe/Berlin, every day except Sunday; retreats and adjustments close at that time too"
    )


def test_local_time_text_shows_the_wall_clock_of_the_zone() -> None:
    moment = datetime(2024, 3, 31, 19, 0, tzinfo=UTC)
    assert local_time_text(moment, "Europe/Berlin") == "Sunday 31 March, 21:00 Europe/Berlin"
    assert local_time_text(moment, "America/New_York") == "Sunday 31 March, 15:00 America/New_York"


def test_json_round_trip_and_weekdays_by_name() -> None:
    schedule = DeadlineSchedule(
        at="21:00", zone="Europe/Berlin", every_days=2, skip_weekdays=(5, 6), fix_short_phases=True
    )
    data = schedule.to_json()
    assert data["skip_weekdays"] == ["saturday", "sunday"]
    assert DeadlineSchedule.from_json(data) == schedule
    assert DeadlineSchedule.from_json({"at": "08:00", "later_key": 1}) == DeadlineSchedule(at="08:00")


def test_validation_normalises_what_users_type() -> None:
    typed = DeadlineSchedule.checked(
        {"at": "9:05", "zone": " europe/berlin", "skip_weekdays": ("sun", "Saturday", 5)}
    )
    assert typed == DeadlineSchedule(at="09:05", zone="Europe/Berlin", skip_weekdays=(5, 6))
    assert DeadlineSchedule.checked({"at": "21h30"}).at == "21:30"


def test_validation_lists_every_problem() -> None:
    bad = {"at": "25:00", "zone": "Mars/Olympus", "every_days": 0, "skip_weekdays": ("funday",)}
    with pytest.raises(InvalidSettings) as refused:
        DeadlineSchedule.checked(bad)
    problems = refused.value.problems
    assert len(problems) == 4
    assert "25:00" in problems[0]
    assert "'Mars/Olympus' is not a time zone" in problems[1]
    assert "every 1 to 14 days, not 0" in problems[2]
    assert "'funday'" in problems[3]
    assert refused.value.hint


def problems(**data: object) -> list[str]:
    return DeadlineSchedule.problems_in(data)[1]


def test_a_schedule_must_leave_a_day_and_take_sane_values() -> None:
    assert problems(skip_weekdays=tuple(range(7))) == [
        "Every day of the week is excluded: leave at least one day for deadlines."
    ]
    assert len(problems(every_days=True, fix_short_phases="yes", skip_weekdays="sat")) == 3
    assert problems(every_days=15) == ["Deadlines come every 1 to 14 days, not 15."]
    found = problems(at=2100)
    assert found and "2100" in found[0]


def test_an_unknown_zone_is_refused_with_suggestions() -> None:
    assert problems(zone="Europe/Berlni")[0].startswith(
        "'Europe/Berlni' is not a time zone; did you mean Europe/Berlin"
    )
    assert problems(zone="Berlin") == ["'Berlin' is not a time zone; did you mean Europe/Berlin?"]
    found = problems(zone="../etc/passwd")
    assert found and "is not a time zone" in found[0]
    assert zone_suggestions("new york")[0] == "America/New_York"
    assert zone_suggestions("xqzwv") == []


def test_a_stored_schedule_with_a_bad_weekday_is_reported_not_crashed_on() -> None:
    stored = {"skip_weekdays": ["saturday", "blursday"]}
    assert problems(**stored) == ["Not a day of the week: 'blursday'."]
    assert DeadlineSchedule.from_json(stored) == DeadlineSchedule(), "read back, the bad value left out"


def test_parse_weekdays() -> None:
    assert parse_weekdays("Saturday and Sunday") == (5, 6)
    assert parse_weekdays("sat, sun") == (5, 6)
    assert parse_weekdays("weekend fri") == (4, 5, 6)
    assert parse_weekdays("TU/th") == (1, 3)
    assert parse_weekdays("none") == ()
    assert parse_weekdays("") == ()
    with pytest.raises(InvalidSettings) as refused:
        parse_weekdays("sat, t, someday")
    assert "'t', 'someday'" in refused.value.message
