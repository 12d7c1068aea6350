"""What moderators do to a running game (/mod): extend the deadline, pause and resume, close now,
replace a player, put a power in or out of civil disorder, end the game. Rolling back the last phase is
in gm.rollback.

Who may: the game's creator, and whoever the adapter says is a server moderator (the configured
moderator role, or Manage Server): :class:`Actor` carries that fact. Anyone else is refused with
NotAllowed before anything is read for writing.

Every action is written to the game log (``mod_*`` actions, with who and when; gm.status shows them)
and announced in the game channel. Each use case commits its own transaction; a refusal (a GameError)
changes nothing. The result's ``effects`` go to :meth:`gm.runtime.Gamemaster.apply` (deadline jobs,
the close itself, the final post).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import (
    Game,
    GameLogEntry,
    GameStatus,
    OrderRecord,
    PhaseRecord,
    PhaseStatus,
    Player,
    PlayerStatus,
    PowerAssignment,
    Proposal,
    ProposalStatus,
    ReadyFlag,
    Vote,
)
from engine import Phase
from gm import announcements as say
from gm import disorder, ending
from gm.clock import require_aware, utcnow
from gm.effects import Effects
from gm.errors import (
    AlreadyJoined,
    GameNotStarted,
    GameOver,
    NotAllowed,
    PhaseBusy,
    WrongGameState,
)
from gm.lookup import ENDED_STATES, latest_phase, load_game
from gm.outbox import Target, enqueue
from gm.settings import MOVEMENT_MINUTES, GameSettings
from gm.variants import game_map
from gm.views import PhaseInfo

MOD_PREFIX = "mod_"
MAX_EXTENSION_MINUTES = MOVEMENT_MINUTES[1]  # two weeks at a time


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is asking. ``is_server_moderator``: the adapter found the configured moderator role or the
    Manage Server permission on them. The game's creator moderates their own game either way."""

    user_id: int
    is_server_moderator: bool = False


@dataclass(frozen=True, slots=True)
class ModerationResult:
    game_id: int
    action: str  # extend, pause, resume, close, replace, civil_disorder, rollback, end
    message: str  # what was done, for the moderator's (ephemeral) answer
    phase: PhaseInfo | None
    effects: Effects
    details: dict[str, Any] = field(default_factory=dict)


def may_moderate(game: Game, actor: Actor) -> bool:
    return actor.is_server_moderator or actor.user_id == game.creator_id


def require_moderator(game: Game, actor: Actor) -> None:
    if not may_moderate(game, actor):
        raise NotAllowed(
            f"Only the creator of {game.name} or a server moderator can use /mod.",
            "Ask one of them; nothing was changed.",
        )


async def extend_deadline(
    session: AsyncSession, game_id: int, actor: Actor, *, minutes: int, now: datetime | None = None
) -> ModerationResult:
    """Push the current phase's deadline back by ``minutes`` (added to the time left if paused)."""
    now = require_aware(now or utcnow())
    game, phase = await _running(session, game_id, actor)
    if not isinstance(minutes, int) or not 0 < minutes <= MAX_EXTENSION_MINUTES:
        raise WrongGameState(
            f"A deadline can be extended by 1 minute to {MAX_EXTENSION_MINUTES // (24 * 60)} days, "
            f"not {minutes!r} minutes.",
            "Give a positive number of minutes, hours or days.",
        )
    before = phase.deadline
    if phase.deadline is None:  # paused: more time when the clock starts again
        phase.remaining_seconds = _remaining(game, phase) + minutes * 60
        text = f"{say.long_name(phase.name)} gets {say.duration(minutes)} more when the game resumes."
    else:
        phase.deadline = max(phase.deadline, now) + timedelta(minutes=minutes)
        text = f"The {say.long_name(phase.name)} deadline is extended by {say.duration(minutes)}."
    log = await log_action(
        session, game, actor, now, "extend", phase=phase.name, minutes=minutes, before=before
    )
    _announce(session, game, phase, "extend", text, [], now, log)
    await session.commit()
    return _result(game, "extend", text, phase, schedule=phase.deadline is not None)


async def pause_game(
    session: AsyncSession, game_id: int, actor: Actor, *, now: datetime | None = None
) -> ModerationResult:
    """Stop the clock: the phase keeps taking orders but has no deadline; the time left is kept."""
    now = require_aware(now or utcnow())
    game, phase = await _running(session, game_id, actor)
    if game.status == GameStatus.PAUSED:
        raise WrongGameState(f"{game.name} is already paused.", "Use /mod resume to start the clock again.")
    left = max(0, int((phase.deadline - now).total_seconds())) if phase.deadline else _remaining(game, phase)
    phase.remaining_seconds = left
    phase.deadline = None
    game.status = GameStatus.PAUSED
    text = f"{game.name} is paused with {say.duration(left // 60)} left in {say.long_name(phase.name)}."
    lines = ["Orders can still be sent and changed; the phase will not close until a moderator resumes."]
    log = await log_action(session, game, actor, now, "pause", phase=phase.name, remaining_seconds=left)
    _announce(session, game, phase, "pause", text, lines, now, log)
    await session.commit()
    return _result(game, "pause", text, phase, unschedule=True)


async def resume_game(
    session: AsyncSession, game_id: int, actor: Actor, *, now: datetime | None = None
) -> ModerationResult:
    """Start the clock again: the deadline is now plus the time that was left."""
    now = require_aware(now or utcnow())
    game, phase = await _running(session, game_id, actor)
    if game.status != GameStatus.PAUSED:
        raise WrongGameState(f"{game.name} is not paused.", "Use /mod pause to stop the clock.")
    left = _remaining(game, phase)
    phase.deadline = now + timedelta(seconds=left)
    phase.remaining_seconds = None
    game.status = GameStatus.ACTIVE
    text = f"{game.name} is running again: {say.long_name(phase.name)} closes in {say.duration(left // 60)}."
    log = await log_action(session, game, actor, now, "resume", phase=phase.name, remaining_seconds=left)
    _announce(session, game, phase, "resume", text, [], now, log)
    await session.commit()
    result = _result(game, "resume", text, phase, schedule=True)
    return _with(result, check_early_close=phase.id)


async def close_now(
    session: AsyncSession, game_id: int, actor: Actor, *, now: datetime | None = None
) -> ModerationResult:
    """Close the current phase at once (the Gamemaster does it when given the effects)."""
    now = require_aware(now or utcnow())
    game, phase = await _running(session, game_id, actor)
    text = f"{say.long_name(phase.name)} is being closed now by a moderator."
    log = await log_action(session, game, actor, now, "close", phase=phase.name)
    _announce(session, game, phase, "close", text, [], now, log)
    await session.commit()
    return _with(_result(game, "close", text, phase), close_phase=phase.id)


async def set_civil_disorder(
    session: AsyncSession, game_id: int, actor: Actor, *, power: str, on: bool, now: datetime | None = None
) -> ModerationResult:
    """Put the player of ``power`` (with every power they hold) in civil disorder, or take them out."""
    now = require_aware(now or utcnow())
    game, phase = await _running(session, game_id, actor)
    wanted, player, powers = await _seat(session, game, power)
    if on and player.status != PlayerStatus.ACTIVE:
        raise WrongGameState(
            f"{say.power_name(wanted)} is already {_state_words(player.status)}.",
            "Use /mod disorder with state off to bring its player back.",
        )
    if not on and player.status != PlayerStatus.CIVIL_DISORDER:
        raise WrongGameState(
            f"{say.power_name(wanted)} is not in civil disorder (it is {_state_words(player.status)}).",
            "Nothing to undo.",
        )
    player.status = PlayerStatus.CIVIL_DISORDER if on else PlayerStatus.ACTIVE
    if not on:
        player.missed_in_a_row = 0
    log = await log_action(
        session, game, actor, now, "civil_disorder", powers=powers, on=on, user_id=player.user_id
    )
    await session.flush()
    if on:
        text = f"{say.powers_text(powers)} put in civil disorder by a moderator."
        disorder.announce_civil_disorder(
            session,
            game,
            [
                disorder.Fallen(
                    user_id=player.user_id,
                    powers=powers,
                    why=f"A moderator put <@{player.user_id}>'s powers in civil disorder.",
                    why_you=f"A moderator of {game.name} put {say.powers_text(powers)} in civil disorder.",
                )
            ],
            key=f"civil_disorder:mod:{log.id}",
            now=now,
            phase_id=phase.id,
            actor_id=actor.user_id,
            alert_moderators=False,
        )
    else:
        text = f"{say.powers_text(powers)} back under the control of <@{player.user_id}>."
        _announce(session, game, phase, "civil_disorder", text, [], now, log)
    await session.commit()
    result = _result(
        game, "civil_disorder", text, phase, details={"powers": powers, "user_id": player.user_id}
    )
    return _with(result, check_early_close=phase.id)


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
    game, phase = await _running(session, game_id, actor)
    _, old, powers = await _seat(session, game, power, include_gone=True)
    if new_user_id == old.user_id:
        raise AlreadyJoined(
            f"<@{new_user_id}> already plays {say.powers_text(powers)}.", "Pick someone else."
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
                f"<@{new_user_id}> already {what} in {game.name}; a player cannot take a second seat.",
                "Pick someone who is not playing in this game.",
            )
        existing.status = PlayerStatus.ACTIVE
        existing.joined_at, existing.left_at = now, None
        existing.missed_phases = existing.missed_in_a_row = 0
        newcomer = existing
    else:
        newcomer = Player(game_id=game.id, user_id=new_user_id, joined_at=now)  # type: ignore[arg-type]
        session.add(newcomer)
    await session.flush()
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
        session, game, actor, now, "replace", powers=powers, old_user_id=old.user_id, new_user_id=new_user_id
    )
    await session.flush()
    names = say.powers_text(powers)
    text = f"<@{new_user_id}> now plays {names}, replacing <@{old.user_id}>."
    _announce(
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
        game_id=game.id,
        phase_id=phase.id,
        kind="welcome",
        target=Target.user(new_user_id),
        payload=say.base(
            game.id,  # type: ignore[arg-type]
            game.name,
            title=f"You play {names} in {game.name}",
            lines=[
                f"A moderator gave you {names}, replacing the previous player.",
                "The orders already given for this phase are kept; see them with /orders show.",
            ],
            phase=phase.name,
            deadline=phase.deadline,
            powers=powers,
            units={p: list(board.get("units", {}).get(p, [])) for p in powers},
            orders={p: [o.text for o in given if o.power == p] for p in powers},  # now theirs to see
            replacement=True,
        ),
        key=f"welcome:{game.id}:{new_user_id}:mod{log.id}",
        now=now,
    )
    enqueue(
        session,
        game_id=game.id,
        phase_id=phase.id,
        kind="replaced_you",
        target=Target.user(old.user_id),
        payload=say.base(
            game.id,  # type: ignore[arg-type]
            game.name,
            title=f"You no longer play {names} in {game.name}",
            lines=["A moderator gave your powers to another player. Thank you for playing."],
            powers=powers,
        ),
        key=f"replaced_you:{game.id}:{old.user_id}:mod{log.id}",
        now=now,
    )
    await session.commit()
    return _result(game, "replace", text, phase, details={"replacement": replacement})


async def end_game(
    session: AsyncSession,
    game_id: int,
    actor: Actor,
    *,
    reason: str | None = None,
    now: datetime | None = None,
) -> ModerationResult:
    """End the game now, without a winner (status ``cancelled``, result kind ``moderator``)."""
    now = require_aware(now or utcnow())
    game = await load_game(session, game_id, for_update=True)
    require_moderator(game, actor)
    if game.status in ENDED_STATES:
        raise GameOver(f"{game.name} is already over.", "Nothing to end.")
    note = (reason or "").strip()[:300] or None
    if game.status == GameStatus.FORMING:
        game.status = GameStatus.CANCELLED
        game.finished_at = now
        game.result = ending.make_result(
            "moderator", {}, (), phase_name="", ended_by=actor.user_id, note=note
        )
        await log_action(session, game, actor, now, "end", reason=note)
        await session.commit()
        return _result(game, "end", f"{game.name} was cancelled before it started.", None)
    phase = await latest_phase(session, game.id, for_update=True)  # type: ignore[arg-type]
    assert phase is not None
    if phase.status == PhaseStatus.ADJUDICATING:
        raise _busy(game)
    result = ending.make_result(
        "moderator",
        phase.board,
        game_map(game.variant).powers,
        phase_name=phase.name,
        ended_by=actor.user_id,
        note=note,
    )
    await log_action(session, game, actor, now, "end", phase=phase.name, reason=note)
    await ending.finish_game(
        session, game, phase, result, now=now, final_map=ending.final_map_of(phase, at_close=False)
    )
    await session.commit()
    text = f"{game.name} was ended by a moderator."
    return _with(_result(game, "end", text, phase, unschedule=True), game_ended=True)


# --- helpers ------------------------------------------------------------------------------------


async def _running(session: AsyncSession, game_id: int, actor: Actor) -> tuple[Game, PhaseRecord]:
    """The game (locked), checked for the actor's rights, and its open phase."""
    game = await load_game(session, game_id, for_update=True)
    require_moderator(game, actor)
    if game.status == GameStatus.FORMING:
        raise GameNotStarted(f"{game.name} has not started yet.", "Moderation applies to running games.")
    if game.status in ENDED_STATES:
        raise GameOver(f"{game.name} is over.", "Nothing can be changed in a finished game.")
    phase = await latest_phase(session, game.id, for_update=True)  # type: ignore[arg-type]
    if phase is None or phase.status != PhaseStatus.OPEN:
        raise _busy(game)
    return game, phase


def _busy(game: Game) -> PhaseBusy:
    return PhaseBusy(
        f"{game.name}'s phase is being adjudicated right now; nothing was changed.",
        "Try again in a moment, on the new phase.",
    )


async def _seat(
    session: AsyncSession, game: Game, power: str, *, include_gone: bool = False
) -> tuple[str, Player, list[str]]:
    """The power asked for, its player, and every power that player holds."""
    wanted = power.strip().upper()
    powers = game_map(game.variant).powers
    if wanted not in powers:
        raise WrongGameState(
            f"There is no power called {power!r} in {game.name}.",
            f"The powers are {say.powers_text(powers)}.",
        )
    assignment = (
        await session.exec(
            select(PowerAssignment).where(PowerAssignment.game_id == game.id, PowerAssignment.power == wanted)
        )
    ).first()
    player = await session.get(Player, assignment.player_id) if assignment and assignment.player_id else None
    if player is None:
        raise WrongGameState(
            f"{say.power_name(wanted)} is held by nobody in {game.name}: "
            "it is neutral and its units always hold.",
            "Choose a power that has a player.",
        )
    gone = (PlayerStatus.LEFT, PlayerStatus.REPLACED)
    if player.status == PlayerStatus.ELIMINATED or (player.status in gone and not include_gone):
        raise WrongGameState(
            f"{say.power_name(wanted)}'s player is {_state_words(player.status)}.", "Nothing to change there."
        )
    held = (
        await session.exec(
            select(PowerAssignment.power)
            .where(PowerAssignment.game_id == game.id, PowerAssignment.player_id == player.id)
            .order_by(col(PowerAssignment.power))
        )
    ).all()
    return wanted, player, list(held)


def _state_words(status: str) -> str:
    return {
        PlayerStatus.ACTIVE: "playing",
        PlayerStatus.CIVIL_DISORDER: "in civil disorder",
        PlayerStatus.LEFT: "gone (left the game)",
        PlayerStatus.REPLACED: "replaced",
        PlayerStatus.ELIMINATED: "eliminated",
    }.get(status, str(status))


def _remaining(game: Game, phase: PhaseRecord) -> int:
    """Seconds left in a paused phase (a full phase when it opened while paused)."""
    if phase.remaining_seconds is not None:
        return phase.remaining_seconds
    return GameSettings.from_json(game.settings).phase_minutes(Phase.parse(phase.name).kind) * 60


async def log_action(
    session: AsyncSession, game: Game, actor: Actor, now: datetime, action: str, **detail: Any
) -> GameLogEntry:
    """Write a moderator action (``mod_<action>``) with who did it and in which capacity."""
    clean = {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in detail.items()}
    entry = GameLogEntry(
        game_id=game.id,  # type: ignore[arg-type]
        at=now,
        actor_id=actor.user_id,
        action=MOD_PREFIX + action,
        detail={**clean, "as": "server moderator" if actor.is_server_moderator else "creator"},
    )
    session.add(entry)
    await session.flush()  # its id names the announcement
    return entry


def _announce(
    session: AsyncSession,
    game: Game,
    phase: PhaseRecord,
    action: str,
    text: str,
    lines: list[str],
    now: datetime,
    log: GameLogEntry,
    *,
    kind: str = "moderation",
    **data: Any,
) -> None:
    enqueue(
        session,
        game_id=game.id,
        phase_id=phase.id,
        kind=kind,
        target=Target.game_channel(),
        payload=say.base(
            game.id,  # type: ignore[arg-type]
            game.name,
            title=text,
            lines=lines,
            phase=phase.name,
            deadline=phase.deadline,
            action=action,
            **data,
        ),
        key=f"{kind}:{game.id}:{action}:{log.id}",
        now=now,
    )


def _result(
    game: Game,
    action: str,
    message: str,
    phase: PhaseRecord | None,
    *,
    schedule: bool = False,
    unschedule: bool = False,
    details: dict[str, Any] | None = None,
) -> ModerationResult:
    info = PhaseInfo.of(phase) if phase is not None else None
    effects = Effects(
        game.id,  # type: ignore[arg-type]
        schedule=(info,) if schedule and info is not None else (),
        unschedule=(info.name,) if unschedule and info is not None else (),
    )
    return ModerationResult(game.id, action, message, info, effects, details or {})  # type: ignore[arg-type]


def _with(result: ModerationResult, **changes: Any) -> ModerationResult:
    return replace(result, effects=replace(result.effects, **changes))
