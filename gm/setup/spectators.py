"""Watching a game (/game watch, /game unwatch): a member who does not play follows a started game in
its public channel, where its results, maps and final post stay. The adapter gives them that channel
only (cogs.places.spectating): never a power's channel, never the private talks.

A member who holds a seat in the game (playing, in civil disorder, or eliminated) is refused: they see
the game as its player. A game still forming has no channel to watch yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game, GameLogEntry, GameStatus, Player, PlayerStatus, Spectator
from gm.clock import require_aware, utcnow
from gm.errors import AlreadyJoined, GameNotStarted, NotAPlayer, UnknownGame
from gm.reading.lookup import load_game

SEATED = (PlayerStatus.ACTIVE, PlayerStatus.CIVIL_DISORDER, PlayerStatus.ELIMINATED)


@dataclass(frozen=True, slots=True)
class Watching:
    """A spectator of a game, and the place the adapter opens to them (or closes again)."""

    game_id: int
    game_name: str
    user_id: int
    game_channel_id: int | None
    watching: bool  # False once they stopped
    already: bool = False  # nothing changed: they were watching already (or not watching)


async def watch_game(
    session: AsyncSession, game_id: int, user_id: int, *, guild_id: int, now: datetime | None = None
) -> Watching:
    now = require_aware(now or utcnow())
    game = await _game_here(session, game_id, guild_id)
    if game.status == GameStatus.FORMING or game.game_channel_id is None:
        raise GameNotStarted(
            f"{game.name} has not started, so it has no channel to watch yet.",
            "Join it with [[cmd:game join]], or watch it once it has started.",
        )
    seat = (
        await session.exec(
            select(Player).where(
                Player.game_id == game.id, Player.user_id == user_id, col(Player.status).in_(SEATED)
            )
        )
    ).first()
    if seat is not None:
        raise AlreadyJoined(
            f"You play in {game.name}: you follow it as its player, not as a spectator.",
            "Nothing was changed.",
        )
    row = await _row(session, game, user_id)
    already = row is not None and row.stopped_at is None
    if row is None:
        session.add(Spectator(game_id=game.row_id, user_id=user_id, since=now))
    elif row.stopped_at is not None:
        row.since, row.stopped_at = now, None
    if not already:
        session.add(GameLogEntry(game_id=game.row_id, at=now, actor_id=user_id, action="watch"))
    await session.commit()
    return Watching(game.row_id, game.name, user_id, game.game_channel_id, watching=True, already=already)


async def unwatch_game(
    session: AsyncSession, game_id: int, user_id: int, *, guild_id: int, now: datetime | None = None
) -> Watching:
    now = require_aware(now or utcnow())
    game = await _game_here(session, game_id, guild_id)
    row = await _row(session, game, user_id)
    if row is None or row.stopped_at is not None:
        raise NotAPlayer(f"You are not watching {game.name}.", "Nothing was changed.")
    row.stopped_at = now
    session.add(GameLogEntry(game_id=game.row_id, at=now, actor_id=user_id, action="unwatch"))
    await session.commit()
    return Watching(game.row_id, game.name, user_id, game.game_channel_id, watching=False)


async def spectators_of(session: AsyncSession, game_id: int) -> list[int]:
    """The members watching a game now."""
    rows = await session.exec(
        select(Spectator.user_id)
        .where(Spectator.game_id == game_id, col(Spectator.stopped_at).is_(None))
        .order_by(col(Spectator.id))
    )
    users = list(rows.all())
    await session.commit()
    return users


async def _row(session: AsyncSession, game: Game, user_id: int) -> Spectator | None:
    return (
        await session.exec(
            select(Spectator).where(Spectator.game_id == game.id, Spectator.user_id == user_id)
        )
    ).first()


async def _game_here(session: AsyncSession, game_id: int, guild_id: int) -> Game:
    game = await load_game(session, game_id, for_update=True)
    if game.guild_id != guild_id:
        raise UnknownGame(
            f"There is no game {game_id} on this server.", "See [[cmd:game list]] for the games here."
        )
    return game
