"""A game set up before the players' shields (issue 27) gets them at the bot's next start.

The game is set up by today's bot, then put back the way the earlier version left such a game: no
member overwrite shields a player from a rival's place, the players' overwrite on the negotiation
channel lets a moderator role's Manage Threads through, a playing moderator has joined a rival's
thread, and the database says the game was running when migration 0014 came in. A moderator who plays
then reads his rivals' places; after a restart he reads only his own (who saw each line is the fake
Discord's permission arithmetic), and a second restart makes no request about the game's places."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from sqlalchemy import update
from sqlmodel import col

from bot import DiplomacyBot
from db.models import Game
from harness.bot_helpers import (
    Table,
    ask,
    game_number,
    make_settings,
    make_table,
    running,
    settle,
    start_game,
)
from harness.fakediscord import FakeDiscord, Permission, User, running_bot
from harness.fakediscord.state import OverwriteType
from tests.helpers.places import game_with, names_in, places, seats_of, who_saw

pytestmark = pytest.mark.waits  # processes or real time: spread through the run (tests/conftest.py)

SHIELD_DENY = int(Permission.VIEW_CHANNEL)


async def as_before_the_shields(fake: FakeDiscord, bot: DiplomacyBot, table: Table, game_id: int) -> None:
    """Undo what issue 27 added to the game's places, and mark the game as migration 0014 marks a game
    that was running then."""
    power_channels, talks = places(fake, table, game_id)
    negotiation = [
        c
        for c in fake.guild_channels(table.guild)
        if c.name.startswith(f"g{game_id}-") and c.name.endswith("-negotiation")
    ]
    for channel in [*power_channels.values(), *talks, *negotiation]:
        for target, overwrite in list(channel.overwrites.items()):
            if overwrite.type != OverwriteType.MEMBER:
                continue
            if overwrite.allow == 0 and overwrite.deny == SHIELD_DENY:
                await fake.remove_overwrite(channel, target)
            elif overwrite.deny & Permission.MANAGE_THREADS:  # the old THREADS_ONLY let it through
                user = fake.world.users[target]
                deny = overwrite.deny & ~int(Permission.MANAGE_THREADS)
                await fake.set_overwrite(channel, user, allow=overwrite.allow, deny=deny)
    async with bot.runtime.sessions() as session:
        await session.exec(update(Game).where(col(Game.id) == game_id).values(places_shielded=False))
        await session.commit()


def place_ids(fake: FakeDiscord, table: Table, game_id: int) -> set[int]:
    """Every place of the game: category, game channel, power channels, negotiation channel, talks."""
    everything = fake.guild_channels(table.guild)
    named = {c.id for c in everything if c.name.startswith(f"g{game_id}-")}
    categories = {c.parent_id for c in everything if c.id in named and c.parent_id is not None}
    threads = {c.id for c in everything if c.is_thread and c.parent_id in named}
    return named | categories | threads


def requests_about(fake: FakeDiscord, ids: set[int], since: int) -> list[str]:
    """The bot's requests since the ``since``-th about one of the places ``ids``, as "METHOD route"."""
    found = []
    for call in fake.rest_log[since:]:
        parts = call.path.split("/")
        if len(parts) > 2 and parts[1] == "channels" and parts[2].isdigit() and int(parts[2]) in ids:
            found.append(f"{call.method} {call.route}")
    return found


async def rivals_read_by(
    fake: FakeDiscord, bot: DiplomacyBot, table: Table, game_id: int, reader: User, writers: dict[int, User]
) -> list[str]:
    """The rivals' places (of ``reader``, who plays) where ``reader`` read a line their owner wrote."""
    seats = await seats_of(bot, game_id)
    mine = {p for p, u in seats.items() if u == reader.id}
    power_channels, talks = places(fake, table, game_id)
    read = []
    for power, channel in sorted(power_channels.items()):
        if power not in mine and reader.id in await who_saw(
            fake, writers[seats[power] or 0], channel, "plans"
        ):
            read.append(channel.name)
    for talk in talks:
        pair = {p for p in seats if p in names_in(talk.name)}
        if pair & mine:
            continue
        author = writers[next(seats[p] or 0 for p in sorted(pair))]
        if reader.id in await who_saw(fake, author, talk, "a secret"):
            read.append(talk.name)
    return read


@pytest.mark.parametrize("press", ["threads", "channels"])
async def test_a_game_set_up_before_the_shields_gets_them_at_the_next_start_once(
    fake: FakeDiscord, tmp_path: Path, press: str
) -> None:
    table = await make_table(fake)
    owner = fake.world.users[table.guild.owner_id]
    playing = [*table.players[:6], table.mod]  # a server moderator plays
    writers = {u.id: u for u in playing}
    async with running(fake, tmp_path) as bot:
        game_id = await game_with(fake, bot, table, playing, press=press)
        seats = await seats_of(bot, game_id)
        mine = {p for p, u in seats.items() if u == table.mod.id}
        _, talks = places(fake, table, game_id)
        rival_talk = next(t for t in talks if not mine & names_in(t.name))
        await as_before_the_shields(fake, bot, table, game_id)
        if press == "threads":
            await fake.add_thread_member(rival_talk, table.mod)  # he looked in before he played
        read_before = await rivals_read_by(fake, bot, table, game_id, table.mod, writers)
        await settle(bot, fake)
    rivals = len([p for p in seats if p not in mine]) + len([t for t in talks if not mine & names_in(t.name)])
    assert len(read_before) == rivals == 6 + 15, read_before  # every rival place, as issue 27 found

    ids = place_ids(fake, table, game_id)
    since = len(fake.rest_log)
    settings = make_settings(tmp_path)
    bot = DiplomacyBot(settings, guild_ready_timeout=0.2)
    lock = bot.sender.place_locks.of(game_id)
    await lock.acquire()  # the repair waits here: the bot answers its users meanwhile
    async with running_bot(bot, fake):
        status = await ask(fake, table.players[0], "game", "status", channel=table.general, game=str(game_id))
        assert "Table talk" in status.content
        assert requests_about(fake, ids, since) == [], "nothing changed yet: the repair is waiting"
        lock.release()
        await settle(bot, fake)
        repair = requests_about(fake, ids, since)
        assert await rivals_read_by(fake, bot, table, game_id, table.mod, writers) == []
        _, talks = places(fake, table, game_id)
        for talk in talks:  # everyone still reads their own talks
            pair = {p for p in seats if p in names_in(talk.name)}
            author = writers[next(seats[p] or 0 for p in sorted(pair))]
            saw = await who_saw(fake, author, talk, "still ours")
            assert saw - {fake.world.bot.id, owner.id} == {seats[p] for p in pair}, talk.name
        if press == "threads":
            assert table.mod.id not in rival_talk.thread_members
    counted = Counter(repair)
    print(f"\n{press}: the repair of one 7-player game made {len(repair)} requests: {dict(counted)}")
    if press == "threads":
        # 7 power channels and the negotiation channel read afresh and written once each, 21 threads'
        # members listed, the moderator taken out of one
        assert counted == {
            "GET /channels/{channel_id}": 8,
            "PATCH /channels/{channel_id}": 8,
            "GET /channels/{channel_id}/thread-members": 21,
            "DELETE /channels/{channel_id}/thread-members/{user_id}": 1,
        }
    else:  # 7 power channels and 21 pair channels, read afresh and written once each
        assert counted == {"GET /channels/{channel_id}": 28, "PATCH /channels/{channel_id}": 28}

    since = len(fake.rest_log)
    async with running(fake, tmp_path) as bot:  # a second restart: the game is marked done
        await settle(bot, fake)
        assert requests_about(fake, ids, since) == []
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def three_player_game(fake: FakeDiscord, bot: DiplomacyBot, table: Table, playing: list[User]) -> int:
    created = await ask(fake, playing[0], "game", "create", channel=table.general, name="Three", players=3)
    game_id = game_number(created.content)
    for user in playing[1:]:
        joined = await ask(fake, user, "game", "join", channel=table.general, game=str(game_id))
        assert "You joined" in joined.content, joined.content
    await start_game(fake, bot, table, game_id)
    return game_id


async def test_a_repair_cut_short_is_finished_at_the_next_start(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake, players=3)
    playing = [table.players[0], table.players[1], table.mod]
    writers = {u.id: u for u in playing}
    async with running(fake, tmp_path) as bot:
        game_id = await three_player_game(fake, bot, table, playing)
        seats = await seats_of(bot, game_id)
        await as_before_the_shields(fake, bot, table, game_id)
        read_before = await rivals_read_by(fake, bot, table, game_id, table.mod, writers)
        await settle(bot, fake)
    assert len(read_before) >= 2, read_before
    power_channels, _ = places(fake, table, game_id)
    refused = next(c for p, c in sorted(power_channels.items()) if seats[p] != table.mod.id)

    fake.inject_fault(f"PATCH /channels/{refused.id}", 404, times=1, code=10003)  # refused this time
    async with running(fake, tmp_path) as bot:
        await settle(bot, fake)
        assert await rivals_read_by(fake, bot, table, game_id, table.mod, writers) == [refused.name]
        async with bot.runtime.sessions.read() as session:
            game = await session.get(Game, game_id)
            assert game is not None and not game.places_shielded, "not done: the next start goes on"
            await session.commit()
    async with running(fake, tmp_path) as bot:
        await settle(bot, fake)
        assert await rivals_read_by(fake, bot, table, game_id, table.mod, writers) == []
    assert fake.unknown_calls == [] and fake.internal_errors == []
