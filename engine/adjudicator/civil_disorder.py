"""Which units go when a power must remove units it did not name (civil disorder, DATC 6.J).

The 2023 rules: remove first the unit farthest from the power's *owned* supply centers (DATC
6.J.11; older rulebooks measured to home centers). Distance is counted in moves between
provinces, any unit crossing land and sea alike (DATC 6.J.6, 6.J.10), so coasts do not matter
(6.J.9). Ties go to fleets before armies (6.J.7), then to the province whose name comes first in
the alphabet (6.J.4, 6.J.6).
"""

from __future__ import annotations

from collections.abc import Collection

from engine.board import Board
from engine.mapdata import GameMap, province_of
from engine.orders import Unit

_GRAPHS: dict[int, tuple[GameMap, dict[str, frozenset[str]]]] = {}


def province_graph(game_map: GameMap) -> dict[str, frozenset[str]]:
    """Province -> provinces reachable in one move by any unit (land and sea together)."""
    hit = _GRAPHS.get(id(game_map))
    if hit is not None and hit[0] is game_map:
        return hit[1]
    graph: dict[str, set[str]] = {code: set() for code in game_map.provinces}
    for src, dsts in game_map.army_adjacency.items():
        graph[src].update(dsts)
    for src, dsts in game_map.fleet_adjacency.items():
        graph[province_of(src)].update(province_of(d) for d in dsts)
    frozen = {k: frozenset(v) for k, v in graph.items()}
    _GRAPHS[id(game_map)] = (game_map, frozen)
    return frozen


def distances(game_map: GameMap, centers: Collection[str]) -> dict[str, int]:
    """Province -> number of moves to the nearest of ``centers`` (breadth-first search)."""
    graph = province_graph(game_map)
    dist = {c: 0 for c in centers}
    frontier = list(dist)
    while frontier:
        nxt = []
        for prov in frontier:
            d = dist[prov] + 1
            for other in graph[prov]:
                if other not in dist:
                    dist[other] = d
                    nxt.append(other)
        frontier = nxt
    return dist


def removal_order(board: Board, power: str) -> list[tuple[Unit, int | None]]:
    """``power``'s units in the order civil disorder removes them, each with its distance."""
    game_map = board.game_map
    dist = distances(game_map, board.centers.get(power, ()))
    far = len(game_map.provinces) + 1  # no owned center at all: every unit is "infinitely" far

    def key(unit: Unit) -> tuple[int, int, str]:
        d = dist.get(unit.province, far)
        return (-d, 0 if unit.type == "F" else 1, game_map.provinces[unit.province].name.lower())

    units = sorted(board.units.get(power, ()), key=key)
    return [(u, dist.get(u.province)) for u in units]
