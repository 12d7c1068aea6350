"""Games for fewer than seven players through the real bot and the fake Discord, from the rulebook's
"Alternate way to play": six players (Italy neutral, held by nobody), four (a player orders two
powers), and the two-player 1914 game (Italy closed until a coin flip gives it to one side)."""

from __future__ import annotations

import os
from pathlib import Path

from harness.bot_helpers import (
    POWERS,
    ask,
    bot_messages,
    current_phase,
    deadline_passes,
    embed_text,
    embeds_titled,
    game_channel_of,
    make_table,
    place_named,
    running,
    settle,
    started_game,
    viewers,
)
from harness.fakediscord import FakeDiscord
from tests.helpers.e2e import print_transcript


async def test_six_players_leave_italy_to_nobody(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake, players=6)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Six", players=6)
        held = sorted(p for seat in table.seats.values() for p in seat)
        assert held == sorted(set(POWERS) - {"ITALY"}) and all(len(s) == 1 for s in table.seats.values())
        italy = place_named(fake, table.guild, game_id, f"g{game_id}-italy")
        assert viewers(fake, italy, [*table.players, table.onlooker, table.mod]) == {"mod"}
        threads = [c for c in fake.guild_channels(table.guild) if c.is_thread]
        assert len(threads) == 15 and not any("Italy" in t.name for t in threads)
        channel = await game_channel_of(bot, fake, game_id)
        [started] = embeds_titled(fake, channel, "has started")
        assert "Italy: nobody (units hold)" in embed_text(started)
        status = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=str(game_id))
        assert "- Italy: 3 centers, 3 units, nobody (units hold)" in status.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_four_players_one_orders_two_powers(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake, players=4)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Four", players=4)
        assert sorted(table.seats.values()) == [
            ("AUSTRIA", "FRANCE"),
            ("ENGLAND",),
            ("GERMANY", "TURKEY"),
            ("ITALY", "RUSSIA"),
        ]
        both = table.player("AUSTRIA")
        assert table.player("FRANCE") is both
        threads = sorted(c.name for c in fake.guild_channels(table.guild) if c.is_thread)
        assert threads == [
            "Austria/France – England",
            "Austria/France – Germany/Turkey",
            "Austria/France – Italy/Russia",
            "England – Germany/Turkey",
            "England – Italy/Russia",
            "Germany/Turkey – Italy/Russia",
        ], "one thread per pair of players, named with their powers"
        for thread in (c for c in fake.guild_channels(table.guild) if c.is_thread):
            a, b = (side.split("/")[0].upper() for side in thread.name.split(" – "))
            assert viewers(fake, thread, [*table.players, table.onlooker]) == {
                table.player(a).username,
                table.player(b).username,
            }
        answer = await ask(fake, both, "order", channel=table.general, text="A Vie-Gal; A Par-Bur")
        assert "✅ Austria: `A VIE - GAL`" in answer.content and "✅ France: `A PAR - BUR`" in answer.content
        shown = await ask(fake, both, "orders", "show", channel=table.general)
        assert "**Austria** orders:" in shown.content and "**France** orders:" in shown.content
        ready = await ask(fake, both, "ready", channel=table.general)
        assert "Austria is ready." in ready.content and "France is ready." in ready.content
        conceding = await ask(
            fake, both, "draw", "propose", channel=table.general, kind="concede", to="ENGLAND"
        )
        assert "You proposed a concession to England" in conceding.content
        assert "Austria yes, France yes" in conceding.content, "one vote for each power held"
        await deadline_passes(bot, fake, game_id)
        channel = await game_channel_of(bot, fake, game_id)
        published = "\n".join(m.content for m in bot_messages(fake, channel))
        assert "✅ `A VIE - GAL`" in published and "✅ `A PAR - BUR`" in published
        [lapsed] = embeds_titled(fake, channel, "a concession to England did not pass")
        assert "votes start afresh" in embed_text(lapsed)
        fresh = await ask(fake, both, "draw", "status", channel=table.general)
        assert "nothing is proposed this phase" in fresh.content, "the board changed: votes reset"
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_two_players_play_1914_and_a_coin_gives_italy_to_one_side(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=2)
    async with running(fake, tmp_path) as bot:
        wrong = await ask(
            fake,
            table.players[0],
            "game",
            "create",
            channel=table.general,
            name="Bad",
            variant="ww1914",
            players=5,
        )
        assert "played by 2 players, not 5" in wrong.content and "You created" not in wrong.content
        game_id = await started_game(fake, bot, table, "Great War", players=2)
        created = [m for m in fake.ephemeral_messages(table.players[0]) if "You created" in m.content]
        assert "World War I (two players), 24 centers to win" in created[-1].content
        assert sorted(table.seats.values()) == [
            ("AUSTRIA", "GERMANY", "TURKEY"),
            ("ENGLAND", "FRANCE", "RUSSIA"),
        ]
        assert (await current_phase(bot, game_id)).name == "S1914M"
        channel = await game_channel_of(bot, fake, game_id)
        [started] = embeds_titled(fake, channel, "has started: Spring 1914 Movement")
        assert "Italy: nobody (units hold)" in embed_text(started)
        italy = place_named(fake, table.guild, game_id, f"g{game_id}-italy")
        assert viewers(fake, italy, table.players) == set()
        [talks] = [c for c in fake.guild_channels(table.guild) if c.is_thread]
        assert talks.name == "Austria/Germany/Turkey – England/France/Russia", "one space for two players"
        assert viewers(fake, talks, [*table.players, table.onlooker]) == {u.username for u in table.players}

        await deadline_passes(bot, fake, game_id)
        assert embeds_titled(fake, channel, "the coin says") == [], "not before the Fall 1914 turn"
        await deadline_passes(bot, fake, game_id)
        assert (await current_phase(bot, game_id)).name == "S1915M"
        [flip] = embeds_titled(fake, channel, "the coin says")
        [joined] = embeds_titled(fake, channel, "Italy joins")
        side = "ENGLAND" if "England" in flip.embeds[0]["title"] else "AUSTRIA"
        winner = table.player(side)
        loser = next(u for u in table.players if u.id != winner.id)
        assert "Spring 1915" in embed_text(flip) and "orders Italy too" in embed_text(joined)
        await settle(bot, fake)
        assert viewers(fake, italy, table.players) == {winner.username}
        assert [c.name for c in fake.guild_channels(table.guild) if c.is_thread] == [talks.name], (
            "no new space"
        )
        assert viewers(fake, talks, table.players) == {u.username for u in table.players}
        shown = await ask(fake, winner, "orders", "show", channel=table.general)
        assert "Italy still without orders: F NAP, A ROM, A VEN" in shown.content
        refused = await ask(fake, loser, "order", channel=table.general, text="A Rom H")
        assert "❌" in refused.content and "not yours" in refused.content
    if os.environ.get("SHOW_TRANSCRIPT"):
        print_transcript(fake, table)
    assert fake.unknown_calls == [] and fake.internal_errors == []
