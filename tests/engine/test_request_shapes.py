"""Requests of the wrong shape: a readable BoardError naming the field, never a crash.

``adjudicate_json`` and ``python -m engine adjudicate`` take JSON from outside; whatever its shape,
the answer is a result or a BoardError (on the command line ``{"error": ...}`` and exit status 1).
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.__main__ as cli
from engine import Board, BoardError, adjudicate_json, load_map
from tests.helpers.profiles import examples

VALID: dict[str, Any] = {
    "phase": "F1901R",
    "units": {"GERMANY": ["A PRU", "F KIE"], "RUSSIA": ["A MOS"]},
    "centers": {"GERMANY": ["BER", "KIE"], "RUSSIA": ["WAR", "MOS"]},
    "dislodged": {"RUSSIA": {"A WAR": {"attacker_from": "PRU", "retreats": ["GAL", "LVN"]}}},
    "orders": {"RUSSIA": ["A War - Gal"]},
}


def refusal(request: Any) -> str:
    with pytest.raises(BoardError) as caught:
        adjudicate_json(request)
    return str(caught.value)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"units": ["A PAR"]}, '"units" must be an object like {"FRANCE": ["A PAR", "F BRE"]}; got a list'),
        ({"units": [["A", "PAR"]]}, '"units" must be an object'),
        ({"units": {"A WAR": True}}, "unknown power 'A WAR' in \"units\""),
        ({"units": {"FRANCE": "A PAR"}},
         '"units" of FRANCE must be a list like ["A PAR", "F BRE"]; got the text "A PAR"'),
        ({"units": {"FRANCE": [["A", "PAR"]]}}, '"units" of FRANCE: a list is not a unit; write each unit'),
        ({"units": {"FRANCE": ["A XYZ"]}}, "\"units\" of FRANCE: unknown location in 'A XYZ'"),
        ({"units": {"FRANCE": ["A PAR"], "france": ["A MAR"]}}, '"units" names FRANCE twice'),
        ({"units": {"FRANCE": ["A PAR"], "ITALY": ["A PAR"]}}, "two units in PAR: A PAR and A PAR"),
        ({"centers": {"FRANCE": "PAR"}},
         '"centers" of FRANCE must be a list like ["PAR", "BRE"]; got the text "PAR"'),
        ({"centers": {"FRANCE": ["UKR"]}}, '"centers" of FRANCE: UKR is not a supply center'),
        ({"centers": {"FRANCE": [7]}}, '"centers" of FRANCE: the number 7 is not a supply center'),
        ({"dislodged": {"RUSSIA": ["A WAR"]}}, '"dislodged" of RUSSIA must be an object like {"A WAR": '),
        ({"dislodged": {"RUSSIA": {"A WAR": True}}}, '"dislodged" of RUSSIA, A WAR must be an object like'),
        ({"dislodged": {"RUSSIA": {"A WAR": {"retreats": "GAL"}}}},
         '"dislodged" of RUSSIA, A WAR: "retreats" must be a list like ["GAL", "LVN"]'),
        ({"dislodged": {"RUSSIA": {"A WAR": {"attacker_from": "XYZ"}}}},
         '"dislodged" of RUSSIA, A WAR: "attacker_from" XYZ is not a province'),
        ({"phase": 5}, '"phase" must be a phase name like "S1901M"; got the number 5'),
        ({"phase": None}, '"phase" is missing'),
        ({"phase": "S1901X"}, "\"phase\": not a phase name: 'S1901X'"),
        ({"variant": 1}, '"variant" must be the name of a variant, e.g. "standard"; got the number 1'),
        ({"orders": ["A Par-Bur"]}, '"orders" must be an object mapping each power to its order lines'),
        ({"victory_centers": "x"},
         '"victory_centers" must be a whole number of supply centers, e.g. 18; got the text "x"'),
        ({"victory_centers": True}, '"victory_centers" must be a whole number'),
        ({"civil_disorder": "ITALY"},
         '"civil_disorder" must be a list of powers, e.g. ["ITALY"]; got the text "ITALY"'),
        ({"civil_disorder": ["NARNIA"]}, '"civil_disorder": the text "NARNIA" is not a power'),
    ],
)  # fmt: skip
def test_a_badly_shaped_request_is_refused_naming_the_field(change: dict[str, Any], expected: str) -> None:
    assert expected in refusal({**VALID, **change})


def test_the_request_itself_must_be_an_object() -> None:
    assert "the request must be a JSON object" in refusal(["S1901M"])


def test_codes_are_read_in_any_case_and_null_means_none() -> None:
    out = adjudicate_json(
        {
            "phase": "f1901m",
            "units": {"france": ["a par"], "ITALY": None},
            "centers": {"FRANCE": ["par", " bre "]},
            "dislodged": {"RUSSIA": None},
            "orders": {"FRANCE": None, "ITALY": None},
        }
    )
    assert out["orders"] == [
        {
            "power": "FRANCE",
            "input": None,
            "order": "A PAR H",
            "status": "succeeded",
            "reason": "no order: held",
        }
    ]  # no line for a power whose orders are null
    assert out["centers"] == {"FRANCE": ["BRE", "PAR"]}


def test_a_civil_disorder_power_named_in_lower_case_counts() -> None:
    out = adjudicate_json({**VALID, "phase": "S1901M", "dislodged": {}, "orders": {"RUSSIA": ["A Mos-Stp"]},
                           "civil_disorder": ["russia"]})  # fmt: skip
    russia = [r for r in out["orders"] if r["power"] == "RUSSIA"]
    assert russia[0]["reason"] == "ignored: RUSSIA is in civil disorder"
    assert out["units"]["RUSSIA"] == ["A MOS"]


def test_board_json_round_trip_keeps_everything_dislodged_units_included() -> None:
    board = Board.from_json({**VALID, "variant": "standard"})
    data = board.to_json()
    assert data == {
        "variant": "standard",
        "phase": "F1901R",
        "units": {"GERMANY": ["A PRU", "F KIE"], "RUSSIA": ["A MOS"]},
        "centers": {"GERMANY": ["BER", "KIE"], "RUSSIA": ["MOS", "WAR"]},
        "dislodged": {"RUSSIA": {"A WAR": {"attacker_from": "PRU", "retreats": ["GAL", "LVN"]}}},
    }
    again = Board.from_json(json.loads(json.dumps(data)), load_map())
    assert again == board
    assert again.to_json() == data


# --- fuzzing the shapes -------------------------------------------------------------------------------

WORDS = ["FRANCE", "russia", "A PAR", "F STP/NC", "A WAR", "PAR", "WAR", "GAL", "PRU", "S1901M", "F1901R",
         "W1901A", "A Par-Bur", "standard", "ww1914", "retreats", "attacker_from", "", "x"]  # fmt: skip
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-3, max_value=40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(WORDS)
    | st.text(max_size=6)
)
JSON = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(WORDS), inner, max_size=3),
    max_leaves=12,
)
FIELDS = ["variant", "phase", "units", "centers", "dislodged", "orders", "civil_disorder", "victory_centers"]


@st.composite
def requests(draw: st.DrawFn) -> Any:
    """A valid request with some fields replaced by, or grown into, JSON of any shape."""
    if draw(st.integers(0, 9)) == 0:
        return draw(JSON)  # not even an object, now and then
    request: dict[str, Any] = json.loads(json.dumps(VALID))
    for name in draw(st.lists(st.sampled_from(FIELDS), min_size=1, max_size=3, unique=True)):
        value = draw(JSON)
        if name in ("units", "centers", "orders", "dislodged") and draw(st.booleans()):
            value = {draw(st.sampled_from(["RUSSIA", "GERMANY", "FRANCE"])): value}  # deeper in
        request[name] = value
    return request


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_any_shape_gives_a_result_or_a_board_error(request: Any) -> None:
    try:
        out = adjudicate_json(request)
    except BoardError as exc:
        assert str(exc)
        return
    assert isinstance(out, dict) and "orders" in out
    json.dumps(out)  # the result is JSON


@settings(max_examples=examples(150), deadline=None)
@given(requests())
def test_the_command_line_answers_any_shape_with_one_json_object(request: Any) -> None:
    out = io.StringIO()
    status = cli.adjudicate_command(io.StringIO(json.dumps(request)), out, None)
    answer = json.loads(out.getvalue())
    assert (status, "error" in answer) in ((0, False), (1, True))
    if status == 1:
        assert "internal error" not in answer["error"]


def test_the_command_line_reports_a_bug_as_an_error_object_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(request: Any) -> dict[str, Any]:
        raise KeyError("oops")

    monkeypatch.setattr(cli, "adjudicate_json", broken)
    out = io.StringIO()
    assert cli.adjudicate_command(io.StringIO(json.dumps(VALID)), out, None) == 1
    assert json.loads(out.getvalue()) == {
        "error": "internal error (KeyError: 'oops'); please report it with the request"
    }
    assert "Traceback" not in capsys.readouterr().err


def test_json_nested_too_deeply_is_an_error_object() -> None:
    out = io.StringIO()
    assert cli.adjudicate_command(io.StringIO("[" * 100_000 + "]" * 100_000), out, None) == 1
    assert "not valid JSON" in json.loads(out.getvalue())["error"]
