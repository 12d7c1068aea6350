"""A tap on the order sheet answers in one call to Discord when its write is quick: the redrawn sheet is
the answer itself (cogs.ui.sheet_flows, DEFER_AFTER). When the write waits (on a close, on other
writes), the tap is acknowledged first, well within Discord's 3 seconds, and the sheet redrawn after."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import cogs.ui.sheet_flows
from harness.bot_helpers import make_table, running, started_game
from harness.fakediscord import FakeDiscord, InteractionHandle, Message, User
from harness.fakediscord.handles import DEFERRED_UPDATE
from harness.sheet_helpers import button_id, sheet_select, shows
from tests.e2e.test_bot_sheet import dm_sheet

UPDATE_MESSAGE = 7  # the interaction callback that edits the tapped message


def calls_of(fake: FakeDiscord, tap: InteractionHandle) -> list[str]:
    """The calls the bot made to answer ``tap`` (its callback, its webhook edits)."""
    return [f"{c.method} {c.route}" for c in fake.rest_log if tap.interaction.token in c.path]


async def pick(fake: FakeDiscord, user: User, sheet: Message, key: str, order: str) -> InteractionHandle:
    return await fake.click(user, sheet, sheet_select(sheet, key)["custom_id"], values=[order])


async def test_a_quick_tap_answers_with_the_sheet_and_a_slow_one_is_acknowledged_first(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        await started_game(fake, bot, table, "Quick")
        france = table.player("FRANCE")
        sheet = dm_sheet(fake, france, "S1901M")

        # quick writes (the limit made long here: the machine's load must not decide): one call each
        monkeypatch.setattr(cogs.ui.sheet_flows, "DEFER_AFTER", 60.0)
        tap = await pick(fake, france, sheet, "PAR", "A PAR - BUR")
        shown = await tap.message()
        assert tap.interaction.response_type == UPDATE_MESSAGE
        assert len(calls_of(fake, tap)) == 1, calls_of(fake, tap)
        assert "BUR" in shows(shown, "PAR") and "1 of 3 units ordered" in fake.text_view(shown)
        ready = await fake.click(france, shown, button_id(shown, "ready"))
        shown = await ready.message()
        assert ready.interaction.response_type == UPDATE_MESSAGE and len(calls_of(fake, ready)) == 1
        assert "You are ready" in fake.text_view(shown)

        # a write that waits: acknowledged first, then the sheet shows the pick
        gamemaster = bot.services.gamemaster
        original = gamemaster.submit_chosen_order

        async def slow(*args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(1.0)
            return await original(*args, **kwargs)

        monkeypatch.setattr(gamemaster, "submit_chosen_order", slow)
        monkeypatch.setattr(cogs.ui.sheet_flows, "DEFER_AFTER", 0.05)
        tap = await pick(fake, france, shown, "MAR", "A MAR - SPA")
        await tap.response()
        assert tap.interaction.response_type == DEFERRED_UPDATE
        assert "SPA" not in shows(sheet, "MAR"), "acknowledged before the write"
        shown = await tap.message()
        assert "SPA" in shows(shown, "MAR") and "BUR" in shows(shown, "PAR")
        assert "2 of 3 units ordered" in fake.text_view(shown)
    assert fake.unknown_calls == [] and fake.internal_errors == []
