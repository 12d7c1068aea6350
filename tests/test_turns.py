"""The bot's order of work in a burst (ops.turns, ops.gate, gm.delivery.lanes): interactions read in
the order of their slots (the orders form first), the answers' calls to Discord never held back, the
other calls waiting while answers are owed; discord.py's pieces as the wrappers expect (pinned 2.7.1)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord
from discord.http import Route
from discord.webhook import async_ as webhooks

from cogs.commands.orders import OrderCommands
from gm.delivery import lanes
from ops import turns as ops_turns
from ops.gate import InteractionGate


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


class Tree:
    """The command tree's lookup, as discord.py's: /orders edit is the bot's own."""

    def get_command(self, name: str) -> Any:
        return OrderCommands.orders if name == "orders" else None


def fake_client(parsed: list[str]) -> Any:
    """What the gate reads of a client: its parsers (recording what they read, and for which owed
    answer), its user, its command tree."""

    def interaction(data: Any) -> None:
        owed = lanes.owed_here()
        parsed.append(f"{data['name']} ({'owed' if owed is not None else 'not owed'})")

    def message(data: Any) -> None:
        owed = lanes.owed_here()
        parsed.append(f"{data['content']} ({'owed' if owed is not None else 'not owed'})")

    parsers = {"INTERACTION_CREATE": interaction, "MESSAGE_CREATE": message}
    return SimpleNamespace(_connection=SimpleNamespace(parsers=parsers), user=None, tree=Tree())


def command(number: int, user: int, name: str, sub: str | None = None) -> dict[str, Any]:
    options = [{"type": 1, "name": sub, "options": []}] if sub else []
    return {
        "id": str(number),
        "type": 2,
        "name": f"{name} {sub}" if sub else name,
        "member": {"user": {"id": str(user)}},
        "data": {"name": name, "options": options},
    }


async def test_in_a_burst_the_orders_form_is_read_at_once_then_the_others_in_the_order_they_came() -> None:
    parsed: list[str] = []
    gate = InteractionGate(fake_client(parsed))
    read = gate._client._connection.parsers["INTERACTION_CREATE"]
    for number in range(lanes.SLOTS):  # a burst under way: every slot taken
        read(command(number, 100 + number, "order"))
    assert len(parsed) == lanes.SLOTS
    read(command(50, 1, "orders", "sheet"))
    read(command(51, 2, "orders", "show"))
    read(command(52, 3, "orders", "edit"))
    read(command(53, 1, "orders", "edit"))  # the first player's form: after their sheet
    await settle()
    assert parsed[lanes.SLOTS :] == ["orders edit (owed)"], "the form read at once, nothing else"
    for number in range(lanes.SLOTS):
        lanes.turns().pay(ops_turns.answer_key(number))  # their answers went out
    await settle()
    assert parsed[lanes.SLOTS :] == ["orders edit (owed)"], "nothing else while the form is owed"
    lanes.turns().pay(ops_turns.answer_key(52))  # and the form's
    await settle()
    assert parsed[lanes.SLOTS :] == [
        "orders edit (owed)",
        "orders sheet (owed)",
        "orders show (owed)",
        "orders edit (owed)",
    ]


def direct_message(number: int, user: int, content: str) -> dict[str, Any]:
    return {"id": str(number), "channel_id": "9", "content": content, "author": {"id": str(user)}}


async def test_a_direct_message_is_read_once_the_orders_forms_before_it_are_answered() -> None:
    parsed: list[str] = []
    gate = InteractionGate(fake_client(parsed))
    parsers = gate._client._connection.parsers
    parsers["INTERACTION_CREATE"](command(60, 1, "orders", "edit"))
    parsers["MESSAGE_CREATE"](direct_message(61, 2, "A Par-Bur"))
    parsers["INTERACTION_CREATE"](command(62, 3, "order"))
    parsers["MESSAGE_CREATE"](direct_message(63, 2, "F Bre-MAO"))
    await settle()
    assert parsed == ["orders edit (owed)"], "the form read, the others wait while its answer is owed"
    assert lanes.turns().owed(lanes.REPLY) == 2  # owed from their coming all the same
    lanes.turns().pay(ops_turns.answer_key(60))  # the form went out
    await settle()
    assert parsed == ["orders edit (owed)", "order (owed)", "A Par-Bur (owed)", "F Bre-MAO (owed)"]


async def test_an_answer_goes_out_at_once_and_frees_its_slot_the_other_calls_wait_for_it() -> None:
    sent: list[str] = []

    async def request(route: Route, *args: Any, **kwargs: Any) -> None:
        sent.append(route.path.rsplit("/", 1)[-1])

    wrapped = ops_turns._in_turn(request)
    owed = lanes.turns().owe(lanes.ANSWER, ops_turns.answer_key(7))
    lanes.turns().admit(owed, lambda: None)
    followup = asyncio.ensure_future(
        wrapped(Route("POST", "/webhooks/{webhook_id}/{webhook_token}", webhook_id=1, webhook_token="t"))
    )
    await settle()
    assert sent == []  # waits: an answer is owed
    with lanes.working_for(owed):
        await wrapped(
            Route(
                "POST",
                "/interactions/{webhook_id}/{webhook_token}/callback",
                webhook_id=7,
                webhook_token="t",
            )
        )
    await followup
    assert sent == ["callback", "{webhook_token}"]
    assert owed.paid and owed.slot is None


async def test_a_direct_messages_reply_pays_what_it_owes() -> None:
    sent: list[str] = []

    async def request(route: Route, *args: Any, **kwargs: Any) -> None:
        sent.append(route.path)

    wrapped = ops_turns._in_turn(request)
    reply = lanes.turns().owe(lanes.REPLY, ops_turns.reply_key(9))
    with lanes.working_for(reply):
        await wrapped(Route("POST", "/channels/{channel_id}/messages", channel_id=3))
    assert reply.paid


def test_discord_py_is_as_the_wrappers_expect() -> None:
    """The webhook adapter answers interactions through ``request`` (one shared instance), and the
    HTTP client's ``request`` is what every call goes through."""
    adapter = webhooks.async_context.get()
    assert adapter is webhooks.async_context.get()
    assert callable(adapter.request) and callable(discord.http.HTTPClient.request)
    route = Route(
        "POST", "/interactions/{webhook_id}/{webhook_token}/callback", webhook_id=5, webhook_token="x"
    )
    found = ops_turns.CALLBACK.search(route.url)
    assert found is not None and found[1] == "5"
    assert (route.method, route.path) != ops_turns.REPLY_ROUTE
