"""The optional HTTP endpoint (HEALTH_PORT; off by default, on 127.0.0.1 unless HEALTH_HOST says
otherwise): ``/healthz`` answers 200 when the bot is well and 503 with the reasons when it is not
(ops.liveness), ``/metrics`` the Prometheus text format (ops.metrics). aiohttp's server, already a
dependency of discord.py.

Blank or unset, HEALTH_HOST is 127.0.0.1; any other address is logged as a warning at start (the
endpoint would answer whoever reaches it). METRICS_TOKEN, when set, is asked of /metrics as
``Authorization: Bearer <token>`` (401 otherwise). A request the server cannot take (a URL or header
over 8 kB, a malformed request line) is refused with 400 and logged as one warning, never as an error:
it is somebody else's mistake, not the bot's, and /admin status's last error stays the bot's own."""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from prometheus_client import CONTENT_TYPE_LATEST

from ops import version
from ops.liveness import DATABASE_WAIT, LoopLag, Vitals, examine
from ops.metrics import Metrics

OUTBOX_STUCK = 600.0  # seconds the oldest waiting message may wait before /healthz says "degraded"
log = logging.getLogger(__name__)
requests_log = logging.getLogger(f"{__name__}.requests")  # aiohttp's server logs through it


class RefusedRequests(logging.Filter):
    """aiohttp's "Error handling request" (a bad or oversized request it refused with 4xx) as one
    warning without a traceback; anything else it logs goes through as it is."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, HttpProcessingError):
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.msg = "refused an HTTP request to the health endpoint: %s"
            record.args = (_refusal(exc),)
            record.exc_info = record.exc_text = None
        return True


requests_log.addFilter(RefusedRequests())


def _refusal(exc: HttpProcessingError) -> str:
    text = (exc.message or type(exc).__name__).strip().splitlines()
    return f"{exc.code} {text[0][:120] if text else ''}".strip()


def _span(seconds: float) -> str:
    if seconds < 2 * 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.0f} h"
    return f"{seconds / 86400:.0f} days"


def is_loopback(host: str) -> bool:
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip()).is_loopback
    except ValueError:
        return False


class HealthServer:
    def __init__(
        self,
        vitals: Vitals,
        lag: LoopLag,
        metrics: Metrics,
        status: Callable[[], Awaitable[Any]],
        gateway_latency: Callable[[], float | None],
        *,
        host: str,
        port: int,
        metrics_token: str | None = None,
        backlog: Callable[[], Awaitable[Any]] | None = None,
    ) -> None:
        """``status``: the database's figures for /metrics (gm.facade's operations_status);
        ``backlog``: the outbox's depth and age alone, for /healthz (default: ``status``'s)."""
        self._vitals = vitals
        self._lag = lag
        self._metrics = metrics
        self._status = status
        self._backlog = backlog or status
        self._latency = gateway_latency
        self.host = host
        self.port = port
        self._token = metrics_token.encode() if metrics_token else None
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._scrape)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, logger=requests_log)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        sockets = getattr(site._server, "sockets", None) or []
        if sockets:
            self.port = int(sockets[0].getsockname()[1])  # port 0 in tests: the one the system chose
        log.info(
            "health and metrics on http://%s:%d/healthz and /metrics",
            self.host,
            self.port,
            extra={"event": "health_endpoint", "host": self.host, "port": self.port},
        )
        if not is_loopback(self.host):
            log.warning(
                "the health endpoint listens on %s, not only on this machine: whoever reaches port %d "
                "reads /healthz%s (HEALTH_HOST=127.0.0.1 keeps it local)",
                self.host,
                self.port,
                "" if self._token else " and /metrics (set METRICS_TOKEN to protect /metrics)",
                extra={"event": "health_endpoint_exposed", "host": self.host, "port": self.port},
            )

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _healthz(self, _request: web.Request) -> web.Response:
        health = await examine(self._vitals, self._lag)
        degraded = await self._outbox_stuck() if health.ok else None
        body = {
            "status": "ok" if health.ok and degraded is None else "degraded" if health.ok else "unhealthy",
            "problems": health.problems + ([degraded] if degraded else []),
            "event_loop_lag_ms": round(health.lag * 1000, 1),
            "version": version.VERSION,
            "commit": version.commit(),
        }
        return web.Response(
            text=json.dumps(body) + "\n", status=200 if health.ok else 503, content_type="application/json"
        )

    async def _outbox_stuck(self) -> str | None:
        """Messages waiting for longer than OUTBOX_STUCK: the bot runs, but its posts do not go out
        (Discord refusing them, a lost permission). "degraded" with 200: a restart would not help."""
        try:
            figures = await asyncio.wait_for(self._backlog(), DATABASE_WAIT)
        except Exception:
            return None  # the database's own check says what is wrong with it
        oldest = getattr(figures, "outbox_oldest", None)
        if oldest is None:
            return None
        waited = (datetime.now(UTC) - oldest).total_seconds()
        if waited < OUTBOX_STUCK:
            return None
        return (
            f"the outbox is stuck: {figures.outbox_waiting} messages waiting, the oldest for "
            f"{_span(waited)} (see /admin status's last delivery error)"
        )

    async def _scrape(self, request: web.Request) -> web.Response:
        if self._token is not None:
            given = request.headers.get("Authorization", "").encode()
            if not hmac.compare_digest(given, b"Bearer " + self._token):
                return web.Response(
                    status=401,
                    text="/metrics needs Authorization: Bearer <METRICS_TOKEN>\n",
                    headers={"WWW-Authenticate": 'Bearer realm="metrics"'},
                )
        body = await self._metrics.scrape(
            self._status, loop_lag=self._lag.lag, gateway_latency=self._latency()
        )
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
