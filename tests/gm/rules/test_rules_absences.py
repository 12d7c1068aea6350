"""Absences: which may be declared, and how a deadline inside one moves (once per absence)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from gm.errors import GameError
from gm.rules.absences import (
    Absence,
    InvalidAbsence,
    announcement_text,
    check_absence,
    move_for_absences,
    span_text,
    upcoming,
)
from gm.rules.deadlines import DeadlineSchedule, Lengths

BERLIN = ZoneInfo("Europe/Berlin")
TODAY = date(2024, 5, 1)
ALICE, BOB, CAROL = 1, 2, 3
LENGTHS = Lengths(movement=24 * 60, retreat=30, adjustment=30)
DAILY_21 = DeadlineSchedule(at="21:00", zone="Europe/Berlin")


def away(user: int, first: str, last: str, id: int | None = None) -> Absence:
    return Absence(user, date.fromisoformat(first), date.fromisoformat(last), id)


def berlin(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=BERLIN)


def refusal(new: Absence, existing: list[Absence] = [], days: int = 14) -> list[str]:  # noqa: B006
    with pytest.raises(InvalidAbsence) as refused:
        check_absence(new, existing, today=TODAY, days_per_year=days)
    return refused.value.problems


# Declaring.


def test_a_reasonable_absence_is_accepted() -> None:
    new = away(ALICE, "2024-05-10", "2024-05-16")
    assert check_absence(new, [away(ALICE, "2024-06-01", "2024-06-03")], today=TODAY, days_per_year=14) == new
    assert new.days == 7


def test_a_one_day_absence_is_fine_and_today_may_be_its_first_day() -> None:
    new = away(ALICE, "2024-05-01", "2024-05-01")
    assert check_absence(new, [], today=TODAY, days_per_year=14) == new


def test_an_absence_ending_before_it_starts_is_refused() -> None:
    assert refusal(away(ALICE, "2024-05-10", "2024-05-09")) == [
        "The absence ends (9 May 2024) before it starts (10 May 2024)."
    ]


def test_an_absence_in_the_past_is_refused() -> None:
    assert refusal(away(ALICE, "2024-04-28", "2024-05-03")) == [
        "The absence starts in the past (28 April 2024; today is 1 May 2024)."
    ]


def test_an_absence_far_ahead_is_refused() -> None:
    problems = refusal(away(ALICE, "2025-06-01", "2025-06-02"))
    assert problems == ["An absence may start at most 365 days ahead, not on 1 June 2025."]


def test_an_absence_overlapping_the_same_player_s_is_refused_but_not_another_s() -> None:
    mine = away(ALICE, "2024-05-08", "2024-05-12")
    theirs = away(BOB, "2024-05-01", "2024-05-31")
    assert refusal(away(ALICE, "2024-05-12", "2024-05-14"), [mine, theirs]) == [
        "It overlaps your absence from 8 to 12 May 2024."
    ]
    adjacent = away(ALICE, "2024-05-13", "2024-05-14")
    assert check_absence(adjacent, [mine, theirs], today=TODAY, days_per_year=14) == adjacent


def test_the_yearly_limit_counts_the_player_s_other_absences() -> None:
    taken = [away(ALICE, "2024-06-01", "2024-06-10"), away(BOB, "2024-07-01", "2024-07-14")]
    assert refusal(away(ALICE, "2024-08-01", "2024-08-05"), taken) == [
        "This game allows 14 days of absence a year: in 2024 you have 4 left, and this absence takes 5."
    ]
    four = away(ALICE, "2024-08-01", "2024-08-04")
    assert check_absence(four, taken, today=TODAY, days_per_year=14) == four


def test_an_absence_across_new_year_counts_in_each_year() -> None:
    taken = [away(ALICE, "2024-12-01", "2024-12-10")]
    new = away(ALICE, "2024-12-28", "2025-01-06")  # 4 days in 2024, 6 in 2025
    assert new.days_in_year(2024) == 4 and new.days_in_year(2025) == 6
    assert check_absence(new, taken, today=TODAY, days_per_year=14) == new
    assert refusal(new, taken, days=13) == [
        "This game allows 13 days of absence a year: in 2024 you have 3 left, and this absence takes 4."
    ]


def test_a_single_absence_longer_than_the_limit_is_refused() -> None:
    assert refusal(away(ALICE, "2024-05-02", "2024-05-31")) == [
        "This game allows 14 days of absence a year: in 2024 you have 14 left, and this absence takes 30."
    ]


def test_every_problem_is_listed_at_once() -> None:
    problems = refusal(away(ALICE, "2024-04-20", "2024-05-20"), [away(ALICE, "2024-05-02", "2024-05-03")])
    assert len(problems) == 3
    assert problems[0].startswith("The absence starts in the past")
    assert problems[1] == "It overlaps your absence from 2 to 3 May 2024."
    assert problems[2].startswith("This game allows 14 days")


def test_a_game_without_absences_refuses_them() -> None:
    with pytest.raises(GameError, match="does not allow absences"):
        check_absence(away(ALICE, "2024-05-10", "2024-05-11"), [], today=TODAY, days_per_year=0)


def test_span_text() -> None:
    assert span_text(away(ALICE, "2024-05-03", "2024-05-07")) == "from 3 to 7 May 2024"
    assert span_text(away(ALICE, "2024-05-03", "2024-05-03")) == "on 3 May 2024"
    assert span_text(away(ALICE, "2024-05-30", "2024-06-02")) == "from 30 May to 2 June 2024"
    assert span_text(away(ALICE, "2024-12-30", "2025-01-02")) == "from 30 December 2024 to 2 January 2025"


def test_moderators_see_the_absences_not_over_yet_soonest_first() -> None:
    past = away(ALICE, "2024-04-01", "2024-04-03")
    now = away(BOB, "2024-04-28", "2024-05-01")
    later = away(CAROL, "2024-06-01", "2024-06-02")
    soon = away(ALICE, "2024-05-20", "2024-05-21")
    assert upcoming([later, past, soon, now], today=TODAY) == [now, soon, later]


# Moving a deadline.


def test_a_deadline_inside_an_absence_moves_to_a_full_phase_after_the_return() -> None:
    deadline = berlin(2024, 5, 11, 21, 0)
    absence = away(ALICE, "2024-05-10", "2024-05-12")
    move = move_for_absences(
        deadline, [absence], acting={ALICE, BOB}, kind="M", lengths=LENGTHS, zone="Europe/Berlin"
    )
    assert move is not None
    assert move.deadline == berlin(2024, 5, 14, 0, 0)  # back at 00:00 on the 13th, plus a day
    assert move.absences == (absence,)


def test_with_a_schedule_the_moved_deadline_is_a_slot() -> None:
    move = move_for_absences(
        berlin(2024, 5, 11, 21, 0),
        [away(ALICE, "2024-05-10", "2024-05-12")],
        acting={ALICE},
        kind="M",
        lengths=LENGTHS,
        schedule=DAILY_21,
    )
    assert move is not None and move.deadline == berlin(2024, 5, 13, 21, 0)


def test_a_short_phase_gives_at_least_twelve_hours_after_the_return() -> None:
    absence = away(ALICE, "2024-05-10", "2024-05-12")
    plain = move_for_absences(
        berlin(2024, 5, 12, 10, 0), [absence], acting={ALICE}, kind="R", lengths=LENGTHS, zone="Europe/Berlin"
    )
    assert plain is not None and plain.deadline == berlin(2024, 5, 13, 12, 0)
    scheduled = move_for_absences(
        berlin(2024, 5, 12, 21, 30), [absence], acting={ALICE}, kind="R", lengths=LENGTHS, schedule=DAILY_21
    )
    assert scheduled is not None and scheduled.deadline == berlin(2024, 5, 13, 21, 0)


def test_the_absence_s_days_are_on_the_game_s_wall_clock() -> None:
    absence = away(ALICE, "2024-05-10", "2024-05-12")
    just_before_return = berlin(2024, 5, 12, 23, 30)  # 21:30 UTC: inside in Berlin, inside in UTC too
    after_return = berlin(2024, 5, 13, 0, 30)  # 22:30 UTC on the 12th: inside in UTC, not in Berlin
    assert absence.covers(just_before_return, "Europe/Berlin")
    assert not absence.covers(after_return, "Europe/Berlin")
    assert absence.covers(after_return, "UTC")
    assert (
        move_for_absences(
            after_return, [absence], acting={ALICE}, kind="M", lengths=LENGTHS, schedule=DAILY_21
        )
        is None
    )


def test_a_deadline_outside_the_absence_or_of_a_player_not_acting_does_not_move() -> None:
    absence = away(ALICE, "2024-05-10", "2024-05-12")
    before = berlin(2024, 5, 9, 21, 0)
    assert (
        move_for_absences(before, [absence], acting={ALICE}, kind="M", lengths=LENGTHS, schedule=DAILY_21)
        is None
    )
    inside = berlin(2024, 5, 11, 21, 0)
    assert (
        move_for_absences(inside, [absence], acting={BOB}, kind="M", lengths=LENGTHS, schedule=DAILY_21)
        is None
    )


def test_an_absence_moves_a_deadline_once_only() -> None:
    absence = away(ALICE, "2024-05-10", "2024-05-12", id=7)
    inside = berlin(2024, 5, 11, 21, 0)
    assert (
        move_for_absences(
            inside, [absence], used=[absence], acting={ALICE}, kind="M", lengths=LENGTHS, schedule=DAILY_21
        )
        is None
    )
    # The same absence loaded again from storage is the same absence.
    reloaded = away(ALICE, "2024-05-10", "2024-05-12", id=7)
    assert (
        move_for_absences(
            inside, [reloaded], used=[absence], acting={ALICE}, kind="M", lengths=LENGTHS, schedule=DAILY_21
        )
        is None
    )


def test_a_moved_deadline_inside_another_absence_moves_again() -> None:
    alice = away(ALICE, "2024-05-10", "2024-05-12")
    bob = away(BOB, "2024-05-13", "2024-05-15")
    move = move_for_absences(
        berlin(2024, 5, 11, 21, 0),
        [bob, alice],
        acting={ALICE, BOB},
        kind="M",
        lengths=LENGTHS,
        schedule=DAILY_21,
    )
    assert move is not None
    assert move.deadline == berlin(2024, 5, 16, 21, 0)
    assert move.absences == (alice, bob)


def test_two_absences_covering_the_deadline_move_it_past_the_later_return() -> None:
    alice = away(ALICE, "2024-05-10", "2024-05-12")
    bob = away(BOB, "2024-05-11", "2024-05-14")
    move = move_for_absences(
        berlin(2024, 5, 11, 21, 0),
        [alice, bob],
        acting={ALICE, BOB},
        kind="M",
        lengths=LENGTHS,
        schedule=DAILY_21,
    )
    assert move is not None
    assert move.deadline == berlin(2024, 5, 15, 21, 0)
    assert set(move.absences) == {alice, bob}


def test_the_moved_deadline_skips_excluded_weekdays() -> None:
    schedule = DeadlineSchedule(at="21:00", zone="Europe/Berlin", skip_weekdays=(5, 6))
    # Back on Saturday 11 May: the first slot is Monday's.
    move = move_for_absences(
        berlin(2024, 5, 9, 21, 0),
        [away(ALICE, "2024-05-08", "2024-05-10")],
        acting={ALICE},
        kind="M",
        lengths=LENGTHS,
        schedule=schedule,
    )
    assert move is not None and move.deadline == berlin(2024, 5, 13, 21, 0)
    assert move.deadline.tzinfo == UTC
    assert move.deadline - berlin(2024, 5, 11, 0, 0) > timedelta(days=2)


def test_the_same_absence_declared_twice_is_refused_but_rechecking_a_stored_one_is_not() -> None:
    stored = away(ALICE, "2024-05-10", "2024-05-12", id=4)
    assert refusal(away(ALICE, "2024-05-10", "2024-05-12"), [stored]) == [
        "It overlaps your absence from 10 to 12 May 2024."
    ]
    assert check_absence(stored, [stored], today=TODAY, days_per_year=14) == stored


def test_the_announcement_says_when_and_why() -> None:
    alice = away(ALICE, "2024-05-10", "2024-05-12")
    move = move_for_absences(
        berlin(2024, 5, 11, 21, 0), [alice], acting={ALICE}, kind="M", lengths=LENGTHS, schedule=DAILY_21
    )
    assert move is not None
    assert announcement_text(move, "Europe/Berlin") == (
        "The deadline moves to Monday 13 May, 21:00 Europe/Berlin: a player is away from 10 to 12 May 2024."
    )
