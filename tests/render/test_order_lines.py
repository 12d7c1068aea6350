"""Where order lines go: a support to the arrow it supports, a dislodged unit's retreat options."""

from __future__ import annotations

from PIL import Image

from engine.orders import Move, Retreat, SupportMove, Unit
from render import OrderMark
from render import layout as L
from render.geometry import Point, load_geometry
from render.palette import DEFAULT
from render.paths import curve, point_at
from render.scene import Scene
from tests.render.pixels import board, draw, layout, window


def px(location: str) -> Point:
    return layout().px(load_geometry().anchor(location))


def changed_at(a: Image.Image, b: Image.Image, p: Point, radius: int = 2) -> bool:
    """Whether the two pictures differ visibly round ``p``."""
    centre = (round(p[0]), round(p[1]))
    return any(
        max(abs(u - v) for u, v in zip(x, y, strict=True)) > 40
        for x, y in zip(window(a, centre, radius), window(b, centre, radius), strict=True)
    )


def along(a: Image.Image, b: Image.Image, path: list[Point], start: float, end: float) -> float:
    """The share of points from ``start`` to ``end`` of the way along ``path`` where a and b differ."""
    steps = 12
    hits = [changed_at(a, b, point_at(path, start + (end - start) * i / steps)) for i in range(steps + 1)]
    return sum(hits) / len(hits)


def test_a_support_runs_to_the_middle_of_the_supported_arrow_not_to_the_unit() -> None:
    b = board({"GERMANY": ["A MUN", "A RUH"]}, {})
    move = OrderMark("GERMANY", Move(Unit("A", "MUN"), "BUR"), "succeeded")
    support = OrderMark("GERMANY", SupportMove(Unit("A", "RUH"), Unit("A", "MUN"), "BUR"), "succeeded")
    moving, supported = draw(b, [move]), draw(b, [move, support])
    middle = point_at(curve(px("MUN"), px("BUR")), 0.55)
    # The dashed line: present along the way from Ruhr to the arrow's middle...
    assert along(supported, moving, [px("RUH"), middle], 0.3, 0.85) >= 0.6
    # ...ending there with a dot...
    assert changed_at(supported, moving, middle, 3)
    # ...and no line from Ruhr to the Munich army itself (its second half, clear of the shared start).
    assert along(supported, moving, [px("RUH"), px("MUN")], 0.55, 0.8) == 0
    r = round(layout().size(L.ARMY_RADIUS * 1.8))
    assert not changed_at(supported, moving, px("MUN"), r)  # no ring round the supported unit


def test_a_dislodged_unit_without_orders_shows_its_retreat_options() -> None:
    geo, lay = load_geometry(), layout()
    units = {"GERMANY": ["A WAR"]}

    def lost(retreats: list[str]) -> dict:
        return {"RUSSIA": {"A WAR": {"attacker_from": "PRU", "retreats": retreats}}}

    both = board(units, phase="F1901R", dislodged=lost(["LVN", "UKR"]))
    one = board(units, phase="F1901R", dislodged=lost(["UKR"]))
    scene = Scene.build(both, [], geo, lay, DEFAULT)
    start = next(u.at for u in scene.units if u.dislodged)
    to_lvn, to_ukr = curve(start, px("LVN"), bend=0.08), curve(start, px("UKR"), bend=0.08)
    hints, fewer = draw(both), draw(one)
    assert along(hints, fewer, to_lvn, 0.3, 0.75) >= 0.5  # a thin dashed arrow to each place it may go
    assert along(hints, fewer, to_ukr, 0.3, 0.75) == 0  # (both pictures show the one to Ukraine)
    # Once it has an order, the options give way to the retreat itself.
    ordered = draw(both, [OrderMark("RUSSIA", Retreat(Unit("A", "WAR"), "UKR"), None)])
    assert along(hints, ordered, to_lvn, 0.3, 0.75) >= 0.5
    assert along(ordered, fewer, to_lvn, 0.3, 0.75) == 0
