"""The bot's metrics for Prometheus (``/metrics``, ops.httpd), with prometheus-client.

Counted as they happen: phases closed, adjudication and map times (gm's closes,
:meth:`Metrics.phase_closed`), the time from an interaction's arrival to the bot's first answer
(the gate notes the arrival, :func:`count_answers` sees the answer), Discord's answers by status and its
rate limits by scope (each answer seen where discord.py reads it). Read when scraped: games by
state, the outbox's depth and the age of its oldest message (gm.facade's operations_status), the
event loop's lag and the gateway's latency. Also: the process's memory and CPU (prometheus-client's
process collector: ``process_resident_memory_bytes``, ``process_cpu_seconds_total``), failed
interactions by kind (a fault of ours, or the database away), closes that failed (each is tried
again), how late each deadline's close ran, and the messages given up.
"""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import aiohttp
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    ProcessCollector,
    generate_latest,
)

from ops import version

CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
LATENESS = (1.0, 5.0, 15.0, 30.0, 60.0, 120.0, 300.0, 900.0, 3600.0)
SECONDS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
KEPT_ARRIVALS = 2000  # interactions waiting for their first answer, remembered at most


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        Info("diplomacy_build", "The running version", registry=r).info(
            {"version": version.VERSION, "commit": version.commit()}
        )
        self.phases_closed = Counter("diplomacy_phases_closed", "Phases closed by this process", registry=r)
        self.adjudication = Histogram(
            "diplomacy_adjudication_seconds", "Adjudication time of a phase", buckets=SECONDS, registry=r
        )
        self.render = Histogram(
            "diplomacy_render_seconds", "Time to draw a closed phase's maps", buckets=SECONDS, registry=r
        )
        self.interaction = Histogram(
            "diplomacy_interaction_latency_seconds",
            "From an interaction's arrival to the bot's first answer to it",
            buckets=SECONDS,
            registry=r,
        )
        self.requests = Counter(
            "diplomacy_discord_requests", "Discord API answers, by status", ["status"], registry=r
        )
        self.rate_limits = Counter(
            "diplomacy_discord_rate_limits",
            "Discord API answers 429 (rate limited), by scope (user, global, shared)",
            ["scope"],
            registry=r,
        )
        self.member_limited = Counter(
            "diplomacy_member_rate_limited",
            "Interactions and messages dropped by the per-member rate limit (ops.limits), by kind",
            ["kind"],
            registry=r,
        )
        self.games = Gauge("diplomacy_games", "Games by state", ["state"], registry=r)
        self.outbox_depth = Gauge("diplomacy_outbox_depth", "Messages waiting to be posted", registry=r)
        self.outbox_age = Gauge(
            "diplomacy_outbox_oldest_age_seconds",
            "How long the oldest waiting message has waited",
            registry=r,
        )
        self.loop_lag = Gauge("diplomacy_event_loop_lag_seconds", "How late the event loop runs", registry=r)
        self.gateway_latency = Gauge(
            "diplomacy_gateway_latency_seconds", "Discord gateway's heartbeat latency", registry=r
        )
        ProcessCollector(registry=r)  # process_resident_memory_bytes, process_cpu_seconds_total ...
        self.interactions_failed = Counter(
            "diplomacy_interactions_failed",
            "Interactions answered with an apology: kind=fault (a bug, logged with its traceback) or "
            "kind=database (the database was away)",
            ["kind"],
            registry=r,
        )
        for kind in ("fault", "database"):
            self.interactions_failed.labels(kind)
        self.closes_failed = Counter(
            "diplomacy_closes_failed", "Phase closes that failed (each is tried again later)", registry=r
        )
        self.close_lateness = Histogram(
            "diplomacy_close_lateness_seconds",
            "How long after its deadline a phase's close finished",
            buckets=LATENESS,
            registry=r,
        )
        self.outbox_given_up = Gauge(
            "diplomacy_outbox_given_up", "Messages given up (never posted) in the outbox", registry=r
        )
        self._arrivals: dict[int, float] = {}
        self._by_status: dict[int, Any] = {}  # each status's counter (its labels looked up once)

    # --- counted as it happens -----------------------------------------------------------------

    def phase_closed(self, seconds: dict[str, float] | None, deadline: datetime | None = None) -> None:
        """A phase this process closed, with its ``seconds`` and ``deadline``
        (gm.phases.closer.CloseOutcome): a close at or after its deadline is measured for lateness."""
        self.phases_closed.inc()
        if deadline is not None:
            due = deadline if deadline.tzinfo is not None else deadline.replace(tzinfo=UTC)
            late = (datetime.now(UTC) - due).total_seconds()
            if late >= 0:
                self.close_lateness.observe(late)
        seconds = seconds or {}
        if "adjudicate" in seconds:
            self.adjudication.observe(seconds["adjudicate"])
        if "render" in seconds:
            self.render.observe(seconds["render"])

    def limited(self, kind: str) -> None:
        """An interaction or a message (``kind``) dropped by the per-member rate limit."""
        self.member_limited.labels(kind=kind).inc()

    def interaction_arrived(self, interaction_id: int) -> None:
        if len(self._arrivals) >= KEPT_ARRIVALS:  # never answered (the handler failed): forget
            self._arrivals.pop(next(iter(self._arrivals)))
        self._arrivals[interaction_id] = time.monotonic()

    def answered(self, response: aiohttp.ClientResponse) -> None:
        """An answer of Discord's to one of the bot's calls (:func:`count_answers`): counted by status,
        a 429 by its scope, an interaction's first answer timed from its arrival."""
        status = response.status
        counted = self._by_status.get(status)
        if counted is None:
            counted = self._by_status[status] = self.requests.labels(str(status))
        counted.inc()
        if status == 429:
            self.rate_limits.labels(response.headers.get("X-RateLimit-Scope", "unknown")).inc()
        if not self._arrivals:
            return
        match = CALLBACK.search(response.url.path)
        if match is not None:
            arrived = self._arrivals.pop(int(match[1]), None)
            if arrived is not None:
                self.interaction.observe(time.monotonic() - arrived)

    # --- read when scraped -----------------------------------------------------------------------

    async def scrape(
        self,
        status: Callable[[], Awaitable[Any]],
        *,
        loop_lag: float,
        gateway_latency: float | None,
    ) -> bytes:
        """The text exposition, the database figures read through ``status`` (the facade's
        operations_status) first; a database that does not answer leaves them as they were."""
        try:
            figures = await status()
        except Exception:
            figures = None
        if figures is not None:
            for state, count in figures.games.items():
                self.games.labels(state).set(count)
            self.outbox_depth.set(figures.outbox_waiting)
            self.outbox_given_up.set(getattr(figures, "outbox_given_up", 0))
            oldest = figures.outbox_oldest
            self.outbox_age.set((datetime.now(UTC) - oldest).total_seconds() if oldest else 0.0)
        self.loop_lag.set(loop_lag)
        if gateway_latency is not None and gateway_latency == gateway_latency:  # not NaN
            self.gateway_latency.set(gateway_latency)
        return generate_latest(self.registry)


def count_answers(session: aiohttp.ClientSession, metrics: Metrics) -> bool:
    """Count in ``metrics`` every answer Discord gives to the calls made through ``session`` (a bot's
    discord.py HTTP session: its own calls and the answers to interactions), retried ones included:
    the session makes its answers of a class of its own that tells ``metrics`` of each once its status
    and headers are read (aiohttp's ``response_class``, pinned aiohttp 3.14, checked by
    tests/e2e/test_bot_operations.py). An aiohttp trace (``http_trace=``) saw the same answers at the
    cost of eight signals and their parameters built for every call. False, and nothing counted, when
    this aiohttp's session makes its answers otherwise."""
    made: Any = getattr(session, "_response_class", None)
    if not isinstance(made, type) or not issubclass(made, aiohttp.ClientResponse):
        return False

    class Counted(made):
        async def start(self, connection: Any) -> Any:
            started = await super().start(connection)
            metrics.answered(self)
            return started

    try:
        vars(session)["_response_class"] = Counted  # the session's own attribute, as its __init__ sets it
    except TypeError:  # a session without a __dict__: made otherwise
        return False
    return True
