"""The map model: provinces, coasts and adjacency, loaded from a data file under data/.

A *location* is where a unit can stand: a province code (``PAR``) or, for the split-coast provinces,
a province code with its coast (``STP/NC``). Armies always stand on the bare province; fleets in
split-coast provinces stand on a coast. Adjacency is kept separately for armies (province to province)
and fleets (location to location, along coasts and across seas), because two provinces that share a
border are not necessarily connected by sea (ROM and VEN).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import NotRequired, TypedDict

DATA_DIR = Path(__file__).resolve().parent.parent / "data"

SEA = "sea"
COAST = "coast"
LAND = "land"


def province_of(location: str) -> str:
    """The province code of a location: ``STP/NC`` -> ``STP``."""
    slash = location.find("/")
    return location if slash < 0 else location[:slash]


def coast_of(location: str) -> str | None:
    """The coast of a location, or None: ``STP/NC`` -> ``NC``."""
    slash = location.find("/")
    return None if slash < 0 else location[slash + 1 :]


@dataclass(frozen=True, slots=True)
class Province:
    code: str
    name: str
    kind: str  # SEA, COAST or LAND
    supply_center: bool
    home: str | None
    coasts: tuple[str, ...]  # named coasts of a split-coast province, e.g. ("NC", "SC")
    aliases: tuple[str, ...]

    @property
    def is_sea(self) -> bool:
        return self.kind == SEA

    @property
    def is_land(self) -> bool:
        """True for provinces an army can stand in (inland and coastal)."""
        return self.kind != SEA

    @property
    def has_coast(self) -> bool:
        """True where a fleet can stand: seas and coastal land."""
        return self.kind != LAND

    @property
    def locations(self) -> tuple[str, ...]:
        """Where a fleet can stand in this province (the coasts, or the province itself)."""
        if self.coasts:
            return tuple(f"{self.code}/{c}" for c in self.coasts)
        return (self.code,)


@dataclass(slots=True)
class GameMap:
    """A board: provinces, powers and adjacency. Immutable after loading; share one instance."""

    name: str
    title: str
    powers: tuple[str, ...]
    power_aliases: dict[str, tuple[str, ...]]
    provinces: dict[str, Province]
    army_adjacency: dict[str, frozenset[str]]
    fleet_adjacency: dict[str, frozenset[str]]
    victory_centers: int
    start_phase: str
    start_units: dict[str, tuple[str, ...]]
    start_centers: dict[str, tuple[str, ...]]
    supply_centers: frozenset[str] = field(init=False)
    home_centers: dict[str, tuple[str, ...]] = field(init=False)
    locations: frozenset[str] = field(init=False)
    fleet_reach: dict[str, frozenset[str]] = field(init=False)  # location -> provinces a fleet enters
    province_at: dict[str, str] = field(init=False)  # location -> its province (province_of, as a table)

    def __post_init__(self) -> None:
        self.supply_centers = frozenset(p.code for p in self.provinces.values() if p.supply_center)
        self.home_centers = {
            power: tuple(sorted(p.code for p in self.provinces.values() if p.home == power))
            for power in self.powers
        }
        locs = set(self.provinces)
        for p in self.provinces.values():
            locs.update(p.locations)
        self.locations = frozenset(locs)
        self.province_at = {loc: province_of(loc) for loc in locs}
        self.fleet_reach = {
            loc: frozenset(province_of(d) for d in dests) for loc, dests in self.fleet_adjacency.items()
        }

    # --- movement -------------------------------------------------------------------------------

    def army_can_move(self, src: str, dst: str) -> bool:
        """An army in province ``src`` may move to adjacent land province ``dst`` without a convoy."""
        return province_of(dst) in self.army_adjacency.get(province_of(src), ())

    def fleet_can_move(self, src: str, dst: str) -> bool:
        """A fleet at location ``src`` may move to location ``dst`` (give the coast where there is one)."""
        return dst in self.fleet_adjacency.get(src, ())

    def fleet_destinations(self, src: str, dst_province: str) -> tuple[str, ...]:
        """The locations of ``dst_province`` a fleet at ``src`` can reach (one per coast it touches)."""
        prov = self.provinces.get(dst_province)
        if prov is None:
            return ()
        adj = self.fleet_adjacency.get(src, frozenset())
        return tuple(loc for loc in prov.locations if loc in adj)

    def can_reach(self, unit_type: str, src: str, dst_province: str) -> bool:
        """A unit of ``unit_type`` at ``src`` can move into ``dst_province`` (any coast) by itself.

        This is the test for support: a unit supports into a province it could itself move to,
        whatever the coast (DATC 6.B.4).
        """
        if unit_type == "A":
            return dst_province in self.army_adjacency.get(province_of(src), ())
        return dst_province in self.fleet_reach.get(src, ())

    def neighbours(self, unit_type: str, src: str) -> frozenset[str]:
        """Locations a unit can move to by itself (armies: provinces; fleets: coasts where named)."""
        if unit_type == "A":
            return self.army_adjacency.get(province_of(src), frozenset())
        return self.fleet_adjacency.get(src, frozenset())

    def is_coastal(self, province: str) -> bool:
        p = self.provinces.get(province)
        return p is not None and p.kind == COAST

    def is_sea(self, province: str) -> bool:
        p = self.provinces.get(province)
        return p is not None and p.kind == SEA

    def name_of(self, location: str) -> str:
        """A readable name: ``STP/NC`` -> ``St. Petersburg (north coast)``."""
        prov = self.provinces[province_of(location)]
        coast = coast_of(location)
        if coast is None:
            return prov.name
        words = {"NC": "north coast", "SC": "south coast", "EC": "east coast", "WC": "west coast"}
        return f"{prov.name} ({words.get(coast, coast)})"


class ProvinceJSON(TypedDict):
    """One province of a map file (data/<name>.json)."""

    code: str
    name: str
    kind: str
    supply_center: bool
    home: str | None
    coasts: NotRequired[list[str]]
    aliases: NotRequired[list[str]]


class StartJSON(TypedDict):
    phase: str
    units: dict[str, list[str]]  # power -> unit texts
    centers: dict[str, list[str]]  # power -> provinces


class MapJSON(TypedDict):
    """A map file (data/<name>.json), as json.load reads it."""

    name: str
    title: NotRequired[str]
    note: NotRequired[str]
    powers: list[str]
    power_aliases: NotRequired[dict[str, list[str]]]
    victory_centers: int
    start: StartJSON
    provinces: list[ProvinceJSON]
    army_adjacency: list[list[str]]  # [province, province] pairs
    fleet_adjacency: list[list[str]]  # [location, location] pairs


def _build_map(raw: MapJSON) -> GameMap:
    provinces = {
        p["code"]: Province(
            code=p["code"],
            name=p["name"],
            kind=p["kind"],
            supply_center=bool(p["supply_center"]),
            home=p["home"],
            coasts=tuple(p.get("coasts", ())),
            aliases=tuple(p.get("aliases", ())),
        )
        for p in raw["provinces"]
    }
    army: dict[str, set[str]] = {code: set() for code in provinces}
    for a, b in raw["army_adjacency"]:
        army[a].add(b)
        army[b].add(a)
    fleet: dict[str, set[str]] = {}
    for p in provinces.values():
        if p.has_coast:
            for loc in p.locations:
                fleet[loc] = set()
    for a, b in raw["fleet_adjacency"]:
        fleet[a].add(b)
        fleet[b].add(a)
    start = raw["start"]
    return GameMap(
        name=raw["name"],
        title=raw.get("title", raw["name"]),
        powers=tuple(raw["powers"]),
        power_aliases={k: tuple(v) for k, v in raw.get("power_aliases", {}).items()},
        provinces=provinces,
        army_adjacency={k: frozenset(v) for k, v in army.items()},
        fleet_adjacency={k: frozenset(v) for k, v in fleet.items()},
        victory_centers=int(raw["victory_centers"]),
        start_phase=start["phase"],
        start_units={k: tuple(v) for k, v in start["units"].items()},
        start_centers={k: tuple(v) for k, v in start["centers"].items()},
    )


@cache
def load_map(name: str = "standard") -> GameMap:
    """Load (once) and return the named map from data/variants/<name>/map.json."""
    path = DATA_DIR / "variants" / name / "map.json"
    if not path.is_file():
        raise ValueError(f"unknown map {name!r}: no file {path}")
    with path.open(encoding="utf-8") as f:
        return _build_map(json.load(f))
