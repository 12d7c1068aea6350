"""The bot as a remote process in a test or a benchmark: its environment against the fake, a game
started through it, and waiting for a phase's status in its database."""

from __future__ import annotations

import asyncio
from pathlib import Path

from harness.bot_helpers import Table, ask, create_game, join_everyone, seats_from_welcomes
from harness.fakediscord import FakeDiscord
from harness.processes import BotProcess


def env_for(fake: FakeDiscord, tmp_path: Path, **extra: str) -> dict[str, str]:
    return {
        "DISCORD_TOKEN": fake.token,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}",
        "SYNC_COMMANDS": "true",
        "CLOSE_WORKERS": "1",
        **extra,
    }


async def started_remote_game(fake: FakeDiscord, table: Table, bot: BotProcess) -> int:
    """A three-player game made, joined and started by its players, the bot in its own process."""
    game_id = await create_game(fake, table, "Stopping", players=3, press="public")
    await join_everyone(fake, table, game_id)
    reply = await ask(fake, table.players[0], "game", "start", channel=table.general, game=str(game_id))
    assert "Game #" in reply.content or "started" in reply.content.lower(), reply.content
    await fake.wait_for(
        lambda: True if len(seats_from_welcomes(fake, table, game_id)) == 3 else None,
        what="every player's welcome",
        timeout=30,
    )
    return game_id


async def phase_status_becomes(bot: BotProcess, game_id: int, name: str, wanted: str, timeout: float) -> str:
    """Poll the database from outside until the phase's status is ``wanted`` (or it moved past it)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + timeout
    while loop.time() < until:
        rows = bot.query("SELECT status FROM phase WHERE game_id = ? AND name = ?", game_id, name)
        if rows and rows[0][0] != "open":
            return rows[0][0]
        await asyncio.sleep(0.005)
    raise AssertionError(f"phase {name} of game {game_id} still open after {timeout} s (wanted {wanted})")
