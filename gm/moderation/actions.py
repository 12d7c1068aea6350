"""What moderators do to a running game (/mod): extend the deadline, pause and resume, close now,
replace a player, put a power in or out of civil disorder, end the game. Rolling back the last phase is
in gm.moderation.rollback.

Who may: the game's creator, and whoever the adapter says is a server moderator (the configured
moderator role, or Manage Server): :class:`Actor` carries that fact. Anyone else is refused with
NotAllowed before anything is read for writing.

Every action is written to the game log (``mod_*`` actions, with who and when; gm.reports.status shows them)
and announced in the game channel. Each use case writes in the session it is given, and the facade's
unit of work commits it; a refusal (a GameError) rolls it back, so it changes nothing. The result's
``effects`` go to :meth:`gm.facade.runtime.Runtime.apply` (deadline jobs, the close itself, the final
post).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game, GameLogEntry, GameStatus, PhaseRecord, PhaseStatus, Player, PlayerStatus
from engine import Phase
from engine.variants import game_map
from gm.actor import Actor, may_moderate
from gm.builtin.seats import built_in_powers
from gm.builtin.talks import played_by_it_while_absent, taken_back, taken_by_it, tell_seat_talks
from gm.clock import require_aware, utcnow
from gm.endings import ending
from gm.errors import GameOver, PhaseBusy, WrongGameState
from gm.meant_for import ANY_PHASE, MeantFor
from gm.messages import payloads as say
from gm.moderation.replacement import Replacement, replace_player
from gm.moderation.shared import (
    MOD_PREFIX,
    ModerationResult,
    action_result,
    announce_action,
    log_action,
    phase_busy,
    require_judge,
    require_moderator,
    require_sent_since,
    running_game,
    seat_of,
    state_words,
    with_follow_ups,
)
from gm.ordering.submission import early_close_due
from gm.phases import absent, disorder
from gm.reading.lookup import ENDED_STATES, latest_phase, load_game
from gm.settings import MOVEMENT_MINUTES, GameSettings

__all__ = [  # the moderators' use cases, and what they take and return (some defined in gm.moderation.shared)
    "MOD_PREFIX",
    "Actor",
    "ModerationResult",
    "Replacement",
    "close_now",
    "end_game",
    "extend_deadline",
    "log_action",
    "may_moderate",
    "pause_game",
    "replace_player",
    "require_moderator",
    "resume_game",
    "set_civil_disorder",
]

MODERATOR_CLOSE = "moderator"  # PhaseRecord.close_reason of an open phase a moderator asked to close
MAX_EXTENSION_MINUTES = MOVEMENT_MINUTES[1]  # two weeks at a time


async def extend_deadline(
    session: AsyncSession,
    game_id: int,
    actor: Actor,
    *,
    minutes: int,
    sent_at: datetime | None = None,
    now: datetime | None = None,
) -> ModerationResult:
    """Push the current phase's deadline back by ``minutes`` (added to the time left if paused).
    ``sent_at``: when the moderator sent the request; refused if the phase opened after it (the
    phase they meant has closed since)."""
    now = require_aware(now or utcnow())
    game, phase = await running_game(session, game_id, actor)
    require_sent_since(
        game,
        phase,
        sent_at,
        f"Run [[cmd:mod extend]] again if {say.long_name(phase.name)} needs more time.",
    )
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
    announce_action(session, game, phase, "extend", text, [], now, log)
    return action_result(game, "extend", text, phase, schedule=phase.deadline is not None)


async def pause_game(
    session: AsyncSession, game_id: int, actor: Actor, *, now: datetime | None = None
) -> ModerationResult:
    """Stop the clock: the phase keeps taking orders but has no deadline; the time left is kept."""
    now = require_aware(now or utcnow())
    game, phase = await running_game(session, game_id, actor)
    if game.status == GameStatus.PAUSED:
        raise WrongGameState(
            f"{game.name} is already paused.", "Use [[cmd:mod resume]] to start the clock again."
        )
    left = max(0, int((phase.deadline - now).total_seconds())) if phase.deadline else _remaining(game, phase)
    phase.remaining_seconds = left
    phase.deadline = None
    game.status = GameStatus.PAUSED
    text = f"{game.name} is paused with {say.duration(left // 60)} left in {say.long_name(phase.name)}."
    lines = ["Orders can still be sent and changed; the phase will not close until a moderator resumes."]
    log = await log_action(session, game, actor, now, "pause", phase=phase.name, remaining_seconds=left)
    announce_action(session, game, phase, "pause", text, lines, now, log)
    return action_result(game, "pause", text, phase, unschedule=True)


async def resume_game(
    session: AsyncSession, game_id: int, actor: Actor, *, now: datetime | None = None
) -> ModerationResult:
    """Start the clock again: the deadline is now plus the time that was left (with a deadline
    schedule: the first fixed time after that, or, for a phase that opened while paused, the
    deadline it would have had opening now)."""
    now = require_aware(now or utcnow())
    game, phase = await running_game(session, game_id, actor)
    if game.status != GameStatus.PAUSED:
        raise WrongGameState(f"{game.name} is not paused.", "Use [[cmd:mod pause]] to stop the clock.")
    settings = GameSettings.from_json(game.settings)
    kind = Phase.parse(phase.name).kind
    if phase.remaining_seconds is None:  # opened while paused: a whole phase from now
        phase.deadline = settings.deadline_for(kind, now)
    else:
        phase.deadline = settings.deadline_after(kind, now + timedelta(seconds=phase.remaining_seconds))
    phase.remaining_seconds = None
    game.status = GameStatus.ACTIVE
    moved = await absent.absence_move(session, game, phase, now=now)
    left = int((phase.deadline - now).total_seconds())
    text = f"{game.name} is running again: {say.long_name(phase.name)} closes in {say.duration(left // 60)}."
    log = await log_action(session, game, actor, now, "resume", phase=phase.name, remaining_seconds=left)
    announce_action(session, game, phase, "resume", text, [], now, log)
    if moved is not None:
        absent.announce_move(session, game, phase, moved, now=now)
    await session.flush()
    if await early_close_due(session, phase.row_id):
        phase.deadline = now  # durable: a bot stopped before the early close still closes it at start
    result = action_result(game, "resume", text, phase, schedule=True)
    return with_follow_ups(result, check_early_close=phase.id)


YOUNG_PHASE = timedelta(minutes=1)
"""A phase that opened this shortly before a moderator's /mod close is closed only once they confirm
it by name: they may have meant the phase before it. (It also covers a difference of up to a minute
between the chat server's clock, which dates the request, and ours, which dates the phase.)"""


async def close_now(
    session: AsyncSession,
    game_id: int,
    actor: Actor,
    *,
    meant_for: MeantFor[str] = ANY_PHASE,
    sent_at: datetime | None = None,
    confirmed: bool = False,
    now: datetime | None = None,
) -> ModerationResult:
    """Close the current phase at once (the Gamemaster does it when given the effects).

    ``sent_at``: when the moderator sent the request (the chat server's time of it). It closes the
    phase that was open then, never a phase that opened after (a second /mod close of one phase that
    arrives once the next has opened): that is refused, naming both. A phase that opened less than
    :data:`YOUNG_PHASE` before ``sent_at`` is not closed unless ``confirmed``: the result is then a
    question (action ``close_confirm``, ``details``: the phase's name and id), and nothing changes.
    ``meant_for``: the phase the moderator confirmed (by name); when the game has moved on,
    nothing is done either.
    The request is durable: the phase's deadline becomes now, in this transaction, so a bot that
    stops before the close runs closes the phase at its next start (gm.delivery.scheduler). A second
    request for a phase already being closed is answered without a second announcement."""
    now = require_aware(now or utcnow())
    try:
        game, phase = await running_game(session, game_id, actor, "close")
    except PhaseBusy:
        closing = await latest_phase(session, game_id)
        if closing is None or closing.status != PhaseStatus.ADJUDICATING:
            raise
        raise WrongGameState(
            f"{say.long_name(closing.name)} is already being closed; nothing else was changed.",
            "Its results follow in the game channel in a moment.",
        ) from None
    await _refuse_moved_on(session, game, phase, sent_at=sent_at, meant_for=meant_for)
    if sent_at is not None and not confirmed and phase.opened_at > sent_at - YOUNG_PHASE:
        age = max(0, int((sent_at - phase.opened_at).total_seconds()))
        return action_result(
            game,
            "close_confirm",
            f"{say.long_name(phase.name)} opened {say.seconds_text(age)} before you asked.",
            phase,
            details={
                "phase": phase.name,
                "phase_id": phase.row_id,
                "seconds": age,
                "first": phase.ordinal == 0,
            },
        )
    phase.close_reason = MODERATOR_CLOSE  # requested: kept by the claim (gm.phases.closer)
    if phase.deadline is None or phase.deadline > now:
        phase.deadline = now
    text = f"{say.long_name(phase.name)} is being closed now by a moderator."
    log = await log_action(session, game, actor, now, "close", phase=phase.name)
    announce_action(session, game, phase, "close", text, [], now, log)
    return with_follow_ups(action_result(game, "close", text, phase), close_phase=phase.id)


async def _refuse_moved_on(
    session: AsyncSession,
    game: Game,
    phase: PhaseRecord,
    *,
    sent_at: datetime | None,
    meant_for: MeantFor[str],
) -> None:
    """Refuse a close meant for a phase that is no longer the open one, or already being closed."""
    if sent_at is not None and phase.opened_at > sent_at:
        seen = await _open_at(session, game, sent_at)
        raise _moved_on(game, seen, phase)
    if meant_for.phase is not None and phase.name != meant_for.phase:
        raise _moved_on(game, meant_for.phase, phase)
    if phase.close_reason == MODERATOR_CLOSE:
        raise WrongGameState(
            f"{say.long_name(phase.name)} is already being closed by a moderator.",
            "The results follow in the game channel in a moment.",
        )


async def _open_at(session: AsyncSession, game: Game, moment: datetime) -> str | None:
    """The name of the game's phase that was open at ``moment`` (the latest opened by then)."""
    return (
        await session.exec(
            select(PhaseRecord.name)
            .where(PhaseRecord.game_id == game.row_id, col(PhaseRecord.opened_at) <= moment)
            .order_by(col(PhaseRecord.ordinal).desc())
            .limit(1)
        )
    ).first()


def _moved_on(game: Game, seen: str | None, current: PhaseRecord) -> WrongGameState:
    """The refusal of a close that came after the phase the moderator meant had closed."""
    now_open = say.long_name(current.name)
    closed = f"{say.long_name(seen)} was already closed; " if seen else ""
    return WrongGameState(
        f"{closed}{now_open} has just opened in {game.name} and was not touched.",
        f"Run [[cmd:mod close]] again if you mean to close {now_open} too.",
    )


async def set_civil_disorder(
    session: AsyncSession, game_id: int, actor: Actor, *, power: str, on: bool, now: datetime | None = None
) -> ModerationResult:
    """Put the player of ``power`` (with every power they hold) in civil disorder, or take them out."""
    now = require_aware(now or utcnow())
    game, phase = await running_game(session, game_id, actor, "civil_disorder")
    wanted, player, powers = await seat_of(session, game, power)
    if on and player.status != PlayerStatus.ACTIVE:
        raise WrongGameState(
            f"{say.power_name(wanted)} is already {state_words(player.status)}.",
            "Use [[cmd:mod disorder]] with state off to bring its player back.",
        )
    if not on and player.status != PlayerStatus.CIVIL_DISORDER:
        raise WrongGameState(
            f"{say.power_name(wanted)} is not in civil disorder (it is {state_words(player.status)}).",
            "Nothing to undo.",
        )
    it_played = not on and await played_by_it_while_absent(session, game, powers)
    player.status = PlayerStatus.CIVIL_DISORDER if on else PlayerStatus.ACTIVE
    if on:
        player.civil_disorders += 1
    else:
        player.missed_in_a_row = 0
    log = await log_action(
        session, game, actor, now, "civil_disorder", powers=powers, on=on, user_id=player.user_id
    )
    await session.flush()
    it_plays = on and set(powers) <= await built_in_powers(session, game)
    if it_plays or it_played:  # the seat's private talks learn who plays it now
        await tell_seat_talks(
            session,
            game,
            powers,
            taken_by_it(powers, absent=player.user_id)
            if on
            else taken_back(powers, player.user_id, returning=True),
            user_id=None if on else player.user_id,
            key=f"civil_disorder:mod:{log.id}:talks",
            now=now,
            phase_id=phase.id,
        )
    text = _announce_disorder_change(session, game, phase, actor, player, powers, on, it_plays, log, now)
    result = action_result(
        game, "civil_disorder", text, phase, details={"powers": powers, "user_id": player.user_id}
    )
    return with_follow_ups(result, check_early_close=phase.id)


def _announce_disorder_change(
    session: AsyncSession,
    game: Game,
    phase: PhaseRecord,
    actor: Actor,
    player: Player,
    powers: list[str],
    on: bool,
    it_plays: bool,
    log: GameLogEntry,
    now: datetime,
) -> str:
    """A moderator's civil disorder (``on``) or its end, announced; returns the moderator's answer."""
    if on:
        text = f"{say.powers_text(powers)} put in civil disorder by a moderator."
        disorder.announce_civil_disorder(
            session,
            game,
            [
                disorder.Fallen(
                    user_id=player.user_id,
                    powers=powers,
                    why=f"A moderator put [[user:{player.user_id}]]'s powers in civil disorder.",
                    why_you=f"A moderator of {game.name} put {say.powers_text(powers)} in civil disorder.",
                )
            ],
            key=f"civil_disorder:mod:{log.id}",
            now=now,
            phase_id=phase.id,
            actor_id=actor.user_id,
            alert_moderators=False,
            built_in=it_plays,
        )
    else:
        text = f"{say.powers_text(powers)} back under the control of [[user:{player.user_id}]]."
        announce_action(  # the posts offering the seat close (PlayerReturned's effect)
            session,
            game,
            phase,
            "civil_disorder",
            f"{say.powers_text(powers)} {'is' if len(powers) == 1 else 'are'} back in play",
            [
                f"A moderator took {say.powers_text(powers)} out of civil disorder: "
                f"[[user:{player.user_id}]] plays again, and the seat is no longer open."
            ],
            now,
            log,
            kind="player_returned",
            powers=powers,
            user_id=player.user_id,
        )
    return text


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
    await require_judge(session, game, actor, "end")
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
        return action_result(game, "end", f"{game.name} was cancelled before it started.", None)
    phase = await latest_phase(session, game.row_id, for_update=True)
    assert phase is not None
    if phase.status == PhaseStatus.ADJUDICATING:
        raise phase_busy(game)
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
    text = f"{game.name} was ended by a moderator."
    return with_follow_ups(action_result(game, "end", text, phase, unschedule=True), game_ended=True)


# --- helpers ------------------------------------------------------------------------------------


def _remaining(game: Game, phase: PhaseRecord) -> int:
    """Seconds left in a paused phase (a full phase when it opened while paused)."""
    if phase.remaining_seconds is not None:
        return phase.remaining_seconds
    return GameSettings.from_json(game.settings).typical_minutes(Phase.parse(phase.name).kind) * 60
