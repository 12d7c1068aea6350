"""The hard level's self-standoff (engine.player.homes.STANDOFF): in the fall, with more builds due
than home centres left free, two of our units ordered into an empty home centre bounce each other;
it stays empty and ours, a lone move of another power into it bounces too, and a build is made there."""

from __future__ import annotations

import pytest

from engine import Board, adjudicate
from engine.mapdata import province_of
from engine.orders import Build, Move
from engine.player import choose_orders, homes

# Fall 1903: Austria owns six centres with four units, two of them on Budapest and Trieste (Russia's
# army in Galicia and Italy's in Venice next to them); Vienna is empty, Russia's army in Galicia
# could walk in, Austria's armies in Bohemia and Tyrolia next to it
VIENNA = {
    "phase": "F1903M",
    "units": {
        "AUSTRIA": ["A BUD", "A TRI", "A BOH", "A TYR"],
        "RUSSIA": ["A GAL", "A UKR", "A RUM"],
        "ITALY": ["A VEN", "F ADR", "A PIE"],
        "GERMANY": ["A MUN", "A SIL"],
    },
    "centers": {
        "AUSTRIA": ["BUD", "TRI", "VIE", "SER", "GRE", "BUL"],
        "RUSSIA": ["MOS", "SEV", "STP", "WAR", "RUM"],
        "ITALY": ["NAP", "ROM", "VEN"],
        "GERMANY": ["BER", "KIE", "MUN"],
    },
}


def _into_vienna(board: Board, seed: int) -> list[Move]:
    orders = choose_orders(board, "AUSTRIA", seed, level="hard")
    return [o.order for o in orders if isinstance(o.order, Move) and province_of(o.order.dest) == "VIE"]


@pytest.mark.parametrize("seed", range(4))
def test_hard_stands_off_two_units_in_an_empty_home_centre_and_builds_there(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(homes, "STANDOFF", 0.5)
    board = Board.from_json(VIENNA)
    orders = choose_orders(board, "AUSTRIA", seed, level="hard")
    into = [o.order for o in orders if isinstance(o.order, Move) and province_of(o.order.dest) == "VIE"]
    assert len(into) == 2, [o.text for o in orders]
    others = {p: [f"{u.type} {u.location} H" for u in us] for p, us in board.units.items() if p != "AUSTRIA"}
    others["RUSSIA"] = ["A GAL - VIE", "A UKR H", "A RUM H"]  # a lone move of theirs bounces too
    fall = adjudicate(board, {**others, "AUSTRIA": [o.order for o in orders]})
    winter = fall.board
    assert winter.phase.kind == "A"
    assert "VIE" not in winter.occupant
    assert "VIE" in winter.centers["AUSTRIA"]
    builds = choose_orders(winter, "AUSTRIA", seed, level="hard")
    assert any(isinstance(o.order, Build) and o.order.unit.province == "VIE" for o in builds), [
        o.text for o in builds
    ]


def test_without_the_standoff_hard_covered_vienna_with_one_unit() -> None:
    """The same board as hard plays it by default: one unit moves into Vienna (no build there)."""
    assert homes.STANDOFF is None
    assert len(_into_vienna(Board.from_json(VIENNA), 0)) == 1
