"""Forging what a modified client could send."""

from __future__ import annotations

import re
from typing import Any

from harness.fakediscord import Channel, FakeDiscord, Message, User
from harness.fakediscord.state import InteractionKind, walk_components


def retag(message: Message, old: str, new: str) -> None:
    """Rewrite the start of the custom ids on ``message`` (as a bot of another database made it)."""
    for component in walk_components(message.components):
        if str(component.get("custom_id", "")).startswith(old):
            component["custom_id"] = new + component["custom_id"][len(old) :]


def rename(message: Message, old: str, new: str) -> None:
    """The message carries ``new`` where it carried ``old`` (as an older bot, or a forger, made it)."""
    for component in walk_components(message.components):
        if component.get("custom_id") == old:
            component["custom_id"] = new


async def forged(
    fake: FakeDiscord,
    user: User,
    kind: InteractionKind,
    data: dict[str, Any],
    *,
    source: Message | None = None,
    channel: Channel | None = None,
) -> Message:
    """An interaction built by hand (a modified client, or a tap on someone else's ephemeral
    message), not through the Discord client's checks: in ``source``'s channel (else ``channel``),
    from ``source`` when given. The answer ``user`` gets."""
    where = fake.world.channel(source.channel_id) if source is not None else channel
    assert where is not None, "a forged interaction needs its message or its channel"
    handle = await fake._interact(
        kind,
        user,
        where,
        data,
        f"{user.username} sending {data.get('custom_id')!r}",
        source=source,
        source_revisions=len(source.revisions) if source is not None else 0,
    )
    return await handle.message()


def another_databases(prefix: str, game_id: int, phase: str, custom_id: str) -> tuple[str, str]:
    """The start of ``custom_id`` (``<prefix>:<game>.<tag>:``, the game's tag checked to be in it,
    and to be followed by ``phase``) and the same with another game's tag: what a message left from
    another database with this game number carries."""
    match = re.fullmatch(rf"{prefix}:{game_id}\.([a-z0-9]+):{phase}:.*", custom_id)
    assert match, f"the ids carry the game's tag: {custom_id!r}"
    other = "zzzz" if match[1] != "zzzz" else "yyyy"
    return f"{prefix}:{game_id}.{match[1]}:", f"{prefix}:{game_id}.{other}:"
