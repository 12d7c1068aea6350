"""FakeDiscord: the test-facing API of the loopback Discord.

    async with fake_discord() as fake:            # listens on 127.0.0.1, points discord.py at it
        guild = await fake.create_guild("Diplomacy")
        alice = await fake.create_user("alice")
        await fake.add_member(guild, alice)
        general = await fake.create_channel(guild, "general")
        async with running_bot(bot, fake):
            handle = await fake.slash(alice, "game", "create", options={"name": "g1"}, channel=general)
            reply = await handle.message()
            assert reply.ephemeral and "created" in reply.content

Users act (slash, autocomplete, click, submit_modal, dm_bot, say); the bot answers over REST; tests read
what each user could see (visible_messages, seen_texts, can_view) and what the bot called (rest_log).
"""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import secrets
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from typing import Any

import discord
import yarl
from aiohttp import web

from . import commands, routes_channels, routes_core, routes_interactions, screenshot, userinput
from .backend import Backend
from .errors import UserActionError
from .faults import Fault, FaultPlan
from .gateway import PRIVILEGED_INTENTS, Gateway
from .handles import DMHandle, InteractionHandle
from .ids import new_snowflake, snowflake_at, utcnow
from .notifier import Notifier
from .permissions import DEFAULT_BOT, Permission
from .rest import API_PREFIX, FAKE_KEY, RestCall, api_middleware
from .state import (
    Channel,
    ChannelType,
    Command,
    Guild,
    Interaction,
    InteractionKind,
    Member,
    Message,
    Overwrite,
    OverwriteType,
    Role,
    User,
    walk_components,
)
from .world import World

Target = Role | User | Member


def overwrite(target: Target, *, allow: int = 0, deny: int = 0) -> Overwrite:
    """A permission overwrite for a role or a member (User or Member)."""
    if isinstance(target, Role):
        return Overwrite(target.id, OverwriteType.ROLE, int(allow), int(deny))
    target_id = target.user_id if isinstance(target, Member) else target.id
    return Overwrite(target_id, OverwriteType.MEMBER, int(allow), int(deny))


class FakeDiscord:
    def __init__(
        self,
        *,
        bot_name: str = "Diplomacy GM",
        ack_deadline: float | None = 3.0,
        reply_timeout: float = 5.0,
        heartbeat_interval_ms: int = 41_250,
        allowed_privileged_intents: int = PRIVILEGED_INTENTS,
    ) -> None:
        self.token = f"fake.{secrets.token_urlsafe(24)}"
        bot = User(id=new_snowflake(), username=bot_name, bot=True)
        self.world = World(bot=bot, application_id=new_snowflake(), token=self.token)
        self.app_owner = User(id=new_snowflake(), username="app-owner")
        self.world.users[self.app_owner.id] = self.app_owner
        self.notifier = Notifier()
        self.gateway = Gateway(
            token=self.token,
            ready_events=lambda session: self.backend.ready_events(session),
            members_chunk=lambda request: self.backend.members_chunk(request),
            heartbeat_interval_ms=heartbeat_interval_ms,
            allowed_privileged_intents=allowed_privileged_intents,
        )
        self.backend = Backend(self.world, self.gateway, self.notifier)
        self.faults = FaultPlan()
        self.rest_log: list[RestCall] = []
        self.sync_count = 0
        self.internal_errors: list[str] = []
        """Exceptions inside the fake's own handlers (bugs of the harness, not of the bot)."""
        self.ack_deadline = ack_deadline
        """Seconds the bot has to acknowledge an interaction (Discord: 3); None disables the check."""
        self.reply_timeout = reply_timeout
        self.recommended_shards = 1
        """The shard count GET /gateway/bot recommends (a bot that does not set its own uses it)."""
        self._runner: web.AppRunner | None = None
        self.base_url = ""

    # --- lifecycle -----------------------------------------------------------------------------------

    @classmethod
    async def start(cls, **options: Any) -> FakeDiscord:
        """Create a fake and start serving it on 127.0.0.1 (a free port)."""
        fake = cls(**options)
        await fake._listen()
        return fake

    async def _listen(self) -> None:
        app = web.Application(middlewares=[api_middleware], client_max_size=64 * 1024 * 1024)
        app[FAKE_KEY] = self
        for table in (routes_core.routes, routes_channels.routes, routes_interactions.routes):
            for route in table:
                assert isinstance(route, web.RouteDef)  # the tables hold plain routes, no static files
                app.router.add_route(route.method, API_PREFIX + route.path, route.handler)
        app.router.add_get("/gateway/", self.gateway.handle)
        app.router.add_get("/gateway-resume/", self.gateway.handle)
        app.router.add_get(
            "/attachments/{channel_id}/{attachment_id}/{filename}", routes_channels.download_attachment
        )
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base_url = f"http://127.0.0.1:{port}"
        self.backend.base_url = self.base_url
        self.gateway.resume_url = f"ws://127.0.0.1:{port}/gateway-resume/"

    @property
    def rest_url(self) -> str:
        """What discord.http.Route.BASE must be set to."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """What discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY must be set to."""
        return self.base_url.replace("http://", "ws://") + "/gateway/"

    async def stop(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def flush(self) -> None:
        """Wait until the bot has received and parsed every gateway event dispatched so far (exactly so when
        the client is attached, as running_bot does; otherwise until the events are written to its socket)."""
        await self.gateway.flush()

    def attach_client(self, client: discord.Client | None) -> None:
        """Let flush() watch this client's gateway sequence number (running_bot does this for you)."""
        if client is None:
            self.gateway.observed_sequence = None
            return

        def sequence(shard_id: int) -> int | None:
            # A plain Client has one websocket (client.ws); an AutoShardedClient one per shard, which
            # its connection state finds by shard id (the plain Client's ignores the argument).
            # KeyError: the client does not run that shard (another process does), or not yet.
            ws = client._connection._get_websocket(shard_id=shard_id)
            return ws.sequence if ws is not None else None

        self.gateway.observed_sequence = sequence

    # --- building the world --------------------------------------------------------------------------

    async def create_user(
        self, username: str, *, global_name: str | None = None, dms_open: bool = True
    ) -> User:
        return self.backend.add_user(username, global_name=global_name, dms_open=dms_open)

    async def create_guild(
        self,
        name: str = "Test Server",
        *,
        owner: User | None = None,
        bot_permissions: int = DEFAULT_BOT,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """A guild with @everyone, the bot (with a managed role holding bot_permissions) and an owner.
        ``shard`` (id, count): its id is chosen so that its events go to that shard."""
        owner = owner or await self.create_user(f"{name.lower().replace(' ', '-')}-owner")
        guild = self.backend.create_guild(name, owner, int(bot_permissions), shard=shard)
        await self.flush()
        return guild

    async def create_role(
        self,
        guild: Guild,
        name: str,
        permissions: int = 0,
        *,
        position: int | None = None,
        mentionable: bool = False,
    ) -> Role:
        """A role made by a server admin; like on Discord, nobody may @mention it unless ``mentionable``
        (or they hold Mention Everyone)."""
        role = self.backend.create_role(
            guild, name, int(permissions), position=position, mentionable=mentionable
        )
        await self.flush()
        return role

    async def set_role_mentionable(self, guild: Guild, role: Role, mentionable: bool) -> None:
        self.backend.update_role(guild, role, mentionable=mentionable)
        await self.flush()

    async def add_member(self, guild: Guild, user: User, *roles: Role) -> Member:
        member = self.backend.add_member(guild, user, list(roles))
        await self.flush()
        return member

    async def remove_member(self, guild: Guild, user: User) -> None:
        """The user leaves the server."""
        self._member(guild, user)
        self.backend.remove_member(guild, user.id)
        await self.flush()

    async def set_roles(self, guild: Guild, user: User, *roles: Role) -> None:
        self.backend.set_member_roles(guild, self._member(guild, user), [r.id for r in roles])
        await self.flush()

    async def create_channel(
        self,
        guild: Guild,
        name: str,
        *,
        type: ChannelType = ChannelType.GUILD_TEXT,
        category: Channel | None = None,
        overwrites: list[Overwrite] | None = None,
        topic: str | None = None,
    ) -> Channel:
        """A channel made by a server admin. Without overwrites it syncs with its category, as on Discord."""
        channel = self.backend.create_channel(
            guild, name=name, type=type, parent=category, overwrites=overwrites, topic=topic
        )
        await self.flush()
        return channel

    async def create_category(
        self, guild: Guild, name: str, *, overwrites: list[Overwrite] | None = None
    ) -> Channel:
        return await self.create_channel(
            guild, name, type=ChannelType.GUILD_CATEGORY, overwrites=overwrites or []
        )

    async def set_overwrite(self, channel: Channel, target: Target, *, allow: int = 0, deny: int = 0) -> None:
        self.backend.set_overwrite(channel, overwrite(target, allow=allow, deny=deny))
        await self.flush()

    async def remove_overwrite(self, channel: Channel, target_id: int) -> None:
        """A server admin deletes the overwrite of a role or member (by id) from a channel."""
        self.backend.delete_overwrite(channel, target_id)
        await self.flush()

    async def create_thread(
        self,
        channel: Channel,
        name: str,
        *,
        owner: User,
        private: bool = True,
        members: tuple[User, ...] = (),
    ) -> Channel:
        """A thread started by a user (not the bot) in a text channel; members are added to it."""
        thread_type = ChannelType.PRIVATE_THREAD if private else ChannelType.PUBLIC_THREAD
        needed = Permission.CREATE_PRIVATE_THREADS if private else Permission.CREATE_PUBLIC_THREADS
        if not self.world.permissions(owner.id, channel) & needed:
            raise UserActionError(
                f"{owner.username} may not start a {thread_type.name.lower()} in #{channel.name}"
            )
        thread = self.backend.create_thread(
            channel, name=name, type=thread_type, owner_id=owner.id, invitable=True
        )
        for user in members:
            self.backend.add_thread_member(thread, user.id)
        await self.flush()
        return thread

    async def add_thread_member(self, thread: Channel, user: User) -> None:
        self.backend.add_thread_member(thread, user.id)
        await self.flush()

    async def set_dms_open(self, user: User, dms_open: bool) -> None:
        """False: the user blocks DMs from server members; the bot's DMs then fail with 403 / 50007."""
        user.dms_open = dms_open

    # --- users acting --------------------------------------------------------------------------------

    async def slash(
        self,
        user: User,
        *path: str,
        options: dict[str, Any] | None = None,
        channel: Channel | None = None,
        sent_at: datetime | None = None,
    ) -> InteractionHandle:
        """`user` runs `/path[0] path[1] ...` in `channel` (None: in their DM with the bot).
        ``sent_at``: the user sent it a moment ago and it reaches the bot only now (a slow gateway):
        its id carries that time, as Discord stamps an interaction when it is made, and the
        acknowledgement deadline runs from then."""
        place = await self._place(user, channel)
        built = commands.build(self.world, user, place, tuple(path), dict(options or {}))
        return await self._interact(
            InteractionKind.APPLICATION_COMMAND, user, place, built.data, built.path, sent_at=sent_at
        )

    async def autocomplete(
        self,
        user: User,
        *path: str,
        focused: str,
        options: dict[str, Any] | None = None,
        channel: Channel | None = None,
    ) -> InteractionHandle:
        """`user` is typing option `focused` of a command (its current text is options[focused])."""
        place = await self._place(user, channel)
        given = dict(options or {})
        given.setdefault(focused, "")
        built = commands.build(self.world, user, place, tuple(path), given, focused=focused)
        return await self._interact(
            InteractionKind.AUTOCOMPLETE, user, place, built.data, f"autocomplete {built.path} {focused}"
        )

    async def click(
        self, user: User, message: Message, custom_id: str, *, values: list[str] | None = None
    ) -> InteractionHandle:
        """`user` presses a button (or picks `values` in a select menu) on `message`."""
        if user.id not in self.world.audience(message):
            raise UserActionError(f"{user.username} cannot see message {message.id}, so cannot click on it")
        component = next(
            (c for c in walk_components(message.components) if c.get("custom_id") == custom_id), None
        )
        if component is None:
            raise UserActionError(
                f"message {message.id} has no component {custom_id!r}; it has {message.custom_ids()}"
            )
        if component.get("disabled"):
            raise UserActionError(f"{custom_id!r} on message {message.id} is disabled")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] in (3, 5, 6, 7, 8):
            data["values"] = userinput.select_values(component, values or [])
        channel = self.world.channel(message.channel_id)
        revisions = len(message.revisions)
        return await self._interact(
            InteractionKind.MESSAGE_COMPONENT,
            user,
            channel,
            data,
            f"{user.username} clicking {custom_id!r}",
            source=message,
            source_revisions=revisions,
        )

    async def submit_modal(
        self, user: User, modal_from: InteractionHandle | Interaction | str, values: dict[str, str]
    ) -> InteractionHandle:
        """`user` fills the modal the bot opened (given as the handle that opened it, or its custom_id) and
        submits it. Inputs not in `values` keep the value the bot prefilled. Given the handle, it waits
        for the bot's answer first (a person cannot fill a form before it opens)."""
        if isinstance(modal_from, InteractionHandle):
            await modal_from.response()
        opener = self._modal_opener(user, modal_from)
        modal = opener.modal or {}
        components = userinput.modal_components(modal, dict(values))
        channel = self.world.channel(opener.channel_id)
        source = self.world.messages.get(opener.source_message_id or 0)
        return await self._interact(
            InteractionKind.MODAL_SUBMIT,
            user,
            channel,
            {"custom_id": modal.get("custom_id"), "components": components},
            f"{user.username} submitting modal {modal.get('custom_id')!r}",
            source=source,
            source_revisions=len(source.revisions) if source else 0,
        )

    async def dm_bot(self, user: User, text: str) -> DMHandle:
        """`user` sends `text` to the bot by DM (a MESSAGE_CREATE without guild_id)."""
        if not self.world.shares_guild_with_bot(user.id):
            raise UserActionError(f"{user.username} shares no server with the bot, so cannot DM it")
        channel = self.backend.open_dm(user)
        sent = self.backend.post_message(channel, user.id, {"content": text})
        await self.flush()
        return DMHandle(self, user, channel, sent)

    async def say(self, user: User, channel: Channel, text: str) -> Message:
        """`user` posts `text` in a guild channel or thread."""
        needed = Permission.SEND_MESSAGES_IN_THREADS if channel.is_thread else Permission.SEND_MESSAGES
        permissions = self.world.permissions(user.id, channel)
        if not permissions & Permission.VIEW_CHANNEL or not permissions & needed:
            raise UserActionError(f"{user.username} cannot post in #{channel.name}")
        if channel.is_thread and channel.locked and not permissions & Permission.MANAGE_THREADS:
            raise UserActionError(f"{user.username} cannot post in #{channel.name}: the thread is locked")
        if channel.is_thread and channel.archived:  # posting in an archived, unlocked thread reopens it
            channel.archived = False
            self.backend.update_channel(channel)
        message = self.backend.post_message(channel, user.id, {"content": text})
        await self.flush()
        return message

    # --- observing -----------------------------------------------------------------------------------

    def channel_messages(self, channel: Channel) -> list[Message]:
        """Messages in the channel (oldest first), as anyone who can read it sees them (no ephemerals)."""
        return self.world.channel_messages(channel.id)

    def visible_messages(self, user: User) -> list[Message]:
        """Everything the user can see now: readable channels and threads, their DMs, ephemerals to them."""
        return self.world.visible_messages(user.id)

    def seen_texts(self, user: User) -> list[str]:
        """Every text the user could have seen at any time (each version, when posted or edited, and now)."""
        return self.world.seen_texts(user.id)

    def text_view(self, message: Message) -> str:
        """The message as a player reads it, as text: its texts, and what each control shows (a select
        its chosen option or placeholder, a button its label); see screenshot.py."""
        return screenshot.message_text_view(self.world, message)

    def screenshot(
        self, message: Message, *, width: int = 390, scale: int = 2, expanded: str | None = None
    ) -> bytes:
        """The message as a phone ``width`` points wide shows it, in Discord's dark theme (PNG bytes);
        ``expanded``: the custom_id of a select drawn open, its options listed."""
        return screenshot.message_png(self.world, message, width=width, scale=scale, expanded=expanded)

    def dm_messages(self, user: User) -> list[Message]:
        channel = self.world.dm_channel(user.id)
        return [] if channel is None else self.world.channel_messages(channel.id)

    def ephemeral_messages(self, user: User) -> list[Message]:
        return [m for m in self.world.messages.values() if m.ephemeral_to == user.id and not m.deleted]

    def can_view(self, user: User, channel: Channel) -> bool:
        return self.world.can_view(user.id, channel)

    def permissions(self, user: User, channel: Channel) -> int:
        return self.world.permissions(user.id, channel)

    def guild_channels(self, guild: Guild) -> list[Channel]:
        return self.world.guild_channels(guild.id, threads=True)

    def channel_named(self, guild: Guild, name: str) -> Channel:
        for channel in self.guild_channels(guild):
            if channel.name == name:
                return channel
        raise KeyError(
            f"no channel {name!r} in {guild.name!r}; channels: {[c.name for c in self.guild_channels(guild)]}"
        )

    @property
    def commands(self) -> list[Command]:
        return list(self.world.commands.values())

    def calls(self, pattern: str = "* *") -> list[RestCall]:
        """REST calls matching "METHOD /path-glob" (or the route template), oldest first."""
        method, _, path = pattern.partition(" ")
        return [
            c
            for c in self.rest_log
            if method in ("*", c.method) and (path == c.route or fnmatch.fnmatchcase(c.path, path))
        ]

    @property
    def unknown_calls(self) -> list[RestCall]:
        """Calls to routes the fake does not model (answered 404/405). Tests should assert this is empty."""
        return [c for c in self.rest_log if c.route is None]

    @property
    def failed_calls(self) -> list[RestCall]:
        return [c for c in self.rest_log if c.status >= 400]

    # --- faults and connection trouble ---------------------------------------------------------------

    def inject_fault(
        self,
        pattern: str,
        status: int,
        *,
        times: int = 1,
        retry_after: float = 0.05,
        is_global: bool = False,
        code: int | None = None,
        message: str | None = None,
        after: int = 0,
    ) -> Fault:
        """Make the next `times` calls matching "METHOD /path-glob" fail with `status` (429 with
        retry_after in the body and a Via header, as discord.py expects; 403/404/500 with a JSON error).
        ``after``: let that many matching calls through first (fail the third part of a long post)."""
        return self.faults.add(Fault(pattern, status, times, retry_after, is_global, code, message, after))

    def slow_down(self, pattern: str, seconds: float, *, times: int = 1) -> Fault:
        """Answer the next `times` calls matching "METHOD /path-glob" only after `seconds` (a slow
        Discord: lets a test act while the bot is in the middle of something)."""
        return self.faults.add(Fault(pattern, 0, times, delay=seconds))

    def hold(self, pattern: str, *, times: int = 1, when: Callable[[Any], bool] | None = None) -> Fault:
        """Hold the next `times` calls matching "METHOD /path-glob" (and whose JSON body ``when``
        accepts) until the test says ``fault.release()``: ``await fault.reached.wait()`` waits for the
        first to come. Lets a test decide which of two things the bot does at once happens first."""
        return self.faults.add(Fault(pattern, 0, times, held=asyncio.Event(), when=when))

    def forget_nonces(self) -> None:
        """Discord's nonce window has passed for every message posted so far (as when a bot comes back
        more than a few minutes after a crash); later messages' nonces are remembered as usual."""
        self.world.nonces_forgotten_before = utcnow()

    async def drop_gateway(self, code: int = 4000) -> None:
        """Close the bot's websocket from the server side; discord.py reconnects and RESUMEs."""
        await self.gateway.drop_connections(code)

    async def wait_for_gateway(self, *, resumes: int | None = None, timeout: float | None = None) -> None:
        """Wait until the bot is connected (and, if given, has resumed that many times)."""

        def probe() -> bool | None:
            ok = self.gateway.connected and (resumes is None or self.gateway.resume_count >= resumes)
            return True if ok else None

        await self.notifier.wait_for(
            probe,
            timeout=self.reply_timeout if timeout is None else timeout,
            explain=lambda: (
                f"the bot did not (re)connect: resumes={self.gateway.resume_count}, "
                f"identifies={self.gateway.identify_count}"
            ),
        )

    async def wait_for(self, probe: Any, *, what: str, timeout: float | None = None) -> Any:
        """Wait until probe() returns something other than None (re-checked after every change)."""
        started = utcnow()
        return await self.notifier.wait_for(
            probe,
            timeout=self.reply_timeout if timeout is None else timeout,
            explain=lambda: self.explain(what, started),
        )

    def explain(self, what: str, since: datetime) -> str:
        """Why a wait failed: the gateway state and what the bot did over REST meanwhile."""
        lines = [f"Timed out waiting for {what}."]
        lines.append(
            f"Gateway: {'connected' if self.gateway.connected else 'NOT connected'} "
            f"(identifies={self.gateway.identify_count}, resumes={self.gateway.resume_count})."
        )
        recent = [c for c in self.rest_log if c.at >= since]
        if recent:
            lines.append("REST calls by the bot since then:")
            lines.extend(f"  {c}" for c in recent[-20:])
        else:
            lines.append(
                "The bot made no REST call since then (no handler? an exception in it? see the log)."
            )
        if self.internal_errors:
            lines.append(f"The fake itself failed (harness bug): {self.internal_errors}")
        if self.unknown_calls:
            lines.append(f"Routes the fake does not model: {[str(c) for c in self.unknown_calls]}")
        return "\n".join(lines)

    # --- internals -----------------------------------------------------------------------------------

    def _member(self, guild: Guild, user: User) -> Member:
        member = guild.members.get(user.id)
        if member is None:
            raise UserActionError(f"{user.username} is not a member of {guild.name!r}")
        return member

    async def _place(self, user: User, channel: Channel | None) -> Channel:
        if channel is None:
            if not self.world.shares_guild_with_bot(user.id):
                raise UserActionError(
                    f"{user.username} shares no server with the bot, so cannot use it in DMs"
                )
            return self.backend.open_dm(user)
        if channel.is_dm:
            return channel
        guild = self.world.guild(channel.guild_id or 0)
        self._member(guild, user)
        permissions = self.world.permissions(user.id, channel)
        if not permissions & Permission.VIEW_CHANNEL:
            raise UserActionError(f"{user.username} cannot see #{channel.name}")
        if not permissions & Permission.USE_APPLICATION_COMMANDS:
            raise UserActionError(f"{user.username} may not use application commands in #{channel.name}")
        return channel

    async def _interact(
        self,
        kind: InteractionKind,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        description: str,
        *,
        source: Message | None = None,
        source_revisions: int = 0,
        sent_at: datetime | None = None,
    ) -> InteractionHandle:
        started = utcnow()
        late = max(0.0, (started - sent_at).total_seconds()) if sent_at is not None else 0.0
        interaction = Interaction(
            id=snowflake_at(sent_at) if sent_at is not None else new_snowflake(),
            token=f"interaction.{secrets.token_urlsafe(32)}",
            kind=kind,
            user_id=user.id,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            description=description
            if description.startswith(user.username)
            else f"{description} by {user.username}",
            created_at=asyncio.get_running_loop().time() - late,  # the ack deadline runs from the send
            source_message_id=source.id if source else None,
        )
        interaction.payload = userinput.interaction_payload(
            self.world, interaction, user, channel, data, source
        )
        self.world.interactions[interaction.id] = interaction
        self.gateway.dispatch("INTERACTION_CREATE", interaction.payload)
        await self.flush()
        return InteractionHandle(self, interaction, started, source_revisions)

    def _modal_opener(self, user: User, modal_from: InteractionHandle | Interaction | str) -> Interaction:
        if isinstance(modal_from, InteractionHandle):
            opener = modal_from.interaction
        elif isinstance(modal_from, Interaction):
            opener = modal_from
        else:
            candidates = [
                i
                for i in self.world.interactions.values()
                if i.user_id == user.id and i.modal is not None and i.modal.get("custom_id") == modal_from
            ]
            if not candidates:
                raise UserActionError(f"the bot never showed {user.username} a modal {modal_from!r}")
            opener = candidates[-1]
        if opener.modal is None:
            raise UserActionError(
                f"{opener.description} did not open a modal (callback type {opener.response_type})"
            )
        if opener.user_id != user.id:
            raise UserActionError(f"that modal was shown to another user, not {user.username}")
        return opener


@contextlib.asynccontextmanager
async def fake_discord(**options: Any) -> AsyncIterator[FakeDiscord]:
    """Start a fake and point discord.py at it (Route.BASE, DEFAULT_GATEWAY); restore both afterwards."""
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    fake = await FakeDiscord.start(**options)
    saved_base, saved_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = fake.rest_url
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield fake
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved_base, saved_gateway
        await fake.stop()
