"""The order sheet (cogs.ui.sheet) for every power of every variant's opening and for crowded boards:
within Discord's limits for a Components V2 message (checked by the fake Discord's own rules: 40
components, 4,000 characters of text, 25 options, 100-character ids), with a call to order's words
above it or not; every custom_id read back by exactly one of the sheet's components; every legal
order of the power, and nothing else, reachable by taps (a second menu for supports and convoys,
parts when long, pages for a large power)."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from cogs.ui.sheet import (
    OpenSheetButton,
    ReadyButton,
    Second,
    SecondSelect,
    Sheet,
    SheetButton,
    UnitSelect,
)
from cogs.ui.sheet_draw import draw
from engine import Board
from engine.variants import all_variants, game_map
from gm.ordering.legal import OrderMenu
from harness.fakediscord.state import walk_components
from tests.helpers.layouts import checked_parts, templates
from tests.helpers.menus import crowded, every_order, menu_of

SHEET = Sheet(game_id=987654, phase="S1901M", user_id=2**63 - 1, tag="x" * 12)  # the longest ids there are
TEMPLATES = templates(OpenSheetButton, ReadyButton, UnitSelect, SecondSelect, SheetButton)
CALL: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
    discord.ui.TextDisplay("### You play France in a game\n" + "Words " * 400)
)


def parts(view: discord.ui.LayoutView) -> list[dict[str, Any]]:
    """The message's components, checked as Discord checks them; each custom_id is one component's."""
    return checked_parts(view, TEMPLATES)


def _id(component: dict[str, Any], name: str) -> re.Match[str] | None:
    return TEMPLATES[name].fullmatch(str(component.get("custom_id", "")))


def reachable(menu: OrderMenu, *, leading: tuple[Any, ...] = ()) -> tuple[set[str], int]:
    """Every order text the sheet lets a player tap (pages, menus, second menus and their parts,
    buttons), and how many pages it has."""
    orders: set[str] = set()
    pages, done = {0}, set[int]()
    while pages - done:
        page = min(pages - done)
        done.add(page)
        for component in walk_components(parts(draw(menu, SHEET, page=page, leading=leading))):
            unit = _id(component, "UnitSelect")
            button = _id(component, "SheetButton")
            if unit is not None:
                for option in component["options"]:
                    value = option["value"]
                    if value.startswith("@") and value[1:] in ("support", "convoy", "via", "move"):
                        orders |= second_menu(menu, page, unit["key"], value[1:], leading)
                    elif not value.startswith("@"):
                        orders.add(value)
            elif button is not None and button["action"] == "page" and not component.get("disabled"):
                pages.add(int(button["arg"]))
            elif button is not None and button["action"] == "waive":
                orders |= {p.legal.waive.text for p in menu.powers if p.legal.waive is not None}
            elif button is not None and button["action"] == "remove":
                found = menu.find(button["arg"])
                assert found is not None and found[1] is not None
                orders |= {o.text for o in found[1].orders}
    return orders, len(done)


def second_menu(menu: OrderMenu, page: int, key: str, kind: str, leading: tuple[Any, ...]) -> set[str]:
    orders: set[str] = set()
    part = 0
    while True:
        view = draw(menu, SHEET, page=page, second=Second(key, kind, part), leading=leading)
        [select] = [c for c in walk_components(parts(view)) if _id(c, "SecondSelect")]
        values = [o["value"] for o in select["options"]]
        assert values[0] == "@back"
        orders |= {v for v in values if not v.startswith("@")}
        if "@more" not in values:
            return orders
        part += 1


@pytest.mark.parametrize("variant", [v.name for v in all_variants()])
async def test_every_legal_order_of_an_opening_is_on_the_sheet_within_discords_limits(variant: str) -> None:
    board = Board.initial(game_map(variant), variant=variant)
    for power in board.game_map.powers:
        menu = menu_of(board, [power], variant)
        orders, pages = reachable(menu)
        assert orders == every_order(menu) and pages == 1
        assert reachable(menu, leading=(CALL,))[0] == every_order(menu), "under a call to order's words"


async def test_a_power_with_more_units_than_a_message_holds_is_paged() -> None:
    board = crowded("youngstown", "FRANCE", fleets_at_sea=False)
    menu = menu_of(board, ["FRANCE"], "youngstown")
    assert len(menu.powers[0].legal.entries) > 100
    orders, pages = reachable(menu)
    assert orders == every_order(menu) and pages > 5
    shown: list[str] = []
    for page in range(pages):
        view = draw(menu, SHEET, page=page)
        shown += [m["key"] for c in walk_components(parts(view)) if (m := _id(c, "UnitSelect"))]
    assert sorted(shown) == sorted(e.location for e in menu.powers[0].legal.entries), "each unit on one page"


async def test_a_crowded_sea_gives_long_second_menus_that_stay_within_the_limits() -> None:
    board = crowded("standard", "ENGLAND", fleets_at_sea=True)  # convoys and supports everywhere
    menu = menu_of(board, ["ENGLAND"], "standard")
    assert len(every_order(menu)) > 1000
    assert reachable(menu)[0] == every_order(menu)


async def test_a_player_of_two_powers_orders_both_on_one_sheet() -> None:
    board = Board.initial(game_map("standard"), variant="standard")
    menu = menu_of(board, ["AUSTRIA", "FRANCE"], "standard")
    components = parts(draw(menu, SHEET))
    placeholders = [c.get("placeholder") for c in walk_components(components) if _id(c, "UnitSelect")]
    assert "Austria: A BUD · Budapest: no order yet" in placeholders
    assert "France: A PAR · Paris: no order yet" in placeholders
    assert reachable(menu)[0] == every_order(menu)


def test_the_sheets_ids_and_the_builders_do_not_match_each_other() -> None:
    assert TEMPLATES["OpenSheetButton"].fullmatch("sh:12:S1901M:open")
    assert TEMPLATES["OpenSheetButton"].fullmatch("sh:12.k3x9:S1901M:open")
    assert TEMPLATES["ReadyButton"].fullmatch("sh:12.k3x9:S1901M:ready:1")
    assert TEMPLATES["UnitSelect"].fullmatch("sh:12.k3x9:S1901M:99:u:STP/SC@0")
    assert TEMPLATES["SheetButton"].fullmatch("sh:12.k3x9:S1901M:99:b:ready@0")
    for custom_id in ("tap:12:S1901M:open", "tap:12.k3x9:S1901M:99:u#0"):
        assert not any(pattern.fullmatch(custom_id) for pattern in TEMPLATES.values())


def labels_of(view: discord.ui.LayoutView, key: str) -> dict[str, str]:
    """Unit ``key``'s menu (or its second menu): value -> label."""
    for component in walk_components(parts(view)):
        custom_id = str(component.get("custom_id", ""))
        if f":u:{key}@" in custom_id or f":s:{key}:" in custom_id:
            return {o["value"]: o["label"] for o in component["options"]}
    raise AssertionError(f"no menu for {key}")


async def test_a_move_by_convoy_says_so_and_a_support_or_convoy_says_whose_unit() -> None:
    data = Board.initial(game_map("standard"), variant="standard").to_json()
    data["units"] = {"FRANCE": ["F ENG", "A PIC", "A PAR"], "GERMANY": ["A RUH"], "ENGLAND": ["A LON"]}
    board = Board.from_json(data, game_map("standard"))
    menu = menu_of(board, ["FRANCE"], "standard")
    menu = OrderMenu(
        menu.view,
        menu.powers,
        "standard",
        owners={"PIC": "FRANCE", "PAR": "FRANCE", "ENG": "FRANCE", "RUH": "GERMANY", "LON": "ENGLAND"},
    )
    picardy = labels_of(draw(menu, SHEET), "PIC")
    assert picardy["A PIC - WAL VIA"] == "A PIC → WAL · Wales, by convoy"
    assert picardy["A PIC - BUR"] == "A PIC → BUR · Burgundy"
    channel = labels_of(draw(menu, SHEET, second=Second("ENG", "convoy")), "ENG")
    assert channel["F ENG C A PIC - WAL"] == "A PIC → WAL (France)"
    assert channel["F ENG C A LON - BRE"] == "A LON → BRE (England)", "another power's army"
    paris = labels_of(draw(menu, SHEET, second=Second("PAR", "support")), "PAR")
    assert paris["A PAR S A RUH - BUR"] == "A RUH → BUR (Germany)"
    assert paris["A PAR S A PIC"] == "A PIC holds (France)"


async def test_a_unit_menu_lists_each_destination_once_and_keeps_convoy_twins_in_its_second_menu() -> None:
    """England's A YOR in Fall 1901, fleets in the North Sea and the English Channel: it walks to EDI,
    LON, LVP and WAL and is carried by convoy there and further (NWY, BEL, HOL, PIC, BRE...)."""
    data = Board.initial(game_map("standard"), variant="standard").to_json()
    data["phase"] = "F1901M"
    data["units"] = {"ENGLAND": ["A YOR", "F NTH", "F ENG"], "FRANCE": ["A PAR"]}
    board = Board.from_json(data, game_map("standard"))
    menu = menu_of(board, ["ENGLAND"], "standard")
    york = labels_of(draw(menu, SHEET), "YOR")
    moves = [label for value, label in york.items() if not value.startswith("@") and " → " in label]
    places = [label.split(" → ")[1].split(" · ")[0] for label in moves]
    assert len(places) == len(set(places)), f"a destination listed twice: {moves}"
    assert {"EDI", "LON", "LVP", "WAL"} <= set(places)
    assert "A YOR → EDI · Edinburgh" in moves and "A YOR → LON · London" in moves
    assert "A YOR → NWY · Norway, by convoy" in moves, "a move that needs a convoy says so"
    assert "@via" in york, "the convoy route is still there, one tap further"
    via = labels_of(draw(menu, SHEET, second=Second("YOR", "via")), "YOR")
    assert via["A YOR - LON VIA"] == "A YOR → LON · London, by convoy"
    assert via["A YOR - NWY VIA"] == "A YOR → NWY · Norway, by convoy"
    assert reachable(menu)[0] == every_order(menu)


def chosen_in(view: discord.ui.LayoutView, key: str) -> list[str]:
    """Unit ``key``'s menu: the values it shows as chosen."""
    for component in walk_components(parts(view)):
        if f":u:{key}@" in str(component.get("custom_id", "")):
            return [o["value"] for o in component["options"] if o.get("default")]
    raise AssertionError(f"no menu for {key}")


async def test_a_sheet_drawn_again_shows_each_units_order_of_the_moment_and_whose_unit_it_helps() -> None:
    """The same position drawn as a player's orders change (a tap, then another): each drawing shows
    the order the unit has then, a support's owner as the menu says it."""
    data = Board.initial(game_map("standard"), variant="standard").to_json()
    data["units"] = {"FRANCE": ["A PAR", "A PIC"], "GERMANY": ["A RUH"]}
    board = Board.from_json(data, game_map("standard"))
    first = menu_of(board, ["FRANCE"], "standard")
    owners = {"PAR": "FRANCE", "PIC": "FRANCE", "RUH": "GERMANY"}

    def ordering(orders: dict[str, str], owners: dict[str, str]) -> OrderMenu:
        power = first.powers[0]
        changed = type(power)(power.power, power.legal, orders, ())
        return OrderMenu(first.view, (changed,), "standard", owners=owners)

    assert chosen_in(draw(ordering({}, owners), SHEET), "PAR") == []
    assert chosen_in(draw(ordering({"PAR": "A PAR - BUR"}, owners), SHEET), "PAR") == ["A PAR - BUR"]
    assert chosen_in(draw(ordering({"PAR": "A PAR - GAS"}, owners), SHEET), "PAR") == ["A PAR - GAS"]
    assert chosen_in(draw(ordering({}, owners), SHEET), "PAR") == []
    support = "A PAR S A RUH - BUR"
    assert labels_of(draw(ordering({"PAR": support}, owners), SHEET), "PAR")[support] == (
        "A PAR supports A RUH → BUR (Germany)"
    )
    elsewhere = {**owners, "RUH": "ITALY"}  # (no such board: the menu's word is what counts)
    assert labels_of(draw(ordering({"PAR": support}, elsewhere), SHEET), "PAR")[support] == (
        "A PAR supports A RUH → BUR (Italy)"
    )
