"""Benchmark: the bot under load, as a community plays it. Many running seven-player games in a mid-game
position (bench/legal_orders.py's Fall 1905 board: 34 units), every player acting as people do, then
every player saying /ready at once; the bot as its own process (production start-up, 2 worker
processes) against the loopback fake Discord. Prints its figures; asserts nothing.

One command per scenario (the time each took on the 2-core machine while busy, load 13-22, set-up of
the games included: most of it):

    .venv/bin/python bench/load.py busy     # 24 games, a player acts every 0-10 s; 5-7 min
    .venv/bin/python bench/load.py paced    # 45 games, every player every ~5 s; 6-10 min
    .venv/bin/python bench/load.py burst    # 45 games, everyone at once, no pause; 6-8 min
    .venv/bin/python bench/load.py flood    # busy, and one member sends 1,000 interactions in 1 s; 5-7 min

Options: ``--games N``, ``--seconds S`` (how long the players play), ``--think S`` (a player's pause
after an answer, S/2 to 3S/2; ``busy`` pauses 0-2S), ``--no-close`` (skip the /ready storm and the
closes), ``--bot-root PATH`` (run the bot from another checkout, e.g. main's code, to compare: the
fake and this script stay the same; the bot then starts as a real process, not a zygote's fork, which
would run this checkout's bot whatever the path), ``--profile FILE`` (cProfile of the bot's event-loop thread
over the play, written to FILE: ``python -m pstats FILE``). ``BENCH_TRACEMALLOC=1`` traces the bot's
Python memory (slows it) and writes tracemalloc snapshots at the end of the play and at each new high
while every game closes (``BENCH_SNAPSHOTS=PREFIX``: PREFIX.1, PREFIX.2...; ``tracemalloc.Snapshot.load``).

What the players do (each game: seats 0 and 1 tap the order sheet (the step-by-step builder is
retired: ``/orders build`` opens the sheet), seats 2-6 type; everyone pauses ``--think`` seconds
after each answer, as a person reads and taps):

- the sheet: ``/orders sheet``, pick an order for a unit, open a unit's support (or convoy) menu and
  pick in it, Ready, undo Ready (seat 0 starts with a pick, seat 1 with a support menu);
- typing, in turn: the ``/orders edit`` form (opened, then submitted), ``/order``, a direct message of
  orders, ``/orders show`` (the private map).

Each interaction is timed twice, from the moment it is sent: the *first answer* (the callback that
acknowledges it: a message, a form, "thinking...", a deferred update; Discord's 3-second limit) and
*shown*: until the player sees the result (the redrawn sheet, the acknowledgement after
"thinking...", the direct message's reply). The bot's CPU per interaction, its resident memory
(sampled every 0.25 s, the worker processes not included) and its event loop's lag (the bot's own
measure, ops.liveness, read from /healthz every second) are printed with them, and the bot's calls to
Discord by route. ``--idle S``: the bot's CPU over S seconds with no interaction, before the play.
``TEST_ZYGOTE=0 BENCH_SAMPLE=PREFIX``: where the bot's CPU goes over the play (bench/sampler,
bench/sampled.py). ``BENCH_EVENT_LOOP=asyncio`` (or ``uvloop``): the bot's event loop (EVENT_LOOP).

Then every player says ``/ready`` (the /ready storm): every phase closes within moments of the
others; with ``--latency`` seconds added to every message the bot posts (Discord's own latency), it
measures how long after each phase's results were committed they were posted, and the memory peak
while every game closes.

``flood``: meanwhile, one member (a moderator, in no game) sends ``/game list`` 1,000 times within a
second; the figures of everyone else are printed apart from the flooder's, together with a second
member's ``/game list`` every second ("/game list (another member)").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.legal_orders import MID_GAME
from bench.taps import unit_selects
from bench.timing import rss_mib, summary
from engine import Board
from engine.legal import legal_orders
from harness.bot_helpers import MODERATOR_ROLE, Table, create_game, join_everyone, seats_from_welcomes
from harness.fakediscord import FakeDiscord, Message, Permission, User, fake_discord
from harness.fakediscord.state import walk_components
from harness.processes import BotProcess, bot_process
from harness.sheet_helpers import button_id

SETTLE_SECONDS = 12.0  # after the closes, the bot's memory is read again (ops.memory trims every 10 s)
GAMES_PER_SERVER = 25  # 250 channels and 525 threads: within Discord's 500 and 1,000
FLOOD = 1000  # interactions of the flooding member, within a second

SCENARIOS: dict[str, dict[str, Any]] = {
    "busy": {"games": 24, "seconds": 60.0, "think": 5.0, "spread": "uniform"},
    "paced": {"games": 45, "seconds": 60.0, "think": 5.0, "spread": "around"},
    "burst": {"games": 45, "seconds": 0.0, "think": 0.0, "spread": "none"},
    "flood": {"games": 24, "seconds": 40.0, "think": 5.0, "spread": "uniform", "flood": True},
}

SHEET = ("sheet: open", "sheet: pick an order", "sheet: open a support menu", "sheet: pick in it")
READY = ("sheet: Ready", "sheet: undo Ready")
TYPED = ("/orders edit (form)", "form submitted", "/order", "DM of orders", "/orders show")
OTHERS = ("/game list (another member)", "flood: the flooder's /game list")
KINDS = (*SHEET, *READY, *TYPED, *OTHERS)
NO_RESULT = ("/orders edit (form)",)  # the form is the answer itself


class Clock:
    """Every interaction's two waits, per kind: the first answer and until the result is shown."""

    def __init__(self) -> None:
        self.first: dict[str, list[float]] = defaultdict(list)
        self.shown: dict[str, list[float]] = defaultdict(list)
        self.failed: dict[str, list[str]] = defaultdict(list)
        self.sent: list[float] = []  # when each interaction was sent (perf_counter), in order

    async def time(
        self,
        kind: str,
        action: Awaitable[Any],
        answered: Callable[[Any], Awaitable[Any]],
        result: Callable[[Any], Awaitable[Any]] | None = None,
    ) -> Any:
        """Send ``action`` (a user's action, giving a handle); ``answered(handle)``: its first answer;
        ``result(handle)``: what the player ends up seeing (returned; the handle without it)."""
        began = time.perf_counter()
        self.sent.append(began)
        try:
            handle = await action
            answer = await answered(handle)
            self.first[kind].append(time.perf_counter() - began)
            if result is None:
                return answer
            shown = await result(handle)
            self.shown[kind].append(time.perf_counter() - began)
            return shown
        except Exception as exc:
            self.failed[kind].append(f"{type(exc).__name__}: {str(exc)[:160]}")
            return None

    async def tap(self, kind: str, action: Awaitable[Any]) -> Message | None:
        """An interaction whose result is a message (a deferred one filled, or the message edited)."""
        return await self.time(
            kind, action, lambda h: h.response(timeout=30), lambda h: h.message(timeout=30)
        )

    def count(self) -> int:
        return sum(len(v) for v in self.first.values()) + sum(len(v) for v in self.failed.values())

    def print(self, kinds: tuple[str, ...]) -> None:
        print(f"{'':34} first answer{'':48}| shown")
        every: list[float] = []
        unanswered = 0
        for kind in kinds:
            first, shown = self.first.get(kind, []), self.shown.get(kind, [])
            if first:
                late = sum(1 for s in first if s > 3.0)
                line = summary(kind, first)
                if shown:
                    ms = sorted(s * 1000 for s in shown)
                    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
                    line += f" | median {statistics.median(ms):7.1f} p95 {p95:7.1f}"
                if late:
                    line += f"   OVER 3 s: {late}"
                print(line)
                if not kind.startswith("flood") and kind != "DM of orders":
                    every += first
            if self.failed.get(kind):  # the fake refuses an answer after 3 s, as Discord does
                print(f"  {kind}: {len(self.failed[kind])} unanswered, e.g. {self.failed[kind][0][:110]!r}")
                if not kind.startswith("flood") and kind != "DM of orders":
                    unanswered += len(self.failed[kind])
        if every:
            over = sum(s > 3 for s in every)  # the DMs' replies and the flooder's apart
            print(
                summary("every interaction's first answer", every)
                + f"   over 3 s: {over}, unanswered (the fake refused a late answer): {unanswered}"
            )
            redrawn = [s for k in (*SHEET[1:], *READY) for s in self.shown.get(k, [])]
            if redrawn:
                print(summary("every redrawn sheet", redrawn))


class Bot:
    """What the bench reads of the bot process: CPU, memory, the loop's lag."""

    def __init__(self, process: BotProcess) -> None:
        self.process = process
        self.pid = process.process.pid
        self.memory: list[float] = []
        self.at_most = ""  # the highest sample's parts (:meth:`parts`)
        self.lag: list[float] = []
        self.health: str | None = None

    def cpu_seconds(self) -> float:
        try:
            with open(f"/proc/{self.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:
            return 0.0

    def parts(self) -> str:
        """The bot's resident memory now, by kind (Linux's /proc: anonymous, i.e. the heaps, and
        files, i.e. the code of Python and its libraries), and its threads."""
        try:
            with open(f"/proc/{self.pid}/status") as status:
                fields = dict(line.split(":", 1) for line in status if ":" in line)
        except OSError:
            return "?"
        kib = {k: int(fields[k].split()[0]) for k in ("RssAnon", "RssFile") if k in fields}
        return (
            f"anonymous {kib.get('RssAnon', 0) / 1024:.0f} MiB, "
            f"files {kib.get('RssFile', 0) / 1024:.0f} MiB, {fields.get('Threads', '?').strip()} threads"
        )

    def snapshot(self) -> None:
        """A tracemalloc snapshot of the traced bot (BENCH_TRACEMALLOC; harness.bot_process)."""
        if "BENCH_TRACEMALLOC" in os.environ:
            self.process.send(signal.SIGUSR2)

    async def sample(self) -> None:
        next_lag = 0.0
        while True:
            self.memory.append(rss_mib(self.pid))
            if self.memory[-1] >= max(self.memory):
                self.at_most = self.parts()  # what the highest so far is made of
            if self.health and time.monotonic() >= next_lag:
                next_lag = time.monotonic() + 1.0
                try:
                    body = await asyncio.to_thread(_get, self.health)
                    self.lag.append(float(json.loads(body)["event_loop_lag_ms"]))
                except Exception:
                    pass
            await asyncio.sleep(0.25)


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as answer:  # the bot's own loopback endpoint
        return answer.read().decode()


async def make_servers(fake: FakeDiscord, games: int) -> list[Table]:
    """One Table per game: its seven players, sharing a server (and its general channel, moderator role
    and moderator) with up to 24 other games."""
    tables: list[Table] = []
    for number in range(games):
        if number % GAMES_PER_SERVER == 0:
            guild = await fake.create_guild(f"Club {number // GAMES_PER_SERVER}")
            moderators = await fake.create_role(
                guild, MODERATOR_ROLE, Permission.MANAGE_THREADS, mentionable=True
            )
            mod = await fake.create_user(f"mod{number}")
            await fake.add_member(guild, mod, moderators)
            onlooker = await fake.create_user(f"onlooker{number}")
            await fake.add_member(guild, onlooker)
            general = await fake.create_channel(guild, "general")
        players = []
        for seat in range(7):
            user = await fake.create_user(f"g{number}p{seat}")
            await fake.add_member(guild, user)
            players.append(user)
        tables.append(Table(guild, general, moderators, players, mod, onlooker))
    return tables


def seats_of(fake: FakeDiscord, table: Table, game_id: int) -> dict[int, str]:
    """user id -> (first) power, read from each player's welcome DM."""
    return {
        user: powers[0] for user, powers in seats_from_welcomes(fake, table, game_id, dms_only=True).items()
    }


async def set_up(fake: FakeDiscord, bot: BotProcess, tables: list[Table]) -> list[tuple[int, Table]]:
    started = []
    for number, table in enumerate(tables):
        game_id = await create_game(fake, table, f"Load {number}")
        await join_everyone(fake, table, game_id)
        reply = await (
            await fake.slash(
                table.players[0], "game", "start", options={"game": str(game_id)}, channel=table.general
            )
        ).message(timeout=60)
        assert "start" in reply.content.lower() or "Game #" in reply.content, reply.content
        started.append((game_id, table))
    for game_id, table in started:
        seats = await fake.wait_for(
            lambda t=table, g=game_id: s if len(s := seats_of(fake, t, g)) == 7 else None,
            what=f"the welcomes of game {game_id}",
            timeout=120,
        )
        table.power_of.update(seats)
    return started


def units_of(number: int) -> dict[str, list[str]]:
    """Game ``number``'s units: bench/legal_orders.py's Fall 1905 position less one or two units, a
    different position in every game (as in a community, where no two boards are alike)."""
    every = [(power, unit) for power, units in MID_GAME.items() for unit in units]
    gone = {every[number % len(every)]}
    if number >= len(every):
        gone.add(every[(7 * number + 3) % len(every)])
    return {power: [u for u in units if (power, u) not in gone] for power, units in MID_GAME.items()}


BOARDS: dict[int, Board] = {}  # game number -> its board


def mid_game(bot: BotProcess, games: list[int]) -> None:
    """Every game's open phase gets its Fall 1905 units (:func:`units_of`), written from outside
    before anybody has read its orders."""
    import sqlite3

    assert bot.database is not None
    with sqlite3.connect(bot.database, timeout=30) as conn:
        for number, game_id in enumerate(games):
            [(phase_id, board)] = conn.execute(
                "SELECT id, board FROM phase WHERE game_id = ? AND status = 'open'", (game_id,)
            ).fetchall()
            data = json.loads(board)
            data["units"] = units_of(number)
            conn.execute("UPDATE phase SET board = ? WHERE id = ?", (json.dumps(data), phase_id))
            BOARDS[game_id] = Board.from_json({"phase": "S1901M", "units": data["units"], "centers": {}})


def some_orders(game_id: int, power: str, rng: random.Random) -> list[str]:
    """One legal order per unit of ``power`` in the game, picked at random."""
    legal = legal_orders(BOARDS[game_id], power)
    return [rng.choice(entry.orders).text for entry in legal.entries if entry.orders]


class Player:
    """One player's turns until ``until`` (a perf_counter time); once through when ``until`` is 0."""

    def __init__(
        self,
        fake: FakeDiscord,
        clock: Clock,
        table: Table,
        game_id: int,
        seat: int,
        think: float,
        spread: str,
    ) -> None:
        self.fake, self.clock, self.table, self.seat = fake, clock, table, seat
        self.user = table.players[seat]
        self.power = table.power_of[self.user.id]
        self.game_id = game_id
        self.game = {"game": str(game_id)}
        self.rng = random.Random(self.user.id)
        self.think, self.spread = think, spread

    async def pause(self) -> None:
        if self.spread == "uniform":
            await asyncio.sleep(self.think * 2 * self.rng.random())
        elif self.spread == "around":
            await asyncio.sleep(self.think * (0.5 + self.rng.random()))
        else:
            await asyncio.sleep(0)

    async def play(self, until: float) -> None:
        if self.spread != "none":
            await asyncio.sleep(self.rng.random() * max(self.think, 1.0))
        turn = self.seat
        while True:
            if self.seat in (0, 1):
                await self.sheet_round(turn)
            else:
                await self.typed(turn)
            turn += 1
            if not until or time.perf_counter() >= until:
                return

    # --- the sheet --------------------------------------------------------------------------------

    sheet: Message | None = None

    async def sheet_round(self, turn: int) -> None:
        fake, clock, user = self.fake, self.clock, self.user
        if self.sheet is None:
            self.sheet = await clock.tap(
                SHEET[0], fake.slash(user, "orders", "sheet", options=self.game, channel=self.table.general)
            )
            await self.pause()
            if self.sheet is None:
                return
        menus = unit_selects(self.sheet)
        if not menus:
            self.sheet = None
            return
        menu = menus[turn % len(menus)]
        values = [o["value"] for o in menu["options"]]
        second = next((v for v in values if v in ("@support", "@convoy")), None)
        if second is not None and turn % 2:
            opened = await clock.tap(
                SHEET[2], fake.click(user, self.sheet, menu["custom_id"], values=[second])
            )
            if opened is None:
                self.sheet = None
                return
            await self.pause()
            inner = [c for c in walk_components(opened.components) if ":s:" in str(c.get("custom_id", ""))]
            choices = (
                [o["value"] for o in inner[0]["options"] if not o["value"].startswith("@")] if inner else []
            )
            if not choices:
                self.sheet = None
                return
            self.sheet = await clock.tap(
                SHEET[3], fake.click(user, opened, inner[0]["custom_id"], values=[self.rng.choice(choices)])
            )
        else:
            plain = [v for v in values if not v.startswith("@")]
            self.sheet = await clock.tap(
                SHEET[1], fake.click(user, self.sheet, menu["custom_id"], values=[self.rng.choice(plain)])
            )
        await self.pause()
        if self.sheet is not None and turn % 3 == 2:
            for kind, action in zip(READY, ("ready", "unready"), strict=True):
                try:
                    button = button_id(self.sheet, action)
                except AssertionError:
                    self.sheet = None
                    return
                self.sheet = await clock.tap(kind, fake.click(user, self.sheet, button))
                await self.pause()
                if self.sheet is None:
                    return

    # --- typing -------------------------------------------------------------------------------------

    async def typed(self, turn: int) -> None:
        fake, clock, user, general = self.fake, self.clock, self.user, self.table.general
        orders = some_orders(self.game_id, self.power, self.rng)
        kind = TYPED[[0, 2, 3, 4][turn % 4]]
        if kind == TYPED[0]:
            opened = await clock.time(
                kind,
                fake.slash(user, "orders", "edit", options=self.game, channel=general),
                lambda h: h.modal(timeout=30),
                lambda h: asyncio.sleep(0, h),
            )
            if opened is not None:
                await self.pause()
                await clock.tap(TYPED[1], fake.submit_modal(user, opened, {"orders": "\n".join(orders)}))
        elif kind == TYPED[2]:
            await clock.tap(
                kind,
                fake.slash(user, "order", options={**self.game, "text": "; ".join(orders)}, channel=general),
            )
        elif kind == TYPED[3]:
            await clock.time(
                kind, fake.dm_bot(user, "\n".join(orders)), lambda h: h.reply(timeout=30), lambda h: h.reply()
            )
        else:
            await clock.tap(kind, fake.slash(user, "orders", "show", options=self.game, channel=general))
        await self.pause()


async def flood(
    fake: FakeDiscord, clock: Clock, flooder: User, other: User, table: Table, until: float
) -> None:
    """``flooder`` sends /game list FLOOD times within a second, once the play is under way; ``other``
    asks for /game list every second meanwhile, until ``until``."""

    async def one() -> None:
        await clock.tap(OTHERS[1], fake.slash(flooder, "game", "list", channel=table.general))

    async def others() -> None:
        while time.perf_counter() < until:
            await clock.tap(OTHERS[0], fake.slash(other, "game", "list", channel=table.general))
            await asyncio.sleep(1.0)

    watcher = asyncio.create_task(others())
    await asyncio.sleep(10.0)
    sent = []
    began = time.perf_counter()
    for number in range(FLOOD):
        sent.append(asyncio.create_task(one()))
        delay = began + (number + 1) / FLOOD - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
    print(f"the flooder's {FLOOD} /game list sent in {time.perf_counter() - began:.2f} s")
    await asyncio.gather(*sent)
    await watcher


async def one_per_round(players: Sequence[Awaitable[None]]) -> None:
    """Every player started, one per round of the loop, and played to the end. Started all at once,
    the burst's players made their first interactions in one round, during which the fake answered
    none of the bot's calls (it shares the loop): a burst's first answers waited for the bench to
    make the last interaction (0.1-0.7 s) where Discord answers the bot while people still send. One
    per round, the fake answers between two sends, and they still go out as fast as it makes them."""
    started = []
    for player in players:
        started.append(asyncio.ensure_future(player))
        await asyncio.sleep(0)  # its first step runs, then the calls come to the fake are answered
    await asyncio.gather(*started)


def naive(at: datetime) -> datetime:
    """A UTC time without its time zone (the database's and the fake's, compared)."""
    return at.astimezone(UTC).replace(tzinfo=None) if at.tzinfo else at


async def close_all(fake: FakeDiscord, bot: BotProcess, watch: Bot, started: list[tuple[int, Table]]) -> None:
    """The /ready storm: everybody says /ready, each phase closes as its last player does. Then: results
    committed -> results posted, per game, and the memory peak meanwhile."""
    clock = Clock()
    mark = len(watch.memory)
    t0 = time.perf_counter()
    traced = "BENCH_TRACEMALLOC" in os.environ
    snapshots = asyncio.create_task(snapshot_the_highs(watch, mark)) if traced else None
    await asyncio.gather(
        *(
            clock.tap(
                "/ready (the storm)",
                fake.slash(user, "ready", options={"game": str(game_id)}, channel=table.general),
            )
            for game_id, table in started
            for user in table.players
        )
    )
    ready_took = time.perf_counter() - t0
    games = {game_id for game_id, _ in started}

    def game_of(message: Message) -> int | None:
        match = re.match(r"g(\d+)-", fake.world.channel(message.channel_id).name or "")
        return int(match[1]) if match else None

    def results_posted() -> dict[int, datetime] | None:
        found: dict[int, datetime] = {}
        for message in fake.world.messages.values():
            if message.author_id != fake.world.bot.id or not message.embeds:
                continue
            title = message.embeds[0].get("title", "")
            game = game_of(message)
            if "1901 Movement" in title and "results" in title and game is not None:
                found.setdefault(game, message.timestamp)
        return found if games <= set(found) else None

    posted = await fake.wait_for(results_posted, what="the results of every game", timeout=600)
    await asyncio.sleep(2.0)
    closed = {
        int(g): naive(datetime.fromisoformat(str(at)))
        for g, at in bot.query(
            "SELECT game_id, closed_at FROM phase WHERE name = 'S1901M' AND closed_at IS NOT NULL"
        )
    }
    after_results = [(naive(posted[g]) - closed[g]).total_seconds() for g in games if g in closed]
    spread = (max(closed.values()) - min(closed.values())).total_seconds() if closed else 0.0
    print(
        f"\nthe /ready storm: {len(closed)} phases closed by the last /ready (the answers took "
        f"{ready_took:.1f} s, the closes spread over {spread:.1f} s)"
    )
    clock.print(("/ready (the storm)",))
    if after_results:
        print(summary("results committed -> posted", after_results))
    if snapshots is not None:
        snapshots.cancel()
    during = watch.memory[mark:]
    if during:
        print(f"bot resident memory while every game closed: {max(during):.0f} MiB at most ({watch.at_most})")


async def snapshot_the_highs(watch: Bot, mark: int, apart: float = 4.0) -> None:
    """While every game closes, a snapshot of the traced bot each time its resident memory reaches a
    new high, 2 MiB over the last snapshot's, at most one every ``apart`` seconds."""
    last = max(watch.memory[mark:] or [0.0])
    while True:
        await asyncio.sleep(0.5)
        now = watch.memory[-1] if watch.memory else 0.0
        if now >= last + 2:
            watch.snapshot()
            print(f"(snapshot while closing: {now:.0f} MiB)")
            last = now
            await asyncio.sleep(apart)


async def run(args: argparse.Namespace) -> None:
    scenario = {**SCENARIOS[args.scenario], **{k: v for k, v in vars(args).items() if v is not None}}
    games, seconds, think, spread = (
        scenario["games"],
        scenario["seconds"],
        scenario["think"],
        scenario["spread"],
    )
    clock = Clock()
    root = Path(args.bot_root).resolve() if args.bot_root else None
    if root is not None:  # a zygote (harness.zygote) would run the bot it imported: this checkout's
        os.environ["TEST_ZYGOTE"] = "0"
    print(
        f"scenario {args.scenario}: {games} games, play {seconds:.0f} s, pause {think} s ({spread}); "
        f"bot from {root or 'this checkout'}"
    )
    with tempfile.TemporaryDirectory(prefix="gm-bench-load-") as tmp:
        path = Path(tmp)
        # The schema made first, by the bot's own code in a process of its own, as a deploy's first start
        # does: the bot measured starts on an up-to-date database, as it does every later time.
        database = f"sqlite+aiosqlite:///{path / 'bot.db'}"
        upgrade = [sys.executable, "-m", "db.migrate", database]
        subprocess.run(
            upgrade, cwd=root or Path(__file__).resolve().parent.parent, check=True, capture_output=True
        )
        async with fake_discord(reply_timeout=60) as fake:
            tables = await make_servers(fake, games)
            env = {
                "DISCORD_TOKEN": fake.token,
                "DATABASE_URL": database,
                "SYNC_COMMANDS": "true",
                "CLOSE_WORKERS": str(args.workers),
                "LOG_LEVEL": "INFO",
                "HEALTH_PORT": "0",
                # BENCH_PYTHONPATH: a directory of packages added for the bot (e.g. a speed extra to measure)
                "PYTHONPATH": ":".join(
                    [str(root or Path(__file__).resolve().parent.parent)]
                    + ([str(Path(__file__).resolve().parent.parent)] if root else [])
                    + ([os.environ["BENCH_PYTHONPATH"]] if os.environ.get("BENCH_PYTHONPATH") else [])
                    # BENCH_SAMPLE=PREFIX (with TEST_ZYGOTE=0): bench/sampler profiles the bot over the play
                    + (
                        [str(Path(__file__).resolve().parent / "sampler")]
                        if os.environ.get("BENCH_SAMPLE")
                        else []
                    )
                ),
                **({"BOT_PROFILE": str(Path(args.profile).resolve())} if args.profile else {}),
                # BENCH_EVENT_LOOP=asyncio|uvloop: the bot's EVENT_LOOP (ops.eventloop), to compare the two
                **(
                    {"EVENT_LOOP": os.environ["BENCH_EVENT_LOOP"]}
                    if os.environ.get("BENCH_EVENT_LOOP")
                    else {}
                ),
                # BENCH_TRACEMALLOC=N: what the bot holds, traced (slows the bot): with --profile,
                # FILE.memory; and snapshots at the end of the play and while every game closes
                # (BENCH_SNAPSHOTS=PREFIX: PREFIX.1, PREFIX.2...; see harness.bot_process)
                **(
                    {
                        "PYTHONTRACEMALLOC": os.environ["BENCH_TRACEMALLOC"],
                        "BOT_SNAPSHOTS": str(Path(os.environ.get("BENCH_SNAPSHOTS", "bot-memory")).resolve()),
                    }
                    if "BENCH_TRACEMALLOC" in os.environ
                    else {}
                ),
            }
            async with bot_process(path, fake_url=fake.base_url, **env) as process:
                await process.line_with("ready: connected to Discord", timeout=120)
                t0 = time.perf_counter()
                started = await set_up(fake, process, tables)
                set_up_seconds = time.perf_counter() - t0
                process.send(signal.SIGTERM)
                await process.exit_code(timeout=120)
            # the mid-game positions written from outside while no bot runs, then the bot started again
            # (as after an operator's change): it reads the games as they are now
            mid_game(process, [game_id for game_id, _ in started])
            async with bot_process(path, fake_url=fake.base_url, **env) as process:
                await process.line_with("ready: connected to Discord", timeout=120)
                # the start's background work done: the jobs rebuilt, the direct messages sent while it
                # was down read, the players' orders held (a bot that holds them: this one, since then)
                await process.line_with("start-up:", timeout=120)
                await process.line_with("direct messages sent while offline: read", timeout=300)
                with contextlib.suppress(AssertionError):
                    await process.line_with("held the players' orders of every running game", timeout=15)
                watch = Bot(process)
                health = re.search(r"on (http://\S+/healthz)", process.output)
                watch.health = health[1] if health else None
                sampler = asyncio.create_task(watch.sample())
                await asyncio.sleep(1.0)  # a memory sample
                print(
                    f"{len(started)} games of 7 players set up in {set_up_seconds:.0f} s, the bot started "
                    f"again (load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores); "
                    f"bot {watch.memory[-1] if watch.memory else 0:.0f} MiB resident"
                )
                if args.idle:  # the bot's own work with no interaction: what the play's window holds besides
                    idle_cpu = watch.cpu_seconds()
                    await asyncio.sleep(args.idle)
                    idle_cpu = watch.cpu_seconds() - idle_cpu
                    print(
                        f"bot CPU with no interaction, {args.idle:.0f} s after the set-up: "
                        f"{1000 * idle_cpu / args.idle:.1f} ms/s"
                    )
                mark, lag_mark = len(watch.memory), len(watch.lag)
                bot_cpu, own_cpu = watch.cpu_seconds(), time.process_time()
                calls_before = len(fake.rest_log)
                if os.environ.get("BENCH_SAMPLE"):  # bench/sampler, in the bot, starts now
                    Path(os.environ["BENCH_SAMPLE"] + ".start").touch()
                if args.profile:
                    process.send(signal.SIGUSR1)  # starts the profile
                t0 = time.perf_counter()
                until = t0 + seconds if seconds else 0.0
                players = [
                    Player(fake, clock, table, game_id, seat, think, spread).play(until)
                    for game_id, table in started
                    for seat in range(7)
                ]
                if scenario.get("flood"):
                    first = started[0][1]
                    players.append(flood(fake, clock, first.mod, first.onlooker, first, until))
                await one_per_round(players)
                took = time.perf_counter() - t0
                if os.environ.get("BENCH_SAMPLE"):
                    Path(os.environ["BENCH_SAMPLE"] + ".stop").touch()
                if args.profile:
                    written = Path(args.profile).stat().st_mtime if Path(args.profile).exists() else None
                    process.send(signal.SIGUSR1)  # writes it (a traced bot's memory first: many seconds)
                    for _ in range(240):
                        await asyncio.sleep(0.5)
                        if Path(args.profile).exists() and Path(args.profile).stat().st_mtime != written:
                            break
                    print("profile:", args.profile, Path(args.profile).exists())
                bot_cpu, own_cpu = watch.cpu_seconds() - bot_cpu, time.process_time() - own_cpu
                watch.snapshot()  # the end of the play (traced: BENCH_TRACEMALLOC)
                during, lags = watch.memory[mark:], watch.lag[lag_mark:]
                count = clock.count()
                flooded = len(clock.first.get(OTHERS[1], []))
                print(
                    f"\n{count} interactions in {took:.1f} s ({count / took:.1f}/s; load average "
                    f"{os.getloadavg()[0]:.2f}):"
                )
                clock.print(KINDS)
                sends = clock.sent[: len(started) * 7]
                if sends:
                    print(
                        f"the players' first {len(sends)} interactions sent over "
                        f"{1000 * (max(sends) - min(sends)):.0f} ms"
                    )
                routes: dict[str, int] = defaultdict(int)
                for call in fake.rest_log[calls_before:]:
                    routes[f"{call.method} {call.route}"] += 1
                print(
                    "the bot's calls to Discord in the play: "
                    + ", ".join(f"{route} {n}" for route, n in sorted(routes.items(), key=lambda r: -r[1]))
                )
                print(
                    f"bot CPU {bot_cpu:.1f} s: {1000 * bot_cpu / max(1, count):.1f} ms per interaction"
                    + (f" (the flood's {flooded} included)" if flooded else "")
                    + f"; the fake and the players {own_cpu:.1f} s"
                )
                if lags:
                    print(
                        f"bot event loop lag: median {statistics.median(lags):.0f} ms, "
                        f"p95 {sorted(lags)[int(len(lags) * 0.95)]:.0f} ms, max {max(lags):.0f} ms"
                    )
                if during:
                    print(
                        f"bot resident memory during the play: {statistics.median(during):.0f} MiB median, "
                        f"{max(during):.0f} MiB at most ({watch.at_most})"
                    )
                if not args.no_close:
                    if args.latency:
                        fake.slow_down("POST /channels/*/messages", args.latency, times=10**6)
                    await close_all(fake, process, watch, started)
                    await asyncio.sleep(SETTLE_SECONDS)  # the bot gives free heap pages back every 10 s
                    print(f"bot resident memory {SETTLE_SECONDS:.0f} s later: {rss_mib(watch.pid):.0f} MiB")
                sampler.cancel()
                if os.environ.get("BENCH_BOT_LOG"):
                    Path(os.environ["BENCH_BOT_LOG"]).write_text(process.output)
                print(f"bot resident memory at most, over the whole run: {max(watch.memory):.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--games", type=int)
    parser.add_argument("--seconds", type=float, help="how long the players play (0: once through)")
    parser.add_argument("--think", type=float, help="a player's pause after an answer (s)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--latency", type=float, default=0.1, help="seconds Discord takes to accept a post")
    parser.add_argument("--no-close", action="store_true", help="skip the /ready storm")
    parser.add_argument("--bot-root", help="run the bot from this checkout (default: this one)")
    parser.add_argument("--profile", help="cProfile the bot's event loop over the play, into this file")
    parser.add_argument(
        "--idle", type=float, default=0.0, help="seconds the bot is left idle before the play"
    )
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
