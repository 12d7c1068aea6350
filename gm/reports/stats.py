"""A server's memory (/stats): its leaderboard and each player's record, from the games played on it.

The games are read as gm.rules.leaderboard sees them (:func:`game_records`): every game that ended
after its start, with its result and the scores stored with it (gm.endings.ending), and the games still
running, which count towards reliability only. Games cancelled before their start are left out. Each
player's part comes from their ``player`` row: the powers they held at the end (none when they left or
were replaced, and those the built-in player played at the end), the phases they ordered and missed,
their civil disorders and the seats they lost.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game, GameStatus, Player, PlayerStatus, PowerAssignment
from gm.rules.leaderboard import GameRecord, LeaderboardRow, PlayerRecord, UserStats, leaderboard, user_stats
from gm.rules.scoring import DEFAULT_SYSTEM, FinalResult
from gm.settings import GameSettings

PLAYED = (GameStatus.ACTIVE, GameStatus.PAUSED, GameStatus.FINISHED, GameStatus.CANCELLED)
GONE = (PlayerStatus.LEFT, PlayerStatus.REPLACED)
LEADERBOARD_ROWS = 20


@dataclass(frozen=True, slots=True)
class ServerBoard:
    """What /stats shows: the ranked players, how many finished games they come from, and the
    scoring systems those games used (the averages mix them when a server used several)."""

    rows: tuple[LeaderboardRow, ...]
    finished_games: int
    systems: tuple[str, ...]
    built_in_games: int = 0  # of the finished games, those in which the built-in player played


async def game_records(session: AsyncSession, guild_id: int) -> list[GameRecord]:
    """Every game of the server that started, as the leaderboard reads it (oldest first)."""
    games = (
        await session.exec(
            select(Game).where(Game.guild_id == guild_id, col(Game.status).in_(PLAYED)).order_by(col(Game.id))
        )
    ).all()
    ended = {g.row_id for g in games if g.status in (GameStatus.FINISHED, GameStatus.CANCELLED)}
    games = [g for g in games if g.row_id not in ended or (g.result or {}).get("centers")]
    # a running anonymous game counts from its end on: its records would tell who plays it (gm.anonymity)
    games = [g for g in games if g.row_id in ended or not GameSettings.from_json(g.settings).anonymous]
    ids = [g.row_id for g in games]
    if not ids:
        return []
    players = (await session.exec(select(Player).where(col(Player.game_id).in_(ids)))).all()
    held: dict[int, list[str]] = {}
    for assignment in (
        await session.exec(select(PowerAssignment).where(col(PowerAssignment.game_id).in_(ids)))
    ).all():
        if assignment.player_id is not None:
            held.setdefault(assignment.player_id, []).append(assignment.power)
    # the powers the built-in player played at a game's end: their result is no one's
    robot = {g.row_id: set((g.result or {}).get("built_in_end") or ()) for g in games if g.row_id in ended}
    by_game: dict[int, list[PlayerRecord]] = {}
    for player in players:
        mine = set(held.get(player.row_id, ())) - robot.get(player.game_id, set())
        by_game.setdefault(player.game_id, []).append(
            PlayerRecord(
                user_id=player.user_id,
                powers=() if player.status in GONE else tuple(sorted(mine)),
                ordered=player.ordered_phases,
                missed=player.missed_phases,
                civil_disorders=player.civil_disorders,
                replaced=player.times_replaced,
            )
        )
    records = []
    for game in games:
        result = game.result if game.row_id in ended else None
        records.append(
            GameRecord(
                game_id=game.row_id,
                result=FinalResult.from_result(result) if result else None,
                players=tuple(by_game.get(game.row_id, ())),
                scores=(result or {}).get("scores"),
                built_in=bool((result or {}).get("built_in")),
            )
        )
    return records


async def server_board(session: AsyncSession, guild_id: int, *, limit: int = LEADERBOARD_ROWS) -> ServerBoard:
    """The leaderboard of ``guild_id``: players with a finished game, best average score first."""
    records = await game_records(session, guild_id)
    finished = [r for r in records if r.result is not None]
    return ServerBoard(
        rows=tuple(leaderboard(records, limit=limit)),
        finished_games=len(finished),
        systems=await _systems(session, guild_id),
        built_in_games=sum(r.built_in for r in finished),
    )


async def player_stats(session: AsyncSession, guild_id: int, user_id: int) -> UserStats | None:
    """One player's record on the server; None when they never played a game there."""
    stats = user_stats(await game_records(session, guild_id)).get(user_id)
    return stats


async def players_stats(
    session: AsyncSession, guild_id: int, user_ids: Iterable[int]
) -> dict[int, UserStats]:
    """The records of several players at once (their badges); players with none are left out."""
    wanted = set(user_ids)
    every = user_stats(await game_records(session, guild_id))
    return {u: s for u, s in every.items() if u in wanted}


async def _systems(session: AsyncSession, guild_id: int) -> tuple[str, ...]:
    results = (
        await session.exec(
            select(Game.result).where(
                Game.guild_id == guild_id,
                col(Game.status).in_((GameStatus.FINISHED, GameStatus.CANCELLED)),
            )
        )
    ).all()
    found = {(r or {}).get("scoring") or DEFAULT_SYSTEM for r in results if (r or {}).get("centers")}
    return tuple(sorted(found))
