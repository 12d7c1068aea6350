"""Changing a game's settings before it starts (/game settings). Only the creator or a moderator may,
and only while the game is forming: once powers are drawn the deadlines and press mode are fixed."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlmodel import func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import GameStatus, Player, PlayerStatus
from gm.clock import require_aware, utcnow
from gm.errors import GameAlreadyStarted, GameOver, InvalidSettings, NotAllowed
from gm.game_log import log_event
from gm.reading.info import GameInfo, game_info
from gm.reading.lookup import ENDED_STATES, load_game
from gm.settings import GameSettings


async def update_settings(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    changes: Mapping[str, Any],
    *,
    is_moderator: bool = False,
    now: datetime | None = None,
) -> GameInfo:
    """Apply ``changes`` (setting name -> new value) to a forming game; every value is checked by
    GameSettings.for_variant, and a refusal names every problem at once. Nothing is written on refusal.

    ``deadlines`` may be a schedule (or None: off), or a mapping of some of its parts
    (gm.settings.SCHEDULE_OPTIONS), which change the game's current schedule."""
    now = require_aware(now or utcnow())
    game = await load_game(session, game_id, for_update=True)
    if game.status in ENDED_STATES:
        raise GameOver(f"{game.name} is over.", "Create a new game with [[cmd:game create]].")
    if game.status != GameStatus.FORMING:
        raise GameAlreadyStarted(
            f"{game.name} has started; its settings can no longer change.",
            "Settings can be changed between [[cmd:game create]] and [[cmd:game start]].",
        )
    if user_id != game.creator_id and not is_moderator:
        raise NotAllowed(
            f"Only the creator of {game.name} or a moderator can change its settings.",
            "Ask them, or look at the settings with [[cmd:game settings]] and no options.",
        )
    current = GameSettings.from_json(game.settings)
    checked = GameSettings.for_variant(
        game.variant, changes, base=current, hint="Nothing was changed; try again with other values."
    )
    seated = await _seated(session, game.row_id)
    if checked.players < seated:
        raise InvalidSettings(
            [f"{game.name} already has {seated} players; it cannot be made a {checked.players}-player game."],
            "Some players must [[cmd:game leave]] first.",
        )
    game.settings = checked.to_json()
    log_event(
        session,
        game.row_id,
        "settings",
        at=now,
        actor_id=user_id,
        detail={"before": current.to_json(), "after": checked.to_json()},
    )
    return await game_info(session, game)


async def _seated(session: AsyncSession, game_id: int) -> int:
    rows = await session.exec(
        select(func.count())
        .select_from(Player)
        .where(Player.game_id == game_id, Player.status == PlayerStatus.ACTIVE)
    )
    return int(rows.one())
