"""The hard level's care for its home centres and for the game's balance (issue 43's sanity goals),
kept apart from the look-ahead's search (engine.player.lookahead calls these behind its switches)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.board import Board


def build_sites(
    before: Board, after: Board, power: str, centres: int, threat: Mapping[str, int]
) -> frozenset[str]:
    """The home centres of ours a build would stand on after this fall: empty after it and still ours,
    as many as the builds due (``centres`` then, less our units), the most threatened first. A unit
    built there covers it, so leaving it empty exposes nothing."""
    due = centres - len(after.units.get(power, ()))
    if due <= 0:
        return frozenset()
    owned = before.centers.get(power, frozenset())
    occupant = after.occupant
    empty = [h for h in before.game_map.home_centers.get(power, ()) if h in owned and h not in occupant]
    empty.sort(key=lambda h: (-threat.get(h, 0), h))
    return frozenset(empty[:due])
