"""/game create and /game settings as Discord sees them: their options are made from the settings'
declaration (cogs.shared.setting_options), and the payload is the one the hand-written commands had
(tests/cogs/data/game_settings_commands.json, taken from bot.tree before the options were generated).
A deliberate change of an option (a new setting, new help) updates that file with it, in the same
commit. The variant option's choices come from the variants' folders: they are checked against the
registry, not the file, so that a new variant needs no change here."""

from __future__ import annotations

import copy
import json
from typing import Any

import discord
from discord.ext import commands

from cogs.commands.game import VARIANT_CHOICES, GameCommands
from cogs.shared.setting_options import MAX_OPTIONS
from tests.helpers.paths import ROOT

SNAPSHOT = ROOT / "tests" / "cogs" / "data" / "game_settings_commands.json"


def game_group() -> dict[str, Any]:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    return GameCommands.game.to_dict(bot.tree)


def subcommands() -> dict[str, dict[str, Any]]:
    return {option["name"]: option for option in game_group()["options"]}


def without_variant_choices(command: dict[str, Any]) -> dict[str, Any]:
    command = copy.deepcopy(command)
    for option in command["options"]:
        if option["name"] == "variant":
            option.pop("choices")
    return command


def test_the_options_discord_sees_are_those_of_before() -> None:
    snapshot = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    made = subcommands()
    for name in ("create", "settings"):
        assert without_variant_choices(made[name]) == without_variant_choices(snapshot[name]), name
    variant = next(o for o in made["create"]["options"] if o["name"] == "variant")
    assert variant["choices"] == [{"name": c.name, "value": c.value} for c in VARIANT_CHOICES]


def test_every_game_command_keeps_within_discords_25_options() -> None:
    counts = {name: len(command.get("options", [])) for name, command in subcommands().items()}
    # both full: builtin_level is given with /game settings only
    assert counts["create"] == 25 and counts["settings"] == 25, counts
    assert all(count <= MAX_OPTIONS for count in counts.values()), counts


if __name__ == "__main__":  # python -m tests.cogs.test_game_command_options: a deliberate change
    made = subcommands()
    taken = {name: made[name] for name in ("create", "settings")}
    SNAPSHOT.write_text(json.dumps(taken, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {SNAPSHOT.relative_to(ROOT)}")
