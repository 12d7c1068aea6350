"""The real bot in a process of its own, for the kill test (tests/e2e/test_bot_kills.py): it connects to
a fake Discord served by the test process and kills itself with SIGKILL at a named point of a phase
close or of a delivery, as a crash, the OOM killer or ``kill -9`` would end it.

    python -m tests.e2e.kill_child CONFIG_JSON

CONFIG_JSON holds ``rest`` and ``gateway`` (the fake's URLs), ``token``, ``database_url``,
``moderator_role``, ``workers`` (adjudication processes), ``outbox_every`` (seconds between the outbox
job's runs) and ``kill``: None, or ``{"point": NAME, "hit": N}`` to die at the N-th time NAME is reached.

The points (see :data:`POINTS`) are reached in this order during a close and its delivery:
``claimed`` (the claim committed; nothing adjudicated), ``adjudicating`` (the work was handed to the
worker process), ``before_commit`` (step 3 written, not committed), ``closed`` (committed; nothing
scheduled or sent), ``outbox_claimed`` (rows leased, nothing posted), ``part_accepted`` (Discord
accepted a part of a message; it is not recorded), ``part_recorded`` (recorded; the next part, or the
mark "sent", not done), ``retry_marked`` (a failed send was scheduled for a retry).

The process writes one line per event on stdout: ``READY`` once connected, ``HIT point n`` at each
point reached, ``KILL point n`` just before it dies.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

import gm.phases.closer
from bot import DiplomacyBot
from config import Settings, configure_logging
from gm.delivery import outbox
from gm.delivery.scheduler import GameScheduler
from gm.phases import finishing
from gm.phases.closer import CloseHooks, PhaseCloser

POINTS = (
    "claimed",
    "adjudicating",
    "before_commit",
    "closed",
    "outbox_claimed",
    "part_accepted",
    "part_recorded",
    "retry_marked",
)


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class KillPlan:
    """Counts the points reached; at the chosen one, the process dies at once by SIGKILL."""

    def __init__(self, point: str | None, hit: int) -> None:
        if point is not None and point not in POINTS:
            raise ValueError(f"unknown kill point {point!r}; points are {', '.join(POINTS)}")
        self.point = point
        self.hit = hit
        self.counts: dict[str, int] = {}

    def reached(self, point: str, detail: object = "") -> None:
        count = self.counts[point] = self.counts.get(point, 0) + 1
        say(f"HIT {point} {count} {detail}".rstrip())
        if point == self.point and count == self.hit:
            say(f"KILL {point} {count}")
            os.kill(os.getpid(), signal.SIGKILL)


def after(
    plan: KillPlan,
    point: str,
    func: Callable[..., Awaitable[Any]],
    *,
    when: Callable[[Any], bool],
    detail: Callable[[Any], object] = lambda _: "",
) -> Any:
    """``func`` wrapped: the point is reached once it returned a value ``when`` accepts."""

    @functools.wraps(func)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        value = await func(*args, **kwargs)
        if when(value):
            plan.reached(point, detail(value))
        return value

    return wrapper


def install(bot: DiplomacyBot, plan: KillPlan, outbox_every: float) -> None:
    """Put the kill points into this process's bot (test-only patches of its modules).

    Patching a method is what mypy's [method-assign] refuses; that is the point here, so those
    assignments keep their ignore."""
    PhaseCloser._claim = after(  # type: ignore[method-assign]
        plan, "claimed", PhaseCloser._claim, when=lambda v: v is not None, detail=lambda v: v
    )
    finishing.write = after(
        plan, "closed", finishing.write, when=lambda v: v.closed, detail=lambda v: v.phase_id
    )
    outbox._claim_batch = after(plan, "outbox_claimed", outbox._claim_batch, when=bool)
    outbox._mark_retry = after(plan, "retry_marked", outbox._mark_retry, when=lambda v: True)

    run_off_loop = gm.phases.closer.run_off_loop

    async def adjudicating(executor: Any, work: Any, request: Any) -> Any:
        future = asyncio.ensure_future(run_off_loop(executor, work, request))
        await asyncio.sleep(0)  # the work is on its way to the worker
        plan.reached("adjudicating")
        return await future

    gm.phases.closer.run_off_loop = adjudicating

    record_part = outbox._record_part

    async def recorded(*args: Any) -> None:
        plan.reached("part_accepted")
        await record_part(*args)
        plan.reached("part_recorded")

    outbox._record_part = recorded  # type: ignore[assignment]  # a patch: passes any arguments on

    async def before_commit(phase_id: int) -> None:
        plan.reached("before_commit", phase_id)

    closer = bot.runtime.closer
    assert isinstance(closer, PhaseCloser)
    closer._hooks = CloseHooks(before_commit=before_commit)

    schedule = GameScheduler.schedule_outbox_retries

    def often(self: GameScheduler, every_seconds: float = 30.0) -> None:
        schedule(self, outbox_every)

    GameScheduler.schedule_outbox_retries = often  # type: ignore[method-assign]


async def main(config: dict[str, Any]) -> None:
    Route.BASE = config["rest"]
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config["gateway"])
    configure_logging("INFO")
    settings = Settings(
        _env_file=None,
        discord_token=config["token"],
        database_url=config["database_url"],
        moderator_role=config["moderator_role"],
        close_workers=config.get("workers", 1),
        sync_commands=False,
    )
    bot = DiplomacyBot(settings, guild_ready_timeout=0.2)
    kill = config.get("kill") or {}
    install(bot, KillPlan(kill.get("point"), int(kill.get("hit", 1))), float(config.get("outbox_every", 1.0)))

    async def ready() -> None:
        say("READY")

    bot.add_listener(ready, "on_ready")
    async with bot:
        await bot.start(config["token"])


if __name__ == "__main__":
    asyncio.run(main(json.loads(sys.argv[1])))
