"""The hard level's retreats (engine.player.retreats.HOME_BLOCK): a fall's retreat onto a free home
centre that a build due needs comes last, so the winter's build is not lost to the retreated unit."""

from __future__ import annotations

import pytest

from engine import Board
from engine.player import choose_orders, retreats


def _board(centres: list[str], retreats_to: list[str]) -> Board:
    """Fall 1905's retreats: France's army in Gascony dislodged from Burgundy; France owns
    ``centres``, its three home centres empty."""
    return Board.from_json(
        {
            "phase": "F1905R",
            "units": {"FRANCE": ["F MAO", "A PIC", "A BEL"], "GERMANY": ["A GAS", "A MUN"]},
            "centers": {"FRANCE": centres, "GERMANY": ["BER", "KIE", "MUN"]},
            "dislodged": {"FRANCE": {"A GAS": {"attacker_from": "BUR", "retreats": retreats_to}}},
        }
    )


SEVEN = ["BEL", "BRE", "MAR", "PAR", "POR", "SPA", "HOL"]  # 7 centres, 4 units: 3 builds, 3 free homes


def _retreat(board: Board, level: str = "hard") -> list[str]:
    return [o.text for o in choose_orders(board, "FRANCE", 0, level=level)]


def test_a_retreat_home_comes_last_when_the_builds_need_every_home(monkeypatch: pytest.MonkeyPatch) -> None:
    board = _board(SEVEN, ["BRE", "PAR", "SPA"])
    monkeypatch.setattr(retreats, "HOME_BLOCK", False)
    before = _retreat(board)
    assert before in (["A GAS R BRE"], ["A GAS R PAR"])  # a home centre is worth more than Spain
    monkeypatch.setattr(retreats, "HOME_BLOCK", True)
    assert _retreat(board) == ["A GAS R SPA"]  # Brest and Paris stay free for the three builds
    assert _retreat(board, level="normal") == before  # the other levels retreat as before


def test_with_only_homes_to_go_the_unit_disbands_to_be_rebuilt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(retreats, "HOME_BLOCK", True)
    assert _retreat(_board(SEVEN, ["BRE", "PAR"])) == ["A GAS D"]


def test_a_home_the_builds_do_not_need_is_a_place_like_any(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(retreats, "HOME_BLOCK", True)
    five = SEVEN[:5]  # 5 centres, 4 units: one build, three free homes
    assert _retreat(_board(five, ["BRE", "PAR"])) in (["A GAS R BRE"], ["A GAS R PAR"])
    assert retreats.blocking_homes(_board(five, ["BRE", "PAR"]), "FRANCE") == frozenset()
    assert retreats.blocking_homes(_board(SEVEN, ["BRE", "PAR"]), "FRANCE") == {"BRE", "MAR", "PAR"}


def test_a_unit_with_nowhere_to_go_is_not_counted_as_kept() -> None:
    """Fleet in the Channel dislodged with no retreat: it disbands, so the three builds still need
    every home centre."""
    data = _board(SEVEN, ["BRE", "PAR"]).to_json()
    data["units"]["ENGLAND"] = ["F ENG"]
    data["dislodged"]["FRANCE"]["F ENG"] = {"attacker_from": "LON", "retreats": []}
    board = Board.from_json(data)
    assert len(board.dislodged_of("FRANCE")) == 2
    assert retreats.blocking_homes(board, "FRANCE") == {"BRE", "MAR", "PAR"}
