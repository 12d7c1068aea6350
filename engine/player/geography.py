"""What the built-in player needs to know about a map, worked out once per map.

Two graphs of provinces: where an army can go next (the army adjacency) and where a fleet can go
next (from any of a province's coasts). Values spread along them (engine.player.values), and a
unit's reach (the provinces it could move or support into) says who threatens what.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.mapdata import GameMap, province_of
from engine.orders import Unit


@dataclass(frozen=True, slots=True)
class Geography:
    """One map's graphs, every tuple sorted (the player must not depend on set order)."""

    provinces: tuple[str, ...]  # every province, sorted
    army_graph: dict[str, tuple[str, ...]]  # land province -> land provinces an army moves to
    fleet_graph: dict[str, tuple[str, ...]]  # sea or coast -> provinces a fleet there moves to (any coast)
    fleet_reach: dict[str, tuple[str, ...]]  # location -> provinces a fleet there moves to
    supply_centers: frozenset[str]
    land: frozenset[str]  # where an army may stand
    waters: frozenset[str]  # where a fleet may stand (seas and coasts)

    def reach(self, unit: Unit) -> tuple[str, ...]:
        """The provinces ``unit`` could move (and so support) into by itself."""
        if unit.type == "A":
            return self.army_graph.get(unit.province, ())
        return self.fleet_reach.get(unit.location, ())


_CACHE: dict[int, tuple[GameMap, Geography]] = {}


def geography(game_map: GameMap) -> Geography:
    """The graphs of ``game_map``, built on first use and kept (maps are shared and never change)."""
    hit = _CACHE.get(id(game_map))
    if hit is not None and hit[0] is game_map:
        return hit[1]
    provinces = tuple(sorted(game_map.provinces))
    land = frozenset(p for p in provinces if game_map.provinces[p].is_land)
    waters = frozenset(p for p in provinces if game_map.provinces[p].has_coast)
    army_graph = {p: tuple(sorted(game_map.army_adjacency.get(p, ()))) for p in sorted(land)}
    fleet: dict[str, set[str]] = {p: set() for p in waters}
    for loc, dests in game_map.fleet_adjacency.items():
        fleet[province_of(loc)].update(province_of(d) for d in dests)
    geo = Geography(
        provinces=provinces,
        army_graph=army_graph,
        fleet_graph={p: tuple(sorted(ds)) for p, ds in sorted(fleet.items())},
        fleet_reach={loc: tuple(sorted(ps)) for loc, ps in game_map.fleet_reach.items()},
        supply_centers=game_map.supply_centers,
        land=land,
        waters=waters,
    )
    _CACHE[id(game_map)] = (game_map, geo)
    return geo
