"""Example orders for a player, from their own units on the board of their own game (a welcome, the
help by direct message): an Ancient Mediterranean player reads ``A ROM - NAP``, never the Standard
map's ``A PAR - BUR``.

Each example is a legal order of the current phase (engine.legal.legal_orders), written as the
bot writes orders back (canonical text, which the order reader takes as typed): a move of an army, a
move of a fleet, and a support of the first move by another unit when there is one. In a phase
without moves (retreats, adjustments) the examples are what that phase takes (a retreat, a build).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine import Board
from engine.legal import LegalOrder, OrderKind, legal_orders
from engine.variants import game_map

MAX_EXAMPLES = 3


def example_orders(board: Board, powers: Iterable[str]) -> list[str]:
    """Up to three legal orders of ``powers``' units on ``board``, for a player to copy."""
    found: list[LegalOrder] = []
    for power in powers:
        legal = legal_orders(board, power)
        orders = [o for entry in legal.entries for o in entry.orders]
        own = {unit.province for unit in board.units.get(power, ())}
        moves = [
            o
            for o in orders
            if o.kind == OrderKind.MOVE and not o.via_convoy and (o.target or "")[:3] not in own
        ]
        army = next((o for o in moves if o.unit is not None and o.unit.type == "A"), None)
        fleet = next(
            (
                o
                for o in moves
                if o.unit is not None
                and o.unit.type == "F"
                and (army is None or (o.target or "")[:3] != (army.target or "")[:3])
            ),
            None,
        )
        found += [o for o in (army, fleet) if o is not None]
        if found:
            first = found[0]
            support = next(
                (
                    o
                    for o in orders
                    if o.kind == OrderKind.SUPPORT
                    and o.helped is not None
                    and first.unit is not None
                    and o.helped.province == first.unit.province
                    and o.target == first.target
                ),
                None,
            )
            if support is not None:
                found.append(support)
        else:  # retreats or adjustments: what this phase takes
            found += [o for o in orders if o.kind in (OrderKind.RETREAT, OrderKind.BUILD)][:2]
        if found:
            break
    return [o.text for o in found[:MAX_EXAMPLES]]


def examples_for_board(board_json: Mapping[str, Any], variant: str, powers: Iterable[str]) -> list[str]:
    """:func:`example_orders` for a board in its stored (JSON) form."""
    return example_orders(Board.from_json(dict(board_json), game_map(variant)), powers)
