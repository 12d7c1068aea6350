"""The fog of war as gm applies it (a game's ``fog`` setting): what a power's player may be told.

The engine says what a power sees (engine.fog: its units' and centers' provinces and their
neighbours); here, what that means for a game's messages and records. During a phase a power sees
from where its units stood at the start, and after it from where they ended: the orders map and the
results of a phase show what it saw at either moment (:func:`seen_in_phase`); a position, what it sees
in it. A player of several powers sees what any of them sees.

- :func:`seen_by`, :func:`seen_in_phase`: provinces in sight;
- :func:`fogged_orders`, :func:`fogged_change`, :func:`fogged_missed`: a phase's results as a power
  may read them;
- :func:`counts_due`: whether a phase's public results may give the center counts (the ``counts``
  setting), when centers have changed hands: after the fall, and at the end.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from engine import Board
from engine.fog import fog_board, order_seen, visible_provinces
from engine.mapdata import GameMap, province_of
from engine.phase import Phase


def seen_by(board: Board, powers: Iterable[str]) -> frozenset[str]:
    """The provinces any of ``powers`` sees on ``board``."""
    seen: set[str] = set()
    for power in powers:
        seen |= visible_provinces(board, power)
    return frozenset(seen)


def seen_in_phase(before: Board, after: Board, powers: Iterable[str]) -> frozenset[str]:
    """What ``powers`` saw during a phase: from the board it started with and from the one it left."""
    powers = tuple(powers)
    return seen_by(before, powers) | seen_by(after, powers)


def view_of(board: Board, powers: Collection[str]) -> tuple[Board, frozenset[str]]:
    """``board`` as the player of ``powers`` sees it, and the provinces it sees."""
    seen = seen_by(board, powers)
    return fog_board(board, next(iter(powers), ""), seen), seen


def fogged_orders(
    orders: Iterable[Mapping[str, Any]], game_map: GameMap, powers: Collection[str], seen: Collection[str]
) -> list[Mapping[str, Any]]:
    """The result lines the player of ``powers`` may read: its own, and the others' that name a
    province it saw (engine.fog.order_seen)."""
    return [
        line
        for line in orders
        if line.get("power") in powers or any(order_seen(game_map, line, p, seen) for p in powers)
    ]


def fogged_change(
    change: Mapping[str, Any], powers: Collection[str], seen: Collection[str]
) -> dict[str, Any]:
    """What changed (gm.phases.results.changes) in what the player of ``powers`` saw: dislodgements,
    builds and removals in provinces it saw, centers it saw change hands (or that were its own), and
    after a fall's moves those that change hands after its retreats as the units stand (``standing``),
    as its map counts them; eliminations, which everybody learns, as they are."""

    def sees(unit: str) -> bool:
        return province_of(unit.split()[-1]) in seen

    def centers(key: str) -> list[dict[str, Any]]:
        return [
            c for c in change.get(key, ()) if c["center"] in seen or c["to"] in powers or c["from"] in powers
        ]

    fogged = {
        "dislodged": [d for d in change.get("dislodged", ()) if d["power"] in powers or sees(d["unit"])],
        "captures": centers("captures"),
        "built": [b for b in change.get("built", ()) if b["power"] in powers or sees(b["unit"])],
        "removed": [r for r in change.get("removed", ()) if r["power"] in powers or sees(r["unit"])],
        "eliminated": list(change.get("eliminated", ())),
    }
    if standing := centers("standing"):
        fogged["standing"] = standing
    return fogged


def fogged_missed(missed: Mapping[str, Any], powers: Collection[str]) -> dict[str, Any]:
    """Whose orders were missing, as the player of ``powers`` may read it: its own only (which units a
    rival left without orders would say where they stand)."""
    return {
        "none": [p for p in missed.get("none", ()) if p in powers],
        "partial": {p: gaps for p, gaps in (missed.get("partial") or {}).items() if p in powers},
    }


def counts_due(phase: str, next_phase: str | None) -> bool:
    """Centers have changed hands at the end of ``phase`` (the last phase of a fall turn, or the last
    phase of the game): the public results of a fogged game give the counts then (setting ``counts``)."""
    if next_phase is None:
        return True
    now, after = Phase.parse(phase), Phase.parse(next_phase)
    return now.kind != "A" and now.season == "F" and (after.kind == "A" or after.year > now.year)
