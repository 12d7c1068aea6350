"""What every moderator action shares (gm.moderation.actions, gm.moderation.replacement,
gm.moderation.rollback): who is asking
(:class:`Actor`) and whether they may, the running game and its open phase (locked), the seat a power
belongs to, the moderation log, the announcement in the game channel, and the result with its follow-ups.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import (
    Game,
    GameLogEntry,
    GameStatus,
    PhaseRecord,
    PhaseStatus,
    Player,
    PlayerStatus,
    PowerAssignment,
)
from engine.variants import game_map, read_power
from gm.actor import Actor, may_moderate
from gm.delivery.outbox import Target, enqueue
from gm.errors import GameNotStarted, GameOver, NotAllowed, PhaseBusy, WrongGameState
from gm.follow_ups import FollowUps
from gm.game_log import log_event
from gm.messages import payloads as say
from gm.messages.kinds import KINDS
from gm.reading.info import GameInfo, PhaseInfo
from gm.reading.lookup import ENDED_STATES, latest_phase, load_game, powers_of
from gm.settings import deadline_zone

MOD_PREFIX = "mod_"


@dataclass(frozen=True, slots=True)
class ModerationResult:
    game_id: int
    action: str  # extend, pause, resume, close, replace, civil_disorder, rollback, end
    message: str  # what was done, for the moderator's (ephemeral) answer
    phase: PhaseInfo | None
    follow_ups: FollowUps
    details: dict[str, Any] = field(default_factory=dict)


def check_moderator(game: GameInfo, actor: Actor, action: str | None = None) -> None:
    """The refusals of the use cases, said before anything is asked (a confirmation offered to
    someone who may not moderate, or may not take ``action`` because they play in the game)."""
    if not (actor.is_server_moderator or actor.user_id == game.creator_id):
        raise NotAllowed(
            f"Only the creator of {game.name} or a server moderator can use [[cmd:mod]].",
            "Ask one of them; nothing was changed.",
        )
    held = sorted(p for player in game.players if player.user_id == actor.user_id for p in player.powers)
    if action in JUDGE_ONLY and held:
        raise playing_moderator(game.name, held, action)


def require_moderator(game: Game, actor: Actor) -> None:
    if not may_moderate(game, actor):
        raise NotAllowed(
            f"Only the creator of {game.name} or a server moderator can use [[cmd:mod]].",
            "Ask one of them; nothing was changed.",
        )


JUDGE_ONLY = {
    "close": "close a phase",
    "replace": "replace a player",
    "civil_disorder": "put a player in civil disorder",
    "builtin": "give a seat to the built-in player or take it back",
    "rollback": "roll a phase back",
    "end": "end the game",
}
"""Actions a moderator who plays in the game may not take: each could show them a rival's secrets (a
replacement by an alt account opens the rival's channels and orders) or shape the game in their own
favour. They may extend, pause and resume; the rest needs a moderator who does not play in it, as at
Backstabbr and webDiplomacy where the judge never plays."""


async def require_judge(session: AsyncSession, game: Game, actor: Actor, action: str) -> None:
    """Refuse ``action`` (a key of :data:`JUDGE_ONLY`) to a moderator who holds a power in ``game``."""
    if action not in JUDGE_ONLY:
        return
    held = (
        await session.exec(
            select(PowerAssignment.power)
            .join(Player, col(Player.id) == col(PowerAssignment.player_id))
            .where(
                PowerAssignment.game_id == game.id,
                Player.user_id == actor.user_id,
                col(Player.status).not_in((PlayerStatus.LEFT, PlayerStatus.REPLACED)),
            )
            .order_by(PowerAssignment.power)
        )
    ).all()
    if held:
        raise playing_moderator(game.name, list(held), action)


def playing_moderator(game_name: str, powers: list[str], action: str) -> NotAllowed:
    """The refusal of :func:`require_judge` (also said by an adapter before it asks to confirm)."""
    return NotAllowed(
        f"You play {say.powers_text(powers)} in {game_name}, so you may extend, pause or resume it but "
        f"not {JUDGE_ONLY[action]}: a moderator who plays could see or shape a rival's game that way.",
        "Ask a moderator who does not play in this game (the server's moderator role, or Manage "
        "Server). Nothing was changed.",
    )


async def running_game(
    session: AsyncSession, game_id: int, actor: Actor, action: str | None = None
) -> tuple[Game, PhaseRecord]:
    """The game (locked), checked for the actor's rights (``action``: see :data:`JUDGE_ONLY`), and
    its open phase."""
    game = await load_game(session, game_id, for_update=True)
    require_moderator(game, actor)
    if action is not None:
        await require_judge(session, game, actor, action)
    if game.status == GameStatus.FORMING:
        raise GameNotStarted(f"{game.name} has not started yet.", "Moderation applies to running games.")
    if game.status in ENDED_STATES:
        raise GameOver(f"{game.name} is over.", "Nothing can be changed in a finished game.")
    phase = await latest_phase(session, game.row_id, for_update=True)
    if phase is None or phase.status != PhaseStatus.OPEN:
        raise phase_busy(game)
    return game, phase


def require_sent_since(game: Game, phase: PhaseRecord, sent_at: datetime | None, hint: str) -> None:
    """Refuse a moderator's request about the game's latest ``phase`` that was sent (``sent_at``:
    the chat server's time of it) before that phase opened, or, a game that ended at the phase's
    close, before it closed: the moderator meant the game as it was then (a second /mod extend or
    /mod rollback for a phase that closed meanwhile must not touch the next). ``hint`` says what to
    do if the moderator does mean the game as it is now."""
    if sent_at is None:
        return
    moved = phase.closed_at if phase.status == PhaseStatus.CLOSED and phase.closed_at else phase.opened_at
    if moved > sent_at:
        raise WrongGameState(
            f"{game.name} has moved on since you asked (it is now at {say.long_name(phase.name)}"
            f"{', over' if phase.status == PhaseStatus.CLOSED else ''}); nothing was changed.",
            hint,
        )


def phase_busy(game: Game) -> PhaseBusy:
    return PhaseBusy(
        f"{game.name}'s phase is being adjudicated right now; nothing was changed.",
        "Try again in a moment, on the new phase.",
    )


async def seat_of(
    session: AsyncSession, game: Game, power: str, *, include_gone: bool = False
) -> tuple[str, Player, list[str]]:
    """The power asked for, its player, and every power that player holds."""
    wanted = read_power(game.variant, power)
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
            f"{say.power_name(wanted)}'s player is {state_words(player.status)}.", "Nothing to change there."
        )
    return wanted, player, await powers_of(session, game.row_id, player.row_id)


def state_words(status: str) -> str:
    words: dict[str, str] = {
        PlayerStatus.ACTIVE: "playing",
        PlayerStatus.CIVIL_DISORDER: "in civil disorder",
        PlayerStatus.LEFT: "gone (left the game)",
        PlayerStatus.REPLACED: "replaced",
        PlayerStatus.ELIMINATED: "eliminated",
    }
    return words.get(status, str(status))


async def log_action(
    session: AsyncSession,
    game: Game,
    actor: Actor,
    now: datetime,
    action: str,
    *,
    capacity: str | None = None,
    **detail: Any,
) -> GameLogEntry:
    """Write a moderator action (``mod_<action>``) with who did it and in which capacity (by default
    the one that let them moderate; a player taking over an open seat says so)."""
    clean = {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in detail.items()}
    entry = log_event(
        session,
        game.row_id,
        MOD_PREFIX + action,
        at=now,
        actor_id=actor.user_id,
        detail={
            **clean,
            "as": capacity or ("server moderator" if actor.is_server_moderator else "creator"),
        },
    )
    await session.flush()  # its id names the announcement
    return entry


def announce_action(
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
    message_kind = KINDS[kind]  # Moderation, or Replaced for a seat that changed hands
    enqueue(
        session,
        message_kind(
            game_id=game.row_id,
            game_name=game.name,
            title=text,
            lines=lines,
            phase=phase.name,
            deadline=phase.deadline,
            deadline_zone=deadline_zone(game),
            # why the ignore below: KINDS[kind] is typed as Message; both kinds it names take `action`
            action=action,  # type: ignore[call-arg]
            **data,
        ),
        phase_id=phase.id,
        target=Target.game_channel(),
        key=f"{kind}:{game.id}:{action}:{log.id}",
        now=now,
    )


def action_result(
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
    follow_ups = FollowUps(
        game.row_id,
        schedule=(info,) if schedule and info is not None else (),
        unschedule=(info.name,) if unschedule and info is not None else (),
    )
    return ModerationResult(game.row_id, action, message, info, follow_ups, details or {})


def with_follow_ups(result: ModerationResult, **changes: Any) -> ModerationResult:
    return replace(result, follow_ups=replace(result.follow_ups, **changes))
