"""Benchmark: the bot under load. 50 running seven-player games (350 players) all interacting at once,
then all 50 closing together; the bot as its own process (production start-up, 2 worker processes)
against the loopback fake Discord. Prints its figures; asserts nothing.

    .venv/bin/python bench/load.py [--games 50] [--rounds 2] [--latency 0.1] [--bot-root PATH]

What each player does, all players at once (each starts at a random moment of the first
``--think`` seconds, and pauses about that long after every answer, as a person reads and types),
``--rounds`` times: opens the orders form (``/orders edit``: Discord allows 3 seconds to open it, and
it cannot be deferred) and submits it, sends ``/order``, a direct message of orders, asks for
``/map`` and ``/orders show``. The figure is each interaction's *first answer*: the callback that
acknowledges it (a message, a form, or "thinking..."), or the first direct message back.

Then every player says ``/ready``, so the 50 phases close within moments of each other; with
``--latency`` seconds added to every message the bot posts (Discord's own latency; the fake answers
at once otherwise), it measures how long after each phase's results were committed its results
post, and the last of its calls to order, appeared.

``--bot-root`` runs the bot from another checkout (to compare with the code before a change); the
fake and this script stay the same. The bot's resident memory (without its worker processes) is
sampled throughout.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import rss_mib, summary
from harness.bot_helpers import MODERATOR_ROLE, Table, create_game, join_everyone, seats_from_welcomes
from harness.fakediscord import FakeDiscord, Message, Permission, fake_discord
from harness.processes import BotProcess, bot_process

SETTLE_SECONDS = 12.0  # after the closes, the bot's memory is read again (ops.memory trims every 10 s)
GAMES_PER_SERVER = 25  # 250 channels and 525 threads: within Discord's 500 and 1,000
OPENINGS = {  # two valid order sets per power for Spring 1901
    "AUSTRIA": ("A Vie-Gal\nA Bud-Ser\nF Tri-Alb", "A Vie-Tri\nA Bud-Rum\nF Tri-Ven"),
    "ENGLAND": ("F Lon-NTH\nF Edi-NWG\nA Lvp-Yor", "F Lon-ENG\nF Edi-NTH\nA Lvp-Edi"),
    "FRANCE": ("A Par-Bur\nA Mar-Spa\nF Bre-MAO", "A Par-Pic\nA Mar-Bur\nF Bre-ENG"),
    "GERMANY": ("A Ber-Kie\nA Mun-Ruh\nF Kie-Den", "A Ber-Pru\nA Mun-Bur\nF Kie-Hol"),
    "ITALY": ("A Ven-Tyr\nA Rom-Apu\nF Nap-ION", "A Ven H\nA Rom-Ven\nF Nap-TYS"),
    "RUSSIA": (
        "A Mos-Ukr\nA War-Gal\nF Sev-BLA\nF StP/sc-BOT",
        "A Mos-StP\nA War-Sil\nF Sev-Rum\nF StP/sc-FIN",
    ),
    "TURKEY": ("A Con-Bul\nA Smy-Con\nF Ank-BLA", "A Con-Bul\nA Smy-Arm\nF Ank-Con"),
}
KINDS = ("/orders edit (form)", "form submitted", "/order", "DM of orders", "/map", "/orders show")
RESULTS = ("form submitted: the answer", "/order: the answer", "/map: the picture")


class Waits:
    def __init__(self) -> None:
        self.seconds: dict[str, list[float]] = defaultdict(list)
        self.missed: dict[str, int] = defaultdict(int)  # no answer within Discord's 3 seconds
        self.failed: dict[str, list[str]] = defaultdict(list)

    async def time(self, kind: str, action, answered, result: str | None = None) -> object:
        """Run ``action()`` (a user's action, returning a handle), then ``answered(handle)`` (the first
        answer); record the seconds between. With ``result``, also the seconds until the message the
        user ends up seeing (after a "thinking..." first answer)."""
        began = time.perf_counter()
        try:
            handle = await action()
            await answered(handle)
            took = time.perf_counter() - began
            if result is not None:
                await handle.message(timeout=30)
                self.seconds[result].append(time.perf_counter() - began)
        except Exception as exc:
            self.failed[kind].append(f"{type(exc).__name__}: {str(exc)[:160]}")
            return None
        self.seconds[kind].append(took)
        if took > 3.0:
            self.missed[kind] += 1
        return handle


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


async def set_up(fake: FakeDiscord, tables: list[Table]) -> list[tuple[int, Table]]:
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


async def player(
    fake: FakeDiscord, waits: Waits, table: Table, game_id: int, user_id: int, rounds: int, think: float
) -> None:
    """One player's turns: each round, the form (opened, then submitted), /order, a DM, /map and
    /orders show, with a human's pause (``think`` seconds on average) after each answer."""
    user = next(u for u in table.players if u.id == user_id)
    power = table.power_of[user_id]
    game = {"game": str(game_id)}
    rng = random.Random(user_id)

    async def pause() -> None:
        await asyncio.sleep(think * (0.5 + rng.random()))

    await asyncio.sleep(rng.random() * max(think, 1.0))
    for round_ in range(rounds):
        orders = OPENINGS[power][round_ % 2]
        opened = await waits.time(
            KINDS[0],
            lambda: fake.slash(user, "orders", "edit", options=game, channel=table.general),
            lambda h: h.modal(timeout=15),
        )
        if opened is not None:
            await pause()
            await waits.time(
                KINDS[1],
                lambda o=opened, text=orders: fake.submit_modal(user, o, {"orders": text}),
                lambda h: h.response(timeout=15),
                RESULTS[0],
            )
        await pause()
        await waits.time(
            KINDS[2],
            lambda text=orders: fake.slash(
                user, "order", options={**game, "text": text.replace("\n", "; ")}, channel=table.general
            ),
            lambda h: h.response(timeout=15),
            RESULTS[1],
        )
        await pause()
        await waits.time(KINDS[3], lambda text=orders: fake.dm_bot(user, text), lambda h: h.reply(timeout=15))
        await pause()
        await waits.time(
            KINDS[4],
            lambda: fake.slash(user, "map", options=game, channel=table.general),
            lambda h: h.response(timeout=15),
            RESULTS[2],
        )
        await pause()
        await waits.time(
            KINDS[5],
            lambda: fake.slash(user, "orders", "show", options=game, channel=table.general),
            lambda h: h.response(timeout=15),
        )
        await pause()


def naive(at: datetime) -> datetime:
    """A UTC time without its time zone (the database's and the fake's, compared)."""
    return at.astimezone(UTC).replace(tzinfo=None) if at.tzinfo else at


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process has used so far."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0


async def sample_memory(pid: int, samples: list[float]) -> None:
    while True:
        samples.append(rss_mib(pid))
        await asyncio.sleep(0.5)


async def close_all(fake: FakeDiscord, bot: BotProcess, started: list[tuple[int, Table]]) -> None:
    """Everybody says /ready: each phase closes as its last player does. Then: results committed ->
    results posted, and -> the last call to order posted, per game."""
    waits = Waits()
    t0 = time.perf_counter()
    await asyncio.gather(
        *(
            waits.time(
                "/ready",
                lambda u=user, g=game_id, t=table: fake.slash(
                    u, "ready", options={"game": str(g)}, channel=t.general
                ),
                lambda h: h.response(timeout=15),
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
            if "Spring 1901 Movement" in title and "results" in title and game is not None:
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
    calls: dict[int, datetime] = {}
    for message in fake.world.messages.values():
        if message.author_id == fake.world.bot.id and "has begun: your orders, please" in (
            message.content or ""
        ):
            game = game_of(message)
            if game is not None:
                calls[game] = max(calls.get(game, message.timestamp), message.timestamp)
    after_results = [(naive(posted[g]) - closed[g]).total_seconds() for g in games if g in closed]
    after_calls = [(naive(calls[g]) - closed[g]).total_seconds() for g in games if g in closed and g in calls]
    spread = (max(closed.values()) - min(closed.values())).total_seconds() if closed else 0.0
    print(
        f"\n{len(closed)} phases closed by the last /ready (the /ready answers took {ready_took:.1f} s, "
        f"the closes spread over {spread:.1f} s)"
    )
    print(summary("/ready answered", waits.seconds["/ready"]))
    if after_results:
        print(summary("results committed -> posted", after_results))
    if after_calls:
        print(summary("... -> last call to order posted", after_calls))


async def run(args: argparse.Namespace) -> None:
    waits = Waits()
    memory: list[float] = []
    root = Path(args.bot_root).resolve() if args.bot_root else None
    with tempfile.TemporaryDirectory(prefix="gm-bench-load-") as tmp:
        path = Path(tmp)
        async with fake_discord(reply_timeout=60) as fake:
            tables = await make_servers(fake, args.games)
            env = {
                "DISCORD_TOKEN": fake.token,
                "DATABASE_URL": f"sqlite+aiosqlite:///{path / 'bot.db'}",
                "SYNC_COMMANDS": "true",
                "CLOSE_WORKERS": str(args.workers),
                "LOG_LEVEL": "INFO",
                **({"PYTHONPATH": str(root)} if root else {}),
            }
            async with bot_process(path, fake_url=fake.base_url, **env) as bot:
                await bot.line_with("ready: connected to Discord", timeout=120)
                sampler = asyncio.create_task(sample_memory(bot.process.pid, memory))
                t0 = time.perf_counter()
                started = await set_up(fake, tables)
                setup_memory = memory[-1] if memory else 0.0
                print(
                    f"{len(started)} games of 7 players set up in {time.perf_counter() - t0:.0f} s "
                    f"(load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores); "
                    f"bot process {setup_memory:.0f} MiB resident"
                )
                during: list[float] = []
                mark = len(memory)
                bot_cpu, own_cpu = cpu_seconds(bot.process.pid), time.process_time()
                t0 = time.perf_counter()
                await asyncio.gather(
                    *(
                        player(fake, waits, table, game_id, user.id, args.rounds, args.think)
                        for game_id, table in started
                        for user in table.players
                    )
                )
                took = time.perf_counter() - t0
                bot_cpu, own_cpu = cpu_seconds(bot.process.pid) - bot_cpu, time.process_time() - own_cpu
                during = memory[mark:]
                load = os.getloadavg()
                every = [s for kind in KINDS for s in waits.seconds[kind]]
                print(
                    f"\n{len(every)} interactions of {sum(len(t.players) for _, t in started)} players in "
                    f"{took:.1f} s (load average {load[0]:.2f}); first answers:"
                )
                for kind in KINDS:
                    if waits.seconds[kind]:
                        late = f"   over 3 s: {waits.missed[kind]}" if waits.missed[kind] else ""
                        print(summary(kind, waits.seconds[kind]) + late)
                    if waits.failed[kind]:
                        print(f"  {kind}: {len(waits.failed[kind])} failed, e.g. {waits.failed[kind][0]}")
                print(summary("all", every))
                print(
                    f"CPU meanwhile: the bot process {bot_cpu:.1f} s "
                    f"({1000 * bot_cpu / len(every):.1f} ms per interaction), "
                    f"the fake and the players {own_cpu:.1f} s"
                )
                print("until the answer itself:")
                for kind in RESULTS:
                    if waits.seconds[kind]:
                        print(summary(kind, waits.seconds[kind]))
                if during:
                    print(
                        f"bot process resident memory during the load: {statistics.median(during):.0f} MiB "
                        f"median, {max(during):.0f} MiB at most"
                    )
                if args.latency:
                    fake.slow_down("POST /channels/*/messages", args.latency, times=10**6)
                await close_all(fake, bot, started)
                sampler.cancel()
                print(f"bot process resident memory at the end: {rss_mib(bot.process.pid):.0f} MiB")
                await asyncio.sleep(SETTLE_SECONDS)  # the bot gives free heap pages back every 10 s
                print(
                    f"bot process resident memory {SETTLE_SECONDS:.0f} s later: "
                    f"{rss_mib(bot.process.pid):.0f} MiB"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--think", type=float, default=5.0, help="a player's pause after an answer (s)")
    parser.add_argument("--latency", type=float, default=0.1, help="seconds Discord takes to accept a post")
    parser.add_argument("--bot-root", help="run the bot from this checkout (default: this one)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
