"""The Gateway: one websocket endpoint speaking Discord's gateway protocol (JSON encoding, no compression).

HELLO, IDENTIFY -> READY + GUILD_CREATE per guild, HEARTBEAT -> HEARTBEAT_ACK, RESUME (replays what was
missed, then RESUMED), REQUEST_GUILD_MEMBERS -> GUILD_MEMBERS_CHUNK, and dispatches filtered by the
intents the client identified with. A bot may run shards (IDENTIFY's ``shard``: [id, count]), one
session each, from one process or several: a guild's events go to the session of shard
``(guild_id >> 22) % count``, as Discord routes them, and direct messages (no guild) to shard 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

_log = logging.getLogger(__name__)

# Opcodes
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE_UPDATE = 0, 1, 2, 3
RESUME, RECONNECT, REQUEST_GUILD_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11

# Intents (bit values from Discord's gateway reference)
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT

# Close codes
AUTHENTICATION_FAILED = 4004
ALREADY_AUTHENTICATED = 4005
DISALLOWED_INTENTS = 4014

ReadyBuilder = Callable[["Session"], list[tuple[str, dict[str, Any]]]]
ChunkBuilder = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass
class Session:
    id: str
    intents: int
    shard: tuple[int, int] = (0, 1)  # (this shard's id, how many shards the bot runs)
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    connection: Connection | None = None


class Connection:
    """One websocket. A payload is written the moment it is sent, as Discord streams each event as it
    is made: in a burst the bot reads the first interactions while the fake still makes the later ones
    (a bench's hundreds of players, made in one round of the loop, no longer reach the bot only all
    together once the last is made). When the socket cannot take it at once (its buffer not empty,
    compression) or earlier payloads wait, it waits its turn for the writer task, in order; sending
    never awaits."""

    def __init__(self, ws: web.WebSocketResponse, transport: asyncio.Transport | None = None) -> None:
        self.ws = ws
        self.outbox: asyncio.Queue[str] = asyncio.Queue()
        self.identified = False
        self._transport = transport
        self._writing = False  # the writer task is in a write (waiting for the socket's buffer)
        self._writer = asyncio.create_task(self._write(), name="fakediscord-gateway-writer")

    def send(self, payload: dict[str, Any]) -> None:
        # Discord's events are JSON, where NaN and the infinities do not exist: a test that would send
        # one fails here, in its own call, instead of sending what Discord never could.
        text = json.dumps(payload, allow_nan=False)
        if self._writing or not self.outbox.empty() or not self._write_now(text):
            self.outbox.put_nowait(text)

    def _write_now(self, text: str) -> bool:
        """Write ``text`` to the socket now if it takes it without a wait; False if it must wait.

        aiohttp's send_str writes an uncompressed frame to the transport before its only wait (for a
        full buffer to drain, pinned aiohttp 3.14), so with the buffer empty it ends in one step."""
        transport = self._transport
        if transport is None or self.ws.compress:
            return False
        if self.ws.closed or transport.is_closing():
            return True  # as the writer: nothing is written to a closed socket
        if transport.get_write_buffer_size():
            return False
        step = self.ws.send_str(text)
        try:
            step.send(None)
        except StopIteration:
            return True
        except (ConnectionError, RuntimeError) as exc:
            _log.debug("gateway write failed: %s", exc)
            return True
        step.close()  # written, then it would wait for the buffer: the writer's next write waits for it
        return True

    async def _write(self) -> None:
        while True:
            payload = await self.outbox.get()
            self._writing = True
            try:
                if not self.ws.closed:
                    await self.ws.send_str(payload)
            except (ConnectionError, RuntimeError) as exc:
                _log.debug("gateway write failed: %s", exc)
            finally:
                self._writing = False
                self.outbox.task_done()

    async def close(self) -> None:
        self._writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._writer
        while not self.outbox.empty():
            self.outbox.get_nowait()
            self.outbox.task_done()


class Gateway:
    def __init__(
        self,
        *,
        token: str,
        ready_events: ReadyBuilder,
        members_chunk: ChunkBuilder,
        heartbeat_interval_ms: int = 41_250,
        allowed_privileged_intents: int = PRIVILEGED_INTENTS,
    ) -> None:
        self._token = token
        self._ready_events = ready_events
        self._members_chunk = members_chunk
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.allowed_privileged_intents = allowed_privileged_intents
        self.resume_url = ""
        self.sessions: dict[int, Session] = {}  # shard id -> its session
        self.connections: set[Connection] = set()
        self.identify_count = 0
        self.resume_count = 0
        self.heartbeat_count = 0
        self.presence: dict[str, Any] | None = None
        self.observed_sequence: Callable[[int], int | None] | None = None
        """Reads the attached client's last gateway sequence number on a shard (see flush); raises
        LookupError for a shard the client does not run."""

    # --- dispatching ---------------------------------------------------------------------------------

    @property
    def session(self) -> Session | None:
        """Shard 0's session (the only one of a bot that does not shard)."""
        return self.sessions.get(0)

    def session_for(self, data: dict[str, Any], event: str = "") -> Session | None:
        """The session an event about ``data`` goes to: its guild's shard, or shard 0."""
        if not self.sessions:
            return None
        own_id = event.startswith("GUILD_") and "guild_id" not in data  # GUILD_CREATE and the like
        guild = data.get("id") if own_id else data.get("guild_id")
        count = next(iter(self.sessions.values())).shard[1]
        shard = (int(guild) >> 22) % count if guild else 0
        return self.sessions.get(shard)

    def dispatch(self, event: str, data: dict[str, Any], *, intent: int | None = None) -> None:
        """Send an event to the bot (the shard of its guild) if its intents subscribe to it; kept for
        RESUME while disconnected."""
        session = self.session_for(data, event)
        if session is None:
            return
        if intent is not None and not session.intents & intent:
            return
        session.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.events.append(payload)
        if session.connection is not None:
            session.connection.send(payload)

    def has_intent(self, intent: int) -> bool:
        return any(session.intents & intent for session in self.sessions.values())

    @property
    def connected(self) -> bool:
        return bool(self.sessions) and all(s.connection is not None for s in self.sessions.values())

    async def flush(self, timeout: float = 5.0) -> None:
        """Wait until the bot has parsed everything dispatched so far (its handlers may still be running).

        Everything is first written to the socket. Then, if a client is attached (observed_sequence), wait
        until its last seen sequence number reaches ours: discord.py records the sequence and parses the
        event with no await in between, so that is the moment its cache reflects every earlier event.
        (A server HEARTBEAT request would also work as a barrier, but discord.py answers through its
        gateway rate limiter, 110 sends a minute, which a long game test exceeds.)"""
        for other in self.sessions.values():
            if other.connection is not None:
                await other.connection.outbox.join()
        observed = self.observed_sequence
        if observed is None:
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        for shard_id, session in list(self.sessions.items()):
            connection = session.connection
            if connection is None:
                continue
            target = session.seq
            while session.connection is connection:
                try:
                    seen = observed(shard_id)
                except LookupError:  # not a shard of the attached client's: written is all we know
                    break
                if seen is not None and seen >= target:
                    break
                if loop.time() > deadline:
                    raise TimeoutError(
                        f"the bot has not processed gateway event {target} of shard {shard_id} "
                        f"(it is at {seen})"
                    )
                await asyncio.sleep(0.001)

    # --- server-side controls for tests --------------------------------------------------------------

    async def drop_connections(self, code: int = 4000) -> None:
        """Close the live websocket(s) as a network failure would; discord.py reconnects and RESUMEs."""
        for connection in list(self.connections):
            await connection.ws.close(code=code, message=b"fake disconnect")

    def request_reconnect(self) -> None:
        """Send opcode 7 RECONNECT: the client closes, reconnects and RESUMEs."""
        for connection in list(self.connections):
            connection.send({"op": RECONNECT, "d": None, "s": None, "t": None})

    async def close(self) -> None:
        await self.drop_connections(code=1001)

    # --- websocket handler ---------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        connection = Connection(ws, request.transport)
        self.connections.add(connection)
        connection.send(
            {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None, "t": None}
        )
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._on_payload(connection, json.loads(msg.data))
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            for session in self.sessions.values():
                if session.connection is connection:
                    session.connection = None
            self.connections.discard(connection)
            await connection.close()
        return ws

    async def _on_payload(self, connection: Connection, payload: dict[str, Any]) -> None:
        op, data = payload.get("op"), payload.get("d")
        if op == HEARTBEAT:
            self.heartbeat_count += 1
            connection.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            await self._identify(connection, data or {})
        elif op == RESUME:
            await self._resume(connection, data or {})
        elif op == REQUEST_GUILD_MEMBERS:
            chunk = self._members_chunk(data or {})
            session = next((s for s in self.sessions.values() if s.connection is connection), None)
            if session is not None:  # the answer goes back on the connection that asked
                self._send(session, "GUILD_MEMBERS_CHUNK", chunk)
        elif op == PRESENCE_UPDATE:
            self.presence = data
        else:
            _log.debug("ignoring gateway opcode %s", op)

    async def _identify(self, connection: Connection, data: dict[str, Any]) -> None:
        if connection.identified:
            await connection.ws.close(code=ALREADY_AUTHENTICATED, message=b"Already authenticated.")
            return
        if data.get("token") != self._token:
            await connection.ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS & ~self.allowed_privileged_intents:
            await connection.ws.close(code=DISALLOWED_INTENTS, message=b"Disallowed intent(s).")
            return
        shard_id, shard_count = (int(x) for x in (data.get("shard") or (0, 1)))
        connection.identified = True
        self.identify_count += 1
        session = Session(
            id=secrets.token_hex(16), intents=intents, shard=(shard_id, shard_count), connection=connection
        )
        for other_id, other in list(self.sessions.items()):
            if other.shard[1] != shard_count and other.connection is None:
                del self.sessions[other_id]  # a run of the bot with another shard count, gone
        self.sessions[shard_id] = session
        for event, event_data in self._ready_events(session):
            self._send(session, event, event_data)

    async def _resume(self, connection: Connection, data: dict[str, Any]) -> None:
        session = next((s for s in self.sessions.values() if s.id == data.get("session_id")), None)
        resumable = (
            session is not None
            and data.get("token") == self._token
            and data.get("session_id") == session.id
            and session.connection is None
        )
        if not resumable or session is None:
            connection.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        connection.identified = True
        self.resume_count += 1
        session.connection = connection
        last_seen = data.get("seq") or 0
        for payload in session.events:
            if payload["s"] > last_seen:
                connection.send(payload)
        self._send(session, "RESUMED", {})

    def _send(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.events.append(payload)
        if session.connection is not None:
            session.connection.send(payload)
