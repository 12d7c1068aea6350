"""Board-level legality: is this order possible at all, on this board, for this power?

:func:`engine.validation.validate_order` reads an order against the board first; this module adds
the checks adjudication depends on and re-checks the basics, so the resolver can trust every
order it is given. An order that fails here is *illegal* in the DATC sense (issue 4.E.1): it is
reported as invalid and the unit behaves as if unordered (holds, and can be supported in holding,
DATC 6.D.28-6.D.30).

The checks beyond unit/owner/adjacency are board-dependent convoy questions:

* a move that needs a convoy needs some chain of fleets at sea on the board (DATC 6.D.32);
* a support for such a move needs a chain that does not run through the supporter (DATC 6.D.31);
* a convoy order needs the fleet to sit on a route without shortcuts (DATC 6.G.19, 6.F.12).

Each check raises :class:`engine.errors.InvalidOrder` whose reason comes from
:mod:`engine.adjudicator.explain`. Checks return the order normalised to the board: the unit as it
stands (type and coast filled in), a fleet's destination with its coast.
"""

from __future__ import annotations

from collections.abc import Collection

from engine.adjudicator import explain
from engine.adjudicator.convoys import SeaGraph, fleet_on_minimal_route, route_exists
from engine.board import Board, Dislodged
from engine.errors import InvalidOrder
from engine.mapdata import GameMap, coast_of, province_of
from engine.orders import (
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
)


def _board_unit(board: Board, named: Unit, power: str) -> Unit:
    """The unit ``named`` refers to, which must be ``power``'s."""
    prov = named.province
    actual = board.unit_at(prov)
    if actual is None:
        raise InvalidOrder(explain.no_unit(prov))
    owner = board.owner_at(prov)
    if owner != power:
        raise InvalidOrder(explain.not_yours(actual, owner))
    if named.type is not None and named.type != actual.type:
        raise InvalidOrder(explain.wrong_type(named, actual))
    return actual


def _named_unit(board: Board, named: Unit) -> Unit:
    """The unit (of any power) a support or convoy names."""
    actual = board.unit_at(named.province)
    if actual is None:
        raise InvalidOrder(explain.no_unit(named.province))
    if named.type is not None and named.type != actual.type:
        raise InvalidOrder(explain.wrong_type(named, actual))
    return actual


def _fleet_destination(game_map: GameMap, unit: Unit, dest: str) -> str:
    """The location a fleet at ``unit`` goes to when ordered to ``dest`` (coast filled in)."""
    prov = province_of(dest)
    if prov not in game_map.provinces or dest not in game_map.locations:
        raise InvalidOrder(explain.unknown_place(dest))
    province = game_map.provinces[prov]
    if not province.has_coast:
        raise InvalidOrder(explain.fleet_inland(unit, prov))
    if coast_of(dest) is not None or not province.coasts:
        if not game_map.fleet_can_move(unit.location, dest):
            raise InvalidOrder(explain.unreachable(unit, dest))
        return dest
    options = game_map.fleet_destinations(unit.location, prov)
    if not options:
        raise InvalidOrder(explain.unreachable(unit, prov))
    if len(options) > 1:
        raise InvalidOrder(explain.coast_needed(unit, prov, options))
    return options[0]


def _army_can_be_carried(
    game_map: GameMap, graph: SeaGraph, src: str, dst: str, fleets: Collection[str]
) -> bool:
    return game_map.is_coastal(src) and game_map.is_coastal(dst) and route_exists(graph, src, dst, fleets)


def check_movement_order(
    order: Order, board: Board, power: str, graph: SeaGraph, sea_fleets: frozenset[str]
) -> Order:
    """``order`` made exact for the resolver, or InvalidOrder. ``sea_fleets``: seas holding a fleet."""
    game_map = board.game_map
    if not isinstance(order, Hold | Move | SupportHold | SupportMove | Convoy):
        raise InvalidOrder(explain.wrong_phase(order, "M"))
    unit = _board_unit(board, order.unit, power)
    here = unit.province

    if isinstance(order, Hold):
        return Hold(unit)

    if isinstance(order, Move):
        dst = province_of(order.dest)
        if dst not in game_map.provinces:
            raise InvalidOrder(explain.unknown_place(order.dest))
        if dst == here:
            raise InvalidOrder(explain.move_to_itself(unit))
        if unit.type == "F":
            return Move(unit, _fleet_destination(game_map, unit, order.dest))
        if game_map.is_sea(dst):
            raise InvalidOrder(explain.army_to_sea(unit, dst))
        if game_map.army_can_move(here, dst) and not order.via_convoy:
            return Move(unit, dst)
        if not _army_can_be_carried(game_map, graph, here, dst, sea_fleets):
            raise InvalidOrder(explain.no_convoy_route(unit, dst))
        return Move(unit, dst, order.via_convoy)

    if isinstance(order, SupportHold):
        supported = _named_unit(board, order.supported)
        if supported.province == here:
            raise InvalidOrder(explain.support_itself(unit))
        if not game_map.can_reach(unit.type, unit.location, supported.province):
            raise InvalidOrder(explain.support_unreachable(unit, supported.province))
        return SupportHold(unit, supported)

    if isinstance(order, SupportMove):
        supported = _named_unit(board, order.supported)
        dst = province_of(order.dest)
        if dst not in game_map.provinces:
            raise InvalidOrder(explain.unknown_place(order.dest))
        if supported.province == here:
            raise InvalidOrder(explain.support_itself(unit))
        if dst == supported.province:
            raise InvalidOrder(explain.move_to_itself(supported))
        if dst == here or not game_map.can_reach(unit.type, unit.location, dst):
            raise InvalidOrder(explain.support_unreachable(unit, dst))
        if supported.type == "F":
            if coast_of(order.dest) is not None:
                ok = game_map.fleet_can_move(supported.location, order.dest)
            else:
                ok = bool(game_map.fleet_destinations(supported.location, dst))
            if not ok:
                raise InvalidOrder(explain.supported_cannot_reach(supported, order.dest))
            return SupportMove(unit, supported, order.dest)
        if game_map.is_sea(dst):
            raise InvalidOrder(explain.army_to_sea(supported, dst))
        if not game_map.army_can_move(supported.province, dst):
            others = sea_fleets - {here}
            if not _army_can_be_carried(game_map, graph, supported.province, dst, others):
                if _army_can_be_carried(game_map, graph, supported.province, dst, sea_fleets):
                    raise InvalidOrder(explain.support_needs_own_convoy(unit, supported, dst))
                raise InvalidOrder(explain.supported_cannot_reach(supported, dst))
        return SupportMove(unit, supported, dst)

    # Convoy
    assert isinstance(order, Convoy)
    if unit.type != "F" or not game_map.is_sea(here):
        raise InvalidOrder(explain.convoy_not_at_sea(unit))
    army = _named_unit(board, order.convoyed)
    if army.type != "A":
        raise InvalidOrder(explain.convoy_not_army(army))
    dst = province_of(order.dest)
    if dst not in game_map.provinces:
        raise InvalidOrder(explain.unknown_place(order.dest))
    if dst == army.province:
        raise InvalidOrder(explain.move_to_itself(army))
    if not (game_map.is_coastal(army.province) and game_map.is_coastal(dst)):
        raise InvalidOrder(explain.convoy_not_coastal(army, dst))
    if not fleet_on_minimal_route(graph, army.province, dst, sea_fleets, here):
        raise InvalidOrder(explain.convoy_off_route(unit, army, dst))
    return Convoy(unit, army, dst)


def find_dislodged(board: Board, named: Unit, power: str) -> Dislodged:
    """The dislodged unit of ``power`` an order names, or InvalidOrder."""
    prov = named.province
    for d in board.dislodged_of(power):
        if d.unit.province == prov:
            if named.type is not None and named.type != d.unit.type:
                raise InvalidOrder(explain.wrong_type(named, d.unit))
            return d
    for other, entries in board.dislodged.items():
        if other != power and any(d.unit.province == prov for d in entries):
            unit = next(d.unit for d in entries if d.unit.province == prov)
            raise InvalidOrder(explain.not_yours(unit, other))
    standing = board.unit_at(prov)
    if standing is not None:
        raise InvalidOrder(explain.not_dislodged(standing))
    raise InvalidOrder(explain.no_dislodged_unit(prov))


def check_retreat_order(order: Order, board: Board, power: str) -> Order:
    """A retreat or disband made exact (the retreat's coast filled in from the options)."""
    if not isinstance(order, Retreat | Disband):
        raise InvalidOrder(explain.wrong_phase(order, "R"))
    dislodged = find_dislodged(board, order.unit, power)
    unit = dislodged.unit
    if isinstance(order, Disband):
        return Disband(unit)
    options = dislodged.retreats
    if order.dest in options:
        return Retreat(unit, order.dest)
    prov = province_of(order.dest)
    same_province = [o for o in options if province_of(o) == prov]
    if unit.type == "A" and same_province:
        return Retreat(unit, same_province[0])
    if unit.type == "F" and len(same_province) == 1 and coast_of(order.dest) is None:
        return Retreat(unit, same_province[0])
    raise InvalidOrder(explain.retreat_not_allowed(unit, order.dest, options))
