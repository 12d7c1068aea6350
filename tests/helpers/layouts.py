"""Checking a drawn Components V2 message in the screen tests of the sheets (tests/cogs): the
templates of its DynamicItems, and its components checked as Discord checks them, each custom_id
read by exactly one template."""

from __future__ import annotations

import re
from typing import Any

import discord

from harness.fakediscord import layout
from harness.fakediscord.state import walk_components


def templates(*items: type[discord.ui.DynamicItem[Any]]) -> dict[str, re.Pattern[str]]:
    """Each DynamicItem class's custom_id template, by the class's name."""
    return {cls.__name__: re.compile(cls.__discord_ui_compiled_template__.pattern) for cls in items}


def checked_parts(view: discord.ui.LayoutView, known: dict[str, re.Pattern[str]]) -> list[dict[str, Any]]:
    """The message's components, checked as Discord checks them; each custom_id is one of ``known``'s."""
    components = view.to_components()
    layout.check(components, v2=True)
    for component in walk_components(components):
        custom_id = component.get("custom_id")
        if custom_id:
            owners = [name for name, pattern in known.items() if pattern.fullmatch(custom_id)]
            assert len(owners) == 1, (custom_id, owners)
    return components
