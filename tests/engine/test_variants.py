"""Variants in the engine: the two-player 1914 game (Italy neutral and closed until Spring 1915, 24
centers to win) next to the unchanged standard game, and the variant's name in the JSON contract."""

from __future__ import annotations

import dataclasses
import io
import json
from typing import Any

import pytest

from engine import Board, BoardError, adjudicate, adjudicate_json, initial_board, load_map, read_order
from engine.__main__ import adjudicate_command
from engine.adjudication import AdjudicationJSON
from engine.errors import InvalidOrder
from engine.variants import VARIANTS

NEUTRAL_ITALY = "Italy is neutral until Spring 1915: its territory cannot be entered"
ITALIAN_TERRITORY = {"VEN", "ROM", "NAP", "TUS", "PIE", "APU"}


def ww1914(phase: str, units: dict[str, list[str]], **rest: Any) -> Board:
    return Board.from_json({"variant": "ww1914", "phase": phase, "units": units, **rest})


def results(board: Board, orders: dict[str, list[str]], **options: Any) -> dict[str | None, Any]:
    """Input line -> its result row, and the Adjudication (the next board...) under the key None."""
    out = adjudicate(board, orders, **options)
    rows: dict[Any, Any] = {r.input: r.to_json() for r in out.results if r.input is not None}
    rows[None] = out
    return rows


def refusal(board: Board, power: str, text: str) -> InvalidOrder:
    with pytest.raises(InvalidOrder) as caught:
        read_order(text, board, power)
    return caught.value


# --- the opening position ---------------------------------------------------------------------------


def test_the_engine_knows_every_variant_folder() -> None:
    assert {"standard", "ww1914", "fleetrome", "modern", "youngstown", "ancmed", "1900", "chaos"} <= set(
        VARIANTS
    )
    assert VARIANTS["ww1914"].map_name == "standard" and VARIANTS["chaos"].geometry_name == "standard"


def test_the_1914_game_opens_in_spring_1914_on_the_standard_position() -> None:
    board = initial_board("ww1914")
    standard = initial_board("standard")
    assert str(board.phase) == "S1914M"
    assert board.variant == "ww1914"
    assert board.units == standard.units
    assert board.centers == standard.centers
    assert board.units["ITALY"]  # Italy's units stand, held by nobody
    assert str(standard.phase) == "S1901M" and standard.variant == "standard"


def test_italian_territory_is_closed_in_1914_and_nothing_is_closed_in_the_standard_game() -> None:
    assert initial_board("ww1914").closed == ITALIAN_TERRITORY
    assert initial_board("standard").closed == frozenset()
    assert read_order("F Tri - Ven", initial_board("standard"), "AUSTRIA")  # unchanged there


# --- closed territory -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("power", "text"),
    [
        ("AUSTRIA", "F Tri - Ven"),
        ("FRANCE", "A Mar - Pie"),
        ("AUSTRIA", "A Vie S F Tri - Ven"),  # support of a move into Italy
        ("AUSTRIA", "F Tri S A Ven"),  # support to hold an Italian unit (docs/RULES.md)
    ],
)
def test_no_move_or_support_reaches_into_italy_while_it_is_neutral(power: str, text: str) -> None:
    board = initial_board("ww1914")
    assert refusal(board, power, text).reason == NEUTRAL_ITALY


def test_an_order_into_italy_is_invalid_and_the_unit_holds() -> None:
    board = initial_board("ww1914")
    rows = results(board, {"FRANCE": ["A Mar - Pie", "A Par - Bur"]}, civil_disorder={"ITALY"})
    assert rows["A Mar - Pie"]["status"] == "invalid"
    assert rows["A Mar - Pie"]["reason"].startswith(NEUTRAL_ITALY)
    assert rows["A Par - Bur"]["status"] == "succeeded"
    after = rows[None].board
    assert {str(u) for u in after.units["FRANCE"]} == {"A MAR", "A BUR", "F BRE"}


def test_no_army_is_convoyed_into_italy_while_it_is_neutral() -> None:
    board = ww1914("F1914M", {"FRANCE": ["A TUN", "F TYS"]})
    rows = results(board, {"FRANCE": ["A Tun - Tus via convoy", "F Tys C A Tun - Tus"]})
    assert rows["A Tun - Tus via convoy"]["status"] == "invalid"
    assert rows["A Tun - Tus via convoy"]["reason"].startswith(NEUTRAL_ITALY)
    assert rows["F Tys C A Tun - Tus"]["status"] == "invalid"
    assert rows["F Tys C A Tun - Tus"]["reason"].startswith(NEUTRAL_ITALY)
    assert {str(u) for u in rows[None].board.units["FRANCE"]} == {"A TUN", "F TYS"}
    assert refusal(board, "FRANCE", "A Tun - Rom").reason == NEUTRAL_ITALY  # a convoy it would need


def test_italy_itself_gives_no_orders_while_neutral() -> None:
    board = initial_board("ww1914")
    rows = results(board, {"ITALY": ["A Ven - Tyr"]})  # even when the caller forgets civil disorder
    assert rows["A Ven - Tyr"]["status"] == "invalid"
    assert rows["A Ven - Tyr"]["reason"].startswith("Italy is neutral until Spring 1915: its units hold")
    assert {str(u) for u in rows[None].board.units["ITALY"]} == {"A VEN", "A ROM", "F NAP"}


# --- retreats ---------------------------------------------------------------------------------------

TYROLIA_ATTACKED = {"AUSTRIA": ["A TYR"], "FRANCE": ["A MUN", "A BOH"]}
FRENCH_ATTACK = {"FRANCE": ["A Mun - Tyr", "A Boh S A Mun - Tyr"]}


def test_a_dislodged_unit_may_not_retreat_into_italy_while_it_is_neutral() -> None:
    out = adjudicate(ww1914("F1914M", TYROLIA_ATTACKED), FRENCH_ATTACK)
    (tyrolia,) = out.dislodged["AUSTRIA"]
    assert tyrolia.retreats == ("TRI", "VIE")
    standard = Board.from_json({"phase": "F1901M", "units": TYROLIA_ATTACKED})
    (same,) = adjudicate(standard, FRENCH_ATTACK).dislodged["AUSTRIA"]
    assert same.retreats == ("PIE", "TRI", "VEN", "VIE")


def test_a_unit_whose_only_retreats_are_italian_is_destroyed_without_a_retreat_phase() -> None:
    units = {"AUSTRIA": ["A TYR", "A TRI", "A VIE"], "FRANCE": ["A MUN", "A BOH"]}
    out = adjudicate(ww1914("F1914M", units), FRENCH_ATTACK)
    (tyrolia,) = out.dislodged["AUSTRIA"]
    assert tyrolia.retreats == ()
    assert str(out.next_phase) != "F1914R"
    assert {str(u) for u in out.board.units["AUSTRIA"]} == {"A TRI", "A VIE"}


def test_a_retreat_into_italy_is_refused_even_when_the_options_list_it() -> None:
    dislodged = {"AUSTRIA": {"A TYR": {"attacker_from": "MUN", "retreats": ["VEN", "VIE"]}}}
    board = ww1914("F1914R", {"FRANCE": ["A TYR", "A BOH"]}, dislodged=dislodged)
    assert refusal(board, "AUSTRIA", "A Tyr R Ven").reason == NEUTRAL_ITALY
    rows = results(board, {"AUSTRIA": ["A Tyr R Ven", "A Tyr R Vie"]})
    assert rows["A Tyr R Ven"]["status"] == "invalid"
    assert rows["A Tyr R Vie"]["status"] == "succeeded"


# --- Italy opens in 1915 -----------------------------------------------------------------------------


def test_italian_territory_opens_after_the_1914_turn() -> None:
    spring = adjudicate(initial_board("ww1914"), {}, civil_disorder={"ITALY"})
    assert str(spring.next_phase) == "F1914M"
    assert spring.board.closed == ITALIAN_TERRITORY
    fall = adjudicate(spring.board, {}, civil_disorder={"ITALY"})
    assert str(fall.next_phase) == "S1915M"  # nothing to adjust: the winter is skipped
    board = fall.board
    assert board.closed == frozenset()
    rows = results(board, {"FRANCE": ["A Mar - Pie"], "ITALY": ["A Ven - Tyr"]})
    assert rows["A Mar - Pie"]["status"] == "succeeded"
    assert rows["A Ven - Tyr"]["status"] == "succeeded"  # Italy plays, for the coin flip's winner


def test_the_winter_adjustments_of_1914_still_keep_italy_closed() -> None:
    board = ww1914(
        "W1914A",
        {"AUSTRIA": ["A SER"], "ITALY": ["A VEN"]},
        centers={"AUSTRIA": ["VIE", "SER"], "ITALY": ["VEN", "ROM"]},
    )
    rows = results(board, {"AUSTRIA": ["A Vie B"], "ITALY": ["A Rom B"]})
    assert rows["A Vie B"]["status"] == "succeeded"
    assert rows["A Rom B"]["status"] == "invalid"
    assert rows["A Rom B"]["reason"].startswith("Italy is neutral until Spring 1915")
    assert str(rows[None].next_phase) == "S1915M"


def test_from_1915_an_italian_unit_can_be_supported_and_attacked() -> None:
    board = ww1914("S1915M", {"AUSTRIA": ["F TRI", "A TYR"], "ITALY": ["A VEN"]})
    rows = results(board, {"AUSTRIA": ["F Tri - Ven", "A Tyr S F Tri - Ven"]})
    assert rows["F Tri - Ven"]["status"] == "succeeded"
    assert [str(d.unit) for d in rows[None].dislodged["ITALY"]] == ["A VEN"]


# --- victory ----------------------------------------------------------------------------------------


def fall_taking_spain(variant: str, owned: int, **options: Any) -> AdjudicationJSON:
    """France owns ``owned`` centers and takes Spain in the fall: the JSON result."""
    others = sorted(load_map().supply_centers - {"SPA"})
    request = {
        "variant": variant,
        "phase": "F1915M",
        "units": {"FRANCE": ["A GAS"]},
        "centers": {"FRANCE": others[:owned]},
        "orders": {"FRANCE": ["A Gas - Spa"]},
        **options,
    }
    return adjudicate_json(request)


def test_eighteen_centers_win_the_standard_game_but_not_the_1914_game() -> None:
    assert fall_taking_spain("standard", 17)["winner"] == "FRANCE"
    out = fall_taking_spain("ww1914", 17)
    assert out["winner"] is None
    assert out["next_phase"] is not None


def test_twenty_four_centers_win_the_1914_game() -> None:
    out = fall_taking_spain("ww1914", 23)
    assert out["winner"] == "FRANCE"
    assert out["next_phase"] is None
    assert fall_taking_spain("ww1914", 22)["winner"] is None


def test_an_explicit_victory_target_still_overrides_the_variant() -> None:
    assert fall_taking_spain("ww1914", 17, victory_centers=18)["winner"] == "FRANCE"


# --- the variant in the JSON contract ----------------------------------------------------------------


def unknown() -> str:
    """The refusal of variant 'x', naming every variant known now (tests may register more)."""
    return "unknown variant 'x'; known: " + ", ".join(VARIANTS)


def test_an_unknown_variant_is_a_clear_error() -> None:
    with pytest.raises(BoardError) as caught:
        Board.from_json({"variant": "x", "phase": "S1901M"})
    assert str(caught.value) == unknown()
    with pytest.raises(BoardError) as caught:
        adjudicate_json({"variant": "x", "phase": "S1901M", "units": {}, "orders": {}})
    assert str(caught.value) == unknown()
    with pytest.raises(ValueError, match="unknown variant 'x'"):
        initial_board("x")


def test_the_command_line_reports_an_unknown_variant_as_an_error_object() -> None:
    out = io.StringIO()
    status = adjudicate_command(io.StringIO(json.dumps({"variant": "x", "phase": "S1901M"})), out, None)
    assert status == 1
    assert unknown() in json.loads(out.getvalue())["error"]


def test_a_board_keeps_its_variant_through_json() -> None:
    board = initial_board("ww1914")
    data = board.to_json()
    assert data["variant"] == "ww1914"
    again = Board.from_json(json.loads(json.dumps(data)))
    assert again == board
    assert again.variant == "ww1914" and again.closed == ITALIAN_TERRITORY


def test_the_json_result_names_the_variant_and_feeds_the_next_phase() -> None:
    request = {**initial_board("ww1914").to_json(), "orders": {"FRANCE": ["A Mar - Pie"]}}
    out = adjudicate_json(request)
    assert out["variant"] == "ww1914"
    assert out["next_phase"] == "F1914M"
    nxt = {**out, "phase": out["next_phase"], "orders": {"FRANCE": ["A Mar - Pie"]}}
    again = adjudicate_json(nxt)
    (row,) = [r for r in again["orders"] if r["input"] == "A Mar - Pie"]
    assert row["status"] == "invalid"  # still 1914: the variant came through the round trip
    assert again["next_phase"] == "S1915M"
    assert "variant" not in adjudicate_json({"phase": "S1901M", "units": {}, "orders": {}})


def test_a_variant_is_refused_on_another_map_than_its_own() -> None:
    standard = load_map("standard")
    board = Board.from_json({"variant": "ww1914", "phase": "S1914M"}, standard)
    assert board.game_map is standard  # the ww1914 game is played on the standard map
    elsewhere = dataclasses.replace(standard, name="elsewhere")
    with pytest.raises(BoardError, match="played on the standard map"):
        Board.from_json({"variant": "ww1914", "phase": "S1914M"}, elsewhere)
