"""Kill -9 at random points of phase closes, restart on the same database, and check that what players
see is exactly once (issue 18).

The bot runs the production way in a process of its own (tests/e2e/kill_child.py: real settings,
migrations at start-up, the scheduler, a real adjudication worker process, the outbox and the Discord
sender) against the loopback fake Discord served by this test. Two 7-player games are played with
random legal orders. Each round, with the bot down, the test may let a phase's deadline pass and may
make the restart "late" (Discord forgets every nonce; the unsent messages are 10 minutes old); it
starts the bot, has a moderator close a phase (once, twice at once, or in both games) or every player
submit orders and say /ready, arms Discord faults (503, 500, a short 429) on message posts, and kills
the bot by SIGKILL: either the bot kills itself at the n-th time it reaches a named point of a close
or a delivery (see kill_child.POINTS), or the test kills it at a random moment after the request. A
round whose kill point is never reached ends with a kill once the bot is idle; such rounds do not
count, and rounds are played until KILLTEST_KILLS kills caught the bot at work.

After every kill: no worker process of the bot is left, and no message was posted twice. At the end,
after a last start with no kill: no phase is adjudicating or open past its deadline, every phase
closed exactly once (a contiguous chain of phases, one results post each, every close a moderator
answered done, none closed by a moderator unless one asked for it), every outbox row sent, and every
part of every message is in the fake exactly once (by nonce), the results with all their parts.

It runs on SQLite and on PostgreSQL (skipped when PostgreSQL is not installed). Marked ``slow``
(2-3 minutes per database for 30 kills: some 35 processes of the bot, each with its worker), so the
default run leaves it out. Run it with::

    pytest -m slow tests/e2e/test_bot_kills.py            # 30 kills, a random seed (printed)
    KILLTEST_KILLS=60 KILLTEST_SEED=1234 pytest -m slow tests/e2e/test_bot_kills.py

A failure names the seed, the rounds played and where each bot process died; the bot's logs are in
the test's tmp_path (child-N.log).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import secrets
import signal
import sys
from collections import Counter
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import col, select, update

from cogs.messages.render import render
from db.database import SessionFactory, make_engine, make_session_factory
from db.models import Game, GameStatus, OutboxEntry, PhaseRecord, PhaseStatus
from engine import Board, legal_orders
from engine.variants import game_map
from gm.clock import utcnow
from gm.delivery.outbox import OutboxMessage
from gm.messages.words import long_name
from harness.bot_helpers import (
    MODERATOR_ROLE,
    Table,
    make_table,
    running,
    seats_from_welcomes,
    started_game,
)
from harness.fakediscord import FakeDiscord, fake_discord
from harness.fakediscord.errors import FakeDiscordError
from tests.e2e.kill_child import POINTS

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
KILLS = int(os.environ.get("KILLTEST_KILLS", "30"))
SEED = os.environ.get("KILLTEST_SEED")
MARK = "KILLTEST_MARK"  # in the environment of the bot and of every process it starts
START_TIMEOUT = 60.0  # seconds for a bot process to connect
ROUND_TIMEOUT = 90.0  # seconds for a round's bot to be killed or to fall idle
DELIVERY_DEATHS = (
    ["KILL", "outbox_claimed"],
    ["KILL", "part_accepted"],
    ["KILL", "part_recorded"],
    ["timer"],
)
OUTBOX_EVERY = 1.0  # the outbox job's interval in the bot processes (30 s in production)


@dataclass
class Round:
    index: int
    action: str
    games: list[int]
    kill: str  # "point NAME #N" or "timer S s"
    faults: list[str] = field(default_factory=list)
    late: bool = False
    died: str = ""  # how the bot ended: "KILL point n", "timer", "idle", "at start"
    seconds: float = 0.0
    closed: int = 0  # phases closed so far, at the end of the round

    def __str__(self) -> str:
        extra = (", late restart" if self.late else "") + (f", faults {self.faults}" if self.faults else "")
        return (
            f"round {self.index} ({self.seconds:.1f} s): {self.action} in {self.games}, kill at "
            f"{self.kill}{extra} -> {self.died}; {self.closed} phases closed"
        )


@dataclass
class Child:
    """One bot process."""

    process: asyncio.subprocess.Process
    lines: list[str]
    ready: asyncio.Event
    reader: asyncio.Task[None]
    log: Path

    @property
    def alive(self) -> bool:
        return self.process.returncode is None

    def kill(self) -> None:
        # os.kill, not Process.send_signal: that polls the process first (subprocess.Popen), and a
        # poll right after the process died reaps it before asyncio's child watcher can, which then
        # reports the exit as 255.
        if self.alive:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGKILL)


def marked_processes(mark: str) -> list[str]:
    """Live processes whose environment carries ``mark`` (the bot and everything it started)."""
    found = []
    needle = f"{MARK}={mark}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            status = (entry / "status").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # gone meanwhile, or not ours
        state = next((line for line in status.splitlines() if line.startswith("State:")), "")
        if "Z" not in state.split()[1:2]:
            found.append(f"{entry.name} {cmdline[:120]}")
    return found


class KillTest:
    def __init__(self, fake: FakeDiscord, table: Table, tmp_path: Path, seed: int, url: str) -> None:
        self.fake = fake
        self.table = table
        self.tmp_path = tmp_path
        self.seed = seed
        self.rng = random.Random(seed)  # the rounds' plan: the same seed plays the same rounds
        self.orders_rng = random.Random(seed + 1)  # orders depend on the board, which timing may change
        self.url = url
        self.engine = make_engine(self.url)
        self.sessions: SessionFactory = make_session_factory(self.engine)
        self.mark = secrets.token_hex(8)
        self.games: list[int] = []
        self.seats: dict[int, dict[int, tuple[str, ...]]] = {}  # game -> user -> powers
        self.rounds: list[Round] = []
        self.children = 0
        self.answered: dict[int, str] = {}  # phase id -> a moderator was told it is being closed
        self.asked_by_moderator: set[int] = set()  # phases a moderator asked to close
        self.closed_by: Counter[int] = Counter()  # phase id -> closes committed, over all processes

    def kills_at_work(self) -> int:
        """Rounds whose bot died while it had something to do (not killed idle)."""
        return sum(r.died not in ("", "idle") for r in self.rounds)

    # --- the story so far, for failures --------------------------------------------------------

    def story(self) -> str:
        lines = [f"seed {self.seed} (rerun with KILLTEST_SEED={self.seed} KILLTEST_KILLS={KILLS})"]
        lines += [str(r) for r in self.rounds]
        deaths = Counter(" ".join(r.died.split(" ")[:2]) for r in self.rounds)
        lines.append(f"{self.kills_at_work()} kills at work in {len(self.rounds)} rounds: {dict(deaths)}")
        return "\n".join(lines)

    def check(self, condition: bool, what: str) -> None:
        if not condition:
            pytest.fail(f"{what}\n{self.story()}\nlogs: {self.tmp_path}/child-*.log", pytrace=False)

    # --- bot processes -------------------------------------------------------------------------

    async def spawn(self, kill: dict[str, Any] | None) -> Child:
        self.children += 1
        config = {
            "rest": self.fake.rest_url,
            "gateway": self.fake.gateway_url,
            "token": self.fake.token,
            "database_url": self.url,
            "moderator_role": MODERATOR_ROLE,
            "workers": 1,
            "outbox_every": OUTBOX_EVERY,
            "kill": kill,
        }
        log = self.tmp_path / f"child-{self.children}.log"
        with log.open("wb") as stderr:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.e2e.kill_child",
                json.dumps(config),
                cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT), MARK: self.mark},
                stdout=asyncio.subprocess.PIPE,
                stderr=stderr,
            )
        lines: list[str] = []
        ready = asyncio.Event()

        async def read() -> None:
            assert process.stdout is not None
            async for raw in process.stdout:
                line = raw.decode().strip()
                lines.append(line)
                if line == "READY":
                    ready.set()
                elif line.startswith("HIT closed "):
                    self.closed_by[int(line.split()[3])] += 1

        return Child(process, lines, ready, asyncio.create_task(read()), log)

    async def until_ready(self, child: Child) -> bool:
        """True once the bot is connected; False when it died first (killed at start-up)."""
        waiting = asyncio.ensure_future(child.ready.wait())
        exited = asyncio.ensure_future(child.process.wait())
        done, _ = await asyncio.wait({waiting, exited}, timeout=START_TIMEOUT, return_when="FIRST_COMPLETED")
        waiting.cancel()
        if not done:
            child.kill()
            self.check(False, f"the bot did not connect within {START_TIMEOUT} s ({child.log})")
        return child.ready.is_set() and child.alive

    async def ended(self, child: Child) -> None:
        """After the process is gone: it died of SIGKILL, and left no process behind."""
        await child.process.wait()
        await child.reader
        child.log.with_suffix(".out").write_text("\n".join(child.lines) + "\n")
        if child.process.returncode != -signal.SIGKILL:
            tail = child.log.read_text(errors="replace")[-3000:]
            self.check(False, f"the bot ended with {child.process.returncode}, not by SIGKILL:\n{tail}")
        loop = asyncio.get_running_loop()
        until = loop.time() + 10
        while (left := marked_processes(self.mark)) and loop.time() < until:
            await asyncio.sleep(0.05)
        self.check(not left, f"processes outlived the killed bot: {left}")

    # --- the database, read (and, while the bot is down, changed) by the test ------------------

    async def running_games(self) -> list[int]:
        async with self.sessions() as s:
            rows = await s.exec(
                select(Game.id).where(col(Game.id).in_(self.games), Game.status == GameStatus.ACTIVE)
            )
            return sorted(game_id for game_id in rows.all() if game_id is not None)  # stored: never None

    async def open_phase(self, game_id: int) -> PhaseRecord | None:
        async with self.sessions() as s:
            return (
                await s.exec(
                    select(PhaseRecord).where(
                        PhaseRecord.game_id == game_id, PhaseRecord.status == PhaseStatus.OPEN
                    )
                )
            ).first()

    async def phase_open(self, child: Child, game_id: int) -> None:
        """Wait until the game has an open phase not past its deadline (or the bot died)."""
        loop = asyncio.get_running_loop()
        until = loop.time() + ROUND_TIMEOUT
        while child.alive:
            phase = await self.open_phase(game_id)
            if phase is not None and (phase.deadline is None or phase.deadline > utcnow()):
                return
            if game_id not in await self.running_games():
                return  # it ended
            if loop.time() > until:
                self.check(False, f"game {game_id} has no open phase after {ROUND_TIMEOUT} s")
            await asyncio.sleep(0.05)

    async def closed_phases(self) -> int:
        async with self.sessions() as s:
            rows = await s.exec(select(PhaseRecord.id).where(PhaseRecord.status == PhaseStatus.CLOSED))
            return len(rows.all())

    async def idle(self) -> bool:
        """Nothing left to do: no phase adjudicating or open past its deadline, no message unsent."""
        now = utcnow()
        async with self.sessions() as s:
            phases = (
                await s.exec(
                    select(PhaseRecord)
                    .join(Game, col(Game.id) == col(PhaseRecord.game_id))
                    .where(Game.status == GameStatus.ACTIVE, PhaseRecord.status != PhaseStatus.CLOSED)
                )
            ).all()
            unsent = (
                await s.exec(
                    select(OutboxEntry.id).where(
                        col(OutboxEntry.sent_at).is_(None), col(OutboxEntry.failed_at).is_(None)
                    )
                )
            ).all()
        stuck = [p for p in phases if p.status != PhaseStatus.OPEN or (p.deadline and p.deadline <= now)]
        return not stuck and not unsent

    async def deadline_passes(self, game_id: int) -> None:
        async with self.sessions() as s:
            await s.exec(
                update(PhaseRecord)
                .where(col(PhaseRecord.game_id) == game_id, col(PhaseRecord.status) == PhaseStatus.OPEN)
                .values(deadline=utcnow() - timedelta(seconds=1))
            )
            await s.commit()

    async def ten_minutes_pass(self) -> None:
        """The bot comes back late: Discord forgot the nonces, the unsent messages are old."""
        self.fake.forget_nonces()
        async with self.sessions() as s:
            rows = (await s.exec(select(OutboxEntry).where(col(OutboxEntry.sent_at).is_(None)))).all()
            for row in rows:
                row.created_at = row.created_at - timedelta(minutes=10)
            await s.commit()

    # --- what the players and the moderator do -------------------------------------------------

    async def answer(self, child: Child, handle: Any) -> str | None:
        """The bot's answer to an interaction, or None when the bot died first."""
        reply = asyncio.ensure_future(handle.message(timeout=ROUND_TIMEOUT))
        exited = asyncio.ensure_future(child.process.wait())
        await asyncio.wait({reply, exited}, return_when="FIRST_COMPLETED")
        if not reply.done():
            reply.cancel()
            with contextlib.suppress(asyncio.CancelledError, FakeDiscordError):
                await reply
            return None
        if reply.exception() is not None:
            if not child.alive:
                return None
            raise reply.exception()
        return str(reply.result().content)

    async def send_orders(self, child: Child, game_id: int) -> None:
        phase = await self.open_phase(game_id)
        if phase is None:
            return
        board = Board.from_json(phase.board, game_map("standard"))
        for user in self.table.players:
            powers = self.seats[game_id].get(user.id, ())
            lines = [line for power in powers for line in self.random_orders(board, power)]
            if not lines or self.orders_rng.random() < 0.1:  # now and then a player sends nothing
                continue
            handle = await self.fake.slash(
                user,
                "order",
                options={"text": "; ".join(lines), "game": str(game_id)},
                channel=self.table.general,
            )
            if await self.answer(child, handle) is None:
                return

    def random_orders(self, board: Board, power: str) -> list[str]:
        legal = legal_orders(board, power)
        entries = [e for e in legal.entries if e.orders]
        if board.phase.kind == "A":
            self.orders_rng.shuffle(entries)
            entries = entries[: abs(legal.due)]
        return [self.orders_rng.choice(e.orders).text for e in entries]

    async def moderator_closes(self, child: Child, game_id: int, times: int = 1) -> None:
        phase = await self.open_phase(game_id)
        if phase is None:
            return
        self.asked_by_moderator.add(phase.row_id)
        handles = [
            await self.fake.slash(
                self.table.mod, "mod", "close", options={"game": str(game_id)}, channel=self.table.general
            )
            for _ in range(times)
        ]
        answers = [await self.confirmed(child, h, await self.answer(child, h)) for h in handles]
        if any(a is not None and "is being closed now" in a for a in answers):
            self.answered[phase.row_id] = "moderator"
        self.check(
            sum(a is not None and "is being closed now" in a for a in answers) <= 1,
            f"two /mod close both said they close the phase: {answers}",
        )

    async def confirmed(self, child: Child, handle: Any, answer: str | None) -> str | None:
        """The outcome of a /mod close: when the bot asks first (the phase opened less than a minute
        ago), the moderator confirms, and the answer is what the confirmation ends with."""
        if answer is None or not child.alive:
            return answer
        message = await handle.message()
        confirm = next((c for c in message.custom_ids() if c.startswith("mod:close:")), None)
        if confirm is None:
            return answer
        click = await self.fake.click(self.table.mod, message, confirm)
        if await self.answer(child, click) is None:
            return None
        edited = await click.message()
        done = asyncio.ensure_future(
            self.fake.wait_for(
                lambda: edited.content if "Working on it" not in edited.content else None,
                what="the outcome of a confirmed /mod close",
                timeout=ROUND_TIMEOUT,
            )
        )
        exited = asyncio.ensure_future(child.process.wait())
        await asyncio.wait({done, exited}, return_when="FIRST_COMPLETED")
        if not done.done():
            done.cancel()
            with contextlib.suppress(asyncio.CancelledError, FakeDiscordError):
                await done
            return None
        exited.cancel()
        failure = done.exception()
        if failure is not None:
            if not child.alive:
                return None
            raise failure
        return str(done.result())

    async def everyone_ready(self, child: Child, game_id: int) -> None:
        for user in self.table.players:
            if not child.alive:
                return
            handle = await self.fake.slash(
                user, "ready", options={"game": str(game_id)}, channel=self.table.general
            )
            await self.answer(child, handle)

    # --- a round -------------------------------------------------------------------------------

    def plan_kill(self, action: str) -> tuple[dict[str, Any] | None, float | None, str]:
        """A point to die at (the bot kills itself), or a delay after which the test kills it."""
        if self.rng.random() < 0.6:
            point = self.rng.choice(POINTS)
            most = {"outbox_claimed": 4, "part_accepted": 10, "part_recorded": 10, "retry_marked": 2}
            hit = self.rng.randint(1, most.get(point, 2 if action == "both" else 1))
            return {"point": point, "hit": hit}, None, f"point {point} #{hit}"
        delay = round(self.rng.uniform(0.3, 6.0) if action == "deadline" else self.rng.uniform(0.0, 2.5), 2)
        return None, delay, f"timer {delay} s"

    def arm_faults(self, rnd: Round, force_retry: bool) -> None:
        self.fake.faults.faults.clear()
        pattern = "POST /channels/*/messages"
        if force_retry or self.rng.random() < 0.25:
            after = self.rng.randint(0, 4)
            self.fake.inject_fault(pattern, 503, after=after)
            rnd.faults.append(f"503 after {after}")
        if self.rng.random() < 0.15:
            after = self.rng.randint(0, 4)
            self.fake.inject_fault(pattern, 500, after=after)  # discord.py retries it itself
            rnd.faults.append(f"500 after {after}")
        if self.rng.random() < 0.15:
            after, wait = self.rng.randint(0, 4), round(self.rng.uniform(0.2, 1.5), 2)
            self.fake.inject_fault(pattern, 429, after=after, retry_after=wait)
            rnd.faults.append(f"429 {wait} s after {after}")

    async def play_round(self, index: int) -> None:
        games = await self.running_games()
        if not games:
            return
        action = self.rng.choices(
            ["moderator", "ready", "deadline", "double", "both"], weights=[3, 3, 2, 1, 1]
        )[0]
        chosen = games if action == "both" else [self.rng.choice(games)]
        kill, delay, kill_text = self.plan_kill(action)
        rnd = Round(index, action, chosen, kill_text)
        self.rounds.append(rnd)
        began = asyncio.get_running_loop().time()
        force_retry = kill is not None and kill["point"] == "retry_marked"
        # Late restarts matter most after a kill in the middle of a delivery.
        busy = bool(self.rounds[:-1]) and self.rounds[-2].died.split(" ")[:2] in DELIVERY_DEATHS
        if self.rng.random() < (0.5 if busy else 0.2):
            rnd.late = True
            await self.ten_minutes_pass()
        if action == "deadline":
            for game_id in chosen:
                await self.deadline_passes(game_id)
            self.arm_faults(rnd, force_retry)
        loop = asyncio.get_running_loop()
        child = await self.spawn(kill)
        timer = None
        if delay is not None and action == "deadline":
            timer = loop.call_later(delay, child.kill)
        if not await self.until_ready(child):
            rnd.died = "at start"
        elif action != "deadline":
            for game_id in chosen:  # players act once they see the phase the start-up left open
                await self.phase_open(child, game_id)
            for game_id in chosen:
                await self.send_orders(child, game_id)
            self.arm_faults(rnd, force_retry)
            if delay is not None and child.alive:
                timer = loop.call_later(delay, child.kill)
            if action in ("moderator", "double"):
                await self.moderator_closes(child, chosen[0], times=2 if action == "double" else 1)
            elif action == "ready":
                await self.everyone_ready(child, chosen[0])
            else:
                await asyncio.gather(*(self.moderator_closes(child, g) for g in chosen))
        await self.until_dead_or_idle(child, rnd)
        if timer is not None:
            timer.cancel()
        await self.ended(child)
        killed = [line for line in child.lines if line.startswith("KILL ")]
        if killed:
            rnd.died = killed[0]
        elif not rnd.died:
            rnd.died = "timer"
        self.fake.faults.faults.clear()
        await self.fake.flush()
        rnd.seconds = loop.time() - began
        rnd.closed = await self.closed_phases()
        await self.check_no_repeats(f"after {rnd}")

    async def until_dead_or_idle(self, child: Child, rnd: Round) -> None:
        loop = asyncio.get_running_loop()
        until = loop.time() + ROUND_TIMEOUT
        calm_since: float | None = None
        while child.alive:
            if loop.time() > until:
                child.kill()
                self.check(False, f"{rnd}: the bot neither died nor finished within {ROUND_TIMEOUT} s")
            if await self.idle():
                calm_since = calm_since or loop.time()
                if loop.time() - calm_since > 0.5:  # idle for a moment: nothing more will happen
                    rnd.died = "idle"
                    child.kill()
            else:
                calm_since = None
            await asyncio.sleep(0.05)

    # --- the end -------------------------------------------------------------------------------

    async def check_no_repeats(self, when: str) -> None:
        """No two bot messages carry the same nonce (each part of each outbox message posted once)."""
        bot_id = self.fake.world.bot.id
        counts = Counter(
            (m.channel_id, m.nonce)
            for m in self.fake.world.messages.values()
            if m.author_id == bot_id and m.nonce is not None and not m.deleted
        )
        repeated = {nonce: n for (_, nonce), n in counts.items() if n > 1}
        if repeated:
            self.check(False, f"{when}: posted more than once: {repeated}\n{await self.explain(repeated)}")

    async def explain(self, nonces: Collection[str | None]) -> str:
        """The outbox rows and the posts behind repeated nonces, for the failure message."""
        lines = []
        async with self.sessions() as s:
            for nonce in nonces:
                row = (
                    await s.exec(select(OutboxEntry).where(OutboxEntry.nonce == (nonce or "").split(".")[0]))
                ).first()
                if row is not None:
                    lines.append(
                        f"outbox {row.id} {row.kind} to {row.target_kind} {row.target_power or ''}: created "
                        f"{row.created_at}, attempts {row.attempts}, sent {row.sent_at}, "
                        f"parts {row.sent_messages}, last error {row.last_error}"
                    )
        for message in self.fake.world.messages.values():
            if message.nonce in nonces:
                title = message.embeds[0].get("title") if message.embeds else None
                lines.append(
                    f"message {message.id} ({message.nonce}) in {message.channel_id} at {message.timestamp}: "
                    f"{(message.content or '')[:80]!r} {title!r}"
                )
        return "\n".join(lines)

    async def check_everything(self) -> None:
        await self.check_no_repeats("at the end")
        now = utcnow()
        async with self.sessions() as s:
            phases = list(
                (
                    await s.exec(
                        select(PhaseRecord).order_by(col(PhaseRecord.game_id), col(PhaseRecord.ordinal))
                    )
                ).all()
            )
            rows = list((await s.exec(select(OutboxEntry).order_by(col(OutboxEntry.id)))).all())
            games = {g.id: g for g in (await s.exec(select(Game))).all()}
        by_game: dict[int, list[PhaseRecord]] = {}
        for phase in phases:
            by_game.setdefault(phase.game_id, []).append(phase)
        closes = 0
        for game_id in self.games:
            chain = by_game[game_id]
            self.check(
                [p.ordinal for p in chain] == list(range(len(chain))), f"game {game_id}: phases skipped"
            )
            for before, after in itertools.pairwise(chain):
                self.check(
                    before.status == PhaseStatus.CLOSED, f"{before.name} of game {game_id} is {before.status}"
                )
                self.check(
                    (before.results or {}).get("next_phase") == after.name,
                    f"game {game_id}: {before.name} led to {(before.results or {}).get('next_phase')}, "
                    f"but {after.name} follows it",
                )
            last = chain[-1]
            if games[game_id].status == GameStatus.ACTIVE:
                self.check(last.status == PhaseStatus.OPEN, f"game {game_id}: {last.name} is {last.status}")
                self.check(
                    last.deadline is None or last.deadline > now, f"game {game_id}: {last.name} overdue"
                )
            closes += sum(p.status == PhaseStatus.CLOSED for p in chain)
        closed = {p.id for p in phases if p.status == PhaseStatus.CLOSED}
        lost = [pid for pid in self.answered if pid not in closed]
        self.check(not lost, f"closes a moderator was promised never happened: phases {lost}")
        unasked = [
            p.name for p in phases if p.close_reason == "moderator" and p.id not in self.asked_by_moderator
        ]
        self.check(not unasked, f"closed by a moderator nobody asked: {unasked}")
        twice = {pid: n for pid, n in self.closed_by.items() if n > 1}
        self.check(not twice, f"phases whose results were committed more than once: {twice}")

        unsent = [(r.id, r.kind, r.last_error) for r in rows if r.sent_at is None]
        self.check(not unsent, f"messages never sent: {unsent}")
        world = self.fake.world
        for row in rows:
            parts = row.sent_messages or []
            for index, (channel_id, message_id) in enumerate(parts):
                message = world.messages.get(int(message_id))
                self.check(
                    message is not None and message.channel_id == int(channel_id),
                    f"outbox {row.id} ({row.kind}) part {index}: message {message_id} is not in the channel",
                )
                assert message is not None
                self.check(
                    message.nonce == f"{row.nonce}.{index}",
                    f"outbox {row.id} ({row.kind}) part {index} has nonce {message.nonce}",
                )
            extra = [m for m in world.messages.values() if (m.nonce or "").startswith(f"{row.nonce}.")]
            if len(extra) != len(parts):
                details = await self.explain({m.nonce: 1 for m in extra})
                self.check(
                    False,
                    f"outbox {row.id} ({row.kind}): {len(extra)} posts, {len(parts)} recorded\n{details}",
                )
            if row.kind == "phase_results":
                expected = len(render(as_message(row)))
                self.check(
                    len(parts) == expected, f"results {row.id}: {len(parts)} of {expected} parts posted"
                )
        for game_id in self.games:
            channel_id = games[game_id].game_channel_id
            assert channel_id is not None
            channel = world.channels[channel_id]
            titles = Counter(
                m.embeds[0].get("title", "")
                for m in world.channel_messages(channel.id)
                if m.author_id == world.bot.id and m.embeds
            )
            for phase in by_game[game_id]:
                if phase.status == PhaseStatus.CLOSED:
                    title = f"{games[game_id].name}: {long_name(phase.name)} results"
                    self.check(titles[title] == 1, f"{title!r} posted {titles[title]} times")
        self.check(closes >= KILLS // 2, f"only {closes} phases closed in {KILLS} rounds")


def as_message(row: OutboxEntry) -> OutboxMessage:
    return OutboxMessage(
        id=row.row_id,
        nonce=row.nonce or "",
        kind=row.kind,
        game_id=row.game_id,
        target_kind=row.target_kind,
        channel_id=None,
        user_id=row.target_user_id,
        payload=row.payload,
        phase_id=row.phase_id,
    )


@contextlib.contextmanager
def seed_shown(seed: int) -> Iterator[None]:
    print(f"kill test seed {seed}: rerun with KILLTEST_SEED={seed} KILLTEST_KILLS={KILLS}")
    yield


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
async def test_killed_at_random_points_of_closes_the_bot_closes_and_posts_everything_once(
    tmp_path: Path, request: pytest.FixtureRequest, database: str
) -> None:
    if database == "postgresql":
        url = request.getfixturevalue("postgres_url")  # skipped when PostgreSQL is not installed
    else:
        url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    seed = int(SEED) if SEED else random.SystemRandom().randrange(1_000_000)
    with seed_shown(seed):
        async with fake_discord(ack_deadline=None, reply_timeout=ROUND_TIMEOUT) as fake:
            table = await make_table(fake)
            run = KillTest(fake, table, tmp_path, seed, url)
            # set up in-process: the kills are about closes
            async with running(fake, tmp_path, database_url=url) as bot:
                for name in ("Alpha", "Beta"):
                    game_id = await started_game(fake, bot, table, name)
                    run.games.append(game_id)
                    run.seats[game_id] = seats_from_welcomes(fake, table, game_id)
            try:
                while run.kills_at_work() < KILLS and len(run.rounds) < 2 * KILLS:
                    await run.play_round(len(run.rounds) + 1)
                child = await run.spawn(None)  # the last start: everything due is done, then a kill
                run.rounds.append(final := Round(len(run.rounds) + 1, "none", [], "idle"))
                run.check(await run.until_ready(child), "the last bot did not start")
                await run.until_dead_or_idle(child, final)
                await run.ended(child)
                final.closed = await run.closed_phases()
                await fake.flush()
                await run.check_everything()
                print(run.story())
            finally:
                for leftover in marked_processes(run.mark):
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(int(leftover.split()[0]), signal.SIGKILL)
                await run.engine.dispose()
            assert fake.internal_errors == [], fake.internal_errors
