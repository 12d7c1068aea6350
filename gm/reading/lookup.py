"""Loading games, players and phases for the use cases, refusing with a GameError when they are not
there or not in the needed state.

Row locks (PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` serialises every writer already). Every use case
that changes a running game locks in one order: the game row first, then its phase row. Both locks are
``FOR NO KEY UPDATE`` (``with_for_update(key_share=True)``), never plain ``FOR UPDATE``: inserting a row
that references the game or the phase (an order, a submission log entry, an outbox message) takes
``FOR KEY SHARE`` on it, which ``FOR UPDATE`` blocks. With ``FOR UPDATE`` a submission holding the phase
row, then inserting its log entry, waited for a close holding the game row, which waited for the phase
row: a deadlock. ``FOR NO KEY UPDATE`` still serialises every status change (an ``UPDATE`` takes the
same lock) and lets the foreign-key checks through. Only a row about to be deleted (gm.moderation.rollback's
phases) is locked ``FOR UPDATE``.
"""

from __future__ import annotations

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import (
    Game,
    GameStatus,
    PhaseRecord,
    Player,
    PlayerStatus,
    PowerAssignment,
)
from gm.errors import GameNotStarted, GameOver, NotAPlayer, UnknownGame

RUNNING_STATES = (GameStatus.ACTIVE, GameStatus.PAUSED)  # phases run, or a moderator paused the clock
ENDED_STATES = (GameStatus.FINISHED, GameStatus.CANCELLED)


MAX_ID = 2**63 - 1  # a database integer: a larger number is no game (and must not reach the driver)


async def load_game(session: AsyncSession, game_id: int, *, for_update: bool = False) -> Game:
    if not 0 < game_id <= MAX_ID:
        raise UnknownGame(
            f"There is no game number {str(game_id)[:20]}.", "Use [[cmd:game list]] to see the games."
        )
    game = await lock_game(session, game_id) if for_update else await session.get(Game, game_id)
    if game is None:
        raise UnknownGame(
            f"There is no game number {game_id}.", "Use [[cmd:game list]] to see the games on this server."
        )
    return game


async def lock_game(session: AsyncSession, game_id: int) -> Game | None:
    """The game row, locked ``FOR NO KEY UPDATE`` and re-read (see the module docstring)."""
    statement = (
        select(Game)
        .where(Game.id == game_id)
        .with_for_update(key_share=True)
        .execution_options(populate_existing=True)
    )
    return (await session.exec(statement)).first()


async def lock_games(session: AsyncSession, game_ids: list[int]) -> dict[int, Game]:
    """Several game rows, locked like :func:`lock_game`, in id order (a closer claiming many phases
    at once), by id."""
    if not game_ids:
        return {}
    statement = (
        select(Game)
        .where(col(Game.id).in_(game_ids))
        .order_by(col(Game.id))
        .with_for_update(key_share=True)
        .execution_options(populate_existing=True)
    )
    return {game.row_id: game for game in (await session.exec(statement)).all()}


def require_started(game: Game) -> None:
    """Refuse a game that has not started or has ended."""
    if game.status == GameStatus.FORMING:
        raise GameNotStarted(
            f"{game.name} has not started yet.", "Wait for its creator to [[cmd:game start]] it."
        )
    if game.status in ENDED_STATES:
        raise GameOver(f"{game.name} is over.", "Use [[cmd:history]] to look back at it, or join a new game.")


async def load_player(session: AsyncSession, game: Game, user_id: int) -> Player:
    """The user's player row in the game, if they are (still) playing it."""
    player = (
        await session.exec(select(Player).where(Player.game_id == game.id, Player.user_id == user_id))
    ).first()
    if player is None or player.status in (PlayerStatus.LEFT, PlayerStatus.REPLACED):
        raise not_a_player(game)
    return player


def not_a_player(game: Game) -> NotAPlayer:
    return NotAPlayer(
        f"You are not playing in {game.name}.",
        "Only the game's players can do that; [[cmd:game join]] a game that has not started yet.",
    )


async def load_player_and_powers(session: AsyncSession, game: Game, user_id: int) -> tuple[Player, list[str]]:
    """:func:`load_player` and :func:`powers_of` in one query (the order submission path)."""
    rows = (
        await session.exec(
            select(Player, PowerAssignment.power)
            .join(PowerAssignment, col(PowerAssignment.player_id) == col(Player.id), isouter=True)
            .where(Player.game_id == game.id, Player.user_id == user_id)
            .order_by(col(PowerAssignment.power))
        )
    ).all()
    if not rows or rows[0][0].status in (PlayerStatus.LEFT, PlayerStatus.REPLACED):
        raise not_a_player(game)
    return rows[0][0], [power for _, power in rows if power is not None]


async def powers_of(session: AsyncSession, game_id: int, player_id: int) -> list[str]:
    rows = await session.exec(
        select(PowerAssignment.power)
        .where(PowerAssignment.game_id == game_id, PowerAssignment.player_id == player_id)
        .order_by(col(PowerAssignment.power))
    )
    return list(rows.all())


async def game_phases(session: AsyncSession, game_id: int) -> list[PhaseRecord]:
    """Every phase of the game, oldest first."""
    rows = await session.exec(
        select(PhaseRecord).where(PhaseRecord.game_id == game_id).order_by(col(PhaseRecord.ordinal))
    )
    return list(rows.all())


async def power_assignments(session: AsyncSession, game_id: int) -> list[PowerAssignment]:
    """The game's power assignments, by power."""
    rows = await session.exec(
        select(PowerAssignment).where(PowerAssignment.game_id == game_id).order_by(col(PowerAssignment.power))
    )
    return list(rows.all())


async def latest_phase(
    session: AsyncSession, game_id: int, *, for_update: bool = False
) -> PhaseRecord | None:
    statement = (
        select(PhaseRecord)
        .where(PhaseRecord.game_id == game_id)
        .order_by(col(PhaseRecord.ordinal).desc())
        .limit(1)
    )
    if for_update:
        statement = statement.with_for_update(key_share=True).execution_options(populate_existing=True)
    return (await session.exec(statement)).first()
