"""The personal summary in each phase's call to order: what happened to the power's units and
centers, then what it must order, in every phase type (plain facts of the board, no one's orders)."""

from __future__ import annotations

from engine import Board
from gm.phases.results import opened_payloads


def calls(board: dict, before: dict | None, adjustments: dict | None = None) -> dict[str, list[str]]:
    payloads = opened_payloads(
        game_id=1,
        game_name="G",
        board=Board.from_json(board),
        adjustments=adjustments,
        deadline=None,
        before=Board.from_json(before) if before else None,
    )
    return {power: list(call.lines) for power, call in payloads.items()}


def test_a_retreat_says_who_dislodged_the_unit_and_where_it_may_go() -> None:
    got = calls(
        {
            "phase": "F1901R",
            "units": {"FRANCE": ["A MUN"], "GERMANY": ["A BER"]},
            "centers": {"GERMANY": ["BER", "MUN", "KIE"]},
            "dislodged": {"GERMANY": {"A MUN": {"attacker_from": "BUR", "retreats": ["BOH", "SIL"]}}},
        },
        None,
    )
    assert list(got) == ["GERMANY"], "only the power with something to do is called"
    assert got["GERMANY"] == [
        "Your A MUN was dislodged by the attack from BUR: retreat to BOH or SIL, or disband."
    ]


def test_adjustments_say_what_was_gained_and_where_to_build() -> None:
    before = {
        "phase": "F1901M",
        "units": {"FRANCE": ["A BEL", "A SPA"]},
        "centers": {"FRANCE": ["PAR", "MAR", "BRE"]},
    }
    got = calls(
        {
            "phase": "W1901A",
            "units": {"FRANCE": ["A BEL", "A SPA"]},
            "centers": {"FRANCE": ["PAR", "MAR", "BRE", "BEL", "SPA"]},
        },
        before,
        {"FRANCE": 3},
    )
    assert got["FRANCE"] == [
        "You gained BEL and SPA.",
        "You may build 3 units: in BRE, MAR or PAR (or WAIVE).",
    ]


def test_a_loss_and_a_removal_are_said_plainly() -> None:
    before = {
        "phase": "F1901M",
        "units": {"ITALY": ["A VEN", "A ROM", "F NAP"]},
        "centers": {"ITALY": ["VEN", "ROM", "NAP"]},
    }
    got = calls(
        {
            "phase": "W1901A",
            "units": {"ITALY": ["A VEN", "A ROM", "F NAP"]},
            "centers": {"ITALY": ["ROM", "NAP"]},
        },
        before,
        {"ITALY": -1},
    )
    assert got["ITALY"] == ["You lost VEN.", "You must remove 1 unit."]


def test_a_movement_phase_lists_the_units_after_the_changes() -> None:
    before = {"phase": "W1901A", "units": {"AUSTRIA": ["A VIE"]}, "centers": {"AUSTRIA": ["VIE", "BUD"]}}
    got = calls(
        {"phase": "S1902M", "units": {"AUSTRIA": ["A VIE", "A BUD"]}, "centers": {"AUSTRIA": ["VIE", "BUD"]}},
        before,
    )
    assert got["AUSTRIA"] == ["Your units: A VIE, A BUD"]
