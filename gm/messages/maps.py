"""The maps a game stores (db.models.PhaseMap.kind) and how a finished game's last map is titled.

Below every folder that draws, stores or sends a map (gm.phases.worker draws them, gm.endings and
gm.reports read them back, messages refer to them by kind), so that each of them names a map the same
way without importing the others.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.variants import power_display_name

ORDERS_MAP = "orders"  # the phase's outcome: units where they ended, dislodgements, orders and results
POSITION_MAP = "position"  # the next phase's start board
FINAL_MAP = "final"  # the position after the last phase of a game that ended at a close
ANIMATION = "animation"  # the GIF of the whole game, stored on its last phase
CHART = "chart"  # the supply centers per power per year (render.chart), stored on a game's last phase
# Under the fog of war (the game's ``fog`` setting), each power's own view of the orders map and of
# the position, stored beside the full maps (which only the end reveals): ``orders-FRANCE``.
FOG_KINDS = {ORDERS_MAP: "orders", POSITION_MAP: "pos"}


def fog_kind(kind: str, power: str) -> str:
    """The stored kind of ``power``'s view of a map of ``kind`` (ORDERS_MAP or POSITION_MAP)."""
    return f"{FOG_KINDS[kind]}-{power}"


def fog_view(kind: str) -> tuple[str, str] | None:
    """(the map's kind, the power) of a fogged view's stored kind; None for a full map."""
    prefix, _, power = kind.partition("-")
    full = next((k for k, short in FOG_KINDS.items() if short == prefix), None)
    return (full, power) if full is not None and power else None


NAMED_UP_TO = 10
"""Past this many powers sharing an ending, the words count them (``a draw of 34 powers``): a list of
Chaos's 34 names makes no title."""


def ending_words(kind: str, winner: str | None = None, shared: Sequence[str] = ()) -> str:
    """How a game ended, in a few words: ``France wins``, ``a draw of England and France``..."""
    names = [power_display_name(p) for p in shared]
    if len(names) > NAMED_UP_TO:
        names = [f"{len(names)} powers"]
    if kind == "solo" and winner:
        return f"{power_display_name(winner)} wins"
    if kind == "last_year":
        if winner:
            return f"{power_display_name(winner)} wins on centers"
        if names:
            return f"{_and(names)} share the win"
        return "the last year is played"
    if kind == "draw":
        return f"a draw of {_and(names)}" if names else "a draw"
    if kind == "concession" and winner:
        return f"conceded to {power_display_name(winner)}"
    if kind == "moderator":
        return "ended by a moderator"
    return "the game is over"


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def final_title(phase_long_name: str, ending: str, *, at_close: bool = True) -> str:
    """``Game over: France wins · position after Fall 1902 Movement`` (``at_close`` False: the game
    ended while the phase was being played, ``... · position in Spring 1903 Movement``)."""
    where = "after" if at_close else "in"
    return f"Game over: {ending} \u00b7 position {where} {phase_long_name}"
