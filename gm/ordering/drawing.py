"""Drawing a player's private preview off the event loop (a worker process or a thread).

Plain data in, PNG bytes out, like gm.phases.worker: :func:`preview_request` is built in the session
(gm.ordering.preview), :func:`render_preview` runs in a worker. This module imports only the engine and
gm.messages.words (and the renderer when drawing), so a worker process loads no database code for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import Board
from engine.variants import game_map
from gm.messages.words import powers_text

PREVIEW_WIDTH = 1600
"""A preview's width: a bigger map (Youngstown) is drawn smaller than its results (a quick look on a
phone), a smaller one at its own width (Ancient Mediterranean: 1597 px), so that the worker's cached
layers for its results serve its previews too (render.basemap)."""


def preview_title(long_name: str, powers: Sequence[str]) -> str:
    """``Spring 1901 Movement · France: orders so far``."""
    return f"{long_name} \u00b7 {powers_text(powers)}: orders so far"


def preview_request(
    board: Mapping[str, Any], variant: str, orders: Mapping[str, Sequence[str]], title: str
) -> dict[str, Any]:
    """What :func:`render_preview` draws: the board (engine JSON), the variant, the orders to draw
    (power -> canonical texts: the caller's only) and the title."""
    return {
        "board": dict(board),
        "variant": variant,
        "orders": {power: list(lines) for power, lines in orders.items()},
        "title": title,
        "width": PREVIEW_WIDTH,
    }


def render_preview(request: Mapping[str, Any]) -> bytes | None:
    """The preview PNG of a :func:`preview_request`: the board with exactly those orders drawn, as not
    yet adjudicated. None when the renderer is not installed."""
    try:
        from render import RenderOptions, marks_from_orders, render_map
        from render.compose import picture_width
    except ImportError:
        return None
    the_map = game_map(str(request["variant"]))
    board = Board.from_json(request["board"], the_map)
    marks = marks_from_orders(request["orders"], the_map, board.phase.kind)
    width = min(int(request.get("width", PREVIEW_WIDTH)), picture_width(the_map.name))
    options = RenderOptions(width=width, title=str(request["title"]))
    if request.get("fog") is not None:  # the fog of war: the caller's view (gm.reading.fog)
        options = RenderOptions(
            width=width,
            title=str(request["title"]),
            fog=frozenset(request["fog"]),
            viewer=request.get("viewer"),
        )
    return render_map(board, marks, options=options)
