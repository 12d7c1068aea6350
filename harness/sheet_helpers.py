"""Playing through the order sheet (cogs.ui.sheet) as a player does, tap by tap, in the fake Discord:
find a unit's menu, pick an order, press a button, and count every tap per player."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from harness.fakediscord import FakeDiscord, Message, User
from harness.fakediscord.screenshot import select_shows
from harness.fakediscord.state import walk_components

SELECTS = (3, 5, 6, 7, 8)


def sheet_select(message: Message, key: str) -> dict[str, Any]:
    """The menu in the place of unit ``key`` (its location, ``PAR``; a build site's province): its
    orders, or the second menu open there."""
    for component in walk_components(message.components):
        custom_id = str(component.get("custom_id", ""))
        if component.get("type") in SELECTS and (f":u:{key}@" in custom_id or f":s:{key}:" in custom_id):
            return component
    raise AssertionError(f"no menu for {key} on the sheet; it has {message.custom_ids()}")


def shows(message: Message, key: str) -> str:
    """What unit ``key``'s menu shows: its order, or its placeholder."""
    return select_shows(sheet_select(message, key))


def offered(message: Message, key: str) -> dict[str, str]:
    """Unit ``key``'s menu: value -> label."""
    return {o["value"]: o["label"] for o in sheet_select(message, key).get("options", [])}


def button_id(message: Message, action: str, arg: str | None = None) -> str:
    """The custom_id of a sheet's button (``ready``, ``hold``, ``map``, ``clear``, ``waive``,
    ``remove`` / ``keep`` with a unit, ``page`` with a page), or of "Order sheet" (``open``) and
    "Ready" (``ready:1``) under a call to order."""
    wanted = [f":b:{action}:{arg}@"] if arg else [f":b:{action}@", f":b:{action}:"]
    for custom_id in message.custom_ids():
        if any(w in custom_id for w in wanted) or custom_id.endswith(f":{action}"):
            return custom_id
    raise AssertionError(f"no {action!r} button; the message has {message.custom_ids()}")


def button_label(message: Message, action: str, arg: str | None = None) -> str:
    custom_id = button_id(message, action, arg)
    for component in walk_components(message.components):
        if component.get("custom_id") == custom_id:
            return str(component.get("label") or "")
    return ""


@dataclass
class Tapper:
    """Taps on the fake Discord, counted per player."""

    fake: FakeDiscord
    taps: Counter[int] = field(default_factory=Counter)

    async def pick(self, user: User, message: Message, key: str, value: str) -> Message:
        """``user`` picks ``value`` (an order's text, or ``@support`` ...) in unit ``key``'s menu; the
        message they then see."""
        select = sheet_select(message, key)
        values = [o["value"] for o in select.get("options", [])]
        assert value in values, f"{value!r} is not in {key}'s menu: {values}"
        self.taps[user.id] += 1
        return await (await self.fake.click(user, message, select["custom_id"], values=[value])).message()

    async def press(self, user: User, message: Message, action: str, arg: str | None = None) -> Message:
        self.taps[user.id] += 1
        return await (await self.fake.click(user, message, button_id(message, action, arg))).message()
