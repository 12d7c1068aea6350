"""Every change to the fake's world, with the gateway events Discord would send for it.

Both the REST routes (what the bot does) and the test API (what users do) change the world only here, so
state, events and the record of who saw what never drift apart.
"""

from __future__ import annotations

import io
import mimetypes
from dataclasses import dataclass
from typing import Any

from . import payloads
from .gateway import (
    DIRECT_MESSAGES,
    GUILD_MEMBERS,
    GUILD_MESSAGES,
    GUILDS,
    MESSAGE_CONTENT,
    Gateway,
    Session,
)
from .ids import iso, new_snowflake, snowflake_on_shard, utcnow
from .notifier import Notifier
from .permissions import DEFAULT_BOT, DEFAULT_EVERYONE
from .state import (
    Attachment,
    Channel,
    ChannelType,
    Guild,
    Member,
    Message,
    MessageFlag,
    Overwrite,
    Revision,
    Role,
    ThreadMember,
    User,
)
from .world import World


@dataclass
class UploadedFile:
    """One `files[n]` part of a multipart request."""

    field: str
    filename: str
    data: bytes

    @property
    def index(self) -> str:
        return self.field[len("files[") : -1] if self.field.startswith("files[") else self.field


def _image_size(data: bytes) -> tuple[int, int] | None:
    try:
        from PIL import Image

        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except Exception:  # not an image: Discord leaves width/height out
        return None


class Backend:
    def __init__(self, world: World, gateway: Gateway, notifier: Notifier) -> None:
        self.world = world
        self.gateway = gateway
        self.notifier = notifier
        self.base_url = ""
        """http://127.0.0.1:PORT once the server listens (attachment URLs point there)."""

    # --- gateway helpers -----------------------------------------------------------------------------

    def ready_events(self, session: Session) -> list[tuple[str, dict[str, Any]]]:
        world = self.world
        shard_id, shard_count = session.shard
        guilds = [g for g in world.guilds.values() if (g.id >> 22) % shard_count == shard_id]
        ready = {
            "v": 10,
            "user": payloads.current_user(world.bot),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "shard": [shard_id, shard_count],
            "resume_gateway_url": self.gateway.resume_url,
            "session_type": "normal",
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "auth": {},
        }
        events: list[tuple[str, dict[str, Any]]] = [("READY", ready)]
        if session.intents & GUILDS:
            events.extend(("GUILD_CREATE", self._guild_create(g)) for g in guilds)
        return events

    def _guild_create(self, guild: Guild) -> dict[str, Any]:
        threads = [t for t in self.world.threads_of(guild.id) if self.world.can_view(self.world.bot.id, t)]
        return payloads.guild_create(self.world, guild, threads)

    def members_chunk(self, request: dict[str, Any]) -> dict[str, Any]:
        guild = self.world.guilds.get(int(request.get("guild_id", 0)))
        members = list(guild.members.values()) if guild else []
        if request.get("user_ids"):
            wanted = {int(u) for u in request["user_ids"]}
            members = [m for m in members if m.user_id in wanted]
        query = (request.get("query") or "").lower()
        members = [m for m in members if self.world.users[m.user_id].username.lower().startswith(query)]
        if request.get("limit"):
            members = members[: int(request["limit"])]
        chunk: dict[str, Any] = {
            "guild_id": str(request.get("guild_id")),
            "members": [payloads.member(self.world, m) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if request.get("nonce"):
            chunk["nonce"] = request["nonce"]
        return chunk

    def _channel_event(self, kind: str, channel: Channel, *, newly_created: bool = True) -> None:
        """CHANNEL_* for channels, THREAD_* for threads (kind is CREATE, UPDATE or DELETE)."""
        data = payloads.channel(self.world, channel)
        if channel.is_thread:
            if not self.world.can_view(self.world.bot.id, channel) and kind != "DELETE":
                return
            if kind == "CREATE":
                if newly_created:
                    data["newly_created"] = True
                if self.world.bot.id in channel.thread_members:
                    data["member"] = payloads.thread_member(channel, self.world.bot.id)
            self.gateway.dispatch(f"THREAD_{kind}", data, intent=GUILDS)
        else:
            self.gateway.dispatch(f"CHANNEL_{kind}", data, intent=GUILDS)
        self.notifier.notify()

    # --- users, guilds, roles, members ---------------------------------------------------------------

    def add_user(self, username: str, *, global_name: str | None = None, dms_open: bool = True) -> User:
        user = User(id=new_snowflake(), username=username, global_name=global_name, dms_open=dms_open)
        self.world.users[user.id] = user
        return user

    def create_guild(
        self,
        name: str,
        owner: User,
        bot_permissions: int = DEFAULT_BOT,
        *,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        guild_id = new_snowflake() if shard is None else snowflake_on_shard(*shard)
        guild = Guild(id=guild_id, name=name, owner_id=owner.id)
        guild.roles[guild.id] = Role(
            id=guild.id, guild_id=guild.id, name="@everyone", permissions=DEFAULT_EVERYONE
        )
        bot_role = Role(
            id=new_snowflake(),
            guild_id=guild.id,
            name=self.world.bot.username,
            permissions=bot_permissions,
            position=10,
            managed=True,
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.world.bot.id] = Member(
            user_id=self.world.bot.id, guild_id=guild.id, role_ids=[bot_role.id]
        )
        guild.members[owner.id] = Member(user_id=owner.id, guild_id=guild.id)
        self.world.guilds[guild.id] = guild
        self.gateway.dispatch("GUILD_CREATE", self._guild_create(guild), intent=GUILDS)
        return guild

    def create_role(
        self,
        guild: Guild,
        name: str,
        permissions: int,
        *,
        position: int | None = None,
        mentionable: bool = False,
    ) -> Role:
        if position is None:
            position = max((r.position for r in guild.roles.values() if not r.managed), default=0) + 1
        role = Role(
            id=new_snowflake(),
            guild_id=guild.id,
            name=name,
            permissions=permissions,
            position=position,
            mentionable=mentionable,
        )
        guild.roles[role.id] = role
        self.gateway.dispatch(
            "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": payloads.role(role)}, intent=GUILDS
        )
        return role

    def update_role(self, guild: Guild, role: Role, *, mentionable: bool) -> None:
        role.mentionable = mentionable
        self.gateway.dispatch(
            "GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": payloads.role(role)}, intent=GUILDS
        )
        self.notifier.notify()

    def add_member(self, guild: Guild, user: User, roles: list[Role]) -> Member:
        member = Member(user_id=user.id, guild_id=guild.id, role_ids=[r.id for r in roles])
        guild.members[user.id] = member
        data = payloads.member(self.world, member)
        data["guild_id"] = str(guild.id)
        self.gateway.dispatch("GUILD_MEMBER_ADD", data, intent=GUILD_MEMBERS)
        self.notifier.notify()
        return member

    def remove_member(self, guild: Guild, user_id: int) -> None:
        """The user leaves (or is kicked): gone from the guild and from its threads."""
        guild.members.pop(user_id, None)
        for thread in self.world.threads_of(guild.id):
            self.remove_thread_member(thread, user_id)
        data = {"guild_id": str(guild.id), "user": payloads.user(self.world.users[user_id])}
        self.gateway.dispatch("GUILD_MEMBER_REMOVE", data, intent=GUILD_MEMBERS)
        self.notifier.notify()

    def set_member_roles(self, guild: Guild, member: Member, role_ids: list[int]) -> None:
        member.role_ids = list(dict.fromkeys(role_ids))
        data = payloads.member(self.world, member)
        data["guild_id"] = str(guild.id)
        self.gateway.dispatch("GUILD_MEMBER_UPDATE", data, intent=GUILD_MEMBERS)
        self.notifier.notify()

    # --- channels, overwrites, threads ---------------------------------------------------------------

    def create_channel(
        self,
        guild: Guild,
        *,
        name: str,
        type: ChannelType = ChannelType.GUILD_TEXT,
        parent: Channel | None = None,
        overwrites: list[Overwrite] | None = None,
        topic: str | None = None,
        position: int | None = None,
    ) -> Channel:
        if type in (ChannelType.GUILD_TEXT, ChannelType.GUILD_ANNOUNCEMENT):
            name = normalise_text_channel_name(name)
        if overwrites is None:
            # Discord syncs a new channel with its category when no overwrites are given.
            inherited = parent.overwrites.values() if parent is not None else []
            overwrites = [Overwrite(o.target_id, o.type, o.allow, o.deny) for o in inherited]
        if position is None:
            position = len(self.world.guild_channels(guild.id))
        channel = Channel(
            id=new_snowflake(),
            type=type,
            name=name,
            guild_id=guild.id,
            parent_id=parent.id if parent is not None else None,
            topic=topic,
            position=position,
            overwrites={o.target_id: o for o in overwrites},
        )
        self.world.channels[channel.id] = channel
        self._channel_event("CREATE", channel)
        return channel

    def update_channel(self, channel: Channel) -> None:
        self._channel_event("UPDATE", channel)

    def delete_channel(self, channel: Channel) -> None:
        del self.world.channels[channel.id]
        self._channel_event("DELETE", channel)
        for child in list(self.world.channels.values()):
            if child.parent_id == channel.id and child.is_thread:
                del self.world.channels[child.id]
                self._channel_event("DELETE", child)
            elif child.parent_id == channel.id:
                child.parent_id = None  # children of a deleted category become uncategorised
                self._channel_event("UPDATE", child)

    def set_overwrite(self, channel: Channel, overwrite: Overwrite) -> None:
        channel.overwrites[overwrite.target_id] = overwrite
        self.update_channel(channel)

    def delete_overwrite(self, channel: Channel, target_id: int) -> None:
        channel.overwrites.pop(target_id, None)
        self.update_channel(channel)

    def create_thread(
        self,
        parent: Channel,
        *,
        name: str,
        type: ChannelType,
        owner_id: int,
        invitable: bool,
        auto_archive_duration: int = 1440,
    ) -> Channel:
        thread = Channel(
            id=new_snowflake(),
            type=type,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner_id,
            invitable=invitable if type == ChannelType.PRIVATE_THREAD else True,
            auto_archive_duration=auto_archive_duration,
        )
        thread.thread_members[owner_id] = ThreadMember(owner_id)
        self.world.channels[thread.id] = thread
        self._channel_event("CREATE", thread)
        return thread

    def add_thread_member(self, thread: Channel, user_id: int) -> None:
        if user_id in thread.thread_members:
            return
        thread.thread_members[user_id] = ThreadMember(user_id)
        added = payloads.thread_member(thread, user_id)
        guild = self.world.guild_of(thread)
        if guild is not None and user_id in guild.members:
            added["member"] = payloads.member(self.world, guild.members[user_id])
        if user_id == self.world.bot.id:
            self._channel_event("CREATE", thread, newly_created=False)  # joining: THREAD_CREATE with member
        self._thread_members_update(thread, added=[added])

    def remove_thread_member(self, thread: Channel, user_id: int) -> None:
        if thread.thread_members.pop(user_id, None) is None:
            return
        self._thread_members_update(thread, removed=[str(user_id)])

    def _thread_members_update(
        self, thread: Channel, *, added: list[dict[str, Any]] | None = None, removed: list[str] | None = None
    ) -> None:
        bot_id = str(self.world.bot.id)
        if not self.gateway.has_intent(GUILD_MEMBERS):
            # Without the members intent Discord only tells the bot about itself.
            added = [a for a in added or [] if a["user_id"] == bot_id]
            removed = [r for r in removed or [] if r == bot_id]
        data: dict[str, Any] = {
            "id": str(thread.id),
            "guild_id": str(thread.guild_id),
            "member_count": len(thread.thread_members),
        }
        if added:
            data["added_members"] = added
        if removed:
            data["removed_member_ids"] = removed
        if added or removed:
            self.gateway.dispatch("THREAD_MEMBERS_UPDATE", data, intent=GUILDS)
        self.notifier.notify()

    def open_dm(self, user: User) -> Channel:
        channel = self.world.dm_channel(user.id)
        if channel is None:
            channel = Channel(id=new_snowflake(), type=ChannelType.DM, recipient_ids=[user.id])
            self.world.channels[channel.id] = channel
        return channel

    # --- messages ------------------------------------------------------------------------------------

    def make_attachments(
        self, channel_id: int, payload: dict[str, Any], files: list[UploadedFile], kept: list[Attachment]
    ) -> list[Attachment]:
        """Existing attachments the payload keeps, then one new attachment per uploaded file."""
        described = {str(a.get("id")): a for a in payload.get("attachments") or []}
        result = list(kept)
        for upload in files:
            entry = described.get(upload.index, {})
            filename = entry.get("filename") or upload.filename
            attachment_id = new_snowflake()
            size = _image_size(upload.data)
            result.append(
                Attachment(
                    id=attachment_id,
                    filename=filename,
                    data=upload.data,
                    content_type=mimetypes.guess_type(filename)[0],
                    url=f"{self.base_url}/attachments/{channel_id}/{attachment_id}/{filename}",
                    description=entry.get("description"),
                    width=size[0] if size else None,
                    height=size[1] if size else None,
                )
            )
        return result

    def post_message(
        self,
        channel: Channel,
        author_id: int,
        payload: dict[str, Any],
        files: list[UploadedFile] | None = None,
        *,
        message_type: int = 0,
        interaction_id: int | None = None,
        ephemeral_to: int | None = None,
        extra_flags: int = 0,
    ) -> Message:
        message = Message(
            id=new_snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author_id=author_id,
            type=message_type,
            interaction_id=interaction_id,
            ephemeral_to=ephemeral_to,
            webhook_id=self.world.application_id if interaction_id is not None else None,
        )
        self._apply_payload(message, payload, files or [], editing=False)
        message.flags |= extra_flags
        if ephemeral_to is not None:
            message.flags |= MessageFlag.EPHEMERAL
        self.world.messages[message.id] = message
        self._record_revision(message)
        if ephemeral_to is None:
            channel.last_message_id = message.id
            channel.message_count += 1
            self._message_event("MESSAGE_CREATE", message)
        self.notifier.notify()
        return message

    def edit_message(
        self, message: Message, payload: dict[str, Any], files: list[UploadedFile] | None = None
    ) -> None:
        self._apply_payload(message, payload, files or [], editing=True)
        message.edited_timestamp = utcnow()
        self._record_revision(message)
        if message.ephemeral_to is None:
            self._message_event("MESSAGE_UPDATE", message)
        self.notifier.notify()

    def delete_message(self, message: Message) -> None:
        message.deleted = True
        if message.ephemeral_to is None:
            data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
            intent = GUILD_MESSAGES if message.guild_id is not None else DIRECT_MESSAGES
            self.gateway.dispatch("MESSAGE_DELETE", data, intent=intent)
        self.notifier.notify()

    def set_pinned(self, message: Message, pinned: bool) -> None:
        if message.pinned == pinned:
            return
        message.pinned_at = utcnow() if pinned else None
        self._message_event("MESSAGE_UPDATE", message)
        channel = self.world.channels[message.channel_id]
        pins = [m.pinned_at for m in self.world.channel_messages(channel.id) if m.pinned_at is not None]
        latest = max(pins, default=None)
        data: dict[str, Any] = {"channel_id": str(channel.id), "last_pin_timestamp": iso(latest)}
        if channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
        intent = GUILDS if channel.guild_id is not None else DIRECT_MESSAGES
        self.gateway.dispatch("CHANNEL_PINS_UPDATE", data, intent=intent)
        self.notifier.notify()

    def _apply_payload(
        self, message: Message, payload: dict[str, Any], files: list[UploadedFile], *, editing: bool
    ) -> None:
        if "content" in payload or not editing:
            message.content = payload.get("content") or ""
        if "embeds" in payload or not editing:
            message.embeds = list(payload.get("embeds") or [])
        if "components" in payload or not editing:
            message.components = list(payload.get("components") or [])
        if "allowed_mentions" in payload or not editing:
            message.allowed_mentions = payload.get("allowed_mentions")
        if not editing:
            message.tts = bool(payload.get("tts"))
            message.nonce = None if payload.get("nonce") is None else str(payload["nonce"])
            message.message_reference = payload.get("message_reference")
            message.flags = int(payload.get("flags") or 0) & (
                MessageFlag.EPHEMERAL | MessageFlag.SUPPRESS_NOTIFICATIONS | MessageFlag.IS_COMPONENTS_V2
            )
        elif "flags" in payload:  # an edit keeps its visibility, and may opt into (never out of) V2
            keep = message.flags & (
                MessageFlag.EPHEMERAL | MessageFlag.IS_COMPONENTS_V2 | MessageFlag.LOADING
            )
            message.flags = keep | (int(payload.get("flags") or 0) & MessageFlag.IS_COMPONENTS_V2)
        if editing and "attachments" in payload:
            listed = {str(a.get("id")) for a in payload["attachments"]}
            kept = [a for a in message.attachments if str(a.id) in listed]
        else:
            kept = message.attachments if editing else []
        message.attachments = self.make_attachments(message.channel_id, payload, files, kept)

    def _record_revision(self, message: Message) -> None:
        message.revisions.append(
            Revision(text=message.text, audience=self.world.audience(message), at=utcnow())
        )

    def _message_event(self, event: str, message: Message) -> None:
        channel = self.world.channels.get(message.channel_id)
        if channel is None:
            return
        if channel.is_dm:
            self.gateway.dispatch(
                event, payloads.message(self.world, message, for_gateway=True), intent=DIRECT_MESSAGES
            )
            return
        if not self.world.can_view(self.world.bot.id, channel):
            return
        data = payloads.message(self.world, message, for_gateway=True)
        mentions_bot = any(u["id"] == str(self.world.bot.id) for u in data["mentions"])
        if (
            message.author_id != self.world.bot.id
            and not mentions_bot
            and not self.gateway.has_intent(MESSAGE_CONTENT)
        ):
            data.update(content="", embeds=[], attachments=[], components=[])
        self.gateway.dispatch(event, data, intent=GUILD_MESSAGES)


def normalise_text_channel_name(name: str) -> str:
    """Discord lower-cases text channel names and turns spaces into dashes."""
    return "-".join(name.lower().split())
