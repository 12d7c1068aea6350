"""Helpers for the bot's end-to-end tests: a server with seven players, the real bot built the
production way (settings, migrations at start-up, real scheduler) on a temporary SQLite file, and the
steps of a game as users perform them through the fake Discord."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import re
import tempfile
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import discord

from bot import DiplomacyBot
from config import Settings
from db.models import PhaseRecord
from gm.clock import utcnow
from gm.reading.lookup import latest_phase
from gm.setup.games import get_game
from harness.fakediscord import (
    Channel,
    FakeDiscord,
    Guild,
    InteractionHandle,
    Message,
    Permission,
    Role,
    User,
    fake_discord,
    running_bot,
)
from harness.fakediscord.payloads import mentions_of
from harness.fakediscord.state import walk_components
from harness.template_db import migrated_copy

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
MODERATOR_ROLE = "Diplomacy Moderator"


@dataclass
class Table:
    """A server ready for a game: seven players, a moderator, an onlooker."""

    guild: Guild
    general: Channel
    moderators: Role
    players: list[User]
    mod: User
    onlooker: User
    power_of: dict[int, str] = field(default_factory=dict)  # user id -> (first) power, once started
    seats: dict[int, tuple[str, ...]] = field(default_factory=dict)  # user id -> every power they hold

    def player(self, power: str) -> User:
        for user in self.players:
            if power in self.seats.get(user.id, ()) or self.power_of.get(user.id) == power:
                return user
        raise KeyError(power)


async def make_table(
    fake: FakeDiscord,
    players: int = 7,
    *,
    mentionable: bool = True,
    name: str = "Diplomacy Club",
    shard: tuple[int, int] | None = None,
) -> Table:
    """``mentionable``: the moderator role may be @mentioned, as the README asks admins to set it;
    ``shard`` (id, count): the server's id puts it on that shard (a sharded bot's test)."""
    guild = await fake.create_guild(name, shard=shard)
    moderators = await fake.create_role(
        guild, MODERATOR_ROLE, Permission.MANAGE_THREADS, mentionable=mentionable
    )
    users = [await fake.create_user(f"player{i}") for i in range(players)]
    for user in users:
        await fake.add_member(guild, user)
    mod = await fake.create_user("mod")
    await fake.add_member(guild, mod, moderators)
    onlooker = await fake.create_user("onlooker")
    await fake.add_member(guild, onlooker)
    general = await fake.create_channel(guild, "general")
    return Table(guild, general, moderators, users, mod, onlooker)


def make_settings(tmp_path: Path, **overrides: object) -> Settings:
    values: dict[str, Any] = {  # pydantic checks them: a wrong override fails the test at once
        "discord_token": "unused: the fake hands its own token to running_bot",
        "database_url": f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}",
        "moderator_role": MODERATOR_ROLE,
        "sync_commands": True,
        "close_workers": 0,
        # The harness's members are scripts, tapping faster than any player (hundreds in seconds):
        # the per-member rate limit (ops.limits) is the production one only where a test asks for it.
        "member_burst": 10_000,
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)


@contextlib.asynccontextmanager
async def running(fake: FakeDiscord, tmp_path: Path, **overrides: object) -> AsyncIterator[DiplomacyBot]:
    """A bot connected to ``fake`` for the block, on ``tmp_path``'s bot.db unless ``database_url`` is
    given; a bot.db not made yet starts as a copy of the migrated template (harness.template_db)."""
    if "database_url" not in overrides and tmp_path.is_dir():
        await migrated_copy(tmp_path / "bot.db")
    bot = DiplomacyBot(make_settings(tmp_path, **overrides), guild_ready_timeout=0.2)
    bot.before_identify_hook = _identify_at_once  # type: ignore[method-assign]
    async with running_bot(bot, fake) as client:
        yield client


async def _identify_at_once(shard_id: int | None, *, initial: bool = False) -> None:
    """discord.py waits 5 s before identifying each shard after the first (Discord's limit on new
    sessions); the fake has no such limit, so the harness's bots identify their shards at once."""


LISTENER_TASKS = (
    "discord.py: on_",  # an event's listeners (on_message: orders by DM or mention)
    "CommandTree-invoker",  # a slash command
    "discord-ui-view-dispatch-",  # a button or select
    "discord-ui-modal-dispatch-",  # a submitted form
)
"""How discord.py names the tasks in which it runs the bot's handlers of one event."""


async def listeners_done(timeout: float = 60) -> None:
    """Wait until the bot's handlers of every event it has parsed have finished: discord.py runs each
    in a task of its own, so a parsed event does not mean a handled one."""
    current = asyncio.current_task()
    while True:
        pending = [
            task
            for task in asyncio.all_tasks()
            if task is not current and not task.done() and task.get_name().startswith(LISTENER_TASKS)
        ]
        if not pending:
            return
        _, still = await asyncio.wait(pending, timeout=timeout)
        if still:
            raise TimeoutError(f"handlers still running after {timeout} s: {[t.get_name() for t in still]}")


async def settle(bot: DiplomacyBot, fake: FakeDiscord) -> None:
    """Wait until every event sent so far is handled, and background work (early closes), scheduler jobs
    and outbox deliveries are done: at most three rounds, ending after the first that found nothing to
    do (no call to the fake, no event, nothing sent or waiting in the outbox)."""
    for _ in range(3):
        before = _activity(fake)
        await fake.flush()  # the bot has parsed every event sent so far ...
        await listeners_done()  # ... and its handlers have finished
        await bot.services.idle()  # the cogs' own background work (a Join post's edit)
        await bot.runtime.idle()  # the gamemaster's (an early close)
        await bot.runtime.scheduler.idle(timeout=60)
        report = await bot.runtime.deliver()
        await fake.flush()
        busy = report is None or report.sent or report.retrying or report.failed or report.pending
        if not busy and _activity(fake) == before:
            return


def _activity(fake: FakeDiscord) -> tuple[int, ...]:
    """What the fake has seen so far: the bot's REST calls and the events sent to each shard."""
    return (len(fake.rest_log), *(s.seq for s in fake.gateway.sessions.values()))


def game_number(text: str) -> int:
    match = re.search(r"#(\d+)", text)
    assert match, f"no game number in {text!r}"
    return int(match[1])


async def create_game(fake: FakeDiscord, table: Table, name: str, **options: object) -> int:
    reply = await (
        await fake.slash(
            table.players[0], "game", "create", options={"name": name, **options}, channel=table.general
        )
    ).message()
    assert reply.ephemeral, reply.content
    return game_number(reply.content)


async def join_everyone(fake: FakeDiscord, table: Table, game_id: int) -> None:
    """Half the players press the Join button under the announcement, the others use /game join."""
    announcements = [m for m in fake.channel_messages(table.general) if f"join:{game_id}" in m.custom_ids()]
    announcement = announcements[-1]  # the newest: another database's game may have had the number
    for index, user in enumerate(table.players[1:]):
        if index % 2 == 0:
            handle = await fake.click(user, announcement, f"join:{game_id}")
        else:
            handle = await fake.slash(
                user, "game", "join", options={"game": str(game_id)}, channel=table.general
            )
        reply = await handle.message()
        assert reply.ephemeral and "You joined" in reply.content, reply.content


WELCOME_ROUNDS = 40
"""settle()s at most after a start until each player whose DMs are closed has their welcome: settle()
ends after three rounds, and under load a welcome sent to a player's channel after their DMs refused it
(the outbox's next try) could come after them (a test then found no seat for that player)."""
WELCOME_WAIT = 15.0
"""... and at least this many seconds (the outbox's next try waits its back-off; a busy machine's
settle()s may all end before it)."""


async def start_game(fake: FakeDiscord, bot: DiplomacyBot, table: Table, game_id: int) -> Message:
    handle = await fake.slash(
        table.players[0], "game", "start", options={"game": str(game_id)}, channel=table.general
    )
    reply = await handle.message(timeout=30)
    await settle(bot, fake)
    seats = seats_from_welcomes(fake, table, game_id)
    closed = [user for user in table.players if not user.dms_open]
    waited_until = asyncio.get_running_loop().time() + WELCOME_WAIT
    rounds = 0
    # a welcome that goes another way may need more rounds: at least WELCOME_ROUNDS, and on a slow
    # machine until WELCOME_WAIT seconds have passed
    while closed and not all(user.id in seats for user in closed):
        if rounds >= WELCOME_ROUNDS and asyncio.get_running_loop().time() > waited_until:
            break
        rounds += 1
        await asyncio.sleep(0.05)
        await settle(bot, fake)
        seats = seats_from_welcomes(fake, table, game_id)
    table.seats.update(seats)
    table.power_of.update({user: powers[0] for user, powers in seats.items()})
    return reply


def seats_from_welcomes(
    fake: FakeDiscord, table: Table, game_id: int, *, dms_only: bool = False
) -> dict[int, tuple[str, ...]]:
    """Who plays what, as each player learns it: the welcome's title, "You play France in ..." or
    "You play Austria and France in ..." (a DM, or in their private channel when their DMs are closed).
    ``dms_only``: read their DMs alone (quicker on a server with many games: the benches).

    The game's welcomes are picked out of the server's messages once, then each player's are those
    they can see (a server of many games holds many messages: reading each player's every visible
    message was a test's largest share of a game's start)."""
    world = fake.world
    welcomes = [
        (m, seats) for m in world.messages.values() if not m.deleted and (seats := _welcome_seats(m, game_id))
    ]
    found = {}
    for user in table.players:
        dm = world.dm_channel(user.id)
        sees: dict[int, bool] = {}
        for message, seats in welcomes:
            if message.ephemeral_to is not None:
                seen = message.ephemeral_to == user.id and not dms_only
            elif dms_only:
                seen = dm is not None and message.channel_id == dm.id
            else:
                if message.channel_id not in sees:
                    sees[message.channel_id] = world.sees_channel(user.id, message.channel_id)
                seen = sees[message.channel_id]
            if seen:
                found[user.id] = seats[-1]
    return found


def _welcome_seats(message: Message, game_id: int) -> list[tuple[str, ...]]:
    """The powers each welcome to game ``game_id`` in ``message`` names (most have one), in order."""
    seats = []
    told = [(e.get("title", ""), (e.get("footer") or {}).get("text", "")) for e in message.embeds]
    first = layout_text(message)  # a welcome by DM is a layout: its text, then the order sheet
    if first:
        told.append((first, first))
    for title, footer in told:
        match = re.search(r"You play ([\w, ]+?) in ", title)
        if match and f"Game #{game_id}" in footer:
            seats.append(tuple(p.upper() for p in re.split(r", | and ", match[1])))
    return seats


def layout_text(message: Message) -> str:
    """The first text display of a Components V2 message (a call to order's words), or ""."""
    for component in walk_components(message.components):
        if component.get("type") == 10:
            return str(component.get("content") or "")
    return ""


async def deadline_passes(bot: DiplomacyBot, fake: FakeDiscord, game_id: int) -> None:
    """Time travel: the open phase's deadline is now. The real deadline job closes it."""
    async with bot.runtime.sessions() as session:
        phase = await latest_phase(session, game_id)
        assert phase is not None and phase.status == "open"
        record = await session.get(PhaseRecord, phase.id)
        assert record is not None
        record.deadline = utcnow() - timedelta(seconds=1)
        await session.commit()
    await bot.runtime.scheduler.rebuild_from_db()
    await settle(bot, fake)


async def current_phase(bot: DiplomacyBot, game_id: int) -> PhaseRecord:
    async with bot.runtime.sessions() as session:
        phase = await latest_phase(session, game_id)
        assert phase is not None
        return phase


def place_name(game_id: int, name: str) -> str:
    """A game's place name without its random place tag: ``g3-k7q2-france`` -> ``g3-france``."""
    return re.sub(rf"^g{game_id}-[a-z0-9]{{4}}-", f"g{game_id}-", name)


def place_named(fake: FakeDiscord, guild: Guild, game_id: int, name: str) -> Channel:
    """A game's channel by its name without the tag (``g3-france``)."""
    for channel in fake.guild_channels(guild):
        if place_name(game_id, channel.name) == name and channel.name != name:
            return channel
    raise KeyError(f"no channel like {name!r}; channels: {[c.name for c in fake.guild_channels(guild)]}")


def guild_channel(bot: discord.Client, channel: Channel) -> discord.abc.GuildChannel:
    """discord.py's object for a server channel of the fake, as the bot's cache holds it."""
    found = bot.get_channel(channel.id)
    assert isinstance(found, discord.abc.GuildChannel), (
        f"the bot has no server channel {channel.name}: {found}"
    )
    return found


def bot_messages(fake: FakeDiscord, channel: Channel) -> list[Message]:
    return [m for m in fake.channel_messages(channel) if m.author_id == fake.world.bot.id]


CALL_TO_ORDER = re.compile(r"<@(\d+)>, .+ has begun: your orders, please\.")


def pings(fake: FakeDiscord, *, calls_to_order: bool = False) -> list[tuple[Message, dict]]:
    """Bot messages that notify someone (a mention that pings, or @everyone). A phase's call to order
    mentions its player on purpose: left out unless ``calls_to_order`` (see :func:`calls_to_order`)."""
    found = []
    for message in fake.world.messages.values():
        if message.author_id != fake.world.bot.id:
            continue
        mentions = mentions_of(fake.world, message)
        if mentions["mentions"] or mentions["mention_roles"] or mentions["mention_everyone"]:
            if not calls_to_order and is_call_to_order(message, mentions):
                continue
            found.append((message, mentions))
    return found


def is_call_to_order(message: Message, mentions: dict) -> bool:
    """A phase's call to order: it mentions exactly the one player it calls, and nobody else."""
    match = CALL_TO_ORDER.match(message.content or layout_text(message))
    return (
        match is not None
        and [int(u["id"]) for u in mentions["mentions"]] == [int(match[1])]
        and not mentions["mention_roles"]
        and not mentions["mention_everyone"]
    )


def calls_to_order(fake: FakeDiscord) -> list[tuple[Message, int]]:
    """Every call to order the bot posted: the message and the user it notified."""
    return [
        (message, int(mentions["mentions"][0]["id"]))
        for message, mentions in pings(fake, calls_to_order=True)
        if is_call_to_order(message, mentions)
    ]


def viewers(fake: FakeDiscord, channel: Channel, users: list[User]) -> set[str]:
    return {u.username for u in users if fake.can_view(u, channel)}


async def started_game(
    fake: FakeDiscord, bot: DiplomacyBot, table: Table, name: str = "Test game", **options: object
) -> int:
    game_id = await create_game(fake, table, name, **options)
    await join_everyone(fake, table, game_id)
    await start_game(fake, bot, table, game_id)
    return game_id


async def ask(
    fake: FakeDiscord, user: User, *path: str, channel: Channel | None = None, **options: object
) -> Message:
    """``user`` runs a slash command; the bot's (first) answer."""
    return await (await fake.slash(user, *path, options=options, channel=channel)).message()


async def whole_answer(fake: FakeDiscord, handle: InteractionHandle, until: str = "orders due") -> str:
    """Every message the bot showed for one interaction, joined, once one of them contains ``until``
    (a long answer comes in several messages; the answer to orders ends with the deadline)."""
    await handle.message()

    def probe() -> str | None:
        texts = [m.content for m in handle.messages()]
        return "\n".join(texts) if any(until in t for t in texts) else None

    return await fake.wait_for(probe, what=f"an answer containing {until!r}")


@contextlib.asynccontextmanager
async def a_started_game(
    name: str, *, fake_options: dict[str, Any] | None = None, **overrides: object
) -> AsyncIterator[tuple[FakeDiscord, Table, DiplomacyBot, int]]:
    """Outside the tests (benchmarks, the README's pictures): a fake Discord (``fake_options``), its
    table, the bot running on a database in a temporary folder (settings ``overrides``) and a
    Standard game called ``name`` started: the fake, the table, the bot and the game's number."""
    async with fake_discord(**(fake_options or {})) as fake:
        table = await make_table(fake)
        with tempfile.TemporaryDirectory() as folder:
            async with running(fake, Path(folder), **overrides) as bot:
                yield fake, table, bot, await started_game(fake, bot, table, name)


async def edit_board(bot: DiplomacyBot, game_id: int, change: Callable[[dict], None]) -> None:
    """Set up a position for a test: ``change`` edits the open phase's board (engine JSON) in place,
    as if the game had got there (an elimination takes years to play)."""
    async with bot.runtime.sessions() as session:
        phase = await latest_phase(session, game_id)
        assert phase is not None and phase.status == "open"
        record = await session.get(PhaseRecord, phase.id)
        assert record is not None
        board = copy.deepcopy(record.board)
        change(board)
        record.board = board
        await session.commit()


async def game_channel_of(bot: DiplomacyBot, fake: FakeDiscord, game_id: int) -> Channel:
    """The public channel of a game, as the bot recorded it."""
    async with bot.runtime.sessions() as session:
        game = await get_game(session, game_id)
    assert game.game_channel_id is not None
    return fake.world.channel(game.game_channel_id)


def embeds_titled(fake: FakeDiscord, channel: Channel, words: str) -> list[Message]:
    """The bot's messages in ``channel`` with an embed whose title contains ``words``."""
    return [m for m in bot_messages(fake, channel) if m.embeds and words in m.embeds[0].get("title", "")]


def embed_text(message: Message) -> str:
    """Title, description and fields of a message's embeds (or the text displays of a Components V2
    message: a call to order by DM), as one text."""
    parts = [str(c.get("content") or "") for c in walk_components(message.components) if c.get("type") == 10]
    for embed in message.embeds:
        parts += [embed.get("title", ""), embed.get("description", "")]
        parts += [f"{f['name']}: {f['value']}" for f in embed.get("fields", [])]
    return "\n".join(parts)


async def moderator_closes(fake: FakeDiscord, user: User, channel: Channel, game_id: int) -> str:
    """``user`` runs /mod close and confirms when the bot asks (a phase that opened less than a minute
    before); the answer they end up with."""
    answer = await ask(fake, user, "mod", "close", channel=channel, game=str(game_id))
    confirm = next((c for c in answer.custom_ids() if c.startswith("mod:close:")), None)
    if confirm is None:
        return answer.content
    edited = await (await fake.click(user, answer, confirm)).message()
    return str(
        await fake.wait_for(
            lambda: edited.content if "Working on it" not in edited.content else None,
            what="the outcome of a confirmed /mod close",
        )
    )


async def leaves_game(fake: FakeDiscord, user: User, channel: Channel, game_id: int) -> str:
    """``user`` runs /game leave and, for a started game, confirms with its **Leave the game** button;
    the answer they end up with."""
    asked = await ask(fake, user, "game", "leave", channel=channel, game=str(game_id))
    go = f"leave:{game_id}:{user.id}:go"
    if go not in asked.custom_ids():
        return asked.content
    return (await (await fake.click(user, asked, go)).message()).content
