"""Fixed-time deadlines: phases that close at a time of day in a named time zone.

A :class:`DeadlineSchedule` says "close at 21:00 Europe/Berlin, every N days, never on Saturday or
Sunday". Its *slots* are that wall-clock time on every day of the week that is not excluded.

Movement phases (the rule, :func:`phase_deadline`)
    A movement phase closes at the N-th slot counted from the first slot at least
    :data:`MIN_MOVEMENT_LEAD` (12 hours) after the phase opens, N being ``every_days``. Excluded days
    have no slot, so they are not counted: "every 2 days, except Saturday and Sunday" closes a phase
    opened on Thursday evening on Monday. A phase therefore lasts N playing days, give or take
    12 hours, and never less than (N - 1) days and 12 hours (at least half of its nominal length):
    a phase opening at 20:55 does not close at 21:00 but the next day.

    The deadline depends only on when the phase opens and on the schedule, never on the previous
    deadline, so short phases in between do not make the movement deadlines drift: after a retreat
    that closed at 21:30 the next movement phase closes at 21:00 again.

    With a schedule, the game's movement length is not used: ``every_days`` is the movement length.

Retreat and adjustment phases
    They keep their own (short) lengths, unless ``fix_short_phases`` is set, in which case they close
    at the first slot at least their length away. A short phase whose deadline would fall on an
    excluded day closes at the first slot after it instead (no adjudication on an excluded day).

Daylight saving time (how a slot's wall-clock time becomes an instant)
    - A time that does not exist that day (the clocks spring forward over it, e.g. 02:30 in
      Europe/Berlin on the last Sunday of March) is read with the offset in force *before* the
      change: 02:30 becomes 03:30 summer time, exactly 24 hours after the day before's 02:30.
    - A time that exists twice (the clocks fall back over it, e.g. 02:30 on the last Sunday of
      October) is its *first* occurrence, still in summer time.
    - A slot falls on a day when the wall clock there shows that day; the weekday tested against the
      excluded days is the one the wall clock shows at the instant of the slot.

Every datetime returned is aware and in UTC, like every datetime gm handles.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import cache
from typing import Annotated, Any, Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from pydantic import Field, field_serializer, field_validator

from gm.checking import CheckedModel, Refusal, refused
from gm.errors import InvalidSettings

MOVEMENT, RETREATS, ADJUSTMENTS = "M", "R", "A"
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)  # not strftime's %B, which follows the process's locale
MIN_MOVEMENT_LEAD = timedelta(hours=12)  # the earliest slot a movement phase may close at
MAX_EVERY_DAYS = 14  # as long as the longest movement phase a game may set
_TIME_RE = re.compile(r"^\s*(\d{1,2})[:h.](\d{2})\s*$")


class PhaseLengths(Protocol):
    """A game's phase lengths (``GameSettings`` is one)."""

    def phase_minutes(self, kind: str) -> int: ...


@dataclass(frozen=True, slots=True)
class Lengths:
    """Plain phase lengths in minutes, for callers without a ``GameSettings``."""

    movement: int = 24 * 60
    retreat: int = 12 * 60
    adjustment: int = 12 * 60

    def phase_minutes(self, kind: str) -> int:
        return {MOVEMENT: self.movement, RETREATS: self.retreat, ADJUSTMENTS: self.adjustment}[kind]


class DeadlineSchedule(CheckedModel):
    """Close phases at ``at`` (``HH:MM``) in ``zone`` (an IANA name), every ``every_days`` playing days,
    never on ``skip_weekdays`` (0 = Monday ... 6 = Sunday, as ``date.weekday()``).

    A checked model (gm.checking): what users type is normalised as it is read (``9:05`` -> ``09:05``,
    ``europe/berlin`` -> ``Europe/Berlin``, weekdays by name or number, sorted), and
    ``DeadlineSchedule.checked(data)`` names every problem at once. Stored as JSON (:meth:`to_json`)
    with the weekdays by name."""

    at: Annotated[
        str,
        Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$"),
        Refusal("The deadline time must be a time of day as HH:MM (e.g. 21:00), not {value}."),
    ] = "21:00"
    zone: str = "UTC"
    every_days: Annotated[
        int,
        Field(ge=1, le=MAX_EVERY_DAYS, strict=True),
        Refusal("Deadlines come every {low} to {high} days, not {value}."),
    ] = 1
    skip_weekdays: tuple[int, ...] = ()
    fix_short_phases: Annotated[  # retreats and adjustments close at a slot too
        bool,
        Field(strict=True),
        Refusal("Whether retreats and adjustments close at the fixed time is yes or no, not {value}."),
    ] = False

    @field_validator("at", mode="before")
    @classmethod
    def _time_of_day(cls, value: object) -> object:
        """``9:05``, ``21h30``, ``21.30`` as ``HH:MM``; anything else as given, for the pattern to refuse."""
        return _normal_time(value) or value

    @field_validator("zone", mode="before")
    @classmethod
    def _known_zone(cls, value: object) -> str:
        problems: list[str] = []
        zone = _zone_or_problem(problems, value)
        if zone is None:
            raise refused(problems[0])
        return zone

    @field_validator("skip_weekdays", mode="before")
    @classmethod
    def _weekdays(cls, value: object) -> tuple[int, ...]:
        problems: list[str] = []
        skipped = _weekdays_or_problem(problems, value)
        if len(skipped) == len(WEEKDAYS):
            problems.append("Every day of the week is excluded: leave at least one day for deadlines.")
        if problems:
            raise refused(" ".join(problems))
        return skipped

    @field_serializer("skip_weekdays", when_used="json")
    def _weekday_names(self, days: tuple[int, ...]) -> list[str]:
        return [WEEKDAYS[d].lower() for d in days]

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.zone)

    @property
    def wall_time(self) -> time:
        hours, minutes = self.at.split(":")
        return time(int(hours), int(minutes))

    def allows(self, day: date) -> bool:
        """Whether ``day`` (a date on the schedule's wall clock) may have a deadline."""
        return day.weekday() not in self.skip_weekdays

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DeadlineSchedule:
        """The stored schedule; unknown keys are ignored and missing ones take their defaults
        (gm.checking.CheckedModel.stored)."""
        return cls.stored(data)


def phase_deadline(
    kind: str, opens: datetime, lengths: PhaseLengths, schedule: DeadlineSchedule | None
) -> datetime:
    """When a phase of ``kind`` (``M``, ``R`` or ``A``) that opens at ``opens`` closes (UTC).

    Without a schedule: after the phase's length. With one: see the module's rules."""
    if kind not in (MOVEMENT, RETREATS, ADJUSTMENTS):
        raise ValueError(f"not a phase kind: {kind!r} (expected M, R or A)")
    opens = _utc(opens, "the opening time")
    natural = opens + timedelta(minutes=lengths.phase_minutes(kind))
    if schedule is None:
        return natural
    if kind == MOVEMENT:
        slots = slots_from(opens + MIN_MOVEMENT_LEAD, schedule)
        for _ in range(schedule.every_days - 1):
            next(slots)
        return next(slots)
    if schedule.fix_short_phases or not schedule.allows(natural.astimezone(schedule.tz).date()):
        return next(slots_from(natural, schedule))
    return natural


def slots_from(moment: datetime, schedule: DeadlineSchedule) -> Iterator[datetime]:
    """The schedule's slots at or after ``moment``, in order, as UTC instants (endless)."""
    moment = _utc(moment, "the moment")
    tz = schedule.tz
    day = moment.astimezone(tz).date() - timedelta(days=1)  # a slot of the day before may come later
    last: datetime | None = None
    barren = 0  # days without a slot since the last one: a schedule that excludes every day has none
    while True:
        barren += 1
        if barren > 2 * len(WEEKDAYS):
            raise ValueError(f"the schedule has no day left for deadlines: {schedule!r}")
        if schedule.allows(day):
            slot = slot_on(day, schedule)
            shown = slot.astimezone(tz).date()
            if slot >= moment and (last is None or slot > last) and schedule.allows(shown):
                last, barren = slot, 0
                yield slot
        day += timedelta(days=1)


def slot_on(day: date, schedule: DeadlineSchedule) -> datetime:
    """The instant (UTC) of the slot on ``day``, DST resolved as the module says."""
    local = datetime.combine(day, schedule.wall_time).replace(tzinfo=schedule.tz, fold=0)
    return local.astimezone(UTC)


def describe(schedule: DeadlineSchedule) -> str:
    """``21:00 Europe/Berlin, every day except Saturday and Sunday``: the schedule for /game status."""
    skipped = [WEEKDAYS[d] for d in schedule.skip_weekdays]
    every = "every day" if schedule.every_days == 1 else f"every {schedule.every_days} days"
    text = f"{schedule.at} {schedule.zone}, {every}"
    if skipped:
        text += f" except {_and(skipped)}"
        if schedule.every_days > 1:
            text += ", which are not counted"
    if schedule.fix_short_phases:
        text += "; retreats and adjustments close at that time too"
    return text


def local_time_text(moment: datetime, zone: str) -> str:
    """``Tuesday 2 April, 21:00 Europe/Berlin``: a deadline on the schedule's wall clock (for every
    deadline line, beside Discord's own timestamp that each reader sees in their own zone)."""
    local = _utc(moment, "the moment").astimezone(ZoneInfo(zone))
    return f"{WEEKDAYS[local.weekday()]} {local.day} {MONTHS[local.month - 1]}, {local:%H:%M} {zone}"


def parse_weekdays(text: str) -> tuple[int, ...]:
    """Weekdays as typed by a user (``sat, sun``; ``Saturday and Sunday``; ``weekend``; ``none``),
    as sorted numbers (0 = Monday); InvalidSettings naming every word that is not a weekday."""
    words = [w for w in re.split(r"[\s,;/]+|\band\b", text.strip().lower()) if w]
    if words in ([], ["none"], ["no"]):
        return ()
    found: set[int] = set()
    unknown: list[str] = []
    for word in words:
        if word in ("weekend", "weekends"):
            found.update((5, 6))
            continue
        try:
            found.add(_weekday_number(word))
        except ValueError:
            unknown.append(word)
    if unknown:
        raise InvalidSettings(
            [f"Not a day of the week: {', '.join(repr(w) for w in unknown)}."],
            "Name days like Saturday, sat or weekend, separated by commas.",
        )
    return tuple(sorted(found))


def zone_suggestions(name: str, *, limit: int = 3) -> list[str]:
    """Time zone names close to ``name`` (a misspelling, or a city without its region)."""
    typed = str(name).strip().lower().replace(" ", "_")
    zones = _zones()
    by_city = [z for low, z in zones.items() if low.rsplit("/", 1)[-1] == typed.rsplit("/", 1)[-1]]
    close = difflib.get_close_matches(typed, list(zones), n=limit, cutoff=0.6)
    found = [*sorted(by_city), *(zones[c] for c in close)]
    return list(dict.fromkeys(found))[:limit]


COMMON_ZONES = (
    "UTC",
    "Europe/London",
    "Europe/Berlin",
    "Europe/Paris",
    "Europe/Moscow",
    "America/New_York",
    "America/Chicago",
    "America/Los_Angeles",
    "America/Sao_Paulo",
    "Asia/Tokyo",
    "Australia/Sydney",
)


def zone_names(typed: str, *, limit: int = 25) -> list[str]:
    """Time zone names containing ``typed`` (any case; ``new york`` finds America/New_York), those
    starting with it or with a city starting with it first; a few common zones for nothing typed."""
    words = str(typed).strip().lower().replace(" ", "_")
    if not words:
        return list(COMMON_ZONES[:limit])
    found = [z for low, z in _zones().items() if words in low]

    def rank(zone: str) -> tuple[int, str]:
        low = zone.lower()
        return (0 if low.startswith(words) or low.rsplit("/", 1)[-1].startswith(words) else 1, zone)

    return sorted(found, key=rank)[:limit]


def _zone_or_problem(problems: list[str], name: object) -> str | None:
    """The zone's canonical spelling, or None and a problem with suggestions."""
    if isinstance(name, str):
        exact = _zones().get(name.strip().lower())
        if exact is not None:
            try:
                ZoneInfo(exact)
            except (ZoneInfoNotFoundError, ValueError):
                pass
            else:
                return exact
    hint = zone_suggestions(name) if isinstance(name, str) else []
    text = f"{name!r} is not a time zone"
    example = " (use a name like Europe/Berlin or America/New_York)."
    text += f"; did you mean {_or(hint)}?" if hint else example
    problems.append(text)
    return None


@cache
def _zones() -> dict[str, str]:
    """Every IANA zone name, keyed by its lower case spelling."""
    return {z.lower(): z for z in available_timezones()}


def _weekdays_or_problem(problems: list[str], value: object) -> tuple[int, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        problems.append(f"Excluded days must be a list of weekdays, not {value!r}.")
        return ()
    found: set[int] = set()
    bad: list[object] = []
    for item in value:
        try:
            found.add(_weekday_number(item))
        except ValueError:
            bad.append(item)
    if bad:
        problems.append(f"Not a day of the week: {', '.join(repr(b) for b in bad)}.")
    return tuple(sorted(found))


def _weekday_number(value: object) -> int:
    """0 (Monday) to 6 (Sunday) from a number or an English name or unique prefix (``sat``, ``tu``)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(WEEKDAYS):
        return value
    if isinstance(value, str):
        word = value.strip().lower()
        matches = [i for i, name in enumerate(WEEKDAYS) if len(word) >= 2 and name.lower().startswith(word)]
        if len(matches) == 1:
            return matches[0]
    raise ValueError(f"not a weekday: {value!r}")


def _normal_time(value: object) -> str | None:
    match = _TIME_RE.match(value) if isinstance(value, str) else None
    if match is None:
        return None
    hours, minutes = int(match.group(1)), int(match.group(2))
    if hours > 23 or minutes > 59:
        return None
    return f"{hours:02d}:{minutes:02d}"


def _utc(moment: datetime, what: str) -> datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware, got {moment!r}")
    return moment.astimezone(UTC)


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
