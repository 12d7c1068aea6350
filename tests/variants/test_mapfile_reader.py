"""The reader of DPjudge .map files (scripts/mapfile_reader.py), on a small map written here and, when
DPjudge's files are at hand (``SOURCE``: they are not part of the repository), on the Standard map:
its result must be our data/variants/standard/map.json."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import mapfile_reader as reader
import pytest

from engine.mapdata import DATA_DIR

ROOT = DATA_DIR.parent
SOURCE = ROOT.parent / "shared" / "maps" / "dpjudge"
needs_source = pytest.mark.skipif(
    not (SOURCE / "standard.map").is_file(),
    reason=f"DPjudge's map files are not at {SOURCE} (not part of the repository): nothing to convert",
)


def _pairs(pairs: Iterable[Iterable[str]]) -> set[tuple[str, ...]]:
    return {tuple(sorted(p)) for p in pairs}


@needs_source
def test_the_standard_map_converts_to_our_standard_facts() -> None:
    ours = json.loads((DATA_DIR / "variants" / "standard" / "map.json").read_text(encoding="utf-8"))
    dp = reader.read_map(SOURCE / "standard.map")
    made = reader.map_document(dp, "standard", "Standard", "")
    assert _pairs(made["army_adjacency"]) == _pairs(ours["army_adjacency"])
    assert _pairs(made["fleet_adjacency"]) == _pairs(ours["fleet_adjacency"])
    army, fleet = reader.directed_adjacency(dp)
    assert reader.one_way(army) == [] and reader.one_way(fleet) == []

    def facts(doc: dict) -> dict:
        return {
            p["code"]: (p["kind"], p["supply_center"], p["home"], tuple(p["coasts"]))
            for p in doc["provinces"]
        }

    assert facts(made) == facts(ours)  # provinces, their kinds, centres, homes and coasts
    assert made["powers"] == ours["powers"]
    assert made["victory_centers"] == ours["victory_centers"] == 18
    assert made["start"]["phase"] == ours["start"]["phase"]
    for key in ("units", "centers"):
        assert {p: sorted(v) for p, v in made["start"][key].items()} == {
            p: sorted(v) for p, v in ours["start"][key].items()
        }


@needs_source
@pytest.mark.parametrize("name", ["ancmed", "modern", "youngstown", "1900", "chaos"])
def test_the_committed_facts_are_what_the_converter_makes(name: str) -> None:
    """data/variants/<name>/map.json is up to date with DPjudge's map (re-run the converter if not)."""
    committed = json.loads((DATA_DIR / "variants" / name / "map.json").read_text(encoding="utf-8"))
    made = reader.map_document(
        reader.read_map(SOURCE / f"{name}.map"), name, committed["title"], committed["note"]
    )
    assert _pairs(made["army_adjacency"]) == _pairs(committed["army_adjacency"])
    assert _pairs(made["fleet_adjacency"]) == _pairs(committed["fleet_adjacency"])
    for key in ("powers", "victory_centers", "start"):
        assert made[key] == committed[key], key
    homes = {p["code"]: (p["kind"], p["supply_center"], p["home"]) for p in made["provinces"]}
    assert homes == {p["code"]: (p["kind"], p["supply_center"], p["home"]) for p in committed["provinces"]}


@needs_source
def test_fleet_rome_differs_from_the_standard_map_by_one_unit() -> None:
    fleet_rome = reader.map_document(reader.read_map(SOURCE / "fleetrome.map"), "fleetrome", "", "")
    standard = reader.map_document(reader.read_map(SOURCE / "standard.map"), "standard", "", "")
    assert fleet_rome["provinces"] == standard["provinces"]
    assert fleet_rome["army_adjacency"] == standard["army_adjacency"]
    changed = {
        p for p in standard["powers"] if fleet_rome["start"]["units"][p] != standard["start"]["units"][p]
    }
    assert changed == {"ITALY"}
    assert sorted(fleet_rome["start"]["units"]["ITALY"]) == ["A VEN", "F NAP", "F ROM"]


# --- the reader on a small map -------------------------------------------------------------------------

# A made-up three-province island and its two seas, kept as data here and written out in the reader's
# input format only inside the test's temporary folder (no map file of DPjudge's is in the repository).
SMALL_POWER = [("ALPHA (ALPHAN:X) AAA", ["F AAA", "A BBB"]), ("ALPHA", ["A AAA"])]
SMALL_CENTRES = ["CCC"]
SMALL_START = ("WINTER", 1900, "ADJUSTMENTS")
SMALL_PLACES = [  # terrain, place, what it touches (lower case: armies only; Capitalised: fleets only)
    ("WATER", "SEA", "AAA CCC/NC Sou"),
    ("WATER", "SOU", "Sea CCC/SC BBB"),
    ("COAST", "AAA", "SEA bbb ccc"),
    ("LAND", "BBB", "aaa ccc"),
    ("COAST", "CCC/NC", "SEA"),
    ("COAST", "CCC/SC", "SOU"),
    ("COAST", "ccc", "SEA SOU aaa bbb"),
]
SMALL_NAMES = [  # full name, code and aliases ("+": a space, "?": too ambiguous to keep)
    ("North Sea", "sea north+sea"),
    ("South Sea", "sou"),
    ("Alpha", "aaa"),
    ("Beta", "bbb"),
    ("Gamma (north coast)", "ccc/nc"),
    ("Gamma (south coast)", "ccc/sc"),
    ("Gamma", "ccc gam? gamma+land"),
]


def write_small_map(folder: Path) -> Path:
    """The small map in the reader's input format: a main file that includes a names file."""
    (folder / "small.names").write_text(
        "".join(f"{name} = {codes}\n" for name, codes in SMALL_NAMES), encoding="latin-1"
    )
    lines = ["# a three-province island and its seas", "USE small.names"]
    for header, units in SMALL_POWER:
        lines += [header, *units]
    lines.append("UNOWNED " + " ".join(SMALL_CENTRES))
    lines.append("BEGIN {} {} {}".format(*SMALL_START))
    lines += [f"{terrain} {place} ABUTS {touches}" for terrain, place, touches in SMALL_PLACES]
    path = folder / "small.map"
    path.write_text("\n".join(lines) + "\n", encoding="latin-1")
    return path


def test_the_reader_follows_dpjudges_rules(tmp_path: Path) -> None:
    dp = reader.read_map(write_small_map(tmp_path))
    doc = reader.map_document(dp, "small", "Small", "")
    kinds = {p["code"]: p["kind"] for p in doc["provinces"]}
    assert kinds == {"SEA": "sea", "SOU": "sea", "AAA": "coast", "CCC": "coast", "BBB": "land"}
    # lower case: armies only; upper case: whoever the terrain lets through; coasts name the fleet's place
    assert _pairs(doc["army_adjacency"]) == {("AAA", "BBB"), ("AAA", "CCC"), ("BBB", "CCC")}
    assert _pairs(doc["fleet_adjacency"]) == {
        ("AAA", "SEA"),
        ("CCC/NC", "SEA"),
        ("CCC/SC", "SOU"),
        ("SEA", "SOU"),
    }
    # "Sou" / "Sea" (capitalised) would be fleets only; "BBB" (upper case) for a fleet into land: nobody
    sb = dp.places["SOU"].abuts
    assert [(a.target, a.army, a.fleet) for a in sb] == [
        ("SEA", False, True),
        ("CCC/SC", True, True),
        ("BBB", True, True),
    ]
    by_code = {p["code"]: p for p in doc["provinces"]}
    assert by_code["CCC"]["coasts"] == ["NC", "SC"] and by_code["CCC"]["supply_center"]
    assert by_code["CCC"]["aliases"] == ["Gamma Land"]  # "gam?" is too ambiguous to keep
    assert by_code["SEA"]["name"] == "North Sea" and by_code["SEA"]["aliases"] == []  # no repeats
    # A unit replaces any unit already in its province, whoever it belongs to.
    assert doc["start"] == {
        "phase": "W1900A",
        "units": {"ALPHA": ["A BBB", "A AAA"]},
        "centers": {"ALPHA": ["AAA"]},
    }
    assert doc["powers"] == ["ALPHA"] and dp.powers["ALPHA"].letter == "X"
    assert doc["victory_centers"] == 2  # no VICTORY line: a majority of the 2 centres
