"""/mod close closes the phase that was open when the moderator sent it, never the next one: a second
close of one phase, reaching the bot once the next phase has opened, is refused naming both; and a
phase that opened less than a minute before the command is closed only once the moderator confirms it
by name."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta
from pathlib import Path

from bot import DiplomacyBot
from db.models import PhaseRecord
from gm.clock import utcnow
from harness.bot_helpers import (
    ask,
    bot_messages,
    current_phase,
    deadline_passes,
    embed_text,
    game_channel_of,
    make_table,
    running,
    settle,
    started_game,
)
from harness.fakediscord import FakeDiscord
from tests.helpers.e2e import click_and_read, mod


async def age_phase(bot: DiplomacyBot, game_id: int, minutes: int) -> None:
    """The open phase opened ``minutes`` ago (as if the moderator had waited)."""
    phase = await current_phase(bot, game_id)
    async with bot.runtime.sessions() as session:
        record = await session.get(PhaseRecord, phase.id)
        assert record is not None
        record.opened_at = utcnow() - timedelta(minutes=minutes)
        await session.commit()


async def phase_becomes(bot: DiplomacyBot, game_id: int, name: str) -> PhaseRecord:
    """Wait (at most 30 s) until the game's latest phase is ``name``."""
    for _ in range(3000):
        phase = await current_phase(bot, game_id)
        if phase.name == name:
            return phase
        await asyncio.sleep(0.01)
    raise TimeoutError(f"game {game_id} never reached {name}")


async def test_a_second_close_of_one_phase_never_closes_the_next(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Closing", players=3, press="public")
        channel = await game_channel_of(bot, fake, game_id)
        await age_phase(bot, game_id, 5)
        first = await mod(fake, table.mod, table, "close", game=str(game_id))
        assert first.content == "Done: Spring 1901 Movement is being closed now by a moderator.\n" + (
            "The results follow in the game channel."
        )
        fall = await phase_becomes(bot, game_id, "F1901M")
        # The moderator pressed /mod close again half a second later, while Spring was still open on
        # their screen; it reaches the bot only once Fall has opened.
        again = await (
            await fake.slash(
                table.mod,
                "mod",
                "close",
                options={"game": str(game_id)},
                channel=table.general,
                sent_at=fall.opened_at - timedelta(milliseconds=5),
            )
        ).message()
        assert (
            "Spring 1901 Movement was already closed; Fall 1901 Movement has just opened in Closing and "
            "was not touched." in again.content
        ), again.content
        assert "Run /mod close again if you mean to close Fall 1901 Movement too" in again.content
        await settle(bot, fake)
        still = await current_phase(bot, game_id)
        assert (still.id, still.status, still.close_reason) == (fall.id, "open", None)
        closing = [m for m in bot_messages(fake, channel) if "being closed now" in embed_text(m)]
        assert len(closing) == 1 and "Spring 1901" in embed_text(closing[0])
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_phase_that_has_just_opened_is_closed_only_once_confirmed_by_name(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Careful", players=3, press="public")
        opening = await mod(fake, table.mod, table, "close", game=str(game_id))
        assert "opened only" in opening.content and "the game has just started" in opening.content
        await click_and_read(fake, table.mod, opening, opening.custom_ids()[1])  # Cancel
        await deadline_passes(bot, fake, game_id)
        fall = await current_phase(bot, game_id)
        assert fall.name == "F1901M"

        asked = await mod(fake, table.mod, table, "close", game=str(game_id))
        assert "**Fall 1901 Movement** of **#" in asked.content and re.search(
            r"opened only \d+ seconds? before you asked", asked.content
        )
        assert "Close Fall 1901 Movement now? Confirm below" in asked.content
        [close, cancel] = asked.custom_ids()
        assert close == f"mod:close:{game_id}:{fall.id}:-" and cancel.startswith("mod:cancel:")
        assert [c.get("label") for c in asked.components[0]["components"]] == [
            "Close Fall 1901 Movement",
            "Cancel",
        ]
        assert (await current_phase(bot, game_id)).close_reason is None, "nothing before the confirmation"
        cancelled = await click_and_read(fake, table.mod, asked, cancel)
        assert cancelled.startswith("Cancelled: nothing was changed")
        assert (await current_phase(bot, game_id)).status == "open"

        stale = await mod(fake, table.mod, table, "close", game=str(game_id))
        await deadline_passes(bot, fake, game_id)  # the phase closes before the moderator confirms
        moved = await click_and_read(fake, table.mod, stale, stale.custom_ids()[0])
        assert "Careful has moved on since you asked" in moved and "nothing was changed" in moved

        winter_or_spring = await current_phase(bot, game_id)
        asked = await mod(fake, table.mod, table, "close", game=str(game_id))
        done = await click_and_read(fake, table.mod, asked, asked.custom_ids()[0])
        assert done.startswith(
            f"Done: {winter_or_spring.long_name if hasattr(winter_or_spring, 'long_name') else ''}"
        )
        assert "is being closed now by a moderator" in done
        await settle(bot, fake)
        assert (await current_phase(bot, game_id)).id != winter_or_spring.id
        refused = await ask(fake, table.players[1], "mod", "close", channel=table.general, game=str(game_id))
        assert "Only the creator of" in refused.content and refused.custom_ids() == [], (
            "no question to a non-moderator"
        )
    assert fake.unknown_calls == [] and fake.internal_errors == []
