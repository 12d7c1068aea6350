"""Drawing a sandbox's sheet: a game's sheet (cogs.ui.sheet_draw.draw) for the power shown, with the
sandbox's heading (its source, the step, every power's progress) and its controls (the power picker;
Adjudicate, Waive a build, Orders on the map, Step back, Clear)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from cogs.shared import text
from cogs.ui.sandbox import PowerPicker, SandboxSheet
from cogs.ui.sheet import MAX_TEXT, PER_SELECT, Action, SheetIds
from cogs.ui.sheet_draw import Frame, draw, progress_line, waive_button
from cogs.ui.wording import cut
from gm.public import OrderMenu, PowerProgress, SandboxMenu

PICKER_WINDOW = PER_SELECT - 2  # powers in the picker at once when there are more than 25 (Chaos)
ADJUDICATE_LABEL = "Adjudicate ▶"
MAP_LABEL = "Orders on the map"
BACK_LABEL = "◀ Step back"


def sheet_of(box: SandboxMenu) -> SandboxSheet:
    return SandboxSheet(box.sandbox.id, box.sandbox.tag, box.phase_id, box.power)


def draw_sandbox(
    box: SandboxMenu,
    *,
    page: int = 0,
    second: Any = None,
    notice: Sequence[str] = (),
) -> discord.ui.LayoutView:
    """The sandbox's sheet (or, when its game is over, what ended it, with Step back and the map)."""
    ids = sheet_of(box)
    if box.menu is None:
        return _over(box, ids, notice)
    frame = Frame(
        heading=lambda menu, shown, at, pages, first, count: _heading(box, shown, at, pages, first, count),
        controls=lambda menu, sheet, at: [discord.ui.ActionRow(*_buttons(box, ids, at))],
        top=lambda menu, sheet, at: _top(box, ids),
    )
    return draw(box.menu, ids, page=page, second=second, notice=notice, frame=frame)


def _heading(
    box: SandboxMenu, notice: Sequence[str], page: int, pages: int, first: int, count: int
) -> list[str]:
    lines = [f"### 🧪 Sandbox #{box.sandbox.id} · {box.long_name}"]
    lines.append(f"From {text.safe(box.sandbox.title)} · step {box.step} · only you can see this board.")
    menu = box.menu
    if menu is not None and menu.powers:
        lines.append(progress_line(menu.powers[0], menu))
    if box.powers:
        lines.append("-# Every power: " + " · ".join(_tally(p) for p in box.powers))
    else:
        lines.append("Nobody has anything to order in this phase: adjudicate to move on.")
    lines.append(_how(box))
    if pages > 1:
        lines.append(f"-# Page {page + 1} of {pages}: orders {first} to {first + count - 1}.")
    if notice:
        lines += ["", *notice]
    return lines


def _tally(power: PowerProgress) -> str:
    done = " ✓" if not power.missing else ""
    return f"{text.power_name(power.power)} {power.ordered}/{power.entries}{done}"


HOW = {
    "M": "-# Pick each unit's order, and another power in the list above. A unit without an order holds. "
    "**Adjudicate** when all is set: nothing reaches the game.",
    "R": "-# Pick where each unit retreats, or disband it; a unit without an order is disbanded.",
    "A": "-# Pick the builds (or Waive) and the units to remove; builds not chosen are not made, removals "
    "not chosen follow the rules.",
}
"""What to do on a sandbox's sheet, by the phase's kind."""


def _how(box: SandboxMenu) -> str:
    return HOW[box.phase_name[-1]]


def _top(box: SandboxMenu, ids: SandboxSheet) -> list[discord.ui.ActionRow[Any]]:
    """The power picker, above the units of the power shown."""
    picker = _picker(box, ids)
    return [discord.ui.ActionRow(picker)] if picker is not None else []


def _buttons(box: SandboxMenu, ids: SheetIds, page: int) -> list[discord.ui.Item[Any]]:
    menu: OrderMenu | None = box.menu
    buttons = [ids.button(Action.ADJUDICATE, page, label=ADJUDICATE_LABEL, style=discord.ButtonStyle.success)]
    if menu is not None and box.phase_name.endswith("A"):
        buttons += waive_button(menu, ids, page)
    buttons.append(ids.button(Action.MAP, page, label=MAP_LABEL))
    buttons.append(ids.button(Action.BACK, page, label=BACK_LABEL, disabled=not box.can_step_back))
    ordered = menu is not None and any(p.orders for p in menu.powers)
    who = text.power_name(box.power) if box.power else ""
    buttons.append(
        ids.button(
            Action.CLEAR,
            page,
            label=f"Clear {who}".strip(),
            style=discord.ButtonStyle.danger,
            disabled=not ordered,
        )
    )
    return buttons


def _picker(box: SandboxMenu, ids: SandboxSheet) -> PowerPicker | None:
    """The powers with something to order, the shown one chosen; more than 25 (Chaos) in windows of
    23, with a way to the powers before and after."""
    powers = list(box.powers)
    if not powers:
        return None
    shown = next((i for i, p in enumerate(powers) if p.power == box.power), 0)
    before: PowerProgress | None = None
    after: PowerProgress | None = None
    if len(powers) <= PER_SELECT:
        window = powers
    else:
        start = (shown // PICKER_WINDOW) * PICKER_WINDOW
        window = powers[start : start + PICKER_WINDOW]
        before = powers[start - 1] if start > 0 else None
        after = powers[start + PICKER_WINDOW] if start + PICKER_WINDOW < len(powers) else None
    options: list[discord.SelectOption] = []
    if before is not None:
        label = f"◀ Earlier powers (… {text.power_name(before.power)})"
        options.append(discord.SelectOption(label=label, value=before.power))
    for power in window:
        options.append(
            discord.SelectOption(
                label=cut(f"{text.power_name(power.power)} · {_count(power)}", 100),
                value=power.power,
                description=cut(_missing(power), 100),
                default=power.power == box.power,
            )
        )
    if after is not None:
        label = f"Later powers ({text.power_name(after.power)} …) ▶"
        options.append(discord.SelectOption(label=label, value=after.power))
    placeholder = f"Power shown: {text.power_name(box.power)}" if box.power else "Pick a power"
    return PowerPicker(ids, (options, placeholder))


def _count(power: PowerProgress) -> str:
    if power.due > 0:
        return f"{power.ordered} of {text.plural(power.entries, 'build')} chosen"
    if power.due < 0:
        return f"{power.ordered} of {text.plural(power.entries, 'removal')} chosen"
    return f"{power.ordered} of {text.plural(power.entries, 'unit')} ordered"


def _missing(power: PowerProgress) -> str:
    if not power.missing:
        return "all ordered"
    return "still to order: " + ", ".join(power.missing)


def _over(box: SandboxMenu, ids: SandboxSheet, notice: Sequence[str]) -> discord.ui.LayoutView:
    lines = [
        f"### 🧪 Sandbox #{box.sandbox.id} · game over after {box.long_name}",
        f"From {text.safe(box.sandbox.title)} · step {box.step} · only you can see this board.",
        f"**{box.over[:1].upper() + box.over[1:] if box.over else 'The game is over'}.** Step back to "
        "try that phase again.",
        *(["", *notice] if notice else []),
    ]
    view = discord.ui.LayoutView(timeout=None)
    container: discord.ui.Container[Any] = discord.ui.Container()
    container.add_item(discord.ui.TextDisplay(cut("\n".join(lines), MAX_TEXT - 10)))
    container.add_item(
        discord.ui.ActionRow(
            ids.button(Action.BACK, 0, label=BACK_LABEL),
            ids.button(Action.MAP, 0, label="The final position"),
        )
    )
    view.add_item(container)
    return view


__all__ = ["draw_sandbox", "sheet_of"]
