"""A tick is a promise: an army's move that no fleet on the board can carry is refused when the player
sends it, with the reason and the fleets it would need, and never ticked (issue 26: `A Mar-Tus` by DM
in Spring 1901 used to be answered `✅ A MAR - TUS`, then voided at the close)."""

from __future__ import annotations

from pathlib import Path

from harness.bot_helpers import ask, make_table, running, settle, started_game
from harness.fakediscord import FakeDiscord


async def test_a_dm_move_no_fleet_can_carry_is_refused_with_the_fleets_it_needs(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        await started_game(fake, bot, table, "Entry", players=3, press="public")
        france = table.player("FRANCE")  # (who plays Turkey too: the refusal is France's, whose unit it is)
        answer = (await (await fake.dm_bot(france, "A Mar-Tus\nA Par-Bur")).reply()).content
        assert answer.startswith("1 of 2 lines accepted, 1 refused:\n")
        assert (
            "❌ France: A Mar-Tus: No fleet can carry A MAR to TUS: it would need a fleet in LYO. "
            "A MAR can move to BUR, GAS, PIE, SPA.\n"
        ) in answer
        assert "A MAR - TUS" not in answer  # not ticked
        assert "✅ France: `A PAR - BUR`" in answer
        shown = await ask(fake, france, "orders", "show", channel=table.general, map=False)
        assert "A MAR - TUS" not in shown.content and "A PAR - BUR" in shown.content
        await settle(bot, fake)
    assert fake.unknown_calls == [] and fake.internal_errors == []
