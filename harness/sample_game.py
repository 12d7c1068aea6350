"""The 2000 rulebook's sample game ("Opening moves in a sample game"), played through the engine.

The orders are the rulebook's, in its own notation, phase by phase (harness/sample_game_data.py).
:func:`play` runs them through ``engine.adjudicate_json`` and yields, for every phase, the request
and the result, which the render tests and bench/render.py draw.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine import adjudicate_json
from engine.adjudication import AdjudicationJSON
from engine.board import Board
from harness.sample_game_data import ORDERS

LAST_PHASE = "W1902A"


def play() -> Iterator[tuple[dict[str, Any], AdjudicationJSON]]:
    """(request, result) for every phase the engine opens, from Spring 1901 to Winter 1902.

    A phase the rulebook gives no orders for (a retreat phase it says nothing about) is played with
    no orders, as the engine would at its deadline.
    """
    state: dict[str, Any] = {**Board.initial().to_json()}
    for _ in range(12):  # the game has at most 10 phases up to Winter 1902
        phase = state["phase"]
        request = {**state, "orders": ORDERS.get(phase, {})}
        result = adjudicate_json(request)
        yield request, result
        if phase == LAST_PHASE or not result.get("next_phase"):
            return
        state = {
            "variant": "standard",
            "phase": result["next_phase"],
            "units": result["units"],
            "centers": result["centers"],
        }
        if result.get("dislodged"):
            state["dislodged"] = result["dislodged"]
