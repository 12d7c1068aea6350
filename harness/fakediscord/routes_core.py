"""REST routes for login, the gateway URL, the application and its commands, guilds, roles and members."""

from __future__ import annotations

from aiohttp import web

from . import errors, guards, payloads, validation
from .ids import new_snowflake
from .permissions import Permission
from .rest import body, fake_of, json_ok, no_content, raw_body
from .state import Command, Guild

routes = web.RouteTableDef()


# --- login and gateway ---------------------------------------------------------------------------------


@routes.get("/users/@me")
async def get_me(request: web.Request) -> web.Response:
    return json_ok(payloads.current_user(fake_of(request).world.bot))


@routes.get("/users/{user_id}")
async def get_user(request: web.Request) -> web.Response:
    world = fake_of(request).world
    return json_ok(payloads.user(world.user(request.match_info["user_id"])))


@routes.get("/oauth2/applications/@me")
@routes.get("/applications/@me")
async def get_application(request: web.Request) -> web.Response:
    fake = fake_of(request)
    return json_ok(payloads.application(fake.world, fake.app_owner))


@routes.get("/gateway")
async def get_gateway(request: web.Request) -> web.Response:
    return json_ok({"url": fake_of(request).gateway_url})


@routes.get("/gateway/bot")
async def get_gateway_bot(request: web.Request) -> web.Response:
    return json_ok(
        {
            "url": fake_of(request).gateway_url,
            "shards": fake_of(request).recommended_shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 86_400_000,
                "max_concurrency": 1,
            },
        }
    )


# --- application commands ------------------------------------------------------------------------------


def _scope(request: web.Request) -> int | None:
    fake = fake_of(request)
    if request.match_info["application_id"] != str(fake.world.application_id):
        raise errors.ApiError(403, errors.MISSING_ACCESS, "Missing Access")
    guild_id = request.match_info.get("guild_id")
    if guild_id is None:
        return None
    guild = fake.world.guild(guild_id)
    if fake.world.bot.id not in guild.members:
        raise errors.missing_access()
    return guild.id


def _commands_in(request: web.Request, guild_id: int | None) -> list[Command]:
    return [c for c in fake_of(request).world.commands.values() if c.guild_id == guild_id]


def _upsert(request: web.Request, guild_id: int | None, data: dict, existing: list[Command]) -> Command:
    command_type = int(data.get("type", 1))
    same = next((c for c in existing if c.name == data.get("name") and c.type == command_type), None)
    command = Command(
        id=same.id if same else new_snowflake(),
        name=str(data.get("name")),
        type=command_type,
        guild_id=guild_id,
        payload={k: v for k, v in data.items() if k not in ("id", "application_id", "version")},
    )
    fake_of(request).world.commands[command.id] = command
    return command


@routes.get("/applications/{application_id}/commands")
@routes.get("/applications/{application_id}/guilds/{guild_id}/commands")
async def list_commands(request: web.Request) -> web.Response:
    guild_id = _scope(request)
    world = fake_of(request).world
    return json_ok([payloads.command(world, c) for c in _commands_in(request, guild_id)])


@routes.put("/applications/{application_id}/commands")
@routes.put("/applications/{application_id}/guilds/{guild_id}/commands")
async def overwrite_commands(request: web.Request) -> web.Response:
    """Bulk overwrite (what CommandTree.sync does): commands missing from the list are deleted."""
    guild_id = _scope(request)
    wanted = raw_body(request)
    if not isinstance(wanted, list):
        raise errors.invalid_form("_root", "Expected a list of commands.")
    if len(wanted) > 100:
        raise errors.invalid_form("_root", "Must be 100 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    for index, data in enumerate(wanted):
        validation.command_payload(data, str(index))
    world = fake_of(request).world
    existing = _commands_in(request, guild_id)
    for command in existing:
        del world.commands[command.id]
    synced = [_upsert(request, guild_id, data, existing) for data in wanted]
    fake_of(request).sync_count += 1
    return json_ok([payloads.command(world, c) for c in synced])


@routes.post("/applications/{application_id}/commands")
@routes.post("/applications/{application_id}/guilds/{guild_id}/commands")
async def upsert_command(request: web.Request) -> web.Response:
    guild_id = _scope(request)
    data = body(request)
    validation.command_payload(data, "_root")
    command = _upsert(request, guild_id, data, _commands_in(request, guild_id))
    return json_ok(payloads.command(fake_of(request).world, command))


@routes.delete("/applications/{application_id}/commands/{command_id}")
@routes.delete("/applications/{application_id}/guilds/{guild_id}/commands/{command_id}")
async def delete_command(request: web.Request) -> web.Response:
    guild_id = _scope(request)
    world = fake_of(request).world
    command = world.commands.get(int(request.match_info["command_id"]))
    if command is None or command.guild_id != guild_id:
        raise errors.not_found(10063, "application command")
    del world.commands[command.id]
    return no_content()


# --- guilds, roles, members ----------------------------------------------------------------------------


def _guild(request: web.Request) -> Guild:
    fake = fake_of(request)
    guild = fake.world.guild(request.match_info["guild_id"])
    if fake.world.bot.id not in guild.members:
        raise errors.missing_access()
    return guild


@routes.get("/guilds/{guild_id}")
async def get_guild(request: web.Request) -> web.Response:
    guild = _guild(request)
    data = payloads.guild(fake_of(request).world, guild)
    if request.query.get("with_counts") in ("1", "true"):
        data.update(approximate_member_count=len(guild.members), approximate_presence_count=0)
    return json_ok(data)


@routes.get("/guilds/{guild_id}/channels")
async def get_guild_channels(request: web.Request) -> web.Response:
    guild = _guild(request)
    world = fake_of(request).world
    return json_ok([payloads.channel(world, c) for c in world.guild_channels(guild.id)])


@routes.get("/guilds/{guild_id}/threads/active")
async def get_active_threads(request: web.Request) -> web.Response:
    guild = _guild(request)
    world = fake_of(request).world
    threads = [t for t in world.threads_of(guild.id) if world.can_view(world.bot.id, t)]
    members = [payloads.thread_member(t, world.bot.id) for t in threads if world.bot.id in t.thread_members]
    return json_ok({"threads": [payloads.channel(world, t) for t in threads], "members": members})


@routes.get("/guilds/{guild_id}/roles")
async def get_roles(request: web.Request) -> web.Response:
    return json_ok([payloads.role(r) for r in _guild(request).roles.values()])


@routes.post("/guilds/{guild_id}/roles")
async def create_role(request: web.Request) -> web.Response:
    fake = fake_of(request)
    guild = _guild(request)
    held = guards.bot_in_guild(fake.world, guild, Permission.MANAGE_ROLES)
    data = body(request)
    permissions = int(data.get("permissions") or 0)
    if permissions & ~held:
        raise errors.missing_permissions()
    role = fake.backend.create_role(guild, str(data.get("name") or "new role"), permissions, position=1)
    role.color = int(data.get("color") or 0)
    role.hoist, role.mentionable = bool(data.get("hoist")), bool(data.get("mentionable"))
    return json_ok(payloads.role(role))


@routes.get("/guilds/{guild_id}/members")
async def list_members(request: web.Request) -> web.Response:
    world = fake_of(request).world
    members = sorted(_guild(request).members.values(), key=lambda m: m.user_id)
    after = int(request.query.get("after", 0))
    limit = int(request.query.get("limit", 1))
    chosen = [m for m in members if m.user_id > after][:limit]
    return json_ok([payloads.member(world, m) for m in chosen])


@routes.get("/guilds/{guild_id}/members/{user_id}")
async def get_member(request: web.Request) -> web.Response:
    world = fake_of(request).world
    member = _guild(request).members.get(int(request.match_info["user_id"]))
    if member is None:
        raise errors.not_found(errors.UNKNOWN_MEMBER, "Member")
    return json_ok(payloads.member(world, member))


@routes.patch("/guilds/{guild_id}/members/{user_id}")
async def edit_member(request: web.Request) -> web.Response:
    fake = fake_of(request)
    guild = _guild(request)
    member = guild.members.get(int(request.match_info["user_id"]))
    if member is None:
        raise errors.not_found(errors.UNKNOWN_MEMBER, "Member")
    data = body(request)
    if "roles" in data:
        new_roles = [int(r) for r in data["roles"] or []]
        for role_id in set(new_roles) ^ set(member.role_ids):
            guards.can_assign_role(fake.world, guild, role_id)
        fake.backend.set_member_roles(guild, member, new_roles)
    if "nick" in data:
        guards.bot_in_guild(fake.world, guild, Permission.MANAGE_NICKNAMES)
        member.nick = data["nick"]
        fake.backend.set_member_roles(guild, member, member.role_ids)
    return json_ok(payloads.member(fake.world, member))


@routes.put("/guilds/{guild_id}/members/{user_id}/roles/{role_id}")
@routes.delete("/guilds/{guild_id}/members/{user_id}/roles/{role_id}")
async def member_role(request: web.Request) -> web.Response:
    fake = fake_of(request)
    guild = _guild(request)
    member = guild.members.get(int(request.match_info["user_id"]))
    if member is None:
        raise errors.not_found(errors.UNKNOWN_MEMBER, "Member")
    role_id = int(request.match_info["role_id"])
    guards.can_assign_role(fake.world, guild, role_id)
    if request.method == "PUT":
        roles = [*member.role_ids, role_id]
    else:
        roles = [r for r in member.role_ids if r != role_id]
    fake.backend.set_member_roles(guild, member, roles)
    return no_content()
