"""The slash commands are published only when they truly change. What Discord returns for the
commands this version publishes differs in spelling from discord.py's payload (permissions as a
string, the contexts and install types it fills in, 1.0 for 1): compared as they were, every start
published again, and every process not running shard 0 warned at every start, even after --sync.
The fake Discord answers the same way (harness.fakediscord.payloads.command), so the e2e test of
publishing (tests/e2e/test_bot_operations.py) meets it too."""

from __future__ import annotations

import copy
import json
from typing import Any

from ops.commands import differences


def as_discord_returns(command: dict[str, Any]) -> dict[str, Any]:
    """One command as Discord's GET /applications/{id}/commands answers it."""
    answer = json.loads(json.dumps(command))
    answer.update(id="123", application_id="456", version="789", dm_permission=True)
    if answer.get("default_member_permissions") is not None:
        answer["default_member_permissions"] = str(answer["default_member_permissions"])
    if answer.get("integration_types") is None:
        answer["integration_types"] = [0]
    if answer.get("contexts") is None:
        answer["contexts"] = [0, 1, 2]
    for option in answer.get("options", []):
        if isinstance(option.get("min_value"), int):
            option["min_value"] = float(option["min_value"])
    return answer


def sample() -> list[dict[str, Any]]:
    return [
        {
            "name": "mod",
            "description": "Moderate a game",
            "type": 1,
            "options": [{"type": 4, "name": "hours", "description": "…", "required": True, "min_value": 1}],
            "nsfw": False,
            "default_member_permissions": 32,
            "contexts": [0],
            "integration_types": None,
        },
        {"name": "game", "description": "Games", "type": 1, "contexts": None, "integration_types": None},
    ]


def test_what_discord_returns_for_the_same_commands_is_no_change() -> None:
    local = sample()
    assert differences(local, [as_discord_returns(c) for c in local]) == []


def test_a_real_change_is_still_seen() -> None:
    local = sample()
    remote = [as_discord_returns(c) for c in local]
    changed = copy.deepcopy(remote)
    changed[0]["default_member_permissions"] = "8"
    assert differences(local, changed) == ["mod (changed)"]
    changed = copy.deepcopy(remote)
    changed[0]["contexts"] = [0, 1]
    assert differences(local, changed) == ["mod (changed)"], "a context this version sets is compared"
    changed = copy.deepcopy(remote)
    changed[0]["options"][0]["min_value"] = 2.0
    assert differences(local, changed) == ["mod (changed)"]
    assert differences(local, remote[:1]) == ["game (missing)"]
