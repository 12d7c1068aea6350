"""The REST side: an aiohttp application under /api/v10 with Discord's error shapes, a log of every call,
authentication, fault injection and a JSON 404 (recorded) for any route the fake does not model."""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

import aiohttp
from aiohttp import web

from .backend import Backend, UploadedFile
from .errors import ApiError, json_response
from .faults import FaultPlan
from .ids import utcnow
from .notifier import Notifier
from .state import User
from .world import World

_log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
FAKE_KEY: web.AppKey[Served] = web.AppKey("fake")
PAYLOAD_KEY: web.RequestKey[Any] = web.RequestKey("payload", object)
FILES_KEY: web.RequestKey[list[UploadedFile]] = web.RequestKey("files", list)

_NO_AUTH_PREFIXES = ("/interactions/", "/webhooks/")


@dataclass
class RestCall:
    """One HTTP request the bot made, as recorded by the fake."""

    method: str
    path: str
    """The real path without the /api/v10 prefix, e.g. /channels/123/messages."""
    route: str | None
    """The route template, e.g. /channels/{channel_id}/messages; None for a route the fake does not know."""
    query: dict[str, str]
    json: Any
    """The JSON body (for multipart requests: the parsed payload_json part)."""
    files: list[tuple[str, int]] = field(default_factory=list)
    """(filename, size) of each uploaded file."""
    status: int = 0
    error: dict[str, Any] | None = None
    """The JSON error body when status is not 2xx."""
    disconnected: bool = False
    """The client closed its connection before the request was whole (no answer was sent)."""
    client: str | None = None
    """Which client made it, when it says (``fake-client/NAME`` in its User-Agent: several bot
    processes against one fake; see harness.bot_process)."""
    at: datetime = field(default_factory=utcnow)

    def __str__(self) -> str:
        error = f" {self.error}" if self.error else ""
        return f"{self.method} {self.path} -> {self.status}{error}"


class Served(Protocol):
    """What the middleware and the routes read and change of the fake (FakeDiscord is one): they
    never import the fake itself, which imports them."""

    world: World
    backend: Backend
    notifier: Notifier
    faults: FaultPlan
    rest_log: list[RestCall]
    internal_errors: list[str]
    token: str
    app_owner: User
    sync_count: int
    ack_deadline: float | None
    recommended_shards: int

    @property
    def gateway_url(self) -> str: ...


async def read_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    """JSON body, or multipart/form-data with `payload_json` and `files[n]` parts, as discord.py sends."""
    if request.content_type == "multipart/form-data":
        payload: Any = None
        files: list[UploadedFile] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, aiohttp.BodyPartReader):
                continue
            data = await part.read()
            if part.name == "payload_json":
                payload = json.loads(data)
            elif part.name:
                files.append(
                    UploadedFile(field=part.name, filename=part.filename or part.name, data=bytes(data))
                )
        return payload, files
    raw = await request.read()
    if not raw:
        return None, []
    try:
        return json.loads(raw), []
    except json.JSONDecodeError as exc:
        raise ApiError(400, 50109, "The request body contains invalid JSON.") from exc


def error_response(error: ApiError) -> web.Response:
    return json_response(error.body(), status=error.status)


def _route_template(request: web.Request) -> str | None:
    if request.match_info.http_exception is not None:
        return None
    resource = request.match_info.route.resource
    if resource is None:
        return None
    return resource.canonical[len(API_PREFIX) :]


CLIENT_MARK = " fake-client/"


def client_label(user_agent: str) -> str | None:
    """The NAME of a User-Agent ending in `` fake-client/NAME``."""
    _, mark, label = user_agent.partition(CLIENT_MARK)
    return (label.strip() or None) if mark else None


@web.middleware
async def api_middleware(request: web.Request, handler: Any) -> web.StreamResponse:
    if not request.path.startswith(API_PREFIX + "/"):
        return await handler(request)
    fake = request.app[FAKE_KEY]
    path = request.path[len(API_PREFIX) :]
    template = _route_template(request)
    call = RestCall(
        method=request.method,
        path=path,
        route=template,
        query=dict(request.query),
        json=None,
        client=client_label(request.headers.get("User-Agent", "")),
    )
    fake.rest_log.append(call)
    response: web.StreamResponse
    try:
        payload, files = await read_body(request)
        call.json = payload
        call.files = [(f.filename, len(f.data)) for f in files]
        request[PAYLOAD_KEY], request[FILES_KEY] = payload, files
        if template is None:
            missing = request.match_info.http_exception
            assert missing is not None  # aiohttp's answer when no route matched: 404 or 405
            raise ApiError(404 if missing.status == 404 else 405, 0, f"{missing.status}: {missing.reason}")
        if (
            not path.startswith(_NO_AUTH_PREFIXES)
            and request.headers.get("Authorization") != f"Bot {fake.token}"
        ):
            raise ApiError(401, 0, "401: Unauthorized")
        fault = fake.faults.take(request.method, path, template, payload)
        if fault is not None:
            fault.reached.set()
        if fault is not None and fault.status == 0:  # latency, not a failure
            await asyncio.sleep(fault.delay)
            if fault.held is not None:
                await fault.held.wait()
            response = await handler(request)
        elif fault is not None:
            response = fault.response()
            body = response.body
            call.error = json.loads(body) if isinstance(body, bytes) and body else None
        else:
            response = await handler(request)
    except ApiError as error:
        response = error_response(error)
        call.error = error.body()
    except ConnectionResetError as exc:
        # The client went away in the middle of its request (a bot process killed while it uploaded):
        # nothing reached the world and no answer can reach the client. Not a bug of the fake.
        call.error = {"message": f"client disconnected: {exc!r}", "code": 0}
        call.disconnected = True
        fake.notifier.notify()
        raise
    except Exception as exc:
        # A bug in the fake itself: answer 400 (a 500 would make discord.py retry for 25 s) and keep it.
        _log.exception("FakeDiscord failed on %s %s", request.method, path)
        fake.internal_errors.append(f"{request.method} {path}: {exc!r}")
        internal = ApiError(400, 0, f"FakeDiscord internal error: {exc!r}")
        response = error_response(internal)
        call.error = internal.body()
    call.status = response.status
    fake.notifier.notify()
    return response


def json_ok(data: Any) -> web.Response:
    return json_response(data)


def no_content() -> web.Response:
    return web.Response(status=204)


def raw_body(request: web.Request) -> Any:
    """The parsed JSON body whatever its type (a list for bulk command overwrites)."""
    return request.get(PAYLOAD_KEY)


def body(request: web.Request) -> dict[str, Any]:
    payload = request.get(PAYLOAD_KEY)
    return payload if isinstance(payload, dict) else {}


def files_of(request: web.Request) -> list[UploadedFile]:
    return list(request.get(FILES_KEY) or [])


def fake_of(request: web.Request) -> Served:
    return request.app[FAKE_KEY]
