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
