"""The orders form named by its game opens with the player's current orders, whatever way they were
sent last, and tells a stranger on another server nothing about the game."""

from __future__ import annotations

from pathlib import Path

from harness.bot_helpers import ask, make_table, running, settle, started_game
from harness.fakediscord import FakeDiscord


async def test_the_form_named_by_its_game_shows_the_orders_sent_every_way(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    other = await make_table(fake, name="Another Club")
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table)
        france = table.player("FRANCE")
        game = {"game": str(game_id)}

        async def form_text() -> str:
            form = await (
                await fake.slash(france, "orders", "edit", options=game, channel=table.general)
            ).modal()
            return str(form.input("orders").get("value") or "")

        assert await form_text() == ""
        await fake.dm_bot(france, "A Par-Bur")
        await settle(bot, fake)
        assert await form_text() == "A PAR - BUR"

        answer = await ask(fake, france, "order", channel=table.general, text="F Bre-MAO", **game)
        assert "F BRE - MAO" in answer.content
        assert await form_text() == "A PAR - BUR\nF BRE - MAO"

        opened = await fake.slash(france, "orders", "edit", options=game, channel=table.general)
        await (await fake.submit_modal(france, opened, {"orders": "A Mar-Spa"})).message()
        assert await form_text() == "A MAR - SPA"
        unnamed = await (await fake.slash(france, "orders", "edit", channel=table.general)).modal()
        assert unnamed.input("orders").get("value") == "A MAR - SPA", "the server's one game, found"

        # named from another server: a stranger learns nothing of the game
        stranger = other.players[0]
        refused = await ask(fake, stranger, "orders", "edit", channel=other.general, **game)
        assert f"There is no game {game_id} on this server" in refused.content
        assert "Test game" not in refused.content


async def test_the_first_form_after_a_restart_shows_the_orders_and_the_lines_refused_before_it(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A bot started again holds every player's orders as the database has them (read at its start):
    the first form of each player opens with their orders and the lines their last message had
    refused, to fix; a player who sent nothing gets an empty form."""
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table)
        france, germany = table.player("FRANCE"), table.player("GERMANY")
        await fake.dm_bot(france, "A Par-Bur\nF Bre-Nowhere")
        await settle(bot, fake)
    game = {"game": str(game_id)}
    async with running(fake, tmp_path) as bot:
        await settle(bot, fake)
        for player, expected in ((france, "A PAR - BUR\nF Bre-Nowhere"), (germany, "")):
            form = await (
                await fake.slash(player, "orders", "edit", options=game, channel=table.general)
            ).modal()
            assert form.input("orders").get("value", "") == expected
    assert fake.unknown_calls == [] and fake.internal_errors == []
