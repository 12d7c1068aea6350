"""A sandbox's sheet (cogs.ui.sandbox_draw) within Discord's limits for a Components V2 message (the
fake Discord's own rules) for every variant's opening and every power, a crowded board (pages), a
winter with removals and the end of a game; every power reachable through the power picker (in
windows of 23 for Chaos's 34); every custom_id read back by exactly one of the items (the sheet's
own, which a game's sheet shares, and the sandbox's)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord
import pytest

from cogs.ui.sandbox import OpenSandboxButton, PowerPicker, ReplaceButton
from cogs.ui.sandbox_draw import draw_sandbox
from cogs.ui.sheet import SecondSelect, SheetButton, UnitSelect
from db.models import Sandbox, SandboxPhase
from engine import Board
from engine.variants import all_variants, game_map
from gm.sandbox.model import SandboxMenu
from gm.sandbox.playing import menu_of
from harness.fakediscord.state import walk_components
from tests.helpers.layouts import checked_parts, templates
from tests.helpers.menus import crowded

TEMPLATES = templates(UnitSelect, SecondSelect, PowerPicker, SheetButton, OpenSandboxButton, ReplaceButton)
NOW = datetime(2030, 1, 1, tzinfo=UTC)


def sandbox(variant: str) -> Sandbox:
    """The longest ids there are: the largest numbers and tag, a title as long as may be."""
    return Sandbox(
        id=2**62,
        owner_id=2**63 - 1,
        guild_id=1,
        tag="x" * 12,
        variant=variant,
        title="game #12345 " + "A name as long as a game's may be " * 3,
        created_at=NOW,
        used_at=NOW,
    )


def step(
    board: Board, *, orders: dict[str, Any] | None = None, results: dict[str, Any] | None = None
) -> SandboxPhase:
    return SandboxPhase(
        id=2**62 + 7,
        sandbox_id=2**62,
        step=12,
        name=str(board.phase),
        board=dict(board.to_json()),
        orders=orders or {},
        results=results,
    )


def parts(view: discord.ui.LayoutView) -> list[dict[str, Any]]:
    return checked_parts(view, TEMPLATES)


def picker_values(components: list[dict[str, Any]]) -> list[str]:
    [picker] = [c for c in walk_components(components) if str(c.get("custom_id", "")).endswith(":p")]
    assert len(picker["options"]) <= 25
    return [o["value"] for o in picker["options"]]


@pytest.mark.parametrize("variant", [v.name for v in all_variants() if v.playable()])
def test_every_power_of_every_opening_is_drawn_within_discords_limits_and_reachable(variant: str) -> None:
    board = Board.initial(game_map(variant), variant=variant)
    row = sandbox(variant)
    shown: set[str] = set()
    queue: list[str | None] = [None]
    while queue:
        power = queue.pop()
        box = menu_of(row, [step(board)], power)
        assert box.power is not None and box.menu is not None
        shown.add(box.power)
        components = parts(draw_sandbox(box))
        queue += [p for p in picker_values(components) if p not in shown and p not in queue]
    working = {p.power for p in menu_of(row, [step(board)]).powers}
    assert shown == working and working, "every power with something to do is one pick away, or a few"


def test_chaos_picks_its_34_powers_in_windows() -> None:
    board = Board.initial(game_map("chaos"), variant="chaos")
    box = menu_of(sandbox("chaos"), [step(board)])
    assert len(box.powers) == 34 and box.phase_name == "W1900A"
    values = picker_values(parts(draw_sandbox(box)))
    assert len(values) == 24 and values[-1] == box.powers[23].power, "23 powers, then the way on"


def test_a_crowded_board_is_paged_and_a_winter_of_removals_has_its_buttons() -> None:
    board = crowded("standard", "FRANCE", fleets_at_sea=True)
    box = menu_of(sandbox("standard"), [step(board)], "FRANCE")
    components = parts(draw_sandbox(box))
    assert any(":b:page:1@" in str(c.get("custom_id")) for c in walk_components(components))
    data = Board.initial(game_map("standard"), variant="standard").to_json()
    data["phase"] = "W1901A"
    data["centers"]["FRANCE"] = ["PAR"]
    winter = Board.from_json(data, game_map("standard"))
    box = menu_of(sandbox("standard"), [step(winter, orders={"FRANCE": {"MAR": "A MAR D"}})], "FRANCE")
    components = parts(draw_sandbox(box))
    labels = [str(c.get("label")) for c in walk_components(components) if c.get("type") == 2]
    assert "✓ Removing A MAR" in labels and "Remove F BRE" in labels
    assert "France · 1 of 2 removals chosen" in picker_values_labels(components)


def picker_values_labels(components: list[dict[str, Any]]) -> list[str]:
    [picker] = [c for c in walk_components(components) if str(c.get("custom_id", "")).endswith(":p")]
    return [o["label"] for o in picker["options"]]


def test_a_finished_game_shows_what_ended_it_with_step_back_and_the_final_position() -> None:
    board = Board.initial(game_map("standard"), variant="standard")
    over = step(board, results={"winner": "FRANCE", "board_after": board.to_json()})
    box: SandboxMenu = menu_of(sandbox("standard"), [over])
    assert box.menu is None and box.over == "France wins" and box.can_step_back
    components = parts(draw_sandbox(box))
    buttons = [c for c in walk_components(components) if c.get("type") == 2]
    assert [b["label"] for b in buttons] == ["◀ Step back", "The final position"]
    text = " ".join(str(c.get("content")) for c in walk_components(components) if c.get("type") == 10)
    assert "France wins." in text
