"""What the tap benchmarks share (bench/sheet.py, bench/preview.py, bench/sandbox.py): the mid-game
position they tap in, a clock that times each step twice ("ack" until Discord has the interaction's
answer, the 3-second limit; "shown" until the player sees the new message), the running bot with a
game in that position, and their command line."""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from typing import Any

from bench.legal_orders import MID_GAME  # the Fall 1905 position
from bench.timing import summary
from bot import DiplomacyBot
from harness.bot_helpers import Table, a_started_game, edit_board
from harness.fakediscord import FakeDiscord, InteractionHandle, Message
from harness.fakediscord.state import walk_components


def mid_game(board: dict[str, Any]) -> None:
    """bench/legal_orders.py's Fall 1905 position (34 units, 12 fleets at sea) on ``board``."""
    board["units"] = {power: list(units) for power, units in MID_GAME.items()}


class TapClock:
    """Each step's waits, twice: until the answer reached Discord (ack) and until it was shown."""

    def __init__(self, steps: Sequence[str]) -> None:
        self.steps = tuple(steps)
        self.ack: dict[str, list[float]] = {step: [] for step in self.steps}
        self.shown: dict[str, list[float]] = {step: [] for step in self.steps}

    async def timed_handle(self, step: str, action: Any) -> tuple[InteractionHandle, Message, float]:
        """Times ``action`` (an interaction's coroutine) as ``step``: its handle, the message shown
        and when it began (for a step whose "shown" ends later: rewrite ``shown[step][-1]``)."""
        began = time.perf_counter()
        handle = await action
        await handle.response()
        self.ack[step].append(time.perf_counter() - began)
        message = await handle.message()
        self.shown[step].append(time.perf_counter() - began)
        return handle, message, began

    async def timed(self, step: str, action: Any) -> Message:
        """Times ``action`` as ``step``: the message shown."""
        _, message, _ = await self.timed_handle(step, action)
        return message

    def print_steps(self) -> None:
        for step in self.steps:
            if self.ack[step]:
                print(summary(f"{step}: ack", self.ack[step]))
                print(summary(f"{step}: shown", self.shown[step]))


def unit_selects(message: Message) -> list[dict[str, Any]]:
    """A sheet's units' menus (the selects whose ids have ``:u:``)."""
    return [c for c in walk_components(message.components) if c.get("type") == 3 and ":u:" in c["custom_id"]]


@asynccontextmanager
async def game_in_mid_game(
    name: str, workers: int
) -> AsyncIterator[tuple[FakeDiscord, Table, DiplomacyBot, int]]:
    """The bot against the fake Discord (``workers`` worker processes), with a started game called
    ``name`` in the mid-game position: the fake, its table, the bot and the game's number."""
    started = a_started_game(name, fake_options={"reply_timeout": 60}, close_workers=workers)
    async with started as (fake, table, bot, game_id):
        await edit_board(bot, game_id, mid_game)
        yield fake, table, bot, game_id


def main(doc: str, run: Callable[[int, int], Coroutine[Any, Any, None]], rounds: int) -> None:
    """The command line of a tap benchmark: ``--rounds`` (default ``rounds``) and ``--workers``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    asyncio.run(run(args.rounds, args.workers))
