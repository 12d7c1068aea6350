"""Views made only of DynamicItems are not stored by discord.py.

After every answer that shows a view (a message sent, an interaction's message edited) discord.py
stores the view in its view store, to route the next taps to the view's items. A view whose every
item a tap reaches is a DynamicItem (the order sheets, their menus: cogs.ui) needs none of that: its
items are found by their custom_id's pattern, registered once at start-up (``add_dynamic_items``).
Storing it still walks every item and diffs its snapshot, and an ephemeral message's view without a
timeout is given one of 15 minutes (discord.py's), i.e. a task sleeping that long holding the view and
its hundreds of select options, one per sheet opened. :func:`store_only_what_dispatches` skips those
views; any other view (a plain button's callback, a form) is stored as before.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import discord

log = logging.getLogger(__name__)


def fully_dynamic(view: Any) -> bool:
    """Whether every item of ``view`` that a tap reaches is a DynamicItem (a form never is)."""
    if getattr(view, "__discord_ui_modal__", False):
        return False
    reached = [item for item in view.walk_children() if item.is_dispatchable()]
    return all(isinstance(item, discord.ui.DynamicItem) for item in reached)


def store_only_what_dispatches(state: Any) -> bool:
    """Make ``state`` (the client's ``discord.state.ConnectionState``) skip storing fully dynamic
    views. False, and nothing changed, when this discord.py stores views elsewhere."""
    store = getattr(state, "store_view", None)
    if store is None or getattr(store, "skips_dynamic", False):
        log.debug("discord.py's state has no store_view here: every view is stored")
        return False

    def store_view(view: Any, message_id: int | None = None) -> None:
        if not fully_dynamic(view):
            store(view, message_id)

    vars(store_view)["skips_dynamic"] = True
    state.store_view = store_view  # the client's own state: discord.py itself is unchanged
    return True


def list_slots_once() -> bool:
    """discord.py builds each button, select and option of a view with ``_raw_construct``, which walks
    the class's MRO for its ``__slots__`` (a generator) at every object: a sheet redrawn builds dozens.
    Here each class's slots are listed once and kept. False, and nothing changed, when this discord.py
    does not build its components that way."""
    from discord import components, utils

    if getattr(components, "get_slots", None) is not utils.get_slots:
        return getattr(components.get_slots, "kept", False)
    kept: dict[type, tuple[str, ...]] = {}

    def get_slots(cls: type) -> Iterator[str]:
        slots = kept.get(cls)
        if slots is None:
            slots = kept[cls] = tuple(utils.get_slots(cls))
        return iter(slots)

    vars(get_slots)["kept"] = True
    components.get_slots = get_slots  # discord.components' own name for it: _raw_construct reads it
    return True
