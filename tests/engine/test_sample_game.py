"""The 2000 rulebook's sample game ("Opening moves in a sample game"), Spring 1901 to the Fall 1902
adjustments, played through ``adjudicate_json`` with the orders exactly as the rulebook prints them.

Misprints in our copy of the rulebook, and what we do:

* Winter 1901 says "France builds one unit for Portugal 'A Por', but none for Spain". France has
  one build (for Portugal) and builds "F Mar"; "A Por" names the army already in Portugal (Spring
  1902 orders it "A Por-Spa").
* Fall 1902 says "the Russian Army there will have to retreat" of Rumania, then "The Russian unit in
  Rumania has no place to retreat": the unit is the fleet ordered "F Rum S A Sev". It is a fleet,
  and it has nowhere to go.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine import Board, adjudicate_json

SPRING_1901 = {
    "AUSTRIA": ["A Vie-Tri", "A Bud-Gal", "F Tri-Alb"],
    "ENGLAND": ["A Lvp-Yor", "F Lon-Nth", "F Edi-Nrg"],
    "FRANCE": ["A Par-Bur", "A Mar-Spa", "F Bre-Pic"],
    "GERMANY": ["A Ber-Kie", "A Mun-Ruh", "F Kie-Den"],
    "ITALY": ["A Ven-Pie", "A Rom-Ven", "F Nap-Ion"],
    "RUSSIA": ["A Mos-Ukr", "A War-Gal", "F StP-Bot", "F Sev-Bla"],
    "TURKEY": ["A Con-Bul", "A Smy-Con", "F Ank-Bla"],
}
FALL_1901 = {
    "AUSTRIA": ["A Tri Holds", "A Bud-Ser", "F Alb-Gre"],
    "ENGLAND": ["A Yor-Nwy", "F Nth C A Yor-Nwy", "F Nrg-Bar"],
    "FRANCE": ["A Bur-Mar", "A Spa-Port", "F Pic-Bel"],
    "GERMANY": ["A Kie-Hol", "A Ruh-Bel", "F Den Holds"],
    "ITALY": ["A Ven Holds", "A Pie-Mar", "F Ion-Tun"],
    "RUSSIA": ["A Ukr S F Sev-Rum", "A War-Gal", "F Bot-Swe", "F Sev-Rum"],
    "TURKEY": ["A Bul-Ser", "A Con-Bul", "F Ank-Bla"],
}
WINTER_1901 = {
    "ENGLAND": ["F Edi"],
    "GERMANY": ["F Kie", "A Mun"],
    "RUSSIA": ["A StP", "A Sev"],
    "TURKEY": ["A Smy"],
    "AUSTRIA": ["A Vie"],
    "ITALY": ["F Nap"],
    "FRANCE": ["F Mar"],
}
SPRING_1902 = {
    "AUSTRIA": ["A Tri-Bud", "A Vie-Bud", "A Bud-Ser", "F Gre Holds"],
    "ENGLAND": ["A Nwy-StP", "F Nth-Nwy", "F Bar S A Nwy-StP", "F Edi-Nth"],
    "FRANCE": ["A Bur S F Pic-Bel", "A Por-Spa", "F Pic-Bel", "F Mar Holds"],
    "GERMANY": ["A Hol-Bel", "A Ruh S A Hol-Bel", "A Mun-Bur", "F Den Holds", "F Kie-Hol"],
    "ITALY": ["A Ven Holds", "A Pie-Mar", "F Tun-Wes", "F Nap-Tyn"],
    "RUSSIA": [
        "A Ukr S F Rum", "A Gal-Bud", "A StP-Nwy", "A Sev S F Rum", "F Swe S A StP-Nwy", "F Rum Holds",
    ],
    "TURKEY": ["A Bul-Rum", "A Con-Bul", "A Smy-Arm", "F Bla S A Bul-Rum"],
}
FALL_1902 = {
    "AUSTRIA": ["A Vie–Gal", "A Tri–Bud", "A Ser S Turkish A Bul–Rum", "F Gre Holds"],
    "ENGLAND": ["A Nwy–StP", "F Bar S A Nwy–StP", "F Nth–Nwy", "F Edi–Nth"],
    "FRANCE": ["A Bur–Bel", "F Pic S A Bur–Bel", "A Spa S F Mar", "F Mar S A Spa"],
    "GERMANY": ["A Ruh–Bur", "A Mun S A Ruh–Bur", "A Bel S A Ruh–Bur", "F Den–Swe", "F Hol S A Bel"],
    "ITALY": ["A Ven–Pie", "A Pie–Mar", "F Wes–NAf", "F Tyn–GoL"],
    "RUSSIA": [
        "A StP–Nwy", "F Swe S StP–Nwy", "F Rum S A Sev", "A Sev S F Rum", "A Gal S F Rum", "A Ukr S A Sev",
    ],
    "TURKEY": ["A Bul–Rum", "A Con–Bul", "A Arm–Sev", "F Bla S A Bul–Rum"],
}
FALL_1902_RETREATS = {"RUSSIA": ["A StP–Mos"], "FRANCE": ["A Bur–Gas"]}
WINTER_1902 = {
    "GERMANY": ["F Kie"],
    "RUSSIA": ["A Gal"],
    "TURKEY": ["F Smy"],
    "AUSTRIA": ["A Tri"],
    "FRANCE": ["A Par"],
    "ENGLAND": ["F Lon"],
}
PHASES = [SPRING_1901, FALL_1901, WINTER_1901, SPRING_1902, FALL_1902, FALL_1902_RETREATS, WINTER_1902]


@cache
def game() -> tuple[dict[str, Any], ...]:
    """Every phase's output, each phase played from the board the one before produced."""
    request: dict[str, Any] = Board.initial().to_json()
    outs = []
    for orders in PHASES:
        out = adjudicate_json({**request, "orders": orders})
        outs.append(out)
        request = {
            "phase": out["next_phase"],
            "units": out["units"],
            "centers": out["centers"],
            "dislodged": out["dislodged"] if out["next_phase"].endswith("R") else {},
        }
    return tuple(outs)


def failed(out: dict[str, Any]) -> set[str]:
    return {r["order"] for r in out["orders"] if r["input"] is not None and r["status"] != "succeeded"}


def invalid(out: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in out["orders"] if r["status"] == "invalid"]


def units(out: dict[str, Any], power: str) -> set[str]:
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
