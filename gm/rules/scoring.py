"""The scores of a finished game, by the systems Diplomacy players use.

A result (gm.endings.ending's ``game.result``) is one of: a *solo* (a power reached the victory target), a
*concession* (the others conceded the game to one power), a *draw* (agreed by vote, shared by every
surviving power), a *short game* (``last_year``: the last year was played and the most centers decide;
the result names one leader, or several sharing the most) or a *moderator* end (no winner).

Which powers a result names as its winners (:meth:`FinalResult.winners`): the solo or concession
winner; the draw's powers; the short game's leader or leaders; and, when a moderator ended the game,
every surviving power (nobody won; the game stopped while they were all still in it).

Draw-size scoring (``draw_size``, the default)
    The result's winners share 100 points equally; every other power scores 0. A solo is worth 100,
    a two-way draw 50 each, a seven-way draw 14.29 each: the fewer who share a result, the more it
    is worth, and surviving outside it is worth nothing.

Sum-of-Squares (``sum_of_squares``)
    A solo or a concession scores 100 for the winner and 0 for the others. Any other result scores
    every power 100 x (its centers squared) / (the sum of every power's centers squared): a power
    with twice the centers of another scores four times as much, so growing pays even in a draw,
    and every power holding centers scores something. (If no power holds a center, the survivors
    share equally.)

Center count (``center_count``)
    Each power scores the number of supply centers it holds at the end. A solo or a concession ends
    the game for everyone: the winner scores every supply center on the map and the others 0.

Draw-size and Sum-of-Squares scores add up to 100 over the powers of a game (the map's neutral
powers included, which in practice hold no score under draw-size and little under Sum-of-Squares);
center counts add up to the centers held.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gm.errors import InvalidSettings

DRAW_SIZE, SUM_OF_SQUARES, CENTER_COUNT = "draw_size", "sum_of_squares", "center_count"
SYSTEMS = (DRAW_SIZE, SUM_OF_SQUARES, CENTER_COUNT)
DEFAULT_SYSTEM = DRAW_SIZE
SYSTEM_NAMES = {DRAW_SIZE: "draw-size", SUM_OF_SQUARES: "Sum-of-Squares", CENTER_COUNT: "center count"}
KINDS = ("solo", "last_year", "draw", "concession", "moderator")
SOLO_KINDS = ("solo", "concession")

# How a power ended a game, best first (gm.rules.leaderboard counts them).
SOLO, DRAW, SURVIVED, ELIMINATED = "solo", "draw", "survived", "eliminated"
OUTCOMES = (SOLO, DRAW, SURVIVED, ELIMINATED)


@dataclass(frozen=True, slots=True)
class FinalResult:
    """How a game ended: the kind, the final centers of every power, the survivors, and the powers
    named by the result (``winner``, or ``shared`` by a draw or by a short game's leaders)."""

    kind: str
    centers: Mapping[str, int]
    survivors: frozenset[str] = field(default_factory=frozenset)
    winner: str | None = None
    shared: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown way to end a game: {self.kind!r}")
        if self.kind in SOLO_KINDS and self.winner is None:
            raise ValueError(f"a {self.kind} needs a winner")

    @classmethod
    def from_result(cls, result: Mapping[str, Any]) -> FinalResult:
        """From a game's stored result (gm.endings.ending.make_result)."""
        return cls(
            kind=result["kind"],
            centers={p: int(n) for p, n in (result.get("centers") or {}).items()},
            survivors=frozenset(result.get("survivors") or ()),
            winner=result.get("winner"),
            shared=tuple(result.get("shared") or ()),
        )

    def winners(self) -> tuple[str, ...]:
        """The powers the result names: they share it (see the module's text)."""
        if self.kind in SOLO_KINDS:
            return (self.winner,)  # type: ignore[return-value]  # a solo result always names its winner
        if self.kind == "moderator":
            return tuple(sorted(self.survivors))
        if self.winner is not None:
            return (self.winner,)
        return tuple(self.shared)


def score(
    result: FinalResult, system: str = DEFAULT_SYSTEM, *, map_centers: int | None = None
) -> dict[str, float]:
    """Every power's score under ``system``. ``map_centers``: the supply centers on the map (center
    count gives them all to a solo winner; default: the centers held at the end)."""
    powers = list(result.centers)
    if system == DRAW_SIZE:
        winners = result.winners()
        share = 100 / len(winners) if winners else 0.0
        return {p: share if p in winners else 0.0 for p in powers}
    if system == SUM_OF_SQUARES:
        if result.kind in SOLO_KINDS:
            return {p: 100.0 if p == result.winner else 0.0 for p in powers}
        squares = {p: result.centers[p] ** 2 for p in powers}
        total = sum(squares.values())
        if total == 0:
            alive = [p for p in powers if p in result.survivors]
            return {p: 100 / len(alive) if p in alive else 0.0 for p in powers}
        return {p: 100 * squares[p] / total for p in powers}
    if system == CENTER_COUNT:
        if result.kind in SOLO_KINDS:
            everything = map_centers if map_centers is not None else sum(result.centers.values())
            return {p: float(everything) if p == result.winner else 0.0 for p in powers}
        return {p: float(result.centers[p]) for p in powers}
    raise ValueError(f"unknown scoring system: {system!r}")


def outcome_of(result: FinalResult, power: str) -> str:
    """How ``power`` ended the game: ``solo`` (it won alone: a solo, a concession, or alone at the top
    of a short game), ``draw`` (it shares a draw or the top of a short game), ``survived`` (still in
    the game, outside the result; every survivor of a game a moderator ended), or ``eliminated``."""
    if result.kind != "moderator" and power in result.winners():
        return SOLO if len(result.winners()) == 1 else DRAW
    return SURVIVED if power in result.survivors else ELIMINATED


def check_system(name: object) -> str:
    """A scoring system as typed (``Sum-of-Squares``, ``dss``, ``center count``), by its stored name;
    InvalidSettings naming the choices otherwise."""
    typed = str(name).strip().lower().replace("-", "_").replace(" ", "_") if isinstance(name, str) else ""
    aliases = {"dss": DRAW_SIZE, "sos": SUM_OF_SQUARES, "centers": CENTER_COUNT, "cc": CENTER_COUNT}
    found = typed if typed in SYSTEMS else aliases.get(typed)
    if found is None:
        choices = ", ".join(f"{SYSTEM_NAMES[s]} ({s})" for s in SYSTEMS)
        raise InvalidSettings([f"Scoring must be one of {choices}, not {name!r}."])
    return found


def score_text(value: float) -> str:
    """``100``, ``33.33``, ``12.5``: a score as shown (two decimals at most)."""
    return f"{value:.2f}".rstrip("0").rstrip(".")
