"""Driving the step-by-step order builder on the fake Discord."""

from __future__ import annotations

from harness.bot_helpers import (
    Table,
    ask,
)
from harness.fakediscord import FakeDiscord, Message, User
from harness.fakediscord.state import walk_components
from tests.helpers.builder_offers import offered


async def pick(fake: FakeDiscord, user: User, message: Message, value: str) -> Message:
    """``user`` picks ``value`` in whichever select of the message offers it; the message after."""
    choices = offered(message)
    assert value in choices, f"{value!r} is not offered; the selects offer {sorted(choices)}"
    return await (await fake.click(user, message, choices[value], values=[value])).message()


async def open_builder(fake: FakeDiscord, user: User, table: Table) -> Message:
    builder = await ask(fake, user, "orders", "build", channel=table.general)
    assert builder.ephemeral and "Orders by tap" in builder.content, builder.content
    return builder


def retag(message: Message, old: str, new: str) -> None:
    """Rewrite the start of the custom ids on ``message`` (as a bot of another database made it)."""
    for component in walk_components(message.components):
        if str(component.get("custom_id", "")).startswith(old):
            component["custom_id"] = new + component["custom_id"][len(old) :]
