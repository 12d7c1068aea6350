"""A command or form whose answer is ready at once is answered in one call to Discord: the answer itself,
private (cogs.shared.replies, ANSWER_WITHIN). When the answer waits (a slow write), the interaction
is acknowledged first ("thinking...", private too), well within Discord's 3 seconds, and the answer
follows; the orders are recorded before either says so."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import cogs.shared.replies
from harness.bot_helpers import make_table, running, started_game
from harness.fakediscord import FakeDiscord, InteractionHandle
from harness.fakediscord.handles import DEFERRED_MESSAGE

CHANNEL_MESSAGE = 4  # the interaction callback that is the answer itself


def calls_of(fake: FakeDiscord, handle: InteractionHandle) -> list[str]:
    """The calls the bot made to answer ``handle`` (its callback, its followups)."""
    return [f"{c.method} {c.route}" for c in fake.rest_log if handle.interaction.token in c.path]


async def test_quick_answers_are_one_call_and_slow_ones_are_acknowledged_first(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Answers")
        france, germany = table.player("FRANCE"), table.player("GERMANY")
        game = {"game": str(game_id)}

        # quick (the limit made long here: the machine's load must not decide): the answer is the callback
        monkeypatch.setattr(cogs.shared.replies, "ANSWER_WITHIN", 60.0)
        typed = await fake.slash(
            france, "order", options={**game, "text": "A Par-Bur"}, channel=table.general
        )
        answer = await typed.message()
        assert typed.interaction.response_type == CHANNEL_MESSAGE
        assert len(calls_of(fake, typed)) == 1, calls_of(fake, typed)
        assert answer.ephemeral and "A PAR - BUR" in answer.content
        opened = await fake.slash(france, "orders", "edit", options=game, channel=table.general)
        await opened.modal()
        submitted = await fake.submit_modal(france, opened, {"orders": "A Par-Pic\nF Bre-MAO"})
        answer = await submitted.message()
        assert submitted.interaction.response_type == CHANNEL_MESSAGE
        assert len(calls_of(fake, submitted)) == 1, calls_of(fake, submitted)
        assert answer.ephemeral and "A PAR - PIC" in answer.content and "F BRE - MAO" in answer.content
        sheet = await fake.slash(france, "orders", "sheet", options=game, channel=table.general)
        shown = await sheet.message()
        assert sheet.interaction.response_type == CHANNEL_MESSAGE and len(calls_of(fake, sheet)) == 1
        assert shown.ephemeral and "PIC" in fake.text_view(shown)

        # a write that waits: "thinking..." first, privately; the answer after the orders are recorded
        gamemaster = bot.services.gamemaster
        original = gamemaster.submit_orders
        recorded: list[bool] = []

        async def slow(*args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(1.0)
            report = await original(*args, **kwargs)
            recorded.append(True)
            return report

        monkeypatch.setattr(gamemaster, "submit_orders", slow)
        monkeypatch.setattr(cogs.shared.replies, "ANSWER_WITHIN", 0.05)
        typed = await fake.slash(
            germany, "order", options={**game, "text": "A Mun-Ruh"}, channel=table.general
        )
        first = await typed.response()
        assert first.response_type == DEFERRED_MESSAGE and not recorded, "acknowledged before the write"
        answer = await typed.message()
        assert recorded and answer.ephemeral and "A MUN - RUH" in answer.content
        assert len(calls_of(fake, typed)) == 2, calls_of(fake, typed)
        assert all("A MUN - RUH" not in m.content for m in fake.world.messages.values() if not m.ephemeral)
    assert fake.unknown_calls == [] and fake.internal_errors == []
