"""What an operator watches: /healthz (200, or 503 with the reason when the gateway is down),
/metrics in Prometheus's text format, and /admin status for the bot's owner only."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from cogs.commands.admin import NOT_OWNER
from harness.bot_helpers import ask, make_table, moderator_closes, running, settle, started_game
from harness.fakediscord import FakeDiscord, Permission
from ops.version import VERSION
from tests.helpers.db_cli import acli as db_cli

pytestmark = pytest.mark.waits  # processes or real time: spread through the run (tests/conftest.py)


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as answer:
        return answer.status, await answer.text()


def samples(exposition: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(exposition)
        for sample in family.samples
    }


async def test_healthz_metrics_and_admin_status(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path, health_port=0) as bot:
        server = bot.health_server
        assert server is not None and server.host == "127.0.0.1", "this machine only, by default"
        base = f"http://127.0.0.1:{server.port}"
        code, body = await get(f"{base}/healthz")
        assert code == 200 and json.loads(body)["status"] == "ok", body

        # A restore while this bot runs on the database: refused, the database untouched.
        url = f"sqlite:///{tmp_path / 'bot.db'}"
        backed = await db_cli("--database-url", url, "backup", str(tmp_path / "copy.db"), cwd=tmp_path)
        assert backed[0] == 0, backed
        code, _, refusal = await db_cli(
            "--database-url", url, "restore", str(tmp_path / "copy.db"), cwd=tmp_path
        )
        assert code == 3 and refusal.startswith("restore refused: a bot process is using"), refusal
        assert list(tmp_path.glob("bot.db.replaced-*")) == []

        game_id = await started_game(fake, bot, table, "Watched", players=3, press="public")
        fake.inject_fault("POST /channels/*/messages", 429, retry_after=0.05)  # one short rate limit
        await moderator_closes(fake, table.mod, table.general, game_id)
        await settle(bot, fake)
        code, exposition = await get(f"{base}/metrics")
        assert code == 200
        found = samples(exposition)
        assert found[("diplomacy_games", (("state", "active"),))] == 1
        assert found[("diplomacy_games", (("state", "forming"),))] == 0
        assert found[("diplomacy_phases_closed_total", ())] == 1
        assert found[("diplomacy_adjudication_seconds_count", ())] == 1
        assert found[("diplomacy_render_seconds_count", ())] == 1
        assert found[("diplomacy_interaction_latency_seconds_count", ())] >= 5, "every command answered"
        assert found[("diplomacy_outbox_depth", ())] == 0
        assert found[("diplomacy_discord_requests_total", (("status", "200"),))] > 0
        assert found[("diplomacy_discord_rate_limits_total", (("scope", "user"),))] == 1
        assert (
            found[("process_resident_memory_bytes", ())] > 10e6
            and found[("process_cpu_seconds_total", ())] > 0
        )
        assert found[("diplomacy_interactions_failed_total", (("kind", "fault"),))] == 0
        assert found[("diplomacy_interactions_failed_total", (("kind", "database"),))] == 0
        assert found[("diplomacy_closes_failed_total", ())] == 0
        assert found[("diplomacy_outbox_given_up", ())] == 0
        assert (
            "diplomacy_build_info",
            (("commit", bot.facts.version.split("commit ")[1][:-1]), ("version", VERSION)),
        ) in found

        shard = bot.get_shard(0)
        assert shard is not None
        await shard.disconnect()  # the gateway is lost (and not reconnected)
        code, body = await get(f"{base}/healthz")
        assert code == 503, body
        assert json.loads(body)["problems"] == ["Discord's gateway is disconnected (shard 0)"]
        await shard.reconnect()
        await fake.wait_for(lambda: True if not shard.is_closed() else None, what="the shard back")
        code, body = await get(f"{base}/healthz")
        assert code == 200, body

        admins = await fake.create_role(table.guild, "Admins", Permission.ADMINISTRATOR)
        server_admin = await fake.create_user("server-admin")  # sees the command, is not the owner
        await fake.add_member(table.guild, server_admin, admins)
        refused = await ask(fake, server_admin, "admin", "status", channel=table.general)
        assert refused.ephemeral and refused.content == NOT_OWNER
        await fake.add_member(table.guild, fake.app_owner, admins)
        answer = await ask(fake, fake.app_owner, "admin", "status", channel=table.general)
        assert answer.ephemeral
        assert f"diplomacy-gm {VERSION}" in answer.content
        assert "servers: 1" in answer.content and "active 1" in answer.content
        assert f"Last close: game {game_id} S1901M" in answer.content
        assert "0 messages waiting" in answer.content
        assert "Error(" not in answer.content and "Exception(" not in answer.content, "in words"
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_the_first_start_publishes_the_commands_and_later_ones_only_when_they_changed(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The README's two commands are enough: no --sync needed, and no publishing at every start."""
    caplog.set_level(logging.INFO, logger="ops.commands")

    def publishes() -> int:
        return len(fake.calls("PUT /applications/*/commands"))

    async with running(fake, tmp_path, sync_commands=None):
        assert publishes() == 1
    names = {c.name for c in fake.world.commands.values()}
    assert {"game", "orders", "admin", "mod"} <= names, names
    assert "slash commands published" in caplog.text and "(missing)" in caplog.text
    caplog.clear()
    async with running(fake, tmp_path, sync_commands=None):
        assert publishes() == 1, "unchanged: not published again"
    stale = next(c for c in fake.world.commands.values() if c.name == "stats")
    stale.payload["description"] = "what an older version said"  # a command of an older version
    async with running(fake, tmp_path, sync_commands=False):
        assert publishes() == 1
    assert (
        "differ from this version's (stats (changed)); SYNC_COMMANDS=false: run ./run.sh --sync"
        in caplog.text
    )
    async with running(fake, tmp_path, sync_commands=None):
        assert publishes() == 2, "changed: published"
    assert fake.unknown_calls == [] and fake.internal_errors == []
