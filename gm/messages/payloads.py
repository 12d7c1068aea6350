"""The payloads of outbox messages: structured plain data that the adapters format (embeds, files).

Every payload has::

    {"game": {"id": 3, "name": "Friday game"},   # the name exactly as typed: escape it
     "title": "...", "lines": ["...", ...],       # headline and body lines, plain text
     "fields": [{"name": "...", "value": "..."}], # short labelled facts
     "phase": "F1901M" | None, "deadline": "2024-06-01T18:00:00+00:00" | None,
     "maps": [{"phase_id": 12, "kind": "orders", "filename": "F1901M-orders.png"}],  # PNGs, attached
     ...kind-specific structured data}

The kinds and their data are the dataclasses of gm.messages.kinds, each registered under its name.

Flags the adapters act on:
- ``alert_moderators: true`` (civil_disorder, player_left, and any payload that asks a moderator to
  act): mention the server's moderator role, allowing that role only in allowed_mentions.
- a map reference with ``required: true`` is awaited: the message is not sent until that picture
  has been stored (the final post waits for its GIF; see gm.endings.final_post).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any


def base(
    game_id: int | None,
    game_name: str,
    *,
    title: str,
    lines: Iterable[str] = (),
    fields: Mapping[str, str] | None = None,
    phase: str | None = None,
    deadline: datetime | None = None,
    maps: Iterable[Mapping[str, Any]] = (),
    **data: Any,
) -> dict[str, Any]:
    return {
        "game": {"id": game_id, "name": game_name},
        "title": title,
        "lines": list(lines),
        "fields": [{"name": k, "value": v} for k, v in (fields or {}).items()],
        "phase": phase,
        "deadline": deadline.isoformat() if deadline else None,
        "maps": list(maps),
        **data,
    }


def map_ref(
    phase_id: int,
    phase_name: str,
    kind: str,
    *,
    required: bool = False,
    extension: str = "png",
    setup: bool = False,
) -> dict[str, Any]:
    """A stored picture to attach; ``required``: wait for it to be stored before sending; ``setup``:
    wait for it while the game is being set up (its game channel not recorded yet: the start draws
    the opening map before it records the channels; at most gm.delivery.outbox.SETUP_WAIT), then send
    without it if it is still missing."""
    ref: dict[str, Any] = {"phase_id": phase_id, "kind": kind, "filename": f"{phase_name}-{kind}.{extension}"}
    if required:
        ref["required"] = True
    if setup:
        ref["setup"] = True
    return ref


# The words every message uses, re-exported so that ``say.power_name`` and friends keep working.
from gm.messages.words import (  # noqa: E402
    duration,
    long_name,
    plural,
    power_name,
    powers_text,
    seconds_text,
)

__all__ = ["base", "duration", "long_name", "map_ref", "plural", "power_name", "powers_text", "seconds_text"]
