"""The game log: the one function that writes it.

Every entry of a game's log (db.models.GameLogEntry: who did what to the game, when, outside the
orders themselves) is made by :func:`log_event`, in the transaction of the use case that did it.
Moderator actions go through gm.moderation.shared.log_action, which names the action and the
moderator's capacity and then calls it. What the log says is read back by gm.reading (the public
log, /game status, the export).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import GameLogEntry


def log_event(
    session: AsyncSession,
    game_id: int,
    action: str,
    *,
    at: datetime,
    actor_id: int | None = None,
    detail: dict[str, Any] | None = None,
) -> GameLogEntry:
    """Add ``action`` to game ``game_id``'s log, done at ``at`` by ``actor_id`` (None: the bot
    itself), with ``detail``. Written with the session's transaction; its id comes with the next
    flush (who needs it, to name a message after the entry, flushes)."""
    entry = GameLogEntry(game_id=game_id, at=at, actor_id=actor_id, action=action, detail=detail or {})
    session.add(entry)
    return entry
