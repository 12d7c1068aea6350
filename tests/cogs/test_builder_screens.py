"""Every screen of the order builder (cogs.ui.builder) for every unit of every power, on the opening
board of every variant and on crowded boards: within Discord's limits (5 rows, 25 options a select,
100 characters a custom_id, a label, a value, 2,000 a message), every custom_id read back by the
builder's own components as the screen it came from, and every legal order of the power - and nothing
else - reachable by taps."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from cogs.ui.builder import (
    CHOICES,
    KINDS,
    TARGETS,
    UNITS,
    Builder,
    BuilderButton,
    BuilderSelect,
    OpenBuilderButton,
    Screen,
    draw,
)
from engine import Board
from engine.legal import OrderKind
from engine.variants import all_variants, game_map
from gm.ordering.legal import OrderMenu
from tests.helpers.menus import crowded, every_order, menu_of

BUILDER = Builder(
    game_id=987654, phase="S1901M", user_id=2**63 - 1, tag="x" * 12
)  # the longest ids there are
BUTTON = re.compile(BuilderButton.__discord_ui_compiled_template__.pattern)
SELECT = re.compile(BuilderSelect.__discord_ui_compiled_template__.pattern)


def components(view: discord.ui.View) -> list[dict[str, Any]]:
    return view.to_components()


def check_limits(content: str, view: discord.ui.View) -> list[dict[str, Any]]:
    """The message fits Discord; returns its components (buttons and selects)."""
    assert len(content) <= 2000
    rows = components(view)
    assert 1 <= len(rows) <= 5
    found = []
    for row in rows:
        items = row["components"]
        assert 1 <= len(items) <= 5
        assert all(item["type"] == 2 for item in items) or len(items) == 1
        found += items
    ids = [item["custom_id"] for item in found]
    assert len(ids) == len(set(ids)), ids
    for item in found:
        assert len(item["custom_id"]) <= 100, item["custom_id"]
        if item["type"] == 3:
            assert SELECT.fullmatch(item["custom_id"]) and not BUTTON.fullmatch(item["custom_id"])
            assert 1 <= len(item["options"]) <= 25
            for option in item["options"]:
                assert 1 <= len(option["label"]) <= 100 and len(option["value"]) <= 100
                assert len(option.get("description") or "") <= 100
        else:
            assert BUTTON.fullmatch(item["custom_id"]) and not SELECT.fullmatch(item["custom_id"])
            assert len(item.get("label") or "") <= 80
    return found


def screen_of(custom_id: str) -> tuple[str, Screen | None, str | None]:
    """What a component leads to: ("select", the screen it is on), ("go", the screen), ("do", key:kind)."""
    match = SELECT.fullmatch(custom_id)
    if match:
        return "select", Screen.parse(match["screen"]), None
    match = BUTTON.fullmatch(custom_id)
    assert match
    if match["action"] == "go":
        return "go", Screen.parse(match["rest"], int(match["page"] or 0)), None
    return match["action"], None, match["rest"]


def reachable(menu: OrderMenu) -> set[str]:
    """Every order text the builder lets a player tap, found by walking its screens as a player would
    (the builder's own rules: a single choice is submitted at once)."""
    orders: set[str] = set()
    todo = [Screen()]
    seen: set[tuple[str, int]] = set()
    while todo:
        screen = todo.pop()
        if (screen.code, screen.page) in seen:
            continue
        seen.add((screen.code, screen.page))
        content, view = draw(menu, BUILDER, screen)
        for item in check_limits(content, view):
            action, target, rest = screen_of(item["custom_id"])
            if action == "go" and target is not None:
                todo.append(target)
            elif action == "do" and rest:
                key, kind = rest.split(":")
                found = menu.find(key)
                assert found is not None
                power, entry = found
                picked = power.legal.waive if entry is None else entry.choices(OrderKind(kind))[0]
                assert picked is not None
                orders.add(picked.text)
            elif action == "select" and target is not None:
                for option in item["options"]:
                    orders |= _after_pick(menu, target, option["value"], todo)
    return orders


def _after_pick(menu: OrderMenu, screen: Screen, value: str, todo: list[Screen]) -> set[str]:
    if screen.step == UNITS:
        found = menu.find(value)
        assert found is not None
        entry = found[1]
        kinds = entry.kinds() if entry is not None else ()
        if len(kinds) == 1 and entry is not None and entry.targets(kinds[0]):
            todo.append(Screen(TARGETS, value, kinds[0]))
        else:
            todo.append(Screen(KINDS, value))
        return set()
    found = menu.find(screen.key or "")
    assert found is not None and found[1] is not None and screen.kind is not None
    entry = found[1]
    if screen.step == TARGETS:
        choices = entry.choices(screen.kind, value)
        assert choices, f"{value} offered with nothing behind it"
        if len(choices) == 1:
            return {choices[0].text}
        todo.append(Screen(CHOICES, screen.key, screen.kind, value))
        return set()
    assert screen.step == CHOICES
    assert value in {o.text for o in entry.choices(screen.kind, screen.target)}
    return {value}


@pytest.mark.parametrize("variant", [v.name for v in all_variants()])
async def test_every_legal_order_of_an_opening_is_reachable_by_taps_within_discords_limits(
    variant: str,
) -> None:
    board = Board.initial(game_map(variant), variant=variant)
    for power in board.game_map.powers:
        menu = menu_of(board, [power], variant)
        assert reachable(menu) == every_order(menu)


async def test_a_power_with_more_units_than_a_select_holds_gets_several_selects_and_pages() -> None:
    board = crowded("youngstown", "FRANCE", fleets_at_sea=False)
    menu = menu_of(board, ["FRANCE"], "youngstown")
    entries = menu.powers[0].legal.entries
    assert len(entries) > 100
    content, view = draw(menu, BUILDER, Screen())
    items = check_limits(content, view)
    selects = [i for i in items if i["type"] == 3]
    assert len(selects) == 4 and all(len(s["options"]) == 25 for s in selects)
    assert selects[0]["placeholder"].startswith("Pick a unit (")
    more = [i for i in items if i.get("label") == "More"]
    assert more, "a second page"
    shown = {o["value"] for s in selects for o in s["options"]}
    pages = {screen_of(more[0]["custom_id"])[1]}
    while pages:
        page = pages.pop()
        assert page is not None
        content, view = draw(menu, BUILDER, page)
        items = check_limits(content, view)
        shown |= {o["value"] for i in items if i["type"] == 3 for o in i["options"]}
        pages |= {screen_of(i["custom_id"])[1] for i in items if i.get("label") == "More"}
    assert shown == {e.location for e in entries}


async def test_a_crowded_sea_gives_long_lists_that_stay_within_the_limits() -> None:
    board = crowded("standard", "ENGLAND", fleets_at_sea=True)  # convoys and supports everywhere
    menu = menu_of(board, ["ENGLAND"], "standard")
    assert len(every_order(menu)) > 1000
    assert reachable(menu) == every_order(menu)


def test_the_opener_and_the_builder_components_do_not_match_each_other() -> None:
    opener = re.compile(OpenBuilderButton.__discord_ui_compiled_template__.pattern)
    assert opener.fullmatch("tap:12:S1901M:open")
    for custom_id in ("tap:12:S1901M:99:go:u", "tap:12:S1901M:99:u#0", "tap:12:S1901M:99:map"):
        assert not opener.fullmatch(custom_id)
    assert not BUTTON.fullmatch("tap:12:S1901M:open") and not SELECT.fullmatch("tap:12:S1901M:open")
    tagged = BUTTON.fullmatch("tap:12.k3x9:S1901M:99:go:u")
    assert tagged and tagged["tag"] == "k3x9" and tagged["game_id"] == "12"
    assert SELECT.fullmatch("tap:12.k3x9:S1901M:99:u#0") and not opener.fullmatch("tap:12.k3x9:S1901M:99:map")


async def test_a_player_of_two_powers_taps_the_orders_of_both() -> None:
    board = Board.initial(game_map("standard"), variant="standard")
    menu = menu_of(board, ["AUSTRIA", "FRANCE"], "standard")
    content, view = draw(menu, BUILDER, Screen())
    [select] = [i for i in check_limits(content, view) if i["type"] == 3]
    assert [o["label"] for o in select["options"]][:2] == [
        "Austria · A BUD · Budapest",
        "Austria · F TRI · Trieste",
    ]
    assert "France · A PAR · Paris" in [o["label"] for o in select["options"]]
    assert reachable(menu) == every_order(menu)
