"""A game's places on the server: one set-up at a time (a second /game start while the first works is
told so; a re-run after a failure reuses what exists), Discord's channel and thread limits (15 full
games fit; a start that would not is refused saying why), and a finished game's places kept read-only
with its threads archived, until a rollback makes it run again."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from harness.bot_helpers import (
    ask,
    create_game,
    current_phase,
    join_everyone,
    make_table,
    place_name,
    place_named,
    running,
    settle,
    start_game,
    started_game,
)
from harness.fakediscord import ChannelType, FakeDiscord, UserActionError
from tests.helpers.e2e import click_and_read, end_short_game, mod, places_of

pytestmark = pytest.mark.waits  # processes or real time: spread through the run (tests/conftest.py)


async def test_a_second_start_while_the_first_works_makes_no_second_set_of_channels(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await create_game(fake, table, "Twice")
        await join_everyone(fake, table, game_id)
        fake.slow_down("POST /channels/*/threads", 0.05, times=21)  # the set-up takes a good second
        first = await fake.slash(
            table.players[0], "game", "start", options={"game": str(game_id)}, channel=table.general
        )
        await asyncio.sleep(0.3)
        second = await fake.slash(
            table.mod, "game", "start", options={"game": str(game_id)}, channel=table.general
        )
        told = await second.message(timeout=30)
        assert "is already being set up" in told.content and told.ephemeral
        assert "has started" in (await first.message(timeout=30)).content
        await settle(bot, fake)
        categories, channels, threads = places_of(fake, table.guild, game_id)
        assert (len(categories), len(channels), len(threads)) == (1, 9, 21)

        late = await ask(fake, table.mod, "game", "start", channel=table.general, game=str(game_id))
        assert "has already started: results and maps in <#" in late.content
        assert tuple(map(len, places_of(fake, table.guild, game_id))) == (1, 9, 21)
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_set_up_cut_short_is_finished_with_what_it_left(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await create_game(fake, table, "Halfway")
        await join_everyone(fake, table, game_id)
        fake.inject_fault("POST /channels/*/threads", 403, times=1, after=5)  # Discord fails mid-way ...
        fake.inject_fault("DELETE /channels/*", 403, times=40)  # ... and the clean-up fails too
        refused = await (
            await fake.slash(
                table.players[0], "game", "start", options={"game": str(game_id)}, channel=table.general
            )
        ).message(timeout=60)
        assert "Discord refused to create the channels of Halfway" in refused.content
        fake.faults.faults.clear()
        left = places_of(fake, table.guild, game_id)
        assert (len(left[0]), len(left[1]), len(left[2])) == (1, 9, 5), "what the failed start left"

        again = await ask(fake, table.players[0], "game", "start", channel=table.general, game=str(game_id))
        assert "has started" in again.content
        await settle(bot, fake)
        categories, channels, threads = places_of(fake, table.guild, game_id)
        assert (len(categories), len(channels), len(threads)) == (1, 9, 21), "reused, not copied"
        assert {c.id for c in left[1]} <= {c.id for c in channels}
        for place in [*channels, *threads]:
            intros = [
                m
                for m in fake.channel_messages(place)
                if "private channel" in m.content or "Private talks" in m.content
            ]
            assert len(intros) <= 1, place.name
        france = next(c for c in channels if place_name(game_id, c.name) == f"g{game_id}-france")
        assert len([m for m in fake.channel_messages(france) if "private channel" in m.content]) == 1
        assert (await current_phase(bot, game_id)).name == "S1901M"
    assert fake.unknown_calls == [] and fake.internal_errors == []


GAMES = 6  # 6 x 9 = 54 channels: more than Discord's 50 per category, were the games to share one


async def test_many_full_press_games_fit_on_one_server(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        for number in range(GAMES):
            game_id = await create_game(fake, table, f"League {number}")
            await join_everyone(fake, table, game_id)
            reply = await start_game(fake, bot, table, game_id)
            assert "has started" in reply.content, reply.content
        everything = fake.guild_channels(table.guild)
        channels = [c for c in everything if not c.is_thread]
        threads = [c for c in everything if c.is_thread and not c.archived]
        assert len(channels) == 1 + GAMES * 10 <= fake.world.limits.channels
        assert len(threads) == GAMES * 21 <= fake.world.limits.active_threads
        per_category = [
            len([c for c in channels if c.parent_id == k.id])
            for k in channels
            if k.type == ChannelType.GUILD_CATEGORY
        ]
        assert max(per_category) == 9 <= fake.world.limits.per_category
        assert fake.failed_calls == []
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_start_past_discords_limits_says_so(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake)
    for number in range(fake.world.limits.channels - 8):  # the server is nearly full
        fake.backend.create_channel(table.guild, name=f"old-{number}")
    async with running(fake, tmp_path) as bot:
        game_id = await create_game(fake, table, "Crowded", press="public")
        await join_everyone(fake, table, game_id)
        before = len(fake.guild_channels(table.guild))
        full = await ask(fake, table.players[0], "game", "start", channel=table.general, game=str(game_id))
        assert "this server has 493 of Discord's 500 channels and the game needs 9 more" in full.content
        assert (
            "Discord's limit, not a missing permission" in full.content and "fix my role" not in full.content
        )
        assert len(fake.guild_channels(table.guild)) == before, "nothing was made"

        for channel in fake.guild_channels(table.guild)[:5]:
            if channel.name.startswith("old-"):
                fake.backend.delete_channel(channel)
        await fake.flush()
        fake.inject_fault(
            "POST /guilds/*/channels",
            400,
            code=30013,
            message="Maximum number of guild channels reached (500)",
            after=3,
        )
        raced = await ask(fake, table.players[0], "game", "start", channel=table.general, game=str(game_id))
        assert (
            "Maximum number of guild channels reached" in raced.content and "Discord's limit" in raced.content
        )
        assert "fix my role" not in raced.content
        await settle(bot, fake)
        assert places_of(fake, table.guild, game_id)[0] == [], "what it made is removed again"
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_finished_games_places_are_kept_read_only_until_a_rollback(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Sprint", players=3, last_year=1901)
        france = table.player("FRANCE")
        power_channel = place_named(fake, table.guild, game_id, f"g{game_id}-france")
        threads = places_of(fake, table.guild, game_id)[2]
        mine = next(t for t in threads if "France" in t.name)
        await fake.say(france, mine, "Shall we?")
        await end_short_game(fake, bot, table, game_id)
        assert (
            await ask(fake, table.onlooker, "game", "status", channel=table.general, game=str(game_id))
        ).content.count("finished")

        assert all(t.archived and t.locked for t in threads), "no active threads left behind"
        assert fake.can_view(france, mine) and "Shall we?" in fake.seen_texts(france), (
            "history stays readable"
        )
        assert fake.can_view(france, power_channel)
        for place in (power_channel, mine):
            try:
                await fake.say(france, place, "one more thing")
            except UserActionError:
                continue
            raise AssertionError(f"{place.name} still takes messages")

        asked = await mod(fake, table.mod, table, "rollback", game=str(game_id))
        assert (await click_and_read(fake, table.mod, asked, asked.custom_ids()[0])).startswith("Done:")
        await settle(bot, fake)
        assert not any(t.archived or t.locked for t in threads)
        await fake.say(france, power_channel, "back in business")
        await fake.say(france, mine, "again?")
    assert fake.unknown_calls == [] and fake.internal_errors == []
