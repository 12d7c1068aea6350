"""Validation completes orders from the board, and refuses impossible ones with a reason and a hint."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.board import Board
from engine.errors import InvalidOrder, OrderParseError
from engine.orders import Build, Convoy, Move, Remove, Retreat, SupportHold, SupportMove, Unit, Waive
from engine.validation import read_order, validate_order

MakeBoard = Callable[..., Board]

# A Spring 1902-like position with fleets at sea for convoy tests.
UNITS = {
    "ENGLAND": ["F NTH", "A LON", "F ENG", "A YOR", "F MAO"],
    "FRANCE": ["A PAR", "A MAR", "F BRE", "F GAS"],
    "GERMANY": ["A MUN", "F KIE", "A BER"],
    "ITALY": ["F ROM", "A VEN", "F ION", "A APU", "F TYS"],
    "RUSSIA": ["F STP/SC", "A MOS", "F SEV", "A WAR"],
    "TURKEY": ["F CON", "A SMY", "F BLA", "A ANK"],
    "AUSTRIA": ["A VIE", "F TRI", "A BUD"],
}


@pytest.fixture
def board(make_board: MakeBoard) -> Board:
    return make_board("S1902M", units=UNITS, centers={})


def refused(text: str, board: Board, power: str) -> InvalidOrder:
    with pytest.raises(InvalidOrder) as info:
        read_order(text, board, power)
    err = info.value
    assert err.reason and err.hint, "every refusal says why and how to fix it"
    return err


def accepted(text: str, board: Board, power: str) -> str:
    return str(read_order(text, board, power))


# --- completion -------------------------------------------------------------------------------------


def test_fills_unit_types_and_coasts_from_the_board(board: Board) -> None:
    assert accepted("Par-Bur", board, "FRANCE") == "A PAR - BUR"
    assert accepted("F StP-Bot", board, "RUSSIA") == "F STP/SC - BOT"
    assert accepted("F Gas - Spa", board, "FRANCE") == "F GAS - SPA/NC"
    assert accepted("A Par S Mar - Bur", board, "FRANCE") == "A PAR S A MAR - BUR"
    assert accepted("F Bre S Gas", board, "FRANCE") == "F BRE S F GAS"
    assert accepted("F Nth C Lon - Nwy", board, "ENGLAND") == "F NTH C A LON - NWY"
    assert accepted("F MAO S F Gas - Spa/nc", board, "ENGLAND") == "F MAO S F GAS - SPA"


def test_army_coasts_are_ignored(make_board: MakeBoard) -> None:
    board = make_board("S1901M", units={"FRANCE": ["A GAS"]}, centers={})
    # DATC 6.B.12: an army's move is attempted whatever coast it names.
    assert read_order("A Gascony - Spain(nc)", board, "FRANCE") == Move(Unit("A", "GAS"), "SPA")


def test_convoy_moves(board: Board) -> None:
    assert accepted("A Lon - Nwy", board, "ENGLAND") == "A LON - NWY"
    assert accepted("A Lon - Bel via convoy", board, "ENGLAND") == "A LON - BEL VIA"
    assert accepted("A Yor - Lon via convoy", board, "ENGLAND") == "A YOR - LON VIA"  # adjacent, explicit
    assert accepted("A Apu - Tun", board, "ITALY") == "A APU - TUN"


def test_convoy_route_must_exist_over_seas(make_board: MakeBoard) -> None:
    board = make_board("S1901M", units={"TURKEY": ["A ANK", "A SMY"], "RUSSIA": ["A MOS"]}, centers={})
    assert accepted("A Ank - Rum", board, "TURKEY") == "A ANK - RUM"  # across the Black Sea
    # The Black Sea touches no other sea: Smyrna's coast (Aegean, Eastern Med) never reaches Sevastopol.
    err = refused("A Smy - Sev", board, "TURKEY")
    assert "A SMY cannot reach Sevastopol (SEV)" in err.reason
    err = refused("A Ank - Smy via convoy", board, "TURKEY")
    assert "A ANK cannot be convoyed to Smyrna (SMY): no chain of seas" in err.reason
    err = refused("A Mos - Sev via convoy", board, "RUSSIA")
    assert "A MOS cannot be convoyed" in err.reason


# --- refusals: movement ----------------------------------------------------------------------------


def test_no_unit_there(board: Board) -> None:
    err = refused("A Pic - Bel", board, "FRANCE")
    assert "no unit in Picardy (PIC)" in err.reason
    assert "your units: A MAR, A PAR, F BRE, F GAS" in (err.hint or "")


def test_not_your_unit(board: Board) -> None:
    err = refused("A Mun - Bur", board, "FRANCE")
    assert "A MUN is not yours: it belongs to GERMANY" in err.reason


def test_wrong_unit_type(board: Board) -> None:
    err = refused("F Par - Bur", board, "FRANCE")
    assert "Paris (PAR) is an army (A PAR), not a fleet" in err.reason
    assert "A PAR" in (err.hint or "")


def test_wrong_coast_of_own_fleet_is_corrected(board: Board) -> None:
    # DATC 6.B.10 (4.B.5): the coast of the ordered unit has no purpose; the order names the real one.
    assert accepted("F StP/NC - Bot", board, "RUSSIA") == "F STP/SC - BOT"
    assert accepted("F St Petersburg (north coast) holds", board, "RUSSIA") == "F STP/SC H"
    assert accepted("F StP/NC S A War - Lvn", board, "RUSSIA") == "F STP/SC S A WAR - LVN"


def test_wrong_coast_does_not_move_the_fleet_to_the_other_coast(board: Board) -> None:
    # DATC 6.B.11: naming the other coast does not put the fleet there.
    # The reason starts from what the player wrote (the north coast), as the printed order does.
    err = refused("F StP/NC - Bar", board, "RUSSIA")
    assert err.reason.startswith(
        "the fleet in St. Petersburg is on the south coast, not the north coast; "
        "F STP/SC cannot reach Barents Sea (BAR)"
    )


def test_wrong_coast_of_a_supported_fleet(board: Board) -> None:
    err = refused("A Mos S F StP/NC", board, "RUSSIA")
    assert "F STP/SC is on the south coast, not the north coast" in err.reason


def test_move_to_own_province(board: Board) -> None:
    err = refused("A Par - Par", board, "FRANCE")
    assert "A PAR cannot move to Paris (PAR): it is already there" in err.reason
    assert "A PAR H" in (err.hint or "")
    refused("F Kiel - Kiel", board, "GERMANY")  # DATC 6.A.4


def test_move_not_adjacent(board: Board) -> None:
    err = refused("F North Sea - Picardy", board, "ENGLAND")  # DATC 6.A.1
    assert "F NTH cannot reach Picardy (PIC)" in err.reason
    assert "F NTH can move to BEL, DEN, EDI" in (err.hint or "")
    err = refused("A Par - Mun", board, "FRANCE")
    assert "A PAR cannot reach Munich (MUN): it is not next to Paris (PAR)" in err.reason


def test_army_to_sea(board: Board) -> None:
    err = refused("A Lon - North Sea", board, "ENGLAND")  # like DATC 6.A.2
    assert "A LON cannot move to North Sea (NTH): armies cannot enter the sea" in err.reason


def test_fleet_inland(board: Board) -> None:
    err = refused("F Kiel - Munich", board, "GERMANY")  # DATC 6.A.3
    assert "F KIE cannot move to Munich (MUN): fleets cannot go inland" in err.reason


def test_fleet_along_coast_only(board: Board) -> None:
    err = refused("F Rome - Venice", board, "ITALY")  # DATC 6.A.9
    assert "F ROM cannot reach Venice (VEN)" in err.reason
    assert "NAP, TUS, TYS" in (err.hint or "")


def test_fleet_needs_a_coast_when_two_are_possible(board: Board) -> None:
    err = refused("F MAO - Spa", board, "ENGLAND")
    assert "must say which coast of Spain" in err.reason
    assert "F MAO - SPA/NC or F MAO - SPA/SC" in (err.hint or "")


def test_fleet_to_unreachable_coast(board: Board) -> None:
    err = refused("F Gas - Spa/sc", board, "FRANCE")  # DATC 6.B.2-like: Gascony touches the north coast only
    assert "F GAS cannot reach Spain (south coast)" in err.reason
    assert "F GAS - SPA/NC" in (err.hint or "")


def test_fleet_cannot_be_convoyed(board: Board) -> None:
    err = refused("F Bre - Pic via convoy", board, "FRANCE")
    assert "F BRE cannot be convoyed" in err.reason


# --- refusals: support -----------------------------------------------------------------------------


def test_support_needs_a_unit_to_support(board: Board) -> None:
    err = refused("A Par S A Pic - Bur", board, "FRANCE")
    assert "A PAR S A PIC - BUR: there is no unit in Picardy (PIC) to support" in err.reason


def test_support_type_must_match(board: Board) -> None:
    err = refused("A Par S F Mar - Bur", board, "FRANCE")
    assert "Marseilles (MAR) is an army (A MAR), not a fleet" in err.reason


def test_no_self_support(board: Board) -> None:
    assert "F TRI cannot support itself" in refused("F Trieste Supports F Trieste", board, "AUSTRIA").reason
    assert "cannot support its own move" in refused("A Par S A Par - Bur", board, "FRANCE").reason


def test_supporter_must_reach_the_destination(board: Board) -> None:
    err = refused("F Rome Supports A Venice - Apulia", board, "ITALY")
    assert "F ROM cannot support a move to Apulia (APU): it could not move there itself" in err.reason
    err = refused("F Bre S A Par", board, "FRANCE")
    assert "F BRE cannot support A PAR: it could not move to Paris (PAR) itself" in err.reason
    err = refused("A Lon S F Nth", board, "ENGLAND")  # an army cannot support into the sea
    assert "A LON cannot support F NTH" in err.reason


@pytest.mark.parametrize(
    ("units", "text", "power", "why"),
    [
        ({"ITALY": ["F ROM", "A TYR"]}, "F Rom S A Tyr - Ven", "ITALY",
         "a fleet moves along a coast, and ROM and VEN share a border but no coast"),  # Venice is coastal
        ({"FRANCE": ["A MAR", "A SPA"]}, "A Mar S A Spa - Por", "FRANCE", "POR is not next to MAR"),
        ({"GERMANY": ["A MUN", "A BER"]}, "A Mun S A Ber - Pru", "GERMANY", "PRU is not next to MUN"),
        ({"FRANCE": ["A MAR", "F WES"]}, "A Mar S F Wes - Lyo", "FRANCE", "armies cannot enter the sea"),
        ({"GERMANY": ["F KIE", "A BER"]}, "F Kie S A Ber - Mun", "GERMANY",
         "fleets cannot go inland, and MUN is inland"),
        ({"FRANCE": ["F SPA/NC", "A MAR"]}, "F Spa/nc S A Mar", "FRANCE",
         "MAR cannot be reached from SPA/NC, only from the other coast"),
        ({"ITALY": ["F ROM", "F ADR"]}, "F Rom S F Adr - Apu", "ITALY",
         "a fleet moves along a coast, and ROM and APU share a border but no coast"),
        ({"ENGLAND": ["F NTH", "F MAO"]}, "F Nth S F Mao - Iri", "ENGLAND", "IRI is not next to NTH"),
    ],
)  # fmt: skip
def test_a_support_out_of_reach_names_the_real_cause(
    make_board: MakeBoard, units: dict[str, list[str]], text: str, power: str, why: str
) -> None:
    err = refused(text, make_board("S1901M", units=units, centers={}), power)
    assert err.hint == f"a unit supports only into a province it could move to: {why}"
    assert "(" not in err.hint


def test_supported_unit_must_be_able_to_get_there(board: Board) -> None:
    err = refused("A Mun S A Par - Ruh", board, "GERMANY")
    assert "A MUN supports A PAR to Ruhr (RUH), but A PAR can never get there" in err.reason
    # Marseilles to Picardy is possible by convoy (Gulf of Lyon ... English Channel), so this is valid.
    assert accepted("A Par S A Mar - Pic", board, "FRANCE") == "A PAR S A MAR - PIC"


def test_support_into_own_province_or_to_where_the_unit_is(board: Board) -> None:
    assert "into its own province" in refused("A Par S A Mar - Par", board, "FRANCE").reason
    assert "A MAR is already in Marseilles" in refused("A Par S A Mar - Mar", board, "FRANCE").reason


def test_support_of_a_convoyed_army_is_fine(board: Board) -> None:
    assert accepted("F Ion S A Apu - Tun", board, "ITALY") == "F ION S A APU - TUN"
    assert accepted("F Eng S A Lon - Bel", board, "ENGLAND") == "F ENG S A LON - BEL"


def test_support_of_a_foreign_unit(board: Board) -> None:
    assert accepted("A Mun S French A Par - Bur", board, "GERMANY") == "A MUN S A PAR - BUR"


# --- refusals: convoy ------------------------------------------------------------------------------


def test_only_fleets_convoy(board: Board) -> None:
    err = refused("A Lon C A Yor - Bel", board, "ENGLAND")
    assert "A LON cannot convoy: only fleets convoy" in err.reason


def test_only_fleets_at_sea_convoy(board: Board) -> None:
    err = refused("F Kie C A Ber - Den", board, "GERMANY")
    assert "F KIE cannot convoy: Kiel (KIE) is a coast, and only fleets at sea convoy" in err.reason


def test_convoy_needs_an_army(board: Board) -> None:
    assert "no unit in Wales (WAL) to convoy" in refused("F Nth C A Wal - Bel", board, "ENGLAND").reason


def test_a_fleet_cannot_be_convoyed_by_a_convoy_order(make_board: MakeBoard) -> None:
    board = make_board("S1901M", units={"ENGLAND": ["F LON", "F NTH"]}, centers={})
    err = refused("F North Sea Convoys A London - Belgium", board, "ENGLAND")  # DATC 6.A.7
    assert "London (LON) is a fleet (F LON), not an army" in err.reason
    err = refused("F North Sea Convoys London - Belgium", board, "ENGLAND")
    assert "F NTH cannot convoy F LON: only armies are convoyed" in err.reason


def test_convoy_destination_must_be_a_coast(board: Board) -> None:
    assert "a convoy lands only on a coast" in refused("F Nth C A Lon - Par", board, "ENGLAND").reason
    assert "the army is already there" in refused("F Nth C A Lon - Lon", board, "ENGLAND").reason


def test_convoying_fleet_must_lie_between_the_coasts(board: Board) -> None:
    err = refused("F Black Sea C A Lon - Bel", board, "TURKEY")
    assert "F BLA cannot be part of a convoy from London (LON) to Belgium (BEL)" in err.reason


def test_convoy_from_inland_is_refused(board: Board) -> None:
    err = refused("F Nth C A Mun - Bel", board, "ENGLAND")
    assert "Munich (MUN) is not on a coast" in err.reason


# --- phase kinds -----------------------------------------------------------------------------------


def test_wrong_order_kind_for_the_phase(board: Board, make_board: MakeBoard) -> None:
    assert (
        "is a retreat, but Spring 1902 Movement is a movement phase"
        in refused("A Par R Bur", board, "FRANCE").reason
    )
    assert "cannot disband in Spring 1902 Movement" in refused("A Par D", board, "FRANCE").reason
    assert "is a build order" in refused("A Par B", board, "FRANCE").reason
    adjustments = make_board("W1902A", units=UNITS, centers={"FRANCE": ["PAR", "BRE", "MAR"]})
    err = refused("A Par - Bur", adjustments, "FRANCE")
    assert "cannot be ordered in Winter 1902 Adjustments" in err.reason
    # the hint says what this power has to do this winter (France has more units than centers here)
    assert "you must remove 1 unit this winter" in (err.hint or "")


# --- retreat phase ---------------------------------------------------------------------------------


@pytest.fixture
def retreats(make_board: MakeBoard) -> Board:
    return make_board(
        "F1902R",
        units={"ENGLAND": ["A STP", "F NTH"], "GERMANY": ["A BUR", "F HOL"], "FRANCE": ["F MAO"]},
        centers={},
        dislodged={
            "RUSSIA": {"A STP": {"attacker_from": "NWY", "retreats": ["FIN", "LVN", "MOS"]}},
            "FRANCE": {
                "A BUR": {"attacker_from": "RUH", "retreats": ["GAS", "PAR"]},
                "F SPA/SC": {"attacker_from": "WES", "retreats": ["POR", "LYO"]},
                "F HOL": {"attacker_from": "KIE", "retreats": []},
            },
        },
    )


def test_retreat_to_a_listed_option(retreats: Board) -> None:
    assert read_order("A StP–Mos", retreats, "RUSSIA") == Retreat(Unit("A", "STP"), "MOS")
    assert accepted("A Bur–Gas", retreats, "FRANCE") == "A BUR R GAS"
    assert accepted("F Spa - Por", retreats, "FRANCE") == "F SPA/SC R POR"
    assert accepted("A Bur D", retreats, "FRANCE") == "A BUR D"
    assert accepted("remove A Bur", retreats, "FRANCE") == "A BUR D"


def test_retreat_refusals(retreats: Board) -> None:
    err = refused("A Bur - Ruh", retreats, "FRANCE")
    assert "A BUR cannot retreat to Ruhr (RUH): the attack came from there" in err.reason
    assert "GAS, PAR" in (err.hint or "")
    err = refused("A Bur - Mar", retreats, "FRANCE")
    assert "A BUR cannot retreat to Marseilles (MAR)" in err.reason
    err = refused("F Hol - Nth", retreats, "FRANCE")
    assert "F HOL has nowhere to retreat to" in err.reason
    err = refused("F Nth - Nwg", retreats, "ENGLAND")
    assert "F NTH in North Sea (NTH) was not dislodged" in err.reason
    err = refused("A StP - Fin", retreats, "FRANCE")
    assert "A STP is not yours: it belongs to RUSSIA" in err.reason
    err = refused("A Lon - Yor", retreats, "ENGLAND")
    assert "no dislodged unit in London (LON)" in err.reason
    err = refused("A Bur - Gas via convoy", retreats, "FRANCE")
    assert "retreats cannot be convoyed" in err.reason
    err = refused("A Bur S A StP - Mos", retreats, "FRANCE")  # DATC 6.H.1: no supports in retreats
    assert "cannot be ordered in Fall 1902 Retreats" in err.reason
    err = refused("A Bur H", retreats, "FRANCE")
    assert "A BUR R place, or A BUR D" in (err.hint or "")


def test_fleet_retreat_to_a_split_coast_names_the_coast(make_board: MakeBoard) -> None:
    board = make_board(
        "F1901R",
        units={"ENGLAND": ["F MAO"]},
        centers={},
        dislodged={"FRANCE": {"F POR": {"attacker_from": "MAO", "retreats": ["SPA/NC", "SPA/SC"]}}},
    )
    err = refused("F Por - Spa", board, "FRANCE")
    assert "F POR R SPA must say which coast of Spain" in err.reason
    assert "F POR R SPA/NC or F POR R SPA/SC" in (err.hint or "")
    assert accepted("F Por - Spa/sc", board, "FRANCE") == "F POR R SPA/SC"


def test_retreat_of_dislodged_unit_while_attacker_stands_there(retreats: Board) -> None:
    # England's A STP stands where Russia's dislodged A STP was: Russia's order is about its own unit.
    assert accepted("A StP - Fin", retreats, "RUSSIA") == "A STP R FIN"
    assert "was not dislodged" in refused("A StP - Fin", retreats, "ENGLAND").reason


# --- adjustment phase ------------------------------------------------------------------------------


@pytest.fixture
def winter(make_board: MakeBoard) -> Board:
    return make_board(
        "W1901A",
        units={
            "RUSSIA": ["A WAR", "F SEV", "A UKR", "F BOT"],
            "GERMANY": ["A KIE", "A RUH"],
            "FRANCE": ["A PAR", "A BUR", "F SPA/SC"],
        },
        centers={
            "RUSSIA": ["MOS", "SEV", "STP", "WAR", "RUM", "SWE"],
            "GERMANY": ["BER", "KIE", "MUN", "DEN", "HOL"],
            "FRANCE": ["PAR", "BRE", "SPA"],
            "ITALY": ["MAR"],
        },
    )


def test_builds(winter: Board) -> None:
    assert accepted("A Mos", winter, "RUSSIA") == "A MOS B"
    assert accepted("F StP/NC", winter, "RUSSIA") == "F STP/NC B"
    assert accepted("build F St Petersburg (south coast)", winter, "RUSSIA") == "F STP/SC B"
    assert accepted("A StP(nc)", winter, "RUSSIA") == "A STP B"  # an army's coast means nothing
    assert accepted("F Ber", winter, "GERMANY") == "F BER B"
    assert accepted("A Mun", winter, "GERMANY") == "A MUN B"
    assert accepted("F Bre", winter, "FRANCE") == "F BRE B"
    assert read_order("waive", winter, "FRANCE") == Waive()


def test_a_build_inland_without_a_unit_type_is_an_army(winter: Board) -> None:
    assert accepted("Build Mos", winter, "RUSSIA") == "A MOS B"  # only an army fits in Moscow
    assert accepted("B Mos", winter, "RUSSIA") == "A MOS B"
    assert accepted("Build Mun", winter, "GERMANY") == "A MUN B"
    err = refused("Build Ber", winter, "GERMANY")  # Berlin is on the coast: either fits
    assert "does not say army or fleet" in err.reason and err.hint == "write A BER B or F BER B"


def test_build_refusals(winter: Board) -> None:
    err = refused("Build F St Petersburg", winter, "RUSSIA")  # DATC 6.B.14
    assert "a fleet built in St. Petersburg (STP) must say which coast" in err.reason
    assert "F STP/NC B or F STP/SC B" in (err.hint or "")
    err = refused("F Mos B", winter, "RUSSIA")
    assert "cannot build a fleet in Moscow (MOS): it is inland" in err.reason
    err = refused("A Rum B", winter, "RUSSIA")
    assert "Rumania (RUM) is not one of your home centers" in err.reason
    assert "you can build in MOS, STP" in (err.hint or "")
    err = refused("A Ukr B", winter, "RUSSIA")
    assert "Ukraine (UKR) is not a supply center" in err.reason
    err = refused("A War B", winter, "RUSSIA")
    assert "cannot build in Warsaw (WAR): A WAR stands there" in err.reason
    err = refused("A Kie B", winter, "GERMANY")
    assert "cannot build in Kiel (KIE): A KIE stands there" in err.reason
    assert "you can build in BER, MUN" in (err.hint or "")
    err = refused("A Mar B", winter, "FRANCE")
    assert "you do not control it (it belongs to ITALY)" in err.reason
    err = refused("Build StP", winter, "RUSSIA")  # a coastal site: army or fleet?
    assert "does not say army or fleet" in err.reason
    assert err.hint == "write A STP B or F STP/NC B or F STP/SC B"
    err = refused("A Par B", winter, "FRANCE")
    assert "A PAR stands there" in err.reason
    err = refused("A Vie B", winter, "FRANCE")
    assert "not one of your home centers" in err.reason
    # France has as many units as centers: Brest is vacant, but there is no build to put there
    assert err.hint == "you have no build this winter: building needs more supply centers than units"


def test_removals(winter: Board) -> None:
    assert read_order("A Ukr D", winter, "RUSSIA") == Remove(Unit("A", "UKR"))
    assert read_order("remove F Bot", winter, "RUSSIA") == Remove(Unit("F", "BOT"))
    assert accepted("disband F Sev", winter, "RUSSIA") == "F SEV D"
    err = refused("A Kie D", winter, "RUSSIA")
    assert "A KIE is not yours: it belongs to GERMANY" in err.reason
    err = refused("A Mos D", winter, "RUSSIA")
    assert "no unit in Moscow (MOS)" in err.reason


def test_a_bare_unit_is_a_removal_only_for_a_power_that_must_remove(
    winter: Board, make_board: MakeBoard
) -> None:
    # The rulebook's sample game writes builds and removals alike as the bare unit ("F Kie", "A Gal").
    shrinking = make_board("W1902A", units={"RUSSIA": ["A UKR", "A GAL"]}, centers={"RUSSIA": ["MOS"]})
    assert read_order("A Gal", shrinking, "RUSSIA") == Remove(Unit("A", "GAL"))
    # Russia may build in this winter, so a bare unit is a build: of a unit standing outside its home.
    err = refused("A Ukr", winter, "RUSSIA")
    assert "cannot build A UKR B" in err.reason


# --- whose line is it ------------------------------------------------------------------------------


def test_a_line_addressed_to_another_power_is_refused(board: Board) -> None:
    err = refused("Germany: A Mun - Bur", board, "FRANCE")
    assert "addressed to GERMANY, but you play FRANCE" in err.reason
    assert accepted("France: A Par - Bur", board, "FRANCE") == "A PAR - BUR"


def test_read_order_passes_parse_errors_through(board: Board) -> None:
    with pytest.raises(OrderParseError):
        read_order("A Par - Nor", board, "FRANCE")


def test_validate_order_takes_order_values(board: Board) -> None:
    assert validate_order(Move(Unit(None, "PAR"), "BUR"), board, "FRANCE") == Move(Unit("A", "PAR"), "BUR")
    order = SupportMove(Unit("F", "MAO"), Unit("F", "GAS"), "SPA/NC")
    assert validate_order(order, board, "ENGLAND") == SupportMove(Unit("F", "MAO"), Unit("F", "GAS"), "SPA")
    hold = SupportHold(Unit("F", "BRE"), Unit(None, "GAS"))
    assert validate_order(hold, board, "FRANCE") == SupportHold(Unit("F", "BRE"), Unit("F", "GAS"))
    convoy = Convoy(Unit(None, "NTH"), Unit(None, "YOR"), "NWY")
    assert validate_order(convoy, board, "ENGLAND") == Convoy(Unit("F", "NTH"), Unit("A", "YOR"), "NWY")
    with pytest.raises(InvalidOrder, match="not a place on this map"):
        validate_order(Move(Unit("A", "PAR"), "XYZ"), board, "FRANCE")
    with pytest.raises(InvalidOrder, match="unknown power"):
        validate_order(Move(Unit("A", "PAR"), "BUR"), board, "PRUSSIA")
    with pytest.raises(InvalidOrder, match="is a build order"):
        validate_order(Build(Unit("A", "PAR")), board, "FRANCE")
