"""The variants the engine plays: which map, which first phase, how many centers win, what is closed.

A board names its variant (``Board.variant``, the JSON's ``"variant"``); the engine reads the rules
from the :class:`Variant` of that name:

- ``standard``: the Standard map as it is, from Spring 1901, 18 centers to win.
- ``ww1914``: the rulebook's two-player World War I game. The Standard map and starting units, but
  the first phase is Spring 1914 and 24 centers win. Italy is neutral until Spring 1915: its units
  only hold, and no unit may enter Italian territory (VEN, ROM, NAP, TUS, PIE, APU) - no move,
  convoy, retreat or support into it. From Spring 1915 the territory is open and Italy plays
  normally (whoever holds it; the coin flip that decides it is the game master's business).

Closed provinces are a property of a phase: :meth:`Variant.closed_at` gives the set for one phase,
and ``Board.closed`` holds it for the board's phase, so the checks cost nothing on variants
without closed territory.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from engine.mapdata import GameMap, load_map
from engine.phase import Phase

if TYPE_CHECKING:
    from engine.board import Board

_OPEN: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Variant:
    """How one variant differs from its map's own set-up."""

    name: str
    title: str
    map_name: str
    start_phase: str | None = None  # None: the map's own first phase
    victory_centers: int | None = None  # None: the map's own target
    closed: frozenset[str] = _OPEN  # provinces no unit may enter ...
    open_from: Phase | None = None  # ... before this phase (e.g. S1915M); None: always
    neutral: tuple[str, ...] = ()  # powers whose units only hold while the provinces are closed

    def game_map(self) -> GameMap:
        return load_map(self.map_name)

    def first_phase(self) -> Phase:
        return Phase.parse(self.start_phase or self.game_map().start_phase)

    def target(self, game_map: GameMap | None = None) -> int:
        """The number of supply centers that wins."""
        if self.victory_centers is not None:
            return self.victory_centers
        return (game_map or self.game_map()).victory_centers

    def closed_at(self, phase: Phase) -> frozenset[str]:
        """The provinces no unit may enter in ``phase`` (empty when nothing is closed then)."""
        if not self.closed:
            return _OPEN
        if self.open_from is not None and phase.sort_key() >= self.open_from.sort_key():
            return _OPEN
        return self.closed

    def closure_reason(self) -> str:
        """Why no unit may enter a closed province: "Italy is neutral until Spring 1915: ..."."""
        return f"{self.neutral_until()}: its territory cannot be entered"

    def neutral_reason(self) -> str:
        """Why a neutral power's orders are refused while its territory is closed."""
        return f"{self.neutral_until()}: its units hold"

    def neutral_until(self) -> str:
        """"Italy is neutral until Spring 1915": what closes the territory, and until when."""
        who = " and ".join(p.title() for p in self.neutral) or "This territory"
        opens = self.open_from
        if opens is None:
            return f"{who} is neutral"
        return f"{who} is neutral until {_SEASONS[opens.season]} {opens.year}"


_SEASONS = {"S": "Spring", "F": "Fall", "W": "Winter"}

STANDARD = Variant(name="standard", title="Standard", map_name="standard")

WW1914 = Variant(
    name="ww1914",
    title="World War I (two players)",
    map_name="standard",
    start_phase="S1914M",
    victory_centers=24,
    closed=frozenset({"VEN", "ROM", "NAP", "TUS", "PIE", "APU"}),
    open_from=Phase("S", 1915, "M"),
    neutral=("ITALY",),
)

VARIANTS: Mapping[str, Variant] = MappingProxyType({v.name: v for v in (STANDARD, WW1914)})


class UnknownVariant(ValueError):
    """A variant name the engine does not know."""


def get_variant(name: str) -> Variant:
    """The variant called ``name``; UnknownVariant (a ValueError) naming the known ones otherwise."""
    hit = VARIANTS.get(name)
    if hit is None:
        raise UnknownVariant(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}")
    return hit


def initial_board(name: str) -> Board:
    """The opening position of variant ``name`` (Spring 1914 for ww1914), with ``board.variant == name``."""
    from engine.board import Board  # here, not at the top: the board module imports this one

    return Board.initial(variant=get_variant(name).name)
