"""The boards the bot keeps: games at the same position share one board, and so the legal orders the
engine worked out for it (a busy server's games are mostly at their openings)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from db.models import PhaseRecord
from engine import initial_board
from engine.legal import legal_orders
from gm.ordering import progress
from gm.ordering.progress import board_of


def _phase(game_id: int, board: dict[str, object]) -> PhaseRecord:
    return PhaseRecord(game_id=game_id, ordinal=0, name="S1901M", board=board, opened_at=datetime.now(UTC))


@pytest.fixture(autouse=True)
def no_boards_held(monkeypatch: pytest.MonkeyPatch) -> None:
    """The boards held by this process only: other tests' games (in the same worker) may hold the
    opening too."""
    monkeypatch.setattr(progress, "_boards", {})
    monkeypatch.setattr(progress, "_shared", {})


def test_games_at_the_same_position_share_its_board_and_its_legal_orders() -> None:
    opening = dict(initial_board("standard").to_json())
    first = board_of(_phase(9001, opening))
    listed = legal_orders(first, "FRANCE")
    second = board_of(_phase(9002, dict(opening)))
    assert second is first
    assert legal_orders(second, "FRANCE") is listed  # worked out once for both games

    moved = dict(opening, phase="F1901M")  # the first game moves on; the second still sees its listing
    assert board_of(_phase(9001, moved)) is not first
    assert board_of(_phase(9002, dict(opening))) is first
    assert legal_orders(first, "FRANCE") is listed

    board_of(_phase(9002, moved))  # nobody holds the opening now: a new board for it next time
    fresh = board_of(_phase(9003, dict(opening)))
    assert fresh is not first
    assert legal_orders(fresh, "FRANCE") is not listed
    assert legal_orders(fresh, "FRANCE").entries == listed.entries
