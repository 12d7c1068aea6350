"""What a player sees on the picture, checked by its pixels."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.orders import Build, Convoy, Hold, Move, Remove, SupportHold, Unit
from render import OrderMark, RenderOptions, render_map
from render import layout as L
from render.geometry import load_geometry
from render.palette import COLORBLIND, DEFAULT
from render.paths import curve, point_at
from tests.render.pixels import (
    STANDARD,
    STANDARD_CB,
    WIDTH,
    board,
    count_near,
    draw,
    fill_at,
    layout,
    to_px,
    window,
)


def test_a_province_takes_the_colour_of_its_centers_owner() -> None:
    before = draw(board({}, {"GERMANY": ["PAR"]}))
    after = draw(board({}, {"FRANCE": ["PAR"]}))
    assert fill_at(before, "PAR") == "GERMANY"
    assert fill_at(after, "PAR") == "FRANCE"


def test_a_lost_center_loses_its_colour() -> None:
    german = draw(board({}, {"GERMANY": ["MUN", "BER"]}))
    taken = draw(board({}, {"FRANCE": ["MUN"], "GERMANY": ["BER"]}))
    neutral = draw(board({}, {"GERMANY": ["BER"]}))
    assert fill_at(german, "MUN") == "GERMANY"
    assert fill_at(taken, "MUN") == "FRANCE"
    assert fill_at(neutral, "MUN") == "land"
    assert fill_at(neutral, "BER") == "GERMANY"


def test_neutral_land_and_sea_look_different() -> None:
    img = draw(board({}, {}))
    assert fill_at(img, "BUR") == "land"
    assert fill_at(img, "NTH") == "sea"
    assert fill_at(img, "SIL") == "land"  # land with no center stays plain


def test_an_army_is_drawn_at_its_provinces_spot() -> None:
    geo = load_geometry()
    empty = draw(board({}, {}))
    with_unit = draw(board({"FRANCE": ["A PAR"]}, {}))
    spot = to_px(geo.provinces["PAR"].unit)
    r = round(layout().size(L.ARMY_RADIUS) * 0.8)
    unit_colour = STANDARD.powers["FRANCE"].unit
    assert count_near(window(with_unit, spot, r), unit_colour) > r * r
    assert count_near(window(empty, spot, r), unit_colour) == 0


def test_a_fleet_on_st_petersburgs_south_coast_is_drawn_on_that_coast() -> None:
    geo = load_geometry()
    coasts = geo.provinces["STP"].coasts
    r = round(layout().size(L.FLEET_HALF_HEIGHT) * 0.8)
    colour = STANDARD.powers["RUSSIA"].unit
    south = draw(board({"RUSSIA": ["F STP/SC"]}, {}))
    north = draw(board({"RUSSIA": ["F STP/NC"]}, {}))
    assert count_near(window(south, to_px(coasts["SC"]), r), colour) > r * r
    assert count_near(window(south, to_px(coasts["NC"]), r), colour) == 0
    assert count_near(window(north, to_px(coasts["NC"]), r), colour) > r * r
    assert count_near(window(north, to_px(coasts["SC"]), r), colour) == 0


def test_a_move_is_an_arrow_between_the_two_spots() -> None:
    geo = load_geometry()
    lay = layout()
    b = board({"FRANCE": ["A PAR"]}, {})
    move = OrderMark("FRANCE", Move(Unit("A", "PAR"), "BUR"), None)
    with_arrow, without = draw(b, [move]), draw(b)
    path = curve(lay.px(geo.provinces["PAR"].unit), lay.px(geo.provinces["BUR"].unit))
    colour = STANDARD.powers["FRANCE"].unit
    for fraction in (0.4, 0.55, 0.7):
        x, y = point_at(path, fraction)
        near = window(with_arrow, (round(x), round(y)), 3)
        assert count_near(near, colour) >= 4, f"no arrow {fraction:.0%} of the way"
        assert count_near(window(without, (round(x), round(y)), 3), colour) == 0


def test_a_failed_move_is_crossed_out_not_just_recoloured() -> None:
    b = board({"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]}, {})
    ok = draw(b, [OrderMark("FRANCE", Move(Unit("A", "PAR"), "BUR"), "succeeded")])
    bounced = draw(b, [OrderMark("FRANCE", Move(Unit("A", "PAR"), "BUR"), "failed", "bounced")])
    geo = load_geometry()
    lay = layout()
    path = curve(lay.px(geo.provinces["PAR"].unit), lay.px(geo.provinces["BUR"].unit))
    x, y = point_at(path, 0.62)
    spot = (round(x), round(y))
    r = round(lay.size(L.ARMY_RADIUS))
    assert count_near(window(bounced, spot, r), DEFAULT.fail, 40) > 6
    assert count_near(window(ok, spot, r), DEFAULT.fail, 40) == 0


def test_failures_are_marked_by_shape_in_the_colour_blind_palette_too() -> None:
    b = board({"FRANCE": ["A PAR"]}, {})
    failed = draw(b, [OrderMark("FRANCE", Move(Unit("A", "PAR"), "BUR"), "failed")], palette="colorblind")
    ok = draw(b, [OrderMark("FRANCE", Move(Unit("A", "PAR"), "BUR"), "succeeded")], palette="colorblind")
    geo, lay = load_geometry(), layout()
    path = curve(lay.px(geo.provinces["PAR"].unit), lay.px(geo.provinces["BUR"].unit))
    x, y = point_at(path, 0.62)
    spot, r = (round(x), round(y)), round(lay.size(L.ARMY_RADIUS))
    # The cross is a near-black X with a white outline; the sky-blue arrow has only a thin dark edge.
    crossed = count_near(window(failed, spot, r), COLORBLIND.fail, 40)
    assert crossed > count_near(window(ok, spot, r), COLORBLIND.fail, 40) + 6


def test_a_hold_is_a_ring_round_the_unit() -> None:
    geo = load_geometry()
    lay = layout()
    b = board({"ITALY": ["A VEN"]}, {})
    ringed = draw(b, [OrderMark("ITALY", Hold(Unit("A", "VEN")), "succeeded")])
    plain = draw(b)
    x, y = lay.px(geo.provinces["VEN"].unit)
    ring_r = lay.size(L.ARMY_RADIUS) * 1.55
    colour = STANDARD.powers["ITALY"].unit
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        spot = (round(x + dx * ring_r), round(y + dy * ring_r))
        assert count_near(window(ringed, spot, 2), colour, 40) >= 2
        assert count_near(window(plain, spot, 2), colour, 40) == 0


def test_a_support_reaches_the_held_unit() -> None:
    b = board({"ITALY": ["A VEN", "A ROM"]}, {})
    support = OrderMark("ITALY", SupportHold(Unit("A", "ROM"), Unit("A", "VEN")), "succeeded")
    with_support, without = draw(b, [support]), draw(b)
    geo, lay = load_geometry(), layout()
    rom, ven = lay.px(geo.provinces["ROM"].unit), lay.px(geo.provinces["VEN"].unit)
    mid = (round((rom[0] + ven[0]) / 2), round((rom[1] + ven[1]) / 2))
    colour = STANDARD.powers["ITALY"].unit
    assert count_near(window(with_support, mid, 4), colour, 40) > count_near(
        window(without, mid, 4), colour, 40
    )


def test_a_dislodged_unit_is_set_aside_and_marked() -> None:
    geo, lay = load_geometry(), layout()
    b = board(
        {"GERMANY": ["A WAR"]},
        {},
        phase="F1901R",
        dislodged={"RUSSIA": {"A WAR": {"attacker_from": "PRU", "retreats": ["LVN", "UKR"]}}},
    )
    img = draw(b)
    x, y = lay.px(geo.provinces["WAR"].unit)
    r = lay.size(L.ARMY_RADIUS)
    russian, german = STANDARD.powers["RUSSIA"].unit, STANDARD.powers["GERMANY"].unit
    # The attacker holds the spot; the dislodged unit stands beside it, pushed away from Prussia.
    assert count_near(window(img, (round(x), round(y)), round(r * 0.6)), german) > r
    assert count_near(window(img, (round(x), round(y)), round(r * 0.6)), russian) == 0
    pru_x, _ = lay.px(geo.provinces["PRU"].unit)
    away = 1 if x > pru_x else -1
    beside = window(img, (round(x + away * r * 1.9), round(y)), round(r * 1.8))
    assert count_near(beside, russian) > r
    orange = (232, 110, 0)
    assert count_near(window(img, (round(x), round(y)), round(r * 4)), orange, 40) > 10


def test_builds_and_removals_carry_badges() -> None:
    geo, lay = load_geometry(), layout()
    b = board({"FRANCE": ["A MAR"], "GERMANY": ["A MUN"]}, {"FRANCE": ["MAR", "PAR"]}, phase="W1901A")
    marks = [
        OrderMark("FRANCE", Build(Unit("A", "PAR")), None),
        OrderMark("GERMANY", Remove(Unit("A", "MUN")), None),
    ]
    img, plain = draw(b, marks), draw(b)
    r = round(lay.size(L.ARMY_RADIUS) * 1.6)
    green = (28, 140, 64)
    par, mun = to_px(geo.provinces["PAR"].unit), to_px(geo.provinces["MUN"].unit)
    assert count_near(window(img, par, r), green, 40) > 4
    assert count_near(window(plain, par, r), green, 40) == 0
    # The planned build shows as a faint army where there was none: half the unit's colour.
    faint = tuple(
        (u + f) // 2
        for u, f in zip(STANDARD.powers["FRANCE"].unit, STANDARD.powers["FRANCE"].fill, strict=True)
    )
    assert count_near(window(img, par, r), faint, 30) > r
    assert count_near(window(plain, par, r), faint, 30) == 0
    assert count_near(window(img, mun, r), DEFAULT.fail, 40) > 4
    assert count_near(window(plain, mun, r), DEFAULT.fail, 40) == 0


def test_colour_blind_units_carry_their_powers_initial() -> None:
    b = board({"ENGLAND": ["F LON"], "FRANCE": ["F BRE"]}, {})
    default, colorblind = draw(b), draw(b, palette="colorblind")
    geo, lay = load_geometry(), layout()
    for code in ("LON", "BRE"):
        x, y = lay.px(geo.provinces[code].unit)
        badge = (round(x + lay.size(L.FLEET_HALF_WIDTH)), round(y - lay.size(L.FLEET_HALF_HEIGHT)))
        white = (255, 255, 255)
        assert count_near(window(colorblind, badge, 3), white, 30) > count_near(
            window(default, badge, 3), white, 30
        )
    # and the two blues are told apart by lightness, not hue alone
    e, f = STANDARD_CB.powers["ENGLAND"].unit, STANDARD_CB.powers["FRANCE"].unit
    assert abs(sum(e) - sum(f)) > 150


def test_same_inputs_give_the_same_bytes() -> None:
    b = board({"FRANCE": ["A PAR", "F BRE"]}, {"FRANCE": ["PAR", "BRE"]})
    marks = [OrderMark("FRANCE", Move(Unit("A", "PAR"), "BUR"), "failed")]
    first = render_map(b, marks, options=RenderOptions(width=WIDTH))
    assert render_map(b, marks, options=RenderOptions(width=WIDTH)) == first
    assert render_map(b, [], options=RenderOptions(width=WIDTH)) != first


@pytest.mark.parametrize("width", [480, 1600])
def test_the_picture_has_the_width_asked_for(width: int) -> None:
    png = render_map(board({}, {}), options=RenderOptions(width=width))
    img = Image.open(io.BytesIO(png))
    assert img.width == width
    assert img.height == layout(width).height


def test_titles_show_the_phase_and_the_center_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    from PIL import ImageDraw

    written: list[str] = []
    real_text = ImageDraw.ImageDraw.text

    def spy(self, xy, text, *args, **kwargs):
        written.append(str(text))
        return real_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    b = board({}, {"FRANCE": ["PAR", "BRE", "MAR", "SPA", "POR"], "ITALY": ["ROM"]}, phase="F1903M")
    render_map(b, options=RenderOptions(width=700, show_labels=False))
    assert "Fall 1903 Movement" in written
    assert "FRA 5" in written
    assert "ITA 1" in written
    assert "GER 0" in written


def test_a_convoyed_army_travels_through_its_fleets() -> None:
    geo, lay = load_geometry(), layout()
    b = board({"ENGLAND": ["A LON", "F ENG", "F MAO", "F WES"]}, {})
    marks = [
        OrderMark("ENGLAND", Move(Unit("A", "LON"), "TUN", via_convoy=True), "succeeded"),
        *(
            OrderMark("ENGLAND", Convoy(Unit("F", sea), Unit("A", "LON"), "TUN"), "succeeded")
            for sea in ("ENG", "MAO", "WES")
        ),
    ]
    convoyed, plain = draw(b, marks), draw(b)
    colour = STANDARD.powers["ENGLAND"].unit
    mao, wes = lay.px(geo.provinces["MAO"].unit), lay.px(geo.provinces["WES"].unit)
    between = (round((mao[0] + wes[0]) / 2), round((mao[1] + wes[1]) / 2))
    assert count_near(window(convoyed, between, 6), colour, 40) > 4
    assert count_near(window(plain, between, 6), colour, 40) == 0
