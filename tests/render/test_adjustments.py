"""Builds and removals on the map, as a player reads them: a new unit wears a "+", a refused build
leaves no unit but a crossed-out "+" at its site, a removed unit is crossed out."""

from __future__ import annotations

import math

import pytest
from PIL import Image

from engine.board import Board
from engine.orders import Build, Remove, Unit
from render import OrderMark
from render import layout as L
from render.geometry import load_geometry
from render.palette import DEFAULT
from tests.render.pixels import WIDTH, board, count_near, draw, layout, to_px, window

GREEN = (28, 140, 64)  # the "+" badge
CENTERS = {
    "ENGLAND": ["LON", "EDI", "LVP"],
    "FRANCE": ["PAR", "MAR", "BRE", "SPA"],
    "GERMANY": ["BER", "KIE", "MUN"],
    "RUSSIA": ["STP", "MOS", "WAR", "SEV"],
    "TURKEY": ["ANK", "CON", "SMY", "BUL"],
}


def winter(units: dict[str, list[str]]) -> Board:
    return board(units, CENTERS, phase="W1901A")


def spot(location: str, dx: float = 0.0, dy: float = 0.0) -> tuple[int, int]:
    """A point (pixels) ``dx``, ``dy`` map units from where a unit at ``location`` stands."""
    x, y = load_geometry().anchor(location)
    return to_px((x + dx, y + dy))


def changed(a: Image.Image, b: Image.Image, centre: tuple[int, int], radius: int = 1) -> int:
    """How many pixels round ``centre`` differ visibly between two pictures."""
    return sum(
        1
        for p, q in zip(window(a, centre, radius), window(b, centre, radius), strict=True)
        if max(abs(u - v) for u, v in zip(p, q, strict=True)) > 24
    )


@pytest.mark.parametrize(("power", "location"), [("ENGLAND", "STP/NC"), ("TURKEY", "BUL/SC")])
def test_a_refused_build_draws_no_unit_only_a_crossed_out_plus(power: str, location: str) -> None:
    # England has no claim to St Petersburg, Bulgaria is no Turkish home centre: the engine refuses.
    b = winter({"ENGLAND": ["F LON"], "TURKEY": ["A CON"]})
    build = Build(Unit("F", location))
    plain = draw(b)
    refused = draw(b, [OrderMark(power, build, "invalid", "not one of your home centers")])
    planned = draw(b, [OrderMark(power, build, None)])
    # Where the fleet's body would be (its right end, its lower right), clear of the badge:
    body = [spot(location, 6.2, 0.0), spot(location, 5.0, 3.0)]
    assert all(changed(planned, plain, p) >= 5 for p in body), "an ordered build is a faint unit"
    assert all(changed(refused, plain, p) == 0 for p in body), "a refused build must draw no unit"
    r = round(layout().size(L.BADGE_RADIUS * 2.2))
    assert count_near(window(refused, spot(location), r), GREEN, 40) > r  # the "+"
    assert count_near(window(refused, spot(location), r), DEFAULT.fail, 40) > r // 2  # crossed out
    assert count_near(window(plain, spot(location), r), DEFAULT.fail, 40) == 0


def test_a_refused_build_where_a_unit_stands_leaves_that_unit_as_it_is() -> None:
    b = winter({"FRANCE": ["A PAR"]})  # "A PAR B": Paris is occupied
    refused = draw(b, [OrderMark("FRANCE", Build(Unit("A", "PAR")), "invalid", "A PAR stands there")])
    plain = draw(b)
    r = L.ARMY_RADIUS
    assert changed(refused, plain, spot("PAR"), 3) == 0  # the army is drawn as before
    upper_left = window(refused, spot("PAR", -r, -r), round(layout().size(r * 0.7)))
    assert count_near(upper_left, GREEN, 40) > 4
    assert count_near(upper_left, DEFAULT.fail, 40) > 2


def test_a_build_made_wears_a_plus_and_is_not_crossed() -> None:
    b = winter({"ENGLAND": ["F LON", "F EDI"]})  # the result board: the fleet is there
    built = draw(b, [OrderMark("ENGLAND", Build(Unit("F", "EDI")), "succeeded", "built F EDI")])
    plain = draw(b)
    bx, by = L.badge_offset("F")
    badge = window(built, spot("EDI", bx, by), round(layout().size(L.BADGE_RADIUS)))
    assert count_near(badge, GREEN, 40) > 4
    assert (
        count_near(window(plain, spot("EDI", bx, by), round(layout().size(L.BADGE_RADIUS))), GREEN, 40) == 0
    )
    fleet = round(layout().size(L.FLEET_HALF_WIDTH))
    assert count_near(window(built, spot("EDI"), fleet), DEFAULT.fail, 40) == 0
    assert changed(built, plain, spot("EDI", -5.0, 0.0), 2) == 0  # the fleet itself, drawn as usual


def cross_on_unit(img: Image.Image, location: str) -> int:
    """Pixels of the failure colour on the middle of the unit at ``location`` (its badge aside)."""
    return count_near(
        window(img, spot(location), round(layout().size(L.ARMY_RADIUS * 0.45))), DEFAULT.fail, 40
    )


def test_a_removed_unit_is_crossed_out() -> None:
    removal = Remove(Unit("A", "RUH"))
    before = winter({"GERMANY": ["A MUN", "A RUH"]})
    after = winter({"GERMANY": ["A MUN"]})  # the result board: the army is gone
    assert cross_on_unit(draw(before), "RUH") == 0
    assert cross_on_unit(draw(before, [OrderMark("GERMANY", removal, None)]), "RUH") > 6
    assert (
        cross_on_unit(draw(after, [OrderMark("GERMANY", removal, "succeeded", "removed A RUH")]), "RUH") > 6
    )


def test_a_refused_removal_leaves_the_unit_standing_with_its_minus_crossed() -> None:
    b = winter({"GERMANY": ["A MUN", "A RUH"]})
    refused = draw(b, [OrderMark("GERMANY", Remove(Unit("A", "RUH")), "invalid", "no removal due")])
    plain = draw(b)
    assert cross_on_unit(refused, "RUH") == 0
    assert changed(refused, plain, spot("RUH", -2.0, 2.0), 2) == 0  # not faded either
    bx, by = L.badge_offset("A")
    badge = window(refused, spot("RUH", bx, by), round(layout().size(L.BADGE_RADIUS * 1.6)))
    assert count_near(badge, (255, 255, 255), 30) > 4  # the badge's white "-" and rims
    assert count_near(badge, DEFAULT.fail, 40) > 6


def test_the_winters_plus_and_minus_are_larger_than_a_units_other_badges() -> None:
    """A build's "+" and a removal's "-" are the winter's whole news: half as large again as the
    badge a unit wears otherwise (its dislodged "!"), to be seen on a phone."""
    b = winter({"ENGLAND": ["F LON", "F EDI"]})
    built = draw(b, [OrderMark("ENGLAND", Build(Unit("F", "EDI")), "succeeded", "built F EDI")])
    bx, by = L.badge_offset("F")
    r = layout().size(L.BADGE_RADIUS)
    green = count_near(window(built, spot("EDI", bx, by), round(r * 2)), GREEN, 40)
    assert green > math.pi * r * r, f"{green} green pixels: no larger than a plain badge's disc"


def test_a_winters_plus_and_minus_are_as_big_as_a_unit_on_the_map_players_get() -> None:
    """The winter's news, read on a phone: on the 1,600-px map (about 400 points wide on a phone's
    screen) a build's "+" and a removal's "-" badge are about a unit's size: 26 px across or more
    (6.5 points), where the other badges are 15."""
    b = winter({"FRANCE": ["A PAR"], "RUSSIA": ["A MOS", "A WAR", "A SEV", "F STP/SC", "A UKR"]})
    marks = [
        OrderMark("FRANCE", Build(Unit("A", "MAR")), "succeeded"),
        OrderMark("RUSSIA", Remove(Unit("A", "UKR")), "succeeded"),
    ]
    img = draw(b, marks, width=1600)
    for colour, place in ((GREEN, "MAR"), (DEFAULT.fail, "UKR")):
        x, y = spot(place)
        scale = 1600 / WIDTH
        centre = (round(x * scale), round(y * scale))
        box = [
            (px, py)
            for px in range(centre[0] - 40, centre[0] + 41)
            for py in range(centre[1] - 40, centre[1] + 41)
            if count_near([img.getpixel((px, py))], colour, 20)  # type: ignore[list-item]
        ]
        across = max(px for px, _ in box) - min(px for px, _ in box) + 1
        assert across >= 26, f"{place}'s badge is {across} px across"
