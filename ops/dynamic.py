"""A tapped DynamicItem found without rebuilding the whole message's view.

For every tap on a DynamicItem (every item of the order sheet is one), discord.py rebuilds a view of
the whole tapped message (``View.from_message``: a UI item for each of the sheet's components, every
select with its options), only to find the one item tapped and swap it for the DynamicItem. Nothing in
the bot reads the rest of that view: the items answer from their ids and the interaction, and a redraw
builds a new view. :func:`find_tapped_alone` makes discord.py build the tapped component's item alone,
from the message it already parsed, in a view of its own (an action row holding it, for a message of
the newer layout); the DynamicItem is made, checked and called exactly as before. About a twentieth of
a tap's CPU in the bot (`bench/interaction_cpu.py --profile`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Any

import discord
from discord.ui import view as views

log = logging.getLogger(__name__)


def find_tapped_alone() -> bool:
    """Install it (once per process); False, and nothing changed, when this discord.py dispatches its
    DynamicItems otherwise than this module expects."""
    store: Any = getattr(views, "ViewStore", None)
    original = getattr(store, "schedule_dynamic_item_call", None)
    if original is None or not hasattr(views, "_component_to_item"):
        log.debug("discord.py's DynamicItems are not dispatched as expected: views rebuilt whole")
        return False
    if getattr(original, "_tapped_alone", False):
        return True

    async def schedule_dynamic_item_call(
        self: Any,
        component_type: int,
        factory: type[discord.ui.DynamicItem[Any]],
        interaction: discord.Interaction,
        custom_id: str,
        match: re.Match[str],
    ) -> None:
        message = interaction.message
        if message is None:
            return
        component = next(
            (
                c
                for c in _walk(message.components)
                if c.type.value == component_type and getattr(c, "custom_id", None) == custom_id
            ),
            None,
        )
        if component is None:
            return
        base_item: Any = views._component_to_item(component)
        view: Any
        if message.flags.components_v2:
            view = discord.ui.LayoutView(timeout=None)
            row: Any = discord.ui.ActionRow()
            row.add_item(base_item)
            view.add_item(row)
        else:
            view = discord.ui.View(timeout=None)
            view.add_item(base_item)
        try:
            item: Any = await factory.from_custom_id(interaction, base_item, match)
        except Exception:
            log.exception("Ignoring exception in dynamic item creation for %r", factory)
            return
        parent = base_item._parent or view
        try:
            parent._swap_item(base_item, item, custom_id)
        except ValueError:
            return
        item._view = view
        item._rendered_row = base_item._rendered_row
        item._refresh_state(interaction, interaction.data)
        try:
            allow = await item.interaction_check(interaction)
        except Exception:
            allow = False
        if not allow:
            return
        try:
            await item.callback(interaction)
        except Exception:
            log.exception("Ignoring exception in dynamic item callback for %r", item)

    schedule_dynamic_item_call._tapped_alone = True  # type: ignore[attr-defined]
    store.schedule_dynamic_item_call = schedule_dynamic_item_call
    return True


def _walk(components: Any) -> Iterator[Any]:
    """Every component of a message, nested ones included (rows, containers, sections, labels)."""
    for component in components:
        yield component
        yield from _walk(getattr(component, "children", ()) or ())
        for inner in ("accessory", "component"):
            found = getattr(component, inner, None)
            if found is not None:
                yield from _walk((found,))
