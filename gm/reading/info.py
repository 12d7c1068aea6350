"""The plain data the use cases return: no database rows, nothing an adapter could write through."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game, GameStatus, PhaseRecord, Player, PlayerStatus
from engine import Phase
from gm.builtin.seats import played_powers
from gm.reading.lookup import power_assignments
from gm.settings import GameSettings


@dataclass(frozen=True, slots=True)
class PhaseInfo:
    id: int
    game_id: int
    ordinal: int
    name: str  # S1901M
    long_name: str  # Spring 1901 Movement
    kind: str  # M, R or A
    status: str
    deadline: datetime | None
    opened_at: datetime | None = None

    @classmethod
    def of(cls, phase: PhaseRecord) -> PhaseInfo:
        parsed = Phase.parse(phase.name)
        return cls(
            id=phase.row_id,
            game_id=phase.game_id,
            ordinal=phase.ordinal,
            name=phase.name,
            long_name=parsed.long_name,
            kind=parsed.kind,
            status=str(phase.status),
            deadline=phase.deadline,
            opened_at=phase.opened_at,
        )


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    user_id: int
    status: str
    powers: tuple[str, ...]
    missed_phases: int
    joined_at: datetime


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: int
    guild_id: int
    name: str
    creator_id: int
    variant: str
    status: str
    settings: GameSettings
    players: tuple[PlayerInfo, ...]  # everyone who joined and has not left
    powers: dict[str, int | None]  # power -> user id (None: nobody) once started
    phase: PhaseInfo | None  # the current (latest) phase
    game_channel_id: int | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    result: dict[str, Any] | None
    lobby: tuple[int, int] | None = None  # (channel id, message id) of its Join post
    built_in: frozenset[str] = frozenset()  # the powers the built-in player plays now (gm.builtin.seats)


async def game_info(session: AsyncSession, game: Game) -> GameInfo:
    players = (
        await session.exec(select(Player).where(Player.game_id == game.id).order_by(col(Player.joined_at)))
    ).all()
    forming = game.status == GameStatus.FORMING  # no powers drawn, no phase yet: neither is read
    assignments = [] if forming else await power_assignments(session, game.row_id)
    user_of_player = {p.id: p.user_id for p in players}
    player_of = {p.id: p for p in players}
    powers_of_player: dict[int, list[str]] = {}
    for a in assignments:
        if a.player_id is not None:
            powers_of_player.setdefault(a.player_id, []).append(a.power)
    phase = (
        None
        if forming
        else (
            await session.exec(
                select(PhaseRecord)
                .where(PhaseRecord.game_id == game.id)
                .order_by(col(PhaseRecord.ordinal).desc())
                .limit(1)
            )
        ).first()
    )
    return GameInfo(
        id=game.row_id,
        guild_id=game.guild_id,
        name=game.name,
        creator_id=game.creator_id,
        variant=game.variant,
        status=str(game.status),
        settings=GameSettings.from_json(game.settings),
        players=tuple(
            PlayerInfo(
                user_id=p.user_id,
                status=str(p.status),
                powers=tuple(powers_of_player.get(p.row_id, ())),
                missed_phases=p.missed_phases,
                joined_at=p.joined_at,
            )
            for p in players
            if p.status not in (PlayerStatus.LEFT, PlayerStatus.REPLACED)
        ),
        powers={a.power: user_of_player.get(a.player_id) if a.player_id else None for a in assignments},
        phase=PhaseInfo.of(phase) if phase else None,
        game_channel_id=game.game_channel_id,
        lobby=(game.lobby_channel_id, game.lobby_message_id)
        if game.lobby_channel_id and game.lobby_message_id
        else None,
        created_at=game.created_at,
        started_at=game.started_at,
        finished_at=game.finished_at,
        result=game.result,
        built_in=played_powers(
            ((a, player_of.get(a.player_id)) for a in assignments), GameSettings.from_json(game.settings)
        ),
    )
