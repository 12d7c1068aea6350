"""ops.echoes: the bot's own message edits, echoed back by Discord, are not parsed; everyone else's
edits still reach the listeners (a player's edited direct message is carried to its relay)."""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from ops.echoes import skip_own_direct_posts, skip_own_edits
from tests.helpers.raw_messages import message_payload

BOT, PLAYER = 1000, 2000


def edit(message_id: int, author: int) -> dict[str, Any]:
    """A MESSAGE_UPDATE payload of a direct message."""
    return message_payload(
        message_id,
        {"id": str(author), "username": "someone", "discriminator": "0", "avatar": None},
        "F BRE - MAO",
        edited_timestamp="2026-11-28T12:01:00+00:00",
    )


def edits_seen(skip: bool, *payloads: dict[str, Any]) -> list[int]:
    """The message ids of the edits discord.py dispatched (``on_raw_message_edit``)."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    seen: list[int] = []

    def dispatch(event: str, *args: Any) -> None:
        if event == "raw_message_edit":
            seen.append(args[0].message_id)

    bot._connection.dispatch = dispatch
    if skip:
        assert skip_own_edits(bot._connection, lambda: BOT)
    for payload in payloads:
        bot._connection.parsers["MESSAGE_UPDATE"](payload)
    return seen


def test_the_bots_own_edits_are_dropped_and_a_players_still_arrive() -> None:
    payloads = (edit(1, BOT), edit(2, PLAYER), edit(3, BOT))
    assert edits_seen(False, *payloads) == [1, 2, 3]  # discord.py's own way: every one parsed
    assert edits_seen(True, *payloads) == [2]


def test_an_own_message_with_a_tracked_view_is_still_parsed() -> None:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    skip_own_edits(bot._connection, lambda: BOT)
    synced: list[int] = []
    views: Any = bot._connection._view_store  # a view of discord.py's tracked on message 5 only
    views.is_message_tracked = lambda message_id: message_id == 5
    views.update_from_message = lambda message_id, _components: synced.append(message_id)
    bot._connection.parsers["MESSAGE_UPDATE"]({**edit(5, BOT), "components": []})
    bot._connection.parsers["MESSAGE_UPDATE"]({**edit(6, BOT), "components": []})
    assert synced == [5]


def test_a_state_without_the_parser_is_left_as_it_is() -> None:
    class Other:
        def __init__(self) -> None:
            self.parsers: dict[str, Any] = {}

    other = Other()
    assert not skip_own_edits(other, lambda: BOT)
    assert other.parsers == {}


def posts_seen(skip: bool, *payloads: dict[str, Any]) -> list[int]:
    """The message ids of the new messages discord.py dispatched (``on_message``)."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    seen: list[int] = []

    def dispatch(event: str, *args: Any) -> None:
        if event == "message":
            seen.append(args[0].id)

    bot._connection.dispatch = dispatch
    if skip:
        assert skip_own_direct_posts(bot._connection, lambda: BOT)
    for payload in payloads:
        bot._connection.parsers["MESSAGE_CREATE"](payload)
    return seen


def author(user_id: int) -> dict[str, Any]:
    return {"id": str(user_id), "username": "someone", "discriminator": "0", "avatar": None}


def test_the_bots_own_direct_messages_are_dropped_and_a_players_and_a_servers_still_arrive() -> None:
    payloads = (
        message_payload(1, author(BOT), "Orders received"),  # the bot's reply in a direct message
        message_payload(2, author(PLAYER), "F BRE - MAO"),  # a player's orders by direct message
        message_payload(3, author(BOT), "Spring 1901", guild_id="55"),  # the bot's post in a server
    )
    assert posts_seen(False, *payloads) == [1, 2, 3]  # discord.py's own way: every one parsed
    assert posts_seen(True, *payloads) == [2, 3]
