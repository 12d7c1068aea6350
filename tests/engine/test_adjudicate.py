"""The adjudicator's contract (docs/ARCHITECTURE.md): every line reported, defaults, bad input, the phase
sequence, centers, adjustments, victory, civil disorder, and the reasons players read."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import Board, Hold, Move, Unit, adjudicate, adjudicate_json
from engine.adjudication import AdjudicationJSON


def run(phase: str, units: dict, orders: dict, centers: dict | None = None, **extra: Any) -> AdjudicationJSON:
    request = {"phase": phase, "units": units, "centers": centers or {}, "orders": orders, **extra}
    return adjudicate_json(request)


def lines(out: Mapping[str, Any], power: str | None = None) -> list[dict[str, Any]]:
    return [r for r in out["orders"] if power is None or r["power"] == power]


def by_order(out: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["order"]: r for r in out["orders"] if r["order"] is not None}


# --- every line, defaults, bad input ------------------------------------------------------------------


def test_every_input_line_comes_back_in_order_with_defaults_for_unordered_units() -> None:
    out = run(
        "S1901M",
        {"FRANCE": ["A PAR", "A MAR", "F BRE"]},
        {"FRANCE": ["A Par-Bur", "hello there", "   ", "F Bre - Pic"]},
    )
    assert [(r["input"], r["order"], r["status"]) for r in lines(out)] == [
        ("A Par-Bur", "A PAR - BUR", "succeeded"),
        ("hello there", None, "invalid"),
        ("F Bre - Pic", "F BRE - PIC", "succeeded"),
        (None, "A MAR H", "succeeded"),
    ]
    assert by_order(out)["A MAR H"]["reason"] == "no order: held"


def test_the_last_valid_order_for_a_unit_counts_and_the_earlier_one_says_it_was_replaced() -> None:
    out = run("S1901M", {"FRANCE": ["A PAR"]}, {"FRANCE": ["A Par-Bur", "A Par-Pic"]})
    first, second = lines(out)
    assert first["status"] == "invalid"
    assert first["reason"] == "replaced by a later order: A PAR - PIC"
    assert second["status"] == "succeeded"
    assert out["units"] == {"FRANCE": ["A PIC"]}


def test_a_later_invalid_order_does_not_replace_a_valid_one() -> None:
    out = run("S1901M", {"FRANCE": ["A PAR"]}, {"FRANCE": ["A Par-Bur", "A Par-Mun"]})
    first, second = lines(out)
    assert first["status"] == "succeeded"
    assert second["status"] == "invalid"
    assert not second["reason"].endswith("treated as a hold")  # it did not hold: its other order counted
    assert out["units"] == {"FRANCE": ["A BUR"]}


def test_an_invalid_order_is_treated_as_a_hold_and_the_unit_can_be_supported_in_holding() -> None:
    out = run(
        "S1901M",
        {"GERMANY": ["F KIE", "A BER"], "FRANCE": ["A HOL", "A RUH"]},
        {"GERMANY": ["F Kie-Mun", "A Ber S F Kie"], "FRANCE": ["A Hol-Kie", "A Ruh S A Hol-Kie"]},
    )
    row = by_order(out)["F KIE - MUN"]
    assert row["status"] == "invalid"
    assert "fleets cannot go inland" in row["reason"] and row["reason"].endswith("; treated as a hold")
    assert (
        by_order(out)["F KIE H"]["reason"] == "no valid order: held against A HOL - KIE (yours 2, theirs 2)"
    )
    assert by_order(out)["A BER S F KIE"]["status"] == "succeeded"
    assert by_order(out)["A HOL - KIE"]["reason"] == "bounced: F KIE held KIE (yours 2, theirs 2)"


def test_the_lines_of_a_unit_whose_only_order_was_invalid_agree_with_each_other() -> None:
    # DATC 6.D.34: the invalid support is treated as a hold, and that hold is what was dislodged.
    out = run(
        "S1901M",
        {"GERMANY": ["A BER", "A SIL", "F BAL"], "ITALY": ["A PRU"], "RUSSIA": ["A WAR", "A LVN"]},
        {"GERMANY": ["A Berlin - Prussia", "A Silesia Supports A Berlin - Prussia",
                     "F Baltic Sea Supports A Berlin - Prussia"],
         "ITALY": ["A Prussia Supports Livonia - Prussia"],
         "RUSSIA": ["A Warsaw Supports A Livonia - Prussia", "A Livonia - Prussia"]},
    )  # fmt: skip
    assert [(r["input"], r["status"], r["reason"]) for r in lines(out, "ITALY")] == [
        ("A Prussia Supports Livonia - Prussia", "invalid",
         "A PRU cannot support a move into its own province Prussia (PRU) (to defend, write A PRU H); "
         "treated as a hold"),
        (None, "failed", "no valid order: dislodged by A BER - PRU (yours 1, theirs 3)"),
    ]  # fmt: skip


def test_a_retreat_phase_unit_whose_only_order_was_invalid_is_disbanded_and_both_lines_say_so() -> None:
    out = run(
        "F1901R",
        {},
        {"RUSSIA": ["A War - Mos"]},
        dislodged={"RUSSIA": {"A WAR": {"attacker_from": "PRU", "retreats": ["GAL", "LVN"]}}},
    )
    assert [(r["input"], r["status"], r["reason"]) for r in lines(out, "RUSSIA")] == [
        ("A War - Mos", "invalid",
         "A WAR cannot retreat to Moscow (MOS) (it may retreat to GAL, LVN, or disband (A WAR D)); "
         "treated as a disband"),
        (None, "succeeded", "no valid retreat order: disbanded"),
    ]  # fmt: skip


def test_a_fleet_ordered_from_the_other_coast_is_reported_as_written() -> None:
    # DATC 6.B.11: the line prints as the player wrote it, and the reason says where the fleet is.
    out = run("S1901M", {"FRANCE": ["F SPA/NC"]}, {"FRANCE": ["F Spain(sc) - Gulf of Lyon"]})
    row = lines(out)[0]
    assert (row["order"], row["status"]) == ("F SPA/SC - LYO", "invalid")
    assert row["reason"] == (
        "the fleet in Spain is on the north coast, not the south coast; F SPA/NC cannot reach "
        "Gulf of Lyon (LYO): there is no sea or coast route from Spain (north coast) in one move "
        "(F SPA/NC can move to GAS, MAO, POR); treated as a hold"
    )


def test_a_convoy_path_written_out_is_ignored() -> None:
    # DATC 4.A.6 a (no chapter-6 case): the seas named are only a route; any chain of convoying
    # fleets carries the army, and the order is an explicit convoy (no land route, 4.A.3).
    out = run(
        "S1901M",
        {"ENGLAND": ["A LON", "F NTH", "A YOR"], "FRANCE": ["A PIC", "F ENG"]},
        {"ENGLAND": ["A Lon - Eng - Bel", "F Nth C A Lon - Bel", "A Yor - Nth - Bel"],
         "FRANCE": ["A Pic - Eng - Bel", "F Eng H"]},
    )  # fmt: skip
    rows = {r["input"]: (r["order"], r["status"]) for r in lines(out) if r["input"]}
    # the English Channel does not convoy London's army: the North Sea carries it all the same
    assert rows["A Lon - Eng - Bel"] == ("A LON - BEL VIA", "succeeded")
    # read as a convoy to Belgium; the North Sea convoys London, not Yorkshire
    assert rows["A Yor - Nth - Bel"] == ("A YOR - BEL VIA", "failed")
    # Picardy is next to Belgium, but the path makes it a convoy, and the Channel only holds
    assert rows["A Pic - Eng - Bel"] == ("A PIC - BEL VIA", "failed")
    assert out["units"] == {"ENGLAND": ["A BEL", "F NTH", "A YOR"], "FRANCE": ["A PIC", "F ENG"]}


def test_orders_for_units_that_are_not_there_or_not_yours_are_invalid_and_change_nothing() -> None:
    out = run(
        "S1901M",
        {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
        {"FRANCE": ["A Mun-Bur", "A Bre-Pic", "F Par-Bur"]},
    )
    rows = lines(out, "FRANCE")
    assert [r["status"] for r in rows] == ["invalid", "invalid", "invalid", "succeeded"]
    assert "not yours" in rows[0]["reason"] and "GERMANY" in rows[0]["reason"]
    assert "no unit" in rows[1]["reason"]
    assert "army" in rows[2]["reason"]  # it is an army, not a fleet
    assert out["units"] == {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]}
    assert [r["order"] for r in lines(out, "GERMANY")] == ["A MUN H"]


def test_unknown_powers_and_non_text_items_are_reported_not_raised() -> None:
    out = run("S1901M", {"FRANCE": ["A PAR"]}, {"Narnia": ["A Par-Bur"], "FRANCE": [42, None], "ITALY": 7})
    statuses = [(r["power"], r["input"], r["status"]) for r in lines(out)]
    assert ("NARNIA", "A Par-Bur", "invalid") in statuses
    assert ("FRANCE", "42", "invalid") in statuses and ("FRANCE", "null", "invalid") in statuses
    assert ("ITALY", "7", "invalid") in statuses
    assert out["units"] == {"FRANCE": ["A PAR"]}


def test_a_pasted_block_of_orders_is_split_into_lines() -> None:
    out = run("S1901M", {"FRANCE": ["A PAR", "A MAR"]}, {"FRANCE": "A Par-Bur\nA Mar-Pie; nonsense"})
    assert [r["input"] for r in lines(out)] == ["A Par-Bur", "A Mar-Pie", "nonsense"]


def test_order_objects_are_accepted_like_text() -> None:
    board = Board.from_json({"phase": "S1901M", "units": {"FRANCE": ["A PAR", "A MAR"]}, "centers": {}})
    result = adjudicate(board, {"FRANCE": [Move(Unit("A", "PAR"), "BUR"), Hold(Unit("A", "MAR"))]})
    assert [(r.input, str(r.order), r.status) for r in result.results] == [
        (None, "A PAR - BUR", "succeeded"),
        (None, "A MAR H", "succeeded"),
    ]
    assert result.board.units == {"FRANCE": (Unit("A", "BUR"), Unit("A", "MAR"))}


# --- reasons players read ---------------------------------------------------------------------------


def test_reasons_name_the_units_and_the_strengths() -> None:
    out = run(
        "S1901M",
        {
            "FRANCE": ["A PAR", "A MUN", "A SIL"],
            "GERMANY": ["A BUR", "A BOH"],
            "AUSTRIA": ["A TYR", "A KIE"],
            "ITALY": ["F ION", "A TUN"],
            "TURKEY": ["F AEG", "F EAS"],
        },
        {
            "FRANCE": ["A Par-Bur", "A Mun H", "A Sil S A Mun"],
            "GERMANY": ["A Bur-Par", "A Boh-Sil"],
            "AUSTRIA": ["A Tyr-Mun", "A Kie S A Tyr-Mun"],
            "ITALY": ["F Ion C A Tun-Gre", "A Tun-Gre"],
            "TURKEY": ["F Eas-Ion", "F Aeg S F Eas-Ion"],
        },
    )
    reasons = {k: v["reason"] for k, v in by_order(out).items()}
    assert (
        reasons["A PAR - BUR"] == "bounced: A BUR - PAR had equal strength, head to head (yours 1, theirs 1)"
    )
    assert reasons["A SIL S A MUN"] == "support cut by A BOH (attacked from BOH)"
    assert reasons["A MUN H"] == "dislodged by A TYR - MUN (yours 1, theirs 2)"
    assert reasons["A TUN - GRE"] == "convoy failed: F ION was dislodged"
    assert reasons["F ION C A TUN - GRE"] == "convoy failed: dislodged by F EAS - ION (yours 1, theirs 2)"
    assert reasons["A TYR - MUN"] == "moved to MUN, dislodging A MUN"


def test_a_bounce_names_the_rival_move() -> None:
    units = {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]}
    out = run("S1901M", units, {"FRANCE": ["A Par-Bur"], "GERMANY": ["A Mun-Bur"]})
    assert (
        by_order(out)["A PAR - BUR"]["reason"]
        == "bounced: A MUN - BUR had equal strength (yours 1, theirs 1)"
    )


# --- dislodgement, retreats, the phase sequence -----------------------------------------------------


def test_a_dislodged_unit_with_nowhere_to_go_is_listed_with_no_retreats_and_no_retreat_phase_opens() -> None:
    out = run(
        "S1901M",
        {"RUSSIA": ["F RUM"], "TURKEY": ["A BUL", "F BLA", "A SEV"]},
        {"TURKEY": ["A Bul-Rum", "F Bla S A Bul-Rum"]},
    )
    assert out["dislodged"] == {"RUSSIA": {"F RUM": {"attacker_from": "BUL", "retreats": []}}}
    assert "RUSSIA" not in out["units"]
    assert out["next_phase"] == "F1901M"


def test_a_retreat_phase_opens_when_some_dislodged_unit_can_go_somewhere() -> None:
    units = {"ITALY": ["A VEN", "A TYR"], "AUSTRIA": ["F TRI"]}
    out = run("S1901M", units, {"ITALY": ["A Ven-Tri", "A Tyr S A Ven-Tri"]})
    assert out["next_phase"] == "S1901R"
    assert out["dislodged"] == {"AUSTRIA": {"F TRI": {"attacker_from": "VEN", "retreats": ["ADR", "ALB"]}}}
    assert out["units"] == {"ITALY": ["A TRI", "A TYR"]}


def test_retreat_phase_bounce_disbands_both_and_unordered_units_disband() -> None:
    out = run(
        "F1901R",
        {"ENGLAND": ["F NTH"]},
        {"ENGLAND": ["F Nwy - Ska"], "RUSSIA": ["F Swe - Ska"]},
        {"ENGLAND": ["LON"], "RUSSIA": ["MOS"], "GERMANY": ["KIE"]},
        dislodged={
            "ENGLAND": {"F NWY": {"attacker_from": "STP", "retreats": ["SKA", "NWG"]}},
            "RUSSIA": {"F SWE": {"attacker_from": "BOT", "retreats": ["SKA", "BAL"]}},
            "GERMANY": {"A KIE": {"attacker_from": "HOL", "retreats": ["BER"]}},
        },
    )
    rows = by_order(out)
    assert rows["F NWY R SKA"]["status"] == "failed" and "F SWE" in rows["F NWY R SKA"]["reason"]
    assert rows["F SWE R SKA"]["status"] == "failed"
    assert rows["A KIE D"] == {
        "power": "GERMANY", "input": None, "order": "A KIE D", "status": "succeeded",
        "reason": "no retreat ordered: disbanded",
    }  # fmt: skip
    assert out["units"] == {"ENGLAND": ["F NTH"]}


def test_spring_does_not_change_centers_and_fall_without_retreats_does() -> None:
    units = {"FRANCE": ["A BUR"], "GERMANY": ["A MUN"]}
    centers = {"FRANCE": ["PAR"], "GERMANY": ["MUN", "BEL"]}
    spring = run("S1901M", units, {"FRANCE": ["A Bur-Bel"]}, centers)
    assert spring["centers"] == {"FRANCE": ["PAR"], "GERMANY": ["BEL", "MUN"]}
    fall = run("F1901M", units, {"FRANCE": ["A Bur-Bel"]}, centers)
    assert fall["centers"] == {"FRANCE": ["BEL", "PAR"], "GERMANY": ["MUN"]}
    assert fall["adjustments"] == {"FRANCE": 1}  # Germany: 1 center, 1 unit
    assert fall["next_phase"] == "W1901A"


def test_fall_with_a_retreat_phase_changes_centers_only_after_the_retreats() -> None:
    units = {"ITALY": ["A VEN", "A TYR"], "AUSTRIA": ["A TRI", "A VIE"]}
    centers = {"ITALY": ["VEN", "ROM"], "AUSTRIA": ["TRI", "VIE"]}
    out = run("F1901M", units, {"ITALY": ["A Ven-Tri", "A Tyr S A Ven-Tri"]}, centers)
    assert out["next_phase"] == "F1901R"
    assert sorted(out["centers"]["AUSTRIA"]) == ["TRI", "VIE"]
    assert out["adjustments"] == {}
    retreat = adjudicate_json(
        {"phase": "F1901R", "units": out["units"], "centers": out["centers"], "dislodged": out["dislodged"],
         "orders": {"AUSTRIA": ["A Tri - Bud"]}}
    )  # fmt: skip
    # the retreat into Budapest takes it: Austria keeps two centers for two units
    assert retreat["centers"] == {"AUSTRIA": ["BUD", "VIE"], "ITALY": ["ROM", "TRI", "VEN"]}
    assert retreat["adjustments"] == {"ITALY": 1}
    assert retreat["next_phase"] == "W1901A"


def test_builds_are_capped_by_vacant_owned_home_centers() -> None:
    out = run(
        "F1901M",
        {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN"]},
        {},
        {"FRANCE": ["PAR", "BRE", "MAR", "SPA", "POR", "BEL"], "GERMANY": ["MUN", "KIE"]},
    )
    assert out["adjustments"] == {"FRANCE": 1, "GERMANY": 1}  # France is owed 4, only Brest is free


def test_nothing_to_adjust_skips_the_winter() -> None:
    out = run("F1901M", {"FRANCE": ["A PAR"]}, {}, {"FRANCE": ["PAR"]})
    assert out["next_phase"] == "S1902M"
    assert out["adjustments"] == {}


def test_a_power_reaching_the_target_wins_and_the_game_ends() -> None:
    centers = ["PAR", "BRE", "MAR", "SPA", "POR", "BEL", "HOL", "MUN", "KIE", "BER", "DEN", "SWE", "NWY",
               "LON", "LVP", "EDI", "TUN"]  # fmt: skip
    out = run("F1905M", {"FRANCE": ["A BUR"]}, {"FRANCE": ["A Bur-Ruh"]}, {"FRANCE": centers})
    assert out["winner"] is None  # 17
    out = run("F1905M", {"FRANCE": ["A RUH", "A PIE"]}, {"FRANCE": ["A Pie-Ven"]}, {"FRANCE": centers})
    assert out["winner"] == "FRANCE"
    assert out["next_phase"] is None


def test_the_victory_target_can_be_set_for_a_variant() -> None:
    centers = {"FRANCE": ["PAR", "BRE", "MAR"]}
    out = run("F1901M", {"FRANCE": ["A GAS"]}, {"FRANCE": ["A Gas-Spa"]}, centers, victory_centers=4)
    assert out["winner"] == "FRANCE"


# --- adjustments ------------------------------------------------------------------------------------


def test_adjustment_phase_builds_waives_and_civil_disorder_removals() -> None:
    out = run(
        "W1901A",
        {"FRANCE": ["A PIC"], "GERMANY": ["A MUN", "A BOH", "A TYR"]},
        {"FRANCE": ["A Par", "WAIVE", "F Bre"]},
        {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["MUN"]},
    )
    rows = lines(out)
    assert [(r["power"], r["input"], r["order"], r["status"]) for r in rows] == [
        ("FRANCE", "A Par", "A PAR B", "succeeded"),
        ("FRANCE", "WAIVE", "WAIVE", "succeeded"),
        ("FRANCE", "F Bre", "F BRE B", "failed"),  # France had two builds
        ("GERMANY", None, "A BOH D", "succeeded"),
        ("GERMANY", None, "A TYR D", "succeeded"),
    ]
    assert "civil-disorder" in rows[3]["reason"]
    assert out["units"] == {"FRANCE": ["A PIC", "A PAR"], "GERMANY": ["A MUN"]}
    assert out["next_phase"] == "S1902M"


def test_a_build_for_a_power_with_no_builds_is_invalid() -> None:
    out = run("W1901A", {"FRANCE": ["A PIC", "A BUR"]}, {"FRANCE": ["A Par B"]}, {"FRANCE": ["PAR", "BRE"]})
    assert lines(out)[0]["status"] == "invalid"
    assert "no build" in lines(out)[0]["reason"]


# --- civil disorder -----------------------------------------------------------------------------------


def test_civil_disorder_powers_hold_and_their_orders_are_ignored() -> None:
    out = run(
        "S1901M",
        {"ITALY": ["A VEN", "A ROM"], "AUSTRIA": ["A TRI", "A TYR"]},
        {"ITALY": ["A Ven-Pie"], "AUSTRIA": ["A Tri-Ven", "A Tyr S A Tri-Ven"]},
        civil_disorder=["ITALY"],
    )
    ignored = lines(out, "ITALY")[0]
    assert ignored["status"] == "invalid" and "civil disorder" in ignored["reason"]
    assert out["dislodged"]["ITALY"]["A VEN"]["attacker_from"] == "TRI"


def test_civil_disorder_units_disband_instead_of_retreating() -> None:
    out = run(
        "S1901R",
        {"AUSTRIA": ["A VEN"]},
        {"ITALY": ["A Ven - Pie"]},
        dislodged={"ITALY": {"A VEN": {"attacker_from": "TRI", "retreats": ["PIE", "TUS"]}}},
        civil_disorder=["ITALY"],
    )
    assert by_order(out)["A VEN D"]["reason"] == "ITALY is in civil disorder: disbanded"
    assert out["units"] == {"AUSTRIA": ["A VEN"]}


def test_a_coast_the_province_does_not_have_is_ignored_but_wrong_and_missing_coasts_are_not() -> None:
    """DATC 4.B.6, choice b: garbage coasts are ignored; 6.B.1 and 6.B.3 still refuse."""
    out = run(
        "S1901M",
        {"ENGLAND": ["A LVP", "F ENG"], "FRANCE": ["F MAO", "F GAS"]},
        {"ENGLAND": ["A LVP - CLY/SC", "F ENG - BRE/EC"], "FRANCE": ["F MAO - SPA", "F GAS - SPA/SC"]},
    )
    got = {r["input"]: r for r in out["orders"] if r["input"]}
    assert got["A LVP - CLY/SC"]["order"] == "A LVP - CLY"
    assert got["A LVP - CLY/SC"]["status"] == "succeeded" and got["F ENG - BRE/EC"]["status"] == "succeeded"
    assert out["units"]["ENGLAND"] == ["A CLY", "F BRE"]
    assert (
        got["F MAO - SPA"]["status"] == "invalid" and "must say which coast" in got["F MAO - SPA"]["reason"]
    )
    assert got["F GAS - SPA/SC"]["status"] == "invalid" and "cannot reach" in got["F GAS - SPA/SC"]["reason"]


def test_strengths_say_whose_they_are() -> None:
    out = run(
        "S1901M",
        {"FRANCE": ["A PAR", "A PIC", "A MAR"], "GERMANY": ["A MUN", "A RUH"]},
        {
            "FRANCE": ["A PAR - BUR", "A PIC - BUR", "A MAR S A PAR - BUR"],
            "GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"],
        },
    )
    reasons = {r["order"]: r["reason"] for r in out["orders"]}
    assert reasons["A MUN - BUR"] == "bounced: A PAR - BUR had equal strength (yours 2, theirs 2)"
    # a player's own two units: the other one is named, not called "theirs"
    assert reasons["A PIC - BUR"] == "bounced: A PAR - BUR was stronger (yours 1, your A PAR's 2)"


def test_an_invalid_line_says_which_other_order_of_the_unit_counts() -> None:
    out = run("S1901M", {"FRANCE": ["A PAR"]}, {"FRANCE": ["A Par-Bur", "A Par-Mun"]})
    invalid = lines(out)[1]
    assert invalid["status"] == "invalid"
    assert invalid["reason"].endswith("; the unit's other order A PAR - BUR counts")


def test_a_flood_of_unreadable_lines_is_refused_with_suggestions_only_for_the_first_ones() -> None:
    from engine.names import SUGGESTIONS_PER_REQUEST

    flood = [f"A Pariss{'x' * (n % 7)}{n} - Bur" for n in range(SUGGESTIONS_PER_REQUEST * 3)]
    out = run("S1901M", {"FRANCE": ["A PAR"]}, {"FRANCE": ["A Burgundyy - Par", *flood]})
    invalid = [r for r in out["orders"] if r["status"] == "invalid"]
    assert len(invalid) == len(flood) + 1, "every unreadable line is refused"
    assert "did you mean Burgundy (BUR)" in invalid[0]["reason"]
    assert not any("did you mean" in r["reason"] for r in invalid[-SUGGESTIONS_PER_REQUEST:])
    again = run("S1901M", {"FRANCE": ["A PAR"]}, {"FRANCE": ["A Burgundyy - Par"]})
    assert "did you mean Burgundy (BUR)" in again["orders"][0]["reason"], "the budget is per request"


def test_a_huge_number_as_an_order_is_an_invalid_line() -> None:
    out = run("S1901M", {"FRANCE": ["A PAR"]}, {"FRANCE": [10**5000, "A Par-Bur"]})
    assert out["orders"][0]["status"] == "invalid" and "cannot be shown" in (out["orders"][0]["input"] or "")
    assert out["units"] == {"FRANCE": ["A BUR"]}
