"""ops.views: a view made only of DynamicItems (an order sheet) is not stored by discord.py, so an
ephemeral sheet leaves no 15-minute task holding it; taps still reach its items by their ids, and any
other view (a plain button, a form) is stored and dispatched as before."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord.ext import commands

from ops.views import list_slots_once, store_only_what_dispatches


class Pick(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pick:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="pick", custom_id=f"pick:{n}"))

    @classmethod
    async def from_custom_id(cls, interaction: Any, item: Any, match: Any) -> Pick:
        return cls(int(match["n"]))


def views(*, skip: bool) -> tuple[commands.Bot, Any]:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    bot.add_dynamic_items(Pick)
    if skip:
        assert store_only_what_dispatches(bot._connection)
    return bot, bot._connection._view_store


def sheet() -> discord.ui.View:
    view = discord.ui.View(timeout=15 * 60)  # as discord.py makes an ephemeral message's view
    view.add_item(Pick(1))
    view.add_item(Pick(2))
    return view


async def test_a_sheets_view_is_not_stored_and_leaves_no_task_its_taps_still_found() -> None:
    for skip in (False, True):
        bot, store = views(skip=skip)
        before = len(asyncio.all_tasks())
        bot._connection.store_view(sheet(), 10)
        started = len(asyncio.all_tasks()) - before
        assert started == (0 if skip else 1), "discord.py's own way: one timeout task per ephemeral sheet"
        assert Pick.__discord_ui_compiled_template__ in store._dynamic_items, "a tap on pick:1 is found"
        for task in asyncio.all_tasks() - {asyncio.current_task()}:
            task.cancel()


async def test_a_view_with_a_plain_button_or_a_form_is_stored_as_before() -> None:
    bot, store = views(skip=True)
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="leave", custom_id="leave"))
    view.add_item(Pick(3))
    bot._connection.store_view(view, 11)
    assert (discord.ComponentType.button.value, "leave") in store._views[11]
    form = discord.ui.Modal(title="orders", custom_id="orders:1", timeout=None)
    form.add_item(discord.ui.TextInput(label="orders", custom_id="text"))
    bot._connection.store_view(form)
    assert store._modals["orders:1"] is form


def test_buttons_selects_and_options_are_built_alike_with_their_slots_listed_once() -> None:
    def made() -> list[Any]:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id="u:1", options=[discord.SelectOption(label="A", value="a")]
        )
        button: discord.ui.Button[Any] = discord.ui.Button(
            label="Ready", custom_id="ready", style=discord.ButtonStyle.success
        )
        return [select.to_component_dict(), button.to_component_dict()]

    before = made()
    assert list_slots_once() and list_slots_once(), "installed once, then already there"
    assert made() == before
    assert before[0]["options"][0]["label"] == "A" and before[1]["style"] == discord.ButtonStyle.success.value
