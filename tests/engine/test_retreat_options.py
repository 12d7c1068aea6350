"""Retreat options given in a request are checked against the board and the map before they are used:
an option the board contradicts is no option (a retreat there is refused with why, and the unit is
disbanded), and a dislodged unit listed in "units" too is a request error naming the field. Never a
crash, never a board that Board.from_json would itself refuse."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Board, BoardError, adjudicate_json, load_map
from tests.helpers.profiles import examples

GM = load_map()


def retreat_phase(units: dict, dislodged: dict, orders: dict) -> dict[str, Any]:
    return {"phase": "S1901R", "units": units, "centers": {}, "dislodged": dislodged, "orders": orders}


def line(result: Mapping[str, Any], text: str) -> dict:
    return next(o for o in result["orders"] if o["input"] == text)


def test_a_retreat_to_an_occupied_option_is_refused_and_the_unit_disbanded() -> None:
    result = adjudicate_json(
        retreat_phase(
            {"FRANCE": ["A VEN"]},
            {"ITALY": {"A TUS": {"attacker_from": "SPA", "retreats": ["VEN", "ROM"]}}},
            {"ITALY": ["A TUS R VEN"]},
        )
    )
    refused = line(result, "A TUS R VEN")
    assert refused["status"] == "invalid"
    assert (
        refused["reason"].startswith("VEN is occupied by A VEN")
        and "treated as a disband" in refused["reason"]
    )
    assert "may retreat to ROM" in refused["reason"], "the real option is offered"
    assert result["units"] == {"FRANCE": ["A VEN"]}
    assert result["next_phase"] == "F1901M"
    Board.from_json(result | {"phase": result["next_phase"]})  # the board it leaves is a board


@pytest.mark.parametrize(
    ("unit", "options", "order", "why"),
    [
        ("A TUS", ["TYS", "PIE"], "A TUS R TYS", "TYS is a sea, where an army cannot go"),
        ("A TUS", ["MUN", "PIE"], "A TUS R MUN", "MUN is not next to TUS"),
        ("F ION", ["VEN", "TUN"], "F ION R VEN", "VEN is not next to ION"),
        ("F ION", ["SER", "TUN"], "F ION R SER", "SER is inland, where a fleet cannot go"),
        ("F MAO", ["SPA", "POR"], "F MAO R SPA", "SPA has two coasts and the option does not say which"),
        ("F TUS", ["TUS"], "F TUS R TUS", "TUS is not next to TUS"),
    ],
)
def test_options_the_map_contradicts_are_refused_with_why(
    unit: str, options: list[str], order: str, why: str
) -> None:
    result = adjudicate_json(retreat_phase({}, {"ITALY": {unit: {"retreats": options}}}, {"ITALY": [order]}))
    refused = line(result, order)
    assert refused["status"] == "invalid" and refused["reason"].startswith(why), refused["reason"]
    assert result["units"] == {}, "an invalid retreat disbands"


def test_a_good_option_beside_a_bad_one_still_works() -> None:
    result = adjudicate_json(
        retreat_phase({}, {"ITALY": {"F NAP": {"retreats": ["SPA", "ROM"]}}}, {"ITALY": ["F NAP R ROM"]})
    )
    assert line(result, "F NAP R ROM")["status"] == "succeeded"
    assert result["units"] == {"ITALY": ["F ROM"]}


def test_a_dislodged_unit_also_in_units_is_a_request_error_naming_the_field() -> None:
    with pytest.raises(BoardError, match=r'"dislodged" of ITALY, A TUS: ITALY also has A TUS in "units"'):
        adjudicate_json(retreat_phase({"ITALY": ["A TUS"]}, {"ITALY": {"A TUS": {"retreats": ["PIE"]}}}, {}))


LAND = sorted(p for p, prov in GM.provinces.items() if prov.is_land)
EVERYWHERE = sorted(GM.locations)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    where=st.sampled_from(LAND),
    kind=st.sampled_from("AF"),
    options=st.lists(st.sampled_from(EVERYWHERE), max_size=4),
    blockers=st.lists(st.sampled_from(LAND), max_size=4),
    pick=st.integers(min_value=0, max_value=3),
)
def test_any_given_options_give_a_result_and_a_possible_board(
    where: str, kind: str, options: list[str], blockers: list[str], pick: int
) -> None:
    if kind == "F" and not GM.provinces[where].has_coast:
        kind = "A"
    location = GM.provinces[where].locations[0] if kind == "F" else where
    units = sorted({f"A {b}" for b in blockers if b != where})
    request = retreat_phase(
        {"FRANCE": units},
        {"ITALY": {f"{kind} {location}": {"retreats": options}}},
        {"ITALY": [f"{kind} {location} R {options[pick % len(options)]}"] if options else []},
    )
    result = adjudicate_json(request)
    Board.from_json(result | {"phase": result["next_phase"]})
    standing = [u for us in result["units"].values() for u in us]
    assert len({u.split()[1].split("/")[0] for u in standing}) == len(standing), "one unit a province"
