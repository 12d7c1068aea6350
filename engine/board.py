"""The board state: phase, units, supply-center ownership and dislodged units, with its JSON form.

The JSON form is the engine contract's (docs/ARCHITECTURE.md, "The engine's contract")::

    {"variant": "standard", "phase": "F1901R",
     "units":   {"FRANCE": ["A PAR", "F SPA/SC"]},
     "centers": {"FRANCE": ["BRE", "MAR", "PAR"]},
     "dislodged": {"RUSSIA": {"A WAR": {"attacker_from": "PRU", "retreats": ["GAL", "LVN"]}}}}
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NotRequired, TypedDict

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
    # Options the request gave that the board or the map contradicts, with why: (location, reason).
    # They are no options; a retreat ordered there is refused with that reason (see Board.from_json).
    refused: tuple[tuple[str, str], ...] = field(default=(), compare=False)


class DislodgedJSON(TypedDict):
    attacker_from: str | None
    retreats: list[str]


class BoardJSON(TypedDict):
    """A board's JSON form, as :meth:`Board.to_json` writes it (see the module docstring)."""

    variant: str
    phase: str
    units: dict[str, list[str]]  # power -> unit texts
    centers: dict[str, list[str]]  # power -> supply centers
    dislodged: NotRequired[dict[str, dict[str, DislodgedJSON]]]  # power -> unit text -> its entry


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
    # province -> (power, unit) for every unit on the board, worked out once here (do not modify)
    occupant: dict[str, tuple[str, Unit]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.rules = _rules(self.variant)
        if self.rules.map_name != self.game_map.name:
            raise BoardError(
                f"the {self.variant} variant is played on the {self.rules.map_name} map, "
                f"not on {self.game_map.name}"
            )
        self.closed = self.rules.closed_at(self.phase)
        occupant = {unit.province: (power, unit) for power, units in self.units.items() for unit in units}
        if len(occupant) != sum(map(len, self.units.values())):
            _two_in_one(self.units)
        self.occupant = occupant

    # --- lookups -------------------------------------------------------------------------------

    def unit_at(self, province: str) -> Unit | None:
        """The unit standing in ``province`` (any coast), or None."""
        hit = self.occupant.get(province_of(province))
        return None if hit is None else hit[1]

    def owner_at(self, province: str) -> str | None:
        """The power whose unit stands in ``province``, or None."""
        hit = self.occupant.get(province_of(province))
        return None if hit is None else hit[0]

    def occupied(self) -> dict[str, tuple[str, Unit]]:
        """province -> (power, unit) for every unit on the board (do not modify)."""
        return self.occupant

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
        units = rules.start_units if rules.start_units is not None else game_map.start_units
        centers = rules.start_centers if rules.start_centers is not None else game_map.start_centers
        return cls(
            game_map=game_map,
            phase=rules.first_phase(),
            units={p: tuple(Unit.from_text(u) for u in us) for p, us in units.items()},
            centers={p: frozenset(cs) for p, cs in centers.items()},
            variant=variant,
        )

    @classmethod
    def from_json(cls, data: Mapping[str, object], game_map: GameMap | None = None) -> Board:
        """Read the contract's JSON form. Raises BoardError, naming the field and what it expected,
        for anything else: a wrong shape, an unknown phase, power, unit or province.

        The optional ``"variant"`` (default ``standard``) names the variant, whose map is used when
        ``game_map`` is not given. Missing or null ``units``, ``centers`` and ``dislodged``, or a
        power's null entry in them, mean none. Codes are read in any case (``"par"`` is ``PAR``).
        """
        if not isinstance(data, Mapping):
            raise BoardError(
                f"a board must be a JSON object with a phase, units and centers; got {describe_json(data)}"
            )
        variant = data.get("variant")
        if variant is None:
            variant = "standard"
        elif type(variant) is not str:
            raise BoardError(
                f'"variant" must be the name of a variant, e.g. "standard"; got {describe_json(variant)}'
            )
        game_map = game_map or _rules(variant).game_map()
        phase = _phase_field(data.get("phase"))
        units: dict[str, tuple[Unit, ...]] = {}
        table = _unit_table(game_map)
        for power, texts in _by_power(data, "units", game_map):
            where = f'"units" of {power}'
            got = []
            for text in _items(texts, where, '["A PAR", "F BRE"]'):
                unit = table.get(text) if type(text) is str else None  # canonical text: the usual case
                got.append(_unit(game_map, text, where) if unit is None else unit)
            units[power] = tuple(got)
        centers: dict[str, frozenset[str]] = {}
        seen: dict[str, str] = {}
        for power, provs in _by_power(data, "centers", game_map):
            where = f'"centers" of {power}'
            owned = []
            for item in _items(provs, where, '["PAR", "BRE"]'):
                prov = _code(item, where, "a supply center", "PAR")
                if prov not in game_map.supply_centers:
                    raise BoardError(f"{where}: {prov} is not a supply center")
                if seen.setdefault(prov, power) != power:
                    raise BoardError(f"{prov} is owned by both {seen[prov]} and {power}")
                owned.append(prov)
            centers[power] = frozenset(owned)
        dislodged: dict[str, tuple[Dislodged, ...]] = {}
        for power, entries in _by_power(data, "dislodged", game_map):
            where = f'"dislodged" of {power}'
            items = _object(entries, where, _DISLODGED_EXAMPLE)
            dislodged[power] = tuple(
                _checked_options(game_map, units, _dislodged(game_map, power, text, info, where), where)
                for text, info in items
            )
        return cls(
            game_map=game_map,
            phase=phase,
            units=units,
            centers=centers,
            dislodged=dislodged,
            variant=variant,
        )

    def to_json(self) -> BoardJSON:
        """The contract's JSON form; powers, units and centers in a stable order."""
        out: BoardJSON = {
            "variant": self.variant,
            "phase": str(self.phase),
            "units": {p: [u.text for u in us] for p, us in sorted(self.units.items()) if us},
            "centers": {p: sorted(cs) for p, cs in sorted(self.centers.items()) if cs},
        }
        dislodged: dict[str, dict[str, DislodgedJSON]] = {
            p: {d.unit.text: {"attacker_from": d.attacker_from, "retreats": list(d.retreats)} for d in ds}
            for p, ds in sorted(self.dislodged.items())
            if ds
        }
        if dislodged:
            out["dislodged"] = dislodged
        return out

    def center_counts(self) -> dict[str, int]:
        return {p: len(self.centers.get(p, ())) for p in self.game_map.powers}


def _two_in_one(units: Mapping[str, Sequence[Unit]]) -> None:
    """Raise BoardError naming two units that stand in one province."""
    seen: dict[str, Unit] = {}
    for unit in (u for us in units.values() for u in us):
        if unit.province in seen:
            raise BoardError(f"two units in {unit.province}: {seen[unit.province]} and {unit}")
        seen[unit.province] = unit


def initial_board(name: str) -> Board:
    """The opening position of variant ``name`` (Spring 1914 for ww1914), with ``board.variant == name``."""
    return Board.initial(variant=_rules(name).name)


def _rules(variant: str) -> Variant:
    try:
        return get_variant(variant)
    except UnknownVariant as exc:
        raise BoardError(str(exc)) from None


@lru_cache(maxsize=1024)
def _phase(name: str) -> Phase:
    """Phase.parse, remembered: every request names its phase, and a regular expression is slow."""
    return Phase.parse(name)


_EXAMPLES = {
    "units": '{"FRANCE": ["A PAR", "F BRE"]}',
    "centers": '{"FRANCE": ["PAR", "BRE"]}',
    "dislodged": '{"RUSSIA": {"A WAR": {"attacker_from": "PRU", "retreats": ["GAL", "LVN"]}}}',
}
_DISLODGED_EXAMPLE = '{"A WAR": {"attacker_from": "PRU", "retreats": ["GAL", "LVN"]}}'


def describe_json(value: object) -> str:
    """A JSON value as an error message names it: ``a list``, ``the text "A PAR"``, ``null``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {json.dumps(value[:40])}"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    return type(value).__name__


def _phase_field(value: object) -> Phase:
    if value is None:
        raise BoardError('"phase" is missing: name the phase, e.g. "S1901M"')
    if type(value) is not str:
        raise BoardError(f'"phase" must be a phase name like "S1901M"; got {describe_json(value)}')
    try:
        return _phase(value)
    except ValueError as exc:
        raise BoardError(f'"phase": {exc}') from None


def _object(value: object, where: str, example: str) -> Iterable[tuple[object, object]]:
    """The items of a JSON object (null: none); BoardError for anything else."""
    if value is None:
        return ()
    if not isinstance(value, Mapping):
        raise BoardError(f"{where} must be an object like {example}; got {describe_json(value)}")
    return value.items()


def _by_power(data: Mapping[str, object], name: str, game_map: GameMap) -> Iterator[tuple[str, object]]:
    """(power, value) for each entry of the field ``name``, an object keyed by power."""
    done: set[str] = set()
    for key, value in _object(data.get(name), f'"{name}"', _EXAMPLES[name]):
        power = _power(game_map, key, name)
        if power in done:
            raise BoardError(f'"{name}" names {power} twice')
        done.add(power)
        yield power, value


def _items(value: object, where: str, example: str) -> Sequence[object]:
    """The items of a JSON list (null: none); BoardError for anything else."""
    if value is None:
        return ()
    if not isinstance(value, list | tuple):
        raise BoardError(f"{where} must be a list like {example}; got {describe_json(value)}")
    return value


def _code(item: object, where: str, what: str, example: str) -> str:
    """A province or location code given as text, in any case."""
    if type(item) is not str:
        raise BoardError(f'{where}: {describe_json(item)} is not {what}; write it as text, e.g. "{example}"')
    return item.strip().upper()


def _power(game_map: GameMap, name: object, field: str) -> str:
    if name in game_map.powers:
        return name
    upper = str(name).strip().upper()
    if upper not in game_map.powers:
        raise BoardError(f'unknown power {name!r} in "{field}"; powers are {", ".join(game_map.powers)}')
    return upper


def _dislodged(game_map: GameMap, power: str, text: object, info: object, where: str) -> Dislodged:
    unit = _unit(game_map, text, where)
    where = f"{where}, {unit}"
    if info is None:
        info = {}
    elif not isinstance(info, Mapping):
        example = '{"attacker_from": "PRU", "retreats": ["GAL", "LVN"]}'
        raise BoardError(f"{where} must be an object like {example}; got {describe_json(info)}")
    attacker = info.get("attacker_from")
    if attacker is not None:
        attacker = _code(attacker, f'{where}: "attacker_from"', "a province", "PRU")
        if attacker not in game_map.provinces:
            raise BoardError(f'{where}: "attacker_from" {attacker} is not a province')
    retreats = []
    for item in _items(info.get("retreats"), f'{where}: "retreats"', '["GAL", "LVN"]'):
        loc = _code(item, f'{where}: "retreats"', "a province", "GAL")
        if loc not in game_map.locations:
            raise BoardError(f"{where}: unknown retreat location {loc}")
        retreats.append(loc)
    return Dislodged(power, unit, attacker, tuple(retreats))


def _checked_options(
    game_map: GameMap, units: Mapping[str, Sequence[Unit]], entry: Dislodged, where: str
) -> Dislodged:
    """``entry`` with each retreat option the board or the map contradicts moved to ``refused``: an
    occupied province, one the unit cannot move to (not adjacent, an army at sea, a fleet inland), a
    split-coast province given to a fleet without its coast. A dislodged unit whose province holds a
    unit of its own power in ``units`` (listed twice) is a request error."""
    unit = entry.unit
    occupants = {u.province: (p, u) for p, us in units.items() for u in us}
    standing = occupants.get(unit.province)
    if standing is not None and standing[0] == entry.power:
        raise BoardError(
            f'{where}, {unit}: {entry.power} also has {standing[1]} in "units"; a dislodged unit is '
            'listed only under "dislodged", and its attacker under "units"'
        )
    kept: list[str] = []
    refused: list[tuple[str, str]] = []
    for option in entry.retreats:
        why = _option_problem(game_map, occupants, unit, option)
        if why is None:
            kept.append(province_of(option) if unit.type == "A" else option)
        else:
            refused.append((option, why))
    if not refused:
        return entry
    return Dislodged(entry.power, unit, entry.attacker_from, tuple(dict.fromkeys(kept)), tuple(refused))


def _option_problem(
    game_map: GameMap, occupants: Mapping[str, tuple[str, Unit]], unit: Unit, option: str
) -> str | None:
    prov = province_of(option)
    province = game_map.provinces[prov]
    if prov in occupants:
        return f"{prov} is occupied by {occupants[prov][1]}"
    if unit.type == "A":
        if province.is_sea:
            return f"{prov} is a sea, where an army cannot go"
        if not game_map.army_can_move(unit.location, prov):
            return f"{prov} is not next to {unit.province}"
        return None
    if not province.has_coast:
        return f"{prov} is inland, where a fleet cannot go"
    if province.coasts and option == prov:
        reachable = game_map.fleet_destinations(unit.location, prov)
        named = " or ".join(reachable or province.locations)
        return f"{prov} has two coasts and the option does not say which ({named})"
    if not game_map.fleet_can_move(unit.location, option):
        return f"{option} is not next to {unit.location}"
    return None


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


def _unit(game_map: GameMap, text: object, where: str) -> Unit:
    """The unit a board's JSON names; canonical text is a table lookup, anything else is checked."""
    if type(text) is not str:
        raise BoardError(
            f'{where}: {describe_json(text)} is not a unit; write each unit as text, e.g. "A PAR"'
        )
    hit = _unit_table(game_map).get(text)
    if hit is not None:
        return hit
    try:
        unit = Unit.from_text(text.strip().upper())
    except ValueError as exc:
        raise BoardError(f"{where}: {exc}") from None
    if unit.location not in game_map.locations:
        raise BoardError(f"{where}: unknown location in {text!r}")
    prov = game_map.provinces[unit.province]
    if unit.type == "A" and not prov.is_land:
        raise BoardError(f"{where}: an army cannot stand in the sea ({text!r})")
    if unit.type == "F":
        if not prov.has_coast:
            raise BoardError(f"{where}: a fleet cannot stand inland ({text!r})")
        if prov.coasts and unit.location == prov.code:
            raise BoardError(f"{where}: a fleet in {prov.code} must name its coast ({text!r})")
    if unit.type == "A" and unit.location != unit.province:
        raise BoardError(f"{where}: an army stands on a province, not a coast ({text!r})")
    return shared_unit(unit.type, unit.location)
