"""Convert a DPjudge variant (its .map file and .ps drawing) into our variant folder.

Build-time only: needs shapely and numpy (requirements-dev.txt). Run from the repository root::

    .venv/bin/python scripts/convert_variant.py                 # every variant below
    .venv/bin/python scripts/convert_variant.py ancmed 1900     # some of them
    .venv/bin/python scripts/convert_variant.py --source DIR --out DIR ancmed

``--source`` is a folder of DPjudge's map files (its ``maps`` folder: github.com/serrasqueiro/dpjudge,
MIT; default ``DEFAULT_SOURCE``, outside the repository);
``--out`` the folder that receives one folder per variant (default data/variants). Each variant gets:

- ``map.json``: the facts of the board in data/variants/standard/map.json's schema
  (scripts/mapfile_reader.py reads the .map file, following its USE and MAP includes); left out when the
  variant plays on the Standard map
  (``"map": "standard"`` in variant.json);
- ``geometry.json``: polygons, unit anchors and label points in
  data/variants/standard/geometry.json's schema, made by scripts/convert_map.py's steps from the
  variant's .ps drawing; left out when the drawing is the
  Standard one (``"geometry": "standard"``);
- ``variant.json``: name, title, map, geometry, victory target, first phase, powers with a display
  colour and letter each, the rules switches the variant needs, and notes;
- ``NOTICE.txt``: where the map comes from and DPjudge's MIT licence.

How a .ps drawing is read. Every DPjudge drawing paints its map in a "MapForm": a background rectangle
(the frame), then ``Include*`` procedures, each of which scales its coordinates (or not), says what a
closed ring does (fill with land or sea colour, or just stroke a line) and calls ``Outline*`` charts of
``moveto``/``lineto``/``curveto`` paths. We take every chart's lines (curves flattened) as the lines of
the map, except charts a variant marks as not being borders (canals, rivers, arrows), clip them to the
frame, and hand them to convert_map's steps: faces are named by the unit anchors of
``VisitTerritories`` and the dots of ``VisitSupplies``; a face with no name is land or water according
to which fill was painted last over it (an island, a lake, open water), or is folded into its neighbour
when it is a sliver or a piece of land cut off by a stray line.

Every drawing is scaled first so that its provinces have about the size of the Standard map's: the
renderer's sizes (units, labels) are in map units, tuned on the Standard map, and label places are
chosen with those sizes. The output's width and height say how big the map is in those units.

What each drawing needs besides is in the VARIANTS table below, every item with its reason: the
scale; an inset of the frame where the land stops short of it; straits (connectors) where the drawing
leaves two seas open to each other; unnamed faces that belong to a province (Sinai to Egypt, the Kiel
canal to Kiel, the Nile delta to Thebes ...); Youngstown's off-board boxes. Two fixes are automatic
and reported: an anchor drawn just across a coast (a unit off its island) moves into its province, and
a name that its own unit, a unit's letter badge or a supply centre's marker would hide moves beside
it. ``--debug`` lists the unnamed faces with a point
inside each (source units), to decide what they are.

The board's facts are checked on the way: a one-way move in the .map stops the conversion, and a
variant on the Standard board must have data/variants/standard/map.json's adjacency. The colours are explained
below (``CLASSIC``); tests/variants checks the result (scripts/mapchecks.py, scripts/cvd.py);
scripts/preview_variant.py draws it.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from shapely import contains_xy, get_coordinates
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import nearest_points, polygonize, unary_union

sys.path.insert(0, str(Path(__file__).resolve().parent))

import convert_map as cm
import mapchecks
import mapfile_reader as reader

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = ROOT.parent / "shared" / "maps" / "dpjudge"
DEFAULT_OUT = ROOT / "data" / "variants"

Pt = tuple[float, float]
LAND_COLOURS = {"LandBrown", "IceGrey", "MountainGrey", "LandGreen"}
WATER_COLOURS = {"SeaBlue"}
DEBUG = False  # --debug: list the unnamed faces
CURVE_STEP = 1.5  # a curve is flattened into segments about this long (scaled units)


# --- the variants -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Drawing:
    """How to read one variant's .ps drawing."""

    ps: str
    scale: float  # source units -> our units (provinces about the Standard map's size)
    # How much of the drawing's edge to cut off (source units). DPjudge strokes a thick frame over
    # the edge, and some drawings stop their land a few units short of it, under that stroke.
    inset: float = 0.0
    not_borders: tuple[str, ...] = ()  # charts that are decoration: canals, rivers, arrows
    # Connectors: a line from near one coast to near the other (each end goes to the nearest drawn
    # line), where the drawing leaves two seas open to each other; in source units.
    straits: tuple[tuple[Pt, Pt, str], ...] = ()
    # What some unnamed faces are, by a point inside (source units): "fold" (into the neighbour that
    # shares most border), "islands", "water", "lakes", "drop", or the province they belong to.
    faces: tuple[tuple[Pt, str, str], ...] = ()
    boxes: tuple[str, ...] = ()  # places drawn as boxes (VisitOffBoardBoxes) rather than as regions
    box_half: float = 17.5  # half the side of such a box (source units; DPjudge draws 17.5)
    box_moves: tuple[tuple[str, Pt, str], ...] = ()  # boxes moved from DPjudge's spot, and why


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    map_file: str
    drawing: Drawing | None  # None: the Standard drawing (data/variants/standard/geometry.json)
    source_note: str  # for NOTICE.txt: who made the map
    colours: dict[str, str] = field(default_factory=dict)  # power -> #rrggbb
    rules: dict = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    on_standard_board: bool = False  # the Standard provinces and adjacency (standard/map.json's)
    standard_map: bool = False  # ... and its powers and home centres: only the start differs
    standard_drawing: str | None = None  # a .ps checked to be the Standard drawing (geometry: standard)


# --- reading a drawing ------------------------------------------------------------------------------

_OUTLINE_RE = re.compile(r"^/(Outline\w+) \{\n(.*?)^\} bd", re.S | re.M)
_INCLUDE_RE = re.compile(r"^/(Include\w+) \{\n(.*?)^\} bd", re.S | re.M)
_FORM_RE = re.compile(r"/PaintProc \{(.*?)\} bind", re.S)
_RECT_RE = re.compile(r"(\w+) (-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+) rectfill")
_SCALE_RE = re.compile(r"^\s*([\d.]+) ([\d.]+) x$", re.M)
_FILL_RE = re.compile(r"/fk \{(.*?)\} bd", re.S)
_TERRITORY_RE = re.compile(r"^\s*\((\w+(?:/\w+)?)\) (-?[\d.]+) (-?[\d.]+) (\w)$", re.M)
_SUPPLY_RE = re.compile(r"/(\w+) (-?[\d.]+) (-?[\d.]+) s\b")


@dataclass
class Paint:
    """One chart as the drawing paints it: its lines, and what its closed rings are filled with."""

    chart: str
    lines: list[list[Pt]]
    fill: str | None  # "land", "water" or None (lines only)


@dataclass
class Drawn:
    """A drawing read and scaled: frame, background, charts in painting order, anchors, centre dots."""

    frame: cm.Frame
    background: str  # "land" or "water"
    paints: list[Paint]
    anchors: dict[str, tuple[float, float, str]]
    supplies: dict[str, Pt]
    boxes: dict[str, Pt] = field(default_factory=dict)  # off-board places drawn as boxes: their centres


def _bezier(p0: Pt, p1: Pt, p2: Pt, p3: Pt, scale: float) -> list[Pt]:
    length = (math.dist(p0, p1) + math.dist(p1, p2) + math.dist(p2, p3)) * scale
    n = max(2, min(24, math.ceil(length / CURVE_STEP)))
    out = []
    for i in range(1, n + 1):
        t = i / n
        u = 1 - t
        a, b, c, d = u**3, 3 * u * u * t, 3 * u * t * t, t**3
        out.append(
            (a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1])
        )
    return out


def _chart_lines(body: str, name: str, scale: float) -> list[list[Pt]]:
    lines: list[list[Pt]] = []
    current: list[Pt] | None = None
    for raw in body.splitlines():
        tokens = raw.split()
        if not tokens:
            continue
        op = tokens[-1]
        if op == "m":
            if current and len(current) > 1:
                lines.append(current)
            current = [(float(tokens[0]), float(tokens[1]))]
        elif op in ("l", "c") and current is None:
            raise ValueError(f"a path without moveto in chart {name}: {raw!r}")
        elif op == "l" and current is not None:
            current.append((float(tokens[0]), float(tokens[1])))
        elif op == "c" and current is not None:
            v = [float(t) for t in tokens[:6]]
            current.extend(_bezier(current[-1], (v[0], v[1]), (v[2], v[3]), (v[4], v[5]), scale))
        elif op == "fk":
            if current and len(current) > 1:
                lines.append(current)
            current = None
        else:
            raise ValueError(f"unexpected operator in chart {name}: {raw!r}")
    if current and len(current) > 1:
        lines.append(current)
    return lines


def read_drawing(path: Path, scale: float, inset: float = 0.0) -> Drawn:
    """Read a DPjudge map PostScript and scale it by ``scale`` (y stays up), the frame ``inset``."""
    text = path.read_text(encoding="latin-1")
    form = _FORM_RE.search(text)
    rect = _RECT_RE.search(form.group(1)) if form else None
    if form is None or rect is None:
        raise ValueError(f"{path}: no MapForm with a background rectangle")
    colour, x, y, w, h = rect.group(1), *(float(v) for v in rect.groups()[1:])
    frame = cm.Frame(
        (x + inset) * scale, (y + inset) * scale, (x + w - inset) * scale, (y + h - inset) * scale
    )
    background = "land" if colour in LAND_COLOURS else "water"
    outlines = {m.group(1): m.group(2) for m in _OUTLINE_RE.finditer(text)}
    includes = {m.group(1): m.group(2) for m in _INCLUDE_RE.finditer(text)}
    paints: list[Paint] = []
    for call in re.findall(r"^\s*(Include\w+)$", form.group(1), re.M):
        body = includes[call]
        sc = _SCALE_RE.search(body)
        own = float(sc.group(1)) if sc else 1.0
        fk = _FILL_RE.search(body)
        fill_words = fk.group(1).split() if fk else []
        fill = None
        if "f" in fill_words:
            i = fill_words.index("f")
            fill_colour = fill_words[i - 1] if i > 0 and fill_words[i - 1] != "s" else None
            fill = (
                "land" if fill_colour in LAND_COLOURS else "water" if fill_colour in WATER_COLOURS else None
            )
        closes = "p" in fill_words  # closepath before filling: the ring's last side is implied
        for chart in re.findall(r"^\s*(Outline\w+)$", body, re.M):
            k = own * scale
            lines = [[(px * k, py * k) for px, py in ln] for ln in _chart_lines(outlines[chart], chart, k)]
            if closes:
                lines = [ln if ln[0] == ln[-1] else [*ln, ln[0]] for ln in lines]
            paints.append(Paint(chart, lines, fill))
    territories = re.search(r"/VisitTerritories \{(.*?)\} def", text, re.S)
    supplies = re.search(r"/VisitSupplies \{(.*?)\} def", text, re.S)
    if territories is None or supplies is None:
        raise ValueError(f"{path}: no VisitTerritories or VisitSupplies table")
    anchors = {
        m.group(1).upper(): (float(m.group(2)) * scale, float(m.group(3)) * scale, m.group(4))
        for m in _TERRITORY_RE.finditer(territories.group(1))
    }
    supply = {
        m.group(1).upper(): (float(m.group(2)) * scale, float(m.group(3)) * scale)
        for m in _SUPPLY_RE.finditer(supplies.group(1))
    }
    boxes = {}
    table = re.search(r"/VisitOffBoardBoxes \{(.*?)\} def", text, re.S)
    if table:
        for m in re.finditer(r"^\s*\((\w+)\) \(\w*\) (-?[\d.]+) (-?[\d.]+) \w$", table.group(1), re.M):
            boxes[m.group(1).upper()] = (float(m.group(2)) * scale, float(m.group(3)) * scale)
    return Drawn(frame, background, paints, anchors, supply, boxes)


class FillModel:
    """What was painted last at a point: "land" or "water", and whether a ring painted it."""

    def __init__(self, drawn: Drawn) -> None:
        self.background = drawn.background
        self.rings: list[tuple[Polygon, str]] = []
        for paint in drawn.paints:
            if paint.fill is None:
                continue
            for ln in paint.lines:
                if len(ln) >= 4:
                    poly = Polygon(ln).buffer(0)
                    if not poly.is_empty:
                        self.rings.append((poly, paint.fill))

    def at(self, p: Point) -> tuple[str, bool]:
        for poly, fill in reversed(self.rings):
            if poly.contains(p):
                return fill, True
        return self.background, False


FRAME_SNAP = 0.25  # a point this close to the frame is put on it (drawings stop a hair short)


def _clip(lines: list[list[Pt]], frame: cm.Frame) -> list[list[Pt]]:
    """The lines inside the frame, points next to the frame moved onto it."""
    area = box(frame.x0, frame.y0, frame.x1, frame.y1)

    def snap(x: float, y: float) -> Pt:
        for edge in (frame.x0, frame.x1):
            if abs(x - edge) < FRAME_SNAP:
                x = edge
        for edge in (frame.y0, frame.y1):
            if abs(y - edge) < FRAME_SNAP:
                y = edge
        return (float(x), float(y))

    out: list[list[Pt]] = []
    for ln in lines:
        line = LineString([snap(x, y) for x, y in ln])
        cut = line if area.contains(line) else line.intersection(area)
        for part in getattr(cut, "geoms", [cut]):
            if part.length > 0:
                pts = [snap(x, y) for x, y in part.coords]
                if len(set(pts)) > 1:
                    out.append(pts)
    return out


def _connectors(
    straits: tuple[tuple[Pt, Pt, str], ...], lines: list[list[Pt]], scale: float
) -> list[list[Pt]]:
    """Each strait as a line between the drawn lines nearest to its two ends."""
    if not straits:
        return []
    drawn = unary_union([LineString(ln) for ln in lines])
    out = []
    for a, b, _why in straits:
        ends = [nearest_points(drawn, Point(x * scale, y * scale))[0] for x, y in (a, b)]
        out.append([(e.x, e.y) for e in ends])
    return out


# --- geometry -----------------------------------------------------------------------------------------


def _place_ids(drawn: Drawn, dp: reader.DpMap) -> dict[str, str]:
    """The drawing's name of each place -> the .map's code (the drawing may use an alias: AND for ADL)."""
    known = set(dp.places) | set(dp.coast_places)
    by_alias = {a.rstrip("?").upper(): code for code, aliases in dp.aliases.items() for a in aliases}
    out = {}
    for ps_id in [*drawn.anchors, *drawn.supplies]:
        prov, _, coast = ps_id.partition("/")
        code = prov if prov in dp.places else by_alias.get(prov)
        if code is not None:
            full = f"{code}/{coast}" if coast else code
            if full in known:
                out[ps_id] = full
    return out


BOX_CORNER = 0.3  # of the box's half side: the rounding of its corners


def _add_boxes(charts: dict, anchors: dict, drawn: Drawn, drawing: Drawing) -> None:
    """Draw the off-board places as DPjudge does, rounded squares over the map: the lines under a box
    are cut away, its outline added, and its centre is its unit's spot."""
    s = drawing.scale
    half = drawing.box_half * s
    corner = half * BOX_CORNER
    moved = {code: (x * s, y * s) for code, (x, y), _why in drawing.box_moves}
    shapes = {}
    for code in drawing.boxes:
        x, y = moved.get(code, drawn.boxes[code])
        square = box(x - half + corner, y - half + corner, x + half - corner, y + half - corner)
        shapes[code] = square.buffer(corner, quad_segs=4)
    under = unary_union(list(shapes.values()))
    for name, lines in charts.items():
        kept = []
        for ln in lines:
            rest = LineString(ln).difference(under)
            for part in getattr(rest, "geoms", [rest]):
                if part.length > 0:
                    kept.append([(float(x), float(y)) for x, y in part.coords])
        charts[name] = kept
    frame = box(drawn.frame.x0, drawn.frame.y0, drawn.frame.x1, drawn.frame.y1)
    charts["Boxes"] = [
        [(float(x), float(y)) for x, y in shape.intersection(frame).exterior.coords]
        for shape in shapes.values()
    ]
    for code in drawing.boxes:
        x, y = moved.get(code, drawn.boxes[code])
        anchors[code] = (x, y, "x")


def make_source(drawn: Drawn, drawing: Drawing, dp: reader.DpMap) -> tuple[cm.Source, FillModel]:
    """convert_map's Source for this drawing: its lines, the .map's places, and its face rules."""
    s = drawing.scale
    charts: dict[str, list[list[Pt]]] = {}
    for paint in drawn.paints:
        if paint.chart not in drawing.not_borders:
            charts.setdefault(paint.chart, []).extend(_clip(paint.lines, drawn.frame))
    every = [ln for lines in charts.values() for ln in lines]
    charts["Straits"] = _connectors(drawing.straits, every, s)
    ids = _place_ids(drawn, dp)
    anchors = {ids[k]: v for k, v in drawn.anchors.items() if k in ids}
    if drawing.boxes:
        _add_boxes(charts, anchors, drawn, drawing)
    supplies = {ids[k]: v for k, v in drawn.supplies.items() if k in ids and "/" not in ids[k]}
    missing = sorted((set(dp.places) | set(dp.coast_places)) - set(anchors) - set(drawing.boxes))
    if missing:
        raise ValueError(f"{drawing.ps}: places of the .map file without an anchor: {missing}")
    model = FillModel(drawn)
    rules = [(Point(x * s, y * s), what) for (x, y), what, _why in drawing.faces]

    def classify(poly: Polygon, faces: cm.Faces) -> str:
        for p, what in rules:
            if poly.contains(p):
                return what
        if poly.area < cm.SLIVER_AREA:
            return "fold"
        fill, ringed = model.at(poly.representative_point())
        what = "islands" if fill == "land" else "lakes" if ringed and drawn.background == "water" else "water"
        if DEBUG:
            c = poly.representative_point()
            print(
                f"  unnamed {what}: area {poly.area:.1f} at ({c.x / s:.1f}, {c.y / s:.1f})", file=sys.stderr
            )
        return what

    source = cm.Source(
        charts=charts,
        anchors=anchors,
        supplies=supplies,
        frame=drawn.frame,
        straits=(),
        kinds=reader.kinds(dp),
        classify=classify,
    )
    return source, model


SNAP_DISTANCE = 12.0  # how far (our units) an anchor drawn on the wrong side of a coast may be moved


def _settle_anchors(source: cm.Source, model: FillModel, lines: list[LineString], report: list[str]) -> None:
    """Move the anchors that the drawing puts on the wrong side of a coast into their province.

    DPjudge draws a unit where it reads well, sometimes just off an island's coast, in the sea
    province around it. When a face holds two anchors, the one whose kind does not fit the face
    (land in the sea, or sea on land) goes to the nearest face of the right kind that holds no anchor.
    """
    assert source.kinds is not None
    faces = [f for f in polygonize(unary_union(lines)) if f.area >= cm.SLIVER_AREA]
    main = {k: v for k, v in source.anchors.items() if "/" not in k}
    holder = {}
    for code, (x, y, _t) in main.items():
        hit = [i for i, f in enumerate(faces) if f.contains(Point(x, y))]
        holder[code] = hit[0] if hit else None
    taken = {i for i in holder.values() if i is not None}
    for code, (x, y, tag) in sorted(main.items()):
        i = holder[code]
        shared = [c for c, j in holder.items() if j == i and c != code]
        if i is not None and not shared:
            continue
        wanted = "water" if source.kinds[code] == "sea" else "land"
        here = faces[i].representative_point() if i is not None else Point(x, y)
        if i is not None and model.at(here)[0] == wanted:
            continue  # this one fits its face; the other anchor will move
        free = [
            (f.distance(Point(x, y)), j)
            for j, f in enumerate(faces)
            if j not in taken and model.at(f.representative_point())[0] == wanted
        ]
        free = [t for t in free if t[0] <= SNAP_DISTANCE]
        if not free:
            raise ValueError(f"the anchor of {code} shares its face with {shared} and has no free face near")
        _d, j = min(free)
        inner = faces[j].buffer(-cm.COAST_SPOT_INSET)
        spot = (
            nearest_points(inner, Point(x, y))[0] if not inner.is_empty else faces[j].representative_point()
        )
        source.anchors[code] = (spot.x, spot.y, tag)
        taken.add(j)
        holder[code] = j
        report.append(
            f"anchor of {code} moved from ({x:.1f}, {y:.1f}) into its face at ({spot.x:.1f}, {spot.y:.1f})"
        )


def build_geometry(
    variant: Variant, source_dir: Path, dp: reader.DpMap, report: list[str]
) -> tuple[dict, cm.Faces, cm.Source]:
    assert variant.drawing is not None
    drawn = read_drawing(source_dir / variant.drawing.ps, variant.drawing.scale, variant.drawing.inset)
    source, model = make_source(drawn, variant.drawing, dp)
    lines = cm.all_lines(source)
    _settle_anchors(source, model, lines, report)
    faces = cm.build_faces(lines, source)
    faces, arcs = cm.smooth(faces, source, cm.CHAIKIN_ROUNDS)
    notice = (
        f"data/variants/{variant.name}/NOTICE.txt"
        f" (geometry derived from DPjudge maps/{variant.drawing.ps}, MIT)"
    )
    doc = cm.geometry_document(faces, arcs, source, map_name=variant.name, notice=notice)
    for code, before, after in free_labels(doc):
        report.append(f"label of {code} moved off its unit: {before} -> {after}")
    return doc, faces, source


# --- colours ------------------------------------------------------------------------------------------
#
# One display colour per power (#rrggbb), chosen to stay apart for normal vision and for the three
# kinds of colour blindness (scripts/cvd.py simulates them; tests/variants check the distances):
#
# - the seven classic powers keep their colours of the Standard map's colour-blind palette (Okabe &
#   Ito's set: Austria vermillion, England/Britain blue, France sky blue, Germany black, Italy bluish
#   green, Russia reddish purple, Turkey yellow; data/variants/standard/variant.json), so a player
#   meets them again on every map; a variant on the Standard board and powers (``standard_map``)
#   copies the Standard powers' colours whole (both palettes: ``standard_colours``);
# - the others take, in this order, Okabe & Ito's orange, then a light grey, a dark brown and a navy
#   (the four that a search over Okabe & Ito's and Paul Tol's palettes found farthest from the seven
#   and from each other: CIEDE2000 at least 11 under every simulated vision, against 8 between the
#   seven themselves), and lightness tells them apart where hue does not; except where a picture
#   showed otherwise: the light grey, drawn as a territory, is another grey beside Germany's (Modern's
#   Poland) and next to the grey of impassable land, so Modern's Poland takes Austria's vermillion
#   (Modern has no Austria) and Youngstown's Japan the light green of Chaos (both keep CIEDE2000 at
#   least 8 under every vision, the distance between the classic seven);
# - every power also has a letter, drawn on its units, for when colours are not enough;
# - Chaos has 34 powers, too many for colours alone: the powers are coloured so that powers whose home
#   centres are near each other (at most two moves apart) never share a colour, from the eleven
#   colours above plus a light green (#AADD99, the candidate farthest from those eleven), and each
#   power's letter (DPjudge's: A-Z and 0-9) and home centre tell them apart; nearby powers stay
#   distinguishable, faraway ones may share a colour.

CLASSIC = {
    "AUSTRIA": "#D55E00",
    "ENGLAND": "#005A96",
    "BRITAIN": "#005A96",
    "FRANCE": "#56B4E9",
    "GERMANY": "#141414",
    "ITALY": "#008264",
    "RUSSIA": "#B85490",
    "TURKEY": "#F0E442",
}
EXTRA = ("#E69F00", "#BBBBBB", "#5B3A00", "#1B2A6B")  # orange, light grey, dark brown, navy
CHAOS_COLOURS = (*dict.fromkeys(CLASSIC.values()), *EXTRA, "#AADD99")  # + a light green: 12 colours


def chaos_colours(game_map: dict) -> dict[str, str]:
    """Colour the 34 one-centre powers so that powers with home centres two moves apart or closer
    differ (greedy, most constrained power first)."""
    near: dict[str, set[str]] = {p["code"]: set() for p in game_map["provinces"]}
    for a, b in game_map["army_adjacency"]:
        near[a].add(b)
        near[b].add(a)
    for a, b in game_map["fleet_adjacency"]:
        a, b = a.split("/")[0], b.split("/")[0]
        near[a].add(b)
        near[b].add(a)
    home = {p["home"]: p["code"] for p in game_map["provinces"] if p["home"]}
    within2 = {c: set().union(*(near[n] | {n} for n in near[c])) - {c} for c in near}
    conflicts = {p: {q for q, h in home.items() if h in within2[home[p]]} for p in home}
    colour: dict[str, str] = {}
    while len(colour) < len(home):
        todo = [p for p in home if p not in colour]
        p = max(
            todo, key=lambda q: (len({colour[r] for r in conflicts[q] if r in colour}), len(conflicts[q]), q)
        )
        used = {colour[r] for r in conflicts[p] if r in colour}
        free = [c for c in CHAOS_COLOURS if c not in used]
        if not free:
            raise ValueError(f"no colour left for {p}: its neighbours use {sorted(used)}")
        # the least used free colour, so that the colours spread over the board
        colour[p] = min(free, key=lambda c: (sum(v == c for v in colour.values()), CHAOS_COLOURS.index(c)))
    return dict(sorted(colour.items()))


def standard_colours() -> dict[str, dict]:
    """The Standard powers' colours in data/variants/standard/variant.json: ``colour``, ``fill``,
    ``ink`` and the ``colorblind`` palette's."""
    doc = json.loads((ROOT / "data" / "variants" / "standard" / "variant.json").read_text(encoding="utf-8"))
    keys = ("colour", "fill", "ink", "colorblind")
    return {p: {k: info[k] for k in keys if k in info} for p, info in doc["powers"].items()}


def power_colours(powers: list[str], explicit: dict[str, str]) -> dict[str, str]:
    out, extra = {}, list(EXTRA)
    for p in powers:
        if p in explicit:
            out[p] = explicit[p]
        elif p in CLASSIC:
            out[p] = CLASSIC[p]
        else:
            out[p] = extra.pop(0)
    return out


# --- the variant folder -------------------------------------------------------------------------------

MIT_NOTICE = """Licence of the source (DPjudge LICENSE, verbatim)
-------------------------------------------------
"""


def notice_text(variant: Variant, source_dir: Path) -> str:
    licence = (source_dir / "LICENSE").read_text(encoding="utf-8").strip()
    files = [variant.map_file] + ([variant.drawing.ps] if variant.drawing else [])
    made = []
    if not variant.standard_map:
        made.append("map.json (provinces, adjacency, powers, centres, starting position)")
    if variant.drawing:
        made.append(
            "geometry.json (province polygons, coastlines and borders, unit anchors, centre positions)"
        )
    lines = [
        f"{variant.title}: map notice",
        "=" * len(f"{variant.title}: map notice"),
        "",
        "The files of this folder are derived by scripts/convert_variant.py from DPjudge's map files",
        f"({', '.join('maps/' + f for f in files)}; github.com/serrasqueiro/dpjudge, a git port of the",
        "SourceForge project dpjudge). The raw files are not part of this project.",
        "",
    ]
    if made:
        lines += ["Derived here: " + "; ".join(made) + ".", ""]
    if variant.standard_map or not variant.drawing:
        lines += [
            "The board itself is the Standard one: data/variants/standard/map.json and",
            "data/variants/standard/geometry.json (see data/variants/standard/NOTICE.txt for the",
            "drawing's credits).",
            "",
        ]
    lines += [
        f"Map facts derived from DPjudge (maps/{variant.map_file}), Copyright 2017 Manus Hand, MIT licence.",
        variant.source_note,
        "",
        MIT_NOTICE + licence,
    ]
    return "\n".join(lines) + "\n"


def variant_document(variant: Variant, dp: reader.DpMap, game_map: dict) -> dict:
    powers = game_map["powers"]
    colours = chaos_colours(game_map) if variant.name == "chaos" else power_colours(powers, variant.colours)
    homes = {p: sorted(c["code"] for c in game_map["provinces"] if c["home"] == p) for p in powers}
    standard = standard_colours() if variant.standard_map else {}
    info = {}
    for p in powers:
        d = dp.powers[p]
        info[p] = {
            "name": " ".join(w.capitalize() for w in d.written.replace("+", " ").split()),
            "adjective": " ".join(w.capitalize() for w in d.adjective.split()),
            "letter": d.letter or p[:1],
            **(standard.get(p) or {"colour": colours[p]}),
            "home_centers": homes[p],
        }
        if d.partisan:
            info[p]["partisan_sites"] = d.partisan
    letters = [v["letter"] for v in info.values()]
    if len(set(letters)) != len(letters):
        raise ValueError(f"{variant.name}: two powers share a letter: {letters}")
    doc: dict = {
        "name": variant.name,
        "title": variant.title,
        "map": "standard" if variant.standard_map else "map.json",
        "geometry": "geometry.json" if variant.drawing else "standard",
        "victory_centers": game_map["victory_centers"],
        "start_phase": game_map["start"]["phase"],
        "powers": info,
        "rules": variant.rules,
        "special_adjacencies": reader.special_crossings(dp),
        "notes": list(variant.notes),
        "source": {
            "map": f"DPjudge maps/{variant.map_file}",
            "drawing": f"DPjudge maps/{variant.drawing.ps}"
            if variant.drawing
            else "data/variants/standard/geometry.json",
            "licence": "MIT, Copyright 2017 Manus Hand (see NOTICE.txt)",
        },
    }
    if variant.standard_map:
        doc["start"] = {"units": game_map["start"]["units"], "centers": game_map["start"]["centers"]}
    if not doc["special_adjacencies"]:
        del doc["special_adjacencies"]
    return doc


_PLAIN = r'(?:"[^"\n]*"|-?[\d.]+|true|false|null)'
_PLAIN_LIST = re.compile(rf"\[\s*((?:{_PLAIN}\s*,\s*)*{_PLAIN})\s*\]")


def dumps_compact(doc: dict) -> str:
    """JSON with two-space indents, lists of plain values kept on one line."""
    text = json.dumps(doc, indent=2, ensure_ascii=False)

    def inline(m: re.Match) -> str:
        one = "[" + ", ".join(json.dumps(v, ensure_ascii=False) for v in json.loads(m.group(0))) + "]"
        return one if len(one) <= 100 else m.group(0)

    return _PLAIN_LIST.sub(inline, text) + "\n"


def standard_board(dp: reader.DpMap, standard: dict, name: str, title: str, note: str) -> dict:
    """A variant on the Standard board: data/variants/standard/map.json's provinces and adjacency
    (checked equal to the .map's), with the variant's powers, home centres and start."""
    doc = reader.map_document(dp, name, title, note)
    for key in ("army_adjacency", "fleet_adjacency"):
        if {tuple(sorted(p)) for p in doc[key]} != {tuple(sorted(p)) for p in standard[key]}:
            raise ValueError(f"{name}: the .map's {key} differs from data/variants/standard/map.json's")
    ours = {p["code"]: p for p in doc["provinces"]}
    provinces = []
    for p in standard["provinces"]:
        mine = ours[p["code"]]
        if (mine["kind"], mine["supply_center"], mine["coasts"]) != (
            p["kind"],
            p["supply_center"],
            p["coasts"],
        ):
            raise ValueError(f"{name}: {p['code']} differs from data/variants/standard/map.json's")
        provinces.append({**p, "home": mine["home"]})
    return {
        **doc,
        "provinces": provinces,
        "army_adjacency": standard["army_adjacency"],
        "fleet_adjacency": standard["fleet_adjacency"],
    }


# --- labels clear of units ------------------------------------------------------------------------------
#
# convert_map places each name inside its province, clear of its own unit. Variants with many powers
# also draw a letter badge at each unit's upper right, and every centre has its marker. Some provinces
# of these maps are too small for all of them (Corsica, Crete, Milan, Liverpool, the Suez canal): their
# names move just beside the unit, in the sea or their own province if possible, clear of every unit
# spot, badge, centre marker and every other name. Sizes in output units, as in render/layout.py.

LABEL_SEARCH = 16.0  # how far from its unit a name may go
ICON_MARGIN = 1.3  # around a unit icon when a name moves: its rim and its letter badge
CENTRE_BOX = 2.5 + 1.0  # half size of a supply-centre marker and its ring


def free_labels(doc: dict) -> list[tuple[str, list[float], list[float]]]:
    """Move the names that sit under their own unit, or that a unit, its letter badge or a supply
    centre's marker (any province's) would cover; returns (code, before, after) for each."""
    m = ICON_MARGIN
    all_spots = [
        (a - m, b - m, c + m, d + m) for boxes in mapchecks.spot_boxes(doc).values() for a, b, c, d in boxes
    ]
    all_spots += [
        (x - CENTRE_BOX, y - CENTRE_BOX, x + CENTRE_BOX, y + CENTRE_BOX)
        for s in doc["provinces"].values()
        if s["supply_center"]
        for x, y in [s["supply_center"]]
    ]
    all_spots += [box for _, box in mapchecks.marker_boxes(doc)]
    shapes = {
        code: unary_union([Polygon(poly[0], poly[1:]) for poly in s["polygons"]])
        for code, s in doc["provinces"].items()
    }
    land = unary_union([g for code, g in shapes.items() if doc["provinces"][code]["kind"] != "sea"])
    moved = []
    for code in sorted(set(mapchecks.label_clashes(doc)) | set(mapchecks.label_cover(doc))):
        shape = doc["provinces"][code]
        ux, uy = shape["unit"]
        others = [mapchecks.label_box(c, *s["label"]) for c, s in doc["provinces"].items() if c != code]
        own_land = shapes[code] if shape["kind"] != "sea" else shapes[code].buffer(0)
        foreign_land = land.difference(own_land)
        w, h = mapchecks.LABEL_W_PER_CHAR * len(code) + 1.0, mapchecks.LABEL_H
        best, best_cost = None, math.inf
        grid = np.arange(-LABEL_SEARCH, LABEL_SEARCH + 1e-9, 0.5)
        ox, oy = np.meshgrid(np.linspace(-w / 2, w / 2, 7), np.linspace(-h / 2, h / 2, 4))
        for dx in grid:
            for dy in grid:
                if dx * dx + dy * dy > LABEL_SEARCH**2:
                    continue
                cx, cy = ux + dx, uy + dy
                b = mapchecks.label_box(code, cx, cy)
                if b[0] < 0 or b[1] < 0 or b[2] > doc["width"] or b[3] > doc["height"]:
                    continue
                cost = 50 * sum(mapchecks.overlap(b, s) for s in all_spots)
                cost += 50 * sum(mapchecks.overlap(b, o) for o in others)
                if cost >= best_cost:
                    continue
                sx, sy = (cx + ox).ravel(), (cy + oy).ravel()
                cost += 30 * int(contains_xy(foreign_land, sx, sy).sum())
                cost += math.hypot(dx, (dy - cm.LABEL_BELOW_UNIT) * 1.3) * 0.5
                if cost < best_cost:
                    best, best_cost = [round(float(cx), 2), round(float(cy), 2)], cost
        if best is not None and best != shape["label"]:
            moved.append((code, shape["label"], best))
            shape["label"] = best
    return moved


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(
            name="ancmed",
            title="Ancient Mediterranean",
            map_file="ancmed.map",
            drawing=Drawing(
                ps="ancmed.ps",
                scale=0.71,
                not_borders=("OutlineChartArrowcolor",),
                straits=(
                    ((636.2, 455.0), (639.6, 454.2), "Bosporus: parts the Black Sea from the straits"),
                    ((597.0, 421.5), (597.0, 417.8), "Dardanelles: parts the straits from the Aegean"),
                ),
                faces=(
                    ((156.2, 391.7), "BAL", "an islet of the Baleares"),
                    ((200.1, 419.2), "BAL", "an islet of the Baleares"),
                    ((712.8, 199.3), "THB", "the Nile delta: Thebes' coast on the Gulf of Pelusium"),
                    ((722.9, 197.4), "THB", "the Nile delta"),
                    ((726.7, 203.8), "THB", "the Nile delta"),
                    ((728.4, 194.0), "THB", "the Nile delta"),
                ),
            ),
            source_note="Ancient Mediterranean designed by Don Hessong; drawn with DPeye by Mario Huys.",
            colours={
                "CARTHAGE": "#005A96",
                "EGYPT": "#F0E442",
                "GREECE": "#56B4E9",
                "PERSIA": "#B85490",
                "ROME": "#D55E00",
            },
            rules={"convoy_ports": ["BAL"]},
            notes=(
                "Baleares (BAL) is a PORT in DPjudge's map: coastal land where a fleet may also convoy, as"
                " at sea (rules.convoy_ports). It touches Saguntum and Tarraconensis by fleet only (written"
                " 'Sag'/'Tar' in the .map): the map's fleet adjacency has them, its army adjacency does not.",
                "DPjudge's map begins in Spring of year 1 (BEGIN SPRING 1 MOVEMENT): start_phase is S0001M,"
                " which engine.phase.Phase parses; printing it back needs the year padded to four digits.",
            ),
        ),
        Variant(
            name="1900",
            title="Diplomacy 1900",
            map_file="1900.map",
            drawing=Drawing(
                ps="1900.ps",
                scale=0.65,
                inset=4.0,
                straits=(((619.8, 166.5), (622.8, 166.5), "Bosporus: parts the Black Sea from the Marmara"),),
                faces=(
                    (
                        (640.0, 180.0),
                        "BLA",
                        "the Black Sea off Constantinople, cut off by a stray border line",
                    ),
                    (
                        (9.5, 83.8),
                        "GIB",
                        "the strait of Gibraltar: the province is the water between the coasts",
                    ),
                    ((302.8, 467.3), "KIE", "the Kiel canal, in Kiel"),
                    ((300.0, 476.0), "KIE", "Schleswig, north of the canal: Kiel's (Germany's in 1900)"),
                    ((770.3, -76.2), "EGY", "Sinai: Egypt's, between Egypt and Palestine"),
                ),
            ),
            source_note="Diplomacy 1900 designed by Baron M. Powell; drawn with DPeye by Mario Huys.",
            rules={
                "cape_of_good_hope": {
                    "crossings": [["EGY", "MAO"], ["HEJ", "MAO"]],
                    "no_support_across": True,
                    "half_strength": True,
                    "retreat_loses_to_others": True,
                },
                "convoy_ports": ["GIB"],
            },
            notes=(
                "Cape of Good Hope (the .map's comment): Egypt and Hejaz touch the Mid-Atlantic Ocean round"
                " Africa (marked * in the .map). map.json has these crossings as ordinary fleet adjacencies;"
                " the rules that go with them are rules.cape_of_good_hope: (1) no support across a crossing"
                " (a fleet in EGY or HEJ cannot support into MAO, nor a fleet in MAO into EGY or HEJ), though"
                " the fleet may move across; (2) a move across a crossing has half strength; (3) a unit that"
                " retreats across a crossing is destroyed if any other unit retreats to the same place.",
                "Gibraltar (GIB) is a PORT in DPjudge's map: land where a fleet may also convoy, as at sea"
                " (rules.convoy_ports). On the picture it is the strait between Spain and Morocco.",
                "Britain starts owning Egypt, and France Algeria, with units there, but neither is a home"
                " centre: no builds there (DPjudge's OWNS lines). Switzerland is an ordinary province and a"
                " supply centre.",
                "DPjudge's map gives Russia Siberia as a 'partisan' home (*SIB): not a supply centre, a build"
                " site only under a DPjudge centre marker (SC*) that nothing here sets. Recorded as"
                " powers.RUSSIA.partisan_sites; no rules switch proposed.",
            ),
        ),
        Variant(
            name="modern",
            title="Modern Diplomacy",
            map_file="modern.map",
            drawing=Drawing(ps="modern.ps", scale=1.0, not_borders=("OutlineChartCanalLine",)),
            source_note="Modern Diplomacy, a variant by Vincent Mous; drawn with DPeye by Mario Huys.",
            colours={"EGYPT": "#5B3A00", "POLAND": "#D55E00", "SPAIN": "#E69F00", "UKRAINE": "#1B2A6B"},
            notes=(
                "DPjudge's map begins in Spring 1995. Its drawing shows canals (Kiel, Suez, Volga-Don) as"
                " lines only; what they allow is in the adjacency.",
            ),
        ),
        Variant(
            name="youngstown",
            title="Youngstown",
            map_file="youngstown.map",
            drawing=Drawing(
                ps="youngstown.ps",
                scale=1.3,
                boxes=tuple(f"OB{c}" for c in "ABCDEFGHIJKL"),
                box_half=11.0,
                box_moves=(
                    (
                        "OBA",
                        (276.0, 901.0),
                        "inside the North Atlantic, clear of Ireland, Clyde and the Norwegian Sea",
                    ),
                    ("OBD", (25.0, 803.0), "inside Morocco, clear of its coast and of the Sahara"),
                ),
                faces=(
                    ((628.2, 732.1), "ACI", "land under the Arctic ice: the impassable Arctic Circle"),
                    ((570.5, 731.1), "ACI", "land under the Arctic ice"),
                    ((834.7, 787.7), "ACI", "land under the Arctic ice, north of Siberia"),
                    ((258.3, 616.4), "CON", "Thrace, the European side of Constantinople"),
                    ((236.6, 503.0), "EGY", "Sinai: Egypt's, across the Suez canal"),
                    ((296.6, 793.7), "KIE", "Schleswig: Kiel's"),
                    ((293.3, 791.7), "KIE", "the Kiel canal, in Kiel"),
                    ((943.3, 218.1), "PHI", "the Visayas: the Philippines'"),
                    ((971.0, 200.0), "PHI", "Mindanao: the Philippines', on the Celebes Sea"),
                ),
            ),
            source_note="Youngstown variant; DPjudge map by Mario Huys (2001), drawn with DPeye.",
            colours={"CHINA": "#E69F00", "INDIA": "#5B3A00", "JAPAN": "#AADD99"},
            notes=(
                "The world is round: twelve off-board places (OBA to OBL, 'Off Board A' ...) carry the"
                " moves round the back of the globe, from the Atlantic and Africa to the Pacific. DPjudge"
                " draws each as a small box at the map's edge; so does geometry.json (boxes a little"
                " smaller, two moved: see scripts/convert_variant.py). Their links to each other are in"
                " map.json's adjacency, not on the picture.",
                "The Arctic Circle (ACI), the Caspian Sea (CAS), the Himalayas (HIM) and Switzerland (SWI)"
                " are impassable (SHUT): in geometry.json's decoration.impassable, not in map.json.",
                "Suez (SUE) is a sea province: the canal.",
            ),
        ),
        Variant(
            name="chaos",
            title="Chaos",
            map_file="chaos.map",
            drawing=None,
            standard_drawing="chaos.ps",
            on_standard_board=True,
            source_note="Chaos: the Standard board with 34 powers, one per supply centre.",
            rules={"build_anywhere": True},
            notes=(
                "Every supply centre is a power's only home centre; the game begins with Winter 1900"
                " adjustments, in which each power builds its first unit (DPjudge: BEGIN WINTER 1900"
                " ADJUSTMENTS). From then on a power builds in any supply centre it owns (DPjudge's rule"
                " BUILD_ANY; rules.build_anywhere), not only in its home centre.",
                "The board is the Standard one: map.json repeats the Standard map.json's provinces and"
                " adjacency (the converter checks that DPjudge's chaos.map agrees) with the 34 powers; the"
                " drawing is the Standard one (chaos.ps is checked to be dpjudge_standard.ps's).",
                "34 colours cannot all be told apart: see the colour notes in scripts/convert_variant.py."
                " Powers whose home centres are within two moves never share a colour; each power also"
                " has DPjudge's one-character letter (A-Z, 0-9) for its units, and its home centre.",
            ),
        ),
        Variant(
            name="fleetrome",
            title="Fleet Rome",
            map_file="fleetrome.map",
            drawing=None,
            on_standard_board=True,
            standard_map=True,
            source_note="Fleet Rome: the Standard game with an Italian fleet in Rome instead of an army.",
            notes=("The Standard map and game; only Italy's starting units differ: F ROM instead of A ROM.",),
        ),
    )
}


def build_map(variant: Variant, dp: reader.DpMap, standard: dict) -> dict:
    note = (
        f"{variant.title}: facts of the board, derived from DPjudge maps/{variant.map_file} by"
        " scripts/convert_variant.py. Province kind: sea, coast (land touching a sea), land (inland)."
        " 'coasts' lists the named coasts of split-coast provinces; fleet adjacency names them as"
        " PROV/COAST. Army and fleet adjacency are symmetric lists of pairs."
    )
    if variant.on_standard_board:
        return standard_board(dp, standard, variant.name, variant.title, note)
    army, fleet = reader.directed_adjacency(dp)
    for kind, pairs in (("army", army), ("fleet", fleet)):
        if reader.one_way(pairs):
            raise ValueError(f"{variant.name}: one-way {kind} moves in the .map: {reader.one_way(pairs)}")
    return reader.map_document(dp, variant.name, variant.title, note)


def check_standard_drawing(ps: Path, standard_ps: Path) -> None:
    """The variant's drawing is the Standard one: same outlines, same anchors and centre dots."""
    if not standard_ps.is_file():
        return
    a, b = read_drawing(ps, 1.0), read_drawing(standard_ps, 1.0)
    if [(p.chart, p.lines) for p in a.paints] != [(p.chart, p.lines) for p in b.paints] or (
        a.anchors,
        a.supplies,
    ) != (b.anchors, b.supplies):
        raise ValueError(f"{ps.name} is not the Standard drawing: give the variant a Drawing")


def convert(variant: Variant, source_dir: Path, out_dir: Path) -> list[str]:
    report: list[str] = []
    dp = reader.read_map(source_dir / variant.map_file)
    standard = json.loads((ROOT / "data" / "variants" / "standard" / "map.json").read_text(encoding="utf-8"))
    game_map = build_map(variant, dp, standard)
    folder = out_dir / variant.name
    folder.mkdir(parents=True, exist_ok=True)
    for stale in ("map.json", "geometry.json"):
        (folder / stale).unlink(missing_ok=True)
    if not variant.standard_map:
        (folder / "map.json").write_text(reader.dumps_map(game_map), encoding="utf-8")
    if variant.drawing is not None:
        doc, faces, _source = build_geometry(variant, source_dir, dp, report)
        (folder / "geometry.json").write_text(json.dumps(doc, separators=(",", ":")) + "\n", encoding="utf-8")
        n_points = len(get_coordinates([p for ps in faces.provinces.values() for p in ps]))
        report.append(
            f"geometry: {len(doc['provinces'])} provinces, {len(faces.islands)} islands, "
            f"{len(faces.lakes)} lakes, {len(faces.water)} other water, {n_points} polygon points, "
            f"{doc['width']:.0f} x {doc['height']:.0f} units"
        )
    elif variant.standard_drawing:
        check_standard_drawing(
            source_dir / variant.standard_drawing, source_dir.parent / "dpjudge_standard.ps"
        )
    variant_doc = variant_document(variant, dp, game_map)
    (folder / "variant.json").write_text(dumps_compact(variant_doc), encoding="utf-8")
    (folder / "NOTICE.txt").write_text(notice_text(variant, source_dir), encoding="utf-8")
    centres = [p for p in game_map["provinces"] if p["supply_center"]]
    report.append(
        f"map: {len(game_map['provinces'])} provinces, {len(centres)} centres "
        f"({sum(1 for p in centres if p['home'])} home), {len(game_map['powers'])} powers, "
        f"{game_map['victory_centers']} to win, first phase {game_map['start']['phase']}"
    )
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "names", nargs="*", help=f"variants to convert (default: all of {', '.join(VARIANTS)})"
    )
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE, help="folder of DPjudge's map files")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder of the variant folders")
    parser.add_argument("--debug", action="store_true", help="list the unnamed faces (source units)")
    args = parser.parse_args(argv)
    global DEBUG
    DEBUG = args.debug
    unknown = [n for n in args.names if n not in VARIANTS]
    if unknown:
        parser.error(f"unknown variants {unknown}; known: {', '.join(VARIANTS)}")
    for name in args.names or list(VARIANTS):
        report = convert(VARIANTS[name], args.source, args.out)
        print(f"{name}:", *report, sep="\n  ", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
