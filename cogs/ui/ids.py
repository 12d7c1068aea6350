"""What the custom ids of the sheets share: a game's reference in them (its number, and its random tag
when known) and Discord's limit on their length, and the components those ids go on (a sheet's
select and button)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from cogs.ui.wording import cut

MAX_CUSTOM_ID = 100  # Discord's limit for a component's custom_id
PLACEHOLDER_LIMIT = 150  # ... and for a select's placeholder
BUTTON_LABEL_LIMIT = 80  # ... and for a button's label
MAX_PAGE = 99  # no sheet has that many pages (a power has at most 34 centers' worth of units)


def game_ref(game_id: int, tag: str) -> str:
    """``12.k7q2`` (the game's number and tag), or ``12`` when the tag is not known."""
    return f"{game_id}.{tag}" if tag else str(game_id)


def checked_id(base: str, rest: str) -> str:
    """``base:rest``, refused (ValueError) when longer than Discord allows."""
    custom_id = f"{base}:{rest}"
    if len(custom_id) > MAX_CUSTOM_ID:
        raise ValueError(f"custom_id over {MAX_CUSTOM_ID} characters: {custom_id!r}")
    return custom_id


def button_rest(action: str, arg: str | None, page: int) -> str:
    """A sheet button's part of its id: ``b:<action>[:<arg>]@<page>``."""
    return f"b:{action}" + (f":{arg}" if arg else "") + f"@{page}"


def button_arg(action: str, arg: str | None) -> str | None:
    """A sheet button's argument as its action reads it: a page's number for ``page``, a unit's key
    for ``remove`` and ``keep``, none for the others. Anything else raises ValueError, which the
    guard answers "not one of mine" (cogs.ui.guard), before anything is read or changed."""
    if action == "page":
        if arg is None or not (arg.isascii() and arg.isdigit()) or int(arg) > MAX_PAGE:
            raise ValueError(f"not a page: {arg!r}")
    elif action in ("remove", "keep"):
        if not arg:
            raise ValueError(f"{action} names no unit")
    elif arg is not None:
        raise ValueError(f"{action} takes nothing: {arg!r}")
    return arg


def page_number(text: str | None) -> int:
    """A page of a sheet from its id (none: the first); ValueError past any page a sheet has."""
    page = int(text or 0)
    if page > MAX_PAGE:
        raise ValueError(f"not a page: {text!r}")
    return page


def menu_select(
    custom_id: str,
    options: Sequence[discord.SelectOption],
    placeholder: str | None,
    *,
    empty_label: str = "-",
    empty_value: str = "@none",
) -> discord.ui.Select[Any]:
    """A select of a sheet: ``options`` (one option ``empty_label`` when there are none, since
    Discord refuses an empty select), its placeholder cut to Discord's limit."""
    return discord.ui.Select(
        custom_id=custom_id,
        options=list(options) or [discord.SelectOption(label=empty_label, value=empty_value)],
        placeholder=cut(placeholder, PLACEHOLDER_LIMIT) if placeholder else None,
    )


def menu_button(
    custom_id: str,
    *,
    label: str,
    style: discord.ButtonStyle,
    disabled: bool,
    emoji: str | None = None,
) -> discord.ui.Button[Any]:
    """A button of a sheet, its label cut to Discord's limit (none when empty)."""
    return discord.ui.Button(
        label=cut(label, BUTTON_LABEL_LIMIT) or None,
        style=style,
        emoji=emoji,
        disabled=disabled,
        custom_id=custom_id,
    )


def picked(select: discord.ui.Select[Any]) -> str:
    """The value a select's tap picked ("" when none)."""
    values = select.values
    return str(values[0]) if values else ""


__all__ = [
    "MAX_CUSTOM_ID",
    "PLACEHOLDER_LIMIT",
    "button_arg",
    "button_rest",
    "checked_id",
    "game_ref",
    "menu_button",
    "menu_select",
    "page_number",
    "picked",
]
