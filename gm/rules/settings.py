"""The community's rules among a game's settings, as these rules see them: phases closing at a time
of day, absences, grace and the scoring system. A view of the game's settings
(gm.settings.GameSettings.rules), which declares, checks and stores them."""

from __future__ import annotations

from dataclasses import dataclass, field

from gm.rules.absences import DEFAULT_DAYS_PER_YEAR
from gm.rules.deadlines import DeadlineSchedule, describe
from gm.rules.grace import GraceSetting
from gm.rules.scoring import DEFAULT_SYSTEM, SYSTEM_NAMES


@dataclass(frozen=True, slots=True)
class RuleSettings:
    deadlines: DeadlineSchedule | None = None  # None: each phase lasts its length
    absence_days_per_year: int = DEFAULT_DAYS_PER_YEAR  # 0: no absences
    grace: GraceSetting = field(default_factory=GraceSetting)
    scoring: str = DEFAULT_SYSTEM

    def status_lines(self) -> dict[str, str]:
        """Labelled lines for /game status (valid settings)."""
        days = self.absence_days_per_year
        return {
            "Deadlines": describe(self.deadlines) if self.deadlines else "after each phase's length",
            "Absences": f"up to {days} days a year" if days else "none",
            "Grace": self.grace.describe(),
            "Scoring": SYSTEM_NAMES[self.scoring],
        }
