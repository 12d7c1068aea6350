"""REST routes for channels, overwrites, threads, DMs, messages, pins and attachment downloads."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from aiohttp import web

from . import errors, guards, payloads, validation
from .ids import iso, utcnow
from .permissions import Permission
from .rest import body, fake_of, files_of, json_ok, no_content
from .state import Channel, ChannelType, Message, MessageFlag, Overwrite, OverwriteType
from .world import World

routes = web.RouteTableDef()

_GUILD_CHANNEL_TYPES = {
    ChannelType.GUILD_TEXT,
    ChannelType.GUILD_VOICE,
    ChannelType.GUILD_CATEGORY,
    ChannelType.GUILD_ANNOUNCEMENT,
}


def _channel(request: web.Request) -> Channel:
    return fake_of(request).world.channel(request.match_info["channel_id"])


def _overwrites(raw: list[dict[str, Any]] | None) -> list[Overwrite]:
    return [
        Overwrite(
            target_id=int(o["id"]),
            type=OverwriteType(int(o.get("type", 0))),
            allow=int(o.get("allow") or 0),
            deny=int(o.get("deny") or 0),
        )
        for o in raw or []
    ]


def _manage_permission(channel: Channel) -> int:
    return Permission.MANAGE_THREADS if channel.is_thread else Permission.MANAGE_CHANNELS


# --- channels ------------------------------------------------------------------------------------------


@routes.get("/channels/{channel_id}")
async def get_channel(request: web.Request) -> web.Response:
    world = fake_of(request).world
    channel = _channel(request)
    if not world.can_view(world.bot.id, channel):
        raise errors.missing_access()
    return json_ok(payloads.channel(world, channel))


@routes.post("/guilds/{guild_id}/channels")
async def create_guild_channel(request: web.Request) -> web.Response:
    fake = fake_of(request)
    world = fake.world
    guild = world.guild(request.match_info["guild_id"])
    data = body(request)
    channel_type = ChannelType(int(data.get("type") or 0))
    if channel_type not in _GUILD_CHANNEL_TYPES:
        raise errors.invalid_form("type", f"Channel type {int(channel_type)} cannot be created here.")
    name = str(data.get("name") or "")
    if not 1 <= len(name) <= 100:
        raise errors.invalid_form("name", "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH")
    parent = None
    if data.get("parent_id"):
        parent = world.channels.get(int(data["parent_id"]))
        if parent is None or parent.guild_id != guild.id or parent.type != ChannelType.GUILD_CATEGORY:
            raise errors.invalid_form(
                "parent_id", "Not a category in this guild.", "CHANNEL_PARENT_INVALID_TYPE"
            )
        if channel_type == ChannelType.GUILD_CATEGORY:
            raise errors.invalid_form("parent_id", "Categories cannot have a parent.")
    if parent is not None:
        guards.bot_in_channel(world, parent, Permission.MANAGE_CHANNELS)
    else:
        guards.bot_in_guild(world, guild, Permission.MANAGE_CHANNELS)
    _check_room(world, guild.id, parent)
    overwrites = _overwrites(data.get("permission_overwrites")) if "permission_overwrites" in data else None
    guards.can_grant(world, guild, overwrites or [], parent)
    channel = fake.backend.create_channel(
        guild,
        name=name,
        type=channel_type,
        parent=parent,
        overwrites=overwrites,
        topic=data.get("topic"),
        position=data.get("position"),
    )
    return json_ok(payloads.channel(world, channel))


def _check_room(world: World, guild_id: int, parent: Channel | None) -> None:
    """Discord's caps on a server's channels (threads apart) and on one category's channels."""
    limits = world.limits
    if len(world.guild_channels(guild_id)) >= limits.channels:
        raise errors.ApiError(
            400, errors.MAX_GUILD_CHANNELS, f"Maximum number of guild channels reached ({limits.channels})"
        )
    if parent is not None:
        children = [c for c in world.guild_channels(guild_id) if c.parent_id == parent.id]
        if len(children) >= limits.per_category:
            raise errors.invalid_form(
                "parent_id",
                f"Maximum number of channels in category reached ({limits.per_category})",
                "CHANNEL_PARENT_MAX_CHANNELS",
            )


def _check_thread_room(world: World, guild_id: int) -> None:
    if len(world.threads_of(guild_id)) >= world.limits.active_threads:
        raise errors.ApiError(400, errors.MAX_ACTIVE_THREADS, "Maximum number of active threads reached")


@routes.patch("/channels/{channel_id}")
async def edit_channel(request: web.Request) -> web.Response:
    fake = fake_of(request)
    world = fake.world
    channel = _channel(request)
    data = body(request)
    if channel.is_dm:
        raise errors.ApiError(400, 50003, "Cannot execute action on a DM channel")
    guild = world.guild(channel.guild_id or 0)
    if not (channel.is_thread and channel.owner_id == world.bot.id):
        guards.bot_in_channel(world, channel, _manage_permission(channel))
    if "name" in data:
        channel.name = str(data["name"])
    if "topic" in data:
        channel.topic = data["topic"]
    if "position" in data and data["position"] is not None:
        channel.position = int(data["position"])
    if "nsfw" in data:
        channel.nsfw = bool(data["nsfw"])
    if channel.is_thread and channel.archived and data.get("archived") is False:
        _check_thread_room(world, guild.id)
    for flag in ("archived", "locked", "invitable"):
        if flag in data and channel.is_thread:
            setattr(channel, flag, bool(data[flag]))
    if "auto_archive_duration" in data and channel.is_thread:
        channel.auto_archive_duration = int(data["auto_archive_duration"])
    if "parent_id" in data and not channel.is_thread:
        parent = world.channels.get(int(data["parent_id"])) if data["parent_id"] else None
        channel.parent_id = parent.id if parent else None
        if parent is not None and data.get("lock_permissions"):
            channel.overwrites = {
                o.target_id: Overwrite(o.target_id, o.type, o.allow, o.deny)
                for o in parent.overwrites.values()
            }
    if "permission_overwrites" in data and not channel.is_thread:
        overwrites = _overwrites(data["permission_overwrites"])
        guards.can_grant(world, guild, overwrites, channel)
        channel.overwrites = {o.target_id: o for o in overwrites}
    fake.backend.update_channel(channel)
    return json_ok(payloads.channel(world, channel))


@routes.delete("/channels/{channel_id}")
async def delete_channel(request: web.Request) -> web.Response:
    fake = fake_of(request)
    world = fake.world
    channel = _channel(request)
    data = payloads.channel(world, channel)
    if channel.is_dm:
        return json_ok(data)  # closing a DM: nothing is deleted
    guards.bot_in_channel(world, channel, _manage_permission(channel))
    fake.backend.delete_channel(channel)
    return json_ok(data)


@routes.put("/channels/{channel_id}/permissions/{target_id}")
async def put_overwrite(request: web.Request) -> web.Response:
    fake = fake_of(request)
    world = fake.world
    channel = _channel(request)
    if channel.is_dm or channel.is_thread:
        raise errors.ApiError(400, 50024, "Cannot execute action on this channel type")
    data = body(request)
    if "type" not in data:
        raise errors.invalid_form("type", "This field is required", "BASE_TYPE_REQUIRED")
    overwrite = Overwrite(
        target_id=int(request.match_info["target_id"]),
        type=OverwriteType(int(data["type"])),
        allow=int(data.get("allow") or 0),
        deny=int(data.get("deny") or 0),
    )
    guild = world.guild(channel.guild_id or 0)
    if overwrite.type == OverwriteType.ROLE and overwrite.target_id not in guild.roles:
        raise errors.not_found(errors.UNKNOWN_ROLE, "Role")
    if overwrite.type == OverwriteType.MEMBER and overwrite.target_id not in guild.members:
        raise errors.not_found(errors.UNKNOWN_MEMBER, "Member")
    guards.bot_in_channel(world, channel, 0)
    guards.can_grant(world, guild, [overwrite], channel)
    fake.backend.set_overwrite(channel, overwrite)
    return no_content()


@routes.delete("/channels/{channel_id}/permissions/{target_id}")
async def delete_overwrite(request: web.Request) -> web.Response:
    fake = fake_of(request)
    world = fake.world
    channel = _channel(request)
    guild = world.guild(channel.guild_id or 0)
    guards.bot_in_channel(world, channel, 0)
    guards.bot_in_guild(world, guild, Permission.MANAGE_ROLES)
    fake.backend.delete_overwrite(channel, int(request.match_info["target_id"]))
    return no_content()


@routes.post("/users/@me/channels")
async def open_dm(request: web.Request) -> web.Response:
    fake = fake_of(request)
    recipient = fake.world.user(body(request).get("recipient_id", 0))
    return json_ok(payloads.channel(fake.world, fake.backend.open_dm(recipient)))


@routes.post("/channels/{channel_id}/typing")
async def typing(request: web.Request) -> web.Response:
    world = fake_of(request).world
    channel = _channel(request)
    if not channel.is_dm:
        guards.bot_in_channel(world, channel, 0)
    return no_content()


# --- threads -------------------------------------------------------------------------------------------


@routes.post("/channels/{channel_id}/threads")
async def create_thread(request: web.Request) -> web.Response:
    fake = fake_of(request)
    world = fake.world
    parent = _channel(request)
    if parent.type not in (ChannelType.GUILD_TEXT, ChannelType.GUILD_ANNOUNCEMENT):
        raise errors.ApiError(400, 50024, "Cannot execute action on this channel type")
    data = body(request)
    thread_type = ChannelType(int(data.get("type") or ChannelType.PRIVATE_THREAD))
    if thread_type not in (ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD):
        raise errors.invalid_form("type", "Value must be one of {11, 12}.")
    needed = (
        Permission.CREATE_PRIVATE_THREADS
        if thread_type == ChannelType.PRIVATE_THREAD
        else Permission.CREATE_PUBLIC_THREADS
    )
    guards.bot_in_channel(world, parent, needed)
    _check_thread_room(world, parent.guild_id or 0)
    name = str(data.get("name") or "")
    if not 1 <= len(name) <= 100:
        raise errors.invalid_form("name", "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH")
    thread = fake.backend.create_thread(
        parent,
        name=name,
        type=thread_type,
        owner_id=world.bot.id,
        invitable=bool(data.get("invitable", True)),
        auto_archive_duration=int(data.get("auto_archive_duration") or 1440),
    )
    return json_ok(
        {**payloads.channel(world, thread), "member": payloads.thread_member(thread, world.bot.id)}
    )


def _thread(request: web.Request) -> Channel:
    channel = _channel(request)
    if not channel.is_thread:
        raise errors.ApiError(400, 50024, "Cannot execute action on this channel type")
    return channel


def _thread_target(request: web.Request) -> int:
    raw = request.match_info["user_id"]
    return fake_of(request).world.bot.id if raw == "@me" else int(raw)


@routes.put("/channels/{channel_id}/thread-members/{user_id}")
async def add_thread_member(request: web.Request) -> web.Response:
    fake = fake_of(request)
    world = fake.world
    thread = _thread(request)
    user_id = _thread_target(request)
    guild = world.guild(thread.guild_id or 0)
    if user_id not in guild.members:
        raise errors.not_found(errors.UNKNOWN_MEMBER, "Member")
    if thread.archived:
        raise errors.ApiError(400, errors.THREAD_ARCHIVED, "Thread is archived")
    if user_id == world.bot.id and thread.type == ChannelType.PUBLIC_THREAD:
        permissions = guards.bot_in_channel(world, thread, 0)
    else:
        permissions = guards.bot_in_channel(world, thread, Permission.SEND_MESSAGES_IN_THREADS)
    private_closed = thread.type == ChannelType.PRIVATE_THREAD and not thread.invitable
    if private_closed and thread.owner_id != world.bot.id and not permissions & Permission.MANAGE_THREADS:
        raise errors.missing_permissions()
    fake.backend.add_thread_member(thread, user_id)
    return no_content()


@routes.delete("/channels/{channel_id}/thread-members/{user_id}")
async def remove_thread_member(request: web.Request) -> web.Response:
    fake = fake_of(request)
    world = fake.world
    thread = _thread(request)
    user_id = _thread_target(request)
    if thread.archived:
        raise errors.ApiError(400, errors.THREAD_ARCHIVED, "Thread is archived")
    if user_id != world.bot.id:
        permissions = guards.bot_in_channel(world, thread, 0)
        owns_private = thread.type == ChannelType.PRIVATE_THREAD and thread.owner_id == world.bot.id
        if not owns_private and not permissions & Permission.MANAGE_THREADS:
            raise errors.missing_permissions()
    fake.backend.remove_thread_member(thread, user_id)
    return no_content()


@routes.get("/channels/{channel_id}/thread-members/{user_id}")
async def get_thread_member(request: web.Request) -> web.Response:
    thread = _thread(request)
    user_id = _thread_target(request)
    if user_id not in thread.thread_members:
        raise errors.not_found(errors.UNKNOWN_MEMBER, "Member")
    return json_ok(payloads.thread_member(thread, user_id))


@routes.get("/channels/{channel_id}/threads/archived/private")
async def list_archived_private_threads(request: web.Request) -> web.Response:
    """Archived private threads of a channel, newest archived first (Manage Threads needed)."""
    world = fake_of(request).world
    parent = _channel(request)
    guards.bot_in_channel(world, parent, Permission.READ_MESSAGE_HISTORY | Permission.MANAGE_THREADS)
    threads = [
        c
        for c in world.channels.values()
        if c.parent_id == parent.id and c.type == ChannelType.PRIVATE_THREAD and c.archived
    ]
    threads.sort(key=lambda t: t.id, reverse=True)
    limit = int(request.query.get("limit", 50))
    members = [payloads.thread_member(t, world.bot.id) for t in threads if world.bot.id in t.thread_members]
    return json_ok(
        {
            "threads": [payloads.channel(world, t) for t in threads[:limit]],
            "members": members,
            "has_more": len(threads) > limit,
        }
    )


@routes.get("/channels/{channel_id}/thread-members")
async def list_thread_members(request: web.Request) -> web.Response:
    thread = _thread(request)
    return json_ok([payloads.thread_member(thread, uid) for uid in thread.thread_members])


# --- messages ------------------------------------------------------------------------------------------


def check_can_send(world: World, channel: Channel, payload: dict[str, Any], has_files: bool) -> None:
    """What Discord checks before the bot's message lands in a channel."""
    if channel.is_dm:
        recipient = world.users[channel.recipient_ids[0]]
        if not recipient.dms_open or not world.shares_guild_with_bot(recipient.id):
            raise errors.ApiError(403, errors.CANNOT_MESSAGE_USER, "Cannot send messages to this user")
        return
    needed = Permission.SEND_MESSAGES_IN_THREADS if channel.is_thread else Permission.SEND_MESSAGES
    if has_files:
        needed |= Permission.ATTACH_FILES
    if payload.get("embeds"):
        needed |= Permission.EMBED_LINKS
    guards.bot_in_channel(world, channel, needed)
    if channel.is_thread and channel.locked:
        raise errors.ApiError(400, errors.THREAD_ARCHIVED, "Thread is archived")


@routes.post("/channels/{channel_id}/messages")
async def create_message(request: web.Request) -> web.Response:
    fake = fake_of(request)
    channel = _channel(request)
    data, files = body(request), files_of(request)
    validation.message_payload(data, has_files=bool(files))
    check_can_send(fake.world, channel, data, bool(files))
    earlier = _same_nonce(fake.world, channel, data)
    if earlier is not None:  # Discord de-duplicates: the message sent first with this nonce
        return json_ok(payloads.message(fake.world, earlier))
    if channel.is_thread and channel.archived:
        channel.archived = False  # sending in an archived (unlocked) thread unarchives it
        fake.backend.update_channel(channel)
    message = fake.backend.post_message(channel, fake.world.bot.id, data, files)
    return json_ok(payloads.message(fake.world, message))


def _same_nonce(world: World, channel: Channel, data: dict[str, Any]) -> Message | None:
    """With ``enforce_nonce``, a nonce the bot used in this channel within the window names the message
    already made (Discord: "checked for uniqueness in the past few minutes")."""
    nonce = data.get("nonce")
    if nonce is None or not data.get("enforce_nonce"):
        return None
    since = utcnow() - timedelta(seconds=world.limits.nonce_window_seconds)
    if world.nonces_forgotten_before is not None:
        since = max(since, world.nonces_forgotten_before)
    for message in world.channel_messages(channel.id):
        if message.author_id == world.bot.id and message.nonce == str(nonce) and message.timestamp >= since:
            return message
    return None


def _read_guard(request: web.Request) -> Channel:
    world = fake_of(request).world
    channel = _channel(request)
    if not channel.is_dm:
        guards.bot_in_channel(world, channel, Permission.READ_MESSAGE_HISTORY)
    return channel


@routes.get("/channels/{channel_id}/messages")
async def list_messages(request: web.Request) -> web.Response:
    world = fake_of(request).world
    channel = _read_guard(request)
    messages = world.channel_messages(channel.id)
    limit = int(request.query.get("limit", 50))
    if "before" in request.query:
        messages = [m for m in messages if m.id < int(request.query["before"])]
    if "after" in request.query:
        messages = [m for m in messages if m.id > int(request.query["after"])]
        return json_ok([payloads.message(world, m) for m in reversed(messages[:limit])])
    return json_ok([payloads.message(world, m) for m in reversed(messages[-limit:])])


@routes.get("/channels/{channel_id}/messages/pins")
@routes.get("/channels/{channel_id}/pins")
async def list_pins(request: web.Request) -> web.Response:
    world = fake_of(request).world
    channel = _read_guard(request)
    pinned = sorted(
        (m for m in world.channel_messages(channel.id) if m.pinned_at is not None),
        key=lambda m: m.pinned_at or m.timestamp,
        reverse=True,
    )
    if request.path.endswith("/pins") and "/messages/" not in request.path:
        return json_ok([payloads.message(world, m) for m in pinned])
    items = [{"pinned_at": iso(m.pinned_at), "message": payloads.message(world, m)} for m in pinned]
    return json_ok({"items": items, "has_more": False})


@routes.put("/channels/{channel_id}/messages/pins/{message_id}")
@routes.delete("/channels/{channel_id}/messages/pins/{message_id}")
@routes.put("/channels/{channel_id}/pins/{message_id}")
@routes.delete("/channels/{channel_id}/pins/{message_id}")
async def pin(request: web.Request) -> web.Response:
    fake = fake_of(request)
    channel = _channel(request)
    if not channel.is_dm:
        guards.bot_in_channel(fake.world, channel, Permission.MANAGE_MESSAGES)
    message = fake.world.message(channel.id, request.match_info["message_id"])
    fake.backend.set_pinned(message, request.method == "PUT")
    return no_content()


def _own_message(request: web.Request) -> tuple[Channel, Message]:
    world = fake_of(request).world
    channel = _channel(request)
    if not channel.is_dm:
        guards.bot_in_channel(world, channel, 0)
    return channel, world.message(channel.id, request.match_info["message_id"])


@routes.get("/channels/{channel_id}/messages/{message_id}")
async def get_message(request: web.Request) -> web.Response:
    _read_guard(request)
    _, message = _own_message(request)
    return json_ok(payloads.message(fake_of(request).world, message))


@routes.patch("/channels/{channel_id}/messages/{message_id}")
async def edit_message(request: web.Request) -> web.Response:
    fake = fake_of(request)
    _, message = _own_message(request)
    if message.author_id != fake.world.bot.id:
        raise errors.ApiError(403, 50005, "Cannot edit a message authored by another user")
    data, files = body(request), files_of(request)
    was_v2 = bool(message.flags & MessageFlag.IS_COMPONENTS_V2)
    validation.message_payload(data, has_files=bool(files), editing=True, was_v2=was_v2)
    fake.backend.edit_message(message, data, files)
    return json_ok(payloads.message(fake.world, message))


@routes.delete("/channels/{channel_id}/messages/{message_id}")
async def delete_message(request: web.Request) -> web.Response:
    fake = fake_of(request)
    channel, message = _own_message(request)
    if message.author_id != fake.world.bot.id:
        if channel.is_dm:
            raise errors.ApiError(403, 50003, "Cannot execute action on a DM channel")
        guards.bot_in_channel(fake.world, channel, Permission.MANAGE_MESSAGES)
    fake.backend.delete_message(message)
    return no_content()


# --- attachment downloads (the CDN, outside /api/v10) --------------------------------------------------


async def download_attachment(request: web.Request) -> web.Response:
    world = fake_of(request).world
    wanted = int(request.match_info["attachment_id"])
    for message in world.messages.values():
        for attachment in message.attachments:
            if attachment.id == wanted:
                return web.Response(
                    body=attachment.data, content_type=attachment.content_type or "application/octet-stream"
                )
    return web.Response(status=404, text="asset not found")
