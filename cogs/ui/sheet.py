"""The order sheet: a whole phase in one message (Discord's Components V2 layout).

Every unit of the player's powers has a menu of its legal orders (gm's order menu, from
engine.legal), showing the order it has now: hold and every move are one tap, one per destination (a
move that needs a convoy says so; the convoy route to a place the unit also walks to is in its
"moves by convoy…" menu), "Supports…" and "Convoys…" open a second menu in the same place listing
each unit helped and whose it is. A retreat phase has a menu per dislodged unit; a winter a menu per
build site (army, fleet, the coast) and a Waive button, or a button per unit to remove. Under them:
**Ready** (it shows the state and toggles it), **Hold the rest**, **My orders on the map** (the
private preview) and **Clear**. A power too large for one message (Discord allows 40 components in
one) is paged.

The sheet is sent privately (an ephemeral answer), or is the call to order itself in a direct
message, under the call's text (cogs.messages.sender). This module has its ids and components;
cogs.ui.sheet_draw draws it and cogs.ui.sheet_flows answers its taps (given to :func:`setup_sheet`:
the flows import this module, never the other way round). Each tap re-reads gm's menu and
redraws the sheet; a chosen order goes to gm as its canonical text through the typed orders' path
(``submit_chosen_order`` with the sheet's phase and game tag), and its acknowledgement shows at the
top of the sheet.

Every component is a DynamicItem whose custom_id carries the state, so a sheet works after a
restart::

    sh:<game>[.<tag>]:<phase>:open                         "Order sheet": opens one (anyone's own)
    sh:<game>[.<tag>]:<phase>:ready:<1|0>                  "Ready" outside a sheet (anyone's own)
    sh:<game>.<tag>:<phase>:<user>:u:<key>@<page>          a unit's (build site's) menu
    sh:<game>.<tag>:<phase>:<user>:s:<key>:<kind>:<part>@<page>   its second menu (support, convoy...)
    sh:<game>.<tag>:<phase>:<user>:b:<action>[:<key>]@<page>      a button (ready, hold, map, clear,
                                                                  waive, page, remove, keep)

``key`` is the unit's location as the engine writes it (``PAR``, ``STP/SC``) or a build site's
province; ``tag`` the game's random tag, so a sheet left from another database's game with this
number is refused, as is a sheet of a phase that has closed and a tap by anyone but ``user``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

import discord

from cogs.ui.ids import (
    PlayerIds,
    button_arg,
    button_rest,
    game_ref,
    menu_button,
    menu_select,
    page_number,
    picked,
)
from gm.public import OrderKind, OrdersView

PREFIX = "sh"
PHASE = r"[SFW]\d{4}[MRA]"
GAME = r"(?P<game_id>\d+)(?:\.(?P<tag>[a-z0-9]{1,12}))?"
SHEET = rf"{PREFIX}:{GAME}:(?P<phase>{PHASE}):(?P<user_id>\d+)"
MAX_COMPONENTS = 40  # Discord's limit for a Components V2 message, nested components counted
MAX_TEXT = 4000  # ... and for the text of all its text displays
PER_SELECT = 25
SUB_CHOICES = PER_SELECT - 2  # a second menu's part: its choices, "Back" and "More…"
BUTTONS_PER_ROW = 5
MORE, BACK, NONE, NOW = "@more", "@back", "@none", "@now"
SUBMENUS = {
    "support": OrderKind.SUPPORT,
    "convoy": OrderKind.CONVOY,
    "via": OrderKind.MOVE,
    "move": OrderKind.MOVE,
}
OPEN_LABEL = "Order sheet"
READY_LABEL, UNREADY_LABEL = "Ready", "✓ Ready · tap to undo"
MAP_LABEL = "My orders on the map"


class SheetIds(Protocol):
    """What makes a sheet's components, each with a custom_id its taps come back with: a game's
    sheet (:class:`Sheet`) or a sandbox's (cogs.ui.sandbox.SandboxSheet). cogs.ui.sheet_draw draws
    either through these."""

    def unit_select(
        self, key: str, page: int, options: Sequence[discord.SelectOption], placeholder: str | None
    ) -> discord.ui.Item[Any]: ...

    def second_select(
        self, second: Second, page: int, options: Sequence[discord.SelectOption], placeholder: str | None
    ) -> discord.ui.Item[Any]: ...

    def button(
        self,
        action: str,
        page: int,
        arg: str | None = None,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
    ) -> discord.ui.Item[Any]: ...


@dataclass(frozen=True, slots=True)
class Sheet(PlayerIds):
    """Whose sheet, for which game and phase: the start of every custom_id on it."""

    prefix: ClassVar[str] = PREFIX

    def unit_select(
        self, key: str, page: int, options: Sequence[discord.SelectOption], placeholder: str | None
    ) -> discord.ui.Item[Any]:
        return UnitSelect(self, key, page, options, placeholder)

    def second_select(
        self, second: Second, page: int, options: Sequence[discord.SelectOption], placeholder: str | None
    ) -> discord.ui.Item[Any]:
        return SecondSelect(self, second, page, options, placeholder)

    def button(
        self,
        action: str,
        page: int,
        arg: str | None = None,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
    ) -> discord.ui.Item[Any]:
        return SheetButton(self, action, page, arg, label=label, style=style, disabled=disabled)


@dataclass(frozen=True, slots=True)
class Second:
    """A second menu open in a unit's place: its kind (support, convoy, via, move) and part."""

    key: str
    kind: str
    part: int = 0


# --- components ------------------------------------------------------------------------------------


class SheetFlows(Protocol):
    """What answers the sheet's taps: cogs.ui.sheet_flows, handed to :func:`setup_sheet` (the flows
    draw sheets with this module's components, so this module does not import them)."""

    async def open_from_button(
        self, interaction: discord.Interaction, game_id: int, phase: str, tag: str
    ) -> None: ...

    async def ready_from_button(
        self, interaction: discord.Interaction, game_id: int, phase: str, tag: str, on: bool
    ) -> None: ...

    async def picked(
        self,
        interaction: discord.Interaction,
        sheet: Sheet,
        page: int,
        key: str,
        second: Second | None,
        value: str,
    ) -> None: ...

    async def pressed(
        self, interaction: discord.Interaction, sheet: Sheet, page: int, action: str, arg: str | None
    ) -> None: ...


_answering: list[SheetFlows] = []  # the flows :func:`setup_sheet` was given


def _flows() -> SheetFlows:
    if not _answering:
        raise RuntimeError("the order sheet has no flows: setup_sheet(client, cogs.ui.sheet_flows) first")
    return _answering[-1]


class OpenSheetButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"{PREFIX}:{GAME}:(?P<phase>{PHASE}):open"
):
    """ "Order sheet" under a call to order, a reminder and /orders show: opens the tapper's own sheet."""

    def __init__(self, game_id: int, phase: str, tag: str = "") -> None:
        game = game_ref(game_id, tag)
        super().__init__(
            discord.ui.Button(
                label=OPEN_LABEL,
                emoji="📝",
                style=discord.ButtonStyle.primary,
                custom_id=f"{PREFIX}:{game}:{phase}:open",
            )
        )
        self.game_id, self.phase, self.tag = game_id, phase, tag

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> OpenSheetButton:
        return cls(int(match["game_id"]), match["phase"], match["tag"] or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await _flows().open_from_button(interaction, self.game_id, self.phase, self.tag)


class ReadyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:{GAME}:(?P<phase>{PHASE}):ready:(?P<on>[01])",
):
    """ "Ready" outside a sheet (under a call to order, /orders show, an answer that left nothing
    unordered): the tapper says they are done (or, ``on`` 0, not after all)."""

    def __init__(self, game_id: int, phase: str, tag: str = "", *, on: bool = True) -> None:
        game = game_ref(game_id, tag)
        super().__init__(
            discord.ui.Button(
                label="Ready" if on else "Not ready after all",
                emoji="✅" if on else None,
                style=discord.ButtonStyle.success if on else discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}:{game}:{phase}:ready:{1 if on else 0}",
            )
        )
        self.game_id, self.phase, self.tag, self.on = game_id, phase, tag, on

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReadyButton:
        return cls(int(match["game_id"]), match["phase"], match["tag"] or "", on=match["on"] == "1")

    async def callback(self, interaction: discord.Interaction) -> None:
        await _flows().ready_from_button(interaction, self.game_id, self.phase, self.tag, self.on)


class UnitSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"{SHEET}:u:(?P<key>[^:@]+)@(?P<page>\d+)"
):
    """A unit's (or build site's) menu on a sheet: its legal orders, the current one shown."""

    def __init__(
        self,
        sheet: Sheet,
        key: str,
        page: int,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            menu_select(sheet.custom_id(f"u:{key}@{page}"), options, placeholder, empty_value=NONE)
        )
        self.sheet, self.key, self.page = sheet, key, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> UnitSelect:
        return cls(Sheet.of(match), match["key"], page_number(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _flows().picked(interaction, self.sheet, self.page, self.key, None, picked(self.item))


class SecondSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"{SHEET}:s:(?P<key>[^:@]+):(?P<kind>support|convoy|via|move):(?P<part>\d+)@(?P<page>\d+)",
):
    """The second menu in a unit's place: whom a support or a convoy helps, or where by convoy."""

    def __init__(
        self,
        sheet: Sheet,
        second: Second,
        page: int,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str | None = None,
    ) -> None:
        custom_id = sheet.custom_id(f"s:{second.key}:{second.kind}:{second.part}@{page}")
        super().__init__(menu_select(custom_id, options, placeholder, empty_label="Back", empty_value=BACK))
        self.sheet, self.second, self.page = sheet, second, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SecondSelect:
        second = Second(match["key"], match["kind"], int(match["part"]))
        return cls(Sheet.of(match), second, page_number(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _flows().picked(
            interaction, self.sheet, self.page, self.second.key, self.second, picked(self.item)
        )


class SheetButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{SHEET}:b:(?P<action>ready|unready|hold|map|clear|waive|page|remove|keep)"
    r"(?::(?P<arg>[^@]+))?@(?P<page>\d+)",
):
    """A button of a sheet."""

    def __init__(
        self,
        sheet: Sheet,
        action: str,
        page: int,
        arg: str | None = None,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
    ) -> None:
        custom_id = sheet.custom_id(button_rest(action, arg, page))
        super().__init__(menu_button(custom_id, label=label, style=style, disabled=disabled, emoji=emoji))
        self.sheet, self.action, self.page, self.arg = sheet, action, page, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SheetButton:
        arg = button_arg(match["action"], match["arg"])  # read whole here (cogs.ui.guard)
        return cls(Sheet.of(match), match["action"], page_number(match["page"]), arg)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _flows().pressed(interaction, self.sheet, self.page, self.action, self.arg)


def setup_sheet(client: discord.Client, flows: SheetFlows) -> None:
    """Register the sheet's components with the bot, their taps answered by ``flows``."""
    _answering[:] = [flows]
    client.add_dynamic_items(OpenSheetButton, ReadyButton, UnitSelect, SecondSelect, SheetButton)


def call_buttons(game_id: int, phase: str, tag: str = "") -> discord.ui.View:
    """Under a call to order, a reminder, /orders show: "Order sheet" and "Ready"."""
    view = discord.ui.View(timeout=None)
    view.add_item(OpenSheetButton(game_id, phase, tag))
    view.add_item(ReadyButton(game_id, phase, tag))
    return view


def ready_buttons(game_id: int, phase: str, tag: str = "", *, on: bool = True) -> discord.ui.View:
    """ "Ready" alone (or "Not ready after all")."""
    view = discord.ui.View(timeout=None)
    view.add_item(ReadyButton(game_id, phase, tag, on=on))
    return view


def ready_offer(view: OrdersView) -> tuple[str, discord.ui.View] | None:
    """After orders that leave nothing unordered (and the player not ready yet): "All ordered." with
    a Ready button; None otherwise (something is missing, the player is ready, or the phase closes)."""
    if not view.powers or view.close_now or view.phase.status != "open":
        return None
    if any(p.missing for p in view.powers) or all(p.ready for p in view.powers):
        return None
    words = "**All ordered.** Tap **Ready** when you are done: the phase closes early once every player is."
    return words, ready_buttons(view.game_id, view.phase.name, view.game_tag)


__all__ = [
    "OpenSheetButton",
    "ReadyButton",
    "Second",
    "SecondSelect",
    "Sheet",
    "SheetButton",
    "SheetIds",
    "UnitSelect",
    "call_buttons",
    "ready_buttons",
    "ready_offer",
    "setup_sheet",
]
