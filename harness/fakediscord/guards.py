"""The bot's permission checks on REST calls, answered as Discord answers them (403 50001 / 50013)."""

from __future__ import annotations

from . import errors
from .permissions import ALL_PERMISSIONS, Permission, base_permissions, has_all
from .state import Channel, Guild, Overwrite
from .world import World


def bot_in_channel(world: World, channel: Channel, required: int) -> int:
    """The bot's permissions in the channel, after checking it can see it and has `required`."""
    permissions = world.permissions(world.bot.id, channel)
    if not permissions & Permission.VIEW_CHANNEL:
        raise errors.missing_access()
    if not has_all(permissions, required):
        raise errors.missing_permissions()
    return permissions


def bot_in_guild(world: World, guild: Guild, required: int) -> int:
    if world.bot.id not in guild.members:
        raise errors.missing_access()
    permissions = base_permissions(guild, world.bot.id)
    if not has_all(permissions, required):
        raise errors.missing_permissions()
    return permissions


def can_grant(world: World, guild: Guild, overwrites: list[Overwrite], where: Channel | None) -> None:
    """Editing overwrites needs Manage Roles, and a bot may only allow or deny what it has itself."""
    if not overwrites:
        return
    held = base_permissions(guild, world.bot.id) if where is None else world.permissions(world.bot.id, where)
    if held == ALL_PERMISSIONS:
        return
    bot_in_guild(world, guild, Permission.MANAGE_ROLES)
    for overwrite in overwrites:
        if (overwrite.allow | overwrite.deny) & ~held:
            raise errors.missing_permissions()


def bot_top_role_position(world: World, guild: Guild) -> int:
    member = guild.members[world.bot.id]
    return max((guild.roles[r].position for r in member.role_ids if r in guild.roles), default=0)


def can_assign_role(world: World, guild: Guild, role_id: int) -> None:
    """Manage Roles, and the role must sit below the bot's highest role (even for an administrator) and not
    be managed or @everyone."""
    bot_in_guild(world, guild, Permission.MANAGE_ROLES)
    role = guild.roles.get(role_id)
    if role is None:
        raise errors.not_found(errors.UNKNOWN_ROLE, "Role")
    if role.managed or role.id == guild.id or role.position >= bot_top_role_position(world, guild):
        raise errors.missing_permissions()
