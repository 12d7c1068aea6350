"""Order types for every phase, and their canonical text.

Canonical text is what the engine prints and what the parser reads back unchanged
(docs/ARCHITECTURE.md, "Names and order text"): ``A PAR H``, ``A PAR - BUR``, ``A LON - NWY VIA``,
``F NTH C A LON - NWY``, ``A PAR S A MAR - BUR``, ``A PAR S F BRE``, ``A PAR R BUR``, ``A PAR D``,
``A PAR B``, ``F STP/NC B``, ``WAIVE``.

A parsed order may leave a unit's type unknown (``unit.type is None``) when the player omitted it;
:func:`engine.validation.validate_order` fills it in from the board. Such a unit prints as its
location alone (``PAR - BUR``), which the parser also reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from engine.mapdata import province_of

ARMY = "A"
FLEET = "F"


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit: type (``A``/``F``, or None when not yet known) and location (``PAR``, ``STP/NC``)."""

    type: str | None
    location: str
    # Derived once, at construction: the adjudicator asks for the province hundreds of times a
    # phase and prints units in every reason and result, and units are built rarely (boards and
    # the parser share them).
    province: str = field(init=False, repr=False, compare=False)
    text: str = field(init=False, repr=False, compare=False)  # canonical text: "A PAR", "F STP/NC"

    def __post_init__(self) -> None:
        object.__setattr__(self, "province", province_of(self.location))
        text = self.location if self.type is None else f"{self.type} {self.location}"
        object.__setattr__(self, "text", text)

    def __str__(self) -> str:
        return self.text

    @classmethod
    def from_text(cls, text: str) -> Unit:
        """Read canonical unit text (``A PAR``, ``F STP/NC``). Raises ValueError otherwise."""
        parts = text.split()
        if len(parts) != 2 or parts[0] not in (ARMY, FLEET):
            raise ValueError(f"not a unit: {text!r} (expected e.g. 'A PAR' or 'F STP/NC')")
        return cls(parts[0], parts[1])


_SHARED_UNITS: dict[tuple[str | None, str], Unit] = {}


def shared_unit(unit_type: str | None, location: str) -> Unit:
    """The one Unit for (type, location) that the parser, boards and the adjudicator share.

    Sharing makes the usual checks identity tests: a canonical order's unit *is* the board's unit.
    Only for locations of a map (the set stays small); any other Unit may be built directly.
    """
    key = (unit_type, location)
    unit = _SHARED_UNITS.get(key)
    if unit is None:
        unit = _SHARED_UNITS[key] = Unit(unit_type, location)
    return unit


@dataclass(frozen=True, slots=True)
class Order:
    """Base of all orders. ``unit`` is None only for WAIVE."""

    unit: Unit | None

    def __str__(self) -> str:
        return format_order(self)


@dataclass(frozen=True, slots=True)
class Hold(Order):
    unit: Unit


@dataclass(frozen=True, slots=True)
class Move(Order):
    """A move; ``via_convoy`` is the player's explicit "via convoy" (DATC 4.A.3)."""

    unit: Unit
    dest: str  # a location; fleets into split-coast provinces name the coast
    via_convoy: bool = False


@dataclass(frozen=True, slots=True)
class SupportHold(Order):
    unit: Unit
    supported: Unit


@dataclass(frozen=True, slots=True)
class SupportMove(Order):
    unit: Unit
    supported: Unit
    dest: str  # the province the supported unit moves to (a coast is allowed but not needed)


@dataclass(frozen=True, slots=True)
class Convoy(Order):
    unit: Unit  # the fleet
    convoyed: Unit  # the army, at its starting province
    dest: str  # the province the army goes to


@dataclass(frozen=True, slots=True)
class Retreat(Order):
    unit: Unit
    dest: str


@dataclass(frozen=True, slots=True)
class Disband(Order):
    """A dislodged unit disbanding instead of retreating (retreat phases)."""

    unit: Unit


@dataclass(frozen=True, slots=True)
class Build(Order):
    unit: Unit


@dataclass(frozen=True, slots=True)
class Remove(Order):
    """Removing a unit in an adjustment phase. Prints as ``A PAR D`` like a disband."""

    unit: Unit


@dataclass(frozen=True, slots=True)
class Waive(Order):
    """Declining a build in an adjustment phase."""

    unit: None = None


# --- quick constructors for the parser's fast path ---------------------------------------------------
# A frozen dataclass's __init__ sets each field through object.__setattr__, found afresh for every
# field; building the order is then the largest part of reading a new canonical line. These fill
# the same slots directly: the same objects (equal, hashable, immutable) in about half the time.

_new = object.__new__
_set = object.__setattr__


def quick_hold(unit: Unit) -> Hold:
    order = _new(Hold)
    _set(order, "unit", unit)
    return order


def quick_move(unit: Unit, dest: str, via_convoy: bool = False) -> Move:
    order = _new(Move)
    _set(order, "unit", unit)
    _set(order, "dest", dest)
    _set(order, "via_convoy", via_convoy)
    return order


def quick_support_hold(unit: Unit, supported: Unit) -> SupportHold:
    order = _new(SupportHold)
    _set(order, "unit", unit)
    _set(order, "supported", supported)
    return order


def quick_support_move(unit: Unit, supported: Unit, dest: str) -> SupportMove:
    order = _new(SupportMove)
    _set(order, "unit", unit)
    _set(order, "supported", supported)
    _set(order, "dest", dest)
    return order


def quick_convoy(unit: Unit, convoyed: Unit, dest: str) -> Convoy:
    order = _new(Convoy)
    _set(order, "unit", unit)
    _set(order, "convoyed", convoyed)
    _set(order, "dest", dest)
    return order


MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)
RETREAT_ORDERS = (Retreat, Disband)
ADJUSTMENT_ORDERS = (Build, Remove, Waive)
AdjustmentOrder: TypeAlias = Build | Remove | Waive  # what a winter takes


def format_order(order: Order) -> str:
    """The canonical text of an order."""
    formatter = FORMATTERS.get(type(order))
    if formatter is None:
        raise TypeError(f"not an order: {order!r}")
    return formatter(order)


def _move_text(o: Move) -> str:
    return f"{o.unit.text} - {o.dest} VIA" if o.via_convoy else f"{o.unit.text} - {o.dest}"


def _hold_text(o: Hold) -> str:
    return f"{o.unit.text} H"


def _support_hold_text(o: SupportHold) -> str:
    return f"{o.unit.text} S {o.supported.text}"


def _support_move_text(o: SupportMove) -> str:
    return f"{o.unit.text} S {o.supported.text} - {o.dest}"


def _convoy_text(o: Convoy) -> str:
    return f"{o.unit.text} C {o.convoyed.text} - {o.dest}"


def _retreat_text(o: Retreat) -> str:
    return f"{o.unit.text} R {o.dest}"


def _disband_text(o: Disband | Remove) -> str:
    return f"{o.unit.text} D"


def _build_text(o: Build) -> str:
    return f"{o.unit.text} B"


def _waive_text(o: Waive) -> str:
    return "WAIVE"


# One small formatter per order type (a dictionary lookup: every result line of every phase is printed;
# the JSON result looks them up directly). Each is called only with an order of its key's type, which
# a dict's value type cannot say: hence the Any parameter (the functions themselves are typed).
FORMATTERS: dict[type[Order], Callable[[Any], str]] = {
    Hold: _hold_text,
    Move: _move_text,
    SupportHold: _support_hold_text,
    SupportMove: _support_move_text,
    Convoy: _convoy_text,
    Retreat: _retreat_text,
    Disband: _disband_text,
    Remove: _disband_text,
    Build: _build_text,
    Waive: _waive_text,
}
