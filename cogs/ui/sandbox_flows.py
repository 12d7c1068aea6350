"""What a sandbox's commands and taps do (cogs.ui.sandbox has the ids, cogs.ui.sandbox_draw draws):
open a sheet, pick an order or a power, press a button, confirm a fourth sandbox.

Every answer is ephemeral: the owner's alone. Each tap re-reads the sandbox from gm, which refuses
anybody but its owner, a sheet of a step adjudicated or stepped back from since, and a sandbox that
is gone. Adjudicating (the engine and the results map in the worker processes) and drawing a map are
deferred first, so Discord's three seconds are never at stake.
"""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from cogs.messages.render import orders_lines
from cogs.shared import text
from cogs.shared.base import services_of
from cogs.shared.replies import defer, send
from cogs.ui.sandbox import NewRequest, SandboxSheet, replace_buttons
from cogs.ui.sandbox_draw import draw_sandbox
from cogs.ui.sheet import Action, Second
from cogs.ui.sheet_flows import StalePick, edit_in_order, read_pick
from gm.public import LegalOrder, MeantFor, PowerMenu, SandboxLimit, SandboxMenu, SandboxResults, change_lines


def _gm(interaction: discord.Interaction) -> Any:
    return services_of(interaction.client).gamemaster


def _for(sheet: SandboxSheet) -> MeantFor[int]:
    """The step and the sandbox (its tag) the sheet was made for: gm refuses a tap on a stale one."""
    return MeantFor(sheet.phase_id, sheet.tag)


# --- making and opening ------------------------------------------------------------------------------


async def make(
    interaction: discord.Interaction,
    *,
    game_id: int | None,
    phase: str | None,
    variant: str | None,
    my_orders: bool,
    replace: int | None = None,
) -> None:
    """A new sandbox and its sheet, privately; a fourth asks first which to replace."""
    await defer(interaction)
    try:
        box, notes = await _gm(interaction).new_sandbox(
            interaction.user.id,
            guild_id=interaction.guild_id,
            game_id=game_id,
            phase=phase,
            variant=variant,
            my_orders=my_orders,
            replace=replace,
        )
    except SandboxLimit as full:
        phase = full.phase or phase
        request = NewRequest(interaction.user.id, full.oldest.id, game_id, phase, variant, my_orders)
        words = [
            text.safe_keeping_users(full.message),
            "Replace it with the new one? Nothing is deleted unless you say so.",
        ]
        await send(interaction, words, view=replace_buttons(request))
        return
    made = (
        f"**Sandbox #{box.sandbox.id} is yours**, from {text.safe(box.sandbox.title)}. Only you can see it; "
        "nothing you do in it reaches the game."
    )
    await send(interaction, [made, *(text.safe_keeping_users(n) for n in notes)])
    await interaction.followup.send(view=draw_sandbox(box), ephemeral=True)


async def replace_confirmed(interaction: discord.Interaction, request: NewRequest) -> None:
    await _replace(interaction, request)


async def _replace(interaction: discord.Interaction, request: NewRequest) -> None:
    """Only for its owner, on their own question (cogs.ui.sandbox.own_question checked it)."""
    await interaction.response.edit_message(content=f"Replacing sandbox #{request.oldest}…", view=None)
    await make(
        interaction,
        game_id=request.game_id,
        phase=request.phase,
        variant=request.variant,
        my_orders=request.my_orders,
        replace=request.oldest,
    )


async def open_sheet(interaction: discord.Interaction, sandbox_id: int, tag: str | None = None) -> None:
    """The sheet of one of the caller's sandboxes, in a new private message."""
    await defer(interaction)
    box = await _gm(interaction).sandbox_menu(sandbox_id, interaction.user.id, meant_for=MeantFor(tag=tag))
    await interaction.followup.send(view=draw_sandbox(box), ephemeral=True)


async def open_from_button(interaction: discord.Interaction, sandbox_id: int, tag: str) -> None:
    await open_sheet(interaction, sandbox_id, tag)


# --- taps on a sheet (the owner is gm's to check: it refuses anybody else) ----------------------------


async def picked(
    interaction: discord.Interaction,
    sheet: SandboxSheet,
    page: int,
    key: str,
    second: Second | None,
    value: str,
) -> None:
    box = await _menu(interaction, sheet)
    if box.menu is None:
        raise StalePick("No phase takes orders in this sandbox now.", "Step back to try again.")
    pick = read_pick(box.menu, key, second, value)
    if pick.redraw:
        await interaction.response.edit_message(view=draw_sandbox(box, page=page, second=pick.second))
        return
    await interaction.response.defer()  # an update of this message
    if pick.withdraw:
        assert pick.power is not None
        after = await _gm(interaction).sandbox_withdraw(
            sheet.sandbox_id, interaction.user.id, pick.power.power, key, meant_for=_for(sheet)
        )
        await _show(interaction, after, page, [])
        return
    assert pick.power is not None and pick.order is not None
    await _order(interaction, sheet, page, pick.power.power, pick.order.text)


async def power_picked(interaction: discord.Interaction, sheet: SandboxSheet, power: str) -> None:
    box = await _menu(interaction, sheet, power)
    await interaction.response.edit_message(view=draw_sandbox(box))


async def pressed(
    interaction: discord.Interaction, sheet: SandboxSheet, page: int, action: Action, arg: str | None
) -> None:
    press = Press(interaction, sheet, page, arg)
    whole = WHOLE.get(action)
    if whole is not None:  # about the sandbox as a whole: gm reads it
        await whole(press)
        return
    box = await _menu(interaction, sheet)  # a sheet of a step gone is refused before anything
    if action == Action.PAGE:
        await interaction.response.edit_message(view=draw_sandbox(box, page=int(arg or 0)))
        return
    menu = box.menu
    if menu is None or not menu.powers or box.power is None:
        raise StalePick("Nothing on this sheet can be ordered now.", "Nothing was changed.")
    await ON_POWER.get(action, _nothing)(press, box, box.power, menu.powers[0])


async def _menu(
    interaction: discord.Interaction, sheet: SandboxSheet, power: str | None = None
) -> SandboxMenu:
    menu: SandboxMenu = await _gm(interaction).sandbox_menu(
        sheet.sandbox_id, interaction.user.id, power=power or sheet.power, touch=False, meant_for=_for(sheet)
    )
    return menu


async def _order(
    interaction: discord.Interaction, sheet: SandboxSheet, page: int, power: str, order: str
) -> None:
    answer = await _gm(interaction).sandbox_orders(
        sheet.sandbox_id, interaction.user.id, order, power=power, meant_for=_for(sheet)
    )
    await _show(interaction, answer.menu, page, [text.outcome_line(o) for o in answer.lines])


# --- the buttons: one function each ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Press:
    """A tap on a sandbox sheet's button."""

    interaction: discord.Interaction
    sheet: SandboxSheet
    page: int
    arg: str | None


async def _map_pressed(press: Press) -> None:
    await _map(press.interaction, press.sheet)


async def _adjudicate(press: Press) -> None:
    interaction, sheet = press.interaction, press.sheet
    await interaction.response.defer()  # the engine and the map run in the worker processes
    results = await _gm(interaction).sandbox_adjudicate(
        sheet.sandbox_id, interaction.user.id, power=sheet.power, meant_for=_for(sheet)
    )
    await _results(interaction, results)


async def _step_back(press: Press) -> None:
    interaction, sheet = press.interaction, press.sheet
    await interaction.response.defer()
    box = await _gm(interaction).sandbox_step_back(
        sheet.sandbox_id, interaction.user.id, power=sheet.power, meant_for=_for(sheet)
    )
    words = f"**Back to {box.long_name}**, with its orders as they were: change any and adjudicate again."
    await _show(interaction, box, 0, [words])


WHOLE: dict[Action, Callable[[Press], Awaitable[None]]] = {
    Action.MAP: _map_pressed,
    Action.ADJUDICATE: _adjudicate,
    Action.BACK: _step_back,
}
"""The buttons about the sandbox as a whole (no menu read first)."""


async def _clear(press: Press, box: SandboxMenu, power: str, shown: PowerMenu) -> None:
    interaction, sheet = press.interaction, press.sheet
    await interaction.response.defer()
    after = await _gm(interaction).sandbox_withdraw(
        sheet.sandbox_id, interaction.user.id, power, meant_for=_for(sheet)
    )
    await _show(interaction, after, press.page, [f"{text.power_name(power)}'s orders are withdrawn."])


async def _waive(press: Press, box: SandboxMenu, power: str, shown: PowerMenu) -> None:
    if shown.legal.waive is None or not shown.missing:
        raise StalePick(f"{text.power_name(power)} has no build left to waive.", "Nothing was changed.")
    await press.interaction.response.defer()
    await _order(press.interaction, press.sheet, press.page, power, shown.legal.waive.text)


def _removal(box: SandboxMenu, key: str | None) -> LegalOrder:
    found = box.menu.find(key or "") if box.menu is not None else None
    if found is None or found[1] is None or not found[1].orders:
        raise StalePick(f"{key} has no unit to remove now.", "Nothing was changed.")
    return found[1].orders[0]


async def _remove(press: Press, box: SandboxMenu, power: str, shown: PowerMenu) -> None:
    removal = _removal(box, press.arg)
    await press.interaction.response.defer()
    await _order(press.interaction, press.sheet, press.page, power, removal.text)


async def _keep(press: Press, box: SandboxMenu, power: str, shown: PowerMenu) -> None:
    _removal(box, press.arg)
    interaction, sheet = press.interaction, press.sheet
    await interaction.response.defer()
    after = await _gm(interaction).sandbox_withdraw(
        sheet.sandbox_id, interaction.user.id, power, press.arg, meant_for=_for(sheet)
    )
    await _show(interaction, after, press.page, [])


async def _nothing(press: Press, box: SandboxMenu, power: str, shown: PowerMenu) -> None:
    raise StalePick("That button does nothing now.", "Open the sandbox again with /sandbox open.")


ON_POWER: dict[Action, Callable[[Press, SandboxMenu, str, PowerMenu], Awaitable[None]]] = {
    Action.CLEAR: _clear,
    Action.WAIVE: _waive,
    Action.REMOVE: _remove,
    Action.KEEP: _keep,
}
"""The buttons about the power shown (its menu read first)."""


async def _show(interaction: discord.Interaction, box: SandboxMenu, page: int, notice: Sequence[str]) -> None:
    await edit_in_order(interaction, draw_sandbox(box, page=page, notice=notice))


async def _results(interaction: discord.Interaction, results: SandboxResults) -> None:
    """The sheet moves on to the next phase; the results, with their map, come in a new private
    message under it."""
    box = results.menu
    words = [f"**{results.long_name} adjudicated**: the results and their map are in the message below."]
    if box.over:
        words.append(f"Game over in this sandbox: {box.over}.")
    await _show(interaction, box, 0, words)
    lines = [f"**Sandbox #{box.sandbox.id} · {results.long_name}: results** (only you can see this)"]
    lines += change_lines(results.changes) if results.changes else []
    by_power: dict[str, list[dict[str, Any]]] = {}
    for line in results.result.get("orders", []):
        by_power.setdefault(line["power"], []).append(line)
    lines += orders_lines(results.phase_name, by_power)
    if box.over:
        lines.append(f"**Game over in this sandbox: {box.over}.** Step back to try again.")
    else:
        lines.append(f"Next: {box.long_name}, on the sheet above.")
    files = []
    if results.png is not None:
        name = f"sandbox-{box.sandbox.id}-{results.phase_name}-results.png"
        files.append(discord.File(io.BytesIO(results.png), filename=name))
    await send(interaction, lines, files=files)


async def _map(interaction: discord.Interaction, sheet: SandboxSheet) -> None:
    """A new private message: the board with every order given so far (or the final position)."""
    await defer(interaction)
    box, png = await _gm(interaction).sandbox_map(
        sheet.sandbox_id, interaction.user.id, meant_for=_for(sheet)
    )
    if box.over:
        lines = [f"**Sandbox #{box.sandbox.id}**: the final position ({box.over})."]
    else:
        lines = [
            f"**Sandbox #{box.sandbox.id} · {box.long_name}**: every order given so far, drawn on the board."
        ]
    if png is None:
        await send(interaction, [*lines, "(No map: the renderer is not installed here.)"])
        return
    name = f"sandbox-{box.sandbox.id}-{box.phase_name}-orders.png"
    await send(interaction, lines, files=[discord.File(io.BytesIO(png), filename=name)])
