"""Helpers shared by the gm tests: a sender that records what it was asked to post, a queue of
outbox messages, a game started at a given time, a gamemaster without maps, a retreat position and
what a refused moderator command must leave untouched."""

from __future__ import annotations

import asyncio
import random
from datetime import datetime

from sqlmodel import select

from db.database import SessionFactory
from db.models import GameLogEntry, Player, PowerAssignment
from gm.delivery.outbox import OutboxMessage, Target, enqueue
from gm.facade import Gamemaster
from gm.messages.kinds import Message
from gm.moderation.actions import Actor
from gm.settings import GameSettings
from gm.setup import games
from tests.gm.conftest import CREATOR, T0, current_phase, game_row, make_game, user


class RecordingSender:
    """Posts nothing; records what it was asked to post. ``fail`` decides per message what goes wrong."""

    def __init__(self, fail: object = None, delay: float = 0.0) -> None:
        self.sent: list[OutboxMessage] = []
        self.fail = fail
        self.delay = delay

    async def send(self, message: OutboxMessage) -> None:
        if self.delay:
            await asyncio.sleep(self.delay)
        error = self.fail(message) if callable(self.fail) else None
        if error is not None:
            raise error
        self.sent.append(message)


async def queue(sessions: SessionFactory, game_id: int | None, target: Target, n: int, tag: str) -> None:
    async with sessions() as s:
        for i in range(n):
            enqueue(
                s,
                Message(game_id=game_id, title=f"{tag}{i}"),
                target=target,
                key=f"{tag}:{i}",
                now=T0,
            )
        await s.commit()


async def start_now(
    sessions: SessionFactory, now: datetime, settings: GameSettings | None = None
) -> games.StartResult:
    game = await make_game(sessions, settings=settings)
    async with sessions.begin() as s:
        return await games.start_game(s, game.id, CREATOR, now=now, rng=random.Random(1))


def gamemaster(sessions: SessionFactory) -> Gamemaster:
    return Gamemaster(sessions, RecordingSender(), workers=0, render_maps=False)


RETREAT_BOARD = {
    "phase": "S1901R",
    "units": {"FRANCE": ["A PAR"], "GERMANY": ["A BUR", "A RUH"], "ENGLAND": ["F LON"]},
    "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN", "KIE", "BER"], "ENGLAND": ["LON"]},
    "dislodged": {"FRANCE": {"A MAR": {"attacker_from": "BUR", "retreats": ["GAS", "SPA"]}}},
}


MOD = Actor(user(41), is_server_moderator=True)


async def snapshot(sessions: SessionFactory, game_id: int) -> tuple:
    """Everything a refused command must leave untouched."""
    async with sessions() as s:
        phase = await current_phase(sessions, game_id)
        game = await game_row(sessions, game_id)
        players = sorted(
            (p.user_id, p.status, p.missed_in_a_row) for p in (await s.exec(select(Player))).all()
        )
        seats = sorted((a.power, a.player_id) for a in (await s.exec(select(PowerAssignment))).all())
        log = len((await s.exec(select(GameLogEntry))).all())
        await s.commit()
    return (game.status, phase.id, phase.deadline, phase.remaining_seconds, players, seats, log)
