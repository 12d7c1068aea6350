"""What the fake Discord knows: users, guilds, roles, members, channels, threads, messages, interactions.

Plain dataclasses with no I/O. Tests receive these objects from the FakeDiscord API and may read them;
they change them only through that API (so the bot hears about the change over the gateway).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from .ids import utcnow


class HasId(Protocol):
    id: int


def id_of(thing: HasId | int | str) -> int:
    """Accept a state object, an int id or a snowflake string."""
    if isinstance(thing, int):
        return thing
    if isinstance(thing, str):
        return int(thing)
    return thing.id


class ChannelType(enum.IntEnum):
    GUILD_TEXT = 0
    DM = 1
    GUILD_VOICE = 2
    GUILD_CATEGORY = 4
    GUILD_ANNOUNCEMENT = 5
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


THREAD_TYPES = frozenset({ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD})


class OverwriteType(enum.IntEnum):
    ROLE = 0
    MEMBER = 1


class MessageFlag(enum.IntFlag):
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    SUPPRESS_NOTIFICATIONS = 1 << 12
    IS_COMPONENTS_V2 = 1 << 15


@dataclass
class User:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    dms_open: bool = True
    """False: the user blocks DMs from server members, so the bot gets 403 / 50007 when it writes to them."""

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    color: int = 0
    hoist: bool = False
    mentionable: bool = False


@dataclass
class Member:
    user_id: int
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: datetime = field(default_factory=utcnow)


@dataclass
class Overwrite:
    """A channel permission overwrite for a role or a member (allow and deny bitfields)."""

    target_id: int
    type: OverwriteType
    allow: int = 0
    deny: int = 0


@dataclass
class ThreadMember:
    user_id: int
    joined_at: datetime = field(default_factory=utcnow)


@dataclass
class Channel:
    id: int
    type: ChannelType
    name: str = ""
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    nsfw: bool = False
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    recipient_ids: list[int] = field(default_factory=list)
    """DM channels: the user at the other end (the bot is implied)."""
    owner_id: int | None = None
    thread_members: dict[int, ThreadMember] = field(default_factory=dict)
    invitable: bool = True
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    last_message_id: int | None = None
    message_count: int = 0
    created_at: datetime = field(default_factory=utcnow)

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def is_dm(self) -> bool:
        return self.type == ChannelType.DM

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None
    url: str
    description: str | None = None
    width: int | None = None
    height: int | None = None

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class Revision:
    """One version of a message as it was shown, and who could see it at that moment."""

    text: str
    audience: frozenset[int]
    at: datetime


@dataclass
class Message:
    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: datetime = field(default_factory=utcnow)
    edited_timestamp: datetime | None = None
    pinned_at: datetime | None = None
    tts: bool = False
    allowed_mentions: dict[str, Any] | None = None
    message_reference: dict[str, Any] | None = None
    webhook_id: int | None = None
    interaction_id: int | None = None
    ephemeral_to: int | None = None
    """Ephemeral interaction messages: the only user who can see them."""
    deleted: bool = False
    revisions: list[Revision] = field(default_factory=list)
    nonce: str | None = None
    """The nonce the author sent it with (with enforce_nonce, a resend within the window is this message)."""

    @property
    def pinned(self) -> bool:
        return self.pinned_at is not None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred interaction response still showing "Bot is thinking..."."""
        return bool(self.flags & MessageFlag.LOADING)

    @property
    def text(self) -> str:
        """Everything readable in the message: content, embeds, component texts and attachment names."""
        return message_text(self)

    def files(self) -> dict[str, bytes]:
        return {a.filename: a.data for a in self.attachments}

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]


def walk_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """All components, depth first, through action rows, containers, sections and labels."""
    found: list[dict[str, Any]] = []
    for component in components:
        found.append(component)
        found.extend(walk_components(component.get("components", [])))
        for key in ("component", "accessory"):
            child = component.get(key)
            if isinstance(child, dict):
                found.extend(walk_components([child]))
    return found


def _embed_text(embed: dict[str, Any]) -> list[str]:
    parts = [embed.get("title"), embed.get("description")]
    parts.append((embed.get("author") or {}).get("name"))
    parts.append((embed.get("footer") or {}).get("text"))
    for embed_field in embed.get("fields", []):
        parts.extend([embed_field.get("name"), embed_field.get("value")])
    return [p for p in parts if p]


def _component_text(component: dict[str, Any]) -> list[str]:
    parts = [component.get("content"), component.get("label"), component.get("placeholder")]
    parts.extend(opt.get("label") for opt in component.get("options", []))
    parts.extend(opt.get("description") for opt in component.get("options", []))
    return [p for p in parts if p]


def message_text(message: Message) -> str:
    parts = [message.content] if message.content else []
    for embed in message.embeds:
        parts.extend(_embed_text(embed))
    for component in walk_components(message.components):
        parts.extend(_component_text(component))
    parts.extend(a.filename for a in message.attachments)
    return "\n".join(parts)


@dataclass
class Limits:
    """Discord's per-server limits the fake enforces (tests may lower them to reach them quickly)."""

    channels: int = 500
    """Channels of every kind, categories included; threads do not count (30013)."""
    per_category: int = 50
    """Channels in one category (400 50035 CHANNEL_PARENT_MAX_CHANNELS on parent_id)."""
    active_threads: int = 1000
    """Threads not archived, public and private (160006)."""
    nonce_window_seconds: float = 300.0
    """How long a nonce sent with enforce_nonce keeps returning the first message."""


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    created_at: datetime = field(default_factory=utcnow)

    @property
    def everyone_role(self) -> Role:
        """The @everyone role has the guild's id, as on Discord."""
        return self.roles[self.id]

    def role_named(self, name: str) -> Role:
        for role in self.roles.values():
            if role.name == name:
                return role
        raise KeyError(
            f"guild {self.name!r} has no role named {name!r}; roles: {[r.name for r in self.roles.values()]}"
        )


@dataclass
class Command:
    """An application command as the bot synced it (global when guild_id is None)."""

    id: int
    name: str
    type: int
    guild_id: int | None
    payload: dict[str, Any]


class InteractionKind(enum.IntEnum):
    PING = 1
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


@dataclass
class Interaction:
    """An interaction a test user started, and everything the bot answered to it."""

    id: int
    token: str
    kind: InteractionKind
    user_id: int
    channel_id: int
    guild_id: int | None
    description: str
    created_at: float
    """Event-loop time when it was dispatched (for the 3 s acknowledgement deadline)."""
    payload: dict[str, Any] = field(default_factory=dict)
    source_message_id: int | None = None
    """Component clicks (and modals opened from them): the message the component is on."""
    response_type: int | None = None
    response_data: dict[str, Any] | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None
