"""Discord's permission arithmetic: guild base permissions, channel overwrites, thread visibility.

Follows Discord's documented algorithm ("Permission Overwrites" in the permissions topic):
1. the guild owner and anyone whose roles grant ADMINISTRATOR have every permission;
2. base = @everyone role | every role of the member;
3. in a channel: apply the @everyone overwrite (deny, then allow), then all the member's role overwrites
   together (deny of the union, then allow of the union), then the member's own overwrite;
4. without VIEW_CHANNEL a member has nothing in the channel; without SEND_MESSAGES the permissions that
   only make sense when sending (mention everyone, TTS, attach files, embed links) are dropped.
Threads take their permissions from the parent channel; a private thread is visible only to its members and
to those who may manage threads in the parent.
"""

from __future__ import annotations

import enum

from .state import Channel, ChannelType, Guild, OverwriteType


class Permission(enum.IntFlag):
    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_AUDIT_LOG = 1 << 7
    PRIORITY_SPEAKER = 1 << 8
    STREAM = 1 << 9
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    SEND_TTS_MESSAGES = 1 << 12
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    VIEW_GUILD_INSIGHTS = 1 << 19
    CONNECT = 1 << 20
    SPEAK = 1 << 21
    MUTE_MEMBERS = 1 << 22
    DEAFEN_MEMBERS = 1 << 23
    MOVE_MEMBERS = 1 << 24
    USE_VAD = 1 << 25
    CHANGE_NICKNAME = 1 << 26
    MANAGE_NICKNAMES = 1 << 27
    MANAGE_ROLES = 1 << 28
    MANAGE_WEBHOOKS = 1 << 29
    MANAGE_GUILD_EXPRESSIONS = 1 << 30
    USE_APPLICATION_COMMANDS = 1 << 31
    REQUEST_TO_SPEAK = 1 << 32
    MANAGE_EVENTS = 1 << 33
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    USE_EXTERNAL_STICKERS = 1 << 37
    SEND_MESSAGES_IN_THREADS = 1 << 38
    USE_EMBEDDED_ACTIVITIES = 1 << 39
    MODERATE_MEMBERS = 1 << 40


ALL_PERMISSIONS = int(sum(Permission))

DEFAULT_EVERYONE = int(
    Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.READ_MESSAGE_HISTORY
    | Permission.ADD_REACTIONS
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.USE_EXTERNAL_EMOJIS
    | Permission.USE_APPLICATION_COMMANDS
    | Permission.CREATE_PUBLIC_THREADS
    | Permission.CREATE_PRIVATE_THREADS
    | Permission.SEND_MESSAGES_IN_THREADS
    | Permission.CONNECT
    | Permission.SPEAK
    | Permission.CHANGE_NICKNAME
    | Permission.CREATE_INSTANT_INVITE
)
"""What @everyone may do in a freshly made guild (close to Discord's defaults)."""

DEFAULT_BOT = int(
    Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.SEND_MESSAGES_IN_THREADS
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.READ_MESSAGE_HISTORY
    | Permission.MANAGE_CHANNELS
    | Permission.MANAGE_ROLES
    | Permission.MANAGE_THREADS
    | Permission.MANAGE_MESSAGES
    | Permission.CREATE_PUBLIC_THREADS
    | Permission.CREATE_PRIVATE_THREADS
    | Permission.USE_APPLICATION_COMMANDS
)
"""The bot's own role: what a gamemaster bot is invited with (no ADMINISTRATOR)."""

_NEEDS_SEND = int(
    Permission.MENTION_EVERYONE
    | Permission.SEND_TTS_MESSAGES
    | Permission.ATTACH_FILES
    | Permission.EMBED_LINKS
)


def base_permissions(guild: Guild, user_id: int) -> int:
    """Guild-wide permissions of a member (0 for someone who is not a member)."""
    if user_id == guild.owner_id:
        return ALL_PERMISSIONS
    member = guild.members.get(user_id)
    if member is None:
        return 0
    permissions = guild.everyone_role.permissions
    for role_id in member.role_ids:
        role = guild.roles.get(role_id)
        if role is not None:
            permissions |= role.permissions
    if permissions & Permission.ADMINISTRATOR:
        return ALL_PERMISSIONS
    return permissions


def overwritten_permissions(guild: Guild, user_id: int, channel: Channel) -> int:
    """Permissions of a member in a guild channel (not a thread) after its overwrites."""
    base = base_permissions(guild, user_id)
    if base == ALL_PERMISSIONS:
        return ALL_PERMISSIONS
    member = guild.members.get(user_id)
    if member is None:
        return 0
    permissions = base
    everyone = channel.overwrites.get(guild.id)
    if everyone is not None:
        permissions = (permissions & ~everyone.deny) | everyone.allow
    role_allow = role_deny = 0
    for role_id in member.role_ids:
        overwrite = channel.overwrites.get(role_id)
        if overwrite is not None and overwrite.type == OverwriteType.ROLE:
            role_allow |= overwrite.allow
            role_deny |= overwrite.deny
    permissions = (permissions & ~role_deny) | role_allow
    own = channel.overwrites.get(user_id)
    if own is not None and own.type == OverwriteType.MEMBER:
        permissions = (permissions & ~own.deny) | own.allow
    if not permissions & Permission.VIEW_CHANNEL:
        return 0
    if not permissions & Permission.SEND_MESSAGES:
        permissions &= ~_NEEDS_SEND
    return permissions


def channel_permissions(guild: Guild, user_id: int, channel: Channel, parent: Channel | None) -> int:
    """Permissions in any guild channel; for a thread, those of its parent (0 if the thread is hidden)."""
    if not channel.is_thread:
        return overwritten_permissions(guild, user_id, channel)
    if parent is None:
        return 0
    permissions = overwritten_permissions(guild, user_id, parent)
    if not can_view_thread(permissions, user_id, channel):
        return 0
    return permissions


def can_view_thread(parent_permissions: int, user_id: int, thread: Channel) -> bool:
    if not parent_permissions & Permission.VIEW_CHANNEL:
        return False
    if thread.type == ChannelType.PRIVATE_THREAD:
        return user_id in thread.thread_members or bool(parent_permissions & Permission.MANAGE_THREADS)
    return True


def has_all(permissions: int, required: int) -> bool:
    return permissions & required == required


def names(permissions: int) -> list[str]:
    """Readable names of the bits set, for error messages."""
    return [flag.name or str(flag.value) for flag in Permission if permissions & flag]
