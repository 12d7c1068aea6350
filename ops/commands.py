"""Publishing the slash commands without being asked: at start-up the bot compares the commands
Discord has for it with the ones this version defines, and publishes them when they are missing or
differ (SYNC_COMMANDS unset: "auto"). ``true`` publishes at every start, ``false`` never (a line then
says when Discord's differ, and what to run).

Only what the bot defines is compared (names, descriptions, options and their choices, types,
permissions, contexts); what Discord adds (ids, versions) and empty values are left out, so the same
commands compare equal however each side spells an absent value. What Discord returns is normalised
first: permissions are a string there (an int in discord.py's payload), numbers 1.0 and 1 are one,
and where this version leaves ``contexts`` or ``integration_types`` unset, Discord's defaults (which
it fills in: ``[0]``, the app's install contexts) are not a change. The processes that do not run
shard 0 only say at INFO that shard 0's process publishes what differs: no warning at every start."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger(__name__)

COMPARED = (
    "name",
    "description",
    "type",
    "options",
    "required",
    "choices",
    "value",
    "autocomplete",
    "channel_types",
    "min_value",
    "max_value",
    "min_length",
    "max_length",
    "default_member_permissions",
    "nsfw",
    "contexts",
    "integration_types",
    "name_localizations",
    "description_localizations",
)


DEFAULTED = ("contexts", "integration_types")  # Discord fills these in when a command leaves them unset


def canonical(item: Any) -> Any:
    """A command (or option, choice) as compared: defined keys only, empty values dropped, a
    command's type 1 (chat input: Discord writes it, discord.py may not) dropped too."""
    if isinstance(item, dict):
        kept = {}
        for key in COMPARED:
            value = canonical(item.get(key))
            if value in (None, False, [], {}, "") or (key == "type" and value == 1):
                continue
            if key == "default_member_permissions":
                value = str(int(value))
            kept[key] = sorted(value) if key in ("contexts", "integration_types", "channel_types") else value
        return kept
    if isinstance(item, list):
        return [canonical(element) for element in item]
    if isinstance(item, float) and item.is_integer():
        return int(item)
    return item


def _as_defined(mine: dict[str, Any], theirs: dict[str, Any]) -> dict[str, Any]:
    """Discord's command without the defaults it filled in where this version's leaves them unset."""
    return {k: v for k, v in theirs.items() if k not in DEFAULTED or k in mine}


def differences(local: list[dict[str, Any]], remote: list[dict[str, Any]]) -> list[str]:
    """The names of the commands missing on Discord, changed, or no longer defined."""
    mine = {c["name"]: canonical(c) for c in local}
    theirs = {c["name"]: canonical(c) for c in remote}
    theirs = {name: _as_defined(mine.get(name, {}), command) for name, command in theirs.items()}
    return sorted(
        [f"{name} (missing)" for name in mine.keys() - theirs.keys()]
        + [f"{name} (changed)" for name in mine.keys() & theirs.keys() if mine[name] != theirs[name]]
        + [f"{name} (no longer defined)" for name in theirs.keys() - mine.keys()]
    )


async def publish_commands(
    client: discord.Client,
    tree: app_commands.CommandTree[Any],
    mode: bool | None,
    *,
    may_publish: bool = True,
) -> str:
    """Publish ``tree``'s global commands as ``mode`` says (None: when missing or changed; True:
    always; False: never). ``may_publish`` False (a process among several that does not run shard 0)
    only compares. Returns what was done, in words (also logged)."""
    if mode is True and may_publish:
        published = await tree.sync()
        return _said(f"slash commands published ({len(published)} commands)")
    try:
        remote = await client.http.get_global_commands(client.application_id or 0)
    except discord.HTTPException as exc:
        return _said(
            f"could not read the slash commands Discord has ({exc}); if they are missing, run "
            "./run.sh --sync",
            logging.WARNING,
        )
    local = [command.to_dict(tree) for command in tree.get_commands()]
    changed = differences(local, [dict(command) for command in remote])
    if not changed:
        return _said("slash commands up to date", logging.DEBUG)
    listed = ", ".join(changed[:8]) + (f" and {len(changed) - 8} more" if len(changed) > 8 else "")
    if mode is False:
        return _said(
            f"the slash commands Discord has differ from this version's ({listed}); SYNC_COMMANDS=false: "
            "run ./run.sh --sync once (or start with SYNC_COMMANDS=true)",
            logging.WARNING,
        )
    if not may_publish:
        return _said(
            f"the slash commands Discord has differ from this version's ({listed}); shard 0's process "
            "publishes them when it starts"
        )
    published = await tree.sync()
    return _said(f"slash commands published ({len(published)} commands; {listed})")


def _said(line: str, level: int = logging.INFO) -> str:
    log.log(level, "%s", line, extra={"event": "commands"})
    return line
