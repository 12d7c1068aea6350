"""The slow, sure way to list the legal orders: the reference engine.legal.legal_orders must equal.

Candidates from the map's adjacency and the fleets on the board, a superset of the legal orders,
each kept only if :func:`engine.validation.validate_order` and the phase's board-level check
(:func:`engine.adjudicator.legality.board_check`) accept it: the functions the adjudicator judges
orders with. This was engine.legal's own way until it generated the legal orders directly (each
candidate judged by the full validator cost about 7 us, and a mid-game board lists 2,000 orders);
it is kept here, for tests only, as the answer the fast way must give element for element.
"""

from __future__ import annotations

from engine.adjudicator.adjustments import adjustment_due
from engine.adjudicator.convoys import board_convoys, sea_graph
from engine.adjudicator.legality import board_check
from engine.board import Board
from engine.errors import OrderError
from engine.legal import LegalOrder, LegalOrders, OrderKind, UnitOrders
from engine.mapdata import province_of
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
    Waive,
    format_order,
    shared_unit,
)
from engine.rules import build_sites
from engine.validation import validate_order

_RANK = {kind: i for i, kind in enumerate(OrderKind)}
_Key = tuple[int, str, int, str, bool]


def reference_legal_orders(board: Board, power: str) -> LegalOrders:
    """What engine.legal.legal_orders(board, power) answers, worked out candidate by candidate."""
    gm = board.game_map
    if power not in gm.powers:
        raise ValueError(f"unknown power {power!r}")
    kind = board.phase.kind
    if board.closed and power in board.rules.neutral:
        return _result(board, power, [], reason=board.rules.neutral_reason())
    if kind == "M":
        return _result(board, power, _movement(board, power))
    if kind == "R":
        return _result(board, power, _retreats(board, power))
    due = adjustment_due(board, power)
    entries: list[UnitOrders] = []
    waive = None
    if due > 0:
        for site in build_sites(board, power):
            province = gm.provinces[site]
            units = [shared_unit("A", site)] if province.is_land else []
            if province.has_coast:
                units += [shared_unit("F", loc) for loc in province.locations]
            orders = _keep([Build(u) for u in units], board, power)
            if orders:
                entries.append(UnitOrders(site, None, orders))
        kept = _keep([Waive()], board, power)
        waive = kept[0] if kept else None
    elif due < 0:
        for unit in board.units.get(power, ()):
            orders = _keep([Remove(unit)], board, power)
            if orders:
                entries.append(UnitOrders(unit.location, unit, orders))
    return _result(board, power, entries, due=due, waive=waive)


def reference_aliases(legal: LegalOrders, board: Board) -> list[tuple[Order, LegalOrder]]:
    """The orders ``legal.find`` also takes for a listed one: a VIA move to a place the army cannot
    walk to, written without VIA."""
    walks = board.game_map.army_adjacency
    return [
        (Move(o.order.unit, o.order.dest), o)
        for o in legal
        if isinstance(o.order, Move) and o.via_convoy and o.order.dest not in walks[o.order.unit.province]
    ]


def _result(
    board: Board,
    power: str,
    entries: list[UnitOrders],
    *,
    due: int = 0,
    waive: LegalOrder | None = None,
    reason: str | None = None,
) -> LegalOrders:
    entries.sort(key=lambda e: e.location)
    return LegalOrders(power, board.phase, tuple(entries), due, waive, reason)


def _keep(candidates: list[Order], board: Board, power: str) -> tuple[LegalOrder, ...]:
    check = board_check(board, power)
    kept: dict[str, tuple[_Key, LegalOrder]] = {}
    for candidate in candidates:
        try:
            order = check(validate_order(candidate, board, power))
        except OrderError:
            continue
        text = format_order(order)
        if text not in kept:
            kept[text] = _describe(order, text)
    return tuple(legal for _, legal in sorted(kept.values(), key=lambda item: item[0]))


def _describe(o: Order, text: str) -> tuple[_Key, LegalOrder]:
    """The sort key (kind, target, the unit holding in the target first, helped unit, land before
    convoy) and the LegalOrder of a judged order."""
    if isinstance(o, Hold):
        return (_RANK[OrderKind.HOLD], "", 0, "", False), LegalOrder(o, text, OrderKind.HOLD)
    if isinstance(o, Move):
        key = (_RANK[OrderKind.MOVE], o.dest, 0, "", o.via_convoy)
        return key, LegalOrder(o, text, OrderKind.MOVE, o.dest, None, o.via_convoy)
    if isinstance(o, SupportHold):
        prov = o.supported.province
        return (_RANK[OrderKind.SUPPORT], prov, 0, "", False), LegalOrder(
            o, text, OrderKind.SUPPORT, prov, o.supported
        )
    if isinstance(o, SupportMove):
        dest = province_of(o.dest)
        return (_RANK[OrderKind.SUPPORT], dest, 1, o.supported.text, False), LegalOrder(
            o, text, OrderKind.SUPPORT, dest, o.supported
        )
    if isinstance(o, Convoy):
        return (_RANK[OrderKind.CONVOY], o.dest, 1, o.convoyed.text, False), LegalOrder(
            o, text, OrderKind.CONVOY, o.dest, o.convoyed
        )
    if isinstance(o, Retreat):
        return (_RANK[OrderKind.RETREAT], o.dest, 0, "", False), LegalOrder(
            o, text, OrderKind.RETREAT, o.dest
        )
    if isinstance(o, Disband):
        return (_RANK[OrderKind.DISBAND], "", 0, "", False), LegalOrder(o, text, OrderKind.DISBAND)
    if isinstance(o, Build):
        unit_text = o.unit.text
        return (_RANK[OrderKind.BUILD], unit_text, 0, "", False), LegalOrder(
            o, text, OrderKind.BUILD, unit_text
        )
    if isinstance(o, Remove):
        return (_RANK[OrderKind.REMOVE], "", 0, "", False), LegalOrder(o, text, OrderKind.REMOVE)
    assert isinstance(o, Waive)
    return (_RANK[OrderKind.WAIVE], "", 0, "", False), LegalOrder(o, text, OrderKind.WAIVE)


def _retreats(board: Board, power: str) -> list[UnitOrders]:
    entries = []
    for entry in board.dislodged_of(power):
        unit = entry.unit
        candidates: list[Order] = [Retreat(unit, dest) for dest in entry.retreats]
        candidates.append(Disband(unit))
        entries.append(UnitOrders(unit.location, unit, _keep(candidates, board, power), dislodged=True))
    return entries


def _movement(board: Board, power: str) -> list[UnitOrders]:
    gm = board.game_map
    occupant = board.occupant
    convoys = board_convoys(board)
    graph = sea_graph(gm)
    # where chains of the fleets at sea could carry each army (candidates only: the checks decide)
    carry: dict[str, frozenset[str]] = {}
    for prov, (_, unit) in occupant.items():
        if unit.type == "A" and graph.shore_seas.get(prov, frozenset()) & convoys.sea_fleets:
            carry[prov] = convoys.reach(prov)[0]
    entries = []
    for unit in board.units.get(power, ()):
        here = unit.province
        candidates: list[Order] = [Hold(unit)]
        if unit.type == "A":
            reach = sorted(gm.army_adjacency[here])
            candidates += [Move(unit, dest) for dest in reach]
            candidates += [Move(unit, dest, True) for dest in carry.get(here, ())]
        else:
            reach = sorted(gm.fleet_reach[unit.location])
            candidates += [Move(unit, dest) for dest in gm.fleet_adjacency[unit.location]]
        for prov in reach:
            standing = occupant.get(prov)
            if standing is not None:
                candidates.append(SupportHold(unit, standing[1]))
            # every unit that could move into prov: by land, along a coast, or carried by fleets
            for src, (_, other) in occupant.items():
                if src == here:
                    continue
                if other.type == "A":
                    if prov in gm.army_adjacency[src] or prov in carry.get(src, ()):
                        candidates.append(SupportMove(unit, other, prov))
                elif prov in gm.fleet_reach[other.location]:
                    candidates.append(SupportMove(unit, other, prov))
        if unit.type == "F" and here in graph.seas:
            for src, dests in carry.items():
                army = occupant[src][1]
                candidates += [Convoy(unit, army, dest) for dest in dests]
        entries.append(UnitOrders(unit.location, unit, _keep(candidates, board, power)))
    return entries
