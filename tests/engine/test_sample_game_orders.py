"""Every order printed in the 2000 rulebook and the DATC v3.0 order texts.

The sample game ("OPENING MOVES IN A SAMPLE GAME", Spring 1901 to the Winter 1902 adjustments) is
copied exactly as printed in harness/sample_game_data.py: the facts of the game written down as data.
Each line is read with the board of its phase (positions below follow from the rulebook's
commentary) and must mean what a human reads there. The diagrams' orders are written as the text and
figures describe them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.board import Board
from engine.errors import InvalidOrder, OrderParseError
from engine.mapdata import GameMap
from engine.orders import Unit
from engine.parser import parse_order, read_line, split_orders
from engine.validation import read_order
from harness.sample_game_data import SAMPLE_GAME

# The DATC's order lines, as the DATC writes them, are kept in our own case files (tests/engine/datc/).
DATC_CASES = Path(__file__).resolve().parent / "datc"
_DATC_ORDER_LINE = re.compile(r"^(Austria|England|France|Germany|Italy|Russia|Turkey):\s*(\S.*)$")

# --- the sample game ---------------------------------------------------------------------------------

# phase -> units at the start of that phase (and the centers owned then, and who must retreat).
HOME = {
    "AUSTRIA": "BUD TRI VIE", "ENGLAND": "EDI LON LVP", "FRANCE": "BRE MAR PAR", "GERMANY": "BER KIE MUN",
    "ITALY": "NAP ROM VEN", "RUSSIA": "MOS SEV STP WAR", "TURKEY": "ANK CON SMY",
}  # fmt: skip
CENTERS_1901 = {
    "AUSTRIA": "BUD TRI VIE GRE", "ENGLAND": "EDI LON LVP NWY", "FRANCE": "BRE MAR PAR POR",
    "GERMANY": "BER KIE MUN DEN HOL", "ITALY": "NAP ROM VEN TUN", "RUSSIA": "MOS SEV STP WAR RUM SWE",
    "TURKEY": "ANK CON SMY BUL",
}  # fmt: skip
CENTERS_1902 = {
    "AUSTRIA": "BUD TRI VIE GRE SER", "ENGLAND": "EDI LON LVP NWY STP", "FRANCE": "BRE MAR PAR POR SPA",
    "GERMANY": "BER KIE MUN DEN HOL BEL", "ITALY": "NAP ROM VEN TUN", "RUSSIA": "MOS SEV WAR SWE",
    "TURKEY": "ANK CON SMY BUL RUM",
}  # fmt: skip
POSITIONS: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "S1901M": ({
        "AUSTRIA": "A VIE, A BUD, F TRI", "ENGLAND": "F LON, F EDI, A LVP", "FRANCE": "F BRE, A PAR, A MAR",
        "GERMANY": "F KIE, A BER, A MUN", "ITALY": "F NAP, A ROM, A VEN",
        "RUSSIA": "A WAR, A MOS, F SEV, F STP/SC", "TURKEY": "F ANK, A CON, A SMY",
    }, HOME),
    "F1901M": ({
        "AUSTRIA": "A TRI, A BUD, F ALB", "ENGLAND": "A YOR, F NTH, F NWG", "FRANCE": "A BUR, A SPA, F PIC",
        "GERMANY": "A KIE, A RUH, F DEN", "ITALY": "A PIE, A VEN, F ION",
        "RUSSIA": "A UKR, A WAR, F BOT, F SEV", "TURKEY": "A BUL, A CON, F ANK",
    }, HOME),
    "W1901A": ({
        "AUSTRIA": "A TRI, A BUD, F GRE", "ENGLAND": "A NWY, F NTH, F BAR", "FRANCE": "A BUR, A POR, F PIC",
        "GERMANY": "A HOL, A RUH, F DEN", "ITALY": "A VEN, A PIE, F TUN",
        "RUSSIA": "A UKR, A GAL, F SWE, F RUM", "TURKEY": "A BUL, A CON, F BLA",
    }, CENTERS_1901),
    "S1902M": ({
        "AUSTRIA": "A TRI, A BUD, F GRE, A VIE", "ENGLAND": "A NWY, F NTH, F BAR, F EDI",
        "FRANCE": "A BUR, A POR, F PIC, F MAR", "GERMANY": "A HOL, A RUH, F DEN, F KIE, A MUN",
        "ITALY": "A VEN, A PIE, F TUN, F NAP", "RUSSIA": "A UKR, A GAL, F SWE, F RUM, A STP, A SEV",
        "TURKEY": "A BUL, A CON, F BLA, A SMY",
    }, CENTERS_1901),
    "F1902M": ({
        "AUSTRIA": "A TRI, A VIE, A SER, F GRE", "ENGLAND": "A NWY, F NTH, F BAR, F EDI",
        "FRANCE": "A BUR, A SPA, F PIC, F MAR", "GERMANY": "A BEL, A RUH, A MUN, F DEN, F HOL",
        "ITALY": "A VEN, A PIE, F WES, F TYS", "RUSSIA": "A UKR, A GAL, A STP, A SEV, F SWE, F RUM",
        "TURKEY": "A BUL, A CON, A ARM, F BLA",
    }, CENTERS_1901),
    "F1902R": ({
        "AUSTRIA": "A VIE, A BUD, A SER, F GRE", "ENGLAND": "A STP, F NWY, F NTH, F BAR",
        "FRANCE": "A SPA, F PIC, F MAR", "GERMANY": "A BUR, A BEL, A MUN, F DEN, F HOL",
        "ITALY": "A VEN, A PIE, F NAF, F LYO", "RUSSIA": "A UKR, A GAL, A SEV, F SWE",
        "TURKEY": "A RUM, A BUL, A ARM, F BLA",
    }, CENTERS_1901),
    "W1902A": ({
        "AUSTRIA": "A VIE, A BUD, A SER, F GRE", "ENGLAND": "A STP, F NWY, F NTH, F BAR",
        "FRANCE": "A SPA, A GAS, F PIC, F MAR", "GERMANY": "A BUR, A BEL, A MUN, F DEN, F HOL",
        "ITALY": "A VEN, A PIE, F NAF, F LYO", "RUSSIA": "A UKR, A GAL, A SEV, F SWE, A MOS",
        "TURKEY": "A RUM, A BUL, A ARM, F BLA",
    }, CENTERS_1902),
}  # fmt: skip
DISLODGED_F1902 = {
    "RUSSIA": {
        "A STP": {"attacker_from": "NWY", "retreats": ["FIN", "LVN", "MOS"]},
        "F RUM": {"attacker_from": "BUL", "retreats": []},
    },
    "FRANCE": {"A BUR": {"attacker_from": "RUH", "retreats": ["GAS", "PAR"]}},
}


def _board(game_map: GameMap, phase: str) -> Board:
    units, centers = POSITIONS[phase]
    return Board.from_json(
        {
            "phase": phase,
            "units": {p: us.split(", ") for p, us in units.items()},
            "centers": {p: cs.split() for p, cs in centers.items()},
            "dislodged": DISLODGED_F1902 if phase == "F1902R" else {},
        },
        game_map,
    )


def test_positions_give_the_rulebooks_builds_and_removals(game_map: GameMap) -> None:
    # Winter 1901: "England, Turkey, Austria, Italy, and France are each entitled to one build, and
    # Russia and Germany are entitled to two." Winter 1902: Russia disbands one, all but Italy build one.
    expected = {
        "W1901A": {
            "ENGLAND": 1,
            "TURKEY": 1,
            "AUSTRIA": 1,
            "ITALY": 1,
            "FRANCE": 1,
            "RUSSIA": 2,
            "GERMANY": 2,
        },
        "W1902A": {
            "RUSSIA": -1,
            "GERMANY": 1,
            "TURKEY": 1,
            "AUSTRIA": 1,
            "FRANCE": 1,
            "ENGLAND": 1,
            "ITALY": 0,
        },
    }
    for phase, deltas in expected.items():
        board = _board(game_map, phase)
        for power, delta in deltas.items():
            assert len(board.centers[power]) - len(board.units[power]) == delta, (phase, power)


def test_every_unit_is_ordered_once_in_every_movement_phase(game_map: GameMap) -> None:
    for phase in ("S1901M", "F1901M", "S1902M", "F1902M"):
        board = _board(game_map, phase)
        ordered = sorted(
            (power, str(read_order(text, board, power).unit))
            for ph, power, text, _ in SAMPLE_GAME
            if ph == phase
        )
        on_board = sorted((power, str(unit)) for power, unit in board.all_units())
        assert ordered == on_board, phase


@pytest.mark.parametrize(("phase", "power", "printed", "reading"), SAMPLE_GAME)
def test_sample_game_order(game_map: GameMap, phase: str, power: str, printed: str, reading: str) -> None:
    board = _board(game_map, phase)
    assert str(read_order(printed, board, power)) == reading
    # parse_order alone gives the same, except what only the board can tell (a type left out,
    # the coast St. Petersburg's fleet stands on, a bare unit that is a removal).
    parsed = str(parse_order(printed, game_map, phase[-1]))
    if printed == "F Swe S StP–Nwy":
        assert parsed == "F SWE S STP - NWY"
    elif printed == "F StP-Bot":
        assert parsed == "F STP - BOT"
    elif printed == '"A Gal."':
        assert parsed == "A GAL B" and read_line(printed, game_map, "A").bare
    else:
        assert parsed == reading


def test_the_rulebooks_a_por_is_not_a_build(game_map: GameMap) -> None:
    # "France builds one unit for Portugal 'A Por,' but none for Spain": an explanation, not an order.
    # Read as an order it is a build outside France's home centers, and is refused.
    board = _board(game_map, "W1901A")
    with pytest.raises(InvalidOrder, match="Portugal \\(POR\\) is not one of your home centers"):
        read_order('"A Por,"', board, "FRANCE")


def test_the_sample_games_greek_fleet_could_not_support_into_serbia(game_map: GameMap) -> None:
    board = _board(game_map, "S1902M")
    with pytest.raises(InvalidOrder, match="could not move there itself"):
        read_order("F Gre S A Bud-Ser", board, "AUSTRIA")


def test_the_rulebook_layout_of_a_whole_turn_splits_and_reads(game_map: GameMap) -> None:
    board = _board(game_map, "F1902M")
    block = """Austria: A Vie–Gal, A Tri–Bud, A Ser S Turkish A Bul–Rum, F Gre Holds

England: A Nwy–StP, F Bar S A Nwy–StP, F Nth–Nwy, F Edi–Nth

Germany: A Ruh–Bur, A Mun S A Ruh–Bur, A Bel S A Ruh–Bur,
F Den–Swe, F Hol S A Bel"""
    lines = split_orders(block, game_map)
    assert len(lines) == 13
    for line in lines:
        power = line.split(":")[0].upper()
        read_order(line, board, power)


# --- the rulebook's diagrams ---------------------------------------------------------------------------

DIAGRAMS = {
    "4": "Germany: A Ber-Sil\nRussia: A War-Sil",
    "5": "Germany: F Kiel-Ber; A Ber-Pru\nRussia: A Pru-Holds",
    "6": "Germany: F Ber-Pru; A Pru-Ber",
    "7": "England: A Hol-Bel; F Bel-Nth\nFrance: F Nth-Hol",
    "8": "France: A Mar–Bur; A Gas S A Mar–Bur\nGermany: A Bur–Holds",
    "9": "Germany: A Sil–Pru; F Bal S A Sil–Pru\nRussia: A Pru–Holds",
    "10": "France: F GoL-Tyn; F Wes S F GoL-Tyn\nItaly: F Nap-Tyn; F Rom S F Nap-Tyn",
    "11": "France: F GoL-Tyn; F Wes S F GoL-Tyn\nItaly: F Tyn-Holds; F Rom S F Tyn-Holds",
    "12": "Austria: A Boh-Mun; A Tyr S A Boh-Mun\nGermany: A Mun-Sil; A Ber S A Mun-Sil\n"
    "Russia: A War-Sil; A Pru S A War-Sil",
    "13": "Turkey: A Bul-Rum\nRussia: A Rum-Bul; A Ser S A Rum-Bul; A Sev-Rum",
    "14": "Turkey: A Bul–Rum; F Bla S A Bul–Rum\n"
    "Russia: A Rum–Bul; A Gre S A Rum–Bul; A Ser S A Rum–Bul; A Sev–Rum",
    "15": "Germany: A Pru–War; A Sil S A Pru–War\nRussia: A War–Holds; A Boh–Sil",
    "16": "Germany: A Pru–War; A Sil S A Pru–War\nRussia: A War–Sil",
    "17": "Germany: F Ber–Pru; A Sil S F Ber–Pru\nRussia: A Pru–Sil; A War S A Pru–Sil; F Bal–Pru",
    "18": "Germany: A Ber-Holds; A Mun-Sil\n"
    "Russia: A Pru-Ber; A Sil S A Pru-Ber; A Boh-Mun;\nA Tyr S A Boh-Mun",
    "19": "England: A Lon-Nwy; F Nth C A Lon-Nwy",
    "20": "England: A Lon-Tun; F Eng C A Lon-Tun; F Mid C A Lon-Tun\nFrance: F Wes C English A Lon-Tun",
    "21": "France: A Spa-Nap; F GoL C A Spa-Nap; F Tyn C A Spa-Nap\nItaly: F Ion-Tyn; F Tun S F Ion-Tyn",
    "22": "France: A Par-Bur; A Mar S A Par-Bur; A Bur-Holds",
    "23": "France: A Par-Bur; A Bur-Mar\nGermany: A Ruh S French A Par-Bur\nItaly: A Mar-Bur",
    "24": "Germany: A Ruh-Bur; A Mun-Holds\nFrance: A Par S German A Ruh-Bur; A Bur-Holds",
    "25": "Germany: A Mun-Tyr; A Ruh-Mun; A Sil-Mun\nAustria: A Tyr-Mun; A Boh S German A Sil-Mun",
    "26": "England: F Den-Kiel; F Nth-Den; F Hel S F Nth-Den\n"
    "Russia: A Ber-Kiel; F Ska-Den; F Bal S F Ska-Den",
    "27": "Austria: A Ser-Bud; A Vie-Bud\nRussia: A Gal S Austrian A Ser-Bud",
    "28": "England: A Lon-Bel; F Nth C A Lon-Bel\nFrance: A Bel-Lon; F Eng C A Bel-Lon",
    "29": "England: A Lon-Bel; F Eng C A Lon-Bel; F Nth C A Lon-Bel\nFrance: F Bre-Eng; F Iri S F Bre-Eng",
    # Diagram 30 as its text describes it: Italy attacks the convoying fleet from the Ionian Sea (where
    # the garbled printed orders start), supported from Naples; as the 2023 rulebook prints it, and the
    # same as in test_adjudicate_rulebook.py.
    "30": "France: A Tun-Nap; F Tyn C A Tun-Nap\nItaly: F Ion-Tyn; F Nap S F Ion-Tyn",
    "31": "France: A Tun-Nap; F Tyn C A Tun-Nap; F Ion C A Tun-Nap\nItaly: F Rom-Tyn; F Nap S F Rom-Tyn",
    "32": "France: A Tun-Nap; F Tyn C A Tun-Nap; F Ion C A Tun-Nap; A Apu S A Tun-Nap\n"
    "Italy: F Rom-Tyn; F Nap S F Rom-Tyn",
    # examples in the text
    "support": "France: A Par S A Mar–Bur; A Mar-Bur\nRussia: F Den S F Bal; F Bal H",
    "support-mismatch": "Austria: A Boh S A Mun–Sil\nGermany: A Mun–Tyr",
    "convoy": "Turkey: A Ank-Sev; F Bla C A Ank-Sev",
    "convoy-mismatch": "Russia: A Rum-Arm\nTurkey: F Bla C A Rum-Ank",
    "support-cannot-be-convoyed": "England: A Pic-Bre, A Lon S A Pic-Bre\nF Eng C A Lon S A Pic-Bre\n"
    "France: F Bre-Holds",
}
# The orders the rulebook itself calls illegal ("shown below in bold are illegal and clearly fail").
DIAGRAM_REFUSALS = {
    "A Lon S A Pic-Bre": "A LON cannot support a move to Brest",
    "F Eng C A Lon S A Pic-Bre": "read 'F ENG C A LON' and expected '-' and the army's destination, not 'S'",
}


def _with_powers(lines: list[str]) -> list[tuple[str, str]]:
    """(power, line) for each line; a line without "Power: " in front belongs to the power above it,
    as the rulebook lays its lists out (split_orders puts a name only before that line's orders)."""
    out = []
    power = ""
    for line in lines:
        if ": " in line:
            power = line.split(": ", 1)[0].upper()
        out.append((power, line))
    return out


def _diagram_board(game_map: GameMap, lines: list[str]) -> Board:
    units: dict[str, list[str]] = {}
    for power, line in _with_powers(lines):
        try:
            order = parse_order(line, game_map, "M")
        except OrderParseError:
            continue
        assert order.unit is not None
        units.setdefault(power, []).append(str(order.unit))
    return Board.from_json({"phase": "S1901M", "units": units, "centers": {}}, game_map)


@pytest.mark.parametrize("name", list(DIAGRAMS))
def test_diagram_orders(game_map: GameMap, name: str) -> None:
    lines = split_orders(DIAGRAMS[name], game_map)
    board = _diagram_board(game_map, lines)
    for power, line in _with_powers(lines):
        text = line.split(": ", 1)[-1]
        if text in DIAGRAM_REFUSALS:
            with pytest.raises((InvalidOrder, OrderParseError), match=DIAGRAM_REFUSALS[text]):
                read_order(line, board, power)
            continue
        order = read_order(line, board, power)
        assert order.unit is not None and order.unit.type in ("A", "F")


def test_diagram_30_as_printed_is_refused(game_map: GameMap) -> None:
    # The printed orders for Diagram 30 ("F Ion-Rom; F Nap S F Tyn-Apu") cannot be what the figure
    # shows: the Ionian Sea does not touch Rome, and a fleet in the Tyrrhenian Sea cannot reach Apulia.
    board = _diagram_board(game_map, ["France: F Tyn H", "Italy: F Ion H", "Italy: F Nap H"])
    with pytest.raises(InvalidOrder, match="F ION cannot reach Rome"):
        read_order("F Ion-Rom", board, "ITALY")
    with pytest.raises(InvalidOrder, match="F TYS can never get there"):
        read_order("F Nap S F Tyn-Apu", board, "ITALY")


# --- the DATC's order texts ----------------------------------------------------------------------------


def _datc_order_lines() -> list[tuple[str, str]]:
    """(where, text) for every order line of the DATC cases in tests/engine/datc/."""
    out: list[tuple[str, str]] = []
    for path in sorted(DATC_CASES.glob("6*.datc")):
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = _DATC_ORDER_LINE.match(raw.strip())
            if match:
                out.append((f"{path.name}:{number}", match.group(2).strip()))
    return out


# Lines under a "Power:" header that the parser refuses. The DATC's illegal orders are illegal on the
# board (moves to non-neighbours, foreign units, bad coasts), not in their text, so none is refused
# by the parser: every one of them must be read so the adjudicator can judge it.
DATC_REFUSED: dict[str, str] = {}

DATC_READINGS = {
    "F North Sea - Picardy": "F NTH - PIC",
    "A Liverpool - Irish Sea": "A LVP - IRI",
    "F Kiel - Munich": "F KIE - MUN",
    "F Kiel - Kiel": "F KIE - KIE",
    "F North Sea Convoys A Yorkshire - Yorkshire": "F NTH C A YOR - YOR",
    "F Trieste Supports F Trieste": "F TRI S F TRI",
    "F Spain(nc) Supports F Mid-Atlantic Ocean": "F SPA/NC S F MAO",
    "F Bulgaria(sc) - Constantinople": "F BUL/SC - CON",
    "F Constantinople - Bulgaria(ec)": "F CON - BUL/EC",
    "Build F St Petersburg": "F STP B",
    "Build A St Petersburg(nc)": "A STP/NC B",
    "A Gascony - Spain(nc)": "A GAS - SPA/NC",
    "A Spain - Portugal via convoy": "A SPA - POR VIA",
    "A Picardy - Belgium via Convoy": "A PIC - BEL VIA",
    "A Rhur - Belgium": "A RUH - BEL",
    "A Holland Supports Rhur - Belgium": "A HOL S RUH - BEL",
    "F Skagerrak Convoys Denmark - Norway": "F SKA C DEN - NWY",
    "F Norway Supports Norwegian Sea - North Sea": "F NWY S NWG - NTH",
    "Remove F Gulf of Lyon": "F LYO D",
    "F Irish Sea Supports F North Atlantic Ocean - Mid-Atlantic Ocean": "F IRI S F NAO - MAO",
    "F Helgoland Bight Supports Yorkshire - Holland": "F HEL S YOR - HOL",
}


def test_datc_case_files_are_there() -> None:
    assert len(list(DATC_CASES.glob("6*.datc"))) == 10, f"missing DATC case files in {DATC_CASES}"


def test_every_datc_order_line_is_read() -> None:
    lines = _datc_order_lines()
    assert len(lines) > 700
    refused: dict[str, str] = {}
    for _number, text in lines:
        try:
            parse_order(text)
        except OrderParseError as err:
            refused[text] = err.reason
    assert refused == DATC_REFUSED


@pytest.mark.parametrize(("text", "reading"), sorted(DATC_READINGS.items()))
def test_datc_readings(text: str, reading: str) -> None:
    assert any(t == text for _, t in _datc_order_lines()), "the line is quoted from the DATC"
    assert str(parse_order(text)) == reading


def test_datc_retreat_and_adjustment_lines_read_with_their_phase() -> None:
    assert parse_order("F Trieste - Albania", phase_kind="R").unit == Unit("F", "TRI")
    assert str(parse_order("F Trieste - Albania", phase_kind="R")) == "F TRI R ALB"
    assert str(parse_order("Remove A Paris", phase_kind="A")) == "A PAR D"
    assert str(parse_order("Build A Warsaw", phase_kind="A")) == "A WAR B"
