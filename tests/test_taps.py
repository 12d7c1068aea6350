"""ops.taps: a tap on a message of components reaches its item with what was picked, and the words of
the message, though the rows nobody tapped are not parsed."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord
from discord.ext import commands

from ops.taps import lightened, parse_taps_lightly
from tests.helpers.raw_messages import message_payload

BOT, PLAYER = 1000, 2000
V2 = 1 << 15


def select(custom_id: str, *values: str) -> dict[str, Any]:
    return {
        "type": 3,
        "custom_id": custom_id,
        "options": [{"label": v, "value": v} for v in values],
        "min_values": 1,
        "max_values": 1,
    }


def sheet_message(flags: int = V2) -> dict[str, Any]:
    """A direct message's sheet: the call's words, then a container with a heading, three units'
    menus and a row of buttons."""
    rows = [
        {"type": 1, "components": [select(f"t:u:{unit}", f"{unit} H", f"{unit} - X")]}
        for unit in ("A PAR", "F BRE", "A MAR")
    ]
    buttons = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Ready", "custom_id": "t:b:ready"}]}
    words = {"type": 17, "components": [{"type": 10, "content": "It is Spring 1901: your orders."}]}
    sheet = {"type": 17, "components": [{"type": 10, "content": "### France"}, *rows, buttons]}
    author = {"id": str(BOT), "username": "bot", "discriminator": "0", "avatar": None, "bot": True}
    return message_payload(5, author, "", components=[words, sheet], flags=flags)


def tap(custom_id: str, values: list[str], message: dict[str, Any]) -> dict[str, Any]:
    """An INTERACTION_CREATE of a pick in a direct message."""
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 3, "values": values}
    if not values:
        data = {"custom_id": custom_id, "component_type": 2}
    return {
        "id": "9001",
        "application_id": str(BOT),
        "type": 3,
        "token": "token",
        "version": 1,
        "channel_id": "77",
        "user": {"id": str(PLAYER), "username": "france", "discriminator": "0", "avatar": None},
        "data": data,
        "message": message,
        "locale": "en-GB",
        "entitlements": [],
        "attachment_size_limit": 10_000_000,
        "authorizing_integration_owners": {},
    }


def custom_ids(components: list[dict[str, Any]]) -> list[str]:
    found: list[str] = []
    for component in components:
        if "custom_id" in component:
            found.append(component["custom_id"])
        found += custom_ids(component.get("components") or [])
    return found


def test_the_rows_nobody_tapped_are_left_out_and_the_rest_kept() -> None:
    message = sheet_message()
    light = lightened(tap("t:u:F BRE", ["F BRE H"], message))
    components = light["message"]["components"]
    assert custom_ids(components) == ["t:u:F BRE"]
    assert components[0] == message["components"][0], "the words above the sheet, as they came"
    assert components[1]["components"][0] == {"type": 10, "content": "### France"}
    pressed = lightened(tap("t:b:ready", [], message))["message"]["components"]
    assert custom_ids(pressed) == ["t:b:ready"]
    assert custom_ids(message["components"]) == ["t:u:A PAR", "t:u:F BRE", "t:u:A MAR", "t:b:ready"], (
        "the event itself unchanged"
    )


def test_other_events_and_older_messages_come_as_they_are() -> None:
    older = sheet_message(flags=0)  # rows of buttons rebuilt by whoever reads them (cogs.ui.seats)
    event = tap("t:u:F BRE", ["F BRE H"], older)
    assert lightened(event) is event
    command = {**tap("x", [], sheet_message()), "type": 2}
    assert lightened(command) is command
    assert lightened({"type": 3, "message": None}) == {"type": 3, "message": None}


SEEN: list[tuple[str, list[str], list[str]]] = []  # (unit, values, words above) of each pick handled


class UnitMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"t:u:(?P<unit>.+)"):
    def __init__(self, unit: str) -> None:
        options = [discord.SelectOption(label="-")]
        super().__init__(discord.ui.Select(custom_id=f"t:u:{unit}", options=options))
        self.unit = unit

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> UnitMenu:
        return cls(match["unit"])

    async def callback(self, interaction: discord.Interaction) -> None:
        message: Any = interaction.message
        words = [c.children[0].content for c in message.components[:-1]]
        SEEN.append((self.unit, self.item.values, words))


async def test_a_pick_reaches_its_item_with_its_value_and_the_words_above() -> None:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    bot.add_dynamic_items(UnitMenu)
    assert parse_taps_lightly(bot._connection)
    SEEN.clear()
    bot._connection.parsers["INTERACTION_CREATE"](tap("t:u:F BRE", ["F BRE - X"], sheet_message()))
    for _ in range(20):
        await asyncio.sleep(0)
    assert SEEN == [("F BRE", ["F BRE - X"], ["It is Spring 1901: your orders."])]


def test_a_state_without_the_parser_is_left_as_it_is() -> None:
    class Other:
        def __init__(self) -> None:
            self.parsers: dict[str, Any] = {}

    other = Other()
    assert not parse_taps_lightly(other)
    assert other.parsers == {}
