"""Drawing the engine's JSON: the adjudication request (board + orders) or its result.

* request form: ``{"phase", "units", "centers", "dislodged"?, "orders": {power: [lines]}}`` -- the
  board the orders were given on, with the orders drawn as not yet adjudicated;
* result form (``engine.adjudicate_json`` output): ``{"phase", "next_phase", "orders": [{power,
  order, status, reason}], "units", "centers", "dislodged"}`` -- the board after the phase (units where
  they ended up, dislodged units set aside with their retreats) with what each order did.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from engine.board import Board
from render.compose import RenderOptions, render_map
from render.marks import OrderMark, marks_from_orders, marks_from_results


def board_and_marks(data: Mapping[str, Any]) -> tuple[Board, list[OrderMark]]:
    """Read either JSON form into the board to draw and the orders to draw on it."""
    board = Board.from_json(dict(data))  # its "variant" names the map
    game_map = board.game_map
    orders = data.get("orders")
    if isinstance(orders, Mapping):
        return board, marks_from_orders(orders, game_map, board.phase.kind)
    if isinstance(orders, list):
        return board, marks_from_results(data, game_map)
    return board, []


def render_json(data: Mapping[str, Any], options: RenderOptions | None = None) -> bytes:
    """PNG bytes for the engine's JSON in either form (a solo winner is named in the title)."""
    options = options or RenderOptions()
    board, marks = board_and_marks(data)
    winner = data.get("winner")
    if winner and options.title is None:
        options = dataclasses.replace(
            options, title=f"{board.phase.long_name} \u00b7 {str(winner).title()} wins"
        )
    return render_map(board, marks, options=options)
