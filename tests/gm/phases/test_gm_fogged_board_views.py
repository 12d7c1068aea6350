"""A fogged game's view of a board (gm.reading.fog.board_for) is built once per position and player:
every tap of a fogged player asks for it, and the engine lists a board's legal orders once per object."""

from __future__ import annotations

from datetime import UTC, datetime

from db.models import Game, GameStatus
from engine import initial_board
from engine.legal import legal_orders
from gm.reading.fog import board_for


def fogged(game_id: int) -> Game:
    return Game(
        id=game_id,
        name=f"fog {game_id}",
        guild_id=1,
        creator_id=1,
        created_at=datetime.now(UTC),
        status=GameStatus.ACTIVE,
        settings={"fog": "counts"},
    )


def test_a_fogged_players_view_is_built_and_listed_once_per_position() -> None:
    board = initial_board("standard")
    game = fogged(1)
    view = board_for(game, board, ["FRANCE"])
    assert view is not board
    assert "ENGLAND" not in view.units  # London and Edinburgh are out of France's sight at the start
    again = board_for(game, board, ["FRANCE"])
    assert again is view
    assert legal_orders(again, "FRANCE") is legal_orders(view, "FRANCE")  # listed once
    england = board_for(game, board, ["ENGLAND"])
    assert england is not view and "ENGLAND" in england.units
    assert board_for(fogged(2), board, ["FRANCE"]) is not view  # another game: a view of its own


def test_a_new_position_gives_a_new_view_and_an_ended_game_shows_the_whole_board() -> None:
    board = initial_board("standard")
    game = fogged(3)
    view = board_for(game, board, ["FRANCE"])
    moved = initial_board("standard")  # the next phase's board: a new object
    assert board_for(game, moved, ["FRANCE"]) is not view
    game.status = GameStatus.FINISHED
    assert board_for(game, moved, ["FRANCE"]) is moved
