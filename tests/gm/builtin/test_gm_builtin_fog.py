"""The built-in player under the fog of war (gm.builtin.orders, ``fogged``): each power's orders are
chosen on the board as that power sees it, and are as good on the whole board: none comes out
invalid, in games played by it alone for a few years."""

from __future__ import annotations

import pytest

from engine import adjudicate, initial_board
from engine.fog import fog_board
from gm.builtin.orders import built_in_orders


@pytest.mark.parametrize("variant", ["standard", "ancmed", "modern"])
def test_orders_chosen_on_each_powers_view_are_all_valid_on_the_whole_board(variant: str) -> None:
    board = initial_board(variant)
    powers = board.game_map.powers
    for _ in range(12):
        orders, failed = built_in_orders(board, powers, seed=5, holding=(), fogged=True)
        assert failed == {}
        out = adjudicate(board, orders)
        invalid = [r for r in out.results if r.status == "invalid"]
        assert invalid == [], (str(board.phase), invalid)
        if out.next_phase is None:
            break
        board = out.board


def test_a_fogged_choice_looks_only_at_what_the_power_sees() -> None:
    board = initial_board("standard")
    blind = fog_board(board, "FRANCE")
    fogged, _ = built_in_orders(board, ["FRANCE"], seed=3, holding=(), fogged=True)
    on_view, _ = built_in_orders(blind, ["FRANCE"], seed=3, holding=())
    assert fogged == on_view
