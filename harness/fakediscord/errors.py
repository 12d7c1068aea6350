"""Errors: the JSON errors the fake API answers with, and the harness's own failures seen by tests."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web


class ApiError(Exception):
    """A Discord API error response: HTTP status plus the JSON body {"message", "code"[, "errors"]}."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {message} (code {code})")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


def json_response(data: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with Content-Type exactly "application/json": discord.py compares the header verbatim."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers=headers, content_type="application/json"
    )


# The Discord JSON error codes the fake uses (facts from Discord's API reference).
UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
UNKNOWN_OVERWRITE = 10009
UNKNOWN_ROLE = 10011
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
MISSING_ACCESS = 50001
CANNOT_SEND_EMPTY_MESSAGE = 50006
CANNOT_MESSAGE_USER = 50007
MISSING_PERMISSIONS = 50013
INVALID_FORM_BODY = 50035
ALREADY_ACKNOWLEDGED = 40060
THREAD_ARCHIVED = 50083
MAX_GUILD_CHANNELS = 30013
MAX_ACTIVE_THREADS = 160006


def not_found(code: int, what: str) -> ApiError:
    return ApiError(404, code, f"Unknown {what}")


def missing_permissions() -> ApiError:
    return ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")


def missing_access() -> ApiError:
    return ApiError(403, MISSING_ACCESS, "Missing Access")


def invalid_form(field: str, problem: str, error_code: str = "BASE_TYPE_INVALID") -> ApiError:
    """Discord's 50035 with the nested "errors" object naming the field (dotted path) that is wrong."""
    errors: dict[str, Any] = {"_errors": [{"code": error_code, "message": problem}]}
    for part in reversed(field.split(".")):
        errors = {part: errors}
    return ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", errors)


class FakeDiscordError(AssertionError):
    """A test asked for something the harness cannot do, or the bot did not do what a test waited for.

    An AssertionError so pytest shows it as a test failure with the full explanation.
    """


class UserActionError(FakeDiscordError):
    """A test user tried something the Discord client would not let them do (hidden command, bad option,
    a channel they cannot see, a disabled button...)."""


class ReplyTimeout(FakeDiscordError):
    """The bot did not answer in time; the message lists what it did meanwhile."""
