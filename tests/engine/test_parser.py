"""The order parser reads what players type, and refuses what it cannot read with a reason and a hint."""

from __future__ import annotations

import pytest

from engine.errors import OrderParseError
from engine.mapdata import GameMap
from engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
)
from engine.parser import _read_line, parse_order, read_line, split_orders

# (what a player typed, phase kind, what it means in canonical text)
NOTATIONS = [
    # the rulebook's notation
    ("A Par-Bur", None, "A PAR - BUR"),
    ("A Paris-Burgundy", None, "A PAR - BUR"),
    ("F Con-Bul EC", None, "F CON - BUL/EC"),
    ("F Con-Bul SC", None, "F CON - BUL/SC"),
    ("F Nth C A Yor-Nwy", None, "F NTH C A YOR - NWY"),
    ("A Ukr S F Sev-Rum", None, "A UKR S F SEV - RUM"),
    ("A Tri Holds", None, "A TRI H"),
    ("F Lon-Holds", None, "F LON H"),
    ("A Pru–Holds", None, "A PRU H"),
    ("A Par S A Mar–Bur", None, "A PAR S A MAR - BUR"),
    ("F Den S F Bal", None, "F DEN S F BAL"),
    ("F Rom S F Tyn-Holds", None, "F ROM S F TYS"),
    ("A Ser S Turkish A Bul–Rum", None, "A SER S A BUL - RUM"),
    ("F Wes C English A Lon-Tun", None, "F WES C A LON - TUN"),
    ("A Sil S RUSSIAN A War-Pru", None, "A SIL S A WAR - PRU"),
    ("F Swe S StP–Nwy", None, "F SWE S STP - NWY"),
    ("Par-Bur", None, "PAR - BUR"),
    ("A Spa-Port", None, "A SPA - POR"),
    ("F Kiel-Ber", None, "F KIE - BER"),
    ("A Bur SA Tyr-Mun", None, "A BUR S A TYR - MUN"),
    # the rulebook's abbreviations for seas
    ("F Edi-Nrg", None, "F EDI - NWG"),
    ("F Tyn–GoL", None, "F TYS - LYO"),
    ("F Mid C A Lon-Tun", None, "F MAO C A LON - TUN"),
    ("F NAt-Mid", None, "F NAO - MAO"),
    ("F Wes–NAf", None, "F WES - NAF"),
    ("F Eng-Bel", None, "F ENG - BEL"),
    # full names, as the DATC writes them
    ("F North Sea - Picardy", None, "F NTH - PIC"),
    ("A Liverpool Supports A Yorkshire - Yorkshire", None, "A LVP S A YOR - YOR"),
    ("F North Sea Convoys A London - Belgium", None, "F NTH C A LON - BEL"),
    ("F Mid-Atlantic Ocean - Spain(nc)", None, "F MAO - SPA/NC"),
    ("F Gulf of Lyon Supports F Western Mediterranean - Spain(sc)", None, "F LYO S F WES - SPA/SC"),
    ("F Irish Sea Supports F North Atlantic Ocean - Mid-Atlantic Ocean", None, "F IRI S F NAO - MAO"),
    ("A Spain - Portugal via convoy", None, "A SPA - POR VIA"),
    ("A Picardy - Belgium via Convoy", None, "A PIC - BEL VIA"),
    ("F Skagerrak Convoys Denmark - Norway", None, "F SKA C DEN - NWY"),
    ("F Trieste Supports F Trieste", None, "F TRI S F TRI"),
    ("A Venice Hold", None, "A VEN H"),
    ("F Helgoland Bight - Kiel", None, "F HEL - KIE"),
    ("F Heligoland Bight - Kiel", None, "F HEL - KIE"),
    ("A St Petersburg - Moscow", None, "A STP - MOS"),
    ("A St. Petersburg - Moscow", None, "A STP - MOS"),
    # any case, words and symbols for the verbs
    ("a par - bur", None, "A PAR - BUR"),
    ("A PAR-BUR", None, "A PAR - BUR"),
    ("army paris moves to burgundy", None, "A PAR - BUR"),
    ("A Par -> Bur", None, "A PAR - BUR"),
    ("A Par → Bur", None, "A PAR - BUR"),
    ("A Par — Bur", None, "A PAR - BUR"),
    ("A Par to Bur", None, "A PAR - BUR"),
    ("Fleet London supports Army Wales to Yorkshire", None, "F LON S A WAL - YOR"),
    ("F Nth convoys A Lon to Nwy", None, "F NTH C A LON - NWY"),
    ("A Lon - Nwy by convoy", None, "A LON - NWY VIA"),
    ("A Lon-Nth-Nwy", None, "A LON - NWY VIA"),
    ("A Mun hold", None, "A MUN H"),
    # coasts
    ("F Spa/nc - MAO", None, "F SPA/NC - MAO"),
    ("F Spa (nc) - MAO", None, "F SPA/NC - MAO"),
    ("F Spa nc - MAO", None, "F SPA/NC - MAO"),
    ("F Spa north coast - MAO", None, "F SPA/NC - MAO"),
    ("F Spain (north coast) - MAO", None, "F SPA/NC - MAO"),
    ("F StP/SC - Bot", None, "F STP/SC - BOT"),
    ("F Bla - Bul (east coast)", None, "F BLA - BUL/EC"),
    ("F MAO - Spa/s", None, "F MAO - SPA/SC"),
    # decoration around the order
    ('"A Par-Bur"', None, "A PAR - BUR"),
    ("A Par-Bur.", None, "A PAR - BUR"),
    ("  A Par-Bur ;", None, "A PAR - BUR"),
    ("France: A Par-Bur", None, "A PAR - BUR"),
    ("FRANCE A Par-Bur", None, "A PAR - BUR"),
    ("1. A Par-Bur", None, "A PAR - BUR"),
    ("- A Par-Bur", None, "A PAR - BUR"),
    ("A Rhur - Belgium", None, "A RUH - BEL"),  # the DATC's own typo (6.F.25): one swapped pair of letters
    # retreats, disbands, builds, removals
    ("A Bur–Gas", "R", "A BUR R GAS"),
    ("A Bur retreats to Gas", None, "A BUR R GAS"),
    ("A Bur R Gas", None, "A BUR R GAS"),
    ("A Bur disband", "R", "A BUR D"),
    ("disband A Bur", None, "A BUR D"),
    ("F Kie", "A", "F KIE B"),
    ("A Mun", "A", "A MUN B"),
    ("build F Kie", "A", "F KIE B"),
    ("Build fleet Kiel", None, "F KIE B"),
    ("build a fleet in Kiel", None, "F KIE B"),
    ("F StP/NC B", None, "F STP/NC B"),
    ("Build F St Petersburg(nc)", "A", "F STP/NC B"),
    ("remove A Gal", None, "A GAL D"),
    ("A Gal disband", "A", "A GAL D"),
    ("waive", "A", "WAIVE"),
    ("Waive build", None, "WAIVE"),
]


@pytest.mark.parametrize(("text", "phase_kind", "expected"), NOTATIONS)
def test_reads_what_players_type(game_map: GameMap, text: str, phase_kind: str | None, expected: str) -> None:
    assert str(parse_order(text, game_map, phase_kind)) == expected


def test_order_values_not_only_text(game_map: GameMap) -> None:
    assert parse_order("A Par-Bur", game_map) == Move(Unit("A", "PAR"), "BUR")
    assert parse_order("A Lon-Nwy via convoy", game_map) == Move(Unit("A", "LON"), "NWY", True)
    assert parse_order("Par-Bur", game_map) == Move(Unit(None, "PAR"), "BUR")
    assert parse_order("F Nth C A Yor-Nwy", game_map) == Convoy(Unit("F", "NTH"), Unit("A", "YOR"), "NWY")
    assert parse_order("A Tri S A Vie", game_map) == SupportHold(Unit("A", "TRI"), Unit("A", "VIE"))
    assert parse_order("A Ukr S F Sev-Rum", game_map) == SupportMove(
        Unit("A", "UKR"), Unit("F", "SEV"), "RUM"
    )
    assert parse_order("A Tri Holds", game_map) == Hold(Unit("A", "TRI"))
    assert parse_order("WAIVE", game_map) == Waive()


# The rulebook's ABBREVIATIONS table (2000 rulebook), written down as facts.
RULEBOOK_ABBREVIATIONS = {
    "Boh": "BOH", "Bud": "BUD", "Gal": "GAL", "Tri": "TRI", "Tyr": "TYR", "Vie": "VIE",
    "Ank": "ANK", "Arm": "ARM", "Con": "CON", "Smy": "SMY", "Syr": "SYR",
    "Cly": "CLY", "Edi": "EDI", "Lvp": "LVP", "Lon": "LON", "Wal": "WAL", "Yor": "YOR",
    "Alb": "ALB", "Bel": "BEL", "Bul": "BUL", "Den": "DEN", "Gre": "GRE", "Hol": "HOL", "Nwy": "NWY",
    "NAf": "NAF", "Por": "POR", "Rum": "RUM", "Ser": "SER", "Spa": "SPA", "Swe": "SWE", "Tun": "TUN",
    "Bre": "BRE", "Bur": "BUR", "Gas": "GAS", "Mar": "MAR", "Par": "PAR", "Pic": "PIC",
    "Ber": "BER", "Kie": "KIE", "Mun": "MUN", "Pru": "PRU", "Ruh": "RUH", "Sil": "SIL",
    "Apu": "APU", "Nap": "NAP", "Pie": "PIE", "Rom": "ROM", "Tus": "TUS", "Ven": "VEN",
    "Fin": "FIN", "Lvn": "LVN", "Mos": "MOS", "Sev": "SEV", "StP": "STP", "Ukr": "UKR", "War": "WAR",
    "Adr": "ADR", "Aeg": "AEG", "Bal": "BAL", "Bar": "BAR", "Bla": "BLA", "Eas": "EAS", "Eng": "ENG",
    "Bot": "BOT", "GoL": "LYO", "Hel": "HEL", "Ion": "ION", "Iri": "IRI", "Mid": "MAO", "NAt": "NAO",
    "Nth": "NTH", "Nrg": "NWG", "Ska": "SKA", "Tyn": "TYS", "Wes": "WES",
}  # fmt: skip


@pytest.mark.parametrize(("abbr", "code"), sorted(RULEBOOK_ABBREVIATIONS.items()))
def test_rulebook_abbreviations(game_map: GameMap, abbr: str, code: str) -> None:
    unit = "A" if game_map.provinces[code].is_land else "F"
    assert parse_order(f"{unit} {abbr} H", game_map) == Hold(Unit(unit, code))


@pytest.mark.parametrize("code", ["NTH", "PAR", "STP", "MAO", "LYO", "BUL", "TYS"])
def test_every_province_by_full_name_and_code(game_map: GameMap, code: str) -> None:
    prov = game_map.provinces[code]
    unit = "A" if prov.is_land else "F"
    for name in (prov.name, prov.name.upper(), prov.name.lower(), code, code.lower(), *prov.aliases):
        assert parse_order(f"{unit} {name} H", game_map).unit == Unit(unit, code), name


def test_all_province_names_read_back(game_map: GameMap) -> None:
    for code, prov in game_map.provinces.items():
        unit = "A" if prov.is_land else "F"
        for name in (prov.name, *prov.aliases):
            assert parse_order(f"{unit} {name} H", game_map).unit == Unit(unit, code), name


def test_unique_prefixes_are_accepted(game_map: GameMap) -> None:
    assert parse_order("A Burg - Mars", game_map) == Move(Unit("A", "BUR"), "MAR")
    assert parse_order("F Norw Sea - Nwy", game_map) == Move(Unit("F", "NWG"), "NWY")
    assert parse_order("F Gulf of Bot - Swe", game_map) == Move(Unit("F", "BOT"), "SWE")
    assert parse_order("F North Atl - Cly", game_map) == Move(Unit("F", "NAO"), "CLY")


def test_phase_kind_decides_what_a_plain_order_means(game_map: GameMap) -> None:
    unit = Unit("A", "STP")
    assert parse_order("A StP–Mos", game_map, "M") == Move(unit, "MOS")
    assert parse_order("A StP–Mos", game_map, None) == Move(unit, "MOS")
    assert parse_order("A StP–Mos", game_map, "R") == Retreat(unit, "MOS")
    assert parse_order("A StP D", game_map, None) == Disband(unit)
    assert parse_order("A StP D", game_map, "R") == Disband(unit)
    assert parse_order("A StP D", game_map, "A") == Remove(unit)
    assert parse_order("remove A StP", game_map, None) == Remove(unit)
    assert parse_order("remove A StP", game_map, "R") == Disband(unit)
    assert parse_order("A StP", game_map, "A") == Build(unit)
    assert parse_order("build A StP", game_map, None) == Build(unit)


def test_a_bare_unit_is_marked_so_the_board_can_tell_build_from_removal(game_map: GameMap) -> None:
    assert read_line("A Gal", game_map, "A").bare
    assert not read_line("A Gal B", game_map, "A").bare
    assert read_line("Russia: A Gal", game_map, "A").power == "RUSSIA"


def refusal(text: object, game_map: GameMap, phase_kind: str | None = None) -> OrderParseError:
    with pytest.raises(OrderParseError) as info:
        parse_order(text, game_map, phase_kind)  # type: ignore[arg-type]  # deliberately any object
    err = info.value
    assert err.reason and err.hint, "every refusal says why and how to fix it"
    return err


def test_unknown_name_suggests_the_closest(game_map: GameMap) -> None:
    err = refusal("A Bur - Picrdy", game_map)
    assert "Picrdy" in err.reason or "picrdy" in err.reason
    assert "did you mean" in (err.hint or "") and "Picardy (PIC)" in (err.hint or "")
    err = refusal("A Parus - Bur", game_map)
    assert "Paris (PAR)" in (err.hint or "")


def test_a_misspelt_name_of_two_words_is_quoted_whole(game_map: GameMap) -> None:
    # not 'st', which is right: the misspelling is in the second word
    for text in ("A Mos - St Petersberg", "A Mos - St. Petersberg"):
        err = refusal(text, game_map)
        assert err.reason == "unknown place 'st petersberg'"
        assert err.hint == "did you mean St. Petersburg (STP)?"


def test_the_gulf_of_lions_is_the_gulf_of_lyon(game_map: GameMap) -> None:
    for text in ("F Mar - Gulf of Lions", "F Mar - Lions", "F Mar - gulf of lyons"):
        assert str(parse_order(text, game_map)) == "F MAR - LYO"


@pytest.mark.parametrize("invisible", ["\u200b", "\u200c", "\u200d", "\u200e", "\u2060", "\ufeff", "\u00ad"])
def test_invisible_characters_are_dropped_odd_spaces_are_spaces(game_map: GameMap, invisible: str) -> None:
    assert str(parse_order(f"{invisible}A Par{invisible} - Bur{invisible}", game_map)) == "A PAR - BUR"
    assert str(parse_order(f"F Gulf\u00a0of\u202fLyon{invisible} - Mar", game_map)) == "F LYO - MAR"


def test_ambiguous_abbreviation_lists_its_readings(game_map: GameMap) -> None:
    err = refusal("F Nth - Nor", game_map)
    for reading in ("Norway (NWY)", "Norwegian Sea (NWG)", "North Sea (NTH)", "North Africa (NAF)"):
        assert reading in err.reason
    err = refusal("A Liv - Yor", game_map)
    assert "Liverpool (LVP)" in err.reason and "Livonia (LVN)" in err.reason
    err = refusal("F North - Edi", game_map)
    assert "North Sea (NTH)" in err.reason and "North Atlantic Ocean (NAO)" in err.reason


def test_two_orders_on_one_line(game_map: GameMap) -> None:
    err = refusal("A Par-Bur A Mar-Spa", game_map)
    assert "more than one order" in err.reason
    assert "A PAR - BUR" in err.reason and "A MAR - SPA" in err.reason
    assert "own line" in (err.hint or "")
    assert "more than one order" in refusal("F Kie A Mun", game_map, "A").reason


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("A Lvp - Cly/SC", "A LVP - CLY"),  # the reproduction of DATC 4.B.6: garbage is ignored
        ("F Eng - Bre/EC", "F ENG - BRE"),
        ("F Par/NC - Pic", "F PAR - PIC"),
        ("F MAO - Bul/NC", "F MAO - BUL"),  # Bulgaria has EC and SC, not NC: as if no coast was named
        ("F Spa/EC - MAO", "F SPA - MAO"),
        ("F Spa/SC - MAO", "F SPA/SC - MAO"),  # a real coast is kept
    ],
)
def test_a_coast_the_province_does_not_have_is_ignored(game_map: GameMap, text: str, read: str) -> None:
    assert str(parse_order(text, game_map)) == read


@pytest.mark.parametrize(
    ("text", "understood", "expected"),
    [
        ("A Par", "A PAR", "an order after it"),
        ("A Par S", "A PAR S", "supported unit"),
        ("A Par -", "A PAR -", "where it moves to"),
        ("F Nth C A Yor", "F NTH C A YOR", "destination"),
        ("A", "A", "province of the unit"),
        ("A Par S A Mar -", "A PAR S A MAR -", "where the supported unit moves to"),
        ("build", "build", "new unit"),
    ],
)
def test_incomplete_order_says_what_it_read_and_expected(
    game_map: GameMap, text: str, understood: str, expected: str
) -> None:
    err = refusal(text, game_map)
    assert understood in err.reason and expected in err.reason


def test_incomplete_order_hint_fits_the_phase(game_map: GameMap) -> None:
    assert "R <place>" in (refusal("A Hol", game_map, "R").hint or "")
    assert "H" in (refusal("A Hol", game_map, "M").hint or "")


def test_other_refusals(game_map: GameMap) -> None:
    assert "Switzerland is impassable" in refusal("A Mar - Switzerland", game_map).reason
    assert "empty" in refusal("   ", game_map).reason
    assert "must be text" in refusal(None, game_map).reason
    assert "must be text" in refusal(b"A PAR - BUR", game_map).reason
    assert "too long" in refusal("A Par - Bur " * 60, game_map).reason
    assert "not a power" in refusal("Prussia: A Ber - Kie", game_map).reason
    assert "power's name, not an order" in refusal("France", game_map).reason
    assert "two destinations" in refusal("A Par - Bur - Mar", game_map).reason
    assert "starts with the unit" in refusal("S A Par", game_map).reason
    err = refusal("A Par - Bur please", game_map)
    assert "please" in err.reason


@pytest.mark.parametrize(
    "text",
    [
        "", "-", "--", "->", "S", "C", "A - -", "F Spa/", "( )", "/", ":", "A Par:", "F Spa/nc/sc",
        "A Par S S S", "\x00", "🙂", "A Par ✓ Bur", "F (nc)", "nc", "north coast", "A Par - nc",
        "A Par B B", "waive waive", "A Par R", "retreat", "F Nth C F Lon -", "A Par S A Mar - Bur - Gas",
        "France: France:", "1.", "A Par -- -- Bur x", "F StP north", "A A A", "F F Nth",
    ],
)  # fmt: skip
def test_never_raises_anything_but_its_own_error(game_map: GameMap, text: str) -> None:
    # The tolerant reader itself, without parse_order's safety net (which turns any other exception
    # into an OrderParseError): a bug here must show as a failure, not as a polite refusal.
    for phase_kind in (None, "M", "R", "A"):
        try:
            _read_line(text, game_map, phase_kind)
        except OrderParseError as err:
            assert err.reason and err.hint
        try:
            parse_order(text, game_map, phase_kind)
        except OrderParseError as err:
            assert not err.reason.startswith("could not read this order"), err.__cause__


def test_split_orders_cuts_a_pasted_block() -> None:
    text = """
    Austria: A Vie-Tri, A Bud-Gal, F Tri-Alb

    - A Par-Bur
    * F Bre-Pic
    1. A Mar-Spa; F Kie-Den
    2) A Mun-Ruh
    • A Ber-Kie
    """
    assert split_orders(text) == [
        "Austria: A Vie-Tri",
        "Austria: A Bud-Gal",
        "Austria: F Tri-Alb",
        "A Par-Bur",  # "Austria:" was in front of that line's orders only
        "F Bre-Pic",
        "A Mar-Spa",
        "F Kie-Den",
        "A Mun-Ruh",
        "A Ber-Kie",
    ]


def test_split_orders_a_power_in_front_of_an_order_is_for_that_line_only() -> None:
    # The player's own next line is not Italy's because one line was addressed to Italy.
    assert split_orders("Italy: A Ven-Tyr\nA Par-Bur") == ["Italy: A Ven-Tyr", "A Par-Bur"]
    # A heading alone on its line stays for the lines below; a named line inside does not end it.
    assert split_orders("France:\nA Par-Bur\nItaly: A Ven-Tyr\nA Mar-Spa") == [
        "France: A Par-Bur", "Italy: A Ven-Tyr", "France: A Mar-Spa",
    ]  # fmt: skip


def test_split_orders_drops_invisible_characters() -> None:
    text = "\ufeffItaly\u200b: A Ven-Tyr\u200b\nA\u00a0Par-Bur"
    assert split_orders(text) == ["Italy: A Ven-Tyr", "A Par-Bur"]


def test_split_orders_keeps_a_heading_with_the_orders_under_it() -> None:
    text = "England:\nA Lvp-Yor\nF Lon-Nth\n**France:**\nA Par-Bur"
    assert split_orders(text) == ["England: A Lvp-Yor", "England: F Lon-Nth", "France: A Par-Bur"]


def test_split_orders_loses_no_text() -> None:
    text = "A Par-Bur\nplease move my fleet somewhere\n```\nF Bre-Pic\n```\n\n"
    pieces = split_orders(text)
    assert pieces == ["A Par-Bur", "please move my fleet somewhere", "F Bre-Pic"]
    with pytest.raises(OrderParseError):
        parse_order(pieces[1])


def test_split_orders_then_parse_the_rulebook_layout(game_map: GameMap) -> None:
    block = "Germany: A Ruh–Bur, A Mun S A Ruh–Bur, A Bel S A Ruh–Bur,\nF Den–Swe, F Hol S A Bel"
    lines = split_orders(block)
    assert [str(parse_order(line, game_map)) for line in lines] == [
        "A RUH - BUR",
        "A MUN S A RUH - BUR",
        "A BEL S A RUH - BUR",
        "F DEN - SWE",
        "F HOL S A BEL",
    ]
    assert {read_line(line, game_map).power for line in lines} == {"GERMANY"}


@pytest.mark.parametrize(
    ("text", "bare"),
    [("A Mun", True), ("A MUN", True), ("Mun", True), ("A MUN B", False), ("build A Mun", False)],
)
def test_bare_flag_is_the_same_on_every_path(game_map: GameMap, text: str, bare: bool) -> None:
    assert read_line(text, game_map, "A").bare is bare
    assert read_line(text, game_map, "A").order == parse_order(text, game_map, "A")


@pytest.mark.parametrize(
    ("text", "phase_kind", "read"),
    [
        ("A Ber Mun", "M", "A BER - MUN"),  # the dash left out, as players type on phones
        ("F Kie Hol", None, "F KIE - HOL"),
        ("A Ber Mun", "R", "A BER R MUN"),
    ],
)
def test_a_move_without_its_dash_is_read(
    game_map: GameMap, text: str, phase_kind: str | None, read: str
) -> None:
    assert str(parse_order(text, game_map, phase_kind)) == read
