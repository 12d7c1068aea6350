"""Deadline reminders: a direct message to each player who still owes orders, and to nobody else.

A reminder is an outbox message with the key ``reminder:{phase}:{hours}:{user}``, so a reminder job
that fires twice (a restart, a double schedule) queues it once.
"""

from __future__ import annotations

import logging
from datetime import datetime

from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game, GameStatus, PhaseRecord, PhaseStatus
from gm.clock import require_aware, utcnow
from gm.delivery.outbox import Target, enqueue, existing_keys
from gm.messages import payloads as say
from gm.messages.kinds import Reminder
from gm.ordering.progress import phase_state
from gm.settings import deadline_zone

log = logging.getLogger(__name__)


async def queue_reminders(
    session: AsyncSession, phase_id: int, hours: float, *, now: datetime | None = None
) -> list[int]:
    """Queue the ``hours``-before-deadline reminder of an open phase; returns the users reminded."""
    now = require_aware(now or utcnow())
    phase = await session.get(PhaseRecord, phase_id)
    if phase is None or phase.status != PhaseStatus.OPEN or phase.deadline is None:
        return []
    game = await session.get(Game, phase.game_id)
    if game is None or game.status != GameStatus.ACTIVE:
        return []
    state = await phase_state(session, phase, game.variant)
    owing: dict[int, dict[str, tuple[str, ...]]] = {}
    for power, duty in state.duties.items():
        player = state.player_of.get(power)
        if not duty.has_work or player is None or not state.active(power) or power in state.ready:
            continue
        gaps = state.missing(power)
        if gaps:
            owing.setdefault(player.user_id, {})[power] = gaps
    keys = {user: f"reminder:{phase_id}:{hours:g}:{user}" for user in owing}
    done = await existing_keys(session, list(keys.values()))
    reminded = []
    for user, gaps_by_power in owing.items():
        if keys[user] in done:
            continue
        enqueue(
            session,
            Reminder(
                game_id=game.row_id,
                game_name=game.name,
                title=f"{game.name}: {say.long_name(phase.name)} orders are due soon",
                lines=[
                    f"{say.power_name(p)} has no orders for {', '.join(g)}." for p, g in gaps_by_power.items()
                ],
                phase=phase.name,
                deadline=phase.deadline,
                deadline_zone=deadline_zone(game),
                missing={p: list(g) for p, g in gaps_by_power.items()},
                hours_before=hours,
            ),
            phase_id=phase_id,
            target=Target.user(user),
            key=keys[user],
            now=now,
        )
        reminded.append(user)
    await session.flush()  # a reminder another process queued first fails here, before it is logged
    if reminded:
        log.info(
            "reminders: game %s %s, %d players reminded %g h before the deadline",
            game.id,
            phase.name,
            len(reminded),
            hours,
            extra={"event": "reminders", "game": game.id, "phase": phase.name, "players": len(reminded)},
        )
    return reminded
