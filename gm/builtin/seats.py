"""Which powers the built-in player plays, and how a seat is named when it does.

A power is played by the built-in player when no active player holds it and its assignment says so
(``power_assignment.built_in``): True (a seat filled at the start, a moderator's /mod builtin on),
or None with the game's ``absent_seats`` setting ``built_in`` and a player who left or fell into
civil disorder. False (a moderator's off) and a neutral power nobody holds: never.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from random import Random

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game, PhaseRecord, Player, PlayerStatus, PowerAssignment
from engine.variants import get_variant
from gm.settings import ABSENT_BUILT_IN, GameSettings

LABEL = "built-in player"  # how a seat the built-in player plays is named, wherever a player would be
ABSENT = (PlayerStatus.CIVIL_DISORDER, PlayerStatus.LEFT)  # a player whose seat it may play


def plays(flag: bool | None, status: str | None, absent_seats: str) -> bool:
    """Whether the built-in player plays a power now: ``flag`` its assignment's ``built_in``,
    ``status`` its player's (None: nobody holds it), ``absent_seats`` the game's setting."""
    if status is not None and status not in ABSENT:
        return False  # an active player plays it (or it is eliminated)
    if flag is not None:
        return flag
    return status is not None and absent_seats == ABSENT_BUILT_IN


def played_powers(
    rows: Iterable[tuple[PowerAssignment, Player | None]], settings: GameSettings
) -> frozenset[str]:
    """The powers of ``rows`` (each assignment with its player) the built-in player plays."""
    return frozenset(
        a.power
        for a, player in rows
        if plays(a.built_in, player.status if player is not None else None, settings.absent_seats)
    )


async def seat_rows(session: AsyncSession, game_id: int) -> list[tuple[PowerAssignment, Player | None]]:
    """Every power assignment of the game with its player (None: nobody), by power."""
    rows = await session.exec(
        select(PowerAssignment, Player)
        .join(Player, col(Player.id) == col(PowerAssignment.player_id), isouter=True)
        .where(PowerAssignment.game_id == game_id)
        .order_by(col(PowerAssignment.power))
    )
    return list(rows.all())


async def built_in_powers(session: AsyncSession, game: Game) -> frozenset[str]:
    """The powers the built-in player plays in ``game`` now."""
    return played_powers(await seat_rows(session, game.row_id), GameSettings.from_json(game.settings))


def seat_with(seats: Sequence[tuple[str, ...]], power: str) -> tuple[str, ...]:
    """The seat of ``seats`` holding ``power`` (the power alone when no seat holds it)."""
    return next((seat for seat in seats if power in seat), (power,))


async def built_in_record(session: AsyncSession, game: Game) -> dict[str, list[str]]:
    """What a game's result keeps of the built-in player (gm.endings.ending): ``built_in``, every
    power it played in a closed phase or plays now; ``built_in_end``, those it plays at the end
    (no person gets their result: gm.reports.stats)."""
    stored = await session.exec(select(PhaseRecord.results).where(PhaseRecord.game_id == game.row_id))
    ever: set[str] = set()
    for results in stored.all():
        ever.update((results or {}).get("built_in") or ())
    now = await built_in_powers(session, game)
    return {"built_in": sorted(ever | now), "built_in_end": sorted(now)}


def draw_leaving_empty(
    user_ids: Sequence[int], seats: Sequence[tuple[str, ...]], rng: Random | None = None
) -> tuple[dict[int, tuple[str, ...]], list[tuple[str, ...]]]:
    """Each user one of ``seats`` at random (``secrets.SystemRandom`` unless a test passes its own),
    and the seats left over, for the built-in player (a game that fills its empty seats)."""
    if not 0 < len(user_ids) <= len(seats):
        raise ValueError(f"{len(user_ids)} players for {len(seats)} seats")
    shuffled = list(seats)
    (rng or secrets.SystemRandom()).shuffle(shuffled)
    taken = shuffled[: len(user_ids)]
    return dict(zip(user_ids, taken, strict=True)), [s for s in seats if s not in taken]


async def robot_seat(session: AsyncSession, game: Game, power: str) -> list[str] | None:
    """The seat of ``power`` when nobody holds it and the built-in player plays it (a seat filled at
    the start, or a neutral power a moderator gave it): its powers, as the variant groups them for
    the game's number of players (a person taking it over takes them all); None otherwise."""
    rows = await seat_rows(session, game.row_id)
    settings = GameSettings.from_json(game.settings)
    playing = played_powers(rows, settings)
    nobody = {a.power for a, player in rows if player is None}
    if power not in nobody or power not in playing:
        return None
    try:
        seats = get_variant(game.variant).seats_for(settings.players)
    except KeyError:
        seats = ()
    return [p for p in seat_with(seats, power) if p in nobody and p in playing]
