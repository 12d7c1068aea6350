"""What a builder message offers."""

from __future__ import annotations

from harness.fakediscord import Message
from harness.fakediscord.state import walk_components

SELECT = 3


def offered(message: Message) -> dict[str, str]:
    """Every option of every select on the message: value -> the select's custom_id."""
    found = {}
    for component in walk_components(message.components):
        if component.get("type") == SELECT:
            for option in component.get("options", []):
                found[option["value"]] = component["custom_id"]
    return found
