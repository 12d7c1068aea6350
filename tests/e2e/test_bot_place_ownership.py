"""A game's places belong to it by id, never by name: a game of another database (a restored backup, a
second instance) with the same number makes its own places and leaves the old ones alone; a game
named after a power keeps its public channel apart from that power's private one; a set-up resumed
after a failure puts back the permissions and thread members each place it reuses should have."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import delete
from sqlmodel import col

from bot import DiplomacyBot
from db.models import GamePlace
from gm.setup.games import get_game
from harness.bot_helpers import (
    Table,
    ask,
    create_game,
    join_everyone,
    make_table,
    running,
    settle,
    started_game,
    viewers,
)
from harness.fakediscord import Channel, ChannelType, FakeDiscord, Overwrite, OverwriteType, Permission
from tests.helpers.e2e import mod


def snapshot(fake: FakeDiscord, table: Table) -> dict[int, tuple[str, dict[int, tuple[int, int]], set[int]]]:
    """Every place on the server: name, overwrites (target -> allow, deny) and thread members."""
    return {
        c.id: (
            c.name,
            {t: (o.allow, o.deny) for t, o in c.overwrites.items()},
            set(c.thread_members),
        )
        for c in fake.guild_channels(table.guild)
    }


async def places_of_game(bot: DiplomacyBot, fake: FakeDiscord, table: Table, game_id: int) -> list[Channel]:
    """The category, game channel and power channels the game's database names, and the game's
    threads and other channels inside its category."""
    async with bot.runtime.sessions() as session:
        game = await get_game(session, game_id)
    everything = fake.guild_channels(table.guild)
    [game_channel] = [c for c in everything if c.id == game.game_channel_id]
    category = game_channel.parent_id
    inside = [c for c in everything if c.id == category or c.parent_id == category]
    threads = [c for c in everything if c.is_thread and c.parent_id in {i.id for i in inside}]
    return [*inside, *threads]


async def start_cut_short(fake: FakeDiscord, table: Table, name: str, *, threads_made: int) -> int:
    """A game whose first /game start stops half way (Discord refuses a thread) and whose clean-up
    fails too, leaving what it made."""
    game_id = await create_game(fake, table, name)
    await join_everyone(fake, table, game_id)
    fake.inject_fault("POST /channels/*/threads", 403, times=1, after=threads_made)
    fake.inject_fault("DELETE /channels/*", 403, times=40)
    refused = await ask(fake, table.players[0], "game", "start", channel=table.general, game=str(game_id))
    assert f"Discord refused to create the channels of {name}" in refused.content
    fake.faults.faults.clear()
    return game_id


async def test_a_new_databases_game_never_inherits_an_old_games_places(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    async with running(fake, tmp_path / "old") as bot:
        old_id = await started_game(fake, bot, table, "League")
    before = snapshot(fake, table)

    table.power_of.clear()
    table.seats.clear()
    async with running(fake, tmp_path / "new") as bot:  # the database replaced: a restored backup
        new_id = await started_game(fake, bot, table, "League")
        assert new_id == old_id, "the same game number, as the reproduction needs"
        await settle(bot, fake)
        async with bot.runtime.sessions() as session:
            game = await get_game(session, new_id)
        mine = await places_of_game(bot, fake, table, new_id)

    assert len(mine) == 1 + 9 + 21, [c.name for c in mine]
    assert not {c.id for c in mine} & set(before), "no place of the old game is reused"
    old_names = {name for name, _, _ in before.values()}
    assert not {c.name for c in mine if not c.is_thread} & old_names, "no two games' channels share a name"
    assert snapshot(fake, table).items() >= before.items(), "the old places are left as they were"
    everyone = [*table.players, table.mod, table.onlooker]
    for power, user_id in game.powers.items():
        [channel] = [c for c in mine if c.name.endswith(f"-{power.lower()}") and not c.is_thread]
        player = next(u for u in table.players if u.id == user_id)
        assert viewers(fake, channel, everyone) == {player.username, "mod"}, power
    for thread in (c for c in mine if c.is_thread):
        assert len(set(thread.thread_members) - {fake.world.bot.id}) == 2, thread.name
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_game_named_after_a_power_keeps_its_public_channel_apart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await start_cut_short(fake, table, "France", threads_made=3)
        again = await ask(fake, table.players[0], "game", "start", channel=table.general, game=str(game_id))
        assert "has started" in again.content
        await settle(bot, fake)
        async with bot.runtime.sessions() as session:
            game = await get_game(session, game_id)
        mine = await places_of_game(bot, fake, table, game_id)
    by_id = {c.id: c for c in mine}
    assert game.game_channel_id is not None
    game_channel = by_id[game.game_channel_id]
    france = next(c for c in mine if c.name.endswith("-france") and c.id != game_channel.id)
    assert game_channel.name != france.name
    assert fake.can_view(table.onlooker, game_channel) and not fake.can_view(table.onlooker, france)
    france_player = next(u for u in table.players if u.id == game.powers["FRANCE"])
    welcome = "\n".join(m.content for m in fake.channel_messages(france))
    assert "France**'s private channel" in welcome and fake.can_view(france_player, france)
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_resumed_set_up_puts_back_permissions_and_thread_members(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await start_cut_short(fake, table, "Tampered", threads_made=5)
        left = await places_of_half_made(fake, table)
        # Meanwhile someone opened the left-over places to the onlooker.
        for channel in left:
            if channel.is_thread:
                fake.backend.add_thread_member(channel, table.onlooker.id)
            else:
                fake.backend.set_overwrite(
                    channel,
                    Overwrite(table.onlooker.id, OverwriteType.MEMBER, allow=int(Permission.VIEW_CHANNEL)),
                )
        await fake.flush()
        assert any(fake.can_view(table.onlooker, c) for c in left if c.topic and "private" in c.topic)

        again = await ask(fake, table.players[0], "game", "start", channel=table.general, game=str(game_id))
        assert "has started" in again.content
        await settle(bot, fake)
        async with bot.runtime.sessions() as session:
            game = await get_game(session, game_id)
        mine = await places_of_game(bot, fake, table, game_id)
    assert {c.id for c in left} <= {c.id for c in mine}, "what the first run made is reused"
    private = [
        c
        for c in mine
        if c.id != game.game_channel_id and not c.is_thread and c.type != ChannelType.GUILD_CATEGORY
    ]
    assert private and not any(fake.can_view(table.onlooker, c) for c in private)
    threads = [c for c in mine if c.is_thread]
    assert len(threads) == 21 and not any(table.onlooker.id in t.thread_members for t in threads)
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def places_of_half_made(fake: FakeDiscord, table: Table) -> list[Channel]:
    """Everything a failed set-up left: the game's category, what is in it and its threads."""
    everything = fake.guild_channels(table.guild)
    categories = {c.id for c in everything if c.name.startswith("Diplomacy #")}
    inside = [c for c in everything if c.parent_id in categories]
    return [*inside, *(c for c in everything if c.is_thread and c.parent_id in {i.id for i in inside})]


async def test_a_game_set_up_before_places_were_recorded_still_hands_its_threads_over(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A game started by an older version has no recorded negotiation places: a replacement still
    gets its seat's threads, found inside the game's own (recorded) category only."""
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Veteran", players=3)  # private threads
        async with bot.runtime.sessions() as session:  # as before migration 0004
            await session.exec(delete(GamePlace).where(col(GamePlace.game_id) == game_id))
            await session.commit()
        old, newcomer = table.player("FRANCE"), table.onlooker
        threads = [c for c in fake.guild_channels(table.guild) if c.is_thread and "France" in c.name]
        assert len(threads) == 2 and not any(fake.can_view(newcomer, t) for t in threads)
        done = await mod(
            fake, table.mod, table, "replace", power="FRANCE", player=newcomer, game=str(game_id)
        )
        assert "Done:" in done.content
        await settle(bot, fake)
        assert all(fake.can_view(newcomer, t) for t in threads)
        assert not any(fake.can_view(old, t) for t in threads)
    assert fake.unknown_calls == [] and fake.internal_errors == []
