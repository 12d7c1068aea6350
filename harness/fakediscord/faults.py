"""Fault injection: make the next N calls to a route fail the way Discord fails.

A pattern is "METHOD /path" where the path is either a glob on the real path ("POST /channels/*/messages")
or the route template ("POST /channels/{channel_id}/messages"). METHOD may be "*".
"""

from __future__ import annotations

import asyncio
import fnmatch
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .errors import json_response


@dataclass
class Fault:
    pattern: str
    status: int
    remaining: int
    retry_after: float = 0.05
    is_global: bool = False
    code: int | None = None
    message: str | None = None
    after: int = 0
    """Matching calls to let through before failing."""
    delay: float = 0.0
    """With status 0: no failure, the call is answered normally after this many seconds (latency)."""
    held: asyncio.Event | None = None
    """With status 0: no failure, the call is answered once this is set (see FakeDiscord.hold)."""
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when a matching call came (and, held, waits)."""
    when: Callable[[Any], bool] | None = None
    """Only calls whose JSON body this accepts match."""

    def matches(self, method: str, path: str, template: str | None, payload: Any = None) -> bool:
        want_method, _, want_path = self.pattern.partition(" ")
        if want_method not in ("*", method):
            return False
        if self.when is not None and not self.when(payload):
            return False
        return want_path == template or fnmatch.fnmatchcase(path, want_path)

    def release(self) -> None:
        """Let the held call (and any later one this fault holds) through."""
        if self.held is not None:
            self.held.set()

    def response(self) -> web.Response:
        if self.status == 429:
            # discord.py only trusts a 429 that came through Discord's proxy (the Via header) and reads
            # retry_after from the JSON body.
            body: dict[str, Any] = {
                "message": self.message or "You are being rate limited.",
                "retry_after": self.retry_after,
                "global": self.is_global,
                "code": self.code if self.code is not None else 0,
            }
            headers = {
                "Retry-After": str(max(1, round(self.retry_after))),
                "Via": "1.1 google",
                "X-RateLimit-Scope": "global" if self.is_global else "user",
            }
            if self.is_global:
                headers["X-RateLimit-Global"] = "true"
            return json_response(body, status=429, headers=headers)
        defaults = {
            403: (50013, "Missing Permissions"),
            404: (0, "404: Not Found"),
            500: (0, "500: Internal Server Error"),
            502: (0, "502: Bad Gateway"),
        }
        code, message = defaults.get(self.status, (0, f"{self.status}: injected failure"))
        return json_response(
            {"message": self.message or message, "code": self.code if self.code is not None else code},
            status=self.status,
        )


class FaultPlan:
    def __init__(self) -> None:
        self.faults: list[Fault] = []

    def add(self, fault: Fault) -> Fault:
        method, _, path = fault.pattern.partition(" ")
        if not method or not path.startswith("/"):
            raise ValueError(f"fault pattern {fault.pattern!r} must look like 'POST /channels/*/messages'")
        self.faults.append(fault)
        return fault

    def take(self, method: str, path: str, template: str | None, payload: Any = None) -> Fault | None:
        """The first armed fault matching this call, with one use consumed."""
        for fault in self.faults:
            if fault.remaining > 0 and fault.matches(method, path, template, payload):
                if fault.after > 0:
                    fault.after -= 1
                    continue
                fault.remaining -= 1
                return fault
        return None

    def pending(self) -> list[Fault]:
        return [f for f in self.faults if f.remaining > 0]
