"""The variant folders under data/variants, checked the way tests/engine/test_map_facts.py checks the
Standard map: the facts load with engine.mapdata's loader, adjacency is sound, the counts are the
published ones, and the geometry agrees with the adjacency.

Reads only our committed JSON (see helpers.py), never DPjudge's files.
"""

from __future__ import annotations

import re
from itertools import combinations

import cvd
import mapchecks
import pytest

from engine.mapdata import province_of
from engine.names import name_index
from engine.phase import Phase
from tests.variants.helpers import NAMES, VARIANTS_DIR, load

WITH_GEOMETRY = ("ancmed", "modern", "youngstown", "1900")

# Per variant: provinces (impassable places not counted), supply centres, home centres, powers, centres
# to win, first phase. Where the numbers come from:
# - ancmed: Ancient Mediterranean, 5 powers with 3 home centres each, 34 centres, 18 to win;
# - modern: Modern Diplomacy, 10 powers, 64 centres (Russia 5 homes; Egypt, Poland, Spain 3; the
#   others 4: 38 homes), 33 to win, first phase Spring 1995;
# - youngstown: 10 powers, 72 centres (Russia 6 homes; China, India, Japan 3; the others 4: 39), 37 to
#   win (DPjudge's rule when a map names no target: a majority of the centres); 180 provinces counting
#   the 12 off-board ones;
# - 1900: Diplomacy 1900, 7 powers, "Eighteen centers to win" (the .map's comment); 39 centres: 23
#   homes, 14 neutral, and Egypt and Algeria, owned by Britain and France at the start but no homes;
# - chaos: the Standard board, 34 powers with one home centre each: 34 centres, all homes, 18 to win,
#   starting with Winter 1900 builds;
# - fleetrome: the Standard numbers (75 provinces, 34 centres, 22 homes, 7 powers, 18 to win).
COUNTS = {
    "ancmed": (79, 34, 15, 5, 18, "S0001M"),
    "modern": (141, 64, 38, 10, 33, "S1995M"),
    "youngstown": (180, 72, 39, 10, 37, "S1901M"),
    "1900": (90, 39, 23, 7, 18, "S1900M"),
    "chaos": (75, 34, 34, 34, 18, "W1900A"),
    "fleetrome": (75, 34, 22, 7, 18, "S1901M"),
}
HOMES_PER_POWER = {
    "ancmed": {"CARTHAGE": 3, "EGYPT": 3, "GREECE": 3, "PERSIA": 3, "ROME": 3},
    "modern": {
        "BRITAIN": 4,
        "EGYPT": 3,
        "FRANCE": 4,
        "GERMANY": 4,
        "ITALY": 4,
        "POLAND": 3,
        "RUSSIA": 5,
        "SPAIN": 3,
        "TURKEY": 4,
        "UKRAINE": 4,
    },
    "youngstown": {
        "AUSTRIA": 4,
        "CHINA": 3,
        "ENGLAND": 4,
        "FRANCE": 4,
        "GERMANY": 4,
        "INDIA": 3,
        "ITALY": 4,
        "JAPAN": 3,
        "RUSSIA": 6,
        "TURKEY": 4,
    },
    "1900": {"AUSTRIA": 3, "BRITAIN": 3, "FRANCE": 3, "GERMANY": 4, "ITALY": 3, "RUSSIA": 4, "TURKEY": 3},
}
IMPASSABLE = {
    "ancmed": set(),
    "modern": set(),  # Switzerland is an ordinary province (and a centre) in Modern
    "youngstown": {"ACI", "CAS", "HIM", "SWI"},  # Arctic Circle, Caspian Sea, Himalayas, Switzerland
    "1900": set(),  # Switzerland is an ordinary province (and a centre) in 1900
}
SPLIT_COASTS = {
    "ancmed": {},
    "modern": {"IRN": ("NC", "SC")},
    "youngstown": {
        "BUL": ("EC", "SC"),
        "EGY": ("EC", "NC"),
        "JOR": ("NC", "WC"),
        "NEJ": ("EC", "WC"),
        "SPA": ("NC", "SC"),
        "STP": ("NC", "SC"),
        "THA": ("EC", "WC"),
    },
    "1900": {"MAC": ("EC", "WC"), "SPA": ("EC", "NC", "WC"), "STP": ("NC", "SC")},
}

OFF_BOARD = [f"OB{c}" for c in "ABCDEFGHIJKL"]

# Where the picture and the adjacency disagree, and why. Each pair is (a, b) sorted.
# "apart": neighbours on the map whose provinces do not touch on the picture;
# "touching": provinces that touch on the picture but are not neighbours.
BORDER_EXCEPTIONS: dict[str, dict[str, set[tuple[str, str]]]] = {
    "ancmed": {
        "apart": {
            ("ALE", "SIN"),  # the Nile delta, drawn as Thebes' coast on the Gulf of Pelusium, lies between
            ("AUS", "LIB"),  # four seas meet at one point: Ausonian, Libyan, Gulf of Tacape, Messenian
            ("GOT", "MES"),  # ... and the other diagonal of that point
            ("COR", "SAD"),  # the strait of Bonifacio (an arrow on DPjudge's drawing)
            ("MAU", "SAG"),  # the strait of Gibraltar (an arrow on the drawing)
            ("NEA", "SIC"),  # the strait of Messina (an arrow on the drawing)
        },
        "touching": set(),
    },
    "modern": {
        "apart": {
            ("ARA", "RED"),  # Arabian Sea and Red Sea meet off the map's lower edge (Bab-el-Mandeb)
            ("DEN", "SWE"),  # across the Sound, as on the Standard map
        },
        "touching": set(),
    },
    "youngstown": {
        "apart": {
            ("DEN", "SWE"),  # across the Sound, as on the Standard map
            # The off-board boxes link to each other round the back of the globe, off the picture.
            *{
                (min(p), max(p))
                for p in [
                    ("OBA", "OBB"),
                    ("OBA", "OBL"),
                    ("OBB", "OBC"),
                    ("OBB", "OBK"),
                    ("OBB", "OBL"),
                    ("OBC", "OBD"),
                    ("OBC", "OBH"),
                    ("OBC", "OBI"),
                    ("OBC", "OBJ"),
                    ("OBC", "OBK"),
                    ("OBD", "OBE"),
                    ("OBD", "OBF"),
                    ("OBD", "OBG"),
                    ("OBE", "OBG"),
                    ("OBF", "OBG"),
                    ("OBG", "OBH"),
                    ("OBH", "OBI"),
                    ("OBJ", "OBK"),
                    ("OBK", "OBL"),
                ]
            },
        },
        "touching": set(),
    },
    "1900": {
        "apart": {
            ("CLY", "IRE"),  # across the North Channel
            ("DEN", "SWE"),  # across the Sound, as on the Standard map
            ("EGY", "HEJ"),  # Sinai (Egypt's) and Hejaz meet at a point at the head of the Gulf of Aqaba
            ("EGY", "MAO"),  # Cape of Good Hope: round Africa, off the map
            ("HEJ", "MAO"),  # Cape of Good Hope
        },
        "touching": {
            ("BAL", "SKA"),  # the Kattegat is drawn open; by the rules Denmark and Sweden stand between
        },
    },
    # The Standard drawing (chaos and fleetrome use it): only the Sound.
    "standard": {"apart": {("DEN", "SWE")}, "touching": set()},
}


# Fleet moves between two land provinces that have no sea in common, and why.
INLAND_FLEET_MOVES = {
    "ancmed": {
        ("ALE", "MEM"),  # up the Nile: Alexandria, Memphis, Thebes and Bayuda are on the river
        ("MEM", "THB"),
        ("BAY", "MEM"),
        ("BAY", "THB"),
        ("SAG", "TAR"),  # along the coast inside the Baleares circle (a PORT, not a sea)
    },
    "modern": {("ROS", "VOL")},  # the Volga-Don canal
    "youngstown": {
        ("EAF", "OBG"),  # the off-board coast boxes: round Africa, off the picture
        ("MOR", "OBD"),
        ("OBD", "OBG"),
        ("OMS", "SIB"),  # along the Arctic coast, under the ice (the impassable Arctic Circle)
        ("OMS", "STP/NC"),
    },
}
# Coastal provinces (fleets may stand there) that touch no sea, and why.
COAST_WITHOUT_SEA = {
    "ancmed": {"BAY", "MEM"},  # on the Nile
    "youngstown": {"OMS"},  # on the Arctic coast, under the ice
}


# Names placed beside their province, in the sea next to it: the province is too small for its name
# and a unit (scripts/convert_variant.py moves such names off the unit).
LABELS_BESIDE = {
    # Names placed just beside their province, in the sea or on its border, where the province is too
    # small for its name next to its unit, the unit's letter badge and its supply centre's marker
    # (scripts/convert_variant.py free_labels; mapchecks.label_cover).
    "ancmed": {"CRE", "CYP"},  # Crete: a thin island; Cyprus: an island with a centre
    "modern": {"CLY", "MON"},  # Clyde; Monaco, a dot of a province with a centre
    # Suez: the canal, a thread of water; Albania, Belgium, Liverpool, Naples, Trieste and Venice: the
    # crowded coasts of Europe drawn small; Fuji: a sliver of Japan
    "youngstown": {"SUE", "ALB", "BEL", "FUJ", "LVP", "NAP", "TRI", "VEN"},
    "1900": {"LVP", "EDI", "NET", "TRI"},  # Liverpool, Edinburgh: narrow strips of Britain; likewise
}


def _pairs(pairs: set[frozenset[str]]) -> set[tuple[str, ...]]:
    return {tuple(sorted(p)) for p in pairs}


@pytest.mark.parametrize("name", NAMES)
def test_counts_are_the_published_ones(name: str) -> None:
    m = load(name).game_map
    provinces, centres, homes, powers, target, phase = COUNTS[name]
    assert len(m.provinces) == provinces
    assert len(m.supply_centers) == centres
    assert sum(len(h) for h in m.home_centers.values()) == homes
    assert len(m.powers) == powers
    assert m.victory_centers == target == load(name).variant["victory_centers"]
    assert m.start_phase == phase
    if name in HOMES_PER_POWER:
        assert {p: len(h) for p, h in m.home_centers.items()} == HOMES_PER_POWER[name]
    if name == "chaos":
        assert all(len(h) == 1 for h in m.home_centers.values())
        assert not any(m.start_units.values())  # everybody builds first, in Winter 1900


@pytest.mark.parametrize("name", NAMES)
def test_the_first_phase_reads(name: str) -> None:
    phase = Phase.parse(load(name).variant["start_phase"])
    assert phase == Phase.parse(load(name).game_map.start_phase)


@pytest.mark.parametrize("name", NAMES)
def test_adjacency_is_symmetric_and_lists_known_places_once(name: str) -> None:
    v = load(name)
    m = v.game_map
    for key, known in (("army_adjacency", set(m.provinces)), ("fleet_adjacency", m.locations)):
        pairs = [tuple(p) for p in v.raw_map[key]]
        assert all(a in known and b in known and a != b for a, b in pairs), key
        assert len({frozenset(p) for p in pairs}) == len(pairs), f"{key} repeats a border"
    for table in (m.army_adjacency, m.fleet_adjacency):
        for a, ns in table.items():
            for b in ns:
                assert a in table[b], (a, b)


@pytest.mark.parametrize("name", NAMES)
def test_armies_stay_on_land_and_fleets_on_coasts(name: str) -> None:
    m = load(name).game_map
    for a, ns in m.army_adjacency.items():
        for b in ns:
            assert not m.is_sea(a) and not m.is_sea(b), (a, b)
    seas_of = {
        loc: {province_of(n) for n in dests if m.is_sea(province_of(n))}
        for loc, dests in m.fleet_adjacency.items()
    }
    inland = set()
    for src, dests in m.fleet_adjacency.items():
        for dst in dests:
            a, b = province_of(src), province_of(dst)
            assert m.provinces[a].has_coast and m.provinces[b].has_coast, (src, dst)
            if not m.is_sea(a) and not m.is_sea(b) and not seas_of[src] & seas_of[dst]:
                inland.add(tuple(sorted((src, dst))))
    # Along a coast the two places have a sea in common, but for the listed rivers and canals.
    assert inland == INLAND_FLEET_MOVES.get(name, set())


@pytest.mark.parametrize("name", NAMES)
def test_every_coastal_province_touches_a_sea_and_inland_ones_do_not(name: str) -> None:
    m = load(name).game_map
    for p in m.provinces.values():
        if p.kind == "coast":
            seas = {province_of(n) for loc in p.locations for n in m.fleet_adjacency[loc]}
            assert any(m.is_sea(s) for s in seas) != (p.code in COAST_WITHOUT_SEA.get(name, set())), p.code
        if p.kind == "land":
            assert p.code not in m.fleet_adjacency


@pytest.mark.parametrize("name", NAMES)
def test_homes_and_start(name: str) -> None:
    v = load(name)
    m = v.game_map
    for power, homes in m.home_centers.items():
        for c in homes:
            prov = m.provinces[c]
            assert prov.supply_center and prov.home == power and prov.kind != "sea"
        assert sorted(v.variant["powers"][power]["home_centers"]) == sorted(homes)
    start = v.variant.get("start", {})
    units = start.get("units") or {p: list(us) for p, us in m.start_units.items()}
    centres = start.get("centers") or {p: list(cs) for p, cs in m.start_centers.items()}
    owned = [c for cs in centres.values() for c in cs]
    assert len(owned) == len(set(owned)) and set(owned) <= m.supply_centers
    for texts in units.values():
        for text in texts:
            kind, loc = text.split()
            prov = m.provinces[province_of(loc)]
            if kind == "F":  # on a coast, named where the province has several
                assert prov.has_coast and loc in prov.locations, text
            else:
                assert loc == prov.code and not prov.is_sea, text


@pytest.mark.parametrize("name", NAMES)
def test_province_names_and_aliases_name_one_province_each(name: str) -> None:
    # As the order parser reads them (engine/names.py): case, dots and accents folded.
    index = name_index(load(name).game_map)
    assert {words: codes for words, codes in index.exact.items() if len(codes) > 1} == {}


def test_fleet_rome_is_the_standard_game_with_a_fleet_in_rome() -> None:
    v = load("fleetrome")
    standard = load("fleetrome").game_map  # the Standard map itself ("map": "standard")
    assert v.variant["map"] == "standard" and v.variant["geometry"] == "standard"
    units = {p: sorted(us) for p, us in v.variant["start"]["units"].items()}
    expected = {p: sorted(us) for p, us in standard.start_units.items()}
    expected["ITALY"] = sorted(["F NAP", "F ROM", "A VEN"])
    assert units == expected
    assert {p: sorted(cs) for p, cs in v.variant["start"]["centers"].items()} == {
        p: sorted(cs) for p, cs in standard.start_centers.items()
    }


def test_chaos_is_the_standard_board_with_a_power_per_centre() -> None:
    chaos, standard = load("chaos"), load("fleetrome")  # fleetrome's map is data/variants/standard/map.json
    assert chaos.raw_map["army_adjacency"] == standard.raw_map["army_adjacency"]
    assert chaos.raw_map["fleet_adjacency"] == standard.raw_map["fleet_adjacency"]
    strip = [{k: v for k, v in p.items() if k != "home"} for p in chaos.raw_map["provinces"]]
    assert strip == [{k: v for k, v in p.items() if k != "home"} for p in standard.raw_map["provinces"]]
    assert chaos.variant["rules"] == {"build_anywhere": True}
    assert {c for h in chaos.game_map.home_centers.values() for c in h} == chaos.game_map.supply_centers


def test_rules_switches_are_named() -> None:
    assert load("ancmed").variant["rules"] == {"convoy_ports": ["BAL"]}
    rules_1900 = load("1900").variant["rules"]
    assert rules_1900["convoy_ports"] == ["GIB"]
    cape = rules_1900["cape_of_good_hope"]
    assert sorted(map(tuple, cape["crossings"])) == [("EGY", "MAO"), ("HEJ", "MAO")]
    m = load("1900").game_map
    # The Cape of Good Hope crossings are plain fleet adjacency in map.json (and no army's).
    assert m.fleet_can_move("EGY", "MAO") and m.fleet_can_move("MAO", "HEJ")
    assert "MAO" not in m.army_adjacency["EGY"]
    assert load("1900").variant["special_adjacencies"] == [
        {"between": ["EGY", "MAO"], "marks": "*"},
        {"between": ["HEJ", "MAO"], "marks": "*"},
    ]
    for name in ("modern", "youngstown", "fleetrome"):
        assert load(name).variant["rules"] == {}


def test_ports_and_fleet_only_crossings() -> None:
    anc = load("ancmed").game_map
    assert anc.provinces["BAL"].kind == "coast"
    for other in ("SAG", "TAR"):  # written 'Sag'/'Tar' in DPjudge's map: fleets only
        assert anc.fleet_can_move("BAL", other)
        assert other not in anc.army_adjacency["BAL"]
    assert load("1900").game_map.provinces["GIB"].kind == "coast"


@pytest.mark.parametrize("name", WITH_GEOMETRY)
def test_split_coasts_and_impassable_places(name: str) -> None:
    v = load(name)
    split = {p.code: p.coasts for p in v.game_map.provinces.values() if p.coasts}
    assert split == SPLIT_COASTS[name]
    assert set(v.geometry["decoration"]["impassable"]) == IMPASSABLE[name]
    assert not IMPASSABLE[name] & set(v.game_map.provinces)


@pytest.mark.parametrize("name", [*WITH_GEOMETRY, "standard"])
def test_geometry_borders_agree_with_adjacency(name: str) -> None:
    v = load("fleetrome" if name == "standard" else name)
    apart, touching = mapchecks.border_mismatches(v.raw_map, v.geometry)
    assert _pairs(apart) == BORDER_EXCEPTIONS[name]["apart"]
    assert _pairs(touching) == BORDER_EXCEPTIONS[name]["touching"]


@pytest.mark.parametrize("name", [*WITH_GEOMETRY, "standard"])
def test_every_province_has_its_geometry(name: str) -> None:
    v = load("fleetrome" if name == "standard" else name)
    geo = v.geometry
    assert set(geo["provinces"]) == set(v.game_map.provinces)
    assert geo["width"] > 0 and geo["height"] > 0
    for code, shape in geo["provinces"].items():
        prov = v.game_map.provinces[code]
        assert shape["kind"] == prov.kind, code
        assert shape["polygons"] and all(len(ring) >= 3 for poly in shape["polygons"] for ring in poly), code
        assert mapchecks.point_in(shape["unit"], shape["polygons"]), f"{code}: unit anchor outside"
        beside = code in LABELS_BESIDE.get(name, set())
        assert mapchecks.point_in(shape["label"], shape["polygons"]) != beside, f"{code}: label in or out"
        assert set(shape.get("coasts", {})) == set(prov.coasts), code
        for coast, spot in shape.get("coasts", {}).items():
            assert mapchecks.point_in(spot, shape["polygons"]), f"{code}/{coast}: coast anchor outside"
        assert (shape["supply_center"] is not None) == prov.supply_center, code
        if shape["supply_center"] is not None:
            assert mapchecks.point_in(shape["supply_center"], shape["polygons"]), f"{code}: centre outside"
        for x, y in (shape["unit"], shape["label"]):
            assert 0 <= x <= geo["width"] and 0 <= y <= geo["height"], code
    for code, shape in geo["decoration"]["impassable"].items():
        assert shape["kind"] == "impassable" and shape["polygons"] and "label" in shape, code


@pytest.mark.parametrize("name", [*WITH_GEOMETRY, "standard"])
def test_no_name_hides_under_its_own_unit(name: str) -> None:
    geo = load("fleetrome" if name == "standard" else name).geometry
    assert mapchecks.label_clashes(geo) == {}


@pytest.mark.parametrize("name", WITH_GEOMETRY)
def test_no_name_hides_under_any_unit_badge_or_centre(name: str) -> None:
    """Variants with many powers put a letter badge on every unit: no name of a converted map sits
    under any unit icon, badge or supply-centre marker (the Standard drawing, made by hand, has a few
    corners of names under badges: ALB, APU, CLY, HOL, WAL, listed here so a new one shows)."""
    assert mapchecks.label_cover(load(name).geometry) == {}
    standard = mapchecks.label_cover(load("fleetrome").geometry)
    assert set(standard) == {"ALB", "APU", "CLY", "HOL", "WAL"}


# --- colours -------------------------------------------------------------------------------------------

MIN_DISTANCE = 7.5  # CIEDE2000 under every simulated vision; the classic seven are 8.0 apart at worst


@pytest.mark.parametrize("name", NAMES)
def test_powers_have_a_name_a_letter_and_a_colour(name: str) -> None:
    v = load(name)
    powers = v.variant["powers"]
    assert list(powers) == list(v.game_map.powers)
    letters = [p["letter"] for p in powers.values()]
    assert all(len(letter) == 1 for letter in letters) and len(set(letters)) == len(letters)
    for p in powers.values():
        assert re.fullmatch(r"#[0-9A-F]{6}", p["colour"]), p
        assert p["name"] and p["adjective"]
        # the colour-blind palette's own colours, when given: a unit colour, perhaps a fill and an ink
        colorblind = p.get("colorblind", {"colour": p["colour"]})
        assert "colour" in colorblind and set(colorblind) <= {"colour", "fill", "ink"}, p
        for look in (p, colorblind):
            for key in ("colour", "fill", "ink"):
                assert key not in look or re.fullmatch(r"#[0-9A-F]{6}", look[key]), p


def colour_blind_colours(name: str) -> dict[str, str]:
    """Each power's unit colour in the colour-blind palette: its own there, else its colour."""
    powers = load(name).variant["powers"]
    return {p: info.get("colorblind", info)["colour"] for p, info in powers.items()}


@pytest.mark.parametrize("name", [n for n in NAMES if n != "chaos"])
def test_power_colours_stay_apart_for_colour_blind_eyes(name: str) -> None:
    colours = colour_blind_colours(name)
    assert len(set(colours.values())) == len(colours)
    distance, vision, a, b = cvd.worst_pair(colours)
    assert distance >= MIN_DISTANCE, f"{a} and {b} look alike ({vision}: {distance:.1f})"


def test_chaos_neighbours_never_share_a_colour() -> None:
    v = load("chaos")
    m = v.game_map
    near = {c: {province_of(n) for n in m.army_adjacency.get(c, set())} for c in m.provinces}
    for loc, dests in m.fleet_adjacency.items():
        near[province_of(loc)] |= {province_of(d) for d in dests}
    home = {p: h[0] for p, h in m.home_centers.items()}
    colour = colour_blind_colours("chaos")
    for a, b in combinations(sorted(home), 2):
        ha, hb = home[a], home[b]
        two_moves = hb in near[ha] or any(hb in near[n] for n in near[ha])
        if two_moves:
            assert colour[a] != colour[b], (a, b)
    palette = sorted(set(colour.values()))
    distance, vision, a, b = cvd.worst_pair({c: c for c in palette})
    assert distance >= MIN_DISTANCE, f"colours {a} and {b} look alike ({vision})"


@pytest.mark.parametrize("name", NAMES)
def test_each_folder_ships_its_attribution(name: str) -> None:
    notice = (VARIANTS_DIR / name / "NOTICE.txt").read_text(encoding="utf-8")
    assert "Copyright 2017 Manus Hand" in notice and "Permission is hereby granted" in notice
    assert f"maps/{load(name).variant['source']['map'].split('/')[-1]}" in notice
