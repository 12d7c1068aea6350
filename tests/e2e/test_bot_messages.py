"""What the bot says in ordinary moments: a paused game's deadline, a neutral power's channel, the
moderation log in /game status (everything that fits, newest first), /game list once games have
finished, and the rulebook's American spelling."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cogs.commands.game import moderation_lines
from gm.reports.status import LogLine
from harness.bot_helpers import (
    ask,
    bot_messages,
    deadline_passes,
    embed_text,
    make_table,
    place_named,
    running,
    settle,
    started_game,
)
from harness.fakediscord import FakeDiscord
from tests.helpers.e2e import click_and_read, mod


async def test_a_paused_game_says_there_is_no_deadline_and_the_log_shows_more_than_five(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Slow", players=3, press="public")
        game = str(game_id)
        for minutes in range(1, 8):
            await mod(fake, table.mod, table, "extend", minutes=minutes, game=game)
        await mod(fake, table.mod, table, "pause", game=game)
        shown = await ask(fake, table.players[0], "orders", "show", channel=table.general)
        assert "Spring 1901 Movement of #1 Slow: no deadline while the game is paused." in shown.content
        assert "orders due no deadline" not in shown.content and "(the game is paused)" not in shown.content

        status = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=game)
        log = status.content.split("Moderation (newest first):\n")[1].split("\n**Variant")[0].splitlines()
        assert "paused the game" in log[0], "newest first"
        extended = [re.search(r"extended Spring 1901 Movement by (\d+) minutes?", line) for line in log[1:]]
        assert [int(m[1]) for m in extended if m] == [7, 6, 5, 4, 3, 2, 1], "all eight entries"
        assert " 3 centers, " in status.content and "centres" not in status.content
        await settle(bot, fake)
    assert fake.unknown_calls == [] and fake.internal_errors == []


def test_a_long_moderation_log_is_cut_with_a_count_of_the_earlier_entries() -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    entries = [
        LogLine(start + timedelta(hours=i), 42, "extend", f"extended Spring 1901 Movement by {i} minutes")
        for i in range(60)
    ]
    lines = moderation_lines(entries)
    assert "by 59 minutes" in lines[0] and "by 58 minutes" in lines[1], "newest first"
    assert lines[-1] == f"- … and {60 - (len(lines) - 1)} earlier"
    assert 1000 < sum(len(line) + 1 for line in lines) <= 1600


async def test_game_list_keeps_finished_games_apart(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Over", players=3, press="public")
        ending = await mod(fake, table.mod, table, "end", game=str(game_id))
        assert (await click_and_read(fake, table.mod, ending, ending.custom_ids()[0])).startswith("Done:")
        await settle(bot, fake)
        listed = await ask(fake, table.onlooker, "game", "list", channel=table.general)
        assert "There are no games here yet" not in listed.content
        assert listed.content.startswith("No game is running on this server.")
        assert (
            "Finished (1; their results and maps stay available with `/history phase game:`):"
            in listed.content
        )
        assert f"**#{game_id} Over** (cancelled)" in listed.content
        mine = await ask(fake, table.players[1], "game", "list")
        assert mine.content.startswith("You are in no running game.") and f"#{game_id} Over" in mine.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_neutral_powers_channel_says_it_is_neutral(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake, players=6)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Six", players=6)
        italy = place_named(fake, table.guild, game_id, f"g{game_id}-italy")
        [intro] = bot_messages(fake, italy)[:1]
        assert "Italy is neutral: nobody plays it and its units hold." in intro.content
        assert "your calls to order" not in intro.content and "Only its player" not in intro.content
        france = place_named(fake, table.guild, game_id, f"g{game_id}-france")
        assert "played by <@" in bot_messages(fake, france)[0].content
        welcome = next(m for m in fake.dm_messages(table.player("FRANCE")) if "You play" in embed_text(m))
        assert "Home centers: Brest, Marseilles, Paris" in embed_text(welcome)
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_orders_sent_just_after_a_close_are_said_to_count_for_the_new_phase(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Late", players=3, press="public")
        france = table.player("FRANCE")
        first = await ask(fake, france, "order", channel=table.general, text="A Par-Bur")
        assert "⚠️" not in first.content, "the first phase follows no other"
        await deadline_passes(bot, fake, game_id)
        late = await ask(fake, france, "order", channel=table.general, text="A Bur-Bel")
        assert late.content.startswith("⚠️ **Spring 1901 Movement closed ")
        assert (
            "these orders are for Fall 1901 Movement" in late.content
            and "✅ France: `A BUR - BEL`" in late.content
        )
        by_dm = await (await fake.dm_bot(france, "A Mar H")).reply()
        assert by_dm.content.startswith("⚠️ **Spring 1901 Movement closed ")
    assert fake.unknown_calls == [] and fake.internal_errors == []
