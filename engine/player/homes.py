"""The hard level's care for the home centres its builds will need (issue 43's sanity goals), kept apart
from the look-ahead's search (engine.player.lookahead calls it behind a switch)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.board import Board
from engine.player.geography import geography


def spring_blocked(
    before: Board, after: Board, power: str, ours: Mapping[str, int], threat: Mapping[str, int]
) -> int:
    """After a spring (``after``): the builds in sight that units of ours standing on quiet home centres
    (no other power's unit could enter them, ``threat``) would keep from being made. Builds in sight:
    our centres, the centres not ours our units stand on, and the empty ones more of ours than of any
    other power could enter (``ours``), less our units."""
    owned = before.centers.get(power, frozenset())
    occupant = after.occupant
    gains = 0
    for centre in geography(before.game_map).supply_centers:
        if centre in owned:
            continue
        standing = occupant.get(centre)
        if standing is not None:
            gains += standing[0] == power
        elif ours.get(centre, 0) > threat.get(centre, 0):
            gains += 1
    due = len(owned) + gains - len(after.units.get(power, ()))
    if due <= 0:
        return 0
    free = blocked = 0
    for home in before.game_map.home_centers.get(power, ()):
        if home not in owned:
            continue
        standing = occupant.get(home)
        if standing is None:
            free += 1
        elif standing[0] == power and threat.get(home, 0) == 0:
            blocked += 1
    return min(due, free + blocked) - min(due, free)
