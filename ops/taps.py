"""A tap's message read without the controls nobody tapped.

A component interaction (a pick in a select, a button) carries the whole message it was made on:
for an order sheet, every unit's select with up to 25 options each. discord.py parses that message
into a :class:`discord.Message` with all its components, then rebuilds a view of every item from it to
find the tapped one and hand it to its DynamicItem; the bot reads of that message only the tapped
control (cogs.ui.guard checks it is on the message), the message's id, flags and channel, and the
words above a direct message's sheet (every top-level component but the sheet's container:
cogs.ui.sheet_live.words_above).

:func:`parse_taps_lightly` wraps the connection state's parser of ``INTERACTION_CREATE`` (the table
discord.py reads its gateway events' parsers from; ops.gate wraps the same entry) so that, in a
component interaction on a message of components (V2), the rows of controls inside a container
that do not hold the tapped control are left out of the message before discord.py parses it. The
top-level components, the texts and pictures, and the tapped control's row are kept as they came;
a message of the older kind (rows of buttons at the top level, which cogs.ui.seats rebuilds to turn
them off) is parsed whole, as is anything that is not a tap.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord

log = logging.getLogger(__name__)

EVENT = "INTERACTION_CREATE"
COMPONENT = discord.InteractionType.component.value  # a button pressed, a select picked
ACTION_ROW = discord.ComponentType.action_row.value
CONTAINER = discord.ComponentType.container.value
COMPONENTS_V2 = discord.MessageFlags.components_v2.flag  # a message of components (layout), not content


def parse_taps_lightly(state: Any) -> bool:
    """Make ``state`` (the client's ``discord.state.ConnectionState``) parse a tap's message without
    the rows nobody tapped. False, and nothing changed, when this discord.py has no such parser."""
    parsers: Any = getattr(state, "parsers", None)
    parse: Callable[[Any], None] | None = parsers.get(EVENT) if isinstance(parsers, dict) else None
    if parse is None:
        log.debug("discord.py's state has no %s parser here: taps' messages are parsed whole", EVENT)
        return False

    def parse_tap(data: Any) -> None:
        parse(lightened(data))

    parsers[EVENT] = parse_tap  # the client's own table: discord.py itself is unchanged
    return True


def lightened(data: Any) -> Any:
    """``data`` (an ``INTERACTION_CREATE`` event) with its message's untapped rows left out of its
    containers (a new dict; ``data`` itself is not changed); ``data`` itself when there is nothing
    to leave out or it is not a tap on a message of components."""
    try:
        if data.get("type") != COMPONENT:
            return data
        message = data.get("message")
        custom_id = (data.get("data") or {}).get("custom_id")
        if (
            not isinstance(message, dict)
            or not custom_id
            or not int(message.get("flags") or 0) & COMPONENTS_V2
        ):
            return data
        components = message.get("components")
        if not isinstance(components, list):
            return data
        kept = [_without_untapped_rows(component, custom_id) for component in components]
    except (AttributeError, TypeError, ValueError):
        return data  # not as expected: discord.py reads it as it came
    return {**data, "message": {**message, "components": kept}}


def _without_untapped_rows(component: Any, custom_id: str) -> Any:
    if not isinstance(component, dict) or component.get("type") != CONTAINER:
        return component
    children = component.get("components")
    if not isinstance(children, list):
        return component
    kept = [c for c in children if not _is_row(c) or _holds(c, custom_id)]
    return component if len(kept) == len(children) else {**component, "components": kept}


def _is_row(component: Any) -> bool:
    return isinstance(component, dict) and component.get("type") == ACTION_ROW


def _holds(row: dict[str, Any], custom_id: str) -> bool:
    return any(isinstance(c, dict) and c.get("custom_id") == custom_id for c in row.get("components") or ())


__all__ = ["lightened", "parse_taps_lightly"]
