"""Reading the engine's JSON (request and result forms), the CLI, and the rulebook's sample game."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from engine import adjudicate_json
from engine.board import Board
from engine.orders import Convoy, Disband, Hold, Move, Remove, SupportHold
from harness.boards import crowded_request, crowded_result
from harness.sample_game import play
from render import RenderOptions, marks_from_results, render_json, render_map
from render.__main__ import main as cli
from render.jsonio import board_and_marks
from tests.render.pixels import fill_at


def test_results_become_marks_with_their_outcome() -> None:
    result = crowded_result()
    marks = marks_from_results(result)
    by_text = {str(m.order): m for m in marks}
    assert by_text["A LON - BEL VIA"].status == "failed"
    assert "bounced" in (by_text["A LON - BEL VIA"].reason or "")
    assert isinstance(by_text["F NTH C A LON - BEL"].order, Convoy)
    assert by_text["A PAR - BUR"].status == "succeeded"
    assert isinstance(by_text["A PAR - BUR"].order, Move)
    assert len(marks) == 34


def test_unreadable_lines_and_default_holds_are_not_drawn() -> None:
    request = {**Board.initial().to_json(), "orders": {"FRANCE": ["A Par-Bur", "fly to the moon"]}}
    result = adjudicate_json(request)
    marks = marks_from_results(result)
    assert [str(m.order) for m in marks] == ["A PAR - BUR"]
    assert any(line["input"] is None for line in result["orders"])  # the engine's default holds


def test_retreat_and_adjustment_orders_read_as_such() -> None:
    lines = {
        "phase": "W1901A",
        "orders": [{"power": "RUSSIA", "input": "Remove A Gal", "order": "A GAL D", "status": "succeeded"}],
    }
    assert isinstance(marks_from_results(lines)[0].order, Remove)
    lines["phase"] = "F1901R"
    assert isinstance(marks_from_results(lines)[0].order, Disband)


def test_request_form_draws_the_orders_as_not_yet_adjudicated() -> None:
    board, marks = board_and_marks(crowded_request())
    assert sum(len(u) for u in board.units.values()) == 34
    assert len(marks) == 34
    assert all(m.status is None for m in marks)
    assert {type(m.order) for m in marks} == {Move, SupportHold, Hold, Convoy}


def test_crowded_map_stays_small_enough_for_discord() -> None:
    png = render_json(crowded_result(), RenderOptions(width=1600))
    assert len(png) < 1_000_000
    assert Image.open(io.BytesIO(png)).width == 1600


def test_cli_draws_either_form(tmp_path: Path) -> None:
    for name, data in (("request", crowded_request()), ("result", crowded_result())):
        src = tmp_path / f"{name}.json"
        src.write_text(json.dumps(data))
        out = tmp_path / f"{name}.png"
        assert cli([str(src), str(out), "--width", "640"]) == 0
        img = Image.open(out)
        assert img.format == "PNG"
        assert img.width == 640


def test_cli_reports_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "bad.json"
    src.write_text(json.dumps({"phase": "S1901M", "units": {"FRANCE": ["A ATLANTIS"]}}))
    assert cli([str(src), str(tmp_path / "out.png")]) == 2
    assert "ATLANTIS" in capsys.readouterr().err
    assert not (tmp_path / "out.png").exists()


def test_the_sample_game_is_drawn_phase_by_phase() -> None:
    phases = []
    for request, result in play():
        for data in (request, result):
            png = render_json(data, RenderOptions(width=800))
            assert Image.open(io.BytesIO(png)).width == 800
        phases.append(request["phase"])
    assert phases == ["S1901M", "F1901M", "W1901A", "S1902M", "F1902M", "F1902R", "W1902A"]


def test_the_sample_games_last_map_shows_who_took_what() -> None:
    *_, (_request, result) = play()
    img = Image.open(io.BytesIO(render_json(result, RenderOptions(width=1000)))).convert("RGB")
    assert fill_at(img, "STP") == "ENGLAND"  # taken from Russia in Fall 1902
    assert fill_at(img, "RUM") == "TURKEY"
    assert fill_at(img, "BEL") == "GERMANY"
    assert fill_at(img, "MOS") == "RUSSIA"


def test_render_map_takes_the_board_orders_results_then_options() -> None:
    """``render_map(board, orders=None, results=None, options=None)``: the worker passes (board, marks)
    positionally; results and options may come by keyword or in that order."""
    result = crowded_result()
    board = Board.from_json(result)
    marks = marks_from_results(result, board.game_map)
    small = RenderOptions(width=640)
    from_marks = render_map(board, marks, options=small)
    assert render_map(board, results=result, options=small) == from_marks
    assert render_map(board, None, result, small) == from_marks
    assert render_map(board, marks) == render_map(board, marks, None, RenderOptions())
    assert render_map(board, options=small) != from_marks  # no orders drawn
    with pytest.raises(TypeError, match="keyword"):  # the old order: options third
        render_map(board, marks, small)  # type: ignore[arg-type]  # deliberately the old order
