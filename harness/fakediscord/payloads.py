"""State objects to the JSON shapes of Discord's API v10, as discord.py 2.7 reads them.

Ids are snowflake strings, permissions are decimal strings, timestamps are ISO 8601.
"""

from __future__ import annotations

import re
from typing import Any

from .ids import iso
from .permissions import Permission
from .state import (
    Attachment,
    Channel,
    ChannelType,
    Command,
    Guild,
    Member,
    Message,
    Role,
    User,
    walk_components,
)
from .world import World

JsonDict = dict[str, Any]


def user(u: User) -> JsonDict:
    return {
        "id": str(u.id),
        "username": u.username,
        "global_name": u.global_name,
        "discriminator": "0",
        "avatar": None,
        "bot": u.bot,
        "public_flags": 0,
        "flags": 0,
    }


def current_user(u: User) -> JsonDict:
    return {**user(u), "verified": True, "mfa_enabled": False, "locale": "en-US", "email": None}


def role(r: Role) -> JsonDict:
    return {
        "id": str(r.id),
        "name": r.name,
        "permissions": str(r.permissions),
        "position": r.position,
        "color": r.color,
        "colors": {"primary_color": r.color, "secondary_color": None, "tertiary_color": None},
        "hoist": r.hoist,
        "managed": r.managed,
        "mentionable": r.mentionable,
        "icon": None,
        "unicode_emoji": None,
        "flags": 0,
    }


def member(world: World, m: Member, *, with_user: bool = True, permissions: int | None = None) -> JsonDict:
    payload: JsonDict = {
        "roles": [str(r) for r in m.role_ids],
        "nick": m.nick,
        "avatar": None,
        "joined_at": iso(m.joined_at),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if with_user:
        payload["user"] = user(world.users[m.user_id])
    if permissions is not None:
        payload["permissions"] = str(permissions)
    return payload


def overwrites(c: Channel) -> list[JsonDict]:
    return [
        {"id": str(o.target_id), "type": int(o.type), "allow": str(o.allow), "deny": str(o.deny)}
        for o in c.overwrites.values()
    ]


def channel(world: World, c: Channel) -> JsonDict:
    if c.type == ChannelType.DM:
        return {
            "id": str(c.id),
            "type": int(c.type),
            "last_message_id": None if c.last_message_id is None else str(c.last_message_id),
            "recipients": [user(world.users[uid]) for uid in c.recipient_ids],
            "flags": 0,
        }
    payload: JsonDict = {
        "id": str(c.id),
        "type": int(c.type),
        "guild_id": str(c.guild_id),
        "name": c.name,
        "position": c.position,
        "parent_id": None if c.parent_id is None else str(c.parent_id),
        "flags": 0,
        "nsfw": c.nsfw,
    }
    if c.is_thread:
        payload.update(thread_fields(c))
        return payload
    payload["permission_overwrites"] = overwrites(c)
    if c.type in (ChannelType.GUILD_TEXT, ChannelType.GUILD_ANNOUNCEMENT):
        payload.update(
            topic=c.topic,
            rate_limit_per_user=0,
            last_message_id=None if c.last_message_id is None else str(c.last_message_id),
            default_auto_archive_duration=1440,
        )
    elif c.type == ChannelType.GUILD_VOICE:
        payload.update(bitrate=64000, user_limit=0, rtc_region=None)
    return payload


def thread_fields(c: Channel) -> JsonDict:
    return {
        "owner_id": str(c.owner_id),
        "last_message_id": None if c.last_message_id is None else str(c.last_message_id),
        "rate_limit_per_user": 0,
        "message_count": c.message_count,
        "total_message_sent": c.message_count,
        "member_count": min(len(c.thread_members), 50),
        "thread_metadata": {
            "archived": c.archived,
            "auto_archive_duration": c.auto_archive_duration,
            "archive_timestamp": iso(c.created_at),
            "locked": c.locked,
            "invitable": c.invitable,
            "create_timestamp": iso(c.created_at),
        },
    }


def thread_member(c: Channel, user_id: int) -> JsonDict:
    tm = c.thread_members[user_id]
    return {"id": str(c.id), "user_id": str(user_id), "join_timestamp": iso(tm.joined_at), "flags": 0}


def channel_with_permissions(world: World, c: Channel, user_id: int) -> JsonDict:
    """A channel as it appears inside an interaction: with the invoking user's permissions."""
    return {**channel(world, c), "permissions": str(world.permissions(user_id, c))}


def guild(world: World, g: Guild) -> JsonDict:
    return {
        "id": str(g.id),
        "name": g.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(g.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 1,
        "explicit_content_filter": 0,
        "roles": [role(r) for r in g.roles.values()],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "max_members": 500000,
    }


def guild_create(world: World, g: Guild, visible_threads: list[Channel]) -> JsonDict:
    """The GUILD_CREATE event: the guild with its channels, roles, every member and active threads."""
    payload = guild(world, g)
    payload.update(
        joined_at=iso(g.members[world.bot.id].joined_at),
        large=False,
        unavailable=False,
        member_count=len(g.members),
        members=[member(world, m) for m in g.members.values()],
        channels=[channel(world, c) for c in world.guild_channels(g.id)],
        threads=[channel(world, t) for t in visible_threads],
        presences=[],
        voice_states=[],
        stage_instances=[],
        guild_scheduled_events=[],
        soundboard_sounds=[],
    )
    return payload


def attachment(a: Attachment) -> JsonDict:
    payload: JsonDict = {
        "id": str(a.id),
        "filename": a.filename,
        "size": a.size,
        "url": a.url,
        "proxy_url": a.url,
        "content_type": a.content_type,
        "description": a.description,
    }
    if a.width is not None:
        payload.update(width=a.width, height=a.height)
    return payload


def message(world: World, m: Message, *, for_gateway: bool = False) -> JsonDict:
    author = world.users[m.author_id]
    payload: JsonDict = {
        "id": str(m.id),
        "channel_id": str(m.channel_id),
        "author": user(author),
        "content": m.content,
        "timestamp": iso(m.timestamp),
        "edited_timestamp": iso(m.edited_timestamp),
        "tts": m.tts,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [attachment(a) for a in m.attachments],
        "embeds": m.embeds,
        "components": m.components,
        "pinned": m.pinned,
        "type": m.type,
        "flags": m.flags,
    }
    payload.update(mentions_of(world, m))
    if m.nonce is not None:
        payload["nonce"] = m.nonce
    if m.message_reference is not None:
        payload["message_reference"] = m.message_reference
    if m.webhook_id is not None:
        payload["webhook_id"] = str(m.webhook_id)
        payload["application_id"] = str(world.application_id)
    if m.interaction_id is not None and m.interaction_id in world.interactions:
        payload["interaction_metadata"] = interaction_metadata(world, m)
    if for_gateway and m.guild_id is not None:
        payload["guild_id"] = str(m.guild_id)
        g = world.guilds.get(m.guild_id)
        if g is not None and m.author_id in g.members:
            payload["member"] = member(world, g.members[m.author_id], with_user=False)
    return payload


def interaction_metadata(world: World, m: Message) -> JsonDict:
    interaction = world.interactions[m.interaction_id or 0]
    owners = {"0": str(interaction.guild_id)} if interaction.guild_id else {"1": str(interaction.user_id)}
    payload: JsonDict = {
        "id": str(interaction.id),
        "type": int(interaction.kind),
        "user": user(world.users[interaction.user_id]),
        "authorizing_integration_owners": owners,
    }
    if interaction.original_message_id is not None and interaction.original_message_id != m.id:
        payload["original_response_message_id"] = str(interaction.original_message_id)
    return payload


def mentions_of(world: World, m: Message) -> JsonDict:
    """Who the message pings, honouring allowed_mentions the way Discord does."""
    allowed = m.allowed_mentions
    parse = {"users", "roles", "everyone"} if allowed is None else set(allowed.get("parse", []))
    allowed_users = {int(u) for u in (allowed or {}).get("users", [])}
    allowed_roles = {int(r) for r in (allowed or {}).get("roles", [])}
    said = m.content + "".join(  # a Components V2 message says it in its text displays
        "\n" + str(c.get("content") or "") for c in walk_components(m.components) if c.get("type") == 10
    )
    user_ids = [int(x) for x in re.findall(r"<@!?(\d+)>", said)]
    role_ids = [int(x) for x in re.findall(r"<@&(\d+)>", said)]
    mentioned_users = [
        user(world.users[u])
        for u in dict.fromkeys(user_ids)
        if u in world.users and ("users" in parse or u in allowed_users)
    ]
    mentioned_roles = [
        str(r)
        for r in dict.fromkeys(role_ids)
        if ("roles" in parse or r in allowed_roles) and _role_pings(world, m, r)
    ]
    everyone = "everyone" in parse and ("@everyone" in said or "@here" in said)
    return {"mentions": mentioned_users, "mention_roles": mentioned_roles, "mention_everyone": everyone}


def _role_pings(world: World, m: Message, role_id: int) -> bool:
    """A role mention notifies only if the role is mentionable ("Allow anyone to @mention this role")
    or the author may Mention @everyone, @here and All Roles in that channel."""
    guild = world.guilds.get(m.guild_id or 0)
    role = guild.roles.get(role_id) if guild is not None else None
    if role is None:
        return False
    if role.mentionable:
        return True
    channel = world.channels.get(m.channel_id)
    return channel is not None and bool(world.permissions(m.author_id, channel) & Permission.MENTION_EVERYONE)


def command(world: World, c: Command) -> JsonDict:
    payload = dict(c.payload)
    payload.update(
        id=str(c.id),
        application_id=str(world.application_id),
        version=str(c.id),
        type=c.type,
        name=c.name,
    )
    payload.setdefault("description", "")
    payload.setdefault("default_member_permissions", None)
    payload.setdefault("nsfw", False)
    # As Discord answers: permissions as a string, the defaults it fills in where none were given.
    if payload["default_member_permissions"] is not None:
        payload["default_member_permissions"] = str(payload["default_member_permissions"])
    if payload.get("integration_types") is None:
        payload["integration_types"] = [0]
    payload.setdefault("dm_permission", True)
    if c.guild_id is not None:
        payload["guild_id"] = str(c.guild_id)
    return payload


def application(world: World, owner: User) -> JsonDict:
    return {
        "id": str(world.application_id),
        "name": world.bot.username,
        "description": "Fake application for end-to-end tests",
        "icon": None,
        "rpc_origins": [],
        "bot_public": False,
        "bot_require_code_grant": False,
        "owner": user(owner),
        "verify_key": "0" * 64,
        "team": None,
        "flags": 0,
        "bot": user(world.bot),
        "interactions_endpoint_url": None,
        "redirect_uris": [],
        "tags": [],
        "approximate_guild_count": len(world.guilds),
        "integration_types_config": {"0": {}},
    }
