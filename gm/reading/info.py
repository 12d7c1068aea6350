"""The plain data the use cases return: no database rows, nothing an adapter could write through."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam
from sqlalchemy import select as select_columns
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from db.database import flushed_connection
from db.models import Game, GameStatus, PhaseRecord, Player, PlayerStatus, PowerAssignment
from engine import Phase
from gm.builtin.seats import plays
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

    @classmethod
    def of_row(
        cls,
        row_id: int,
        game_id: int,
        ordinal: int,
        name: str,
        status: str,
        deadline: datetime | None,
        opened_at: datetime | None,
    ) -> PhaseInfo:
        """:meth:`of` from the phase's columns alone (a plain row: its board not read)."""
        parsed = Phase.parse(name)
        return cls(
            row_id, game_id, ordinal, name, parsed.long_name, parsed.kind, str(status), deadline, opened_at
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


# The statements of :func:`game_info`, built once (building one costs more than running it); plain
# rows of the columns it shows, not ORM objects (a phase's board, read as a whole, is most of its work)
_PLAYERS = (
    select_columns(
        col(Player.id),
        col(Player.user_id),
        col(Player.status),
        col(Player.missed_phases),
        col(Player.joined_at),
    )
    .where(col(Player.game_id) == bindparam("game_id"))
    .order_by(col(Player.joined_at))
)
_ASSIGNMENTS = (
    select_columns(col(PowerAssignment.power), col(PowerAssignment.player_id), col(PowerAssignment.built_in))
    .where(col(PowerAssignment.game_id) == bindparam("game_id"))
    .order_by(col(PowerAssignment.power))
)
_LATEST_PHASE = (
    select_columns(
        col(PhaseRecord.id),
        col(PhaseRecord.game_id),
        col(PhaseRecord.ordinal),
        col(PhaseRecord.name),
        col(PhaseRecord.status),
        col(PhaseRecord.deadline),
        col(PhaseRecord.opened_at),
    )
    .where(col(PhaseRecord.game_id) == bindparam("game_id"))
    .order_by(col(PhaseRecord.ordinal).desc())
    .limit(1)
)


async def game_info(session: AsyncSession, game: Game) -> GameInfo:
    """What a read says of ``game``: its players, seats and latest phase read as plain rows (what the
    session has pending flushed first, as a query would)."""
    connection = await flushed_connection(session)
    forming = game.status == GameStatus.FORMING  # no powers drawn, no phase yet: neither is read
    players, assignments, phase = await connection.run_sync(_game_rows, game.row_id, forming)
    user_of_player = {row[0]: row[1] for row in players}
    status_of_player = {row[0]: row[2] for row in players}
    powers_of_player: dict[int, list[str]] = {}
    for power, player_id, _built_in in assignments:
        if player_id is not None:
            powers_of_player.setdefault(player_id, []).append(power)
    settings = GameSettings.from_json(game.settings)
    return GameInfo(
        id=game.row_id,
        guild_id=game.guild_id,
        name=game.name,
        creator_id=game.creator_id,
        variant=game.variant,
        status=str(game.status),
        settings=settings,
        players=tuple(
            PlayerInfo(
                user_id=user_id,
                status=str(status),
                powers=tuple(powers_of_player.get(player_id, ())),
                missed_phases=missed,
                joined_at=joined_at,
            )
            for player_id, user_id, status, missed, joined_at in players
            if status not in (PlayerStatus.LEFT, PlayerStatus.REPLACED)
        ),
        powers={
            power: user_of_player.get(player_id) if player_id else None for power, player_id, _ in assignments
        },
        phase=PhaseInfo.of_row(*phase) if phase else None,
        game_channel_id=game.game_channel_id,
        lobby=(game.lobby_channel_id, game.lobby_message_id)
        if game.lobby_channel_id and game.lobby_message_id
        else None,
        created_at=game.created_at,
        started_at=game.started_at,
        finished_at=game.finished_at,
        result=game.result,
        built_in=frozenset(
            power
            for power, player_id, built_in in assignments
            if plays(built_in, status_of_player.get(player_id) if player_id else None, settings.absent_seats)
        ),
    )


def _game_rows(
    connection: Connection, game_id: int, forming: bool
) -> tuple[Sequence[Any], Sequence[Any], Any]:
    """:func:`game_info`'s three reads, in one go on the connection (one hand-over to its greenlet)."""
    params = {"game_id": game_id}
    players = connection.execute(_PLAYERS, params).all()
    if forming:
        return players, [], None
    assignments = connection.execute(_ASSIGNMENTS, params).all()
    return players, assignments, connection.execute(_LATEST_PHASE, params).first()
