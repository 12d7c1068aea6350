"""The players' shields on games that were running before they existed (issue 27), put on once.

Since issue 27 every player of a game holds a member overwrite on each rival's private place (the
adapter's "shields", cogs.places.spaces), so that a moderator's role shows a moderator who plays none
of a rival's places. A game set up since has them from its start; a game that was already running
when that version came in was set up without them, and migration 0014 marked it
(``game.places_shielded`` False). At start-up, once connected to the chat server, the bot puts them on
(:func:`shield_running_games`): for each such game of this process's shards, the adapter's
:class:`Shielder` adds what a start would have set, then the game is marked so that the next start
does nothing. A game the adapter could not finish (the server is not available, the bot lacks a
permission, the bot stopped half-way) stays marked False and is done again at the next start: the
adapter only adds what is missing, so doing it twice costs a look and changes nothing.

The work is paced (:data:`PER_SECOND` requests a second for every game together, on top of the
process's shared pace, gm.delivery.outbox.PACE) and spread over at most :data:`AT_ONCE` games at a
time, so that a bot with many such games neither meets the chat server's rate limits nor keeps its
messages and its users' interactions waiting.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.database import SessionFactory
from db.models import Game, GameStatus
from gm.delivery.outbox import PACE, Pace
from gm.delivery.shards import EVERYTHING, Ownership
from gm.setup.places import GamePlaces, game_places

log = logging.getLogger(__name__)

RUNNING = (GameStatus.ACTIVE, GameStatus.PAUSED)
PER_SECOND = 10.0  # requests a second for the shields, all games together (Discord allows 50) ...
BURST = 10.0  # ... after a burst of this many
AT_ONCE = 2  # games being shielded at the same time

Pacer = Callable[[], Awaitable[None]]
"""Awaited by the adapter before each request it makes to the chat server."""


@dataclass(frozen=True, slots=True)
class ShieldWork:
    """What the adapter did for one game: the requests it made, and the places it could not change."""

    requests: int = 0
    failed: int = 0


class Shielder(Protocol):
    """The adapter's side (like gm.setup.places.PlaceMaker): put the shields on one game's places."""

    async def shield_places(self, places: GamePlaces, pace: Pacer) -> ShieldWork | None:
        """Add every player's shields the game's private places lack, as a start would have set them
        (and take players out of rivals' private threads); ``pace`` before each request. None when
        the game's server is not available now (it is tried again at the next start)."""
        ...


@dataclass(slots=True)
class ShieldReport:
    shielded: int = 0  # games done and marked
    requests: int = 0  # requests the adapter made for them
    unfinished: int = 0  # games left for the next start (server not available, refusals, errors)


async def unshielded_games(session: AsyncSession, ownership: Ownership = EVERYTHING) -> list[int]:
    """The games of this process's servers still marked as set up without the shields, oldest first."""
    ids = (
        await session.exec(
            select(Game.id)
            .where(col(Game.places_shielded).is_(False), ownership.guild_clause(col(Game.guild_id)))
            .order_by(col(Game.id))
        )
    ).all()
    return [int(i) for i in ids if i is not None]


async def mark_shielded(session: AsyncSession, game_id: int) -> None:
    await session.exec(update(Game).where(col(Game.id) == game_id).values(places_shielded=True))


async def _needs_work(session: AsyncSession, game_id: int) -> GamePlaces | None:
    """The game's places when it runs with its places made; None when there is nothing to shield: it
    has ended (its places are archived), or its set-up is unfinished (the start's re-run makes or
    completes its places with the shields)."""
    game = await session.get(Game, game_id)
    if game is None or game.status not in RUNNING or game.game_channel_id is None:
        return None
    return await game_places(session, game_id)


async def shield_running_games(
    sessions: SessionFactory,
    shielder: Shielder,
    *,
    ownership: Ownership = EVERYTHING,
    stopping: Callable[[], bool] = lambda: False,
    at_once: int = AT_ONCE,
    pace: Pace | None = None,
) -> ShieldReport:
    """Put the shields on every game of this process's servers that lacks them (module docstring).
    Stops between two games once ``stopping()`` says so; what is left is done at the next start."""
    report = ShieldReport()
    async with sessions.read() as session:
        queue = deque(await unshielded_games(session, ownership))
    if not queue:
        return report
    log.info(
        "putting the players' shields on the places of %d games set up before them",
        len(queue),
        extra={"event": "shields_started", "games": len(queue)},
    )
    paced = _paced_by(pace or Pace(PER_SECOND, BURST))

    async def worker() -> None:
        while queue and not stopping():
            game_id = queue.popleft()
            try:
                await _shield_one(sessions, shielder, game_id, paced, report)
            except Exception:
                report.unfinished += 1
                log.exception("putting the shields on game %s failed; the next start tries again", game_id)

    await asyncio.gather(*(worker() for _ in range(max(1, min(at_once, len(queue))))))
    report.unfinished += len(queue)  # left when stopping
    log.info(
        "shields: %d games done (%d requests), %d left for the next start",
        report.shielded,
        report.requests,
        report.unfinished,
        extra={
            "event": "shields_done",
            "games": report.shielded,
            "requests": report.requests,
            "left": report.unfinished,
        },
    )
    return report


def _paced_by(own: Pace) -> Pacer:
    """Wait for ``own`` pace, then for the process's (gm.delivery.outbox.PACE, which the messages
    follow too)."""

    async def paced() -> None:
        await own.wait()
        await PACE.wait()

    return paced


async def _shield_one(
    sessions: SessionFactory, shielder: Shielder, game_id: int, paced: Pacer, report: ShieldReport
) -> None:
    """Have the adapter shield one game's places and mark the game done, or count it unfinished (its
    server not available, a place it could not change) for the next start."""
    async with sessions.read() as session:
        places = await _needs_work(session, game_id)
    work = ShieldWork() if places is None else await shielder.shield_places(places, paced)
    if work is None:
        report.unfinished += 1
        log.info("game %s: its server is not available; its shields wait for the next start", game_id)
        return
    if work.failed:
        report.unfinished += 1
        log.warning(
            "game %s: %d of its places could not be changed (see above); the next start tries again",
            game_id,
            work.failed,
        )
        return
    async with sessions.begin() as session:
        await mark_shielded(session, game_id)
    report.shielded += 1
    report.requests += work.requests
    log.info(
        "game %s: the players' shields are on its places (%d requests)",
        game_id,
        work.requests,
        extra={"event": "shielded", "game": game_id, "requests": work.requests},
    )
