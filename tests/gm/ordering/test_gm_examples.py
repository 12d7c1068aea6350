"""Example orders come from the player's own units on their own game's board, and are legal."""

from __future__ import annotations

import pytest

from engine import Board
from engine.legal import legal_orders
from engine.variants import all_variants, game_map
from gm.ordering.examples import example_orders


@pytest.mark.parametrize("variant", [v.name for v in all_variants()])
def test_every_powers_examples_are_its_own_legal_orders(variant: str) -> None:
    board = Board.initial(game_map(variant), variant=variant)
    for power in board.game_map.powers:
        examples = example_orders(board, [power])
        orders = legal_orders(board, power)
        legal = {o.text for o in orders}
        assert set(examples) <= legal, (power, examples)
        assert examples or orders.reason, (
            f"{power} may order, so it gets examples"
        )  # (ww1914's neutral Italy)
        assert len(examples) <= 3


def test_a_standard_france_gets_a_move_a_fleet_move_and_a_support() -> None:
    board = Board.initial(game_map("standard"), variant="standard")
    assert example_orders(board, ["FRANCE"]) == ["A MAR - BUR", "F BRE - ENG", "A PAR S A MAR - BUR"]
    rome = example_orders(Board.initial(game_map("ancmed"), variant="ancmed"), ["ROME"])
    assert rome and all(o.split()[1] in ("ROM", "NEA", "RAV") for o in rome)
