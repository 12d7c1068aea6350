"""Who is asking a use case, and whether they may moderate a game. Below every folder (gm.setup's
absences let a moderator speak for a player; gm.moderation's actions all check it)."""

from __future__ import annotations

from dataclasses import dataclass

from db.models import Game


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is asking. ``is_server_moderator``: the adapter found the configured moderator role or the
    Manage Server permission on them. The game's creator moderates their own game either way."""

    user_id: int
    is_server_moderator: bool = False


def may_moderate(game: Game, actor: Actor) -> bool:
    return actor.is_server_moderator or actor.user_id == game.creator_id
