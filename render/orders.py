"""The order overlay, drawn the way players know it.

* a move is an arrow in the mover's colour; a convoyed army's arrow runs through the convoying fleets;
* a support is a dashed line: to the supported move's arrow, or to a ring round the unit it holds;
* a hold is a ring round the unit; a convoy a dashed ring round the fleet;
* a retreat is an arrow from the dislodged unit; the places a dislodged unit may retreat to are thin
  dashed arrows until it has an order;
* a build gets a + badge on the new unit (a build not yet made is a faint unit); a refused build
  draws no unit, only a crossed-out + at its site; a removed unit is faint and crossed out, with a -
  badge (a refused removal: the unit as it is, its - crossed out);
* a failed (or invalid) order is drawn faded **and** crossed out with an X, so it does not rely on
  colour; a dislodged unit is set aside in its province with a "!" badge.

Arrows and rings go under the units, crosses and badges over them (:meth:`OrderOverlay.paint_under`,
:meth:`OrderOverlay.paint_over`).
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

from PIL import Image

from engine.mapdata import province_of
from engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
)
from render import layout as L
from render.aa import RGBA, Circle, Fill, Shape, Stroke, paint
from render.icons import badge_sprite, cross_sprite, paste_centred
from render.marks import OrderMark
from render.paths import Point, arrowhead, curve, point_at, through, trim
from render.scene import DrawnUnit, Scene

FAILED_OPACITY = 0.5
HINT_OPACITY = 0.85
BUILD_GREEN = (28, 140, 64)
DISLODGED_ORANGE = (232, 110, 0)
CROSS_RADIUS = 3.6
SITE_BADGE = 1.4  # a refused build's crossed "+" where no unit stands: bigger than a unit's badge
WINTER_BADGE = 1.8  # a build's "+" and a removal's "-": the winter's whole news, seen on a phone


@dataclass(slots=True)
class _Layered:
    """Shapes to paint, each group with its opacity, in painting order."""

    groups: list[tuple[list[Shape], float]] = field(default_factory=list)

    def add(self, shapes: list[Shape], opacity: float = 1.0) -> None:
        if shapes:
            self.groups.append((shapes, opacity))


def _luminance(rgb: tuple[int, int, int]) -> float:
    r, g, b = (c / 255 for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _circle_points(c: Point, r: float, n: int = 48) -> list[Point]:
    return [
        (c[0] + r * math.cos(2 * math.pi * i / n), c[1] + r * math.sin(2 * math.pi * i / n))
        for i in range(n + 1)
    ]


class OrderOverlay:
    """Turns OrderMarks into shapes and marks on a picture of a :class:`Scene`."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        lay = scene.layout
        self.r = lay.size(L.ARMY_RADIUS)
        self.fleet_w = lay.size(L.FLEET_HALF_WIDTH)
        self.fleet_h = lay.size(L.FLEET_HALF_HEIGHT)
        self.arrow_w = lay.size(L.ARROW_WIDTH)
        self.support_w = lay.size(L.SUPPORT_WIDTH)
        self.head_len = lay.size(L.ARROW_HEAD_LENGTH)
        self.head_w = lay.size(L.ARROW_HEAD_WIDTH)
        self.halo_w = max(1.0, lay.size(0.55))
        self.dash = (lay.size(2.4), lay.size(1.5))
        self.move_paths: dict[tuple[str, str], list[Point]] = {}
        self.crosses: list[tuple[Point, float]] = []  # where, and how big (1 = an order's cross)
        self.badges: list[tuple[str, tuple[int, int, int], Point, float]] = []  # symbol, colour, where, size
        self.under = _Layered()
        self._plan()

    # --- helpers -----------------------------------------------------------------------------------

    def colour(self, power: str) -> tuple[RGBA, RGBA]:
        """(stroke colour, halo colour) for a power's orders."""
        rgb = self.scene.palette.power(power).unit
        halo = (30, 30, 34, 230) if _luminance(rgb) > 0.6 else (255, 255, 255, 235)
        return (*rgb, 255), halo

    def ring_radius(self, unit: DrawnUnit | None, unit_type: str | None = None) -> float:
        kind = unit.unit.type if unit is not None else unit_type
        return (self.fleet_w * 1.2) if kind == "F" else (self.r * 1.55)

    def gap_at(self, province: str) -> float:
        """How far short of a province's anchor an arrow stops: clear of a unit drawn there."""
        there = self.scene.unit_at(province, dislodged=False)
        if there is None:
            return self.r * 0.35
        return (self.fleet_h if there.unit.type == "F" else self.r) * 1.2

    def dest_point(self, location: str) -> Point:
        return self.scene.layout.px(self.scene.geometry.anchor(location))

    def _exists(self, mark: OrderMark) -> bool:
        """An invalid order for a unit that is not on the board has nothing to draw from."""
        unit = mark.order.unit
        if unit is None or not self.scene.geometry.has(unit.location):
            return False
        if mark.status != "invalid" or isinstance(mark.order, Build):  # a refused build is shown at its site
            return True
        return self.scene.unit_at(unit.province, mark.power) is not None

    def _arrow(
        self, path: list[Point], power: str, width: float, dash: tuple[float, float] | None = None
    ) -> list[Shape]:
        colour, halo = self.colour(power)
        shaft, head = arrowhead(
            path, self.head_len * width / self.arrow_w, self.head_w * width / self.arrow_w
        )
        return [
            Stroke(shaft, width + 2 * self.halo_w, halo, dash=dash),
            Fill(head, halo, outline=halo, outline_width=self.halo_w * 2),
            Stroke(shaft, width, colour, dash=dash),
            Fill(head, colour),
        ]

    # --- planning ----------------------------------------------------------------------------------

    def _plan(self) -> None:
        marks = [m for m in self.scene.marks if self._exists(m)]
        retreating = {
            (m.power, m.order.unit.province) for m in marks if isinstance(m.order, Retreat | Disband)
        }
        for u in self.scene.units:
            if not u.dislodged:
                continue
            self._dislodged_ring(u)
            if (u.power, u.unit.province) not in retreating:
                self._retreat_hints(u)
            self.badges.append(("!", DISLODGED_ORANGE, self._badge_spot(u), 1.0))
        moves = [m for m in marks if isinstance(m.order, Move | Retreat)]
        # Paths of moves first: supports attach to them.
        move_shapes: list[tuple[list[Shape], float]] = []
        for m in moves:
            move_shapes.append(self._move(m))
        for m in marks:
            order = m.order
            if isinstance(order, SupportMove):
                self.under.add(*self._support_move(m))
            elif isinstance(order, SupportHold):
                self.under.add(*self._support_hold(m))
            elif isinstance(order, Convoy):
                self.under.add(*self._convoy(m))
        for shapes, opacity in move_shapes:
            self.under.add(shapes, opacity)
        for m in marks:
            order = m.order
            if isinstance(order, Hold):
                self.under.add(*self._hold(m))
            elif isinstance(order, Build):
                self._build(m)
            elif isinstance(order, Remove | Disband):
                self._remove(m)

    def _dislodged_ring(self, u: DrawnUnit) -> None:
        """A dashed orange ring: this unit was dislodged and must retreat (or is lost)."""
        ring = _circle_points(u.at, self.ring_radius(u) * 0.92, 64)
        width = self.support_w
        dash = (self.dash[0] * 0.7, self.dash[1] * 0.7)
        self.under.add(
            [
                Stroke(ring, width + 2 * self.halo_w, (255, 255, 255, 235), dash=dash),
                Stroke(ring, width, (*DISLODGED_ORANGE, 255), dash=dash),
            ]
        )

    def _retreat_hints(self, u: DrawnUnit) -> None:
        if not u.retreats:  # nowhere to go: the unit is lost
            self.crosses.append((u.at, 1.0))
            return
        shapes: list[Shape] = []
        width = self.support_w * 0.75
        dash = (self.dash[0] * 0.6, self.dash[1] * 0.8)
        for loc in u.retreats:
            if not self.scene.geometry.has(loc):
                continue
            end, gap = self.dest_point(loc), self.gap_at(province_of(loc))
            if self.wraps(u.unit.location, loc):
                leaving, path = self.off_the_edge(u.at, end, gap)
                shapes += self._shaft(leaving, u.power, width, dash)
            else:
                path = trim(curve(u.at, end, bend=0.08), self.r, gap)
            shapes += self._arrow(path, u.power, width, dash=dash)
        self.under.add(shapes, HINT_OPACITY)

    def _convoy_fleets(self, m: OrderMark) -> list[Point]:
        """Positions of the fleets ordered to convoy this army move, in the order the army passes them."""
        order = m.order
        assert isinstance(order, Move)
        src, dest = order.unit.province, province_of(order.dest)
        fleets = {  # the convoying fleet's province -> (its power, the fleet); not a refused order's
            c.order.unit.province: (c.power, c.order.unit)
            for c in self.scene.marks
            if isinstance(c.order, Convoy)
            and c.status != "invalid"
            and c.order.convoyed.province == src
            and province_of(c.order.dest) == dest
        }
        if not fleets:
            return []
        game_map = self.scene.board.game_map

        def touches(loc: str, prov: str) -> bool:
            return any(province_of(x) == prov for x in game_map.fleet_adjacency.get(loc, ()))

        # Breadth-first search from the army's coast to the destination through the convoying fleets.
        starts = [f for f in fleets if touches(f, src)]
        parent: dict[str, str | None] = {f: None for f in starts}
        queue = deque(starts)
        end = None
        while queue:
            f = queue.popleft()
            if touches(f, dest):
                end = f
                break
            for g in fleets:
                if g not in parent and touches(f, g):
                    parent[g] = f
                    queue.append(g)
        if end is not None:
            chain = []
            node: str | None = end
            while node is not None:
                chain.append(node)
                node = parent[node]
            chain.reverse()
        else:
            start = self.scene.position(m.power, order.unit)
            chain = sorted(fleets, key=lambda f: math.dist(start, self.dest_point(f)))
        return [self.scene.position(*fleets[f]) for f in chain]

    def _move(self, m: OrderMark) -> tuple[list[Shape], float]:
        order = m.order
        assert isinstance(order, Move | Retreat)
        start = self.scene.position_of_mark(m)
        end = self.dest_point(order.dest)
        via: list[Point] = []
        if isinstance(order, Move) and order.unit.type == "A":
            game_map = self.scene.board.game_map
            if order.via_convoy or not game_map.army_can_move(order.unit.location, order.dest):
                via = self._convoy_fleets(m)
        gap = self.gap_at(province_of(order.dest))
        if not via and self.wraps(order.unit.location, order.dest):
            leaving, path = self.off_the_edge(start, end, gap)
            self.move_paths[(m.power, order.unit.province)] = path
            if m.failed:
                self.crosses.append((point_at(path, 0.5), 1.0))
            shapes = self._shaft(leaving, m.power, self.arrow_w) + self._arrow(path, m.power, self.arrow_w)
            return shapes, FAILED_OPACITY if m.failed else 1.0
        raw = through([start, *via, end]) if via else curve(start, end)
        path = trim(raw, self.r * 0.5, gap)
        self.move_paths[(m.power, order.unit.province)] = path
        if m.failed:
            self.crosses.append((point_at(path, 0.72), 1.0))
        return self._arrow(path, m.power, self.arrow_w), FAILED_OPACITY if m.failed else 1.0

    # --- moves off one edge of the map and in at another ---------------------------------------------

    def wraps(self, src: str, dst: str) -> bool:
        """A move round Africa (a variant's special crossing: 1900's Cape of Good Hope) or round the
        world (Youngstown's off-board boxes: far apart, each at an edge of the map) is drawn leaving
        the map at one edge and coming in at another, not as an arrow across the whole board."""
        crossings = self.scene.board.rules.switches.crossings
        if crossings is not None and crossings.across(province_of(src), province_of(dst)):
            return True
        geo = self.scene.geometry
        if not (geo.has(src) and geo.has(dst)):
            return False
        a, b = geo.anchor(src), geo.anchor(dst)

        def from_edge(p: Point) -> float:
            return min(p[0], geo.width - p[0], p[1], geo.height - p[1])

        return math.dist(a, b) > L.WRAP_DISTANCE and from_edge(a) < L.WRAP_EDGE and from_edge(b) < L.WRAP_EDGE

    def edge_point(self, p: Point) -> Point:
        """The nearest point of the map's frame to ``p`` (picture pixels)."""
        lay = self.scene.layout
        top, bottom = lay.title_height, lay.title_height + lay.map_height
        x, y = p
        candidates: list[tuple[float, Point]] = [
            (x, (0.0, y)),
            (lay.width - x, (float(lay.width), y)),
            (y - top, (x, float(top))),
            (bottom - y, (x, float(bottom))),
        ]
        return min(candidates)[1]

    def off_the_edge(self, start: Point, end: Point, gap: float) -> tuple[list[Point], list[Point]]:
        """(the stub from ``start`` out to its nearest edge, the arrow's path in from the edge nearest
        ``end``)."""
        leaving = trim([start, self.edge_point(start)], self.r * 0.5, 0.0)
        coming = trim([self.edge_point(end), end], 0.0, gap)
        return leaving, coming

    def _shaft(
        self, path: list[Point], power: str, width: float, dash: tuple[float, float] | None = None
    ) -> list[Shape]:
        """An arrow's shaft without its head (the part of a move that leaves the map)."""
        colour, halo = self.colour(power)
        return [
            Stroke(path, width + 2 * self.halo_w, halo, dash=dash),
            Stroke(path, width, colour, dash=dash),
        ]

    def _support_move(self, m: OrderMark) -> tuple[list[Shape], float]:
        order = m.order
        assert isinstance(order, SupportMove)
        start = self.scene.position_of_mark(m)
        colour, halo = self.colour(m.power)
        target_move = next(
            (
                path
                for (power, prov), path in self.move_paths.items()
                if prov == order.supported.province
                and self._move_dest(power, prov) == province_of(order.dest)
            ),
            None,
        )
        leaving: list[Point] = []
        if target_move is not None:
            target = point_at(target_move, 0.55)
            line = trim([start, target], self.r * 0.5, 0.0)
        else:
            target = self.dest_point(order.dest)
            line = trim([start, target], self.r * 0.5, self.gap_at(province_of(order.dest)))
            target = line[-1]
        if self.wraps(order.unit.location, order.dest):  # round the world: out at one edge, in at another
            leaving = trim([start, self.edge_point(start)], self.r * 0.5, 0.0)
            line = [self.edge_point(target), target]
        dot = self.support_w * 1.5
        shapes: list[Shape] = [
            Stroke(line, self.support_w + 2 * self.halo_w, halo, dash=self.dash),
            Circle(target, dot + self.halo_w, fill=halo),
            Stroke(line, self.support_w, colour, dash=self.dash),
            Circle(target, dot, fill=colour),
        ]
        if leaving:
            shapes += [
                Stroke(leaving, self.support_w + 2 * self.halo_w, halo, dash=self.dash),
                Stroke(leaving, self.support_w, colour, dash=self.dash),
            ]
        if m.failed:
            self.crosses.append((point_at(line, 0.5), 1.0))
        return shapes, FAILED_OPACITY if m.failed else 1.0

    def _move_dest(self, power: str, province: str) -> str | None:
        for m in self.scene.marks:
            if m.power == power and isinstance(m.order, Move) and m.order.unit.province == province:
                return province_of(m.order.dest)
        return None

    def _support_hold(self, m: OrderMark) -> tuple[list[Shape], float]:
        order = m.order
        assert isinstance(order, SupportHold)
        start = self.scene.position_of_mark(m)
        # On a result board a dislodged unit is the one that stood there during the phase.
        held = self.scene.unit_at(order.supported.province, dislodged=True) or self.scene.unit_at(
            order.supported.province, dislodged=False
        )
        centre = held.at if held is not None else self.dest_point(order.supported.location)
        ring_r = self.ring_radius(held, order.supported.type) + self.support_w
        line = trim([start, centre], self.r * 0.5, ring_r)
        lines = [line]
        if self.wraps(order.unit.location, order.supported.location):  # round the world
            lines = [
                trim([start, self.edge_point(start)], self.r * 0.5, 0.0),
                trim([self.edge_point(centre), centre], 0.0, ring_r),
            ]
            line = lines[-1]
        colour, halo = self.colour(m.power)
        ring = _circle_points(centre, ring_r)
        shapes: list[Shape] = [
            *(Stroke(piece, self.support_w + 2 * self.halo_w, halo, dash=self.dash) for piece in lines),
            Stroke(ring, self.support_w + 2 * self.halo_w, halo),
            *(Stroke(piece, self.support_w, colour, dash=self.dash) for piece in lines),
            Stroke(ring, self.support_w, colour),
        ]
        if m.failed:
            self.crosses.append((point_at(line, 0.5), 1.0))
        return shapes, FAILED_OPACITY if m.failed else 1.0

    def _convoy(self, m: OrderMark) -> tuple[list[Shape], float]:
        order = m.order
        assert isinstance(order, Convoy)
        fleet = self.scene.position_of_mark(m)
        colour, halo = self.colour(m.power)
        ring = _circle_points(fleet, self.ring_radius(None, "F"), 64)
        shapes: list[Shape] = [
            Stroke(ring, self.support_w + 2 * self.halo_w, halo, dash=self.dash),
            Stroke(ring, self.support_w, colour, dash=self.dash),
        ]
        army_moves = any(
            isinstance(a.order, Move)
            and a.order.unit.province == order.convoyed.province
            and province_of(a.order.dest) == province_of(order.dest)
            for a in self.scene.marks
        )
        if not army_moves:  # nothing to draw through: show the route the fleet offered
            army = self.scene.position(m.power, order.convoyed)
            for other in self.scene.units:
                if other.unit.province == order.convoyed.province and not other.dislodged:
                    army = other.at
            route = trim([army, fleet, self.dest_point(order.dest)], self.r, self.r)
            shapes += self._arrow(route, m.power, self.support_w, dash=self.dash)
        if m.failed:
            self.crosses.append(((fleet[0] + self.fleet_w * 0.95, fleet[1] - self.fleet_h * 1.1), 1.0))
        return shapes, FAILED_OPACITY if m.failed else 1.0

    def _hold(self, m: OrderMark) -> tuple[list[Shape], float]:
        order = m.order
        assert isinstance(order, Hold)
        at = self.scene.position_of_mark(m)
        unit = self.scene.unit_at(order.unit.province, m.power)
        colour, halo = self.colour(m.power)
        ring = _circle_points(at, self.ring_radius(unit, order.unit.type))
        width = self.support_w * 1.2
        if m.failed:
            self.crosses.append(((at[0] + self.r * 1.2, at[1] - self.r * 1.2), 1.0))
        return [Stroke(ring, width + 2 * self.halo_w, halo), Stroke(ring, width, colour)], (
            FAILED_OPACITY if m.failed else 1.0
        )

    def _badge_spot(self, u: DrawnUnit) -> Point:
        dx, dy = L.badge_offset(u.unit.type)
        return (u.at[0] + self.scene.layout.size(dx), u.at[1] + self.scene.layout.size(dy))

    def _build(self, m: OrderMark) -> None:
        """A build: a "+" on the new unit (faint while only ordered). A refused build makes no unit:
        a crossed-out "+" stands at the site instead (beside whatever unit stands there)."""
        unit = m.order.unit
        assert unit is not None
        if m.failed:
            there = self.scene.unit_at(unit.province, dislodged=False)
            if there is None:
                spot, size = self.dest_point(unit.location), SITE_BADGE
            else:  # at the unit's upper left, clear of the badges at its upper right
                x, y = self._badge_spot(there)
                spot, size = (2 * there.at[0] - x, y), 1.0
            off = self.scene.layout.size(L.BADGE_RADIUS) * size * 0.75
            cross = (spot[0] - off, spot[1] - off)  # away from any unit below it
            self.badges.append(("+", BUILD_GREEN, spot, size))
            self.crosses.append((cross, 0.6 * size))  # small, off-centre: the "+" stays readable
            return
        u = self.scene.unit_at(unit.province, m.power) or next(
            (g for g in self.scene.units if g.ghost and g.unit.province == unit.province), None
        )
        if u is not None:
            self.badges.append(("+", BUILD_GREEN, self._badge_spot(u), WINTER_BADGE))

    def _remove(self, m: OrderMark) -> None:
        """A removal (or a dislodged unit's disband): a "-" on the unit, and the unit crossed out.
        A refused one leaves the unit as it is, with its "-" crossed out instead."""
        retreating = isinstance(m.order, Disband)
        unit = m.order.unit
        assert unit is not None
        prov = unit.province
        u = self.scene.unit_at(prov, m.power, dislodged=True if retreating else None) or next(
            (g for g in self.scene.units if g.ghost and g.unit.province == prov), None
        )
        if u is None:
            return
        spot = self._badge_spot(u)
        if u.dislodged:  # the "-" replaces the dislodged "!"
            self.badges = [b for b in self.badges if b[2] != spot]
        big = not retreating and not m.failed  # a refused one keeps its small crossed "-", clear of the unit
        self.badges.append(("-", self.scene.palette.fail, spot, WINTER_BADGE if big else 1.0))
        self.crosses.append((spot, 0.75) if m.failed else (u.at, 1.0))

    # --- painting ----------------------------------------------------------------------------------

    def paint_under(self, img: Image.Image) -> None:
        for shapes, opacity in self.under.groups:
            paint(img, shapes, opacity)

    def paint_over(self, img: Image.Image) -> None:
        lay = self.scene.layout
        badge_r = lay.size(L.BADGE_RADIUS)
        for symbol, colour, at, scale in self.badges:
            paste_centred(img, badge_sprite(symbol, colour, badge_r * scale), at)
        for at, scale in self.crosses:
            paste_centred(img, cross_sprite(self.scene.palette.fail, lay.size(CROSS_RADIUS * scale)), at)
