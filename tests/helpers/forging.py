"""Forging what a modified client could send."""

from __future__ import annotations

from harness.fakediscord import Message
from harness.fakediscord.state import walk_components


def rename(message: Message, old: str, new: str) -> None:
    """The message carries ``new`` where it carried ``old`` (as an older bot, or a forger, made it)."""
    for component in walk_components(message.components):
        if component.get("custom_id") == old:
            component["custom_id"] = new
