"""Convert the DPjudge Standard map PostScript into our own geometry file
(data/variants/standard/geometry.json).

Build-time only: needs shapely (requirements-dev.txt); the renderer reads the JSON with the standard
library. Run from the repository root::

    .venv/bin/python scripts/convert_map.py                     # writes data/variants/standard/geometry.json
    .venv/bin/python scripts/convert_map.py --source PATH --out PATH --no-smooth

What the source (DPjudge's ``maps/standard.ps``: github.com/serrasqueiro/dpjudge, MIT; ``--source``,
default ``DEFAULT_SOURCE``, outside the repository) holds: polylines with integer coordinates in a
628 x 551 frame (x 22..650, y 25..576, y up) drawn by /OutlineChart* procedures -- coastline rings,
island rings, lake rings, Switzerland, and open polylines for the borders between provinces -- plus a
table of unit anchors (/VisitTerritories) and of supply-centre dots (/VisitSupplies).

The steps, in order:

1. read the polylines and the two tables;
2. close the small gaps the drawing leaves (an open border that stops short of a coast by up to
   ``GAP_TOLERANCE`` units is extended to it; the Strait of Messina, drawn as open water, gets the
   one connector it needs to part the Ionian from the Tyrrhenian Sea);
3. node all lines and polygonize them into faces;
4. name every face by the unit anchor inside it, or by the supply-centre dot inside it (the Thracian
   half of Constantinople and Denmark's Zealand hold only the dot); fold slivers (tiny faces left by
   lines that are drawn twice, slightly apart) into the neighbour they share most border with; the
   remaining unnamed faces are decoration: islands, lakes, and inland water such as Marmara;
5. smooth the angular lines: every border is cut into arcs between junctions and each arc is smoothed
   on its own (Chaikin corner cutting, end points fixed), so neighbouring provinces keep one shared,
   identical border; the faces are then rebuilt from the smoothed arcs and named again;
6. place a label point in every province where a label box fits inside it clear of the unit, the
   coast units and the supply-centre marker;
7. write JSON with y pointing down and the origin at the frame's top-left corner.

The output has no tie to the PostScript any more: polygons, anchors and label points in our own
format. The attribution for the geometry ships in data/variants/standard/NOTICE.txt.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from shapely import contains_xy, get_coordinates
from shapely.geometry import LineString, MultiPolygon, Point, Polygon, box
from shapely.ops import linemerge, nearest_points, polygonize, unary_union

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = ROOT.parent / "shared" / "maps" / "dpjudge_standard.ps"
DEFAULT_OUT = ROOT / "data" / "variants" / "standard" / "geometry.json"

# The frame of the source drawing, in its own units (y up).
FRAME_X0, FRAME_Y0, FRAME_X1, FRAME_Y1 = 22.0, 25.0, 650.0, 576.0
GAP_TOLERANCE = 4.0  # an open line ending this close to another line is extended to touch it
SLIVER_AREA = 3.0  # unnamed faces smaller than this (square units) are slivers, not features
# Connectors for gaps between closed rings that are borders (the only one on this map).
STRAITS = (((308.0, 79.0), "Messina: Sicily to Calabria, parts ION from TYS"),)
CHAIKIN_ROUNDS = 2
SIMPLIFY_TOLERANCE = 0.12  # after smoothing, in map units (0.3 px at 1600 px wide)
# Label box in map units at the renderer's label size (see render/geometry.py LABEL_BOX).
LABEL_W_PER_CHAR, LABEL_H = 4.2, 5.4
# Kept free round a unit anchor: half width and half height of the box a fleet (or an army) covers
# where fleets may stand, a circle's radius for an army inland. Sizes follow render/layout.py.
FLEET_CLEARANCE = (8.8, 6.7)
COAST_SPOT_INSET = 3.5  # how far inside its province a coast spot moved off the water goes
ARMY_CLEARANCE = 6.3
SC_CLEARANCE = 3.2  # radius kept free around a supply-centre marker
LABEL_BELOW_UNIT = 9.5  # preferred distance of a label's centre below its unit's anchor

_CHART_RE = re.compile(r"^/OutlineChart(\w+) \{\n(.*?)^\} bd", re.S | re.M)
_TERRITORY_RE = re.compile(r"^\s*\((\w+(?:/\w+)?)\) (\d+) (\d+) ([clwgbm])$", re.M)
_SUPPLY_RE = re.compile(r"/(\w+) (\d+) (\d+) s\b")

# Tags of the territory table: c coastal, l inland, w sea, g split-coast province, b one of its
# coasts, m impassable.
_KIND_OF_TAG = {"c": "coast", "l": "land", "w": "sea", "g": "coast", "m": "impassable"}


@dataclass(frozen=True)
class Frame:
    """The drawing's frame in source units (y up); the output's origin is its top-left corner."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def corners(self) -> set[tuple[float, float]]:
        return {(self.x0, self.y0), (self.x0, self.y1), (self.x1, self.y0), (self.x1, self.y1)}


STANDARD_FRAME = Frame(FRAME_X0, FRAME_Y0, FRAME_X1, FRAME_Y1)


@dataclass
class Source:
    """What we read from the PostScript (y up, source units), and how to read this drawing.

    The last four fields let scripts/convert_variant.py reuse these steps for other DPjudge drawings:
    their frame, their straits, the province kinds from the .map file (instead of the anchor tags),
    and how to tell what an unnamed face is (instead of the Standard map's Brown and Blue charts).
    """

    charts: dict[str, list[list[tuple[float, float]]]]
    anchors: dict[str, tuple[float, float, str]]  # id -> (x, y, tag)
    supplies: dict[str, tuple[float, float]]
    frame: Frame = STANDARD_FRAME
    straits: tuple[tuple[tuple[float, float], str], ...] = STRAITS
    kinds: dict[str, str] | None = None  # province -> sea, coast, land or impassable
    # An unnamed face -> "islands", "lakes", "water", "fold" (into the neighbour sharing most border),
    # a province code (the face is part of it) or "drop"; None: the Standard map's rule (slivers folded,
    # Brown rings islands, Blue rings lakes).
    classify: Callable[[Polygon, Faces], str] | None = None


@dataclass
class Faces:
    """Faces of the planar map, grouped: provinces by id, and decoration."""

    provinces: dict[str, list[Polygon]] = field(default_factory=dict)
    islands: list[Polygon] = field(default_factory=list)
    lakes: list[Polygon] = field(default_factory=list)
    water: list[Polygon] = field(default_factory=list)


# --- 1. reading ---------------------------------------------------------------------------------


def read_source(path: Path) -> Source:
    text = path.read_text(encoding="latin-1")
    charts: dict[str, list[list[tuple[float, float]]]] = {}
    for m in _CHART_RE.finditer(text):
        lines: list[list[tuple[float, float]]] = []
        current: list[tuple[float, float]] | None = None
        for raw in m.group(2).splitlines():
            tokens = raw.split()
            if not tokens:
                continue
            op = tokens[-1]
            if op == "m":
                if current:
                    lines.append(current)
                current = [(float(tokens[0]), float(tokens[1]))]
            elif op == "l":
                if current is None:
                    raise ValueError(f"lineto without moveto in chart {m.group(1)}: {raw!r}")
                current.append((float(tokens[0]), float(tokens[1])))
            elif op == "fk":
                if current:
                    lines.append(current)
                current = None
            else:
                raise ValueError(f"unexpected operator in chart {m.group(1)}: {raw!r}")
        if current:
            lines.append(current)
        charts[m.group(1)] = lines
    territories = re.search(r"/VisitTerritories \{(.*?)\} def", text, re.S)
    supplies = re.search(r"/VisitSupplies \{(.*?)\} def", text, re.S)
    if not charts or territories is None or supplies is None:
        raise ValueError(f"{path} does not look like a DPjudge map PostScript file")
    anchors = {
        m.group(1).upper(): (float(m.group(2)), float(m.group(3)), m.group(4))
        for m in _TERRITORY_RE.finditer(territories.group(1))
    }
    supply = {
        m.group(1).upper(): (float(m.group(2)), float(m.group(3)))
        for m in _SUPPLY_RE.finditer(supplies.group(1))
    }
    return Source(charts=charts, anchors=anchors, supplies=supply)


# --- 2./3. lines to faces -----------------------------------------------------------------------


def all_lines(source: Source) -> list[LineString]:
    """Every drawn line plus the frame and the strait connectors, small gaps closed."""
    fr = source.frame
    lines: list[LineString] = [box(fr.x0, fr.y0, fr.x1, fr.y1).exterior]
    for chart in source.charts.values():
        lines.extend(LineString(pts) for pts in chart if len(pts) >= 2)
    for (x, y), _why in source.straits:
        here = Point(x, y)
        others = unary_union([ln for ln in lines if ln.is_ring and ln.distance(here) > 1e-9])
        there = nearest_points(here, others)[1]
        lines.append(LineString([here, there]))
    closed: list[LineString] = []
    for i, line in enumerate(lines):
        if line.is_ring:
            closed.append(line)
            continue
        others = unary_union([other for j, other in enumerate(lines) if j != i])
        coords = list(line.coords)
        for end in (0, -1):
            tip = Point(coords[end])
            gap = tip.distance(others)
            if 0 < gap <= GAP_TOLERANCE:
                target = nearest_points(tip, others)[1]
                if end == 0:
                    coords.insert(0, (target.x, target.y))
                else:
                    coords.append((target.x, target.y))
        closed.append(LineString(coords))
    return closed


def name_faces(polys: list[Polygon], source: Source) -> Faces:
    """Group faces by the province whose anchor (or supply dot) they hold; the rest is decoration."""
    named: dict[str, list[Polygon]] = {}
    unnamed: list[Polygon] = []
    main_anchors = {k: v for k, v in source.anchors.items() if "/" not in k}
    for poly in polys:
        ids = [k for k, (x, y, _t) in main_anchors.items() if poly.contains(Point(x, y))]
        if not ids:
            ids = [k for k, (x, y) in source.supplies.items() if poly.contains(Point(x, y))]
        if len(ids) > 1:
            raise ValueError(f"a face holds several provinces {ids}: a border is missing")
        if ids:
            named.setdefault(ids[0], []).append(poly)
        else:
            unnamed.append(poly)
    missing = sorted(set(main_anchors) - set(named))
    if missing:
        raise ValueError(f"provinces without a face: {missing}")
    faces = Faces(provinces=named)
    if source.classify is not None:
        for poly in unnamed:
            what = source.classify(poly, faces)
            if what == "fold":
                _fold_sliver(poly, faces)
            elif what in faces.provinces:
                _merge_into(poly, faces, what)
            elif what != "drop":
                getattr(faces, what).append(poly)
        return faces
    island_rings = [Polygon(pts) for pts in source.charts.get("Brown", [])]
    lake_rings = [Polygon(pts) for pts in source.charts.get("Blue", [])]
    for poly in unnamed:
        if poly.area < SLIVER_AREA:
            _fold_sliver(poly, faces)
            continue
        probe = poly.representative_point()
        if any(ring.contains(probe) for ring in lake_rings):
            faces.lakes.append(poly)
        elif any(ring.contains(probe) for ring in island_rings):
            faces.islands.append(poly)
        else:
            faces.water.append(poly)
    return faces


def _fold_sliver(sliver: Polygon, faces: Faces) -> None:
    best, best_len = None, 0.0
    for code, polys in faces.provinces.items():
        for i, poly in enumerate(polys):
            shared = sliver.boundary.intersection(poly.boundary).length
            if shared > best_len:
                best, best_len = (code, i), shared
    if best is None:
        return  # isolated speck: drop it
    code, i = best
    merged = unary_union([faces.provinces[code][i], sliver])
    if isinstance(merged, Polygon):
        faces.provinces[code][i] = merged


def _merge_into(piece: Polygon, faces: Faces, code: str) -> None:
    """Add ``piece`` to province ``code``: joined to the polygon it touches most, else on its own."""
    polys = faces.provinces[code]
    shared = [piece.boundary.intersection(p.boundary).length for p in polys]
    best = max(range(len(polys)), key=lambda i: shared[i])
    merged = unary_union([polys[best], piece]) if shared[best] > 0 else None
    if isinstance(merged, Polygon):
        polys[best] = merged
    else:
        polys.append(piece)


def build_faces(lines: list[LineString], source: Source) -> Faces:
    noded = unary_union(lines)
    return name_faces(list(polygonize(noded)), source)


# --- 5. smoothing -------------------------------------------------------------------------------


def face_boundaries(faces: Faces) -> list[LineString]:
    polys = [p for ps in faces.provinces.values() for p in ps] + faces.islands + faces.lakes + faces.water
    rings: list[LineString] = []
    for poly in polys:
        rings.append(LineString(poly.exterior.coords))
        rings.extend(LineString(r.coords) for r in poly.interiors)
    return rings


def arcs_of(lines: list[LineString], frame: Frame = STANDARD_FRAME) -> list[LineString]:
    """Cut the noded linework into arcs that run from junction to junction (or are closed rings)."""
    noded = unary_union(lines)
    merged = linemerge(noded)
    parts = list(merged.geoms) if hasattr(merged, "geoms") else [merged]
    # linemerge joins across frame corners and through degree-2 points only; split arcs at the frame
    # corners too so that the frame keeps its right angles.
    corners = frame.corners
    arcs: list[LineString] = []
    for part in parts:
        coords = list(part.coords)
        start = 0
        for i in range(1, len(coords) - 1):
            if coords[i] in corners:
                arcs.append(LineString(coords[start : i + 1]))
                start = i
        arcs.append(LineString(coords[start:]))
    return arcs


def chaikin(coords: list[tuple[float, float]], closed: bool, rounds: int) -> list[tuple[float, float]]:
    """Chaikin corner cutting; open arcs keep their end points (the junctions, frame corners)."""
    pts = coords[:-1] if closed else coords
    for _ in range(rounds):
        out: list[tuple[float, float]] = []
        n = len(pts)
        segments = n if closed else n - 1
        if not closed:
            out.append(pts[0])
        for i in range(segments):
            a, b = pts[i], pts[(i + 1) % n]
            q = (0.75 * a[0] + 0.25 * b[0], 0.75 * a[1] + 0.25 * b[1])
            r = (0.25 * a[0] + 0.75 * b[0], 0.25 * a[1] + 0.75 * b[1])
            first, last = (not closed and i == 0), (not closed and i == segments - 1)
            if not first:
                out.append(q)
            if not last:
                out.append(r)
        if not closed:
            out.append(pts[-1])
        deduped = [out[0]]
        for p in out[1:]:
            if math.dist(p, deduped[-1]) > 1e-9:
                deduped.append(p)
        pts = deduped
    return [*pts, pts[0]] if closed else pts


def smooth(faces: Faces, source: Source, rounds: int) -> tuple[Faces, list[LineString]]:
    """Smooth every arc on its own and rebuild the faces from them; returns the faces and arcs."""
    arcs = arcs_of(face_boundaries(faces), source.frame)
    smoothed: list[LineString] = []
    for arc in arcs:
        coords = [(float(x), float(y)) for x, y in arc.coords]
        closed = arc.is_ring
        line = LineString(chaikin(coords, closed, rounds)) if rounds else arc
        smoothed.append(line.simplify(SIMPLIFY_TOLERANCE, preserve_topology=True) if rounds else line)
    rebuilt = name_faces(list(polygonize(unary_union(smoothed))), source)
    before = {k: len(v) for k, v in faces.provinces.items()}
    after = {k: len(v) for k, v in rebuilt.provinces.items()}
    if before != after:
        raise ValueError(f"smoothing changed the faces: {before} -> {after}")
    return rebuilt, smoothed


# --- 6. labels ----------------------------------------------------------------------------------


def label_point(
    shape: Polygon | MultiPolygon, code: str, keep_clear: list[tuple[float, float, float, float, str]]
) -> tuple[float, float]:
    """Where the label box (centred there) fits inside ``shape`` and clear of the given circles.

    Every candidate centre on a half-unit grid is scored by sampling points of its box: points outside
    the shape and points inside a circle to keep clear cost a lot; then the distance to the spot just
    below the unit (where players look for the name) breaks ties. The first region is the unit's.
    """
    w, h = LABEL_W_PER_CHAR * len(code) + 1.0, LABEL_H
    inner = shape.buffer(-0.6)
    minx, miny, maxx, maxy = shape.bounds
    gx, gy = np.meshgrid(
        np.arange(minx + w / 2, maxx - w / 2 + 1e-9, 0.5), np.arange(miny + h / 2, maxy - h / 2 + 1e-9, 0.5)
    )
    cx, cy = gx.ravel(), gy.ravel()
    if cx.size == 0:
        c = shape.representative_point()
        return (c.x, c.y)
    # 7 x 4 sample points spread over the box, as offsets from its centre.
    ox, oy = np.meshgrid(np.linspace(-w / 2, w / 2, 7), np.linspace(-h / 2, h / 2, 4))
    sx = cx[:, None] + ox.ravel()[None, :]
    sy = cy[:, None] + oy.ravel()[None, :]
    outside = (~contains_xy(inner, sx.ravel(), sy.ravel())).reshape(sx.shape).sum(axis=1)
    covered = np.zeros(cx.shape)
    for px, py, rx, ry, form in keep_clear:
        if form == "box":
            inside = (np.abs(sx - px) < rx) & (np.abs(sy - py) < ry)
        else:
            inside = ((sx - px) / rx) ** 2 + ((sy - py) / ry) ** 2 < 1.0
        covered += inside.sum(axis=1)
    ax, ay = keep_clear[0][:2]
    # In source units y points up: "below the unit" is a smaller y.
    dist = np.hypot(cx - ax, (cy - (ay - LABEL_BELOW_UNIT)) * 1.3)
    cost = 40.0 * outside + 60.0 * covered + dist
    best = int(np.argmin(cost))
    return (float(cx[best]), float(cy[best]))


def _inside(shape: Polygon | MultiPolygon, x: float, y: float) -> tuple[float, float]:
    """The spot itself if it lies in the province, else the nearest point a little way inside.

    The source puts two coast spots (BUL/EC, STP/NC) on the water off their coast; a fleet drawn
    there would seem to be in the sea next to it.
    """
    if shape.contains(Point(x, y)):
        return (x, y)
    inward = shape.buffer(-COAST_SPOT_INSET)
    p = nearest_points(inward, Point(x, y))[0]
    return (p.x, p.y)


# --- 7. output ----------------------------------------------------------------------------------


def to_out(x: float, y: float, frame: Frame = STANDARD_FRAME) -> list[float]:
    """Source units (y up, frame offset) -> output units (y down, origin at the frame's corner)."""
    return [round(x - frame.x0, 2), round(frame.y1 - y, 2)]


def _ring(coords, frame: Frame = STANDARD_FRAME) -> list[list[float]]:
    pts = [to_out(x, y, frame) for x, y in coords]
    if pts and pts[0] == pts[-1]:
        pts.pop()
    return pts


def polygons_out(polys: list[Polygon], frame: Frame = STANDARD_FRAME) -> list[list[list[list[float]]]]:
    """Polygons as lists of rings (exterior first, then holes), each a list of [x, y] points."""
    out = []
    for poly in sorted(polys, key=lambda p: -p.area):
        out.append([_ring(poly.exterior.coords, frame), *(_ring(r.coords, frame) for r in poly.interiors)])
    return out


def _side_kind(faces: Faces, kinds: dict[str, str], x: float, y: float) -> str:
    """What lies at a point: 'sea', 'land' (provinces, Switzerland, islands), 'water' or 'outside'."""
    for code, polys in faces.provinces.items():
        if any(contains_xy(p, x, y) for p in polys):
            return "sea" if kinds[code] == "sea" else "land"
    if any(contains_xy(p, x, y) for p in faces.islands):
        return "land"
    if any(contains_xy(p, x, y) for p in faces.lakes + faces.water):
        return "water"
    return "outside"


def classify_lines(
    arcs: list[LineString], faces: Faces, kinds: dict[str, str], frame: Frame = STANDARD_FRAME
) -> dict[str, list]:
    """Sort the arcs by what they separate: coast (land | water), land borders, sea borders.

    The renderer draws each once in its own style. Arcs on the frame are left out.
    """
    out: dict[str, list] = {"coast": [], "land": [], "sea": []}
    for arc in arcs:
        mid = arc.interpolate(0.5, normalized=True)
        before = arc.interpolate(max(arc.length * 0.5 - 0.05, 0.0))
        after = arc.interpolate(min(arc.length * 0.5 + 0.05, arc.length))
        dx, dy = after.x - before.x, after.y - before.y
        norm = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / norm * 0.2, dx / norm * 0.2
        sides = sorted(
            {
                _side_kind(faces, kinds, mid.x + nx, mid.y + ny),
                _side_kind(faces, kinds, mid.x - nx, mid.y - ny),
            }
        )
        if "outside" in sides:
            continue
        if sides == ["land"]:
            kind = "land"
        elif "land" in sides:
            kind = "coast"
        else:
            kind = "sea"
        out[kind].append([to_out(x, y, frame) for x, y in arc.coords])  # rings keep their closing point
    return out


def geometry_document(
    faces: Faces,
    arcs: list[LineString],
    source: Source,
    map_name: str = "standard",
    notice: str = "data/variants/standard/NOTICE.txt (geometry derived from DPjudge maps/standard.ps, MIT)",
) -> dict:
    provinces: dict[str, dict] = {}
    impassable: dict[str, dict] = {}
    fr = source.frame

    def out(x: float, y: float) -> list[float]:
        return to_out(x, y, fr)

    if source.kinds is not None:
        kinds = {code: source.kinds[code] for code in faces.provinces}
    else:
        kinds = {code: _KIND_OF_TAG[source.anchors[code][2]] for code in faces.provinces}
    for code in sorted(faces.provinces):
        polys = faces.provinces[code]
        ax, ay, _tag = source.anchors[code]
        shape = unary_union(polys)
        fleet_box = (*FLEET_CLEARANCE, "box")
        army_circle = (ARMY_CLEARANCE, ARMY_CLEARANCE, "ellipse")
        keep_clear = [(ax, ay, *(army_circle if kinds[code] == "land" else fleet_box))]
        coasts = {
            k.split("/")[1]: _inside(shape, x, y)
            for k, (x, y, _t) in source.anchors.items()
            if k.startswith(code + "/")
        }
        keep_clear.extend((x, y, *fleet_box) for x, y in coasts.values())
        sc = source.supplies.get(code)
        if sc:
            keep_clear.append((sc[0], sc[1], SC_CLEARANCE, SC_CLEARANCE, "ellipse"))
        lx, ly = label_point(shape, code, keep_clear)
        entry: dict = {"kind": kinds[code], "unit": out(ax, ay)}
        if coasts:
            entry["coasts"] = {c: out(x, y) for c, (x, y) in sorted(coasts.items())}
        entry["supply_center"] = out(*sc) if sc else None
        entry["label"] = out(lx, ly)
        entry["polygons"] = polygons_out(polys, fr)
        if kinds[code] == "impassable":
            del entry["unit"], entry["supply_center"]
            impassable[code] = entry
        else:
            provinces[code] = entry
    return {
        "format": "diplomacy-gm map geometry 1",
        "map": map_name,
        "notice": notice,
        "units": "map units; x right, y down; origin at the map's top-left corner",
        "width": fr.x1 - fr.x0,
        "height": fr.y1 - fr.y0,
        "provinces": provinces,
        "decoration": {
            "impassable": impassable,
            "islands": polygons_out(faces.islands, fr),
            "lakes": polygons_out(faces.lakes, fr),
            "water": polygons_out(faces.water, fr),
        },
        "lines": classify_lines(arcs, faces, kinds, fr),
    }


def borders(faces: Faces, min_length: float = 0.5) -> set[frozenset[str]]:
    """Pairs of provinces that share a border at least ``min_length`` long."""
    shapes = {code: unary_union(polys) for code, polys in faces.provinces.items()}
    codes = sorted(shapes)
    pairs: set[frozenset[str]] = set()
    for i, a in enumerate(codes):
        for b in codes[i + 1 :]:
            if shapes[a].distance(shapes[b]) > 1e-6:
                continue
            if shapes[a].boundary.intersection(shapes[b].boundary).length >= min_length:
                pairs.add(frozenset((a, b)))
    return pairs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--no-smooth", action="store_true", help="keep the source's angular lines")
    args = parser.parse_args(argv)
    source = read_source(args.source)
    faces = build_faces(all_lines(source), source)
    faces, arcs = smooth(faces, source, 0 if args.no_smooth else CHAIKIN_ROUNDS)
    doc = geometry_document(faces, arcs, source)
    args.out.write_text(json.dumps(doc, separators=(",", ":")) + "\n", encoding="utf-8")
    n_points = len(get_coordinates([p for ps in faces.provinces.values() for p in ps]))
    print(
        f"wrote {args.out}: {len(doc['provinces'])} provinces, {len(faces.islands)} islands, "
        f"{sum(len(v) for v in doc['lines'].values())} lines, "
        f"{len(faces.lakes)} lakes, {len(faces.water)} other water, {n_points} polygon points, "
        f"{len(borders(faces))} shared borders",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
