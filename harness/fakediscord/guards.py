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
    """Editing overwrites needs Manage Roles, and a bot may only allow or deny what it has itself.
    Manage Roles itself ("Manage Permissions" in a channel) may be allowed or denied in an overwrite
    only by an administrator, or by a bot that holds it through an overwrite of its own in that channel
    (Discord's change log, 22 January 2021)."""
    if not overwrites:
        return
    held = base_permissions(guild, world.bot.id) if where is None else world.permissions(world.bot.id, where)
    if held == ALL_PERMISSIONS:
        return
    bot_in_guild(world, guild, Permission.MANAGE_ROLES)
    for overwrite in overwrites:
        if (overwrite.allow | overwrite.deny) & ~held:
            raise errors.missing_permissions()
        if (overwrite.allow | overwrite.deny) & Permission.MANAGE_ROLES and not _manages_roles_in(
            world, guild, where
        ):
            raise errors.missing_permissions()


def _manages_roles_in(world: World, guild: Guild, where: Channel | None) -> bool:
    """Whether one of the bot's own overwrites in ``where`` (its member's or one of its roles') allows
    Manage Roles."""
    if where is None:
        return False
    member = guild.members.get(world.bot.id)
    mine = {world.bot.id, *(member.role_ids if member is not None else ())}
    return any(o.allow & Permission.MANAGE_ROLES for t, o in where.overwrites.items() if t in mine)


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
