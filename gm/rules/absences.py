"""Absences: a player says in advance which days they cannot play (``/absence``), and a deadline that
would fall while they are away is moved to after their return.

An absence covers whole days, from its first to its last day inclusive, on the wall clock of the
game's zone (the deadline schedule's, else UTC): from 00:00 on the first day to 00:00 on the day after
the last. The rules:

- Declaring (:func:`check_absence`): the last day is not before the first, the first is not in the
  past nor more than :data:`MAX_DAYS_AHEAD` days ahead, it overlaps none of the same player's other
  absences, and with them it stays within the game's limit of days per calendar year (counted in
  each year an absence touches). A limit of 0 means the game allows no absences.
- Moving (:func:`move_for_absences`): a deadline inside the absence of a player who must act in the
  phase is moved as if the phase opened when the player comes back (00:00 after the last day): it
  closes after the phase's own length, or at the schedule's slot, and never less than
  :data:`RETURN_LEAD` after the return, so a 30-minute retreat does not close at 00:30. Each absence
  moves a deadline once only: the caller says which absences were used already. If the moved
  deadline falls inside another player's absence, that one moves it again (once too).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from gm.errors import GameError
from gm.rules.deadlines import (
    MONTHS,
    DeadlineSchedule,
    PhaseLengths,
    local_time_text,
    phase_deadline,
    slots_from,
)

DEFAULT_DAYS_PER_YEAR = 14
MAX_DAYS_PER_YEAR = 90  # the highest limit a game may set
MAX_DAYS_AHEAD = 365  # how far ahead an absence may start
RETURN_LEAD = timedelta(hours=12)  # the least time a player has after coming back


class InvalidAbsence(GameError):
    """An absence that cannot be declared; ``problems`` names every reason at once."""

    def __init__(self, problems: list[str], hint: str | None = None) -> None:
        super().__init__(" ".join(problems), hint)
        self.problems = problems


@dataclass(frozen=True, slots=True)
class Absence:
    """``user_id`` is away from ``first_day`` to ``last_day``, both included. ``id``: the stored row's,
    if any. Absences compare by value, so one loaded again equals itself."""

    user_id: int
    first_day: date
    last_day: date
    id: int | None = None

    @property
    def days(self) -> int:
        return (self.last_day - self.first_day).days + 1

    def days_in_year(self, year: int) -> int:
        first = max(self.first_day, date(year, 1, 1))
        last = min(self.last_day, date(year, 12, 31))
        return max(0, (last - first).days + 1)

    def overlaps(self, other: Absence) -> bool:
        return self.first_day <= other.last_day and other.first_day <= self.last_day

    def window(self, zone: str = "UTC") -> tuple[datetime, datetime]:
        """From 00:00 on the first day to 00:00 after the last, on ``zone``'s clocks, as UTC instants."""
        tz = ZoneInfo(zone)
        start = datetime.combine(self.first_day, time(0), tzinfo=tz)
        end = datetime.combine(self.last_day + timedelta(days=1), time(0), tzinfo=tz)
        return start.astimezone(UTC), end.astimezone(UTC)

    def covers(self, moment: datetime, zone: str = "UTC") -> bool:
        start, end = self.window(zone)
        return start <= moment < end


@dataclass(frozen=True, slots=True)
class AbsenceMove:
    """A deadline moved by absences: the new deadline and the absences that moved it, in order (each
    is used now: pass it in ``used`` from then on)."""

    deadline: datetime
    absences: tuple[Absence, ...]


def check_absence(new: Absence, existing: Iterable[Absence], *, today: date, days_per_year: int) -> Absence:
    """``new`` if it may be declared, else InvalidAbsence naming every problem.

    ``existing``: the absences already declared (those of other users are ignored); ``today``: the
    date on the game's wall clock; ``days_per_year``: the game's limit (0: no absences)."""
    if days_per_year <= 0:
        raise InvalidAbsence(["This game does not allow absences."], "Ask a moderator to extend a deadline.")
    problems: list[str] = []
    if new.last_day < new.first_day:
        problems.append(f"The absence ends ({_day(new.last_day)}) before it starts ({_day(new.first_day)}).")
    if new.first_day < today:
        problems.append(f"The absence starts in the past ({_day(new.first_day)}; today is {_day(today)}).")
    elif (new.first_day - today).days > MAX_DAYS_AHEAD:
        problems.append(
            f"An absence may start at most {MAX_DAYS_AHEAD} days ahead, not on {_day(new.first_day)}."
        )
    same = new.id is not None  # the stored absence itself, checked again, is not another one
    mine = [a for a in existing if a.user_id == new.user_id and not (same and a.id == new.id)]
    for other in sorted(mine, key=lambda a: a.first_day):
        if new.last_day >= new.first_day and new.overlaps(other):
            problems.append(f"It overlaps your absence {span_text(other)}.")
    if new.last_day >= new.first_day:
        for year in range(new.first_day.year, new.last_day.year + 1):
            taken = sum(a.days_in_year(year) for a in mine)
            wanted = new.days_in_year(year)
            if taken + wanted > days_per_year:
                left = max(0, days_per_year - taken)
                problems.append(
                    f"This game allows {days_per_year} days of absence a year: in {year} you have "
                    f"{left} left, and this absence takes {wanted}."
                )
    if problems:
        raise InvalidAbsence(problems, "Change the dates and declare the absence again.")
    return new


def move_for_absences(
    deadline: datetime,
    absences: Iterable[Absence],
    *,
    acting: Collection[int],
    used: Collection[Absence] = (),
    kind: str,
    lengths: PhaseLengths,
    schedule: DeadlineSchedule | None = None,
    zone: str | None = None,
) -> AbsenceMove | None:
    """The deadline of a phase of ``kind`` moved past the absences of the players in ``acting`` (the
    user ids who must act in the phase), or None when no unused absence covers it.

    ``zone``: whose wall clock the absences' days are on (default: the schedule's, else UTC)."""
    zone = zone or (schedule.zone if schedule is not None else "UTC")
    candidates = [a for a in absences if a.user_id in acting and a not in used]
    applied: list[Absence] = []
    current = deadline
    while True:
        covering = [a for a in candidates if a not in applied and a.covers(current, zone)]
        if not covering:
            break
        current = max(_after_return(a.window(zone)[1], kind, lengths, schedule) for a in covering)
        applied.extend(sorted(covering, key=lambda a: (a.first_day, a.user_id)))
    if not applied:
        return None
    return AbsenceMove(deadline=current, absences=tuple(applied))


def announcement_text(move: AbsenceMove, zone: str = "UTC") -> str:
    """The public line: where the deadline went and why, by the absences' dates (the adapter may
    mention their players)."""
    spans = " and ".join(span_text(a) for a in move.absences)
    away = "a player is away" if len(move.absences) == 1 else "players are away"
    return f"The deadline moves to {local_time_text(move.deadline, zone)}: {away} {spans}."


def upcoming(absences: Iterable[Absence], *, today: date) -> list[Absence]:
    """The absences not over yet, soonest first (what a moderator sees, and may cancel)."""
    return sorted((a for a in absences if a.last_day >= today), key=lambda a: (a.first_day, a.user_id))


def span_text(absence: Absence) -> str:
    """``from 3 to 7 May 2024``, ``on 3 May 2024``, ``from 30 December 2024 to 2 January 2025``."""
    first, last = absence.first_day, absence.last_day
    if first == last:
        return f"on {_day(first)}"
    if (first.year, first.month) == (last.year, last.month):
        return f"from {first.day} to {_day(last)}"
    if first.year == last.year:
        return f"from {first.day} {MONTHS[first.month - 1]} to {_day(last)}"
    return f"from {_day(first)} to {_day(last)}"


def _after_return(
    back: datetime, kind: str, lengths: PhaseLengths, schedule: DeadlineSchedule | None
) -> datetime:
    moved = phase_deadline(kind, back, lengths, schedule)
    earliest = back + RETURN_LEAD
    if moved >= earliest:
        return moved
    return next(slots_from(earliest, schedule)) if schedule is not None else earliest


def _day(day: date) -> str:
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"
