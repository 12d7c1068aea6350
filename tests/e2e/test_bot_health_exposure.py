"""Issue 39, point 2, on the running bot: a blank HEALTH_HOST (the way .env.example writes "use the
default") serves /healthz and /metrics on this machine only; METRICS_TOKEN protects /metrics; a 9 kB
URL and a 70 kB header are refused without a traceback and never become /admin status's last error."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from harness.bot_helpers import ask, make_table, running
from harness.fakediscord import FakeDiscord, Permission


async def raw(port: int, request: bytes) -> tuple[int, bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def get(path: str, *headers: str) -> bytes:
    lines = [f"GET {path} HTTP/1.1", "Host: localhost", "Connection: close", *headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def test_the_health_endpoint_faces_strangers_safely(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    table = await make_table(fake, players=3)
    caplog.set_level(logging.INFO)
    async with running(fake, tmp_path, health_port=0, health_host="", metrics_token="s3cret") as bot:
        server = bot.health_server
        assert server is not None and server.host == "127.0.0.1", "blank: this machine only"
        assert not [r for r in caplog.records if "not only on this machine" in r.getMessage()]

        assert (await raw(server.port, get("/metrics")))[0] == 401
        code, body = await raw(server.port, get("/metrics", "Authorization: Bearer s3cret"))
        assert code == 200 and b"diplomacy_games" in body
        assert (await raw(server.port, get("/healthz")))[0] == 200, "/healthz needs no token"

        assert (await raw(server.port, get("/healthz?" + "a" * 9 * 1024)))[0] == 400
        assert (await raw(server.port, get("/healthz", "X-Junk: " + "b" * 70 * 1024)))[0] == 400
        assert (await raw(server.port, get("/healthz")))[0] == 200

        admins = await fake.create_role(table.guild, "Admins", Permission.ADMINISTRATOR)
        await fake.add_member(table.guild, fake.app_owner, admins)
        answer = await ask(fake, fake.app_owner, "admin", "status", channel=table.general)
        assert "Last error logged: none since the start" in answer.content, answer.content
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    refused = [r for r in caplog.records if "refused an HTTP request" in r.getMessage()]
    assert len(refused) == 2 and all(r.levelno == logging.WARNING for r in refused)
    assert fake.unknown_calls == [] and fake.internal_errors == []
