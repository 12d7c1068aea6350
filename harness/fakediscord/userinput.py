"""What a user's input becomes on the wire: the interaction payload, select values, modal submissions.

Checks what the Discord client checks before it sends anything (UserActionError otherwise).
"""

from __future__ import annotations

from typing import Any

from . import payloads
from .errors import UserActionError
from .state import Channel, Interaction, Message, User, walk_components
from .world import World


def interaction_payload(
    world: World,
    interaction: Interaction,
    user: User,
    channel: Channel,
    data: dict[str, Any],
    source: Message | None,
) -> dict[str, Any]:
    """The INTERACTION_CREATE payload discord.py parses: member with permissions, channel, app_permissions."""
    payload: dict[str, Any] = {
        "id": str(interaction.id),
        "application_id": str(world.application_id),
        "type": int(interaction.kind),
        "data": data,
        "token": interaction.token,
        "version": 1,
        "channel_id": str(channel.id),
        "channel": payloads.channel_with_permissions(world, channel, user.id),
        "app_permissions": str(world.permissions(world.bot.id, channel)),
        "locale": "en-US",
        "entitlements": [],
        "attachment_size_limit": 10 * 1024 * 1024,
        "context": 1 if channel.is_dm else 0,
    }
    if channel.guild_id is not None:
        guild = world.guild(channel.guild_id)
        payload.update(
            guild_id=str(guild.id),
            guild={"id": str(guild.id), "locale": "en-US", "features": []},
            guild_locale="en-US",
            member=payloads.member(
                world, guild.members[user.id], permissions=world.permissions(user.id, channel)
            ),
            authorizing_integration_owners={"0": str(guild.id)},
        )
    else:
        payload.update(user=payloads.user(user), authorizing_integration_owners={"1": str(user.id)})
    if source is not None:
        payload["message"] = payloads.message(world, source)
    return payload


def select_values(component: dict[str, Any], values: list[str]) -> list[str]:
    """The values picked in a select menu, as the client would allow them."""
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if not low <= len(values) <= high:
        raise UserActionError(
            f"select {component.get('custom_id')!r} takes {low}..{high} values, got {values}"
        )
    if component["type"] == 3:
        offered = [o["value"] for o in component.get("options", [])]
        wrong = [v for v in values if v not in offered]
        if wrong:
            raise UserActionError(f"select {component.get('custom_id')!r} offers {offered}, not {wrong}")
    return values


def modal_components(modal: dict[str, Any], values: dict[str, Any]) -> list[dict[str, Any]]:
    """The submitted components, mirroring the modal's layout (action rows or labels)."""
    known = {c["custom_id"] for c in walk_components(modal.get("components", [])) if c.get("custom_id")}
    unknown = set(values) - known
    if unknown:
        raise UserActionError(
            f"modal {modal.get('custom_id')!r} has no input(s) {sorted(unknown)}; it has {sorted(known)}"
        )

    def submitted(component: dict[str, Any]) -> dict[str, Any]:
        custom_id = component["custom_id"]
        if component.get("type") == 4:
            value = str(values.get(custom_id, component.get("value") or ""))
            if component.get("required", True) and not value:
                raise UserActionError(f"modal input {custom_id!r} is required")
            low, high = component.get("min_length", 0), component.get("max_length", 4000)
            if value and not low <= len(value) <= high:
                raise UserActionError(
                    f"modal input {custom_id!r} takes {low}..{high} characters, got {len(value)}"
                )
            return {"type": 4, "custom_id": custom_id, "value": value}
        return {
            "type": component["type"],
            "custom_id": custom_id,
            "values": list(values.get(custom_id, [])),
        }

    result: list[dict[str, Any]] = []
    for top in modal.get("components", []):
        if top.get("type") == 1:
            result.append({"type": 1, "components": [submitted(c) for c in top.get("components", [])]})
        elif top.get("type") == 18 and top.get("component"):
            result.append({"type": 18, "component": submitted(top["component"])})
    return result
