"""Convoy geometry: which chains of fleets at sea can carry an army from one coast to another.

A convoy route is a sequence of sea provinces, each holding a fleet, where the first sea touches
the army's province, each sea touches the next, and the last touches the destination. Only the
fleets' positions matter here; whether they were ordered to convoy (and survive) is the
resolver's business (:mod:`engine.adjudicator.movement`).

Two board-level questions decide whether an order is legal before anything is resolved:

* :func:`route_exists` - could *some* chain of fleets now on the board carry the army? A move or a
  support that needs a convoy is illegal without one (DATC 6.D.32, 6.D.31, 4.E.1).
* :func:`fleet_on_minimal_route` - is this fleet part of some route that has no shortcut? A convoy
  order by a fleet that no route needs is illegal (DATC 6.G.19, 6.F.12): otherwise a fleet off the
  army's way could "express intent" for a convoy it takes no part in.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from engine.mapdata import GameMap, province_of


@dataclass(frozen=True, slots=True)
class SeaGraph:
    """Province-level convoy adjacency of one map."""

    seas: frozenset[str]
    sea_neighbours: dict[str, frozenset[str]]  # sea -> adjacent seas
    sea_shores: dict[str, frozenset[str]]  # sea -> coastal land provinces it touches
    shore_seas: dict[str, frozenset[str]]  # coastal land province -> seas it touches


_GRAPHS: dict[int, tuple[GameMap, SeaGraph]] = {}


def sea_graph(game_map: GameMap) -> SeaGraph:
    """The convoy adjacency of ``game_map``, built once per map."""
    hit = _GRAPHS.get(id(game_map))
    if hit is not None and hit[0] is game_map:
        return hit[1]
    seas = frozenset(code for code, p in game_map.provinces.items() if p.is_sea)
    sea_neighbours: dict[str, set[str]] = {s: set() for s in seas}
    sea_shores: dict[str, set[str]] = {s: set() for s in seas}
    shore_seas: dict[str, set[str]] = {}
    for sea in seas:
        for loc in game_map.fleet_adjacency.get(sea, ()):
            prov = province_of(loc)
            if prov in seas:
                sea_neighbours[sea].add(prov)
            else:
                sea_shores[sea].add(prov)
                shore_seas.setdefault(prov, set()).add(sea)
    graph = SeaGraph(
        seas=seas,
        sea_neighbours={k: frozenset(v) for k, v in sea_neighbours.items()},
        sea_shores={k: frozenset(v) for k, v in sea_shores.items()},
        shore_seas={k: frozenset(v) for k, v in shore_seas.items()},
    )
    _GRAPHS[id(game_map)] = (game_map, graph)
    return graph


def route_exists(
    graph: SeaGraph,
    src: str,
    dst: str,
    fleets: Collection[str],
    usable: Callable[[str], bool] | None = None,
) -> bool:
    """A chain of the sea provinces in ``fleets`` joins province ``src`` to province ``dst``.

    ``usable(sea)`` may veto a fleet; it is asked lazily, only for fleets the search reaches, which
    is what the resolver needs (asking means resolving whether that fleet is dislodged).
    """
    if src == dst:
        return False
    starts = graph.shore_seas.get(src)
    if not starts:
        return False
    seen: set[str] = set()
    frontier = [s for s in starts if s in fleets]
    while frontier:
        sea = frontier.pop()
        if sea in seen:
            continue
        seen.add(sea)
        if usable is not None and not usable(sea):
            continue
        if dst in graph.sea_shores[sea]:
            return True
        for nxt in graph.sea_neighbours[sea]:
            if nxt in fleets and nxt not in seen:
                frontier.append(nxt)
    return False


def fleet_on_minimal_route(graph: SeaGraph, src: str, dst: str, fleets: Collection[str], fleet: str) -> bool:
    """``fleet`` lies on a route from ``src`` to ``dst`` through ``fleets`` that has no shortcut.

    A route has no shortcut when no fleet on it could be left out: no sea touches a sea further
    along than the next one, only the first sea touches ``src`` and only the last touches ``dst``.
    Every route contains such a minimal one, so a fleet on none of them is never needed.
    """
    if src == dst or fleet not in fleets:
        return False
    shores = graph.sea_shores
    neighbours = graph.sea_neighbours
    src_seas = graph.shore_seas.get(src, frozenset())

    def extend(path: list[str], has_fleet: bool) -> bool:
        last = path[-1]
        if dst in shores[last]:
            return has_fleet
        for nxt in neighbours[last]:
            if nxt not in fleets or nxt in path or nxt in src_seas:
                continue
            # no shortcut: the new sea may touch only the last sea of the path
            if any(nxt in neighbours[earlier] for earlier in path[:-1]):
                continue
            path.append(nxt)
            if extend(path, has_fleet or nxt == fleet):
                return True
            path.pop()
        return False

    return any(extend([start], start == fleet) for start in src_seas if start in fleets)
