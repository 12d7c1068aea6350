"""A game's settings for these rules, validated together and stored as flat keys beside the other
settings in the game's JSON (``game.settings``)::

    {"deadlines": {"at": "21:00", "zone": "Europe/Berlin", "every_days": 1,
                   "skip_weekdays": ["saturday", "sunday"], "fix_short_phases": false} | null,
     "absence_days_per_year": 14, "grace_per_year": 0, "grace_hours": 24, "scoring": "draw_size"}

Missing keys take their defaults, so a game stored before these rules plays as it did: deadlines
after the phase lengths, no grace, draw-size scores (absences are allowed, 14 days a year).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gm.errors import InvalidSettings
from gm.rules.absences import DEFAULT_DAYS_PER_YEAR, MAX_DAYS_PER_YEAR
from gm.rules.deadlines import DeadlineSchedule, describe
from gm.rules.grace import GraceSetting
from gm.rules.scoring import DEFAULT_SYSTEM, SYSTEM_NAMES, check_system

KEYS = ("deadlines", "absence_days_per_year", "grace_per_year", "grace_hours", "scoring")


@dataclass(frozen=True, slots=True)
class RuleSettings:
    deadlines: DeadlineSchedule | None = None  # None: each phase lasts its length
    absence_days_per_year: int = DEFAULT_DAYS_PER_YEAR  # 0: no absences
    grace: GraceSetting = field(default_factory=GraceSetting)
    scoring: str = DEFAULT_SYSTEM

    def checked(self) -> tuple[RuleSettings, list[str]]:
        """These settings normalised as far as they can be, and every problem found (none: valid).
        For a caller that gathers them with its own into one refusal."""
        problems: list[str] = []
        deadlines = self.deadlines
        if deadlines is not None:
            deadlines, found = deadlines.checked()
            problems += found
        days = self.absence_days_per_year
        if not isinstance(days, int) or isinstance(days, bool) or not 0 <= days <= MAX_DAYS_PER_YEAR:
            problems.append(f"Absences may take 0 (none) to {MAX_DAYS_PER_YEAR} days a year, not {days!r}.")
        problems += self.grace.problems()
        scoring = self.scoring
        try:
            scoring = check_system(self.scoring)
        except InvalidSettings as refused:
            problems += refused.problems
        return RuleSettings(deadlines, days, self.grace, scoring), problems

    def validated(self) -> RuleSettings:
        settings, problems = self.checked()
        if problems:
            raise InvalidSettings(problems, "Change those values and try again.")
        return settings

    def to_json(self) -> dict[str, Any]:
        return {
            "deadlines": self.deadlines.to_json() if self.deadlines is not None else None,
            "absence_days_per_year": self.absence_days_per_year,
            "grace_per_year": self.grace.per_year,
            "grace_hours": self.grace.hours,
            "scoring": self.scoring,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RuleSettings:
        """From a game's settings JSON; other keys are ignored, missing ones take their defaults."""
        default = cls()
        stored = data.get("deadlines")
        return cls(
            deadlines=DeadlineSchedule.from_json(stored) if isinstance(stored, dict) else None,
            absence_days_per_year=data.get("absence_days_per_year", default.absence_days_per_year),
            grace=GraceSetting(
                per_year=data.get("grace_per_year", default.grace.per_year),
                hours=data.get("grace_hours", default.grace.hours),
            ),
            scoring=data.get("scoring", default.scoring),
        )

    def status_lines(self) -> dict[str, str]:
        """Labelled lines for /game status (valid settings)."""
        days = self.absence_days_per_year
        return {
            "Deadlines": describe(self.deadlines) if self.deadlines else "after each phase's length",
            "Absences": f"up to {days} days a year" if days else "none",
            "Grace": self.grace.describe(),
            "Scoring": SYSTEM_NAMES[self.scoring],
        }
