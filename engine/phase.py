"""Phase names: ``S1901M`` = Spring 1901 movement, ``F1901R`` = Fall retreats, ``W1901A`` = adjustments."""

from __future__ import annotations

import re
from dataclasses import dataclass

MOVEMENT = "M"
RETREATS = "R"
ADJUSTMENTS = "A"

_SEASON_NAMES = {"S": "Spring", "F": "Fall", "W": "Winter"}
_KIND_NAMES = {MOVEMENT: "Movement", RETREATS: "Retreats", ADJUSTMENTS: "Adjustments"}
_PHASE_RE = re.compile(r"^([SFW])(\d{4})([MRA])$")
# The order in which phases follow one another within a year.
_CYCLE = (("S", MOVEMENT), ("S", RETREATS), ("F", MOVEMENT), ("F", RETREATS), ("W", ADJUSTMENTS))


@dataclass(frozen=True, slots=True)
class Phase:
    season: str  # "S", "F" or "W"
    year: int
    kind: str  # MOVEMENT, RETREATS or ADJUSTMENTS

    @classmethod
    def parse(cls, text: str) -> Phase:
        m = _PHASE_RE.match(text.strip().upper())
        if not m or (m.group(1), m.group(3)) not in _CYCLE:
            raise ValueError(f"not a phase name: {text!r} (expected e.g. S1901M, F1901R, W1901A)")
        return cls(m.group(1), int(m.group(2)), m.group(3))

    def __str__(self) -> str:
        return f"{self.season}{self.year:04d}{self.kind}"

    @property
    def long_name(self) -> str:
        """``Spring 1901 Movement``."""
        return f"{_SEASON_NAMES[self.season]} {self.year} {_KIND_NAMES[self.kind]}"

    @property
    def is_fall(self) -> bool:
        return self.season == "F"

    def successor(self) -> Phase:
        """The phase that follows in the full cycle, before any skipping of empty phases."""
        i = _CYCLE.index((self.season, self.kind))
        if i == len(_CYCLE) - 1:
            season, kind = _CYCLE[0]
            return Phase(season, self.year + 1, kind)
        season, kind = _CYCLE[i + 1]
        return Phase(season, self.year, kind)

    def sort_key(self) -> tuple[int, int]:
        return (self.year, _CYCLE.index((self.season, self.kind)))
