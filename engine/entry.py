"""Order entry: a player's order is taken only if it is one of the position's legal orders.

:func:`enter_order` is the gate every order goes through when a player sends it (typed, by direct
message, by form, by tap: gm.ordering.judging). A line is judged by three checks, in this order,
and the first refusal is the answer, with its reason and a hint:

1. in an adjustment phase, the count: a build or a WAIVE only while the power has builds left, a
   removal only while it has removals left, counting the orders it has given so far (``ordered``;
   an order for the same build site or unit replaces the earlier one, so that one does not count);
2. :func:`engine.validation.read_order`: the line read and validated as the adjudicator reads it,
   completed the DATC's way (the unit's type; a fleet's only possible coast; an army's coast
   ignored, DATC 4.B.6; an army's move to a coast it cannot walk to goes by convoy, DATC 4.A.3);
3. the phase's board-level check, :func:`engine.adjudicator.legality.board_check`: in a movement
   phase an army's move that needs a convoy, a support of it and a convoy of it need a chain of
   fleets at sea now (DATC 6.D.32, 6.D.31, 6.G.19); a build needs a build due. Its refusals of
   convoys are worded here, naming the fleets that would be needed ("no fleet can carry A MAR to
   TUS: it would need a fleet in LYO").

:func:`engine.legal.legal_orders` lists exactly the orders checks 2 and 3 accept, from the same
per-board convoy answers (engine.adjudicator.convoys.board_convoys; tests/engine/legal_reference.py
keeps its candidates with the two checks themselves), so a player may type exactly the orders
the order builder lists (tests/engine/test_entry.py checks both ways, on random positions of every
variant). Check 1 depends on the orders given so far, which the list does not know.

The adjudicator is unchanged: an order that fails check 3 (sent by a caller of the engine, or kept
from before this gate) is still judged invalid at the close and the unit holds.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.adjudicator.adjustments import adjustment_due
from engine.adjudicator.convoys import FleetsNeeded, board_convoys, fleets_needed, sea_graph
from engine.adjudicator.legality import board_check
from engine.board import Board
from engine.errors import InvalidOrder, OrderError
from engine.orders import Build, Convoy, Disband, Move, Order, Remove, SupportMove, Unit, Waive
from engine.parser import parse_order
from engine.validation import check_power, requested_order, suggest, use_gate, validate_order
from engine.variants import power_display_name

__all__ = ["accepts", "enter_order"]


def enter_order(text: str, board: Board, power: str, ordered: Iterable[Order | str] = ()) -> Order:
    """The order ``text`` gives for ``power`` on ``board``, completed as the adjudicator reads it, if
    it is one of the position's legal orders; else OrderParseError or InvalidOrder, with a reason and a
    hint. ``ordered``: the power's orders so far in this phase (Order values or their canonical text),
    which only an adjustment phase's count looks at."""
    order = requested_order(text, board, power)
    kind = board.phase.kind
    if kind == "A":
        check_power(board, power)
        _check_count(order, board, power, ordered)
    order = validate_order(order, board, power)
    try:
        return board_check(board, power)(order)
    except InvalidOrder as exc:
        if kind != "M":
            raise
        raise _convoy_refusal(order, board, power, exc) from None


def accepts(text: str, board: Board, power: str, ordered: Iterable[Order | str] = ()) -> bool:
    """Whether :func:`enter_order` takes ``text`` (what a hint may tell the player to write)."""
    try:
        enter_order(text, board, power, ordered)
    except OrderError:
        return False
    return True


# --- 1. the adjustment count ---------------------------------------------------------------------------


def _check_count(order: Order, board: Board, power: str, ordered: Iterable[Order | str]) -> None:
    """InvalidOrder for a build or WAIVE beyond the builds due, or a removal beyond the removals due,
    counting the power's ``ordered`` orders except one for the same place (which this one replaces)."""
    builds = isinstance(order, Build | Waive)
    if not builds and not isinstance(order, Remove | Disband):
        return  # not a winter order: validation says why
    due = adjustment_due(board, power)
    name = power_display_name(power)
    place = None if order.unit is None else order.unit.province
    others = [o for o in _orders(ordered, board) if o.unit is None or o.unit.province != place]
    if builds:
        if due <= 0:
            raise InvalidOrder(f"{name} has no builds this winter", _why_no_builds(board, power, due))
        used = [str(o) for o in others if isinstance(o, Build | Waive)]
        if len(used) >= due:
            raise InvalidOrder(
                f"{name} may build {_units(due)} and already has {len(used)} ordered ({', '.join(used)})",
                "order the same place again to change a build, or clear your orders and start over",
            )
        return
    if due >= 0:
        todo = (
            f"it may build {_units(due)} this winter, or waive"
            if due > 0
            else "it has nothing to order this winter"
        )
        raise InvalidOrder(f"{name} does not have to remove any unit this winter", todo)
    used = [str(o) for o in others if isinstance(o, Remove | Disband)]
    if len(used) >= -due:
        raise InvalidOrder(
            f"{name} must remove {_units(-due)} and already has {len(used)} ordered ({', '.join(used)})",
            "clear your orders and start over to remove a different unit",
        )


def _orders(ordered: Iterable[Order | str], board: Board) -> list[Order]:
    """``ordered`` as Order values (canonical text read back; a line that is no order is left out)."""
    out = []
    for item in ordered:
        if isinstance(item, Order):
            out.append(item)
            continue
        try:
            out.append(parse_order(item, board.game_map, "A"))
        except OrderError:
            continue
    return out


def _why_no_builds(board: Board, power: str, due: int) -> str:
    if due < 0:
        return f"it has more units than supply centers, so it removes {_units(-due)} this winter instead"
    if len(board.centers.get(power, ())) <= len(board.units.get(power, ())):
        return "building needs more supply centers than units"
    where = "supply center" if board.rules.switches.build_anywhere else "home center"
    return f"it has no vacant {where} it controls to build in"


def _units(n: int) -> str:
    return f"{n} unit" if n == 1 else f"{n} units"


# --- 3. convoys: the refusal names the fleets ----------------------------------------------------------


def _convoy_refusal(order: Order, board: Board, power: str, exc: InvalidOrder) -> InvalidOrder:
    """The board-level check's refusal of a movement order, worded for the player who sends it: an
    army's move, a support of it or a convoy of it that the fleets at sea cannot carry names the
    seas that would need fleets."""
    gm = board.game_map
    convoys = board_convoys(board)
    graph = sea_graph(gm)
    if type(order) is Move:
        unit = order.unit
        dst = gm.province_at[order.dest]
        need = fleets_needed(graph, unit.province, dst, convoys.sea_fleets)
        return InvalidOrder(f"{_carry(need)} {unit} to {dst}{_needing(need)}", _moves_hint(board, unit))
    if type(order) is SupportMove:
        unit, army = order.unit, order.supported
        dst = gm.province_at[order.dest]
        if convoys.can_carry(army.province, dst):  # only through the supporter itself (DATC 6.D.31)
            carry = f"{unit} C {army} - {dst}"
            hint = suggest(board, power, carry, then=" to carry it instead") or (
                "a unit cannot support a move that only its own convoy carries"
            )
            return InvalidOrder(exc.reason, hint)
        need = fleets_needed(graph, army.province, dst, convoys.sea_fleets)
        return InvalidOrder(
            f"{unit} cannot support {army} to {dst}: {_carry(need)} {army} there{_needing(need)}",
            suggest(board, power, f"{unit} S {army}", then=" to support it holding")
            or "a move by convoy is supported only when fleets at sea can carry it",
        )
    if type(order) is Convoy:
        fleet, army = order.unit, order.convoyed
        src, dst = army.province, gm.province_at[order.dest]
        if not convoys.can_carry(src, dst):
            need = fleets_needed(graph, src, dst, convoys.sea_fleets)
            return InvalidOrder(
                f"{fleet} cannot convoy {army} to {dst}: no chain of fleets joins {src} and {dst}"
                f"{_needing(need)}",
                "a convoy needs a fleet in every sea of the way",
            )
        on_route = sorted(convoys.routes(src).get(dst, ()))
        return InvalidOrder(
            exc.reason,
            f"the fleets on its way: {', '.join(_fleet(board, s) for s in on_route)}"
            if on_route
            else "only fleets on the army's way convoy it",
        )
    return exc


def _needing(need: FleetsNeeded | None) -> str:
    """``: it would need a fleet in LYO``, ``: it would need fleets in NAO and NWG``, ``: besides the
    fleets in ENG and TYS, it would need fleets in MAO and WES``."""
    if need is None or not need.missing:
        return ""
    if need.alternatives or len(need.missing) == 1:
        return f": it would need a fleet in {' or '.join(need.missing)}"
    seas = _and(need.missing)
    if need.present:
        fleets = "fleet" if len(need.present) == 1 else "fleets"
        return f": besides the {fleets} in {_and(need.present)}, it would need fleets in {seas}"
    return f": it would need fleets in {seas}"


def _carry(need: FleetsNeeded | None) -> str:
    """How a refusal starts: no fleet at all on the way, or not enough of them."""
    return "no chain of fleets can carry" if need is not None and need.present else "no fleet can carry"


def _and(items: tuple[str, ...]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _fleet(board: Board, sea: str) -> str:
    unit = board.unit_at(sea)
    return sea if unit is None else str(unit)


def _moves_hint(board: Board, unit: Unit) -> str:
    """Where an army can go now: by land, and where the fleets at sea can carry it."""
    gm = board.game_map
    closed = board.closed
    land = sorted(p for p in gm.army_adjacency[unit.province] if p not in closed)
    carried = sorted(
        p for p in board_convoys(board).reach(unit.province)[0] if p not in closed and p not in land
    )
    text = f"{unit} can move to {', '.join(land)}" if land else f"{unit} cannot move by land"
    if carried:
        text += f", or by convoy to {', '.join(carried)}"
    return text


use_gate(accepts)  # validation's hints offer only orders this gate takes
