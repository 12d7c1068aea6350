"""The coin flip of a variant (the two-player 1914 game: which side neutral Italy joins).

At the close that ends the Fall turn of the flip year the coin is flipped with ``secrets``, written in
the game log and announced; at the close that opens the joining year the power passes to the player
holding the winning side. The flip is made once per game: a rollback and a new close reuse the logged
result, so a moderator's rollback cannot re-toss the coin.
"""

from __future__ import annotations

import secrets
from datetime import datetime

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game, GameLogEntry, PhaseRecord, Player, PowerAssignment
from engine.variants import CoinFlip
from gm.delivery.outbox import Target, enqueue, existing_keys
from gm.game_log import log_event
from gm.messages import payloads as say
from gm.messages.kinds import KINDS
from gm.phases.disorder import Bookkeeping

FLIP = "coin_flip"


async def apply(
    session: AsyncSession,
    game: Game,
    flip: CoinFlip,
    closing: PhaseRecord,
    next_phase: str,
    now: datetime,
    book: Bookkeeping,
) -> None:
    """Flip (once) and hand the power over (once), as far as ``next_phase`` calls for."""
    if not flip.flip_due(next_phase):
        return
    side = await _logged_side(session, game.row_id) or await _flip(session, game, flip, closing, now)
    if flip.join_due(next_phase):
        await _join(session, game, flip, side, closing, next_phase, now, book)


async def _flip(
    session: AsyncSession, game: Game, flip: CoinFlip, closing: PhaseRecord, now: datetime
) -> tuple[str, ...]:
    """The coin tossed, logged and announced: the side the power will join."""
    heads = secrets.randbelow(2) == 0
    side = flip.sides[0 if heads else 1]
    log_event(
        session,
        game.row_id,
        FLIP,
        at=now,
        detail={"power": flip.power, "result": "heads" if heads else "tails", "side": list(side)},
    )
    await _announce(
        session,
        game,
        closing,
        f"flip:{closing.id}",
        title=f"{game.name}: the coin says {say.powers_text(side)}",
        lines=[
            f"{'Heads' if heads else 'Tails'}: {say.power_name(flip.power)} joins "
            f"{say.powers_text(side)} in Spring {flip.joins_in_year}.",
        ],
        data={"power": flip.power, "side": list(side), "result": "heads" if heads else "tails"},
        now=now,
    )
    return side


async def _join(
    session: AsyncSession,
    game: Game,
    flip: CoinFlip,
    side: tuple[str, ...],
    closing: PhaseRecord,
    next_phase: str,
    now: datetime,
    book: Bookkeeping,
) -> None:
    """The power goes to the player of ``side`` (once: not when it has a player already)."""
    game_id = game.row_id
    assignments = {
        a.power: a
        for a in (await session.exec(select(PowerAssignment).where(PowerAssignment.game_id == game_id))).all()
    }
    joining = assignments.get(flip.power)
    holder = assignments[side[0]].player_id if side[0] in assignments else None
    if joining is None or joining.player_id is not None or holder is None:
        return
    joining.player_id = holder
    book.note_assignment(flip.power, None, holder)
    player = await session.get(Player, holder)
    user_id = player.user_id if player is not None else None
    log_event(
        session,
        game_id,
        "power_joined",
        at=now,
        detail={"power": flip.power, "user_id": user_id, "side": list(side)},
    )
    await _announce(
        session,
        game,
        closing,
        f"joined:{closing.id}",
        title=f"{game.name}: {say.power_name(flip.power)} joins {say.powers_text(side)}",
        lines=[
            f"From {say.long_name(next_phase)} the player of {say.powers_text(side)} "
            f"orders {say.power_name(flip.power)} too."
        ],
        data={"power": flip.power, "side": list(side), "user_id": user_id},
        now=now,
        kind="power_joined",
    )


async def _logged_side(session: AsyncSession, game_id: int) -> tuple[str, ...] | None:
    entry = (
        await session.exec(
            select(GameLogEntry)
            .where(GameLogEntry.game_id == game_id, GameLogEntry.action == FLIP)
            .order_by(col(GameLogEntry.id))
        )
    ).first()
    return tuple(entry.detail["side"]) if entry is not None else None


async def _announce(
    session: AsyncSession,
    game: Game,
    closing: PhaseRecord,
    key: str,
    *,
    title: str,
    lines: list[str],
    data: dict,
    now: datetime,
    kind: str = FLIP,
) -> None:
    full_key = f"{kind}:{game.id}:{key}"
    if await existing_keys(session, [full_key]):
        return
    enqueue(
        session,
        KINDS[kind](game_id=game.row_id, game_name=game.name, title=title, lines=lines, **data),
        phase_id=closing.id,
        target=Target.game_channel(),
        key=full_key,
        now=now,
    )
