"""The bot's own messages, as Discord gives them back, read without their components.

Each message the bot posts or edits (a followup to an interaction, the edit of a deferred tap's sheet,
a direct message's reply, a post in a channel) comes back from Discord whole, and discord.py parses it
at once into a :class:`discord.Message`, components included: for an order sheet every select and
each of its options (about a millisecond for a mid-game sheet), for /orders show its buttons. Nothing
in the bot reads the components of a message it got back from its own post or edit: it reads those
of a tapped message (which come with the tap: ops.taps), and of messages it fetches (a channel's
history), neither of which passes here; what discord.py does with a sent view (storing it under the
message's id) needs the view and the id only.

:func:`read_sent_lightly` wraps discord.py's two ways to Discord (its HTTP client's ``request``, the
bot's calls, and the shared webhook adapter's, the interactions' followups and edits), as ops.turns
does: the message Discord returns for a post or an edit of a message is handed to discord.py without
its ``components``; its id, content, embeds, attachments, flags and the rest are as Discord sent them.
Any other call's answer (a fetch, a channel, an interaction's callback: ops.callbacks) is unchanged.
Pinned discord.py 2.7.1's routes, checked by tests/test_sent.py.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.webhook import async_ as webhooks

SENT = frozenset(
    {
        ("POST", "/channels/{channel_id}/messages"),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
        ("POST", "/webhooks/{webhook_id}/{webhook_token}"),  # a followup
        ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
        ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),  # a deferred answer's
    }
)
"""The routes (method, path) whose answer is the message the bot just posted or edited."""

MARK = "reads_sent_lightly"


def read_sent_lightly(client: discord.Client) -> None:
    """Wrap ``client``'s calls to Discord, and the webhook adapter's (once per process)."""
    http: Any = client.http
    if not getattr(http.request, MARK, False):
        http.request = lightly(http.request)
    adapter: Any = webhooks.async_context.get()
    if not getattr(adapter.request, MARK, False):
        adapter.request = lightly(adapter.request)


def lightly(request: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """``request`` whose answer to a post or an edit of a message (:data:`SENT`) comes without the
    message's components."""

    @functools.wraps(request)
    async def light(route: Any, *args: Any, **kwargs: Any) -> Any:
        answer = await request(route, *args, **kwargs)
        return without_components(answer) if (route.method, route.path) in SENT else answer

    vars(light)[MARK] = True
    return light


def without_components(answer: Any) -> Any:
    """A message's JSON without its components (a new dict); anything else as it is."""
    if isinstance(answer, dict) and answer.get("components"):
        return {**answer, "components": []}
    return answer


__all__ = ["SENT", "lightly", "read_sent_lightly", "without_components"]
