"""Properties of fixed-time deadlines over many zones, times and schedules."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from gm.rules.deadlines import MIN_MOVEMENT_LEAD, DeadlineSchedule, Lengths, phase_deadline
from tests.helpers.profiles import examples

# Zones with DST in either hemisphere, half-hour offsets and 30-minute DST shifts, one that skipped
# a whole calendar day (Pacific/Apia, 30 December 2011), and none at all.
ZONES = [
    "Europe/Berlin",
    "America/New_York",
    "Australia/Lord_Howe",
    "Australia/Sydney",
    "America/Santiago",
    "America/Havana",
    "Asia/Kolkata",
    "Pacific/Chatham",
    "Pacific/Apia",
    "UTC",
]

schedules = st.builds(
    DeadlineSchedule,
    at=st.times().map(lambda t: f"{t.hour:02d}:{t.minute:02d}"),
    zone=st.sampled_from(ZONES),
    every_days=st.integers(1, 5),
    skip_weekdays=st.sets(st.integers(0, 6), max_size=6).map(lambda s: tuple(sorted(s))),
    fix_short_phases=st.booleans(),
)
openings = st.datetimes(
    min_value=datetime(2005, 1, 1), max_value=datetime(2035, 12, 31), timezones=st.just(UTC)
)
lengths = st.builds(
    Lengths,
    movement=st.integers(10, 14 * 24 * 60),
    retreat=st.integers(5, 7 * 24 * 60),
    adjustment=st.integers(5, 7 * 24 * 60),
)
kinds = st.sampled_from(["M", "R", "A"])


def wall_time_exists(day: date, at: time, tz: ZoneInfo) -> bool:
    """Whether ``at`` is shown by the clocks of ``tz`` on ``day`` (not skipped by a DST change)."""
    naive = datetime.combine(day, at)
    return naive.replace(tzinfo=tz).astimezone(UTC).astimezone(tz).replace(tzinfo=None) == naive


@settings(max_examples=examples(300), deadline=None)
@given(kind=kinds, opens=openings, schedule=schedules, phase_lengths=lengths)
def test_a_deadline_is_after_its_opening_and_never_on_an_excluded_day(
    kind: str, opens: datetime, schedule: DeadlineSchedule, phase_lengths: Lengths
) -> None:
    deadline = phase_deadline(kind, opens, phase_lengths, schedule)
    assert deadline > opens
    assert deadline.tzinfo == UTC
    assert deadline.astimezone(schedule.tz).weekday() not in schedule.skip_weekdays
    if kind == "M":
        assert deadline - opens >= MIN_MOVEMENT_LEAD + timedelta(days=schedule.every_days - 1) - timedelta(
            hours=2  # at most the largest DST shift may be lost across the days counted
        )


@settings(max_examples=examples(300), deadline=None)
@given(opens=openings, schedule=schedules, phase_lengths=lengths)
def test_a_movement_deadline_is_at_the_fixed_time_whenever_that_time_exists(
    opens: datetime, schedule: DeadlineSchedule, phase_lengths: Lengths
) -> None:
    deadline = phase_deadline("M", opens, phase_lengths, schedule)
    shown = deadline.astimezone(schedule.tz)
    if wall_time_exists(shown.date(), schedule.wall_time, schedule.tz):
        assert shown.time() == schedule.wall_time
        # ... and of two moments showing it (clocks fell back), the first.
        first = datetime.combine(shown.date(), schedule.wall_time).replace(tzinfo=schedule.tz, fold=0)
        assert deadline == first.astimezone(UTC)
    else:  # skipped by the clocks that day: the wall clock shows a little later (by the gap's size)
        naive = shown.replace(tzinfo=None)
        assert any(
            timedelta(0) < naive - datetime.combine(day, schedule.wall_time) <= timedelta(hours=3)
            for day in (shown.date(), shown.date() - timedelta(days=1))
        )


@settings(max_examples=examples(200), deadline=None)
@given(opens=openings, schedule=schedules, phase_lengths=lengths, retreat_minutes=st.integers(5, 600))
def test_short_phases_do_not_make_movement_deadlines_drift(
    opens: datetime, schedule: DeadlineSchedule, phase_lengths: Lengths, retreat_minutes: int
) -> None:
    """A movement phase opened after a short phase closes at a slot, like one opened at a slot."""
    first = phase_deadline("M", opens, phase_lengths, schedule)
    short = Lengths(phase_lengths.movement, retreat_minutes, retreat_minutes)
    after_retreat = phase_deadline("R", first, short, schedule)
    second = phase_deadline("M", after_retreat, short, schedule)
    days = [d.astimezone(schedule.tz).date() for d in (first, second)]
    if all(wall_time_exists(day, schedule.wall_time, schedule.tz) for day in days):
        assert second.astimezone(schedule.tz).time() == first.astimezone(schedule.tz).time()
    assert second > after_retreat
