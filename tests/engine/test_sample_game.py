"""The 2000 rulebook's sample game ("Opening moves in a sample game"), Spring 1901 to the Fall 1902
adjustments, played through ``adjudicate_json`` with the orders exactly as the rulebook prints them
(harness/sample_game_data.py, which also says what we do with the rulebook's misprints).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from engine import Board, adjudicate_json
from engine.adjudication import AdjudicationJSON
from harness.sample_game_data import ORDERS


@cache
def game() -> tuple[AdjudicationJSON, ...]:
    """Every phase's output, each phase played from the board the one before produced."""
    request: dict[str, Any] = {**Board.initial().to_json()}
    outs = []
    for orders in ORDERS.values():
        out = adjudicate_json({**request, "orders": orders})
        outs.append(out)
        request = {
            "phase": out["next_phase"],
            "units": out["units"],
            "centers": out["centers"],
            "dislodged": out["dislodged"] if (out["next_phase"] or "").endswith("R") else {},
        }
    return tuple(outs)


def failed(out: Mapping[str, Any]) -> set[str]:
    return {r["order"] for r in out["orders"] if r["input"] is not None and r["status"] != "succeeded"}


def invalid(out: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [r for r in out["orders"] if r["status"] == "invalid"]


def units(out: Mapping[str, Any], power: str) -> set[str]:
    return set(out["units"].get(power, []))


def test_every_order_of_the_sample_game_is_read_and_valid() -> None:
    for out in game():
        assert invalid(out) == [], out["phase"]


def test_phase_sequence_skips_empty_retreat_phases() -> None:
    assert [out["phase"] for out in game()] == [
        "S1901M", "F1901M", "W1901A", "S1902M", "F1902M", "F1902R", "W1902A",
    ]  # fmt: skip
    assert game()[-1]["next_phase"] == "S1903M"


def test_spring_1901_only_the_black_sea_and_galicia_bounce() -> None:
    assert failed(game()[0]) == {"A BUD - GAL", "A WAR - GAL", "F SEV - BLA", "F ANK - BLA"}


def test_fall_1901_belgium_marseilles_serbia_stand_off_and_con_bul_is_stuck() -> None:
    out = game()[1]
    assert failed(out) == {
        "F PIC - BEL", "A RUH - BEL", "A BUR - MAR", "A PIE - MAR", "A BUD - SER", "A BUL - SER",
        "A CON - BUL",
    }  # fmt: skip
    assert out["dislodged"] == {}


def test_fall_1901_builds_as_the_rulebook_counts_them() -> None:
    out = game()[1]
    assert out["next_phase"] == "W1901A"
    assert out["adjustments"] == {
        "AUSTRIA": 1, "ENGLAND": 1, "FRANCE": 1, "GERMANY": 2, "ITALY": 1, "RUSSIA": 2, "TURKEY": 1,
    }  # fmt: skip
    assert set(out["centers"]["FRANCE"]) == {"BRE", "MAR", "PAR", "POR"}
    assert "SPA" not in {c for cs in out["centers"].values() for c in cs}  # passed through in spring


def test_winter_1901_builds() -> None:
    out = game()[2]
    assert failed(out) == set()
    assert {"F EDI", "F KIE", "A MUN", "A STP", "A SEV", "A SMY", "A VIE", "F NAP", "F MAR"} <= {
        u for us in out["units"].values() for u in us
    }
    assert sum(len(us) for us in out["units"].values()) == 22 + 9


def test_spring_1902() -> None:
    out = game()[3]
    assert failed(out) == {
        # the Norway / St. Petersburg border and what it holds up
        "A NWY - STP", "A STP - NWY", "F NTH - NWY", "F EDI - NTH",
        # three armies into Budapest
        "A TRI - BUD", "A VIE - BUD", "A GAL - BUD",
        # Turkey's attack on Rumania (two against three), and what it holds up
        "A BUL - RUM", "A CON - BUL",
        # Marseilles holds; Munich's attack on Burgundy fails but cuts its support
        "A PIE - MAR", "A MUN - BUR", "A BUR S F PIC - BEL", "F PIC - BEL",
    }  # fmt: skip
    reasons = {r["order"]: r["reason"] for r in out["orders"]}
    assert reasons["A BUR S F PIC - BEL"] == "support cut by A MUN (attacked from MUN)"
    assert "A BEL" in units(out, "GERMANY") and "F HOL" in units(out, "GERMANY")
    assert "A SER" in units(out, "AUSTRIA")


def test_fall_1902_cut_supports_standoffs_and_dislodgements() -> None:
    out = game()[4]
    statuses = {r["order"]: r["status"] for r in out["orders"] if r["input"] is not None}
    for cut in ("F SWE S A STP - NWY", "F MAR S A SPA", "A SEV S F RUM", "A GAL S F RUM", "F RUM S A SEV"):
        assert statuses[cut] == "failed", cut
    assert statuses["A BEL S A RUH - BUR"] == "succeeded"  # attacked only from where it supports
    for moved in ("A NWY - STP", "F NTH - NWY", "F EDI - NTH", "A RUH - BUR", "A BUL - RUM", "A CON - BUL",
                  "A TRI - BUD", "F WES - NAF", "F TYS - LYO"):  # fmt: skip
        assert statuses[moved] == "succeeded", moved
    for stopped in ("A PIE - MAR", "A ARM - SEV", "A VIE - GAL", "A VEN - PIE", "A BUR - BEL", "F DEN - SWE"):
        assert statuses[stopped] == "failed", stopped
    assert out["dislodged"] == {
        "FRANCE": {"A BUR": {"attacker_from": "RUH", "retreats": ["GAS", "PAR"]}},
        "RUSSIA": {
            "A STP": {"attacker_from": "NWY", "retreats": ["FIN", "LVN", "MOS"]},
            "F RUM": {"attacker_from": "BUL", "retreats": []},
        },
    }
    assert out["next_phase"] == "F1902R"
    assert "STP" in out["centers"]["RUSSIA"]  # centers change after the fall retreats


def test_fall_1902_retreats_then_centers_change_hands() -> None:
    out = game()[5]
    assert failed(out) == set()
    assert "A MOS" in units(out, "RUSSIA") and "A GAS" in units(out, "FRANCE")
    assert {c: len(cs) for c, cs in out["centers"].items()} == {
        "AUSTRIA": 5, "ENGLAND": 5, "FRANCE": 5, "GERMANY": 6, "ITALY": 4, "RUSSIA": 4, "TURKEY": 5,
    }  # fmt: skip
    assert out["adjustments"] == {
        "AUSTRIA": 1, "ENGLAND": 1, "FRANCE": 1, "GERMANY": 1, "RUSSIA": -1, "TURKEY": 1,
    }  # fmt: skip


def test_winter_1902_builds_and_the_russian_removal() -> None:
    out = game()[6]
    assert failed(out) == set()
    assert units(out, "RUSSIA") == {"A UKR", "A SEV", "A MOS", "F SWE"}
    assert {"F KIE", "F SMY", "A TRI", "A PAR", "F LON"} <= {u for us in out["units"].values() for u in us}
    assert units(out, "ITALY") == {"A VEN", "A PIE", "F NAF", "F LYO"}
    assert sum(len(us) for us in out["units"].values()) == 34
