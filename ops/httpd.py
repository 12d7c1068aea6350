"""The optional HTTP endpoint (HEALTH_PORT; off by default, on 127.0.0.1 unless HEALTH_HOST says
otherwise): ``/healthz`` answers 200 when the bot is well and 503 with the reasons when it is not
(ops.liveness), ``/metrics`` the Prometheus text format (ops.metrics). aiohttp's server, already a
dependency of discord.py."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from ops import version
from ops.liveness import LoopLag, Vitals, examine
from ops.metrics import Metrics

log = logging.getLogger(__name__)


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
    ) -> None:
        self._vitals = vitals
        self._lag = lag
        self._metrics = metrics
        self._status = status
        self._latency = gateway_latency
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._scrape)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
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

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _healthz(self, _request: web.Request) -> web.Response:
        health = await examine(self._vitals, self._lag)
        body = {
            "status": "ok" if health.ok else "unhealthy",
            "problems": health.problems,
            "event_loop_lag_ms": round(health.lag * 1000, 1),
            "version": version.VERSION,
            "commit": version.commit(),
        }
        return web.Response(
            text=json.dumps(body) + "\n", status=200 if health.ok else 503, content_type="application/json"
        )

    async def _scrape(self, _request: web.Request) -> web.Response:
        body = await self._metrics.scrape(
            self._status, loop_lag=self._lag.lag, gateway_latency=self._latency()
        )
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
