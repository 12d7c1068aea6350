"""Publishing the slash commands without being asked: at start-up the bot compares the commands
Discord has for it with the ones this version defines, and publishes them when they are missing or
differ (SYNC_COMMANDS unset: "auto"). ``true`` publishes at every start, ``false`` never (a line then
says when Discord's differ, and what to run).

Only what the bot defines is compared (names, descriptions, options and their choices, types,
permissions, contexts); what Discord adds (ids, versions) and empty values are left out, so the same
commands compare equal however each side spells an absent value."""

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


def canonical(item: Any) -> Any:
    """A command (or option, choice) as compared: defined keys only, empty values dropped, a
    command's type 1 (chat input: Discord writes it, discord.py may not) dropped too."""
    if isinstance(item, dict):
        kept = {}
        for key in COMPARED:
            value = canonical(item.get(key))
            if value in (None, False, [], {}, "") or (key == "type" and value == 1):
                continue
            kept[key] = sorted(value) if key in ("contexts", "integration_types", "channel_types") else value
        return kept
    if isinstance(item, list):
        return [canonical(element) for element in item]
    return item


def differences(local: list[dict[str, Any]], remote: list[dict[str, Any]]) -> list[str]:
    """The names of the commands missing on Discord, changed, or no longer defined."""
    mine = {c["name"]: canonical(c) for c in local}
    theirs = {c["name"]: canonical(c) for c in remote}
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
    if mode is False or not may_publish:
        why = "SYNC_COMMANDS=false" if mode is False else "shard 0's process publishes them"
        return _said(
            f"the slash commands Discord has differ from this version's ({listed}); {why}: run "
            "./run.sh --sync once (or start with SYNC_COMMANDS=true)",
            logging.WARNING,
        )
    published = await tree.sync()
    return _said(f"slash commands published ({len(published)} commands; {listed})")


def _said(line: str, level: int = logging.INFO) -> str:
    log.log(level, "%s", line, extra={"event": "commands"})
    return line
