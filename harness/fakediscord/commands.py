"""Turning "alice types /game create name:Test" into the interaction data Discord would send.

The Discord client only lets a user run a command the bot synced, with the options it declared, of the
right types, with every required option filled and choices respected; so does this module, raising
UserActionError (with what was available) otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import payloads
from .errors import UserActionError
from .permissions import Permission, has_all, names
from .state import Channel, Command, Role, User
from .world import World

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
_TYPE_NAMES = {
    STRING: "string",
    INTEGER: "integer",
    BOOLEAN: "boolean",
    USER: "user",
    CHANNEL: "channel",
    ROLE: "role",
    MENTIONABLE: "mentionable",
    NUMBER: "number",
    ATTACHMENT: "attachment",
}


@dataclass
class BuiltCommand:
    command: Command
    data: dict[str, Any]
    """The interaction's `data` object."""
    path: str
    """e.g. "/game create", for messages."""
    resolved: dict[str, dict[str, Any]] = field(default_factory=dict)


def find_command(world: World, name: str, guild_id: int | None) -> Command:
    for command in world.commands_for(guild_id):
        if command.name == name and command.type == 1:
            return command
    available = sorted(c.name for c in world.commands_for(guild_id) if c.type == 1)
    raise UserActionError(
        f"/{name} is not a command here; the bot synced {available or 'no commands'} "
        f"({'in this guild and globally' if guild_id else 'globally'}). Did the bot call tree.sync()?"
    )


def check_available(world: World, command: Command, user: User, channel: Channel) -> None:
    """Discord hides commands a user may not use: default_member_permissions, and contexts (guild vs DM)."""
    payload = command.payload
    contexts = payload.get("contexts")
    in_dm = channel.is_dm
    if contexts is not None and (1 if in_dm else 0) not in contexts:
        raise UserActionError(
            f"/{command.name} is not offered {'in DMs' if in_dm else 'in servers'} (contexts={contexts})"
        )
    if in_dm and payload.get("dm_permission") is False:
        raise UserActionError(f"/{command.name} is not offered in DMs (dm_permission=false)")
    required = payload.get("default_member_permissions")
    if required is not None and not in_dm:
        permissions = world.permissions(user.id, channel)
        if not has_all(permissions, int(required)) and not permissions & Permission.ADMINISTRATOR:
            raise UserActionError(
                f"{user.username} cannot see /{command.name}: it needs {names(int(required))} "
                f"(default_member_permissions) and they lack {names(int(required) & ~permissions)}"
            )


def build(
    world: World,
    user: User,
    channel: Channel,
    path: tuple[str, ...],
    options: dict[str, Any],
    *,
    focused: str | None = None,
) -> BuiltCommand:
    if not path:
        raise UserActionError("name the command, e.g. slash(user, 'game', 'create', ...)")
    command = find_command(world, path[0], channel.guild_id)
    check_available(world, command, user, channel)
    built = BuiltCommand(command=command, data={}, path="/" + " ".join(path))
    declared: list[dict[str, Any]] = command.payload.get("options") or []
    nested: list[dict[str, Any]] = []
    top = nested
    for depth, name in enumerate(path[1:], start=1):
        kinds = {SUB_COMMAND_GROUP, SUB_COMMAND} if depth == 1 else {SUB_COMMAND}
        sub = next((o for o in declared if o.get("name") == name and o.get("type") in kinds), None)
        if sub is None:
            subs = [o["name"] for o in declared if o.get("type") in kinds]
            raise UserActionError(
                f"{built.path}: {' '.join(path[:depth])!r} has no subcommand {name!r}; it has {subs}"
            )
        entry: dict[str, Any] = {"type": sub["type"], "name": name, "options": []}
        nested.append(entry)
        nested = entry["options"]
        declared = sub.get("options") or []
    remaining = [o["name"] for o in declared if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    if remaining:
        raise UserActionError(f"{built.path} needs a subcommand: one of {remaining}")
    nested.extend(_options(world, user, channel, built, declared, options, focused))
    built.data = {
        "id": str(command.id),
        "name": command.name,
        "type": 1,
        "options": top,
    }
    if command.guild_id is not None:
        built.data["guild_id"] = str(command.guild_id)
    if built.resolved:
        built.data["resolved"] = built.resolved
    return built


def _options(
    world: World,
    user: User,
    channel: Channel,
    built: BuiltCommand,
    declared: list[dict[str, Any]],
    given: dict[str, Any],
    focused: str | None,
) -> list[dict[str, Any]]:
    by_name = {o["name"]: o for o in declared}
    unknown = set(given) - set(by_name)
    if unknown:
        raise UserActionError(
            f"{built.path} has no option {sorted(unknown)}; its options are {list(by_name)}"
        )
    if focused is not None:
        if focused not in by_name or not by_name[focused].get("autocomplete"):
            offered = [n for n, o in by_name.items() if o.get("autocomplete")]
            raise UserActionError(
                f"{built.path}: option {focused!r} has no autocomplete; these do: {offered}"
            )
    else:
        missing = [n for n, o in by_name.items() if o.get("required") and n not in given]
        if missing:
            raise UserActionError(f"{built.path}: required option(s) {missing} not given")
    result = []
    for name, value in given.items():
        spec = by_name[name]
        if name == focused:
            result.append({"type": spec["type"], "name": name, "value": str(value), "focused": True})
        else:
            result.append(
                {
                    "type": spec["type"],
                    "name": name,
                    "value": _value(world, user, channel, built, spec, value),
                }
            )
    return result


def _value(
    world: World, user: User, channel: Channel, built: BuiltCommand, spec: dict[str, Any], value: Any
) -> Any:
    kind, name = spec["type"], f"{built.path} {spec['name']}"
    expected = _TYPE_NAMES.get(kind, str(kind))
    if kind == STRING:
        if not isinstance(value, str):
            raise UserActionError(f"{name} takes a string, not {value!r}")
        if not spec.get("min_length", 0) <= len(value) <= spec.get("max_length", 6000):
            bounds = f"{spec.get('min_length', 0)}..{spec.get('max_length')}"
            raise UserActionError(f"{name}: length {len(value)} is outside {bounds}")
    elif kind in (INTEGER, NUMBER):
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or (kind == INTEGER and not isinstance(value, int))
        ):
            raise UserActionError(f"{name} takes an {expected}, not {value!r}")
        low, high = spec.get("min_value"), spec.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise UserActionError(f"{name}: {value} is outside {low}..{high}")
    elif kind == BOOLEAN:
        if not isinstance(value, bool):
            raise UserActionError(f"{name} takes a boolean, not {value!r}")
    elif kind in (USER, MENTIONABLE) and isinstance(value, User):
        return _resolve_user(world, channel, built, value)
    elif kind in (ROLE, MENTIONABLE) and isinstance(value, Role):
        built.resolved.setdefault("roles", {})[str(value.id)] = payloads.role(value)
        return str(value.id)
    elif kind == CHANNEL and isinstance(value, Channel):
        types = spec.get("channel_types")
        if types is not None and int(value.type) not in types:
            raise UserActionError(f"{name} accepts channel types {types}, not {int(value.type)}")
        built.resolved.setdefault("channels", {})[str(value.id)] = payloads.channel_with_permissions(
            world, value, user.id
        )
        return str(value.id)
    else:
        raise UserActionError(
            f"{name} takes a {expected}; pass a {expected} object from the fake, not {value!r}"
        )
    choices = spec.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise UserActionError(f"{name}: {value!r} is not one of the choices {[c['value'] for c in choices]}")
    return value


def _resolve_user(world: World, channel: Channel, built: BuiltCommand, target: User) -> str:
    built.resolved.setdefault("users", {})[str(target.id)] = payloads.user(target)
    guild = world.guild_of(channel)
    if guild is not None and target.id in guild.members:
        member = payloads.member(
            world,
            guild.members[target.id],
            with_user=False,
            permissions=world.permissions(target.id, channel),
        )
        built.resolved.setdefault("members", {})[str(target.id)] = member
    return str(target.id)
