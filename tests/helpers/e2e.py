"""Steps and readings shared by the end-to-end tests (beside harness/bot_helpers.py): a moderator's
command, a button read back, a short game ended, the places of a game, a transcript to read."""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

from bot import DiplomacyBot
from harness.bot_helpers import (
    Table,
    ask,
    create_game,
    deadline_passes,
    embeds_titled,
    game_channel_of,
    make_table,
    running,
    seats_from_welcomes,
    settle,
    started_game,
)
from harness.fakediscord import Channel, ChannelType, FakeDiscord, Guild, Message, User, fake_discord


def print_transcript(fake: FakeDiscord, table: Table) -> None:
    """What each user could see, to read (SHOW_TRANSCRIPT=1 pytest -s)."""
    for user in [*table.players, table.mod, table.onlooker]:
        print(f"\n======== {user.username} ({table.power_of.get(user.id, '-')}) ========")
        for message in fake.visible_messages(user):
            where = fake.world.channels[message.channel_id]
            print(f"--- #{where.name or 'DM'}{' (ephemeral)' if message.ephemeral else ''}")
            print(message.text)


async def everyone_but_ready(fake: FakeDiscord, table: Table, absent: User) -> None:
    for user in table.players:
        if user.id != absent.id:
            reply = await ask(fake, user, "ready", channel=table.general)
            assert "You are ready" in reply.content, reply.content


async def mod(fake: FakeDiscord, user: User, table: Table, *path: str, **options: object) -> Message:
    reply = await ask(fake, user, "mod", *path, channel=table.general, **options)
    assert reply.ephemeral, reply.content
    return reply


async def click_and_read(fake: FakeDiscord, user: User, message: Message, custom_id: str) -> str:
    """``user`` presses a confirmation button; the text the ephemeral message ends up with."""
    edited = await (await fake.click(user, message, custom_id)).message()
    return str(
        await fake.wait_for(
            lambda: edited.content if "Working on it" not in edited.content else None,
            what="the outcome of a confirmation",
        )
    )


async def ready_all(fake: FakeDiscord, table: Table) -> None:
    for user in table.players:
        await ask(fake, user, "ready", channel=table.general)


def eliminated(*powers: str) -> Callable[[dict], None]:
    """A board edit taking every unit and supply center from ``powers``."""

    def change(board: dict) -> None:
        for power in powers:
            board["units"].pop(power, None)
            board["centers"].pop(power, None)

    return change


def places_of(
    fake: FakeDiscord, guild: Guild, game_id: int
) -> tuple[list[Channel], list[Channel], list[Channel]]:
    """(categories, channels in them, threads) of a game, found by the names the bot gives."""
    everything = fake.guild_channels(guild)
    categories = [
        c
        for c in everything
        if c.type == ChannelType.GUILD_CATEGORY
        and re.match(rf"Diplomacy #{game_id} \[[a-z0-9]{{4}}\]:", c.name)
    ]
    inside = [c for c in everything if c.parent_id in {k.id for k in categories} and not c.is_thread]
    threads = [c for c in everything if c.is_thread and c.parent_id in {c.id for c in inside}]
    return categories, inside, threads


async def end_short_game(fake: FakeDiscord, bot: DiplomacyBot, table: Table, game_id: int) -> None:
    await deadline_passes(bot, fake, game_id)
    await ready_all(fake, table)
    await settle(bot, fake)


async def started_against_built_in_players(
    fake: FakeDiscord, bot: DiplomacyBot, table: Table, name: str, **options: object
) -> tuple[int, str, Channel, Message]:
    """A game ``name`` the first player creates with ``fill_seats`` (and ``options``) and starts: the
    built-in player takes every seat nobody took. Its number, the first player's power, the game
    channel and the start post there."""
    me = table.players[0]
    game_id = await create_game(fake, table, name, fill_seats=True, **options)
    started = await ask(fake, me, "game", "start", channel=table.general, game=str(game_id))
    assert "has started" in started.content, started.content
    await settle(bot, fake)
    mine = seats_from_welcomes(fake, table, game_id)[me.id][0]
    channel = await game_channel_of(bot, fake, game_id)
    [post] = embeds_titled(fake, channel, f"{name} has started")
    return game_id, mine, channel, post


@dataclass
class SharedGame:
    """One started game that several tests of a module look at, each through players of its own."""

    fake: FakeDiscord
    table: Table
    bot: DiplomacyBot
    game_id: int


@contextlib.asynccontextmanager
async def a_shared_game(folder: Path, players: int = 7, **options: object) -> AsyncIterator[SharedGame]:
    """A fake Discord, a table of ``players``, the bot on ``folder``'s database and a game "Shared"
    (``options``) started, for a module-scoped fixture. The module's tests that use it run in the
    module's event loop (``pytest.mark.asyncio(loop_scope="module")``), come one after the other in the
    module (xdist hands out adjacent tests), and must each pass alone and in any order: each acts
    through powers the others leave alone, and nothing closes the phase. It pays where three or more
    tests share it (the fixture's own fake and bot cost about what a two-test module saves). Nothing
    unknown or failed on the fake once they are done."""
    async with fake_discord() as fake:
        table = await make_table(fake, players=players)
        async with running(fake, folder) as bot:
            game_id = await started_game(fake, bot, table, "Shared", players=players, **options)
            yield SharedGame(fake, table, bot, game_id)
        assert fake.unknown_calls == [] and fake.internal_errors == []
