"""Facts of the Standard board, from the 2000 rulebook and the board itself.

If one of these fails, data/variants/standard/map.json says something the printed board does not.
"""

from __future__ import annotations

import json

import pytest

from engine.board import Board
from engine.mapdata import DATA_DIR, GameMap, province_of

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
SEAS = [
    "ADR",
    "AEG",
    "BAL",
    "BAR",
    "BLA",
    "BOT",
    "EAS",
    "ENG",
    "HEL",
    "ION",
    "IRI",
    "LYO",
    "MAO",
    "NAO",
    "NTH",
    "NWG",
    "SKA",
    "TYS",
    "WES",
]
INLAND = ["BOH", "BUD", "BUR", "GAL", "MOS", "MUN", "PAR", "RUH", "SER", "SIL", "TYR", "UKR", "VIE", "WAR"]
HOME_CENTERS = {
    "AUSTRIA": {"BUD", "TRI", "VIE"},
    "ENGLAND": {"EDI", "LON", "LVP"},
    "FRANCE": {"BRE", "MAR", "PAR"},
    "GERMANY": {"BER", "KIE", "MUN"},
    "ITALY": {"NAP", "ROM", "VEN"},
    "RUSSIA": {"MOS", "SEV", "STP", "WAR"},
    "TURKEY": {"ANK", "CON", "SMY"},
}
NEUTRAL_CENTERS = {"BEL", "BUL", "DEN", "GRE", "HOL", "NWY", "POR", "RUM", "SER", "SPA", "SWE", "TUN"}
STARTING_UNITS = {
    "AUSTRIA": {"A VIE", "A BUD", "F TRI"},
    "ENGLAND": {"F LON", "F EDI", "A LVP"},
    "FRANCE": {"F BRE", "A PAR", "A MAR"},
    "GERMANY": {"F KIE", "A BER", "A MUN"},
    "ITALY": {"F NAP", "A ROM", "A VEN"},
    "RUSSIA": {"F STP/SC", "A MOS", "A WAR", "F SEV"},
    "TURKEY": {"F ANK", "A CON", "A SMY"},
}

# Every province's neighbours on the printed board: (army neighbours, fleet neighbours per coast).
NEIGHBOURS = {
    "ADR": ("", "ADR: ALB APU ION TRI VEN"),
    "AEG": ("", "AEG: BUL/SC CON EAS GRE ION SMY"),
    "ALB": ("GRE SER TRI", "ALB: ADR GRE ION TRI"),
    "ANK": ("ARM CON SMY", "ANK: ARM BLA CON"),
    "APU": ("NAP ROM VEN", "APU: ADR ION NAP VEN"),
    "ARM": ("ANK SEV SMY SYR", "ARM: ANK BLA SEV"),
    "BAL": ("", "BAL: BER BOT DEN KIE LVN PRU SWE"),
    "BAR": ("", "BAR: NWG NWY STP/NC"),
    "BEL": ("BUR HOL PIC RUH", "BEL: ENG HOL NTH PIC"),
    "BER": ("KIE MUN PRU SIL", "BER: BAL KIE PRU"),
    "BLA": ("", "BLA: ANK ARM BUL/EC CON RUM SEV"),
    "BOH": ("GAL MUN SIL TYR VIE", ""),
    "BOT": ("", "BOT: BAL FIN LVN STP/SC SWE"),
    "BRE": ("GAS PAR PIC", "BRE: ENG GAS MAO PIC"),
    "BUD": ("GAL RUM SER TRI VIE", ""),
    "BUL": ("CON GRE RUM SER", "BUL/EC: BLA CON RUM ; BUL/SC: AEG CON GRE"),
    "BUR": ("BEL GAS MAR MUN PAR PIC RUH", ""),
    "CLY": ("EDI LVP", "CLY: EDI LVP NAO NWG"),
    "CON": ("ANK BUL SMY", "CON: AEG ANK BLA BUL/EC BUL/SC SMY"),
    "DEN": ("KIE SWE", "DEN: BAL HEL KIE NTH SKA SWE"),
    "EAS": ("", "EAS: AEG ION SMY SYR"),
    "EDI": ("CLY LVP YOR", "EDI: CLY NTH NWG YOR"),
    "ENG": ("", "ENG: BEL BRE IRI LON MAO NTH PIC WAL"),
    "FIN": ("NWY STP SWE", "FIN: BOT STP/SC SWE"),
    "GAL": ("BOH BUD RUM SIL UKR VIE WAR", ""),
    "GAS": ("BRE BUR MAR PAR SPA", "GAS: BRE MAO SPA/NC"),
    "GRE": ("ALB BUL SER", "GRE: AEG ALB BUL/SC ION"),
    "HEL": ("", "HEL: DEN HOL KIE NTH"),
    "HOL": ("BEL KIE RUH", "HOL: BEL HEL KIE NTH"),
    "ION": ("", "ION: ADR AEG ALB APU EAS GRE NAP TUN TYS"),
    "IRI": ("", "IRI: ENG LVP MAO NAO WAL"),
    "KIE": ("BER DEN HOL MUN RUH", "KIE: BAL BER DEN HEL HOL"),
    "LON": ("WAL YOR", "LON: ENG NTH WAL YOR"),
    "LVN": ("MOS PRU STP WAR", "LVN: BAL BOT PRU STP/SC"),
    "LVP": ("CLY EDI WAL YOR", "LVP: CLY IRI NAO WAL"),
    "LYO": ("", "LYO: MAR PIE SPA/SC TUS TYS WES"),
    "MAO": ("", "MAO: BRE ENG GAS IRI NAF NAO POR SPA/NC SPA/SC WES"),
    "MAR": ("BUR GAS PIE SPA", "MAR: LYO PIE SPA/SC"),
    "MOS": ("LVN SEV STP UKR WAR", ""),
    "MUN": ("BER BOH BUR KIE RUH SIL TYR", ""),
    "NAF": ("TUN", "NAF: MAO TUN WES"),
    "NAO": ("", "NAO: CLY IRI LVP MAO NWG"),
    "NAP": ("APU ROM", "NAP: APU ION ROM TYS"),
    "NTH": ("", "NTH: BEL DEN EDI ENG HEL HOL LON NWG NWY SKA YOR"),
    "NWG": ("", "NWG: BAR CLY EDI NAO NTH NWY"),
    "NWY": ("FIN STP SWE", "NWY: BAR NTH NWG SKA STP/NC SWE"),
    "PAR": ("BRE BUR GAS PIC", ""),
    "PIC": ("BEL BRE BUR PAR", "PIC: BEL BRE ENG"),
    "PIE": ("MAR TUS TYR VEN", "PIE: LYO MAR TUS"),
    "POR": ("SPA", "POR: MAO SPA/NC SPA/SC"),
    "PRU": ("BER LVN SIL WAR", "PRU: BAL BER LVN"),
    "ROM": ("APU NAP TUS VEN", "ROM: NAP TUS TYS"),
    "RUH": ("BEL BUR HOL KIE MUN", ""),
    "RUM": ("BUD BUL GAL SER SEV UKR", "RUM: BLA BUL/EC SEV"),
    "SER": ("ALB BUD BUL GRE RUM TRI", ""),
    "SEV": ("ARM MOS RUM UKR", "SEV: ARM BLA RUM"),
    "SIL": ("BER BOH GAL MUN PRU WAR", ""),
    "SKA": ("", "SKA: DEN NTH NWY SWE"),
    "SMY": ("ANK ARM CON SYR", "SMY: AEG CON EAS SYR"),
    "SPA": ("GAS MAR POR", "SPA/NC: GAS MAO POR ; SPA/SC: LYO MAO MAR POR WES"),
    "STP": ("FIN LVN MOS NWY", "STP/NC: BAR NWY ; STP/SC: BOT FIN LVN"),
    "SWE": ("DEN FIN NWY", "SWE: BAL BOT DEN FIN NWY SKA"),
    "SYR": ("ARM SMY", "SYR: EAS SMY"),
    "TRI": ("ALB BUD SER TYR VEN VIE", "TRI: ADR ALB VEN"),
    "TUN": ("NAF", "TUN: ION NAF TYS WES"),
    "TUS": ("PIE ROM VEN", "TUS: LYO PIE ROM TYS"),
    "TYR": ("BOH MUN PIE TRI VEN VIE", ""),
    "TYS": ("", "TYS: ION LYO NAP ROM TUN TUS WES"),
    "UKR": ("GAL MOS RUM SEV WAR", ""),
    "VEN": ("APU PIE ROM TRI TUS TYR", "VEN: ADR APU TRI"),
    "VIE": ("BOH BUD GAL TRI TYR", ""),
    "WAL": ("LON LVP YOR", "WAL: ENG IRI LON LVP"),
    "WAR": ("GAL LVN MOS PRU SIL UKR", ""),
    "WES": ("", "WES: LYO MAO NAF SPA/SC TUN TYS"),
    "YOR": ("EDI LON LVP WAL", "YOR: EDI LON NTH"),
}


def test_province_counts_by_kind(game_map: GameMap) -> None:
    kinds = {p.code: p.kind for p in game_map.provinces.values()}
    assert len(kinds) == 75
    assert sorted(c for c, k in kinds.items() if k == "sea") == sorted(SEAS)
    assert sorted(c for c, k in kinds.items() if k == "land") == sorted(INLAND)
    assert sum(k == "coast" for k in kinds.values()) == 42


def test_supply_centers(game_map: GameMap) -> None:
    assert len(game_map.supply_centers) == 34
    homes = {p: set(cs) for p, cs in game_map.home_centers.items()}
    assert homes == HOME_CENTERS
    assert sum(len(cs) for cs in homes.values()) == 22
    assert game_map.supply_centers - set().union(*homes.values()) == NEUTRAL_CENTERS
    assert game_map.victory_centers == 18


def test_powers_and_starting_position(game_map: GameMap) -> None:
    assert game_map.powers == POWERS
    board = Board.initial(game_map)
    assert str(board.phase) == "S1901M"
    assert {p: {str(u) for u in us} for p, us in board.units.items()} == STARTING_UNITS
    assert sum(len(us) for us in board.units.values()) == 22
    assert {p: set(cs) for p, cs in board.centers.items()} == HOME_CENTERS


def test_split_coast_provinces(game_map: GameMap) -> None:
    split = {p.code: p.coasts for p in game_map.provinces.values() if p.coasts}
    assert split == {"BUL": ("EC", "SC"), "SPA": ("NC", "SC"), "STP": ("NC", "SC")}


@pytest.mark.parametrize("code", sorted(NEIGHBOURS))
def test_neighbours_of_every_province(game_map: GameMap, code: str) -> None:
    army_text, fleet_text = NEIGHBOURS[code]
    assert sorted(game_map.army_adjacency[code]) == army_text.split()
    expected_fleet = {}
    for part in filter(None, fleet_text.split(" ; ")):
        loc, dests = part.split(": ")
        expected_fleet[loc] = dests.split()
    actual_fleet = {
        loc: sorted(game_map.fleet_adjacency[loc])
        for loc in game_map.provinces[code].locations
        if game_map.provinces[code].has_coast
    }
    assert actual_fleet == expected_fleet


def test_adjacency_is_symmetric(game_map: GameMap) -> None:
    for a, ns in game_map.army_adjacency.items():
        for b in ns:
            assert a in game_map.army_adjacency[b], (a, b)
    for a, ns in game_map.fleet_adjacency.items():
        for b in ns:
            assert a in game_map.fleet_adjacency[b], (a, b)


def test_data_file_lists_each_border_once_between_known_places(game_map: GameMap) -> None:
    raw = json.loads((DATA_DIR / "variants" / "standard" / "map.json").read_text(encoding="utf-8"))
    for key, known in (("army_adjacency", set(game_map.provinces)), ("fleet_adjacency", game_map.locations)):
        pairs = [tuple(p) for p in raw[key]]
        assert all(a in known and b in known and a != b for a, b in pairs), key
        assert len({frozenset(p) for p in pairs}) == len(pairs), f"{key} repeats a border"


def test_armies_stay_on_land(game_map: GameMap) -> None:
    for a, ns in game_map.army_adjacency.items():
        for b in ns:
            assert not game_map.is_sea(a) and not game_map.is_sea(b), (a, b)


def test_fleets_only_along_coasts(game_map: GameMap) -> None:
    for src, dests in game_map.fleet_adjacency.items():
        for dst in dests:
            a, b = province_of(src), province_of(dst)
            assert game_map.provinces[a].kind != "land" and game_map.provinces[b].kind != "land", (src, dst)
            if game_map.is_coastal(a) and game_map.is_coastal(b):
                # Moving down a coast: the two provinces also share a land border.
                assert b in game_map.army_adjacency[a], (src, dst)


def test_every_coastal_province_touches_a_sea(game_map: GameMap) -> None:
    for p in game_map.provinces.values():
        if p.kind == "coast":
            seas = {province_of(n) for loc in p.locations for n in game_map.fleet_adjacency[loc]}
            assert any(game_map.is_sea(s) for s in seas), p.code


def test_diagram_1_army_in_paris(game_map: GameMap) -> None:
    assert game_map.army_adjacency["PAR"] == {"BRE", "PIC", "BUR", "GAS"}


def test_diagram_2_fleet_in_english_channel(game_map: GameMap) -> None:
    expected = {"IRI", "WAL", "LON", "BEL", "PIC", "BRE", "NTH", "MAO"}
    assert game_map.fleet_adjacency["ENG"] == expected
    assert game_map.neighbours("F", "ENG") == expected


def test_diagram_3_fleet_in_rome_follows_the_coast(game_map: GameMap) -> None:
    assert game_map.fleet_adjacency["ROM"] == {"TUS", "NAP", "TYS"}
    assert not game_map.fleet_can_move("ROM", "VEN")
    assert not game_map.fleet_can_move("ROM", "APU")
    assert game_map.army_can_move("ROM", "VEN") and game_map.army_can_move("ROM", "APU")
    # The rulebook's support example: a fleet in Rome cannot support into Venice.
    assert not game_map.can_reach("F", "ROM", "VEN")


def test_spain_north_coast_does_not_reach_the_mediterranean(game_map: GameMap) -> None:
    for dst in ("WES", "LYO", "MAR"):
        assert not game_map.fleet_can_move("SPA/NC", dst)
        assert not game_map.can_reach("F", "SPA/NC", dst)
    assert game_map.fleet_can_move("SPA/SC", "WES")
    assert game_map.fleet_destinations("MAO", "SPA") == ("SPA/NC", "SPA/SC")
    assert game_map.fleet_destinations("GAS", "SPA") == ("SPA/NC",)
    assert game_map.fleet_destinations("MAR", "SPA") == ("SPA/SC",)


def test_constantinople_reaches_both_coasts_of_bulgaria(game_map: GameMap) -> None:
    assert game_map.fleet_destinations("CON", "BUL") == ("BUL/EC", "BUL/SC")
    assert game_map.fleet_destinations("BLA", "BUL") == ("BUL/EC",)
    assert game_map.fleet_destinations("AEG", "BUL") == ("BUL/SC",)
    assert not game_map.fleet_can_move("BUL/EC", "BUL/SC")


def test_kiel_and_constantinople_are_one_coast(game_map: GameMap) -> None:
    assert game_map.fleet_can_move("HOL", "KIE") and game_map.fleet_can_move("KIE", "BER")
    assert game_map.fleet_can_move("BLA", "CON") and game_map.fleet_can_move("CON", "AEG")
    assert not game_map.provinces["KIE"].coasts and not game_map.provinces["CON"].coasts


def test_sweden_denmark_and_the_baltic(game_map: GameMap) -> None:
    assert game_map.army_can_move("DEN", "SWE") and game_map.fleet_can_move("DEN", "SWE")
    assert not game_map.fleet_can_move("BAL", "SKA")
    assert not game_map.army_can_move("DEN", "BER") and not game_map.fleet_can_move("DEN", "BER")
    assert game_map.fleet_can_move("SWE", "NWY")  # sample game: F Swe supports into Norway


def test_norway_and_st_petersburg(game_map: GameMap) -> None:
    assert game_map.army_can_move("NWY", "STP")
    assert game_map.fleet_can_move("NWY", "STP/NC") and not game_map.fleet_can_move("NWY", "STP/SC")
    assert game_map.fleet_can_move("BOT", "STP/SC") and not game_map.fleet_can_move("BOT", "STP/NC")


def test_no_fleet_support_into_inland_serbia(game_map: GameMap) -> None:
    # Sample game, Spring 1902: "The Austrian Fleet in Greece couldn't support the move to Serbia."
    assert game_map.army_can_move("GRE", "SER")
    assert not game_map.can_reach("F", "GRE", "SER")


def test_switzerland_is_not_on_the_board(game_map: GameMap) -> None:
    assert "SWI" not in game_map.provinces
    assert all("SWI" not in ns for ns in game_map.army_adjacency.values())
    # Its neighbours touch each other around it, never through it.
    assert game_map.army_adjacency["BUR"] & {"MAR", "MUN"} == {"MAR", "MUN"}


def test_only_england_island_and_no_other_island_provinces(game_map: GameMap) -> None:
    names = {p.name for p in game_map.provinces.values()}
    for island in ("Ireland", "Iceland", "Corsica", "Sardinia", "Sicily", "Crete", "Cyprus"):
        assert island not in names


def test_home_centers_are_owned_home_land(game_map: GameMap) -> None:
    for power, centers in game_map.home_centers.items():
        for c in centers:
            prov = game_map.provinces[c]
            assert prov.supply_center and prov.home == power and prov.kind != "sea"


def test_names_and_aliases_are_unique(game_map: GameMap) -> None:
    seen: dict[str, str] = {}
    for p in game_map.provinces.values():
        for text in (p.code, p.name, *p.aliases):
            key = text.lower()
            assert seen.setdefault(key, p.code) == p.code, f"{text!r} names both {seen[key]} and {p.code}"


def test_no_alias_makes_an_ambiguous_abbreviation(game_map: GameMap) -> None:
    # The 1971 rules warn that names starting "Nor" share no abbreviation; "Liv" is Liverpool in those
    # rules and Livonia elsewhere. Neither may be an alias of one province.
    aliases = {a.upper() for p in game_map.provinces.values() for a in p.aliases}
    assert not aliases & {"NOR", "LIV"}
