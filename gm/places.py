"""Where a game lives on its chat server: the channels an adapter recorded for it (gm.games
.set_game_channels), looked up both ways. Plain ids; no chat library here.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game, Player, PlayerStatus, PowerAssignment
from gm.lookup import load_game

GONE = (PlayerStatus.LEFT, PlayerStatus.REPLACED)


@dataclass(frozen=True, slots=True)
class GamePlaces:
    game_id: int
    guild_id: int
    category_id: int | None
    game_channel_id: int | None
    power_channels: dict[str, int | None]  # power -> its private channel
    holders: dict[str, int | None]  # power -> the user who plays it now (None: nobody, or they left)

    def channels_of(self, user_id: int) -> list[int]:
        """The private channels of the powers ``user_id`` plays."""
        return [
            channel
            for power, holder in self.holders.items()
            if holder == user_id and (channel := self.power_channels.get(power)) is not None
        ]


async def game_places(session: AsyncSession, game_id: int) -> GamePlaces:
    game = await load_game(session, game_id)
    rows = (
        await session.exec(
            select(PowerAssignment, Player)
            .join(Player, col(Player.id) == col(PowerAssignment.player_id), isouter=True)
            .where(PowerAssignment.game_id == game_id)
            .order_by(col(PowerAssignment.power))
        )
    ).all()
    await session.commit()
    return GamePlaces(
        game_id=game_id,
        guild_id=game.guild_id,
        category_id=game.category_id,
        game_channel_id=game.game_channel_id,
        power_channels={a.power: a.channel_id for a, _ in rows},
        holders={a.power: p.user_id if p is not None and p.status not in GONE else None for a, p in rows},
    )


async def game_of_channel(session: AsyncSession, channel_id: int) -> int | None:
    """The game whose public channel, category or private power channel ``channel_id`` is."""
    game_id = (
        await session.exec(
            select(Game.id).where(
                (col(Game.game_channel_id) == channel_id) | (col(Game.category_id) == channel_id)
            )
        )
    ).first()
    if game_id is None:
        by_power = select(PowerAssignment.game_id).where(PowerAssignment.channel_id == channel_id)
        game_id = (await session.exec(by_power)).first()
    await session.commit()
    return game_id
