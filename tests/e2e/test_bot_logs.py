"""Orders never reach the log, whatever its level: a whole submission at LOG_LEVEL=DEBUG leaves no
order text in anything logged (discord.py's HTTP bodies, SQL parameters, our own lines)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from config import configure_logging
from harness.bot_helpers import ask, make_table, running, settle, started_game
from harness.fakediscord import FakeDiscord

NOISY = (
    "discord.gateway",
    "discord.http",
    "discord.webhook",
    "aiosqlite",
    "asyncpg",
    "sqlalchemy",
    "apscheduler",
)


@pytest.fixture
def debug_logging(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """The bot's logging set up as LOG_LEVEL=DEBUG does, undone afterwards."""
    saved = {name: logging.getLogger(name).level for name in (*NOISY, "")}
    configure_logging("DEBUG")
    caplog.set_level(logging.DEBUG)
    yield caplog
    for name, level in saved.items():
        logging.getLogger(name).setLevel(level)


async def test_no_order_text_in_a_debug_log(
    fake: FakeDiscord, tmp_path: Path, debug_logging: pytest.LogCaptureFixture
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Quiet", players=3, press="public")
        france = table.player("FRANCE")
        debug_logging.clear()
        typed = "A Par-Gas\nF Bre-Pic\nA Xyzzy-Plugh"
        answer = await ask(fake, france, "order", channel=table.general, text=typed, game=str(game_id))
        assert "Xyzzy" in answer.content, "the player sees their lines"
        dm = await fake.dm_bot(france, "A Mar-Spa")
        assert await dm
        await settle(bot, fake)
        logged = "\n".join(r.getMessage() for r in debug_logging.records)
        logged += "\n".join(str(r.args) for r in debug_logging.records)
    assert len(debug_logging.records) > 10, "DEBUG logging was on"
    for secret in ("Xyzzy", "Par-Gas", "PAR - GAS", "Bre-Pic", "BRE - PIC", "Mar-Spa", "MAR - SPA"):
        assert secret not in logged, secret
