"""What the order sheet's taps do (cogs.ui.sheet draws it): open one, pick an order, press a button.

Every tap re-reads gm's order menu for the sheet's phase and game, so a sheet of a phase that has
closed, of another game that had the number, or tapped by someone else is refused with the reason
before anything changes. A chosen order goes to gm like a typed line (``submit_chosen_order``); the
buttons call gm's sheet actions (gm.facade.sheet). A sheet that sits in a call to order (a direct
message) keeps the call's text above it when it is redrawn.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import discord

from cogs.shared import text
from cogs.shared.base import services_of
from cogs.shared.ordered import Turn
from cogs.shared.replies import defer, send, settle
from cogs.ui.sheet import BACK, MORE, NONE, NOW, SUBMENUS, Action, Second, Sheet, ready_buttons
from cogs.ui.sheet_draw import closed, closing_words, draw, second_choices
from cogs.ui.sheet_live import items_of, words_above
from gm.facade import Gamemaster, SheetAnswer
from gm.public import (
    ANY_PHASE,
    GameError,
    LegalOrder,
    MeantFor,
    OrderMenu,
    OrdersClosed,
    OrdersPreview,
    OrdersView,
    PowerMenu,
    answers_owed,
)

log = logging.getLogger(__name__)

T = TypeVar("T")
DEFER_AFTER = 0.1  # seconds a tap's write may take before the tap is acknowledged apart (well within 3 s)


class StalePick(GameError):
    """A pick that is no longer possible (the position changed under the sheet)."""


# --- opening -----------------------------------------------------------------------------------------


async def open_sheet(
    interaction: discord.Interaction,
    game_id: int,
    *,
    meant_for: MeantFor[str] = ANY_PHASE,
    notice: Sequence[str] = (),
) -> None:
    """A new private sheet for the tapper's own powers (``/orders sheet``, "Order sheet"), ``notice``
    under its heading."""
    gamemaster = services_of(interaction.client).gamemaster
    user = interaction.user.id
    menu = gamemaster.menu_held(game_id, user, meant_for=meant_for)
    if menu is None:  # a read: "thinking..." first
        await defer(interaction)
        try:
            menu = await gamemaster.order_menu(game_id, user, meant_for=meant_for)
        except OrdersClosed as stale:
            raise _stale(stale) from stale
    sheet = Sheet(game_id, menu.phase_name, user, menu.game_tag)
    layout = draw(menu, sheet, notice=notice)
    await settle(interaction)  # a command's acknowledgement to come (replies.defer's unless_quick)
    if interaction.response.is_done():
        await interaction.followup.send(view=layout, ephemeral=True)
    else:  # the menu was held: the sheet is the answer itself (one call to Discord, not two)
        await interaction.response.send_message(view=layout, ephemeral=True)


async def open_from_button(interaction: discord.Interaction, game_id: int, phase: str, tag: str) -> None:
    await open_sheet(interaction, game_id, meant_for=MeantFor(phase, tag))


def sheet_for_call(
    menu: OrderMenu, user_id: int, leading: Sequence[discord.ui.Item[Any]]
) -> discord.ui.LayoutView:
    """The sheet under a call to order's text (a direct message made by the outbox)."""
    return draw(menu, Sheet(menu.game_id, menu.phase_name, user_id, menu.game_tag), leading=leading)


# --- the private preview map ("My orders on the map", /orders show) ---------------------------------


async def show_preview(
    interaction: discord.Interaction,
    game_id: int,
    *,
    meant_for: MeantFor[str] = ANY_PHASE,
) -> None:
    """A new private message: the map with the player's own orders drawn, and those orders."""
    await defer(interaction)
    gamemaster = services_of(interaction.client).gamemaster
    try:
        preview = await gamemaster.orders_preview(game_id, interaction.user.id, meant_for=meant_for)
    except OrdersClosed as closed_error:
        raise _stale(closed_error) from closed_error
    await send(interaction, preview_lines(preview), files=preview_files(preview))


def preview_lines(preview: OrdersPreview) -> list[str]:
    head = "Your orders so far, drawn on the map (only you can see this):"
    if preview.png is None:
        head = "Your orders so far (no map: the renderer is not installed here):"
    return [head, *text.view_lines(preview.view, show_orders=True)]


def preview_files(preview: OrdersPreview) -> list[discord.File]:
    if preview.png is None:
        return []
    return [discord.File(io.BytesIO(preview.png), filename=preview.filename)]


# --- Ready outside a sheet --------------------------------------------------------------------------


async def ready_from_button(
    interaction: discord.Interaction, game_id: int, phase: str, tag: str, on: bool
) -> None:
    await defer(interaction)
    gamemaster = services_of(interaction.client).gamemaster
    answer = await gamemaster.sheet_ready(
        game_id, interaction.user.id, ready=on, meant_for=MeantFor(phase, tag)
    )
    lines = [ready_words(on, answer.view), *text.view_lines(answer.view)]
    view = ready_buttons(game_id, phase, tag, on=not on) if answer.menu is not None else None
    await send(interaction, lines, view=view)


def ready_words(on: bool, view: OrdersView) -> str:
    return text.ready_words(on, view)


# --- taps on a sheet ---------------------------------------------------------------------------------


async def picked(
    interaction: discord.Interaction, sheet: Sheet, page: int, key: str, second: Second | None, value: str
) -> None:
    # the tap's turn is taken before anything is awaited: its write follows the player's earlier taps'
    # (its owner checked by the sheet's item: cogs.ui.sheet.Sheet.check; an error is answered there)
    services = services_of(interaction.client)
    with services.taps.enter(_who(sheet), interaction.id) as turn, _live(interaction, sheet):
        await _picked(interaction, turn, sheet, page, key, second, value)


async def pressed(
    interaction: discord.Interaction, sheet: Sheet, page: int, action: Action, arg: str | None
) -> None:
    services = services_of(interaction.client)
    with services.taps.enter(_who(sheet), interaction.id) as turn, _live(interaction, sheet):
        press = Press(interaction, turn, sheet, page, arg)
        if action == Action.MAP:  # no menu read: the preview reads the orders itself
            await _map(press)
            return
        menu = await _menu(interaction, sheet)  # a sheet of a closed phase is refused before anything
        await PRESSES.get(action, _nothing)(press, menu)


def _live(interaction: discord.Interaction, sheet: Sheet) -> contextlib.AbstractContextManager[None]:
    """A tap by the sheet's owner on a sheet in their direct messages: no refresh of it meanwhile
    (cogs.ui.sheet_live), the tap draws it again."""
    live = services_of(interaction.client).live
    if live is None or interaction.user.id != sheet.user_id:
        return contextlib.nullcontext()
    return live.tapping(interaction.message, sheet)


@dataclass(frozen=True, slots=True)
class Pick:
    """What a pick in a unit's menu (or its second menu) asks for: the sheet drawn again (with
    ``second`` open, or none: "Back"), the unit's order taken back (``withdraw``), or ``order``
    submitted for ``power``. The same for a game's sheet and a sandbox's."""

    redraw: bool = False
    second: Second | None = None
    withdraw: bool = False
    power: PowerMenu | None = None
    order: LegalOrder | None = None


def read_pick(menu: OrderMenu, key: str, second: Second | None, value: str) -> Pick:
    """What picking ``value`` in unit ``key``'s menu means on ``menu`` (refused with StalePick when
    the unit or the order is not there any more)."""
    found = menu.find(key)
    entry = found[1] if found is not None else None
    if found is None or entry is None:
        raise StalePick(f"{key} has nothing to order now.", "Pick again on the sheet.")
    if value in (BACK, NOW):
        return Pick(redraw=True)
    if value == MORE and second is not None:
        return Pick(redraw=True, second=Second(key, second.kind, second.part + 1))
    if value.startswith("@") and value[1:] in SUBMENUS:
        return Pick(redraw=True, second=Second(key, value[1:]))
    if value == NONE:
        return Pick(withdraw=True, power=found[0])
    listed = entry.orders if second is None else second_choices(entry, second.kind)
    chosen = next((o for o in listed if o.text == value), None)
    if chosen is None:
        raise StalePick(f"{value} is not possible now.", "Pick again on the sheet.")
    return Pick(power=found[0], order=chosen)


async def _picked(
    interaction: discord.Interaction,
    turn: Turn,
    sheet: Sheet,
    page: int,
    key: str,
    second: Second | None,
    value: str,
) -> None:
    menu = await _menu(interaction, sheet)
    pick = read_pick(menu, key, second, value)
    if pick.redraw:
        await _redraw(interaction, menu, sheet, page, second=pick.second)
        return
    press = Press(interaction, turn, sheet, page, key)
    if pick.withdraw:
        await _keep(press, menu)
        return
    assert pick.power is not None and pick.order is not None
    await _submit(press, pick.power, pick.order)


# --- the buttons: one function each ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Press:
    """A tap on a sheet's button (or a pick that acts like one): where, whose turn, and its argument."""

    interaction: discord.Interaction
    turn: Turn
    sheet: Sheet
    page: int
    arg: str | None


async def _map(press: Press) -> None:
    sheet = press.sheet
    await show_preview(press.interaction, sheet.game_id, meant_for=_for(sheet))


async def _page(press: Press, menu: OrderMenu) -> None:
    await _redraw(press.interaction, menu, press.sheet, int(press.arg or 0))


async def _ready(press: Press, menu: OrderMenu) -> None:
    await _act(
        press, lambda gm, at: gm.sheet_ready(*at, ready=True, meant_for=_for(press.sheet))
    )  # the heading says so


async def _unready(press: Press, menu: OrderMenu) -> None:
    await _act(
        press,
        lambda gm, at: gm.sheet_ready(*at, ready=False, meant_for=_for(press.sheet)),
        notice=lambda answer: [ready_words(False, answer.view)],
    )


async def _hold(press: Press, menu: OrderMenu) -> None:
    await _act(press, lambda gm, at: gm.sheet_hold_the_rest(*at, meant_for=_for(press.sheet)))


async def _clear(press: Press, menu: OrderMenu) -> None:
    await _act(
        press,
        lambda gm, at: gm.sheet_clear(*at, meant_for=_for(press.sheet)),
        notice=lambda answer: ["Your orders are withdrawn."],
    )


async def _keep(press: Press, menu: OrderMenu) -> None:
    """A unit's (a build site's) order taken back: "Keep" a unit chosen for removal, or the menu's
    "no order"."""
    key = press.arg or ""
    await _act(press, lambda gm, at: gm.sheet_withdraw(*at, key, meant_for=_for(press.sheet)))


async def _waive(press: Press, menu: OrderMenu) -> None:
    power = next((p for p in menu.powers if p.missing and p.legal.waive is not None), None)
    if power is None or power.legal.waive is None:
        raise StalePick("There is no build left to waive.", "Nothing was changed.")
    await _submit(press, power, power.legal.waive)


async def _remove(press: Press, menu: OrderMenu) -> None:
    found = menu.find(press.arg or "")
    removal = found[1].orders[0] if found is not None and found[1] is not None and found[1].orders else None
    if found is None or removal is None:
        raise StalePick(f"{press.arg} has no unit to remove now.", "Nothing was changed.")
    await _submit(press, found[0], removal)


async def _nothing(press: Press, menu: OrderMenu) -> None:
    raise StalePick("That button does nothing now.", "Open a new sheet with /orders sheet.")


PRESSES: dict[Action, Callable[[Press, OrderMenu], Awaitable[None]]] = {
    Action.PAGE: _page,
    Action.READY: _ready,
    Action.UNREADY: _unready,
    Action.HOLD: _hold,
    Action.CLEAR: _clear,
    Action.KEEP: _keep,
    Action.WAIVE: _waive,
    Action.REMOVE: _remove,
}
"""What each button of a game's sheet does, once the sheet's menu is read (Map needs none)."""


def _who(sheet: Sheet) -> tuple[int, int]:
    return sheet.game_id, sheet.user_id


def _for(sheet: Sheet) -> MeantFor[str]:
    """The phase and the game (its tag) the sheet was made for: gm refuses a tap on a stale one."""
    return MeantFor(sheet.phase, sheet.tag or None)


async def _submit(press: Press, power: PowerMenu, chosen: LegalOrder) -> None:
    """The chosen order, through the typed orders' path; its acknowledgement tops the sheet."""
    interaction, sheet = press.interaction, press.sheet
    gamemaster = services_of(interaction.client).gamemaster
    try:
        outcome = await _written(
            press,
            lambda: gamemaster.submit_chosen_order(
                sheet.game_id,
                sheet.user_id,
                chosen.text,
                power=power.power,
                meant_for=_for(sheet),
            ),
        )
    except OrdersClosed as stale:
        raise _stale(stale) from stale
    lines = [*text.phase_notice(outcome.report), *(text.outcome_line(o) for o in outcome.report.lines)]
    await _show(interaction, sheet, press.page, outcome.menu, lines, outcome.report.view)


async def _written(press: Press, write: Callable[[], Awaitable[T]]) -> T:
    """``write`` in the tap's turn, after the player's earlier taps' (the last tap on a unit stays).
    The tap is acknowledged ("deferred", an update of this message) only when the write takes longer
    than :data:`DEFER_AFTER` (it may wait on a close or other writes): otherwise the redrawn sheet is
    its one answer, one call to Discord instead of two."""

    async def in_turn() -> T:
        async with press.turn.writing():
            return await write()

    task = asyncio.ensure_future(in_turn())
    try:
        # in a burst (many first answers owed) the tap is acknowledged at once: its write and redraw
        # wait their turn after the others' first answers (gm.delivery.lanes)
        done, _ = await asyncio.wait({task}, timeout=0 if answers_owed() else DEFER_AFTER)
        if not done and not press.interaction.response.is_done():
            try:
                await press.interaction.response.defer()
            except discord.HTTPException:  # too late for Discord: the write is finished, not cut off
                await asyncio.shield(task)
                raise
        return await task
    finally:
        if not task.done():  # the tap's handling was cancelled (a stop)
            task.cancel()


SheetAction = Callable[[Gamemaster, tuple[int, int]], Awaitable[SheetAnswer]]
"""One of gm's sheet actions, given the gamemaster and (game, user)."""


async def _act(
    press: Press, action: SheetAction, notice: Callable[[SheetAnswer], list[str]] | None = None
) -> None:
    """A sheet action of gm's (hold the rest, clear, ready, take back), then the sheet again."""
    interaction, sheet = press.interaction, press.sheet
    gamemaster = services_of(interaction.client).gamemaster
    try:
        answer = await _written(press, lambda: action(gamemaster, _who(sheet)))
    except OrdersClosed as stale:
        raise _stale(stale) from stale
    lines: list[str] = []
    if answer.report is not None:
        lines += [*text.phase_notice(answer.report), *(text.outcome_line(o) for o in answer.report.lines)]
    if notice is not None:
        lines += notice(answer)
    await _show(interaction, sheet, press.page, answer.menu, lines, answer.view)


async def _show(
    interaction: discord.Interaction,
    sheet: Sheet,
    page: int,
    menu: OrderMenu | None,
    notice: Sequence[str],
    view: OrdersView,
) -> None:
    leading = _leading(interaction)
    if menu is None:  # everybody is done: the phase closes now
        who = text.powers_text([p.power for p in view.powers])
        words = [f"### {who} · {view.phase.long_name}", *notice, "", closing_words(view.phase.long_name)]
        layout = closed(words, leading=leading)
    else:
        layout = draw(menu, sheet, page=page, notice=notice, leading=leading)
    await edit_in_order(interaction, layout)


async def _redraw(
    interaction: discord.Interaction,
    menu: OrderMenu,
    sheet: Sheet,
    page: int,
    *,
    second: Second | None = None,
) -> None:
    layout = draw(menu, sheet, page=page, second=second, leading=_leading(interaction))
    await edit_in_order(interaction, layout)


async def edit_in_order(interaction: discord.Interaction, layout: discord.ui.LayoutView) -> None:
    """Show ``layout`` on the tapped message, unless the drawing of a later tap is shown already (a
    429 held this edit back): the message's edits go out one at a time, newest tap last
    (cogs.shared.ordered.Edits)."""
    message = interaction.message
    if message is None:  # not a component's message: nothing else edits it
        await _send_edit(interaction, layout)
        return
    edits = services_of(interaction.client).edits
    if edits.busy(message.id) and not interaction.response.is_done():
        await interaction.response.defer()  # answered within Discord's 3 s while the other edit goes out
    if not await edits.show(message.id, interaction.id, lambda: _send_edit(interaction, layout)):
        log.info(
            "sheet %s: the drawing of tap %s was dropped; a later tap's is shown", message.id, interaction.id
        )
        if not interaction.response.is_done():
            await interaction.response.defer()


async def _send_edit(interaction: discord.Interaction, layout: discord.ui.LayoutView) -> None:
    if interaction.response.is_done():
        await interaction.edit_original_response(view=layout)
    else:
        await interaction.response.edit_message(view=layout)


def _leading(interaction: discord.Interaction) -> list[discord.ui.Item[Any]]:
    """The call to order's text above a sheet in a direct message (every top-level component before
    the sheet's, which is the last), rebuilt from the message, so a redraw keeps it."""
    message = interaction.message
    if message is None or not message.flags.components_v2:
        return []
    return items_of(words_above(message.components[:-1], message))


async def _menu(interaction: discord.Interaction, sheet: Sheet) -> OrderMenu:
    gamemaster = services_of(interaction.client).gamemaster
    try:
        return await gamemaster.order_menu(sheet.game_id, sheet.user_id, meant_for=_for(sheet))
    except OrdersClosed as stale:
        raise _stale(stale) from stale


def _stale(closed_error: OrdersClosed) -> OrdersClosed:
    """gm's refusal for a sheet of a phase that has passed, pointing to a new sheet."""
    message = closed_error.message
    if "Nothing was" not in message:
        message += " Nothing was changed."
    return OrdersClosed(message, "Open the sheet of the current phase with /orders sheet.")
