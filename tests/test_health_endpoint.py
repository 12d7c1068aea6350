"""The health endpoint faces whoever reaches it: it listens on this machine unless told otherwise (a
blank HEALTH_HOST too), says so at start when it does not, asks METRICS_TOKEN of /metrics when one
is set, and refuses oversized requests with a 400 and one warning: no traceback, and /admin status's
last error stays the bot's own."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from config import Settings
from db.database import make_engine
from ops.facts import ProcessFacts
from ops.httpd import HealthServer
from ops.liveness import LoopLag
from ops.metrics import Metrics


@dataclass
class Well:
    database: AsyncEngine

    def gateway_problem(self) -> str | None:
        return None

    def scheduler_running(self) -> bool:
        return True


async def no_figures() -> Any:
    return SimpleNamespace(games={"active": 1}, outbox_waiting=0, outbox_oldest=None, outbox_given_up=0)


async def stuck_figures() -> Any:
    oldest = datetime.now(UTC) - timedelta(minutes=25)
    return SimpleNamespace(games={"active": 1}, outbox_waiting=7, outbox_oldest=oldest, outbox_given_up=2)


@pytest.fixture
async def engine() -> AsyncIterator[AsyncEngine]:
    engine = make_engine("sqlite+aiosqlite://")
    yield engine
    await engine.dispose()


async def serve(
    engine: AsyncEngine,
    host: str = "127.0.0.1",
    token: str | None = None,
    figures: Callable[[], Awaitable[Any]] = no_figures,
    metrics: Metrics | None = None,
) -> HealthServer:
    server = HealthServer(
        Well(engine),
        LoopLag(),
        metrics or Metrics(),
        figures,
        lambda: 0.05,
        host=host,
        port=0,
        metrics_token=token,
    )
    await server.start()
    return server


async def raw(port: int, request: bytes) -> tuple[int, bytes]:
    """The status and body of the answer to ``request``, sent as it is."""
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


def test_a_blank_or_unset_health_host_is_this_machine_only() -> None:
    assert Settings(_env_file=None, discord_token="x", health_host="").health_host == "127.0.0.1"
    assert Settings(_env_file=None, discord_token="x", health_host="  ").health_host == "127.0.0.1"
    assert Settings(_env_file=None, discord_token="x").health_host == "127.0.0.1"
    assert Settings(_env_file=None, discord_token="x", metrics_token="").metrics_token is None


async def test_another_address_is_a_warning_at_start(
    engine: AsyncEngine, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="ops.httpd"):
        local = await serve(engine)
        await local.stop()
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
        everywhere = await serve(engine, host="0.0.0.0")
        await everywhere.stop()
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warned) == 1 and "listens on 0.0.0.0" in warned[0] and "METRICS_TOKEN" in warned[0]


async def test_metrics_token_is_asked_of_metrics_only(engine: AsyncEngine) -> None:
    server = await serve(engine, token="s3cret")
    try:
        status, body = await raw(server.port, get("/metrics"))
        assert status == 401 and b"diplomacy_" not in body
        status, body = await raw(server.port, get("/metrics", "Authorization: Bearer wrong"))
        assert status == 401 and b"diplomacy_" not in body
        status, body = await raw(server.port, get("/metrics", "Authorization: Bearer s3cret"))
        assert status == 200 and b"diplomacy_outbox_depth" in body
        status, body = await raw(server.port, get("/healthz"))
        assert status == 200 and b'"ok"' in body
    finally:
        await server.stop()
    open_server = await serve(engine)
    try:
        status, body = await raw(open_server.port, get("/metrics"))
        assert status == 200 and b"diplomacy_outbox_depth" in body
    finally:
        await open_server.stop()


async def test_oversized_requests_are_refused_without_a_traceback_or_a_last_error(
    engine: AsyncEngine, caplog: pytest.LogCaptureFixture
) -> None:
    facts = ProcessFacts()
    logging.getLogger().addHandler(facts.last_error)
    server = await serve(engine)
    try:
        with caplog.at_level(logging.DEBUG):
            long_url = await raw(server.port, get("/healthz?" + "a" * 9 * 1024))
            long_header = await raw(server.port, get("/healthz", "X-Junk: " + "b" * 70 * 1024))
            well = await raw(server.port, get("/healthz"))
    finally:
        await server.stop()
        logging.getLogger().removeHandler(facts.last_error)
    assert long_url[0] == 400 and long_header[0] == 400
    assert well[0] == 200, "the endpoint still answers"
    assert facts.last_error.message is None, facts.last_error.message
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    refused = [r.getMessage() for r in caplog.records if "refused an HTTP request" in r.getMessage()]
    assert len(refused) == 2 and all(len(line) < 200 for line in refused), refused


async def test_a_stuck_outbox_is_degraded_and_the_operator_s_figures_are_scraped(engine: AsyncEngine) -> None:
    metrics = Metrics()
    metrics.phase_closed({"adjudicate": 0.01}, datetime.now(UTC) - timedelta(seconds=90))  # 90 s late
    metrics.phase_closed({}, datetime.now(UTC) + timedelta(hours=1))  # closed early: not late
    metrics.closes_failed.inc()
    metrics.interactions_failed.labels("database").inc()
    server = await serve(engine, figures=stuck_figures, metrics=metrics)
    try:
        status, body = await raw(server.port, get("/healthz"))
        answer = json.loads(body)
        assert status == 200 and answer["status"] == "degraded", answer
        assert answer["problems"] == [
            "the outbox is stuck: 7 messages waiting, the oldest for 25 min (see /admin status's last "
            "delivery error)"
        ]
        status, body = await raw(server.port, get("/metrics"))
    finally:
        await server.stop()
    text = body.decode()
    assert "diplomacy_outbox_given_up 2.0" in text
    assert "diplomacy_closes_failed_total 1.0" in text
    assert 'diplomacy_interactions_failed_total{kind="database"} 1.0' in text
    assert 'diplomacy_interactions_failed_total{kind="fault"} 0.0' in text
    assert "diplomacy_close_lateness_seconds_count 1.0" in text
    assert 'diplomacy_close_lateness_seconds_bucket{le="60.0"} 0.0' in text
    assert 'diplomacy_close_lateness_seconds_bucket{le="120.0"} 1.0' in text
    assert "process_resident_memory_bytes" in text and "process_cpu_seconds_total" in text
