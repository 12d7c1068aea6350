"""A closed phase's announcements: its results in the game channel (or, under the fog of war, each
player's own, gm.phases.fogged), then the next phase's call to order for every power that must act."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from db.models import Game, PhaseRecord
from engine import Board
from engine.variants import game_map
from gm.delivery.outbox import Target, enqueue
from gm.ordering.progress import PhaseState
from gm.phases import fogged as fog
from gm.phases import results as outcome
from gm.phases.results import ClosedPhase
from gm.settings import NOTIFY_CHANNEL, NOTIFY_DM, NOTIFY_NONE, GameSettings, deadline_zone, notify_choice


def announce(session: Any, closed: ClosedPhase) -> None:
    """Queue the results for the game channel, then the call to order for every power that must act
    in the next phase (in its private channel), or the end of the game."""
    if closed.settings.fogged:  # each player's own results (gm.phases.fogged)
        fog.announce(session, closed)
    else:
        _public_results(session, closed)
    if closed.next_phase is not None:  # else the final post comes from gm.endings.ending
        queue_calls_to_order(session, closed.game, closed.next_phase, closed.state, closed.now)


def _public_results(session: Any, closed: ClosedPhase) -> None:
    game, phase, next_phase = closed.game, closed.phase, closed.next_phase
    phase_id = phase.row_id
    next_ref = (next_phase.row_id, next_phase.name, next_phase.deadline) if next_phase else None
    results = outcome.results_payload(
        game_id=game.row_id,
        game_name=game.name,
        phase_id=phase_id,
        phase_name=phase.name,
        result=closed.result,
        change=closed.change,
        counts=closed.counts,
        missed=closed.missed,
        next_phase=next_ref,
        maps=list(closed.answer.maps),
        game_over=closed.game_over,
    )
    enqueue(
        session,
        replace(results, deadline_zone=deadline_zone(game), built_in=list(closed.answer.built_in.played)),
        phase_id=phase_id,
        target=Target.game_channel(),
        key=f"phase_results:{phase_id}",
        now=closed.now,
    )


def queue_calls_to_order(
    session: Any,
    game: Game,
    phase: PhaseRecord,
    state: PhaseState,
    now: datetime,
    *,
    reopened: bool = False,
    key_suffix: str = "",
) -> None:
    """Queue the phase's call to order in the private channel of every power that must act in it and
    whose player is active in ``state``; ``reopened`` marks the calls of a phase a rollback reopened."""
    board = Board.from_json(phase.board, game_map(game.variant))
    calls = outcome.opened_payloads(
        game_id=game.row_id,
        game_name=game.name,
        board=board,
        adjustments=phase.adjustments,
        deadline=phase.deadline,
        before=None if reopened else state.board,
    )
    notified: set[int] = set()  # a player of several powers is mentioned once, on the first call
    anonymous = GameSettings.from_json(game.settings).anonymous
    for power, call in calls.items():
        if state.active(power):
            player = state.player_of.get(power)
            choice = notify_choice(player.notify if player is not None else None)
            if choice == NOTIFY_CHANNEL and anonymous:  # a mention in the channel would stay there for
                choice = NOTIFY_DM  # whoever takes the seat later to read (gm.anonymity): by DM instead
            user_id = player.user_id if player is not None else None
            target = Target.power_channel(power)
            if choice == NOTIFY_DM and user_id is not None:
                target = Target.user(user_id)
            ping = user_id if choice != NOTIFY_NONE and user_id not in notified else None
            if ping is not None:
                notified.add(ping)
            enqueue(
                session,
                replace(call, reopened=reopened, ping_user_id=ping, deadline_zone=deadline_zone(game)),
                phase_id=phase.id,
                target=target,
                key=f"phase_opened:{phase.id}:{power}{key_suffix}",
                now=now,
            )
