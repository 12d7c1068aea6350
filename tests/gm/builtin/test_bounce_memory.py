"""What the built-in player remembers at a close (gm.builtin.orders.bounce_memory): read from the game's
stored phases (board and results JSON), a move that bounced into an empty province twice in a row is
not made a third time."""

from __future__ import annotations

from typing import Any

from engine import Board, adjudicate
from gm.builtin.orders import bounce_memory, built_in_orders

START = {
    "phase": "S1905M",
    "units": {"ITALY": ["F LYO", "A PIE"], "FRANCE": ["F MAR", "A GAS"]},
    "centers": {"ITALY": ["ROM", "NAP", "VEN", "TUN"], "FRANCE": ["PAR", "BRE", "MAR"]},
}
BOUNCE = {"ITALY": ["F LYO - SPA/SC", "A PIE H"], "FRANCE": ["F MAR - SPA/SC", "A GAS H"]}


def stored_phases(count: int) -> tuple[list[tuple[dict[str, Any], dict[str, Any]]], Board]:
    """``count`` movement phases in which both fleets bounced in Spain, as a game stores them."""
    board = Board.from_json(START)
    history = []
    for _ in range(count):
        result = adjudicate(board, BOUNCE)
        history.append((dict(board.to_json()), dict(result.to_json())))
        board = result.board
        while board.phase.kind != "M":  # the winter: nothing to build
            board = adjudicate(board, {}).board
    return history, board


def test_two_bounces_in_a_row_read_from_the_stored_phases_stop_the_move() -> None:
    history, board = stored_phases(2)
    memory = bounce_memory(history, "standard")
    assert memory["ITALY"] == {"F LYO - SPA/SC": 2}
    assert memory["FRANCE"] == {"F MAR - SPA/SC": 2}
    # the hard level: it weighs an empty province's move by adjudicating, so without the memory it
    # tries Spain again (normal already counts a move France's fleet could bounce for less)
    played, failed = built_in_orders(board, ["ITALY"], seed=1, holding=[], level="hard", bounced=memory)
    assert not failed and "F LYO - SPA/SC" not in played["ITALY"], played
    fresh, _ = built_in_orders(board, ["ITALY"], seed=1, holding=[], level="hard")
    assert "F LYO - SPA/SC" in fresh["ITALY"], fresh  # without the memory it would bounce again


def test_one_bounce_is_remembered_once() -> None:
    history, _ = stored_phases(1)
    assert bounce_memory(history, "standard")["ITALY"] == {"F LYO - SPA/SC": 1}
    assert bounce_memory([], "standard") == {}
