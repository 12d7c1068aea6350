"""The board state: phase, units, supply-center ownership and dislodged units, with its JSON form.

The JSON form is the engine contract's (DESIGN.md)::

    {"variant": "standard", "phase": "F1901R",
     "units":   {"FRANCE": ["A PAR", "F SPA/SC"]},
     "centers": {"FRANCE": ["BRE", "MAR", "PAR"]},
     "dislodged": {"RUSSIA": {"A WAR": {"attacker_from": "PRU", "retreats": ["GAL", "LVN"]}}}}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from engine.mapdata import GameMap, province_of
from engine.orders import Unit, shared_unit
from engine.phase import Phase
from engine.variants import UnknownVariant, Variant, get_variant


@dataclass(frozen=True, slots=True)
class Dislodged:
    """A unit that must retreat: who dislodged it (from where) and where it may go."""

    power: str
    unit: Unit
    attacker_from: str | None
    retreats: tuple[str, ...]


class BoardError(ValueError):
    """A board description that is not possible (unknown province, two units in one province...)."""


@dataclass(slots=True)
class Board:
    """One moment of a game. Treat as immutable: the adjudicator returns new boards.

    ``rules`` is the :class:`engine.variants.Variant` named by ``variant`` and ``closed`` the
    provinces it closes in ``phase`` (worked out once, here: build a new board for another phase).
    """

    game_map: GameMap
    phase: Phase
    units: dict[str, tuple[Unit, ...]]  # power -> units
    centers: dict[str, frozenset[str]]  # power -> owned supply centers
    dislodged: dict[str, tuple[Dislodged, ...]] = field(default_factory=dict)  # power -> dislodged
    variant: str = "standard"
    rules: Variant = field(init=False, repr=False, compare=False)  # the variant called ``variant``
    closed: frozenset[str] = field(init=False, repr=False, compare=False)  # no entry in this phase
    _occupant: dict[str, tuple[str, Unit]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.rules = _rules(self.variant)
        if self.rules.map_name != self.game_map.name:
            raise BoardError(
                f"the {self.variant} variant is played on the {self.rules.map_name} map, "
                f"not on {self.game_map.name}"
            )
        self.closed = self.rules.closed_at(self.phase)
        occupant: dict[str, tuple[str, Unit]] = {}
        for power, units in self.units.items():
            for unit in units:
                prov = unit.province
                if prov in occupant:
                    raise BoardError(f"two units in {prov}: {occupant[prov][1]} and {unit}")
                occupant[prov] = (power, unit)
        self._occupant = occupant

    # --- lookups -------------------------------------------------------------------------------

    def unit_at(self, province: str) -> Unit | None:
        """The unit standing in ``province`` (any coast), or None."""
        hit = self._occupant.get(province_of(province))
        return None if hit is None else hit[1]

    def owner_at(self, province: str) -> str | None:
        """The power whose unit stands in ``province``, or None."""
        hit = self._occupant.get(province_of(province))
        return None if hit is None else hit[0]

    def occupied(self) -> dict[str, tuple[str, Unit]]:
        """province -> (power, unit) for every unit on the board (do not modify)."""
        return self._occupant

    def owner_of_center(self, province: str) -> str | None:
        for power, centers in self.centers.items():
            if province in centers:
                return power
        return None

    def dislodged_of(self, power: str) -> tuple[Dislodged, ...]:
        return self.dislodged.get(power, ())

    def all_units(self) -> list[tuple[str, Unit]]:
        return [(power, unit) for power, units in self.units.items() for unit in units]

    # --- construction --------------------------------------------------------------------------

    @classmethod
    def initial(cls, game_map: GameMap | None = None, variant: str = "standard") -> Board:
        """The starting position of the variant: the map's units and centers, in the variant's first
        phase (Spring 1901 for the standard variant, Spring 1914 for ww1914)."""
        rules = _rules(variant)
        game_map = game_map or rules.game_map()
        return cls(
            game_map=game_map,
            phase=rules.first_phase(),
            units={p: tuple(Unit.from_text(u) for u in us) for p, us in game_map.start_units.items()},
            centers={p: frozenset(cs) for p, cs in game_map.start_centers.items()},
            variant=variant,
        )

    @classmethod
    def from_json(cls, data: dict[str, Any], game_map: GameMap | None = None) -> Board:
        """Read the contract's JSON form. Raises BoardError with a readable reason on bad input.

        The optional ``"variant"`` (default ``standard``) names the variant, whose map is used when
        ``game_map`` is not given.
        """
        variant = str(data.get("variant") or "standard")
        game_map = game_map or _rules(variant).game_map()
        try:
            phase = _phase(str(data["phase"]))
        except (KeyError, ValueError) as exc:
            raise BoardError(f"bad or missing phase: {exc}") from None
        units: dict[str, tuple[Unit, ...]] = {}
        for power, texts in (data.get("units") or {}).items():
            units[_power(game_map, power)] = tuple(_unit(game_map, t) for t in texts)
        centers: dict[str, frozenset[str]] = {}
        seen: dict[str, str] = {}
        for power, provs in (data.get("centers") or {}).items():
            power = _power(game_map, power)
            for prov in provs:
                if prov not in game_map.supply_centers:
                    raise BoardError(f"{prov} is not a supply center")
                if prov in seen:
                    raise BoardError(f"{prov} is owned by both {seen[prov]} and {power}")
                seen[prov] = power
            centers[power] = frozenset(provs)
        dislodged: dict[str, tuple[Dislodged, ...]] = {}
        for power, entries in (data.get("dislodged") or {}).items():
            power = _power(game_map, power)
            items = []
            for text, info in entries.items():
                info = info or {}
                retreats = tuple(info.get("retreats") or ())
                for loc in retreats:
                    if loc not in game_map.locations:
                        raise BoardError(f"unknown retreat location {loc!r}")
                items.append(Dislodged(power, _unit(game_map, text), info.get("attacker_from"), retreats))
            dislodged[power] = tuple(items)
        return cls(
            game_map=game_map,
            phase=phase,
            units=units,
            centers=centers,
            dislodged=dislodged,
            variant=variant,
        )

    def to_json(self) -> dict[str, Any]:
        """The contract's JSON form; powers, units and centers in a stable order."""
        out: dict[str, Any] = {
            "variant": self.variant,
            "phase": str(self.phase),
            "units": {p: [str(u) for u in us] for p, us in sorted(self.units.items()) if us},
            "centers": {p: sorted(cs) for p, cs in sorted(self.centers.items()) if cs},
        }
        dislodged = {
            p: {
                str(d.unit): {"attacker_from": d.attacker_from, "retreats": list(d.retreats)}
                for d in ds
            }
            for p, ds in sorted(self.dislodged.items())
            if ds
        }
        if dislodged:
            out["dislodged"] = dislodged
        return out

    def center_counts(self) -> dict[str, int]:
        return {p: len(self.centers.get(p, ())) for p in self.game_map.powers}


def _rules(variant: str) -> Variant:
    try:
        return get_variant(variant)
    except UnknownVariant as exc:
        raise BoardError(str(exc)) from None


@lru_cache(maxsize=1024)
def _phase(name: str) -> Phase:
    """Phase.parse, remembered: every request names its phase, and a regular expression is slow."""
    return Phase.parse(name)


def _power(game_map: GameMap, name: str) -> str:
    if name in game_map.powers:
        return name
    upper = str(name).strip().upper()
    if upper not in game_map.powers:
        raise BoardError(f"unknown power {name!r}; powers are {', '.join(game_map.powers)}")
    return upper


_UNIT_TABLES: dict[int, tuple[GameMap, dict[str, Unit]]] = {}


def _unit_table(game_map: GameMap) -> dict[str, Unit]:
    """Canonical text -> Unit for every unit that can stand on the map (``A PAR``, ``F STP/NC``)."""
    hit = _UNIT_TABLES.get(id(game_map))
    if hit is not None and hit[0] is game_map:
        return hit[1]
    table = {}
    for prov in game_map.provinces.values():
        if prov.is_land:
            table[f"A {prov.code}"] = shared_unit("A", prov.code)
        if prov.has_coast:
            for loc in prov.locations:
                table[f"F {loc}"] = shared_unit("F", loc)
    _UNIT_TABLES[id(game_map)] = (game_map, table)
    return table


def _unit(game_map: GameMap, text: str) -> Unit:
    """The unit a board's JSON names; canonical text is a table lookup, anything else is checked."""
    hit = _unit_table(game_map).get(text)
    if hit is not None:
        return hit
    try:
        unit = Unit.from_text(str(text).strip().upper())
    except ValueError as exc:
        raise BoardError(str(exc)) from None
    if unit.location not in game_map.locations:
        raise BoardError(f"unknown location in {text!r}")
    prov = game_map.provinces[unit.province]
    if unit.type == "A" and not prov.is_land:
        raise BoardError(f"an army cannot stand in the sea ({text!r})")
    if unit.type == "F":
        if not prov.has_coast:
            raise BoardError(f"a fleet cannot stand inland ({text!r})")
        if prov.coasts and unit.location == prov.code:
            raise BoardError(f"a fleet in {prov.code} must name its coast ({text!r})")
    if unit.type == "A" and unit.location != unit.province:
        raise BoardError(f"an army stands on a province, not a coast ({text!r})")
    return unit
