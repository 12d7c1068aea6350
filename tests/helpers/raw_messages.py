"""A message as Discord's API sends it (the JSON discord.py parses), for the unit tests that feed
discord.py a payload without the fake Discord's world."""

from __future__ import annotations

from typing import Any


def message_payload(message_id: int, author: dict[str, Any], content: str, **fields: Any) -> dict[str, Any]:
    """A plain message (type 0) in channel 77 with no mentions, attachments or embeds; ``fields``
    set or add the others (``edited_timestamp``, ``components``, ...)."""
    return {
        "id": str(message_id),
        "channel_id": "77",
        "author": author,
        "content": content,
        "timestamp": "2026-11-28T12:00:00+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "type": 0,
        **fields,
    }
