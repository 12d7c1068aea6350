"""Where everything goes on one picture: the units of a board (and the dislodged ones, set aside),
in pixels, and where an order's unit is drawn.

The board may be the one an order set was given on (units at their starting places) or the one that
came out of adjudicating them (units where they ended up, dislodged units beside their attackers);
either way an order's arrow starts where its unit stood, which is its own location.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.board import Board
from engine.mapdata import province_of
from engine.orders import Build, Disband, Remove, Retreat, Unit
from render.aside import obstacles, set_aside
from render.geometry import MapGeometry, Point
from render.layout import Layout
from render.marks import SUCCEEDED, OrderMark
from render.palette import Palette


@dataclass(frozen=True, slots=True)
class DrawnUnit:
    power: str
    unit: Unit
    at: Point  # pixels
    dislodged: bool = False
    retreats: tuple[str, ...] = ()
    fading: bool = False  # being removed or disbanded
    ghost: bool = False  # ordered to be built, not on the board


@dataclass(slots=True)
class Scene:
    board: Board
    marks: Sequence[OrderMark]
    geometry: MapGeometry
    layout: Layout
    palette: Palette
    units: list[DrawnUnit]

    @classmethod
    def build(
        cls, board: Board, marks: Sequence[OrderMark], geometry: MapGeometry, layout: Layout, palette: Palette
    ) -> Scene:
        scene = cls(board, marks, geometry, layout, palette, [])
        leaving = {
            (m.power, m.order.unit.province)
            for m in marks
            if isinstance(m.order, Remove | Disband) and m.order.unit is not None and not m.failed
        }
        for power, unit in sorted(board.all_units(), key=lambda pu: (pu[0], pu[1].location)):
            if not geometry.has(unit.location):
                continue
            scene.units.append(
                DrawnUnit(
                    power,
                    unit,
                    layout.px(geometry.anchor(unit.location)),
                    fading=(power, unit.province) in leaving,
                )
            )
        placed = [(u.unit.type, geometry.anchor(u.unit.location), False) for u in scene.units]
        for power, entries in sorted(board.dislodged.items()):
            for d in entries:
                if not geometry.has(d.unit.location):
                    continue
                around = obstacles(geometry, board.game_map.name, geometry.anchor(d.unit.location), placed)
                spot = set_aside(geometry, d.unit.location, d.unit.type, d.attacker_from, around)
                placed.append((d.unit.type, spot, True))
                scene.units.append(
                    DrawnUnit(
                        power,
                        d.unit,
                        layout.px(spot),
                        dislodged=True,
                        retreats=d.retreats,
                        fading=(power, d.unit.province) in leaving,
                    )
                )
        on_board = {(u.power, u.unit.province) for u in scene.units if not u.dislodged}
        for m in marks:
            order = m.order
            if isinstance(order, Build) and (m.power, order.unit.province) not in on_board:
                if m.failed or not geometry.has(order.unit.location):
                    continue  # a refused build makes no unit: the overlay crosses out its "+" instead
                at = layout.px(geometry.anchor(order.unit.location))
                scene.units.append(DrawnUnit(m.power, order.unit, at, ghost=m.status != SUCCEEDED))
            elif (
                isinstance(order, Remove | Disband)
                and not m.failed
                and geometry.has(order.unit.location)
                and (m.power, order.unit.province) not in on_board
                and not any(u.dislodged and u.unit.province == order.unit.province for u in scene.units)
            ):
                # Already gone from a result board: show what was removed, faint.
                at = layout.px(geometry.anchor(order.unit.location))
                scene.units.append(DrawnUnit(m.power, order.unit, at, fading=True, ghost=True))
        return scene

    def unit_at(
        self, province: str, power: str | None = None, dislodged: bool | None = None
    ) -> DrawnUnit | None:
        for u in self.units:
            if u.unit.province != province or u.ghost:
                continue
            if power is not None and u.power != power:
                continue
            if dislodged is not None and u.dislodged != dislodged:
                continue
            return u
        return None

    def position(self, power: str, unit: Unit, retreating: bool = False) -> Point:
        """Where ``power``'s ``unit`` named in an order is drawn (or stood, if it has moved on)."""
        prov = province_of(unit.location)
        if retreating:
            found = self.unit_at(prov, power, dislodged=True)
            if found:
                return found.at
        found = self.unit_at(prov, power, dislodged=False) or self.unit_at(prov, power, dislodged=True)
        if found is not None and (found.unit.type == unit.type or unit.type is None):
            return found.at
        return self.layout.px(self.geometry.anchor(unit.location))

    def position_of_mark(self, mark: OrderMark) -> Point:
        assert mark.order.unit is not None
        return self.position(
            mark.power, mark.order.unit, retreating=isinstance(mark.order, Retreat | Disband)
        )
