"""Checking a parsed order against a board: is it possible at all, for this power, in this phase?

``validate_order`` returns the order completed from the board (unit types and coasts filled in,
support destinations without a coast, an army's coast dropped) or raises :class:`InvalidOrder` with
a reason a player understands and a hint. "Possible" means possible whatever the others order: a
move that may bounce is valid, a move to a province the unit can never reach is not (``invalid``:
docs/ARCHITECTURE.md, "What a status means"). Convoy routes count as possible here when seas link the
two coasts, whether or not fleets stand there now: the fleets are the board-level check's business
(:mod:`engine.adjudicator.legality`), which the adjudicator applies after this one, and so does
order entry (:func:`engine.entry.enter_order`), so that a player is never told an order is taken
that the close would void.

Every concrete order a hint tells the player to write ("write A PAR - BUR") is one that order entry
accepts for that power on that board (:func:`suggest`).

A variant may close provinces for a while (``Board.closed``: Italy while it is neutral in ww1914):
no move, convoy, retreat or support reaches into them, a support to hold a unit there included (no
unit could move there, and nobody can attack it), and the neutral powers' own orders are refused.

A variant's rule switches (engine.rules) change three checks: a build may go to any owned centre
(``build_anywhere``), a fleet in a convoy port may convoy (``convoy_ports``), and no support crosses
the Cape of Good Hope (``cape_of_good_hope``).

Everything named in a reason is public on the board (units, their owners, dislodged units and
their retreat options), so a refusal never leaks another power's orders.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from engine.adjudicator.adjustments import adjustment_due
from engine.board import Board, Dislodged
from engine.errors import InvalidOrder
from engine.mapdata import COAST, LAND, SEA, GameMap, coast_of, province_of
from engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
)
from engine.parser import read_line
from engine.rules import build_sites, may_build_in
from engine.variants import convoy_ports

_KIND_WORDS = {"A": "an army", "F": "a fleet"}
_COAST_WORDS = {"NC": "north coast", "SC": "south coast", "EC": "east coast", "WC": "west coast"}


def read_order(text: str, board: Board, power: str) -> Order:
    """Parse ``text`` for the board's phase, then validate it for ``power``.

    In an adjustment phase a bare unit ("A Gal") is a removal when ``power`` has more units than
    centers and a build otherwise, the way the rulebook's sample game writes both. A line addressed
    to another power ("Germany: A Mun-Ruh" sent by France) is refused.
    Raises OrderParseError or InvalidOrder.
    """
    return validate_order(requested_order(text, board, power), board, power)


def requested_order(text: str, board: Board, power: str) -> Order:
    """What ``text`` asks of ``power`` in the board's phase, before validation: the parsed order, a bare
    unit made a removal where ``power`` must remove (see :func:`read_order`), a line addressed to another
    power refused. Raises OrderParseError or InvalidOrder."""
    line = read_line(text, board.game_map, board.phase.kind)
    if line.power is not None and line.power != power:
        raise InvalidOrder(
            f"this line is addressed to {line.power}, but you play {power}",
            "remove the power's name from the start of the line",
        )
    order = line.order
    if line.bare and isinstance(order, Build) and _must_remove(board, power):
        order = Remove(order.unit)
    return order


class OrderGate(Protocol):
    """Whether order entry takes ``text`` for ``power`` on ``board``: :func:`engine.entry.accepts`."""

    def __call__(self, text: str, board: Board, power: str, /) -> bool: ...


_gate: list[OrderGate] = []  # the one gate, handed in by engine.entry (see :func:`use_gate`)


def use_gate(gate: OrderGate) -> None:
    """Make ``gate`` the check a hint's orders pass. engine.entry builds on this module (read_order,
    then the board-level check) and hands its ``accepts`` in when it loads, so that this module never
    imports it; the engine package loads engine.entry, so any import of the engine has done it."""
    _gate[:] = [gate]


def _accepted(text: str, board: Board, power: str) -> bool:
    """Whether order entry would accept ``text`` for ``power`` on ``board``: a hint offers only such
    orders."""
    if not _gate:
        raise RuntimeError("engine.entry has not handed in its gate (import engine, which loads it)")
    return _gate[0](text, board, power)


def suggest(
    board: Board, power: str, *texts: str, then: str = "", otherwise: str | None = None
) -> str | None:
    """``write X or Y`` for those of ``texts`` that order entry accepts for ``power`` on ``board``
    (``then`` follows), else ``otherwise``: the one way a hint names an order to write."""
    good = [t for t in texts if _accepted(t, board, power)]
    if not good:
        return otherwise
    return f"write {' or '.join(good)}{then}"


def check_power(board: Board, power: str) -> None:
    """InvalidOrder unless ``power`` may give orders on ``board`` at all: a power of the map, and not
    one the variant keeps neutral now (ww1914's Italy until 1915)."""
    gm = board.game_map
    if power not in gm.powers:
        raise InvalidOrder(f"unknown power {power!r}", f"powers are {', '.join(gm.powers)}")
    if board.closed and power in board.rules.neutral:
        raise InvalidOrder(board.rules.neutral_reason(), "nobody gives its units orders until then")


def _must_remove(board: Board, power: str) -> bool:
    """In a winter a power either builds or removes: it removes when it has more units than centers."""
    return len(board.units.get(power, ())) > len(board.centers.get(power, ()))


def validate_order(order: Order, board: Board, power: str) -> Order:
    """The order completed from the board, or InvalidOrder saying why it can never be carried out."""
    if power not in board.game_map.powers or (board.closed and power in board.rules.neutral):
        check_power(board, power)  # (raises, with the reason; the usual case costs no call)
    kind = board.phase.kind
    if kind == "M":
        check = _MOVEMENT_CHECKS.get(type(order))
        return _not_for_movement(order, board, power) if check is None else check(order, board, power)
    if kind == "R":
        return _retreat(order, board, power)
    return _adjustment(order, board, power)


# --- movement phase --------------------------------------------------------------------------------


def _not_for_movement(order: Order, board: Board, power: str) -> Order:
    """Refuse an order that a movement phase does not take (the checks of those it takes are in
    _MOVEMENT_CHECKS, by type)."""
    phase = board.phase.long_name
    if isinstance(order, Retreat):
        move = f"{order.unit} - {order.dest}"
        raise InvalidOrder(
            f"{order} is a retreat, but {phase} is a movement phase",
            suggest(board, power, move, then=" to move") or "units retreat only when dislodged",
        )
    if isinstance(order, Disband | Remove):
        raise InvalidOrder(
            f"{order.unit} cannot disband in {phase}",
            "units disband only when dislodged (retreat phase) or in the winter adjustments",
        )
    if isinstance(order, Build | Waive):
        raise InvalidOrder(
            f"'{order}' is a build order, but {phase} is a movement phase",
            "builds are ordered in the winter adjustment phase",
        )
    raise InvalidOrder(f"not an order: {order!r}", "write e.g. A PAR - BUR")


def _hold(order: Hold, board: Board, power: str) -> Order:
    unit = _own_unit(order.unit, board, power)
    return order if unit is order.unit else Hold(unit)


def _move(order: Move, board: Board, power: str) -> Order:
    gm = board.game_map
    unit = _own_unit(order.unit, board, power)
    if board.closed:
        _refuse_closed(board, province_of(order.dest))
    if not order.via_convoy:
        # The usual case first: the exact place of a neighbour (fleets: the coast, where there are two).
        dest = order.dest
        if unit.type == "F":
            neighbours = gm.fleet_adjacency[unit.location]
        else:
            neighbours = gm.army_adjacency[unit.province]
        if dest in neighbours:
            return order if unit is order.unit else Move(unit, dest)
    dest_prov = _province(gm, order.dest, order)
    src_prov = unit.province
    if dest_prov == src_prov:
        raise InvalidOrder(
            f"{unit} cannot move to {_name(gm, dest_prov)}: it is already there",
            f"to stay, write {unit} H",
        )
    if unit.type == "F":
        if order.via_convoy:
            raise InvalidOrder(
                f"{unit} cannot be convoyed: only armies are convoyed",
                suggest(
                    board, power, *(f"{unit} - {o}" for o in gm.fleet_destinations(unit.location, dest_prov))
                )
                or _reach_hint(gm, unit),
            )
        try:
            dest = _fleet_destination(gm, unit, order.dest, dest_prov)
        except InvalidOrder as exc:
            written = coast_of(order.unit.location)
            if written is None or unit.location == order.unit.location:
                raise
            # DATC 6.B.11: the player named the other coast; say so, or the reason names a fleet
            # the player never wrote
            where = gm.provinces[unit.province].name
            actual = _coast_word(coast_of(unit.location) or "")
            raise InvalidOrder(
                f"the fleet in {where} is on the {actual}, not the {_coast_word(written)}; {exc.reason}",
                exc.hint,
            ) from None
        return Move(unit, dest)
    # An army: coasts mean nothing to it (DATC 4.B.6).
    prov = gm.provinces[dest_prov]
    if prov.kind == SEA:
        raise InvalidOrder(
            f"{unit} cannot move to {_name(gm, dest_prov)}: armies cannot enter the sea",
            "a fleet there can convoy the army across instead",
        )
    if not order.via_convoy and dest_prov in gm.army_adjacency[src_prov]:
        return Move(unit, dest_prov)
    if _convoy_possible(gm, src_prov, dest_prov):
        return Move(unit, dest_prov, order.via_convoy)
    if order.via_convoy:
        raise InvalidOrder(
            f"{unit} cannot be convoyed to {_name(gm, dest_prov)}: no chain of seas links the two coasts",
            _reach_hint(gm, unit),
        )
    raise InvalidOrder(
        f"{unit} cannot reach {_name(gm, dest_prov)}: it is not next to {_name(gm, src_prov)}",
        _reach_hint(gm, unit),
    )


def _fleet_destination(gm: GameMap, unit: Unit, dest: str, dest_prov: str) -> str:
    """The location a fleet moves to, with the coast filled in where only one is possible."""
    prov = gm.provinces[dest_prov]
    if prov.kind == "land":
        raise InvalidOrder(
            f"{unit} cannot move to {_name(gm, dest_prov)}: fleets cannot go inland",
            _reach_hint(gm, unit),
        )
    options = gm.fleet_destinations(unit.location, dest_prov)
    if not options:
        raise InvalidOrder(
            f"{unit} cannot reach {_name(gm, dest_prov)}: there is no sea or coast route "
            f"from {gm.name_of(unit.location)} in one move",
            _reach_hint(gm, unit),
        )
    coast = coast_of(dest)
    if coast is not None:
        if dest in options:
            return dest
        if dest not in gm.locations:
            raise InvalidOrder(
                f"{_name(gm, dest_prov)} has no {_coast_word(coast)}", _coast_hint(gm, unit, options)
            )
        raise InvalidOrder(
            f"{unit} cannot reach {gm.name_of(dest)}",
            _coast_hint(gm, unit, options),
        )
    if len(options) == 1:
        return options[0]
    raise InvalidOrder(
        f"{unit} - {dest_prov} must say which coast of {prov.name}: the fleet can reach "
        + " and ".join(gm.name_of(o) for o in options),
        f"write {' or '.join(f'{unit} - {o}' for o in options)}",
    )


def _coast_hint(gm: GameMap, unit: Unit, options: tuple[str, ...]) -> str:
    return "from there it can reach " + " or ".join(f"{gm.name_of(o)}: write {unit} - {o}" for o in options)


def _support_hold(order: SupportHold, board: Board, power: str) -> Order:
    gm = board.game_map
    unit = _own_unit(order.unit, board, power)
    target = _other_unit(order.supported, board, order, "support")
    if target.province == unit.province:
        raise InvalidOrder(f"{unit} cannot support itself", f"to stay put, write {unit} H")
    if board.closed:
        _refuse_closed(board, target.province, f"nobody can attack {target} there, so it needs no support")
    if not gm.can_reach(unit.type or "A", unit.location, target.province):
        raise InvalidOrder(
            f"{unit} cannot support {target}: it could not move to {_name(gm, target.province)} itself",
            _support_reach_hint(gm, unit, target.province),
        )
    if board.rules.switches.no_support_across(unit.province, target.province):
        raise InvalidOrder(*_no_support_across(gm, unit, target.province))
    if unit is order.unit and target is order.supported:
        return order
    return SupportHold(unit, target)


def _support_move(order: SupportMove, board: Board, power: str) -> Order:
    gm = board.game_map
    unit = _own_unit(order.unit, board, power)
    target = _other_unit(order.supported, board, order, "support")
    dest_prov = _province(gm, order.dest, order)
    if target.province == unit.province:
        raise InvalidOrder(
            f"{unit} cannot support its own move",
            suggest(board, power, f"{unit} - {dest_prov}", then=" to move it")
            or f"a unit supports another unit; to stay, write {unit} H",
        )
    if dest_prov == target.province:
        raise InvalidOrder(
            f"{unit} S {target} - {dest_prov}: {target} is already in {_name(gm, dest_prov)}",
            suggest(board, power, f"{unit} S {target}", then=" to support it holding")
            or f"{unit} could not move to {dest_prov} itself, so it cannot support a unit there",
        )
    if dest_prov == unit.province:
        raise InvalidOrder(
            f"{unit} cannot support a move into its own province {_name(gm, dest_prov)}",
            f"to defend, write {unit} H",
        )
    if board.closed:
        _refuse_closed(board, dest_prov)
    if not gm.can_reach(unit.type or "A", unit.location, dest_prov):
        raise InvalidOrder(
            f"{unit} cannot support a move to {_name(gm, dest_prov)}: it could not move there itself",
            _support_reach_hint(gm, unit, dest_prov),
        )
    if not _could_reach(gm, target, dest_prov):
        raise InvalidOrder(
            f"{unit} supports {target} to {_name(gm, dest_prov)}, but {target} can never get there",
            _reach_hint(gm, target),
        )
    if board.rules.switches.no_support_across(unit.province, dest_prov):
        raise InvalidOrder(*_no_support_across(gm, unit, dest_prov))
    if unit is order.unit and target is order.supported and dest_prov == order.dest:
        return order
    return SupportMove(unit, target, dest_prov)


def _no_support_across(gm: GameMap, unit: Unit, prov: str) -> tuple[str, str]:
    """Why ``unit`` may not support into ``prov`` across the Cape of Good Hope (1900), and a hint."""
    return (
        f"{unit} cannot support into {_name(gm, prov)}: no support goes round the Cape of Good Hope",
        f"the fleet may move to {prov} itself; support from the other side comes from units next to {prov}",
    )


def _support_reach_hint(gm: GameMap, unit: Unit, prov: str) -> str:
    """Why ``unit`` could not move into ``prov``, the real cause: the sea for an army, inland for a
    fleet, the other coast of a split-coast province, a border without a shared coast for a fleet,
    or simply not next to it. Codes only, as
    the hint is shown in parentheses after a reason that already names the places."""
    kind = gm.provinces[prov].kind
    coasts = gm.provinces[unit.province].locations
    other_coast = unit.type == "F" and any(prov in gm.fleet_reach.get(loc, ()) for loc in coasts)
    if unit.type == "A" and kind == SEA:
        why = "armies cannot enter the sea"
    elif unit.type == "F" and kind == LAND:
        why = f"fleets cannot go inland, and {prov} is inland"
    elif other_coast:
        why = f"{prov} cannot be reached from {unit.location}, only from the other coast"
    elif unit.type == "F" and prov in gm.army_adjacency.get(unit.province, ()):
        why = f"a fleet moves along a coast, and {unit.province} and {prov} share a border but no coast"
    else:
        why = f"{prov} is not next to {unit.province}"
    return f"a unit supports only into a province it could move to: {why}"


def _convoy(order: Convoy, board: Board, power: str) -> Order:
    gm = board.game_map
    fleet = _own_unit(order.unit, board, power)
    if fleet.type != "F":
        raise InvalidOrder(
            f"{fleet} cannot convoy: only fleets convoy", f"to support instead, write {fleet} S ..."
        )
    if not gm.is_sea(fleet.province) and fleet.province not in convoy_ports(gm.name):
        raise InvalidOrder(
            f"{fleet} cannot convoy: {_name(gm, fleet.province)} is a coast, and only fleets at sea convoy",
            "move the fleet out to sea first",
        )
    army = _other_unit(order.convoyed, board, order, "convoy")
    if army.type != "A":
        raise InvalidOrder(
            f"{fleet} cannot convoy {army}: only armies are convoyed", "a fleet moves by itself"
        )
    dest_prov = _province(gm, order.dest, order)
    src_prov = army.province
    if board.closed:
        _refuse_closed(board, dest_prov)
    if gm.provinces[dest_prov].kind != COAST:
        raise InvalidOrder(
            f"{fleet} cannot convoy {army} to {_name(gm, dest_prov)}: a convoy lands only on a coast",
            "name a coastal province as the destination",
        )
    if dest_prov == src_prov:
        raise InvalidOrder(
            f"{fleet} cannot convoy {army} to {_name(gm, dest_prov)}: the army is already there",
            "name where the army should go",
        )
    if dest_prov == fleet.province:
        raise InvalidOrder(
            f"{fleet} cannot convoy {army} into {_name(gm, dest_prov)}, where the fleet itself stands",
            "fleets in the seas beside it can convoy the army there",
        )
    if gm.provinces[src_prov].kind != COAST:
        raise InvalidOrder(
            f"{fleet} cannot convoy {army}: {_name(gm, src_prov)} is not on a coast",
            "only armies in coastal provinces can be convoyed",
        )
    links = _sea_links(gm)
    group = links.group[fleet.province]
    if group not in links.touches[src_prov] or group not in links.touches[dest_prov]:
        raise InvalidOrder(
            f"{fleet} cannot be part of a convoy from {_name(gm, src_prov)} to {_name(gm, dest_prov)}: "
            "no chain of seas through it links the two",
            "only fleets in seas between the two coasts can convoy",
        )
    if fleet is order.unit and army is order.convoyed and dest_prov == order.dest:
        return order
    return Convoy(fleet, army, dest_prov)


def _could_reach(gm: GameMap, unit: Unit, dest_prov: str) -> bool:
    """Whether ``unit`` could ever move to ``dest_prov`` this turn (by land, coast or convoy)."""
    if unit.type == "F":
        return dest_prov in gm.fleet_reach[unit.location]
    return dest_prov in gm.army_adjacency[unit.province] or _convoy_possible(gm, unit.province, dest_prov)


# Each check takes an order of its key's type (Any: a dict's value type cannot say so; see FORMATTERS).
_MOVEMENT_CHECKS: dict[type[Order], Callable[[Any, Board, str], Order]] = {
    Hold: _hold,
    Move: _move,
    SupportHold: _support_hold,
    SupportMove: _support_move,
    Convoy: _convoy,
}


# --- retreat phase ---------------------------------------------------------------------------------


def _retreat(order: Order, board: Board, power: str) -> Order:
    gm = board.game_map
    phase = board.phase.long_name
    if isinstance(order, Move):
        if order.via_convoy:
            raise InvalidOrder(
                f"{order}: retreats cannot be convoyed",
                suggest(board, power, f"{order.unit} R {order.dest}")
                or f"a unit retreats to a province next to it, or disbands ({order.unit} D)",
            )
        order = Retreat(order.unit, order.dest)
    if isinstance(order, Remove):
        order = Disband(order.unit)
    if isinstance(order, Disband):
        return Disband(_dislodged(order.unit, board, power).unit)
    if not isinstance(order, Retreat):
        unit = order.unit
        example = f" ({unit} R place, or {unit} D)" if unit is not None else ""
        raise InvalidOrder(
            f"'{order}' cannot be ordered in {phase}",
            f"a dislodged unit either retreats or disbands{example}; other units wait for the next turn",
        )
    entry = _dislodged(order.unit, board, power)
    unit = entry.unit
    options = entry.retreats
    for option, why in entry.refused:  # an option the request gave but the board contradicts
        if province_of(option) == province_of(order.dest) and order.dest not in options:
            hint = f"it may retreat to {' or '.join(options)}, or disband" if options else "it has no retreat"
            raise InvalidOrder(why, hint)
    if not options:
        raise InvalidOrder(f"{unit} has nowhere to retreat to", f"write {unit} D (it is disbanded anyway)")
    dest_prov = _province(gm, order.dest, order)
    if board.closed:
        _refuse_closed(board, dest_prov, f"it may retreat to {', '.join(options)}, or disband ({unit} D)")
    if unit.type == "A":
        dest: str | None = dest_prov if dest_prov in options else None
    elif order.dest in options:
        dest = order.dest
    else:
        fits = [o for o in options if province_of(o) == dest_prov]
        dest = fits[0] if len(fits) == 1 and coast_of(order.dest) is None else None
        if len(fits) > 1 and coast_of(order.dest) is None:
            raise InvalidOrder(
                f"{unit} R {dest_prov} must say which coast of {gm.provinces[dest_prov].name}",
                f"write {' or '.join(f'{unit} R {o}' for o in fits)}",
            )
    if dest is None:
        why = ""
        if dest_prov == entry.attacker_from:
            why = ": the attack came from there"
        elif board.unit_at(dest_prov) is not None:
            why = ": it is occupied"
        raise InvalidOrder(
            f"{unit} cannot retreat to {_name(gm, order.dest)}{why}",
            f"it may retreat to {', '.join(options)}, or disband ({unit} D)",
        )
    return Retreat(unit, dest)


def _dislodged(unit: Unit, board: Board, power: str) -> Dislodged:
    """The power's dislodged unit in the order's province. The attacker may stand in the same province,
    so dislodged units are looked up first, the power's own before anyone else's."""
    gm = board.game_map
    prov = _province(gm, unit.location, unit)
    for entry in board.dislodged_of(power):
        if entry.unit.province == prov:
            _check_type(unit, entry.unit, gm, coast_matters=False)
            return entry
    standing = board.occupant.get(prov)
    if standing is not None and standing[0] == power:
        raise InvalidOrder(
            f"{standing[1]} in {_name(gm, prov)} was not dislodged, so it has no retreat to order",
            _dislodged_hint(board, power),
        )
    for owner, entries in board.dislodged.items():
        for entry in entries:
            if entry.unit.province == prov:
                raise InvalidOrder(
                    f"{entry.unit} is not yours: it belongs to {owner}", _dislodged_hint(board, power)
                )
    if standing is not None:
        raise InvalidOrder(
            f"{standing[1]} in {_name(gm, prov)} was not dislodged, so it has no retreat to order",
            _dislodged_hint(board, power),
        )
    raise InvalidOrder(f"there is no dislodged unit in {_name(gm, prov)}", _dislodged_hint(board, power))


def _dislodged_hint(board: Board, power: str) -> str:
    mine = [str(d.unit) for d in board.dislodged_of(power)]
    if not mine:
        return "you have no dislodged units: there is nothing to order this phase"
    return "your dislodged units: " + ", ".join(mine)


# --- adjustment phase ------------------------------------------------------------------------------


def _adjustment(order: Order, board: Board, power: str) -> Order:
    gm = board.game_map
    if isinstance(order, Waive):
        return order
    if isinstance(order, Disband):
        order = Remove(order.unit)
    if isinstance(order, Remove):
        return Remove(_own_unit(order.unit, board, power))
    if isinstance(order, Build):
        return _build(order, board, power, gm)
    raise InvalidOrder(f"'{order}' cannot be ordered in {board.phase.long_name}", _winter_hint(board, power))


def _winter_hint(board: Board, power: str) -> str:
    """What a winter takes, and what ``power`` has to do in this one (no order to copy: how many of
    its builds are left depends on what it has ordered already)."""
    due = adjustment_due(board, power)
    if due > 0:
        todo = f"you may build {_units(due)} this winter, in {', '.join(build_sites(board, power))}, or waive"
    elif due < 0:
        todo = f"you must remove {_units(-due)} this winter"
    else:
        todo = "you have nothing to order this winter"
    return f"a winter takes builds, removals and waives only: {todo}"


def _units(n: int) -> str:
    return f"{n} unit" if n == 1 else f"{n} units"


def _build(order: Build, board: Board, power: str, gm: GameMap) -> Order:
    unit = order.unit
    prov_code = _province(gm, unit.location, order)
    prov = gm.provinces[prov_code]
    place = _name(gm, prov_code)
    if unit.type is None:
        if prov.kind != "land":
            choices = [f"A {prov_code} B", *(f"F {loc} B" for loc in prov.locations)]
            raise InvalidOrder(
                f"the build in {place} does not say army or fleet",
                suggest(board, power, *choices) or _build_hint(board, power),
            )
        unit = Unit("A", prov_code)  # only an army fits inland: "Build Par" is A PAR B
    if not prov.supply_center:
        raise InvalidOrder(
            f"cannot build {unit} B: {place} is not a supply center", _build_hint(board, power)
        )
    if not may_build_in(board, power, prov_code):
        raise InvalidOrder(
            f"cannot build {unit} B: {place} is not one of your home centers",
            _build_hint(board, power),
        )
    owner = board.owner_of_center(prov_code)
    if owner != power:
        held = f"it belongs to {owner}" if owner else "nobody controls it now"
        raise InvalidOrder(
            f"cannot build in {place}: you do not control it ({held})", _build_hint(board, power)
        )
    standing = board.unit_at(prov_code)
    if standing is not None:
        raise InvalidOrder(f"cannot build in {place}: {standing} stands there", _build_hint(board, power))
    if unit.type == "A":
        return Build(Unit("A", prov_code))
    if prov.kind == "land":
        raise InvalidOrder(
            f"cannot build a fleet in {place}: it is inland",
            suggest(board, power, f"A {prov_code} B", then=" to build an army") or _build_hint(board, power),
        )
    if prov.coasts:
        coast = coast_of(unit.location)
        if coast is None:
            raise InvalidOrder(
                f"a fleet built in {place} must say which coast",
                suggest(board, power, *(f"F {loc} B" for loc in prov.locations)) or _build_hint(board, power),
            )
        if coast not in prov.coasts:
            raise InvalidOrder(
                f"{place} has no {_coast_word(coast)}", f"its coasts: {', '.join(prov.locations)}"
            )
        return Build(Unit("F", unit.location))
    return Build(Unit("F", prov_code))


def _build_hint(board: Board, power: str) -> str:
    free = build_sites(board, power)
    if not free:
        where = "supply center" if board.rules.switches.build_anywhere else "home center"
        return f"you have no vacant {where} you control, so you cannot build this winter"
    if adjustment_due(board, power) <= 0:
        return "you have no build this winter: building needs more supply centers than units"
    return "you can build in " + ", ".join(free)


# --- shared lookups --------------------------------------------------------------------------------


def _own_unit(unit: Unit, board: Board, power: str) -> Unit:
    """The board's unit for an order's unit, if it is ``power``'s. A wrong coast is corrected to the
    one the fleet stands on: the coast of the ordered unit has no purpose (DATC 4.B.5, 6.B.10)."""
    hit = board.occupant.get(unit.province)
    if hit is None:
        gm = board.game_map
        prov = _province(gm, unit.location, unit)
        raise InvalidOrder(
            f"there is no unit in {_name(gm, prov)} to order ({unit})", _units_hint(board, power)
        )
    owner, actual = hit
    if owner != power:
        raise InvalidOrder(f"{actual} is not yours: it belongs to {owner}", _units_hint(board, power))
    if actual is not unit:
        _check_type(unit, actual, board.game_map, coast_matters=False)
    return actual


def _other_unit(unit: Unit, board: Board, order: Order, verb: str) -> Unit:
    """The board's unit that an order supports or convoys (anyone's)."""
    hit = board.occupant.get(unit.province)
    if hit is None:
        gm = board.game_map
        prov = _province(gm, unit.location, order)
        raise InvalidOrder(
            f"{order}: there is no unit in {_name(gm, prov)} to {verb}",
            "check the province of the unit you mean",
        )
    actual = hit[1]
    if actual is not unit:
        _check_type(unit, actual, board.game_map, coast_matters=True)
    return actual


def _check_type(unit: Unit, actual: Unit, gm: GameMap, *, coast_matters: bool) -> None:
    """Refuse a unit named with the wrong type, or (``coast_matters``: a unit supported or convoyed)
    on the other coast of its province."""
    if unit.location == actual.location and (unit.type is None or unit.type == actual.type):
        return  # the usual case, checked first: the adjudicator validates every order of every phase
    if unit.type is not None and unit.type != actual.type:
        raise InvalidOrder(
            f"the unit in {_name(gm, actual.province)} is {_KIND_WORDS[actual.type or 'A']} ({actual}), "
            f"not {_KIND_WORDS[unit.type]}",
            f"name it {actual}",
        )
    coast = coast_of(unit.location)
    if coast_matters and coast is not None and actual.type == "F" and actual.location != unit.location:
        raise InvalidOrder(
            f"{actual} is on the {_coast_word(coast_of(actual.location) or '')}, "
            f"not the {_coast_word(coast)}",
            f"name it {actual}",
        )


def _units_hint(board: Board, power: str) -> str:
    mine = sorted(str(u) for u in board.units.get(power, ()))
    return "your units: " + ", ".join(mine) if mine else "you have no units on the board"


def _refuse_closed(board: Board, province: str, hint: str | None = None) -> None:
    """InvalidOrder when ``province`` is closed in the board's phase (Italy while it is neutral).
    The hint is ``hint``, or else a list of the closed provinces."""
    if province in board.closed:
        closed = ", ".join(sorted(board.closed))
        raise InvalidOrder(board.rules.closure_reason(), hint or f"closed until then: {closed}")


def _province(gm: GameMap, location: str, context: object) -> str:
    """The province of ``location``; ``context`` (an order or unit) is printed only in the refusal."""
    prov = province_of(location)
    if prov not in gm.provinces:
        raise InvalidOrder(
            f"{context}: '{location}' is not a place on this map", "use a three-letter code like PAR"
        )
    return prov


def _name(gm: GameMap, location: str) -> str:
    """``Paris (PAR)``; ``Spain (north coast) (SPA/NC)``."""
    try:
        return f"{gm.name_of(location)} ({location})"
    except KeyError:
        return location


def _coast_word(coast: str) -> str:
    return _COAST_WORDS.get(coast, f"{coast} coast")


def _reach_hint(gm: GameMap, unit: Unit) -> str:
    if unit.type == "F":
        reach = sorted(gm.fleet_adjacency.get(unit.location, ()))
    else:
        reach = sorted(gm.army_adjacency.get(unit.province, ()))
    text = f"{unit} can move to {', '.join(reach)}" if reach else f"{unit} cannot move anywhere"
    if unit.type == "A" and gm.is_coastal(unit.province):
        text += ", or to other coasts by convoy"
    return text


# --- convoy geography ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _SeaLinks:
    """Seas grouped into connected bodies of water, and which bodies each coastal province touches."""

    group: dict[str, int]  # sea province -> group id
    touches: dict[str, frozenset[int]]  # coastal province -> groups of the seas next to it


_LINKS: dict[int, tuple[GameMap, _SeaLinks]] = {}


def _sea_links(gm: GameMap) -> _SeaLinks:
    hit = _LINKS.get(id(gm))
    if hit is not None and hit[0] is gm:
        return hit[1]
    ports = convoy_ports(gm.name)
    seas = [p for p, prov in gm.provinces.items() if prov.kind == SEA or p in ports]
    group: dict[str, int] = {}
    for start in seas:
        if start in group:
            continue
        gid = len(set(group.values()))
        stack = [start]
        group[start] = gid
        while stack:
            here = stack.pop()
            for loc in gm.fleet_adjacency.get(here, ()):
                nxt = province_of(loc)
                if (gm.is_sea(nxt) or nxt in ports) and nxt not in group:
                    group[nxt] = gid
                    stack.append(nxt)
    touches: dict[str, frozenset[int]] = {}
    for code, prov in gm.provinces.items():
        if prov.kind != COAST:
            continue
        groups = {
            group[province_of(n)]
            for loc in prov.locations
            for n in gm.fleet_adjacency.get(loc, ())
            if province_of(n) in group
        }
        if code in group:  # a port: its own group too (an army there sails with the fleets beside it)
            groups.add(group[code])
        touches[code] = frozenset(groups)
    links = _SeaLinks(group, touches)
    _LINKS[id(gm)] = (gm, links)
    return links


def _convoy_possible(gm: GameMap, src: str, dst: str) -> bool:
    """Some chain of seas links coastal provinces ``src`` and ``dst`` (fleets there or not)."""
    if src == dst:
        return False
    touches = _sea_links(gm).touches
    a = touches.get(src)
    b = touches.get(dst)
    return a is not None and b is not None and not a.isdisjoint(b)
