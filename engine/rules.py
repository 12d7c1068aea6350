"""The rule switches a variant may ask for (``rules`` in its variant.json), as the engine plays them.

A switch is a named option with a setting; :func:`read_switches` reads a variant's into a
:class:`Switches`, which :class:`engine.variants.Variant` keeps as ``switches``. A variant asking for
a switch not in :data:`SUPPORTED` is listed but not playable.

``build_anywhere`` (Chaos; DPjudge's ``RULE BUILD_ANY``), setting ``true``
    A power builds in any supply centre it owns that stands empty, not only in its home centres.
    Everything else about builds is the Standard rule: a build needs more centres than units, the
    centre must be owned and vacant, a fleet only on a coast (and naming the coast where there
    are two). The number of builds is capped by those sites instead of the vacant home centres.

``convoy_ports`` (Ancient Mediterranean ``["BAL"]``, 1900 ``["GIB"]``; DPjudge's ``PORT``), setting a
list of provinces
    Each listed province is coastal land where a fleet may also convoy, as if it stood at sea: a
    fleet there may be ordered to convoy, and a chain of convoying fleets may run through it. An
    army may still stand in it, be convoyed from it and to it like any coast; a fleet in the port
    is never part of a route into or out of its own province. Ports are a fact of the board: every
    variant played on a map shares them (:func:`engine.variants.convoy_ports`), which lets the
    order parser read a route written through one (``A SAG - BAL - LIG - ETR``).

``cape_of_good_hope`` (1900), setting ``{"crossings": [[a, b], ...], "no_support_across": true,
"half_strength": true, "retreat_loses_to_others": true}``
    The crossings are ordinary fleet adjacencies of the map (Egypt and Hejaz to the Mid-Atlantic,
    round Africa) with three rules, each on when its flag is true (DPjudge's 1900.map comment):

    1. ``no_support_across``: a unit cannot support across a crossing: a fleet in Egypt or Hejaz
       cannot support a unit holding in or moving to the Mid-Atlantic, nor one in the Mid-Atlantic
       a unit holding in or moving to Egypt or Hejaz (the support order is invalid, as DPjudge
       has it). The fleet may still move across, and others may support its move (a fleet in the
       Eastern Mediterranean may support F MAO - EGY).
    2. ``half_strength``: a move across a crossing has half strength: its attack, its strength in a
       head-to-head battle and its strength in preventing others from entering are half of the
       usual 1 + supports. Chosen reading: the whole move is halved (supports included), so F MAO
       - EGY needs one support to bounce a unit that holds, and two to dislodge it. What the move
       leaves behind is not halved: a fleet that fails to cross holds its own province with
       strength 1. A convoyed army never crosses (it moves coast to coast) and is not halved.
    3. ``retreat_loses_to_others``: a unit retreating across a crossing is destroyed when any other
       unit retreats to the same place, and that other unit (when it is the only one not
       crossing) retreats there; two or more not crossing bounce as usual and all are destroyed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from engine.mapdata import GameMap

BUILD_ANYWHERE = "build_anywhere"
CONVOY_PORTS = "convoy_ports"
CAPE_OF_GOOD_HOPE = "cape_of_good_hope"

SUPPORTED: frozenset[str] = frozenset({BUILD_ANYWHERE, CONVOY_PORTS, CAPE_OF_GOOD_HOPE})
"""The rule switches the engine implements."""

_CAPE_FLAGS = ("no_support_across", "half_strength", "retreat_loses_to_others")


@dataclass(frozen=True, slots=True)
class Crossings:
    """Special adjacencies (1900's Cape of Good Hope) and the rules that go with them."""

    pairs: frozenset[tuple[str, str]]  # (province, province), both ways round
    no_support_across: bool = True
    half_strength: bool = True
    retreat_loses_to_others: bool = True

    def across(self, a: str, b: str) -> bool:
        """Whether provinces ``a`` and ``b`` are the two ends of a crossing."""
        return (a, b) in self.pairs


@dataclass(frozen=True, slots=True)
class Switches:
    """A variant's rule switches as the engine reads them (all off: the Standard rules)."""

    build_anywhere: bool = False
    convoy_ports: frozenset[str] = frozenset()
    crossings: Crossings | None = None

    def no_support_across(self, supporter: str, into: str) -> bool:
        """A unit in province ``supporter`` may not support into province ``into`` (rule 1 above)."""
        c = self.crossings
        return c is not None and c.no_support_across and (supporter, into) in c.pairs


STANDARD_RULES = Switches()


def read_switches(rules: Mapping[str, Any]) -> Switches:
    """The switches of a variant's ``rules`` (unknown ones are left out: the variant is then not
    playable, see Variant.playable). ValueError for a known switch with a setting of the wrong shape."""
    build = rules.get(BUILD_ANYWHERE, False)
    if not isinstance(build, bool):
        raise ValueError(f"rules.{BUILD_ANYWHERE} must be true or false, not {build!r}")
    ports = rules.get(CONVOY_PORTS, [])
    if not isinstance(ports, list | tuple) or not all(isinstance(p, str) for p in ports):
        raise ValueError(f"rules.{CONVOY_PORTS} must be a list of provinces, not {ports!r}")
    cape = rules.get(CAPE_OF_GOOD_HOPE)
    crossings = None
    if cape is not None:
        if not isinstance(cape, Mapping):
            raise ValueError(f"rules.{CAPE_OF_GOOD_HOPE} must be an object, not {cape!r}")
        pairs: set[tuple[str, str]] = set()
        for pair in cape.get("crossings", ()):
            if not isinstance(pair, list | tuple) or len(pair) != 2 or not all(type(p) is str for p in pair):
                raise ValueError(f"rules.{CAPE_OF_GOOD_HOPE}.crossings: {pair!r} is not two provinces")
            a, b = pair
            pairs |= {(a, b), (b, a)}
        flags = {}
        for flag in _CAPE_FLAGS:
            value = cape.get(flag, True)
            if not isinstance(value, bool):
                raise ValueError(f"rules.{CAPE_OF_GOOD_HOPE}.{flag} must be true or false, not {value!r}")
            flags[flag] = value
        crossings = Crossings(frozenset(pairs), **flags)
    if not build and not ports and crossings is None:
        return STANDARD_RULES
    return Switches(build, frozenset(ports), crossings)


class _RuledBy(Protocol):
    @property
    def switches(self) -> Switches: ...


class BuildBoard(Protocol):
    """What the build rules read of a board (an engine.board.Board): typed here as a Protocol, since
    the board is built on the variants, which are built on these rules."""

    @property
    def centers(self) -> Mapping[str, frozenset[str]]: ...

    @property
    def game_map(self) -> GameMap: ...

    @property
    def occupant(self) -> Mapping[str, object]: ...

    @property
    def rules(self) -> _RuledBy: ...


def build_sites(board: BuildBoard, power: str) -> tuple[str, ...]:
    """The provinces where ``power`` may build on ``board`` (if it has builds): the supply centres
    it owns that stand empty and are its home centres, or, with ``build_anywhere``, any of them.
    Sorted."""
    owned = board.centers.get(power, frozenset())
    if board.rules.switches.build_anywhere:
        candidates: frozenset[str] | tuple[str, ...] = owned
    else:
        candidates = board.game_map.home_centers.get(power, ())
    occupant = board.occupant
    return tuple(sorted(c for c in candidates if c in owned and c not in occupant))


def may_build_in(board: BuildBoard, power: str, province: str) -> bool:
    """Whether ``province`` is a kind of place ``power`` builds in (its home centre, or with
    ``build_anywhere`` any supply centre), leaving ownership and vacancy aside."""
    if board.rules.switches.build_anywhere:
        return province in board.game_map.supply_centers
    return province in board.game_map.home_centers.get(power, ())
