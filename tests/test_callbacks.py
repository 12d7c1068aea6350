"""ops.callbacks: the message an interaction's answer made is parsed when read, and reads as before."""

from __future__ import annotations

from typing import Any

import discord
from discord import interactions
from discord.ext import commands

from ops.callbacks import parse_answers_lazily
from tests.helpers.raw_messages import message_payload

BOT = 1000


def answer_data(with_message: bool) -> dict[str, Any]:
    """What Discord sends back for an answer ``with_response``: a sheet redrawn (type 7), or a
    deferral without a message."""
    data: dict[str, Any] = {
        "interaction": {
            "id": "555",
            "type": 3,
            "response_message_id": "777" if with_message else None,
            "response_message_loading": False,
            "response_message_ephemeral": True,
        }
    }
    if with_message:
        data["resource"] = {
            "type": 7,
            "message": message_payload(
                777,
                {"id": str(BOT), "username": "bot", "discriminator": "0", "avatar": None, "bot": True},
                "France's orders",
                components=[
                    {"type": 1, "components": [{"type": 2, "style": 1, "label": "Ready", "custom_id": "r"}]}
                ],
            ),
        }
    return data


class Parent:
    """What an answer reads of its interaction."""

    channel = None


def answer(with_message: bool) -> Any:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    data: Any = answer_data(with_message)
    made: Any = interactions.InteractionCallbackResponse(
        data=data,
        parent=Parent(),  # type: ignore[arg-type]  # only its channel is read
        state=bot._connection,
        type=discord.InteractionResponseType.message_update,
    )
    return made


def test_the_answers_message_is_parsed_when_read_and_reads_as_before() -> None:
    assert parse_answers_lazily()
    assert parse_answers_lazily(), "installed once, twice is the same"
    made = answer(True)
    assert made._resource is None, "nothing parsed yet"
    assert (made.id, made.message_id, made.type) == (555, 777, discord.InteractionResponseType.message_update)
    message = made.resource
    assert isinstance(message, discord.InteractionMessage)
    assert (message.id, message.content, message.author.id) == (777, "France's orders", BOT)
    rows: Any = message.components
    assert [c.custom_id for row in rows for c in row.children] == ["r"]
    assert made.resource is message, "parsed once"


def test_an_answer_without_a_message_has_no_resource() -> None:
    assert parse_answers_lazily()
    made = answer(False)
    assert made.resource is None and made.message_id is None and made.id == 555
