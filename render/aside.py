"""Where a dislodged unit is set aside: beside the unit that took its place, clear of what is drawn.

A dislodged unit shares its province with the unit that dislodged it, so it is drawn beside it,
pushed away from where the attack came from. Spots round the province's spot are tried, and each is
scored by what the unit and its badge would cover there (all in map units):

* a province's name (its box as drawn, halo included), another unit, or the map's edge: ruled out
  whenever some spot avoids them all;
* leaving the province, or hiding a supply-center marker: avoided if possible;
* turning away from the attack's direction, and going further out: a little each.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from engine.mapdata import province_of
from render import layout as L
from render.geometry import MapGeometry, Point, load_geometry
from render.text import CONDENSED_BOLD, font

Box = tuple[float, float, float, float]  # left, top, right, bottom (map units)


@dataclass(frozen=True, slots=True)
class Blob:
    """A unit, badge or center marker: a round shape, or a fleet's stadium (a horizontal segment
    from ``x0`` to ``x1`` at ``y``, thickened by ``r``)."""

    x0: float
    x1: float
    y: float
    r: float

    def depth_in_blob(self, other: Blob) -> float:
        """How deep the two overlap (0 or less: they do not)."""
        dx = max(0.0, max(self.x0, other.x0) - min(self.x1, other.x1))
        return self.r + other.r - math.hypot(dx, self.y - other.y)

    def depth_in_box(self, box: Box) -> float:
        dx = max(0.0, box[0] - self.x1, self.x0 - box[2])
        dy = max(0.0, box[1] - self.y, self.y - box[3])
        return self.r - math.hypot(dx, dy)

    def box(self) -> Box:
        return (self.x0 - self.r, self.y - self.r, self.x1 + self.r, self.y + self.r)


NAME_SCALE = 10  # names are measured at 10 px per map unit, so the boxes do not depend on the width
EDGE = 0.6  # the unit's dark edge and some air
NEAR = 45.0  # what lies further than this from the province's spot cannot be covered
ANGLES = 16
REACH = (1.0, 1.25, 1.5, 1.8)  # times the usual distance from the province's spot
BLOCKED, OUTSIDE, ON_CENTER, TURN, FAR = 1000.0, 40.0, 12.0, 3.0, 4.0


@dataclass(frozen=True, slots=True)
class Obstacles:
    """What a dislodged unit must not cover (names, units) and had better not (center markers)."""

    names: tuple[Box, ...]
    units: tuple[Blob, ...]
    centers: tuple[Blob, ...]


def unit_blob(unit_type: str | None, at: Point) -> Blob:
    """An army's round token, or a fleet's (a stadium: its ends are half circles)."""
    if unit_type == "F":
        half = L.FLEET_HALF_WIDTH - L.FLEET_HALF_HEIGHT
        return Blob(at[0] - half, at[0] + half, at[1], L.FLEET_HALF_HEIGHT + EDGE)
    return Blob(at[0], at[0], at[1], L.ARMY_RADIUS + EDGE)


def footprint(unit_type: str | None, at: Point) -> tuple[Blob, Blob]:
    """What a dislodged unit covers: its body, and its badge ("!" or "-") at the upper right."""
    bx, by = L.badge_offset(unit_type)
    return unit_blob(unit_type, at), Blob(at[0] + bx, at[0] + bx, at[1] + by, L.BADGE_RADIUS + EDGE)


@cache
def name_boxes(map_name: str) -> dict[str, Box]:
    """Every province name's box as drawn (render/basemap.py), in map units."""
    geo = load_geometry(map_name)
    f = font(round(L.LABEL_SIZE * NAME_SCALE), CONDENSED_BOLD)
    halo = round(L.LABEL_HALO * NAME_SCALE)
    boxes = {}
    for code, shape in {**geo.provinces, **geo.impassable}.items():
        left, top, right, bottom = f.getbbox(code, anchor="mm", stroke_width=halo)
        x, y = shape.label
        k = NAME_SCALE
        boxes[code] = (x + left / k, y + top / k, x + right / k, y + bottom / k)
    return boxes


def obstacles(
    geo: MapGeometry, map_name: str, near: Point, units: Sequence[tuple[str | None, Point, bool]]
) -> Obstacles:
    """Names, units (type, where, dislodged) and center markers near ``near``."""
    names = tuple(
        box
        for box in name_boxes(map_name).values()
        if math.dist(near, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)) < NEAR
    )
    blobs: list[Blob] = []
    for unit_type, at, dislodged in units:
        if math.dist(near, at) < NEAR:
            blobs += footprint(unit_type, at) if dislodged else (unit_blob(unit_type, at),)
    spots = [s.supply_center for s in geo.provinces.values() if s.supply_center is not None]
    r = L.CENTER_RADIUS + 1.0
    centers = tuple(Blob(x, x, y, r) for x, y in spots if math.dist(near, (x, y)) < NEAR)
    return Obstacles(names, tuple(blobs), centers)


def set_aside(
    geo: MapGeometry,
    location: str,
    unit_type: str | None,
    attacker_from: str | None,
    around: Obstacles,
) -> Point:
    """Where (map units) the unit dislodged from ``location`` is drawn."""
    prov = province_of(location)
    ax, ay = geo.anchor(location)
    dx, dy = L.DISLODGED_OFFSET
    dist = math.hypot(dx, dy)
    base = math.atan2(dy, dx)
    if attacker_from and geo.has(attacker_from):
        fx, fy = geo.anchor(attacker_from)
        if (fx, fy) != (ax, ay):
            base = math.atan2(ay - fy, ax - fx)
    best, best_cost = (ax + dx, ay + dy), math.inf
    for k, reach in enumerate(REACH):
        for step in range(ANGLES):
            turn = (step + 1) // 2 * (1 if step % 2 else -1) * 2 * math.pi / ANGLES  # 0, +1, -1, +2, ...
            p = (ax + reach * dist * math.cos(base + turn), ay + reach * dist * math.sin(base + turn))
            cost = FAR * k + TURN * abs(turn) / (math.pi / 2)
            if cost >= best_cost:
                continue
            cost += _covering(geo, p, unit_type, around)
            if cost < best_cost:
                cost += _leaving(geo, prov, p, unit_type)
            if cost < best_cost:
                best, best_cost = p, cost
    return best


def _covering(geo: MapGeometry, p: Point, unit_type: str | None, around: Obstacles) -> float:
    cost = 0.0
    for part in footprint(unit_type, p):
        left, top, right, bottom = part.box()
        if left < 0 or top < 0 or right > geo.width or bottom > geo.height:
            cost += BLOCKED
        for depth in (
            *(part.depth_in_box(box) for box in around.names),
            *(part.depth_in_blob(blob) for blob in around.units),
        ):
            if depth > 0:
                cost += BLOCKED * (1 + depth)
        for blob in around.centers:
            depth = part.depth_in_blob(blob)
            if depth > 0:
                cost += ON_CENTER * (1 + depth)
    return cost


def _leaving(geo: MapGeometry, prov: str, p: Point, unit_type: str | None) -> float:
    """Leaving the province: the unit's center (fully), or parts of its body (a quarter each)."""
    if not geo.contains(prov, p):
        return OUTSIDE * 2
    left, top, right, bottom = unit_blob(unit_type, p).box()
    rim = [(p[0] + (x - p[0]) * 0.7, p[1] + (y - p[1]) * 0.7) for x in (left, right) for y in (top, bottom)]
    return OUTSIDE / 4 * sum(not geo.contains(prov, q) for q in rim)
