"""Replacing a player (/mod replace): the seat holding a power, with every power its player holds,
goes to someone else, who inherits the powers' orders, private channels and negotiation spaces.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import (
    Game,
    OrderRecord,
    PhaseRecord,
    Player,
    PlayerStatus,
    PowerAssignment,
    Proposal,
    ProposalStatus,
    ReadyFlag,
    Spectator,
    Vote,
)
from gm.clock import require_aware, utcnow
from gm.delivery.outbox import Target, enqueue
from gm.errors import AlreadyJoined
from gm.messages import payloads as say
from gm.messages.kinds import ReplacedYou, Welcome
from gm.moderation.shared import (
    Actor,
    ModerationResult,
    action_result,
    announce_action,
    log_action,
    running_game,
    seat_of,
)
from gm.ordering.examples import examples_for_board
from gm.setup.settings import deadline_zone


@dataclass(frozen=True, slots=True)
class Replacement:
    old_user_id: int
    new_user_id: int
    powers: tuple[str, ...]
    channels: dict[str, int | None]  # power -> its private channel: give the new player access


async def replace_player(
    session: AsyncSession,
    game_id: int,
    actor: Actor,
    *,
    power: str,
    new_user_id: int,
    now: datetime | None = None,
) -> ModerationResult:
    """Give the seat holding ``power`` (every power its player holds) to ``new_user_id``.

    The new player inherits the powers' current orders (kept as they are), their private channels and
    negotiation spaces (the adapter grants access from ``details["replacement"]``); the powers' ready
    flags and votes in the open phase are cleared, since they were the old player's. The old player is
    marked replaced. Refused when the new player already plays in the game."""
    now = require_aware(now or utcnow())
    game, phase = await running_game(session, game_id, actor, "replace")
    _, old, powers = await seat_of(session, game, power, include_gone=True)
    return await hand_over_seat(session, game, phase, actor, old, powers, new_user_id, now=now)


SEAT_HANDED = {
    "moderator": "A moderator gave you {names}, replacing the previous player.",
    "take_over": "You took over {names}, whose player had left or fallen into civil disorder.",
    "approved": "A moderator approved your request: you took over {names}.",
}


async def hand_over_seat(
    session: AsyncSession,
    game: Game,
    phase: PhaseRecord,
    actor: Actor,
    old: Player,
    powers: list[str],
    new_user_id: int,
    *,
    now: datetime,
    how: str = "moderator",
) -> ModerationResult:
    """The seat of ``old`` (its ``powers``) goes to ``new_user_id``: the whole replacement, logged and
    announced, after the caller checked that ``actor`` may do it. ``how`` (a key of
    :data:`SEAT_HANDED`) says in the newcomer's welcome how the seat came to them."""
    if new_user_id == old.user_id:
        raise AlreadyJoined(
            f"[[user:{new_user_id}]] already plays {say.powers_text(powers)}.", "Pick someone else."
        )
    existing = (
        await session.exec(select(Player).where(Player.game_id == game.id, Player.user_id == new_user_id))
    ).first()
    if existing is not None:
        held = (
            await session.exec(select(PowerAssignment.power).where(PowerAssignment.player_id == existing.id))
        ).all()
        if existing.status not in (PlayerStatus.LEFT, PlayerStatus.REPLACED) or held:
            what = f"plays {say.powers_text(sorted(held))}" if held else "is in the game"
            raise AlreadyJoined(
                f"[[user:{new_user_id}]] already {what} in {game.name}; a player cannot take a second seat.",
                "Pick someone who is not playing in this game.",
            )
        existing.status = PlayerStatus.ACTIVE
        existing.joined_at, existing.left_at = now, None
        existing.missed_phases = existing.missed_in_a_row = 0
        newcomer = existing
    else:
        newcomer = Player(game_id=game.row_id, user_id=new_user_id, joined_at=now)
        session.add(newcomer)
    await session.flush()
    await session.exec(  # a spectator who takes the seat watches no more: they play
        update(Spectator)
        .where(
            col(Spectator.game_id) == game.row_id,
            col(Spectator.user_id) == new_user_id,
            col(Spectator.stopped_at).is_(None),
        )
        .values(stopped_at=now)
    )
    assignments = (
        await session.exec(
            select(PowerAssignment).where(
                PowerAssignment.game_id == game.id, col(PowerAssignment.power).in_(powers)
            )
        )
    ).all()
    for a in assignments:
        a.player_id = newcomer.id
    if old.status not in (PlayerStatus.LEFT, PlayerStatus.REPLACED):
        old.times_replaced += 1  # a seat lost (one who left has a civil disorder counted already)
        old.status = PlayerStatus.REPLACED
        old.left_at = now
    await session.exec(
        delete(ReadyFlag).where(col(ReadyFlag.phase_id) == phase.id, col(ReadyFlag.power).in_(powers))
    )
    open_ids = select(Proposal.id).where(
        Proposal.phase_id == phase.id, Proposal.status == ProposalStatus.OPEN
    )
    await session.exec(delete(Vote).where(col(Vote.proposal_id).in_(open_ids), col(Vote.power).in_(powers)))
    replacement = Replacement(
        old_user_id=old.user_id,
        new_user_id=new_user_id,
        powers=tuple(powers),
        channels={a.power: a.channel_id for a in assignments},
    )
    log = await log_action(
        session,
        game,
        actor,
        now,
        "replace",
        powers=powers,
        old_user_id=old.user_id,
        new_user_id=new_user_id,
        how=how,
        capacity="player taking over an open seat" if how == "take_over" else None,
    )
    await session.flush()
    names = say.powers_text(powers)
    verb = "takes over" if how == "take_over" else "now plays"
    text = f"[[user:{new_user_id}]] {verb} {names}, replacing [[user:{old.user_id}]]."
    announce_action(
        session,
        game,
        phase,
        "replace",
        text,
        [],
        now,
        log,
        kind="replaced",
        powers=powers,
        old_user_id=old.user_id,
        new_user_id=new_user_id,
    )
    board = phase.board
    given = (
        await session.exec(
            select(OrderRecord)
            .where(OrderRecord.phase_id == phase.id, col(OrderRecord.power).in_(powers))
            .order_by(col(OrderRecord.id))
        )
    ).all()
    enqueue(
        session,
        Welcome(
            game_id=game.row_id,
            game_name=game.name,
            title=f"You play {names} in {game.name}",
            lines=[
                SEAT_HANDED.get(how, SEAT_HANDED["moderator"]).format(names=names),
                "The orders already given for this phase are kept; see them with [[cmd:orders show]].",
            ],
            phase=phase.name,
            deadline=phase.deadline,
            deadline_zone=deadline_zone(game),
            powers=powers,
            units={p: list(board.get("units", {}).get(p, [])) for p in powers},
            centers={p: sorted(board.get("centers", {}).get(p, [])) for p in powers},  # owned now
            orders={p: [o.text for o in given if o.power == p] for p in powers},  # now theirs to see
            replacement=True,
            variant=game.variant,
            examples=examples_for_board(board, game.variant, powers),
        ),
        phase_id=phase.id,
        target=Target.user(new_user_id),
        key=f"welcome:{game.id}:{new_user_id}:mod{log.id}",
        now=now,
    )
    enqueue(
        session,
        ReplacedYou(
            game_id=game.row_id,
            game_name=game.name,
            title=f"You no longer play {names} in {game.name}",
            lines=[
                "A moderator gave your powers to another player. Thank you for playing."
                if how == "moderator"
                else "Another player took over your powers. Thank you for playing."
            ],
            powers=powers,
        ),
        phase_id=phase.id,
        target=Target.user(old.user_id),
        key=f"replaced_you:{game.id}:{old.user_id}:mod{log.id}",
        now=now,
    )
    await session.commit()
    return action_result(game, "replace", text, phase, details={"replacement": replacement})
