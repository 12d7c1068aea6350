"""Drawing the order sheet (cogs.ui.sheet has its components and ids): one Components V2 layout, a
container of the power's colour holding its heading (the phase, the deadline, how far the orders are,
the last tap's answer), a menu per unit, build site or row of removals, and its buttons.

Discord allows 40 components and 4,000 characters of text in such a message; a unit's menu costs
two (its row and the select), so a power too large for one message is paged, and only the rows of the
page shown are made. A support or convoy opens a second menu in the unit's place, in parts of 23 when
long ("Back" and "More…" around them).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import discord

from cogs.shared import text
from cogs.ui.sheet import (
    BACK,
    BUTTONS_PER_ROW,
    MAP_LABEL,
    MAX_COMPONENTS,
    MAX_TEXT,
    MORE,
    NONE,
    NOW,
    PER_SELECT,
    READY_LABEL,
    SUB_CHOICES,
    UNREADY_LABEL,
    Action,
    Second,
    SheetIds,
)
from cogs.ui.wording import Names, cut, helped_label, order_label
from gm.public import LegalOrder, OrderKind, OrderMenu, PowerMenu, UnitOrders, game_map, get_variant


@dataclass
class _Row:
    """One line of the sheet: a unit's menu (2 components) or a row of removal buttons; made (for the
    page it is drawn on) only when it is shown."""

    cost: int
    make: Callable[[int], list[discord.ui.Item[Any]]]


Heading = Callable[[OrderMenu, Sequence[str], int, int, int, int], list[str]]
"""A sheet's heading: (menu, notice, page, pages, first row shown, rows shown) -> its lines."""
Controls = Callable[[OrderMenu, SheetIds, int], list[discord.ui.ActionRow[Any]]]
"""A sheet's rows of controls under its units: (menu, ids, page) -> the rows."""


@dataclass(frozen=True)
class Frame:
    """What differs between a game's sheet and a sandbox's: the heading, the controls under the units
    and any above them (a sandbox's power picker). The units' menus, second menus, removals and pages
    are drawn alike."""

    heading: Heading
    controls: Controls
    top: Controls | None = None


def draw(
    menu: OrderMenu,
    sheet: SheetIds,
    *,
    page: int = 0,
    second: Second | None = None,
    notice: Sequence[str] = (),
    leading: Sequence[discord.ui.Item[Any]] = (),
    frame: Frame | None = None,
    live: bool | None = None,
) -> discord.ui.LayoutView:
    """The sheet for ``menu``: ``leading`` items first (a call to order's text), then the sheet in a
    container of the power's colour; ``notice`` (the last action's answer) under its heading.
    ``frame``: the heading and controls (default: a game's, :data:`GAME_FRAME`, or :data:`LIVE_FRAME`
    when ``live``: a sheet kept up to date in a direct message, by default one under a call's words)."""
    frame = frame or (LIVE_FRAME if (bool(leading) if live is None else live) else GAME_FRAME)
    names = Names(game_map(menu.variant))
    first_controls = frame.controls(menu, sheet, 0)
    first_top = frame.top(menu, sheet, 0) if frame.top else []
    fixed = (
        sum(_cost(item) for item in leading) + 1 + 1 + sum(_cost(row) for row in first_controls + first_top)
    )
    room = MAX_COMPONENTS - fixed
    rows = _rows(menu, sheet, names, second)
    sizes = [len(p) for p in _paginate(rows, room)]
    if len(sizes) > 1:  # room for a row of two page buttons
        sizes = [len(p) for p in _paginate(rows, room - 3)]
    page = max(0, min(page, len(sizes) - 1))
    first = sum(sizes[:page])
    shown = rows[first : first + sizes[page]]
    controls = first_controls if page == 0 else frame.controls(menu, sheet, page)  # page 0's: drawn once
    pages = len(sizes)
    view = discord.ui.LayoutView(timeout=None)
    for item in leading:
        view.add_item(item)
    box: discord.ui.Container[Any] = discord.ui.Container(accent_colour=_colour(menu))
    heading = frame.heading(menu, notice, page, pages, first + 1, len(shown))
    box.add_item(discord.ui.TextDisplay(_fit(heading, MAX_TEXT - sum(_text(i) for i in leading) - 10)))
    for above in first_top if page == 0 else frame.top(menu, sheet, page) if frame.top else []:
        box.add_item(above)
    for row in shown:
        for item in row.make(page):
            box.add_item(item)
    if pages > 1:
        box.add_item(_pager(sheet, page, pages))
    for control in controls:
        box.add_item(control)
    view.add_item(box)
    return view


def closed(
    heading: Sequence[str], *, leading: Sequence[discord.ui.Item[Any]] = (), colour: int | None = None
) -> discord.ui.LayoutView:
    """A sheet whose work is done (the phase closes now): its words, no controls."""
    view = discord.ui.LayoutView(timeout=None)
    for item in leading:
        view.add_item(item)
    box: discord.ui.Container[Any] = discord.ui.Container(accent_colour=colour)
    box.add_item(discord.ui.TextDisplay(_fit(list(heading), MAX_TEXT - sum(_text(i) for i in leading) - 10)))
    view.add_item(box)
    return view


def _cost(item: discord.ui.Item[Any]) -> int:
    children = list(getattr(item, "walk_children", lambda: [])())
    return 1 + len(children)


def _text(item: discord.ui.Item[Any]) -> int:
    walk = getattr(item, "walk_children", None)
    items = [item, *(walk() if walk else [])]
    return sum(len(i.content) for i in items if isinstance(i, discord.ui.TextDisplay))


def _paginate(rows: list[_Row], room: int) -> list[list[_Row]]:
    pages: list[list[_Row]] = [[]]
    used = 0
    for row in rows:
        if used + row.cost > room and pages[-1]:
            pages.append([])
            used = 0
        pages[-1].append(row)
        used += row.cost
    return pages


def _colour(menu: OrderMenu) -> int | None:
    if not menu.powers:
        return None
    info = get_variant(menu.variant).powers.get(menu.powers[0].power)
    if info is None:
        return None
    try:
        return int(info.colour.lstrip("#"), 16)
    except ValueError:
        return None


def _fit(lines: Sequence[str], limit: int) -> str:
    out = "\n".join(lines).strip() or "…"
    return out if len(out) <= limit else out[: limit - 1] + "…"


def _heading(
    menu: OrderMenu, notice: Sequence[str], page: int, pages: int, first: int, count: int, live: bool = False
) -> list[str]:
    view = menu.view
    who = text.powers_text([p.power for p in menu.powers])
    lines = [f"### {who} · {view.phase.long_name}"]
    due = text.due(view.deadline, view.deadline_zone)
    lines.append(f"#{view.game_id} {text.safe(view.game_name)} · {due[0].upper()}{due[1:]}.")
    lines += [_progress(power, menu) for power in menu.powers]
    if menu.ready:
        lines.append(
            f"**✓ You are ready.** The phase closes early once every player is. {text.unordered_fate(view)}"
        )
    elif any(p.legal.entries or p.legal.waive for p in menu.powers):
        lines.append(_how(menu))
    shown_at = discord.utils.format_dt(datetime.now(UTC), "R")
    paged = f"Page {page + 1} of {pages}: orders {first} to {first + count - 1}. " if pages > 1 else ""
    if live:  # cogs.ui.sheet_live
        later = "orders sent another way show here within about 10 seconds."
        lines.append(f"-# {paged}Shown as of {shown_at}; {later}")
    else:
        lines.append(f"-# {paged}Shown as of {shown_at}; orders sent another way show at your next tap.")
    if notice:
        lines += ["", *notice]
    return lines


HOW = {
    "M": "-# Pick each unit's order in its menu: it counts at once. Supports… and Convoys… ask whom next. "
    "A unit without an order holds. Tap **Ready** when you are done.",
    "R": "-# Pick where each unit retreats, or disband it. A unit without an order is disbanded.",
    "B": "-# Pick a unit to build in each site you want, or waive a build. Tap **Ready** when done.",
    "A": "-# Tap the units to remove. If you remove too few, the rules pick the rest.",
}
"""What to do on the sheet, by the phase's kind (B: a winter with builds due)."""


def _how(menu: OrderMenu) -> str:
    kind = menu.phase_name[-1]
    builds = kind == "A" and any(p.legal.due > 0 for p in menu.powers)
    return HOW["B" if builds else kind]


def progress_line(power: PowerMenu, menu: OrderMenu) -> str:
    """How far a power's orders are: ``**France**: 2 of 3 units ordered.``, builds and removals
    chosen, or why it gives none."""
    return _progress(power, menu)


def _progress(power: PowerMenu, menu: OrderMenu) -> str:
    name = f"**{text.power_name(power.power)}**"
    legal = power.legal
    if legal.reason:
        return f"{name} gives no orders: {text.safe(legal.reason)}."
    if legal.due > 0:
        built = [o for o in power.orders.values() if o.endswith(" B")]
        waived = power.waived
        done = f"{len(built) + waived} of {legal.due} builds chosen"
        parts = [", ".join(f"`{b}`" for b in built), f"{waived} waived" if waived else ""]
        extra = "; ".join(p for p in parts if p)
        return (
            f"{name}: {done}"
            + (f" ({extra})" if extra else "")
            + ("." if power.missing else ". All ordered.")
        )
    if legal.due < 0:
        removed = [o for o in power.orders.values() if o.endswith(" D")]
        return f"{name}: {len(removed)} of {-legal.due} removals chosen" + (
            "." if power.missing else ". All ordered."
        )
    if not legal.entries:
        return f"{name} has nothing to order in this phase."
    ordered = len(legal.entries) - len(power.missing)
    whole = text.plural(len(legal.entries), "unit")
    return f"{name}: {ordered} of {whole} ordered" + ("." if power.missing else ". All ordered.")


# --- the rows ----------------------------------------------------------------------------------------


def _rows(menu: OrderMenu, sheet: SheetIds, names: Names, second: Second | None) -> list[_Row]:
    rows: list[_Row] = []
    several = len(menu.powers) > 1
    for power in menu.powers:
        prefix = f"{text.power_name(power.power)}: " if several else ""
        legal = power.legal
        if legal.due < 0:
            rows += _removal_rows(power, sheet)
            continue
        for entry in legal.entries:
            rows.append(_Row(2, _unit_row(menu, power, entry, sheet, names, prefix, second)))
    return rows


def _unit_row(
    menu: OrderMenu,
    power: PowerMenu,
    entry: UnitOrders,
    sheet: SheetIds,
    names: Names,
    prefix: str,
    second: Second | None,
) -> Callable[[int], list[discord.ui.Item[Any]]]:
    def make(page: int) -> list[discord.ui.Item[Any]]:
        if second is not None and second.key == entry.location:
            select: discord.ui.Item[Any] = _second_select(menu, power, entry, sheet, page, second, names)
        else:
            select = _unit_select(menu, power, entry, sheet, page, names, prefix)
        return [discord.ui.ActionRow(select)]

    return make


SHARED_KEPT = 8192
"""Orders whose select option is kept (:func:`_option`), shown or not as the current one."""
_shared: dict[tuple[int, int, bool], tuple[LegalOrder, discord.SelectOption]] = {}


def _option(
    menu: OrderMenu, order: LegalOrder, names: Names, chosen: LegalOrder | None
) -> discord.SelectOption:
    """An order's option in a unit's select. The same for the same order (the engine's, shared by
    every board that lists it), map and default, so kept for the last :data:`SHARED_KEPT` made and
    shared by every sheet that lists it (a select only reads its options); not a support's or a
    convoy's, whose label names the helped unit's owner (the menu's)."""
    default = chosen is not None and order.text == chosen.text
    if order.kind in (OrderKind.SUPPORT, OrderKind.CONVOY):
        return discord.SelectOption(label=order_label(menu, order, names), value=order.text, default=default)
    key = (id(order), id(names.map), default)
    held = _shared.get(key)
    if held is not None and held[0] is order:
        return held[1]
    made = discord.SelectOption(label=order_label(menu, order, names), value=order.text, default=default)
    if len(_shared) >= SHARED_KEPT:
        _shared.clear()
    _shared[key] = (order, made)
    return made


def _unit_select(
    menu: OrderMenu,
    power: PowerMenu,
    entry: UnitOrders,
    sheet: SheetIds,
    page: int,
    names: Names,
    prefix: str,
) -> discord.ui.Item[Any]:
    options, placeholder = _unit_options(menu, power, entry, names)
    return sheet.unit_select(entry.location, page, list(options), f"{prefix}{placeholder}")


_Options = tuple[tuple[discord.SelectOption, ...], str]
OPTIONS_KEPT = 2048
"""Units whose select's options are kept (:func:`_unit_options`): a sheet drawn again after a tap
lists the same orders for every unit the tap did not change, and a busy server's direct-message
sheets, redrawn in turn, draw every unit of every game (45 mid-game games: 1,530 units; at 256 kept,
nearly every redraw made its options anew). Their options are mostly shared (:func:`_option`)."""
_options: dict[tuple[int, str | None, int], tuple[UnitOrders, _Options]] = {}


def _unit_options(menu: OrderMenu, power: PowerMenu, entry: UnitOrders, names: Names) -> _Options:
    """A unit's select: its options and its placeholder (without the sheet's prefix). The same for
    the same listing of the unit (``entry``, the engine's, kept per board), the unit's current order
    and the map's names, so kept for the last :data:`OPTIONS_KEPT` units drawn (the options are only
    read once made: the selects share them); not when the current order supports or convoys another
    unit, whose label names the unit's owner (the menu's)."""
    now = power.current(entry)
    chosen = power.legal.find(now) if now else None
    if chosen is not None and chosen.helped is not None:
        return _made_options(menu, power, entry, names, chosen)
    key = (id(entry), now, id(names.map))
    held = _options.get(key)
    if held is not None and held[0] is entry:
        return held[1]
    made = _made_options(menu, power, entry, names, chosen)
    if len(_options) >= OPTIONS_KEPT:
        _options.clear()
    _options[key] = (entry, made)
    return made


def _made_options(
    menu: OrderMenu, power: PowerMenu, entry: UnitOrders, names: Names, chosen: LegalOrder | None
) -> _Options:
    orders = entry.orders
    if entry.unit is None:  # a build site
        options = [_option(menu, o, names, chosen) for o in orders]
        if chosen is not None:
            options.append(
                discord.SelectOption(label=f"No build in {names.place(entry.location)}", value=NONE)
            )
        return tuple(options), f"{names.place(entry.location)} ({entry.location}): no build"
    direct = [
        *entry.of_kind(OrderKind.HOLD),
        *entry.of_kind(OrderKind.RETREAT),
        *entry.of_kind(OrderKind.DISBAND),
    ]
    land, needed, via = split_moves(entry)
    supports = entry.of_kind(OrderKind.SUPPORT)
    convoys = entry.of_kind(OrderKind.CONVOY)
    unit = entry.unit.text
    entries: list[discord.SelectOption] = []
    folded: list[tuple[str, str, int]] = []  # (value, label, count) of second menus
    if supports:
        folded.append(("@support", f"{unit} supports… (whom, next)", len(supports)))
    if convoys:
        folded.append(("@convoy", f"{unit} convoys… (which army, next)", len(convoys)))
    needs_convoy = {o.text for o in needed}
    moves = [o for o in entry.of_kind(OrderKind.MOVE) if not o.via_convoy or o.text in needs_convoy]
    extra_current = chosen is not None and chosen.kind in (OrderKind.SUPPORT, OrderKind.CONVOY)
    room = PER_SELECT - len(direct) - len(folded) - (1 if extra_current else 0)
    if len(via) > len(needed) or (len(moves) > room and via):
        # the convoy route to a place it also walks to is asked for here, never listed beside the walk
        folded.insert(0, ("@via", f"{unit} moves by convoy… ({len(via)} places)", len(via)))
        room -= 1
    if len(moves) > room and needed:
        moves = land
    if len(moves) > room:
        folded.insert(0, ("@move", f"{unit} moves… ({len(land)} places)", len(land)))
        moves = []
    for order in [*direct[:1], *moves, *direct[1:]]:
        entries.append(_option(menu, order, names, chosen))
    if extra_current and chosen is not None:
        entries.append(_option(menu, chosen, names, chosen))
    if chosen is not None and not any(o.default for o in entries):  # folded into a second menu
        entries.insert(0, _option(menu, chosen, names, chosen))
    elif chosen is None and power.current(entry):  # an order the menu does not list (as typed)
        now = text.safe(power.current(entry) or "", limit=90)
        entries.insert(0, discord.SelectOption(label=f"now: {now}", value=NOW, default=True))
    for value, label, count in folded:
        what = {"@support": "its hold or move", "@convoy": "the army and where", "@via": "where"}.get(
            value, "where"
        )
        entries.append(
            discord.SelectOption(label=cut(label), value=value, description=f"{count} choices: pick {what}")
        )
    state = " (dislodged)" if entry.dislodged else ""
    return tuple(entries[:PER_SELECT]), f"{unit} · {names.place(entry.location)}{state}: no order yet"


def _second_select(
    menu: OrderMenu,
    power: PowerMenu,
    entry: UnitOrders,
    sheet: SheetIds,
    page: int,
    second: Second,
    names: Names,
) -> discord.ui.Item[Any]:
    unit = entry.unit.text if entry.unit is not None else entry.location
    choices = second_choices(entry, second.kind)
    parts = max(1, -(-len(choices) // SUB_CHOICES))
    part = min(second.part, parts - 1)
    shown = choices[part * SUB_CHOICES : (part + 1) * SUB_CHOICES]
    options = [discord.SelectOption(label=f"◀ Back to {unit}'s orders", value=BACK)]
    for order in shown:
        if second.kind in ("support", "convoy"):
            label = helped_label(menu, order)
            description = order.text
        else:
            label = order_label(menu, order, names)
            description = None
        options.append(discord.SelectOption(label=cut(label), value=order.text, description=description))
    if part < parts - 1:
        options.append(discord.SelectOption(label=f"More… ({part + 2} of {parts})", value=MORE))
    question = {
        "support": f"{unit} supports whom? ({len(choices)})",
        "convoy": f"{unit} convoys which army? ({len(choices)})",
        "via": f"{unit} moves by convoy to where?",
        "move": f"{unit} moves to where?",
    }[second.kind]
    return sheet.second_select(Second(second.key, second.kind, part), page, options, question)


def split_moves(entry: UnitOrders) -> tuple[list[LegalOrder], list[LegalOrder], list[LegalOrder]]:
    """A unit's moves as a menu shows them, one entry per destination: (the moves by land, the
    moves by convoy to places it cannot walk to, every move by convoy). A move by convoy to a
    place the unit also walks to (DATC 4.A.3's twin) is only in the "moves by convoy…" menu."""
    moves = entry.of_kind(OrderKind.MOVE)
    land = [o for o in moves if not o.via_convoy]
    walks = {o.target for o in land}
    via = [o for o in moves if o.via_convoy]
    return land, [o for o in via if o.target not in walks], via


def second_choices(entry: UnitOrders, kind: str) -> list[LegalOrder]:
    """The orders a second menu lists: supports, convoys, moves by convoy, or every move."""
    if kind == "support":
        return list(entry.of_kind(OrderKind.SUPPORT))
    if kind == "convoy":
        return list(entry.of_kind(OrderKind.CONVOY))
    land, _needed, via = split_moves(entry)
    return via if kind == "via" else land


def _removal_rows(power: PowerMenu, sheet: SheetIds) -> list[_Row]:
    entries = list(power.legal.entries)
    rows = []
    for start in range(0, len(entries), BUTTONS_PER_ROW):
        chunk = entries[start : start + BUTTONS_PER_ROW]
        rows.append(_Row(1 + len(chunk), _removal_row(power, chunk, sheet)))
    return rows


def _removal_row(
    power: PowerMenu, entries: list[UnitOrders], sheet: SheetIds
) -> Callable[[int], list[discord.ui.Item[Any]]]:
    def make(page: int) -> list[discord.ui.Item[Any]]:
        buttons = []
        for entry in entries:
            unit = entry.unit.text if entry.unit is not None else entry.location
            if power.current(entry):
                label, style, action = f"✓ Removing {unit}", discord.ButtonStyle.danger, Action.KEEP
            else:
                label, style, action = f"Remove {unit}", discord.ButtonStyle.secondary, Action.REMOVE
            buttons.append(sheet.button(action, page, entry.location, label=label, style=style))
        return [discord.ui.ActionRow(*buttons)]

    return make


def _controls(menu: OrderMenu, sheet: SheetIds, page: int) -> list[discord.ui.Item[Any]]:
    kind = menu.phase_name[-1]
    missing = any(p.missing for p in menu.powers)
    ordered = any(p.orders for p in menu.powers)
    ready = menu.ready
    items: list[discord.ui.Item[Any]] = [
        sheet.button(Action.UNREADY, page, label=UNREADY_LABEL, style=discord.ButtonStyle.success)
        if ready
        else sheet.button(Action.READY, page, label=READY_LABEL, style=discord.ButtonStyle.primary)
    ]
    if kind == "M":
        items.append(sheet.button(Action.HOLD, page, label="Hold the rest", disabled=not missing))
    if kind == "A":
        items += waive_button(menu, sheet, page)
    items.append(sheet.button(Action.MAP, page, label=MAP_LABEL))
    items.append(
        sheet.button(
            Action.CLEAR, page, label="Clear", style=discord.ButtonStyle.danger, disabled=not ordered
        )
    )
    return items


def waive_button(menu: OrderMenu, sheet: SheetIds, page: int) -> list[discord.ui.Item[Any]]:
    """ "Waive a build" when a power of the sheet has builds due (enabled while one may be waived)."""
    builds = [p for p in menu.powers if p.legal.due > 0]
    if not builds:
        return []
    waivable = any(p.missing and p.legal.waive is not None for p in builds)
    return [sheet.button(Action.WAIVE, page, label="Waive a build", disabled=not waivable)]


def _pager(sheet: SheetIds, page: int, pages: int) -> discord.ui.ActionRow[Any]:
    return discord.ui.ActionRow(
        sheet.button(Action.PAGE, page, str(page - 1), label="◀ Previous", disabled=page == 0),
        sheet.button(Action.PAGE, page, str(page + 1), label="Next ▶", disabled=page >= pages - 1),
    )


def _game_controls(menu: OrderMenu, sheet: SheetIds, page: int) -> list[discord.ui.ActionRow[Any]]:
    return [discord.ui.ActionRow(*_controls(menu, sheet, page))]


GAME_FRAME = Frame(heading=_heading, controls=_game_controls)
"""A game's sheet: the phase, the deadline and each power's progress; Ready, Hold the rest, Waive,
My orders on the map, Clear."""
LIVE_FRAME = Frame(heading=functools.partial(_heading, live=True), controls=_game_controls)
"""The same, kept up to date in a direct message (cogs.ui.sheet_live)."""


def closing_words(phase_long_name: str) -> str:
    return f"**Everybody is done: {phase_long_name} closes now.** The results follow in the game channel."


__all__ = [
    "GAME_FRAME",
    "Frame",
    "closed",
    "closing_words",
    "draw",
    "progress_line",
    "second_choices",
    "waive_button",
]
