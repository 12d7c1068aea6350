"""A player in civil disorder plays again: the game channel is told, and its posts that offered the
seat meanwhile are marked no longer open (gm.messages.kinds.PlayerReturned and its effect).

Called wherever a player comes back: their orders or Ready (gm.ordering.submission), a vote
(gm.endings.votes), a moderator's ``/mod disorder`` off (gm.moderation.actions)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game
from gm.delivery.outbox import Target, enqueue
from gm.messages import payloads as say
from gm.messages.kinds import PlayerReturned

RETURNED = "player_returned"  # session.info: a player came back in this unit of work


def returned_in(session: Any) -> bool:
    """Whether a player came back from civil disorder in this session (an AsyncSession or a Session)."""
    return bool(session.info.get(RETURNED))


def returned_message(game: Game, user_id: int, powers: Sequence[str]) -> PlayerReturned:
    """What the game channel reads when ``user_id`` plays ``powers`` again."""
    names = say.powers_text(powers)
    return PlayerReturned(
        game_id=game.row_id,
        game_name=game.name,
        title=f"{names} {'is' if len(powers) == 1 else 'are'} back in play",
        lines=[
            f"[[user:{user_id}]] is back and plays {names} again: "
            f"{'its' if len(powers) == 1 else 'their'} orders count from now on, and the seat is no "
            "longer open."
        ],
        powers=list(powers),
        user_id=user_id,
    )


def announce_return(
    session: AsyncSession,
    game: Game,
    user_id: int,
    powers: Sequence[str],
    now: datetime,
    *,
    phase_id: int | None = None,
) -> None:
    """Tell the game channel that ``user_id`` plays ``powers`` again (once per return: keyed by the
    time); the session is marked (:func:`returned_in`) so that the facade sends it at once."""
    session.info[RETURNED] = True
    enqueue(
        session,
        returned_message(game, user_id, powers),
        phase_id=phase_id,
        target=Target.game_channel(),
        key=f"returned:{game.id}:{user_id}:{now.isoformat()}",
        now=now,
    )
