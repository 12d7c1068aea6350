"""Is the running bot well? The answer of ``/healthz`` (ops.httpd) and of the systemd watchdog
(ops.sdnotify): connected to Discord's gateway (every shard this process runs), an event loop that
answers (its lag), the database reachable, the deadline scheduler running. Each problem is one
short reason."""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncEngine

MAX_LAG = 5.0  # seconds the event loop may be late before the bot is unwell
DATABASE_WAIT = 5.0  # seconds a database probe may take
LAG_EVERY = 1.0  # seconds between two measures of the loop's lag


class Vitals(Protocol):
    """What the bot tells about itself (bot.DiplomacyBot)."""

    database: AsyncEngine

    def gateway_problem(self) -> str | None: ...
    def scheduler_running(self) -> bool: ...


class LoopLag:
    """Measures how late the event loop runs a callback asked for in LAG_EVERY seconds: a loop
    blocked by a long computation or a stuck call shows here (and a blocked loop cannot answer
    /healthz at all, which a probe sees as a timeout)."""

    def __init__(self) -> None:
        self.lag = 0.0  # the latest measure, seconds
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._measure(), name="loop-lag")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _measure(self) -> None:
        while True:
            asked = time.monotonic()
            await asyncio.sleep(LAG_EVERY)
            self.lag = max(0.0, time.monotonic() - asked - LAG_EVERY)


@dataclass(frozen=True, slots=True)
class Health:
    problems: list[str] = field(default_factory=list)
    lag: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.problems


async def examine(vitals: Vitals, lag: LoopLag, *, gateway: bool = True) -> Health:
    """The bot's health now (``gateway``: whether a lost gateway counts)."""
    problems = []
    if gateway and (problem := vitals.gateway_problem()) is not None:
        problems.append(problem)
    if lag.lag > MAX_LAG:
        problems.append(f"the event loop is {lag.lag:.1f} s late")
    if not vitals.scheduler_running():
        problems.append("the deadline scheduler is not running")
    if (problem := await database_problem(vitals.database)) is not None:
        problems.append(problem)
    return Health(problems, lag.lag)


async def database_problem(engine: AsyncEngine) -> str | None:
    async def probe() -> None:
        async with engine.connect() as connection:
            await connection.exec_driver_sql("SELECT 1")

    try:
        await asyncio.wait_for(probe(), DATABASE_WAIT)
    except TimeoutError:
        return f"the database did not answer within {DATABASE_WAIT:g} s"
    except Exception as exc:
        text = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        return f"the database is unreachable: {text[0][:200] if text else type(exc).__name__}"
    return None
