"""The order builder: orders by tap, on one private message.

``/orders build`` (and the "Order by tap" button under calls to order posted before the order sheet,
cogs.ui.sheet, took its place) opens an ephemeral message that walks a player through one order at a
time, every list holding legal orders only (gm's order menu, from engine.legal):

1. **units**: a select of the player's units (build sites, units to remove, WAIVE), each with its
   current order; WAIVE is submitted at once (one tap), and once every build or removal is chosen the
   sites and units left without orders are not listed as owed;
2. **kinds**: a button per kind of order the unit has (hold, move, support, convoy; retreat, disband;
   build, remove). A kind with nothing more to choose (hold, disband, remove) is submitted at once;
3. **targets**: a select of where (the destination, the province supported into, the convoy's
   destination, the unit to build);
4. **choices**: for supports and convoys the unit helped (and land or convoy for a move that may be
   either), when there is more than one.

Each step edits the same message. The finished order goes to gm as its canonical text through the same
path as typed orders (submit_orders with the power and the phase), and the message returns to the units
with the acknowledgement a typed order gets (what is still without orders, the deadline). A list longer
than a select's 25 options is split over up to four selects (a row each, named by the range they
cover); longer still, it is paged.

Every component is a DynamicItem whose custom_id carries the state, so a builder keeps working after a
restart::

    tap:<game>:<phase>:open                                  "Order by tap": opens a builder (anyone's own)
    tap:<game>.<tag>:<phase>:<user>:u#<n>                    select n of the units screen
    tap:<game>.<tag>:<phase>:<user>:t:<key>:<kind>#<n>       select n of the targets of a unit's kind
    tap:<game>.<tag>:<phase>:<user>:c:<key>:<kind>:<target>#<n>   select n of the choices
    tap:<game>.<tag>:<phase>:<user>:go:<screen>[@<page>]     a button to a screen (u, k:<key>, t:..., c:...)
    tap:<game>.<tag>:<phase>:<user>:do:<key>:<kind>          a kind with nothing more to choose: submit it
    tap:<game>.<tag>:<phase>:<user>:map                      the private preview map

``key`` is the unit's location as the engine writes it (``PAR``, ``STP/SC``; a build site's province),
or ``*FRANCE`` for France's WAIVE; ``kind`` an engine.legal.OrderKind value. The selects' values carry
the pick (a key, a target, an order's canonical text); ``tag`` is the game's random tag. A click by
anyone but ``user``, on a builder of a phase that has passed (or is being adjudicated), or of another
game that had this number (a builder left from another database), is refused with the reason and
changes nothing. The opener names no tag: it only opens a builder, for the game as it is now.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import discord

from cogs.shared import text
from cogs.shared.base import services_of
from cogs.shared.replies import answering, defer, send
from cogs.ui.guard import Guarded
from cogs.ui.ids import PlayerIds
from cogs.ui.wording import Names, helped_label, whose
from gm.facade import ChosenOrder
from gm.public import (
    GameError,
    LegalOrder,
    OrderKind,
    OrderMenu,
    OrdersClosed,
    OrdersPreview,
    PowerMenu,
    UnitOrders,
    game_map,
)

log = logging.getLogger(__name__)

PREFIX = "tap"
GAME_PHASE = rf"{PREFIX}:(?P<game_id>\d+)(?:\.(?P<tag>[a-z0-9]{{1,12}}))?:(?P<phase>[SFW]\d{{4}}[MRA])"
PER_SELECT = 25  # Discord's limit of options in a select
SELECTS_PER_PAGE = 4  # five rows: four selects and a row of buttons
PER_PAGE = PER_SELECT * SELECTS_PER_PAGE
MESSAGE_LIMIT = 2000
LABEL_LIMIT = DESCRIPTION_LIMIT = 100

UNITS, KINDS, TARGETS, CHOICES = "u", "k", "t", "c"
NEEDS_MORE = frozenset(
    {OrderKind.MOVE, OrderKind.SUPPORT, OrderKind.CONVOY, OrderKind.RETREAT, OrderKind.BUILD}
)
KIND_LABELS = {
    OrderKind.HOLD: "Hold",
    OrderKind.MOVE: "Move…",
    OrderKind.SUPPORT: "Support…",
    OrderKind.CONVOY: "Convoy…",
    OrderKind.RETREAT: "Retreat…",
    OrderKind.DISBAND: "Disband",
    OrderKind.BUILD: "Build…",
    OrderKind.REMOVE: "Remove",
    OrderKind.WAIVE: "Waive a build",
}
TARGET_QUESTIONS = {
    OrderKind.MOVE: "moves: where to?",
    OrderKind.SUPPORT: "supports: into which province (or the unit holding there)?",
    OrderKind.CONVOY: "convoys: to where?",
    OrderKind.RETREAT: "retreats: where to?",
    OrderKind.BUILD: "which unit?",
}
MAP_LABEL = "My orders on the map"
OPEN_LABEL = "Order by tap"


class NotYourBuilder(GameError):
    """A click on a builder someone else opened."""


class StaleChoice(GameError):
    """A pick that is no longer on the list (the position changed under the builder)."""


# --- state -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Builder(PlayerIds):
    """Whose builder, for which game and phase: the start of every custom_id on it. ``tag`` is the
    game's random tag (gm's ``OrderMenu.game_tag``): a click is refused if the game with this number
    is another one (another database's), as gm checks it."""

    prefix: ClassVar[str] = PREFIX


@dataclass(frozen=True, slots=True)
class Screen:
    """Where the builder is: units, a unit's kinds, the targets of a kind, the choices at a target."""

    step: str = UNITS
    key: str | None = None
    kind: OrderKind | None = None
    target: str | None = None
    page: int = 0

    @property
    def code(self) -> str:
        """``u``, ``k:PAR``, ``t:PAR:move``, ``c:PAR:support:BUR`` (without the page)."""
        parts = [self.step, self.key, self.kind.value if self.kind else None, self.target]
        return ":".join(p for p in parts if p is not None)

    @classmethod
    def parse(cls, code: str, page: int = 0) -> Screen:
        step, *rest = code.split(":")
        if step == UNITS and not rest:
            return cls(UNITS, page=page)
        if step == KINDS and len(rest) == 1:
            return cls(KINDS, rest[0], page=page)
        if step == TARGETS and len(rest) == 2:
            return cls(TARGETS, rest[0], OrderKind(rest[1]), page=page)
        if step == CHOICES and len(rest) == 3:
            return cls(CHOICES, rest[0], OrderKind(rest[1]), rest[2], page=page)
        raise ValueError(f"not a builder screen: {code!r}")


# --- components ------------------------------------------------------------------------------------


class OpenBuilderButton(Guarded[discord.ui.Button[Any]], template=rf"{GAME_PHASE}:open"):
    """ "Order by tap" under a call to order (and /orders show): opens a builder for whoever taps it,
    for their own powers, if the phase it names is still open."""

    def __init__(self, game_id: int, phase: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=OPEN_LABEL,
                emoji="👆",
                style=discord.ButtonStyle.primary,
                custom_id=f"{PREFIX}:{game_id}:{phase}:open",
            )
        )
        self.game_id, self.phase = game_id, phase

    @classmethod
    async def read(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> OpenBuilderButton:
        return cls(int(match["game_id"]), match["phase"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await answering(open_builder)(interaction, self.game_id, expected_phase=self.phase)


class BuilderButton(
    Guarded[discord.ui.Button[Any]],
    template=rf"{GAME_PHASE}:(?P<user_id>\d+):(?P<action>go|do|map)(?::(?P<rest>[^#@]+))?(?:@(?P<page>\d+))?",
):
    """A button of a builder: to another screen (``go``), submit a kind that needs nothing more (``do``),
    or the private preview map (``map``)."""

    def __init__(
        self,
        builder: Builder,
        action: str,
        rest: str | None = None,
        page: int = 0,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        row: int | None = None,
    ) -> None:
        suffix = action + (f":{rest}" if rest else "") + (f"@{page}" if page else "")
        super().__init__(
            discord.ui.Button(
                label=label[:80] or None, style=style, emoji=emoji, custom_id=builder.custom_id(suffix)
            ),
            row=row,
        )
        self.builder, self.action, self.rest, self.page = builder, action, rest, page

    @classmethod
    async def read(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> BuilderButton:
        action, rest, page = match["action"], match["rest"], int(match["page"] or 0)
        if action == "do":  # read whole here: an id that does not read is refused (cogs.ui.guard)
            _key, kind = (rest or "").split(":", 1)
            OrderKind(kind)
        elif action == "go":
            Screen.parse(rest or UNITS, page)
        return cls(Builder.of(match), action, rest, page)

    async def callback(self, interaction: discord.Interaction) -> None:
        await answering(_pressed)(interaction, self.builder, self.action, self.rest, self.page)


class BuilderSelect(
    Guarded[discord.ui.Select[Any]],
    template=rf"{GAME_PHASE}:(?P<user_id>\d+):(?P<screen>[{UNITS}{TARGETS}{CHOICES}](?::[^#@]+)?)#(?P<part>\d+)",
):
    """A select of a builder screen (units, targets or choices); the pick is its value."""

    def __init__(
        self,
        builder: Builder,
        screen: str,
        part: int,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str | None = None,
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=builder.custom_id(f"{screen}#{part}"),
            options=list(options) or [discord.SelectOption(label="-", value="-")],
            placeholder=placeholder[:150] if placeholder else None,
        )
        super().__init__(select)
        self.builder, self.screen, self.part = builder, screen, part

    @classmethod
    async def read(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> BuilderSelect:
        Screen.parse(match["screen"])  # an id that does not read is refused (cogs.ui.guard)
        return cls(Builder.of(match), match["screen"], int(match["part"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        picked = str(values[0]) if values else ""
        await answering(_picked)(interaction, self.builder, Screen.parse(self.screen), picked)


def opener_view(game_id: int, phase: str) -> discord.ui.View:
    """The "Order by tap" button for the phase, under a call to order or an /orders show answer."""
    view = discord.ui.View(timeout=None)
    view.add_item(OpenBuilderButton(game_id, phase))
    return view


def setup_builder(client: discord.Client) -> None:
    client.add_dynamic_items(OpenBuilderButton, BuilderButton, BuilderSelect)


# --- the flows -------------------------------------------------------------------------------------


async def open_builder(
    interaction: discord.Interaction, game_id: int, *, expected_phase: str | None = None
) -> None:
    """A new private builder message at the units screen (``/orders build``, "Order by tap")."""
    await defer(interaction)
    gamemaster = services_of(interaction.client).gamemaster
    try:
        menu = await gamemaster.order_menu(game_id, interaction.user.id, expected_phase=expected_phase)
    except OrdersClosed as closed:
        raise _stale(closed) from closed
    builder = Builder(game_id, menu.phase_name, interaction.user.id, menu.game_tag)
    content, view = draw(menu, builder, Screen())
    await send(interaction, content, view=view)


async def _pressed(
    interaction: discord.Interaction, builder: Builder, action: str, rest: str | None, page: int
) -> None:
    _check_owner(interaction, builder)
    if action == "map":
        await show_preview(
            interaction, builder.game_id, expected_phase=builder.phase, expected_tag=builder.tag
        )
        return
    if action == "do" and rest:
        key, kind = rest.split(":", 1)
        await _submit_kind(interaction, builder, key, OrderKind(kind))
        return
    menu = await _menu(interaction, builder)
    screen = Screen.parse(rest or UNITS, page)
    content, view = draw(menu, builder, _valid(menu, screen))
    await interaction.response.edit_message(content=content, view=view, attachments=[])


async def _picked(interaction: discord.Interaction, builder: Builder, screen: Screen, picked: str) -> None:
    """A pick in a select: the next screen, or the order when nothing is left to choose."""
    _check_owner(interaction, builder)
    menu = await _menu(interaction, builder)
    if screen.step == UNITS:
        found = menu.find(picked)
        if found is None:
            raise StaleChoice(f"{picked} has nothing to order now.", "Pick again from the list.")
        power, entry = found
        if entry is None:  # WAIVE: one tap, nothing more to choose
            waive = power.legal.waive
            if waive is None:
                raise StaleChoice("There is no build to waive now.", "Pick again from the list.")
            await _submit(interaction, builder, menu, waive)
            return
        kind = _only_kind(entry)
        nxt = Screen(TARGETS, picked, kind) if kind is not None else Screen(KINDS, picked)
        content, view = draw(menu, builder, nxt)
        await interaction.response.edit_message(content=content, view=view, attachments=[])
        return
    _power, entry = _entry(menu, screen.key)
    if screen.step == TARGETS:
        assert screen.kind is not None
        if picked not in entry.targets(screen.kind):
            raise StaleChoice(f"{picked} is not on the list any more.", "Pick again from the list.")
        choices = entry.choices(screen.kind, picked)
        if len(choices) == 1:
            await _submit(interaction, builder, menu, choices[0])
            return
        content, view = draw(menu, builder, Screen(CHOICES, screen.key, screen.kind, picked))
        await interaction.response.edit_message(content=content, view=view, attachments=[])
        return
    assert screen.kind is not None
    chosen = next((o for o in entry.choices(screen.kind, screen.target) if o.text == picked), None)
    if chosen is None:
        raise StaleChoice(f"{picked} is not on the list any more.", "Pick again from the list.")
    await _submit(interaction, builder, menu, chosen)


async def _submit_kind(interaction: discord.Interaction, builder: Builder, key: str, kind: OrderKind) -> None:
    menu = await _menu(interaction, builder)
    power, entry = _any_entry(menu, key)
    if entry is None:
        waive = power.legal.waive
        if waive is None or kind != OrderKind.WAIVE:
            raise StaleChoice("There is no build to waive now.", "Pick again from the list.")
        await _submit(interaction, builder, menu, waive)
        return
    choices = entry.choices(kind)
    if kind in NEEDS_MORE or len(choices) != 1:
        raise StaleChoice(
            f"{KIND_LABELS[kind].rstrip('…')} is not possible for this unit now.", "Pick again."
        )
    await _submit(interaction, builder, menu, choices[0])


async def _submit(
    interaction: discord.Interaction, builder: Builder, menu: OrderMenu, chosen: LegalOrder
) -> None:
    """Submit the chosen order like a typed line; answer with its acknowledgement and the units."""
    found = _owner_of(menu, chosen)
    await interaction.response.defer()  # an update of this message: a write may wait on a close
    gamemaster = services_of(interaction.client).gamemaster
    try:
        outcome: ChosenOrder = await gamemaster.submit_chosen_order(
            builder.game_id,
            builder.user_id,
            chosen.text,
            power=found.power,
            expected_phase=builder.phase,
            expected_tag=builder.tag,
        )
    except OrdersClosed as closed:
        raise _stale(closed) from closed
    lines = text.report_lines(outcome.report)
    if outcome.menu is None:
        lines += ["", "Everybody has ordered: the phase closes now. The results follow in the game channel."]
        await interaction.edit_original_response(content=fit(lines), view=None, attachments=[])
        return
    content, view = draw(outcome.menu, builder, Screen(), notice=lines)
    await interaction.edit_original_response(content=content, view=view, attachments=[])


async def show_preview(
    interaction: discord.Interaction,
    game_id: int,
    *,
    expected_phase: str | None = None,
    expected_tag: str | None = None,
) -> None:
    """A new private message: the map with the player's own orders drawn, and those orders."""
    await defer(interaction)
    gamemaster = services_of(interaction.client).gamemaster
    try:
        preview = await gamemaster.orders_preview(
            game_id, interaction.user.id, expected_phase=expected_phase, expected_tag=expected_tag
        )
    except OrdersClosed as closed:
        raise _stale(closed) from closed
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


def _check_owner(interaction: discord.Interaction, builder: Builder) -> None:
    if interaction.user.id != builder.user_id:
        raise NotYourBuilder(
            "This order builder belongs to another player, so it cannot order for you. Nothing was changed.",
            "Open your own with /orders build.",
        )


async def _menu(interaction: discord.Interaction, builder: Builder) -> OrderMenu:
    gamemaster = services_of(interaction.client).gamemaster
    try:
        return await gamemaster.order_menu(
            builder.game_id, builder.user_id, expected_phase=builder.phase, expected_tag=builder.tag
        )
    except OrdersClosed as closed:
        raise _stale(closed) from closed


def _stale(closed: OrdersClosed) -> OrdersClosed:
    """gm's refusal for a builder of a phase that has passed, pointing to a new builder."""
    message = closed.message if "Nothing was" in closed.message else f"{closed.message} Nothing was changed."
    return OrdersClosed(message, "Open a new order builder for the current phase with /orders build.")


def _entry(menu: OrderMenu, key: str | None) -> tuple[PowerMenu, UnitOrders]:
    power, entry = _any_entry(menu, key)
    if entry is None:
        raise StaleChoice("That is not a unit.", "Pick again from the list.")
    return power, entry


def _any_entry(menu: OrderMenu, key: str | None) -> tuple[PowerMenu, UnitOrders | None]:
    found = menu.find(key or "")
    if found is None:
        raise StaleChoice(f"{key} has nothing to order now.", "Pick a unit again from the list.")
    return found


def _owner_of(menu: OrderMenu, chosen: LegalOrder) -> PowerMenu:
    for power in menu.powers:
        if power.legal.find(chosen.text) is not None:
            return power
    raise StaleChoice(f"{chosen.text} is not possible now.", "Pick again from the list.")


def _only_kind(entry: UnitOrders | None) -> OrderKind | None:
    """The kind to go straight to the targets of: the entry's only kind, when it needs a target (a
    build site builds); None when the player must pick the kind."""
    if entry is None:
        return None
    kinds = entry.kinds()
    return kinds[0] if len(kinds) == 1 and kinds[0] in NEEDS_MORE else None


def _valid(menu: OrderMenu, screen: Screen) -> Screen:
    """The screen, or the units when what it shows is no longer there."""
    if screen.step == UNITS:
        return screen
    found = menu.find(screen.key or "")
    if found is None:
        return Screen(page=0)
    entry = found[1]
    if screen.step == KINDS or entry is None:
        return screen if screen.step == KINDS else Screen(KINDS, screen.key)
    assert screen.kind is not None
    if screen.kind not in entry.kinds():
        return Screen(KINDS, screen.key)
    if screen.step == CHOICES and not entry.choices(screen.kind, screen.target):
        return Screen(TARGETS, screen.key, screen.kind)
    return screen


# --- drawing a screen ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Option:
    value: str
    label: str
    description: str | None = None
    short: str = ""  # for a select's placeholder: "Pick (ADR–MUN)"


def draw(
    menu: OrderMenu, builder: Builder, screen: Screen, *, notice: Sequence[str] = ()
) -> tuple[str, discord.ui.View]:
    """The message of one builder screen: its text (``notice`` first) and its components."""
    names = Names(game_map(menu.variant))
    if screen.step == UNITS:
        return _units(menu, builder, screen, names, notice)
    power, entry = _any_entry(menu, screen.key)
    if screen.step == KINDS:
        return _kinds(menu, builder, screen, power, entry, names, notice)
    assert entry is not None and screen.kind is not None
    if screen.step == TARGETS:
        return _targets(menu, builder, screen, power, entry, names, notice)
    return _choices(menu, builder, screen, power, entry, names, notice)


def _header(menu: OrderMenu, power: PowerMenu | None = None) -> str:
    view = menu.view
    who = text.powers_text([power.power] if power else [p.power for p in menu.powers])
    return (
        f"**Orders by tap** · {who} · {view.phase.long_name} of #{view.game_id} {text.safe(view.game_name)}"
    )


def _unit_text(power: PowerMenu, entry: UnitOrders) -> str:
    if entry.unit is None:
        return f"build site {entry.location}"
    return f"{entry.unit.text}" + (" (dislodged)" if entry.dislodged else "")


def _units(
    menu: OrderMenu, builder: Builder, screen: Screen, names: Names, notice: Sequence[str]
) -> tuple[str, discord.ui.View]:
    several = len(menu.powers) > 1
    lines = [*notice, *([""] if notice else []), _header(menu)]
    options: list[Option] = []
    for power in menu.powers:
        prefix = f"{text.power_name(power.power)} · " if several else ""
        legal = power.legal
        if legal.reason:
            lines.append(f"{text.power_name(power.power)} gives no orders: {text.safe(legal.reason)}.")
        elif not legal.entries and legal.waive is None:
            lines.append(f"{text.power_name(power.power)} has nothing to order in this phase.")
        if legal.due > 0:
            lines.append(
                f"{text.power_name(power.power)} may build {text.plural(legal.due, 'unit')}: pick a build "
                f"site (or waive a build). {_missing(power)}"
            )
        elif legal.due < 0:
            lines.append(
                f"{text.power_name(power.power)} must remove {text.plural(-legal.due, 'unit')}. "
                + _missing(power)
            )
        complete = legal.due != 0 and not power.missing  # every build (or removal) chosen
        for entry in legal.entries:
            current = power.current(entry)
            shown = f"`{current}`" if current else "no order yet"
            if current or not complete:  # a site left empty once all builds are chosen is not owed
                lines.append(f"{prefix}`{_unit_text(power, entry)}` ➜ {shown}")
            if entry.unit is None:
                label = f"Build in {names.labelled(entry.location)}"
            else:
                label = f"{entry.unit.text} · {names.place(entry.location)}"
            options.append(
                Option(
                    entry.location,
                    prefix + label,
                    f"now: {current}" if current else "no order yet",
                    entry.location,
                )
            )
        if power.waived:
            lines.append(f"{prefix}`WAIVE` ➜ {text.plural(power.waived, 'build')} waived")
        if power.waive_key is not None:
            waived = power.waived
            options.append(
                Option(
                    power.waive_key,
                    f"{prefix}Waive a build",
                    f"one tap: give up a build ({waived} waived so far)"
                    if waived
                    else "one tap: give up a build",
                    "waive",
                )
            )
    if not notice:
        due = text.due(menu.view.deadline, menu.view.deadline_zone)
        lines.append(f"{due[0].upper()}{due[1:]}.")
    if options and any(p.missing for p in menu.powers):
        lines.append("Pick a unit, then what it does.")
    elif options:
        lines.append("To change an order, pick its unit below.")
    view = discord.ui.View(timeout=None)
    pages = _add_selects(view, builder, screen, options, "Pick a unit")
    _controls(view, builder, screen, pages, back=None)
    return fit(lines), view


def _missing(power: PowerMenu) -> str:
    return f"Still to order: {', '.join(power.missing)}." if power.missing else "All ordered."


def _kinds(
    menu: OrderMenu,
    builder: Builder,
    screen: Screen,
    power: PowerMenu,
    entry: UnitOrders | None,
    names: Names,
    notice: Sequence[str],
) -> tuple[str, discord.ui.View]:
    view = discord.ui.View(timeout=None)
    key = screen.key or ""
    if entry is None:  # WAIVE
        waived = power.waived
        lines = [
            *notice,
            _header(menu, power),
            f"Waive a build: {text.power_name(power.power)} gives up one of its builds"
            + (f" ({waived} waived so far)." if waived else "."),
        ]
        view.add_item(
            BuilderButton(
                builder,
                "do",
                f"{key}:{OrderKind.WAIVE.value}",
                label="Waive a build",
                style=discord.ButtonStyle.danger,
                row=0,
            )
        )
    else:
        current = power.current(entry)
        where = names.place(entry.location)
        now = f"now `{current}`" if current else "no order yet"
        lines = [
            *notice,
            _header(menu, power),
            f"**{_unit_text(power, entry)}** ({where}), {now}. What does it do?",
        ]
        for kind in entry.kinds():
            if kind in NEEDS_MORE:
                button = BuilderButton(
                    builder,
                    "go",
                    f"{TARGETS}:{key}:{kind.value}",
                    label=KIND_LABELS[kind],
                    style=discord.ButtonStyle.primary,
                    row=0,
                )
            else:
                style = (
                    discord.ButtonStyle.danger
                    if kind in (OrderKind.DISBAND, OrderKind.REMOVE)
                    else (discord.ButtonStyle.success)
                )
                button = BuilderButton(
                    builder, "do", f"{key}:{kind.value}", label=KIND_LABELS[kind], style=style, row=0
                )
            view.add_item(button)
    _controls(view, builder, screen, 1, back=UNITS)
    return fit(lines), view


def _targets(
    menu: OrderMenu,
    builder: Builder,
    screen: Screen,
    power: PowerMenu,
    entry: UnitOrders,
    names: Names,
    notice: Sequence[str],
) -> tuple[str, discord.ui.View]:
    kind = screen.kind
    assert kind is not None
    options = []
    for target in entry.targets(kind):
        choices = entry.choices(kind, target)
        if kind == OrderKind.BUILD:
            unit_type, _, location = target.partition(" ")
            what = "an army" if unit_type == "A" else "a fleet"
            options.append(Option(target, target, f"{what} in {names.place(location)}", location))
            continue
        label = names.labelled(target)
        if kind == OrderKind.MOVE and choices and all(o.via_convoy for o in choices):
            label += ", by convoy"
        options.append(Option(target, label, _target_description(menu, kind, choices), target))
    subject = (
        f"**{_unit_text(power, entry)}**" if entry.unit is not None else f"**Build in {entry.location}**:"
    )
    lines = [*notice, _header(menu, power), f"{subject} {TARGET_QUESTIONS.get(kind, 'where?')}"]
    current = power.current(entry)
    if current:
        lines.append(f"Now: `{current}`.")
    view = discord.ui.View(timeout=None)
    pages = _add_selects(view, builder, screen, options, "Pick")
    back = UNITS if _only_kind(entry) is not None else f"{KINDS}:{screen.key}"
    _controls(view, builder, screen, pages, back=back)
    return fit(lines), view


def _target_description(menu: OrderMenu, kind: OrderKind, choices: Sequence[LegalOrder]) -> str | None:
    if kind in (OrderKind.MOVE, OrderKind.RETREAT):
        vias = {o.via_convoy for o in choices}
        return "by land or by convoy" if vias == {True, False} else "by convoy" if True in vias else None
    helped = [helped_label(menu, o) for o in choices if o.helped is not None]
    verb = "help" if kind == OrderKind.SUPPORT else "carry"
    return f"{verb} {', '.join(helped)}" if helped else None


def _choices(
    menu: OrderMenu,
    builder: Builder,
    screen: Screen,
    power: PowerMenu,
    entry: UnitOrders,
    names: Names,
    notice: Sequence[str],
) -> tuple[str, discord.ui.View]:
    kind, target = screen.kind, screen.target or ""
    assert kind is not None
    options = []
    for order in entry.choices(kind, target):
        helped = order.helped
        owner = whose(menu, helped) if helped is not None else ""
        label = f"{order.text} ({owner})" if owner else order.text
        if kind == OrderKind.SUPPORT and helped is not None:
            what = f"{helped.text} to hold" if order.helped_holds else f"{helped.text} into {target}"
            description = f"support {owner}'s {what}" if owner else f"support {what}"
        elif kind == OrderKind.CONVOY and helped is not None:
            description = (
                f"carry {owner}'s {helped.text} to {target}" if owner else f"carry {helped.text} to {target}"
            )
        else:
            description = "by convoy" if order.via_convoy else "by land"
        short = helped.location if helped is not None else ("VIA" if order.via_convoy else "land")
        options.append(Option(order.text, label, description, short))
    question = {
        OrderKind.SUPPORT: f"supports into **{names.labelled(target)}**: which unit does it help?",
        OrderKind.CONVOY: f"convoys to **{names.labelled(target)}**: which army?",
    }.get(kind, f"to **{names.labelled(target)}**: by land or by convoy?")
    lines = [*notice, _header(menu, power), f"**{_unit_text(power, entry)}** {question}"]
    view = discord.ui.View(timeout=None)
    pages = _add_selects(view, builder, screen, options, "Pick")
    _controls(view, builder, screen, pages, back=f"{TARGETS}:{screen.key}:{kind.value}")
    return fit(lines), view


def _add_selects(
    view: discord.ui.View, builder: Builder, screen: Screen, options: Sequence[Option], what: str
) -> int:
    """Up to four selects of 25 options on the screen's page (each named by the range it covers);
    returns how many pages there are."""
    if not options:
        return 1
    pages = (len(options) + PER_PAGE - 1) // PER_PAGE
    page = min(screen.page, pages - 1)
    shown = options[page * PER_PAGE : (page + 1) * PER_PAGE]
    parts = [shown[i : i + PER_SELECT] for i in range(0, len(shown), PER_SELECT)]
    for n, part in enumerate(parts):
        placeholder = what if len(parts) == 1 and pages == 1 else f"{what} ({part[0].short}–{part[-1].short})"
        select = BuilderSelect(
            builder,
            screen.code,
            n,
            [
                discord.SelectOption(
                    label=o.label[:LABEL_LIMIT],
                    value=o.value,
                    description=o.description[:DESCRIPTION_LIMIT] if o.description else None,
                )
                for o in part
            ],
            placeholder,
        )
        select.row = n
        view.add_item(select)
    return pages


def _controls(
    view: discord.ui.View, builder: Builder, screen: Screen, pages: int, *, back: str | None
) -> None:
    """The last row: back (to the screen ``back``), to the units, paging, the map."""
    row = SELECTS_PER_PAGE
    if back is not None:
        view.add_item(BuilderButton(builder, "go", back, label="Back", emoji="◀️", row=row))
    if screen.step in (TARGETS, CHOICES) and back != UNITS:
        view.add_item(BuilderButton(builder, "go", UNITS, label="Units", emoji="⏫", row=row))
    page = min(screen.page, pages - 1)
    if page > 0:
        view.add_item(BuilderButton(builder, "go", screen.code, page - 1, label="Previous", row=row))
    if page < pages - 1:
        view.add_item(BuilderButton(builder, "go", screen.code, page + 1, label="More", row=row))
    view.add_item(BuilderButton(builder, "map", label=MAP_LABEL, emoji="🗺️", row=row))


def fit(lines: Sequence[str], limit: int = MESSAGE_LIMIT) -> str:
    """The lines joined, cut to one message: lines past the limit are dropped, and say so."""
    out: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit - 40:
            out.append("… (more in the menu below)")
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out).strip() or "…"


__all__ = [
    "BuilderButton",
    "BuilderSelect",
    "OpenBuilderButton",
    "Screen",
    "draw",
    "open_builder",
    "opener_view",
    "setup_builder",
    "show_preview",
]
