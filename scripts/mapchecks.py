"""Checks of a map's facts against its geometry, standard library only.

Used by the variant tests (tests/variants) on our committed JSON, and by scripts/convert_variant.py to
report what it made. Both files are in our own schemas: map facts like
data/variants/standard/map.json, geometry like data/variants/standard/geometry.json.

Neighbouring provinces share their border point for point (scripts/convert_map.py smooths each border
once and builds both faces from it), so two provinces touch where their rings have edges in common.
"""

from __future__ import annotations

import math
from collections import defaultdict

MIN_BORDER = 0.5  # map units of common edge that make two provinces neighbours on the picture
# Sizes in map units: a name's box (scripts/convert_map.py, render/layout.py LABEL_SIZE) and the half
# sizes of the unit icons (render/layout.py).
LABEL_W_PER_CHAR, LABEL_H = 4.2, 5.4
FLEET_HALF, ARMY_HALF = (7.4, 4.9), (5.3, 5.3)
CLASH = 1.0  # square units of a name under its own unit's icon that count as hidden


def _edges(polygons: list) -> dict[frozenset, float]:
    out = {}
    for poly in polygons:
        for ring in poly:
            n = len(ring)
            for i in range(n):
                a, b = tuple(ring[i]), tuple(ring[(i + 1) % n])
                if a != b:
                    out[frozenset((a, b))] = math.dist(a, b)
    return out


def drawn_borders(geometry: dict, min_length: float = MIN_BORDER) -> dict[frozenset, float]:
    """Pairs of places (provinces and impassable ones) whose outlines share at least ``min_length``."""
    shapes = {**geometry["provinces"], **geometry["decoration"]["impassable"]}
    owners: dict[frozenset, list[str]] = defaultdict(list)
    length: dict[frozenset, float] = {}
    for code, shape in shapes.items():
        for edge, d in _edges(shape["polygons"]).items():
            owners[edge].append(code)
            length[edge] = d
    shared: dict[frozenset, float] = defaultdict(float)
    for edge, codes in owners.items():
        for i, a in enumerate(codes):
            for b in codes[i + 1 :]:
                if a != b:
                    shared[frozenset((a, b))] += length[edge]
    return {pair: d for pair, d in shared.items() if d >= min_length}


def map_neighbours(game_map: dict) -> set[frozenset]:
    """Pairs of provinces a unit can move between (army or fleet, whatever the coast)."""
    pairs = set()
    for a, b in game_map["army_adjacency"]:
        pairs.add(frozenset((a, b)))
    for a, b in game_map["fleet_adjacency"]:
        pairs.add(frozenset((a.split("/")[0], b.split("/")[0])))
    return pairs


def border_mismatches(game_map: dict, geometry: dict) -> tuple[set[frozenset], set[frozenset]]:
    """(neighbours on the map that do not touch on the picture, provinces that touch but are no
    neighbours). Impassable places are left out of both."""
    impassable = set(geometry["decoration"]["impassable"])
    drawn = {p for p in drawn_borders(geometry) if not p & impassable}
    adjacent = map_neighbours(game_map)
    return adjacent - drawn, drawn - adjacent


def point_in(p: tuple[float, float], polygons: list) -> bool:
    """Whether ``p`` lies inside the polygons (even-odd: holes excluded)."""
    x, y = p
    for poly in polygons:
        inside = False
        for ring in poly:
            n = len(ring)
            for i in range(n):
                (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
                if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                    inside = not inside
        if inside:
            return True
    return False


Box = tuple[float, float, float, float]


def label_box(code: str, x: float, y: float) -> Box:
    """The box a province's name covers, centred on its label point."""
    w, h = LABEL_W_PER_CHAR * len(code) + 1.0, LABEL_H
    return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)


def spot_boxes(geometry: dict) -> dict[str, list[Box]]:
    """Province -> the boxes its units' icons cover: at its unit spot (a fleet's where fleets may go)
    and at each coast spot."""
    out = {}
    for code, shape in geometry["provinces"].items():
        spots = [(shape["unit"], FLEET_HALF if shape["kind"] != "land" else ARMY_HALF)]
        spots += [(p, FLEET_HALF) for p in shape.get("coasts", {}).values()]
        out[code] = [(x - hw, y - hh, x + hw, y + hh) for (x, y), (hw, hh) in spots]
    return out


def overlap(a: Box, b: Box) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def label_clashes(geometry: dict, threshold: float = CLASH) -> dict[str, float]:
    """Province -> how much of its name its own unit icons cover (square units), above ``threshold``."""
    spots = spot_boxes(geometry)
    out = {}
    for code, shape in geometry["provinces"].items():
        area = sum(overlap(label_box(code, *shape["label"]), s) for s in spots[code])
        if area > threshold:
            out[code] = area
    return out
