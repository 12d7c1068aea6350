"""ops.sent: the message Discord returns for one of the bot's posts or edits reaches discord.py without
its components (its id, words and the rest as sent); any other answer as it came; discord.py 2.7's
routes for a post, a followup and the edits are the ones ops.sent knows (pinned)."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord.http import Route, handle_message_parameters
from discord.webhook import async_ as webhooks

from ops.sent import SENT, lightly, without_components
from tests.helpers.raw_messages import message_payload

BOT = {"id": "1000", "username": "bot", "discriminator": "0", "avatar": None, "bot": True}
SHEET_ROWS = [
    {
        "type": 1,
        "components": [
            {
                "type": 3,
                "custom_id": f"unit:{n}",
                "options": [{"label": f"A Par-Bur {k}", "value": str(k)} for k in range(25)],
            }
        ],
    }
    for n in range(5)
]


def sent_message() -> dict[str, Any]:
    return message_payload(777, BOT, "France's orders", components=SHEET_ROWS, flags=64)


class Recorder:
    """A request function as discord.py calls it: the routes asked for, Discord's answer returned."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.routes: list[tuple[str, str]] = []

    async def __call__(self, route: Any, *args: Any, **kwargs: Any) -> Any:
        self.routes.append((route.method, route.path))
        return self.answer


async def test_a_posted_message_comes_back_without_its_components_and_the_rest_as_sent() -> None:
    whole = sent_message()
    request = lightly(Recorder(whole))
    answer = await request(Route("POST", "/channels/{channel_id}/messages", channel_id=77))
    assert answer["components"] == []
    assert {k: v for k, v in answer.items() if k != "components"} == {
        k: v for k, v in whole.items() if k != "components"
    }
    assert whole["components"] == SHEET_ROWS, "Discord's answer itself is not changed"
    state: Any = discord.Client(intents=discord.Intents.none())._connection
    channel: Any = discord.PartialMessageable(state=state, id=77)
    message = discord.Message(state=state, channel=channel, data=answer)
    assert (message.id, message.content, message.author.id, message.components) == (
        777,
        "France's orders",
        1000,
        [],
    )
    assert message.flags.ephemeral


async def test_any_other_answer_comes_as_it_came() -> None:
    whole = sent_message()
    request = lightly(Recorder(whole))
    fetched = await request(
        Route("GET", "/channels/{channel_id}/messages/{message_id}", channel_id=77, message_id=777)
    )
    assert fetched is whole, "a message fetched (not the bot's own post) keeps its components"
    history = [sent_message()]
    listed = await lightly(Recorder(history))(Route("GET", "/channels/{channel_id}/messages", channel_id=77))
    assert listed is history
    assert without_components(None) is None and without_components("") == ""
    plain = message_payload(5, BOT, "hello")
    assert without_components(plain) is plain, "nothing to leave out: the same answer"


async def test_discord_py_posts_and_edits_messages_by_the_routes_ops_sent_knows() -> None:
    """discord.py's own builders of a followup, the edit of a deferred answer, a followup's edit, and a
    channel message's post and edit ask for routes in ops.sent.SENT."""
    recorder = Recorder(sent_message())
    adapter: Any = webhooks.AsyncWebhookAdapter()
    adapter.request = recorder
    session: Any = None
    await adapter.execute_webhook(1, "token", session=session, payload={"content": "x"}, wait=True)
    await adapter.edit_original_interaction_response(1, "token", session=session, payload={"content": "x"})
    await adapter.edit_webhook_message(1, "token", 777, session=session, payload={"content": "x"})
    http: Any = discord.http.HTTPClient(asyncio.get_running_loop())
    http.request = recorder
    with handle_message_parameters(content="x") as params:
        await http.send_message(77, params=params)
        await http.edit_message(77, 777, params=params)
    assert len(recorder.routes) == 5
    assert set(recorder.routes) <= SENT, set(recorder.routes) - SENT
