"""The map geometry (data/variants/standard/geometry.json) against the map's rules
(data/variants/standard/map.json)."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest

from engine.mapdata import load_map, province_of
from render import layout as L
from render.geometry import load_geometry
from render.layout import Layout
from render.text import CONDENSED_BOLD, font
from tests.render.pixels import in_province

# Denmark and Sweden touch by rule across the Sound; the drawing leaves water between them.
ADJACENT_BY_RULE = {frozenset(("DEN", "SWE"))}


def _edges(code: str) -> set[frozenset[tuple[float, float]]]:
    edges = set()
    for poly in load_geometry().provinces[code].polygons:
        for ring in poly:
            for a, b in pairwise([*ring, ring[0]]):
                if a != b:
                    edges.add(frozenset((a, b)))
    return edges


def _border_length(shared: set[frozenset[tuple[float, float]]]) -> float:
    return sum(math.dist(*tuple(e)) for e in shared)


def test_provinces_are_those_of_the_map_data() -> None:
    assert set(load_geometry().provinces) == set(load_map().provinces)


def test_borders_agree_with_adjacency() -> None:
    """Two provinces share a drawn border exactly when a unit can cross between them."""
    game_map = load_map()
    expected = {
        frozenset((province_of(a), province_of(b)))
        for src, dests in (*game_map.army_adjacency.items(), *game_map.fleet_adjacency.items())
        for a, b in ((src, d) for d in dests)
    }
    codes = sorted(load_geometry().provinces)
    edges = {code: _edges(code) for code in codes}
    drawn = {
        frozenset((a, b))
        for i, a in enumerate(codes)
        for b in codes[i + 1 :]
        if _border_length(edges[a] & edges[b]) >= 0.5
    }
    assert drawn - expected == set(), "borders drawn between provinces that are not adjacent"
    assert expected - drawn == ADJACENT_BY_RULE


def test_every_spot_lies_inside_its_province() -> None:
    geo = load_geometry()
    for code, shape in geo.provinces.items():
        assert in_province(shape.unit, code), code
        assert in_province(shape.label, code), code
        for coast, spot in shape.coasts.items():
            assert in_province(spot, code), f"{code}/{coast}"
        if shape.supply_center:
            assert in_province(shape.supply_center, code), code


def test_supply_centers_and_coasts_match_the_map_data() -> None:
    geo, game_map = load_geometry(), load_map()
    assert {c for c, s in geo.provinces.items() if s.supply_center} == set(game_map.supply_centers)
    for code, prov in game_map.provinces.items():
        assert set(geo.provinces[code].coasts) == set(prov.coasts), code


def test_split_coast_spots_are_on_their_own_sides() -> None:
    geo = load_geometry()
    stp, spa, bul = geo.provinces["STP"].coasts, geo.provinces["SPA"].coasts, geo.provinces["BUL"].coasts
    assert stp["NC"][1] < stp["SC"][1]  # y grows downwards
    assert spa["NC"][1] < spa["SC"][1]
    assert bul["EC"][0] > bul["SC"][0]


@pytest.mark.parametrize("width", [800, 1600])
def test_names_never_sit_under_a_unit(width: int) -> None:
    """Each name's box (as drawn) keeps clear of the army or fleet standing in its province."""
    geo = load_geometry()
    lay = Layout.for_width(width, geo)
    f = font(round(lay.size(L.LABEL_SIZE)), CONDENSED_BOLD)
    half_w = lay.size(L.FLEET_HALF_WIDTH) + 1
    half_h = lay.size(L.FLEET_HALF_HEIGHT) + 1
    army_r = lay.size(L.ARMY_RADIUS) + 1
    for code, shape in geo.provinces.items():
        x, y = lay.px(shape.label)
        left, top, right, bottom = f.getbbox(code, anchor="mm")
        box = (x + left, y + top, x + right, y + bottom)
        spots = [shape.unit, *shape.coasts.values()]
        for spot in spots:
            ux, uy = lay.px(spot)
            fleet_box = (ux - half_w, uy - half_h, ux + half_w, uy + half_h)
            army_box = (ux - army_r, uy - army_r, ux + army_r, uy + army_r)
            for unit_box in (fleet_box, army_box) if shape.kind != "land" else (army_box,):
                overlap_x = min(box[2], unit_box[2]) - max(box[0], unit_box[0])
                overlap_y = min(box[3], unit_box[3]) - max(box[1], unit_box[1])
                assert overlap_x <= 0 or overlap_y <= 0, f"{code}'s name is under a unit at {spot}"
