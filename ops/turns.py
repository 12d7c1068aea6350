"""The bot's side of gm.delivery.lanes' order of work: which answers are owed, when they go out, and
the calls to Discord that wait their turn.

An interaction is owed its first answer from the moment its event is read (ops.gate notes it, and the
tasks discord.py starts for it work for that answer) until the answer's call (``POST
/interactions/{id}/{token}/callback``) is done; a direct message is owed its reply until the first
message its handler posts. Every other call to Discord (a followup, an edit of a sheet, a channel's
message, a direct message's sheet redrawn) first takes its turn (gm.delivery.lanes.turn): in a burst it
waits while answers are owed, and so do the database sessions of that work (db.database's admission).

discord.py's two ways to Discord are wrapped: its HTTP client's ``request`` (the bot's calls) and the
shared webhook adapter's (the answers to interactions and their followups): pinned discord.py 2.7.1,
checked by tests/test_turns.py.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.webhook import async_ as webhooks

from gm.delivery import lanes

CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
REPLY_ROUTE = ("POST", "/channels/{channel_id}/messages")


def answer_key(interaction_id: int) -> tuple[str, int]:
    return ("interaction", interaction_id)


def reply_key(message_id: int) -> tuple[str, int]:
    return ("message", message_id)


AT_ONCE = "answered_at_once"
"""The attribute of a command's callback whose first answer is the whole answer, given at once (the
orders form: cogs.shared.replies.answered_at_once): its interactions get a slot first."""
APPLICATION_COMMAND = 2


def rank_of(client: discord.Client, data: Any) -> int:
    """An interaction's rank among those waiting for a slot (gm.delivery.lanes.Turns.admit), from its
    raw event: ``FIRST`` for a command answered at once, else ``IN_TURN``."""
    try:
        if int(data["type"]) != APPLICATION_COMMAND:
            return lanes.IN_TURN
        tree: Any = getattr(client, "tree", None)
        inner = data["data"]
        command = tree.get_command(inner["name"]) if tree is not None else None
        options = inner.get("options") or []
        while command is not None and options and options[0].get("type") in (1, 2):  # a subcommand
            command = command.get_command(options[0]["name"])
            options = options[0].get("options") or []
        callback = getattr(command, "callback", None)
        return lanes.FIRST if getattr(callback, AT_ONCE, False) else lanes.IN_TURN
    except (KeyError, TypeError, ValueError, AttributeError):
        return lanes.IN_TURN


def install(client: discord.Client) -> None:
    """Wrap ``client``'s calls to Discord, and the answers to interactions (once per process)."""
    http: Any = client.http
    if not getattr(http.request, "in_turn", False):
        http.request = _in_turn(http.request)
    adapter: Any = webhooks.async_context.get()
    if not getattr(adapter.request, "in_turn", False):
        adapter.request = _in_turn(adapter.request)
    lanes.install()


def _in_turn(request: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(request)
    async def in_turn(route: discord.http.Route, *args: Any, **kwargs: Any) -> Any:
        answer = CALLBACK.search(route.url)
        key: Any = None
        if answer is not None:
            key = answer_key(int(answer[1]))
        else:
            owed = lanes.owed_here()
            if owed is not None and owed.kind == lanes.REPLY and (route.method, route.path) == REPLY_ROUTE:
                key = owed.key
            else:
                await lanes.turn()
        if key is not None:
            lanes.turns().on_its_way(key)
        try:
            return await request(route, *args, **kwargs)
        finally:
            if key is not None:
                lanes.paid(key)

    vars(in_turn)["in_turn"] = True  # wrapped once
    return in_turn
