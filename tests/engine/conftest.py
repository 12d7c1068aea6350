"""Shared fixtures for the engine tests: the Standard map and a board factory."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.board import Board
from engine.mapdata import GameMap, load_map


@pytest.fixture(scope="session")
def game_map() -> GameMap:
    return load_map("standard")


@pytest.fixture
def make_board(game_map: GameMap) -> Callable[..., Board]:
    """Build a board from the contract's JSON pieces: make_board("F1901R", units={...}, centers={...})."""

    def build(
        phase: str = "S1901M",
        units: dict[str, list[str]] | None = None,
        centers: dict[str, list[str]] | None = None,
        dislodged: dict[str, dict[str, Any]] | None = None,
    ) -> Board:
        start = Board.initial(game_map).to_json()
        data = {
            "phase": phase,
            "units": start["units"] if units is None else units,
            "centers": start["centers"] if centers is None else centers,
            "dislodged": dislodged or {},
        }
        return Board.from_json(data, game_map)

    return build
