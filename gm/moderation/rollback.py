"""Rolling back the last phase (/mod rollback): the last closed phase opens again exactly as it was at
its deadline, and whatever its close created is undone.

- The phase that close opened is deleted with everything of it: its orders (their authors get them
  back by direct message, so nothing they typed is lost), ready flags, votes, maps. Its messages not
  yet sent are cancelled; those already posted cannot be unsent, so the announcement says that the
  results posted for the rolled-back phase are void (the adapter marks them so: the rollback message
  carries the phase, and the outbox rows remember what their results became on the server).
- The reopened phase gets its board and its orders as they were at the close, a fresh deadline (a full
  phase from now; none while paused) and no ready flags (otherwise it would close again at once).
- What the close did to players (missed-orders counters, civil disorder, eliminations) and power
  assignments (a coin flip's power joining a side) is undone from the bookkeeping the close stored,
  field by field and only where nobody changed it since (a moderator's replacement stays).
- A game that ended at that close (solo, the short game's last year) runs again. A game ended by a
  vote or a moderator has no close to undo and is refused; so is a game whose first phase has not
  closed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import (
    Game,
    GameStatus,
    OrderRecord,
    OrderSubmission,
    OutboxEntry,
    PhaseMap,
    PhaseRecord,
    PhaseStatus,
    Player,
    PlayerStatus,
    PowerAssignment,
    Proposal,
    ReadyFlag,
    Vote,
)
from engine import Phase
from gm.actor import Actor
from gm.clock import require_aware, utcnow
from gm.delivery.outbox import Target, enqueue
from gm.errors import GameNotStarted, GameOver, NothingToRollBack, PhaseBusy
from gm.follow_ups import FollowUps
from gm.messages import payloads as say
from gm.messages.kinds import RolledBack, VoidedOrders
from gm.messages.maps import ANIMATION, FINAL_MAP, ORDERS_MAP, POSITION_MAP
from gm.moderation.shared import (
    ModerationResult,
    log_action,
    require_judge,
    require_moderator,
    require_sent_since,
)
from gm.ordering.progress import phase_state
from gm.phases import absent
from gm.phases.announcing import queue_calls_to_order
from gm.reading.info import PhaseInfo
from gm.reading.lookup import game_phases, load_game
from gm.settings import GameSettings, deadline_zone

ROLLED_BACK_AT_CLOSE = ("solo", "last_year")


async def rollback_last_phase(
    session: AsyncSession, game_id: int, actor: Actor, *, now: datetime | None = None
) -> ModerationResult:
    now = require_aware(now or utcnow())
    game = await load_game(session, game_id, for_update=True)
    require_moderator(game, actor)
    await require_judge(session, game, actor, "rollback")
    _check_game(game)
    phases = list(
        (
            await session.exec(
                select(PhaseRecord)
                .where(PhaseRecord.game_id == game.id)
                .order_by(col(PhaseRecord.ordinal))
                .with_for_update()
            )
        ).all()
    )
    target, void = _targets(game, phases)

    log = await log_action(
        session, game, actor, now, "rollback", phase=target.name, voided=void.name if void else None
    )
    suffix = f":void{log.id}"  # renamed keys of the messages the rollback voids
    returned: dict[int, list[str]] = {}
    if void is not None:
        returned = await _delete_phase(session, void, now, suffix)
    playing_again = await _reopen(session, game, target, now, suffix)
    if game.status == GameStatus.FINISHED:
        game.status, game.finished_at, game.result = GameStatus.ACTIVE, None, None
    await session.flush()
    moved = await absent.absence_move(session, game, target, now=now)
    _announce(session, game, target, void, returned, playing_again, now, log.row_id)
    state = await phase_state(session, target, game.variant)  # its calls to order, as when it first opened
    queue_calls_to_order(session, game, target, state, now, reopened=True, key_suffix=f":reopened{log.id}")
    if moved is not None:
        absent.announce_move(session, game, target, moved, now=now)
    info = PhaseInfo.of(target)
    text = f"{game.name} is back at {say.long_name(target.name)}."
    follow_ups = FollowUps(
        game.row_id,
        schedule=(info,) if target.deadline is not None else (),
        unschedule=(void.name,) if void is not None else (),
    )
    return ModerationResult(
        game.row_id,
        "rollback",
        text,
        info,
        follow_ups,
        {"voided_phase": void.name if void else None, "orders_returned_to": sorted(returned)},
    )


@dataclass(frozen=True, slots=True)
class RollbackPlan:
    """What a rollback would do now, for a moderator to confirm before it is done."""

    game_id: int
    game_name: str
    target: str  # the phase that opens again (S1901M)
    voided: str | None  # the open phase that would be deleted with its orders


async def plan_rollback(
    session: AsyncSession, game_id: int, actor: Actor, *, sent_at: datetime | None = None
) -> RollbackPlan:
    """The same checks as :func:`rollback_last_phase` (same refusals), writing nothing.
    ``sent_at``: when the moderator sent the request; refused if the game moved on after it (a phase
    closed or was rolled back since: the results they meant to undo are not the last any more)."""
    game = await load_game(session, game_id)
    require_moderator(game, actor)
    await require_judge(session, game, actor, "rollback")
    _check_game(game)
    phases = await game_phases(session, game.row_id)
    if phases:
        require_sent_since(
            game,
            phases[-1],
            sent_at,
            "Run [[cmd:mod rollback]] again if you mean to undo the last results as they are now.",
        )
    target, void = _targets(game, phases)
    return RollbackPlan(game.row_id, game.name, target.name, void.name if void else None)


def _targets(game: Game, phases: list[PhaseRecord]) -> tuple[PhaseRecord, PhaseRecord | None]:
    """The phase to reopen and the open phase to delete (if any); refusals when there is none."""
    latest = phases[-1]
    if latest.status == PhaseStatus.ADJUDICATING:
        raise PhaseBusy(
            f"{say.long_name(latest.name)} of {game.name} is being adjudicated right now; "
            "nothing was changed.",
            "Wait for its results, then roll back if needed.",
        )
    if latest.status == PhaseStatus.CLOSED:
        target, void = latest, None
    elif latest.ordinal == 0:
        raise NothingToRollBack(
            f"{game.name} is in its first phase, {say.long_name(latest.name)}: no phase has closed yet, "
            "so there is nothing to roll back.",
            "Extend the deadline or close the phase instead.",
        )
    else:
        target, void = phases[-2], latest
    if target.status != PhaseStatus.CLOSED or target.results is None:
        raise NothingToRollBack(f"{say.long_name(target.name)} of {game.name} has no results to undo.")
    return target, void


def _check_game(game: Game) -> None:
    if game.status == GameStatus.FORMING:
        raise GameNotStarted(f"{game.name} has not started: there is nothing to roll back.")
    if game.status == GameStatus.CANCELLED or (
        game.status == GameStatus.FINISHED and (game.result or {}).get("kind") not in ROLLED_BACK_AT_CLOSE
    ):
        raise GameOver(
            f"{game.name} was ended by a vote or a moderator, not by a phase's results; "
            "there is no phase to roll back.",
            "Start a new game if it should go on.",
        )


async def _delete_phase(
    session: AsyncSession, phase: PhaseRecord, now: datetime, suffix: str
) -> dict[int, list[str]]:
    """Delete a phase and everything of it; return user -> the orders they had given in it."""
    orders = (
        await session.exec(
            select(OrderRecord).where(OrderRecord.phase_id == phase.id).order_by(col(OrderRecord.id))
        )
    ).all()
    returned: dict[int, list[str]] = {}
    for order in orders:
        returned.setdefault(order.submitted_by, []).append(order.input)
    proposals = select(Proposal.id).where(Proposal.phase_id == phase.id)
    await session.exec(delete(Vote).where(col(Vote.proposal_id).in_(proposals)))
    for table in (Proposal, OrderRecord, OrderSubmission, ReadyFlag, PhaseMap):
        await session.exec(delete(table).where(col(table.phase_id) == phase.id))
    await _void_messages(session, phase.row_id, None, now, suffix, detach=True)
    await session.exec(delete(PhaseRecord).where(col(PhaseRecord.id) == phase.id))
    return returned


async def _reopen(
    session: AsyncSession, game: Game, phase: PhaseRecord, now: datetime, suffix: str
) -> list[tuple[list[str], int]]:
    """Open ``phase`` again as it was at its deadline; returns the powers (and their player's user id)
    whose player the close had put in civil disorder and plays again now."""
    results: dict[str, Any] = phase.results or {}
    back = await _undo_bookkeeping(session, game.row_id, results.get("bookkeeping") or {})
    proposals = select(Proposal.id).where(Proposal.phase_id == phase.id)
    await session.exec(delete(Vote).where(col(Vote.proposal_id).in_(proposals)))
    await session.exec(delete(Proposal).where(col(Proposal.phase_id) == phase.id))
    await session.exec(delete(ReadyFlag).where(col(ReadyFlag.phase_id) == phase.id))
    await session.exec(
        delete(PhaseMap).where(
            col(PhaseMap.phase_id) == phase.id, col(PhaseMap.kind).in_((ORDERS_MAP, FINAL_MAP, ANIMATION))
        )
    )
    await _void_messages(session, phase.row_id, phase.closed_at, now, suffix, detach=False)
    settings = GameSettings.from_json(game.settings)
    kind = Phase.parse(phase.name).kind
    paused = game.status == GameStatus.PAUSED
    phase.status = PhaseStatus.OPEN
    phase.results = None
    phase.closed_at = None
    phase.close_reason = None
    phase.adjudication_started_at = None
    phase.opened_at = now  # it opens again now: a close asked for before this is not for it
    phase.deadline = None if paused else settings.deadline_for(kind, now)
    full = settings.phase_minutes(kind) * 60 if settings.deadlines is None else None
    phase.remaining_seconds = full if paused else None
    if not back:
        return []
    held = await session.exec(
        select(PowerAssignment.player_id, PowerAssignment.power).where(
            PowerAssignment.game_id == game.row_id, col(PowerAssignment.player_id).in_([p.id for p in back])
        )
    )
    powers: dict[int | None, list[str]] = {}
    for player_id, power in held.all():
        powers.setdefault(player_id, []).append(power)
    return [(sorted(powers[p.id]), p.user_id) for p in back if p.id in powers]


async def _void_messages(
    session: AsyncSession, phase_id: int, since: datetime | None, now: datetime, suffix: str, *, detach: bool
) -> None:
    """Cancel the phase's unsent messages (those written since ``since``, or all), and rename every
    message key of the phase so that the same events (results, reminders) can be queued again."""
    unsent = (
        update(OutboxEntry)
        .where(
            col(OutboxEntry.phase_id) == phase_id,
            col(OutboxEntry.sent_at).is_(None),
            col(OutboxEntry.failed_at).is_(None),
        )
        .values(failed_at=now, last_error="void: the phase was rolled back by a moderator")
    )
    if since is not None:
        unsent = unsent.where(col(OutboxEntry.created_at) >= since)
    await session.exec(unsent)
    values: dict[str, Any] = {"dedup_key": OutboxEntry.dedup_key + suffix}
    if detach:
        values["phase_id"] = None
    await session.exec(update(OutboxEntry).where(col(OutboxEntry.phase_id) == phase_id).values(**values))


async def _undo_bookkeeping(session: AsyncSession, game_id: int, book: dict[str, Any]) -> list[Player]:
    """Undo what the close did to players and seats; returns the players it took out of civil
    disorder (they play again: the announcement says so)."""
    back: list[Player] = []
    for player_id, change in (book.get("players") or {}).items():
        player = await session.get(Player, int(player_id))
        if player is None:
            continue
        before, after = change["before"], change["after"]
        was = player.status
        for name in ("status", "missed_phases", "missed_in_a_row", "ordered_phases", "civil_disorders"):
            if name not in after or name not in before:  # a close recorded before this counter existed
                continue
            if getattr(player, name) == after[name]:  # only what nobody changed since
                setattr(player, name, before[name])
        if was == PlayerStatus.CIVIL_DISORDER and player.status == PlayerStatus.ACTIVE:
            back.append(player)
    for power, change in (book.get("assignments") or {}).items():
        assignment = (
            await session.exec(
                select(PowerAssignment).where(
                    PowerAssignment.game_id == game_id, PowerAssignment.power == power
                )
            )
        ).first()
        if assignment is not None and assignment.player_id == change["after"]:
            assignment.player_id = change["before"]
    return back


def _announce(
    session: AsyncSession,
    game: Game,
    target: PhaseRecord,
    void: PhaseRecord | None,
    returned: dict[int, list[str]],
    playing_again: list[tuple[list[str], int]],
    now: datetime,
    log_id: int,
) -> None:
    game_id = game.row_id
    enqueue(
        session,
        RolledBack(
            game_id=game_id,
            game_name=game.name,
            title=f"{game.name} is rolled back to {say.long_name(target.name)}",
            lines=_rollback_lines(target, void, playing_again),
            phase=target.name,
            deadline=target.deadline,
            deadline_zone=deadline_zone(game),
            maps=[]  # under the fog of war, no map for everyone: each player's /map shows their view
            if GameSettings.from_json(game.settings).fogged
            else [say.map_ref(target.row_id, target.name, POSITION_MAP)],
            voided_phase=void.name if void else None,
        ),
        phase_id=target.id,
        target=Target.game_channel(),
        key=f"rollback:{game_id}:{log_id}",
        now=now,
    )
    for user_id, lines_typed in returned.items():
        enqueue(
            session,
            VoidedOrders(
                game_id=game_id,
                game_name=game.name,
                # why the ignore below: void is set whenever orders were returned (from the voided phase)
                title=f"{game.name}: your {say.long_name(void.name)} orders were voided by a rollback",  # type: ignore[union-attr]
                lines=[
                    f"A moderator rolled the game back to {say.long_name(target.name)}. "
                    "These are the orders you had sent, in case you need them again:",
                    *lines_typed,
                ],
                phase=target.name,
                orders=lines_typed,
            ),
            target=Target.user(user_id),
            key=f"voided_orders:{game_id}:{log_id}:{user_id}",
            now=now,
        )


def _rollback_lines(
    target: PhaseRecord, void: PhaseRecord | None, playing_again: list[tuple[list[str], int]]
) -> list[str]:
    """The game channel's account of a rollback: what is void, what is back, who plays again."""
    lines = [
        f"The results posted for {say.long_name(target.name)} are void (their messages are marked VOID).",
        f"The orders given for {say.long_name(target.name)} are back as they stood at its deadline; "
        "everyone may change them until the new deadline. Ready flags were reset.",
    ]
    if void is not None:
        lines.append(
            f"{say.long_name(void.name)} never happened: orders sent for it are void "
            "(their authors have them back by direct message)."
        )
    if playing_again:
        who = ", ".join(f"{say.powers_text(p)} ([[user:{u}]])" for p, u in sorted(playing_again))
        lines.append(
            f"Playing again, out of the civil disorder {say.long_name(target.name)}'s close had put "
            f"them in: {who}."
        )
    return lines
