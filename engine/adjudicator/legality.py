"""Board-level legality: the checks that depend on the fleets standing on the board.

:func:`engine.validation.validate_order` reads every order against the board first (unit there,
the power's own, reachable by the map, coasts filled in). Whether a convoy is *possible* also
depends on which seas hold fleets right now, and the adjudicator needs that settled before it
resolves anything. An order that fails here is *illegal* in the DATC sense (issue 4.E.1): it is
reported as invalid and the unit behaves as if unordered (holds, and can be supported in holding,
DATC 6.D.28-6.D.30):

* a move that needs a convoy needs some chain of fleets at sea on the board (DATC 6.D.32);
* a support for such a move needs a chain that does not run through the supporter (DATC 6.D.31);
* a convoy order needs the fleet to sit on a route without shortcuts (DATC 6.G.19, 6.F.12).

Each check raises :class:`engine.errors.InvalidOrder` whose reason comes from
:mod:`engine.adjudicator.explain`. :func:`board_check` picks the phase's check for one board and
power, as order entry (engine.entry) and the legal orders' list (engine.legal) apply it: both
with the board's one :class:`BoardConvoys` (engine.adjudicator.convoys.board_convoys).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.adjudicator import explain
from engine.adjudicator.adjustments import adjustment_due, check_adjustment_order
from engine.adjudicator.convoys import BoardConvoys, board_convoys
from engine.board import Board
from engine.errors import InvalidOrder
from engine.orders import (
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
)


def check_movement_order(order: Order, board: Board, convoys: BoardConvoys) -> Order:
    """A movement order already read by :func:`engine.validation.validate_order` (so its units are
    the board's, the power's own where it must be, its coasts filled in), checked against the
    fleets on the board. Raises InvalidOrder."""
    if type(order) is Move:
        unit = order.unit
        if unit.type == "A":
            dst = board.game_map.province_at[order.dest]
            here = unit.province
            needs_convoy = order.via_convoy or dst not in board.game_map.army_adjacency[here]
            if needs_convoy and not convoys.can_carry(here, dst):
                raise InvalidOrder(explain.no_convoy_route(unit, dst))
        return order
    if type(order) is SupportMove:
        supported = order.supported
        if supported.type == "A":
            dst = board.game_map.province_at[order.dest]
            src = supported.province
            by_land = dst in board.game_map.army_adjacency[src]
            if not by_land and not convoys.can_carry(src, dst, without=order.unit.province):
                if convoys.can_carry(src, dst):
                    raise InvalidOrder(explain.support_needs_own_convoy(order.unit, supported, dst))
                raise InvalidOrder(explain.supported_cannot_reach(supported, dst))
        return order
    if type(order) is Convoy:
        army = order.convoyed
        dst = board.game_map.province_at[order.dest]
        if not convoys.needed(army.province, dst, order.unit.province):
            raise InvalidOrder(explain.convoy_off_route(order.unit, army, dst))
        return order
    if type(order) is Hold or type(order) is SupportHold:
        return order
    raise InvalidOrder(explain.wrong_phase(order, "M"))


def check_retreat_order(order: Order, board: Board, power: str) -> Order:
    """A retreat-phase order already read by :func:`engine.validation.validate_order` (which checks
    the unit is dislodged and the place is one of its options): only its kind is checked here."""
    if not isinstance(order, Retreat | Disband):
        raise InvalidOrder(explain.wrong_phase(order, "R"))
    return order


def board_check(board: Board, power: str) -> Callable[[Order], Order]:
    """The board-level check of ``board``'s phase for ``power``'s orders, each already read by
    :func:`engine.validation.validate_order`: the fleets at sea in a movement phase, the kind of
    order in a retreat phase, the builds or removals due in an adjustment phase
    (:func:`engine.adjudicator.adjustments.check_adjustment_order`). Raises InvalidOrder."""
    kind = board.phase.kind
    if kind == "M":
        convoys = board_convoys(board)

        def movement(order: Order) -> Order:
            return check_movement_order(order, board, convoys)

        return movement
    if kind == "R":

        def retreat(order: Order) -> Order:
            return check_retreat_order(order, board, power)

        return retreat
    due = adjustment_due(board, power)

    def adjustment(order: Order) -> Order:
        return check_adjustment_order(order, board, power, due)

    return adjustment
