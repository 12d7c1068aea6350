"""Discord's limits on a message, checked on what the fake Discord holds."""

from __future__ import annotations

from harness.fakediscord import Message
from harness.fakediscord.layout import V2_FLAG, count, text_length


def within_discords_limits(message: Message) -> None:
    assert (
        message.flags & V2_FLAG
        and count(message.components) <= 40
        and text_length(message.components) <= 4000
    )
