"""The map's geometry (data/variants/<name>/geometry.json), loaded once per process.

Coordinates are map units: x to the right, y down, origin at the map's top-left corner; the Standard
map is 628 x 551 units. :class:`Layout` (render/layout.py) turns them into pixels.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import NotRequired, TypedDict

from engine.mapdata import coast_of, province_of
from engine.variants import geometry_file

DATA_DIR = Path(__file__).resolve().parent.parent / "data"

Point = tuple[float, float]
Ring = tuple[Point, ...]
Polygon = tuple[Ring, ...]  # exterior ring first, then holes


@dataclass(frozen=True, slots=True)
class ProvinceShape:
    code: str
    kind: str  # 'sea', 'coast', 'land' or 'impassable'
    unit: Point  # where a unit stands (armies, and fleets outside split-coast provinces)
    coasts: dict[str, Point]  # 'NC' -> where a fleet on that coast stands
    supply_center: Point | None
    label: Point  # center of the province's name, placed clear of units and the center marker
    polygons: tuple[Polygon, ...]


@dataclass(frozen=True, slots=True)
class MapGeometry:
    width: float
    height: float
    provinces: dict[str, ProvinceShape]
    impassable: dict[str, ProvinceShape]  # Switzerland: drawn, labelled, never entered
    islands: tuple[Polygon, ...]
    lakes: tuple[Polygon, ...]
    water: tuple[Polygon, ...]  # inland water that belongs to no sea (Marmara, round Zealand)
    coast_lines: tuple[tuple[Point, ...], ...]
    land_lines: tuple[tuple[Point, ...], ...]
    sea_lines: tuple[tuple[Point, ...], ...]

    def anchor(self, location: str) -> Point:
        """Where a unit at ``location`` is drawn: the coast's own spot for ``STP/SC``."""
        shape = self.provinces[province_of(location)]
        coast = coast_of(location)
        if coast is not None and coast in shape.coasts:
            return shape.coasts[coast]
        return shape.unit

    def has(self, location: str) -> bool:
        return province_of(location) in self.provinces

    def contains(self, province: str, p: Point) -> bool:
        """Whether the point lies in the province (even-odd rule, holes excluded)."""
        shape = self.provinces.get(province)
        if shape is None:
            return False
        return any(
            _inside(p, poly[0]) and not any(_inside(p, hole) for hole in poly[1:]) for poly in shape.polygons
        )


def _inside(p: Point, ring: Ring) -> bool:
    x, y = p
    hit = False
    n = len(ring)
    for i in range(n):
        (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


# --- the file's JSON -------------------------------------------------------------------------------

PointJSON = list[float]  # [x, y]
PolygonJSON = list[list[PointJSON]]  # rings: the exterior first, then holes
LineJSON = list[PointJSON]


class ShapeJSON(TypedDict):
    kind: str
    unit: NotRequired[PointJSON]  # none: the label's spot
    coasts: NotRequired[dict[str, PointJSON]]
    supply_center: NotRequired[PointJSON | None]
    label: PointJSON
    polygons: list[PolygonJSON]


class DecorationJSON(TypedDict):
    impassable: dict[str, ShapeJSON]
    islands: list[PolygonJSON]
    lakes: list[PolygonJSON]
    water: list[PolygonJSON]


class LinesJSON(TypedDict):
    coast: list[LineJSON]
    land: list[LineJSON]
    sea: list[LineJSON]


class GeometryJSON(TypedDict):
    """data/variants/<name>/geometry.json, as json.loads reads it (written by scripts/convert_map.py)."""

    format: str
    map: str
    notice: str
    units: str
    width: float
    height: float
    provinces: dict[str, ShapeJSON]
    decoration: DecorationJSON
    lines: LinesJSON


def _point(p: PointJSON) -> Point:
    return (float(p[0]), float(p[1]))


def _polygons(raw: list[PolygonJSON]) -> tuple[Polygon, ...]:
    return tuple(tuple(tuple(_point(p) for p in ring) for ring in poly) for poly in raw)


def _shape(code: str, raw: ShapeJSON) -> ProvinceShape:
    label = _point(raw["label"])
    center = raw.get("supply_center")
    return ProvinceShape(
        code=code,
        kind=raw["kind"],
        unit=_point(raw["unit"]) if "unit" in raw else label,
        coasts={c: _point(p) for c, p in raw.get("coasts", {}).items()},
        supply_center=_point(center) if center else None,
        label=label,
        polygons=_polygons(raw["polygons"]),
    )


@cache
def load_geometry(name: str = "standard") -> MapGeometry:
    """Read (once) the geometry that draws map ``name`` (engine.variants.geometry_file: its variant
    folder's geometry.json, or the one it borrows)."""
    path = geometry_file(name)
    if not path.is_file():
        raise ValueError(f"no geometry for map {name!r}: {path} is missing")
    return geometry_from_json(json.loads(path.read_text(encoding="utf-8")))


def geometry_from_json(raw: GeometryJSON) -> MapGeometry:
    """A geometry document (data/variants/standard/geometry.json's schema) as a :class:`MapGeometry`."""
    deco = raw["decoration"]
    lines = raw["lines"]
    return MapGeometry(
        width=float(raw["width"]),
        height=float(raw["height"]),
        provinces={code: _shape(code, p) for code, p in raw["provinces"].items()},
        impassable={code: _shape(code, p) for code, p in deco["impassable"].items()},
        islands=_polygons(deco["islands"]),
        lakes=_polygons(deco["lakes"]),
        water=_polygons(deco["water"]),
        coast_lines=tuple(tuple(_point(p) for p in ln) for ln in lines["coast"]),
        land_lines=tuple(tuple(_point(p) for p in ln) for ln in lines["land"]),
        sea_lines=tuple(tuple(_point(p) for p in ln) for ln in lines["sea"]),
    )
