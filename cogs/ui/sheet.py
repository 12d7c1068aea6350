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
cogs.ui.sheet_draw draws it and cogs.ui.sheet_flows answers its taps (given to :func:`setup_sheet`,
kept in the bot's services: the flows import this module, never the other way round). Each tap
re-reads gm's menu and redraws the sheet; a chosen order goes to gm as its canonical text through
the typed orders' path (``submit_chosen_order`` with the sheet's phase and game tag), and its
acknowledgement shows at the top of the sheet.

A sandbox's sheet (cogs.ui.sandbox) is the same sheet: the same components, whose custom_id starts
with ``sb`` and names the sandbox, its step and the power shown instead (see :class:`SandboxSheet`);
its taps go to cogs.ui.sandbox_flows. Each component finds what answers it through the bot's services
(``Services.sheets``, by the id's prefix), and refuses, in its ``check``, a tap by anyone but the
sheet's player (cogs.ui.guard.Guarded, discord.py's ``interaction_check``).

Every component is a DynamicItem whose custom_id carries the state, so a sheet works after a
restart::

    sh:<game>[.<tag>]:<phase>:open                         "Order sheet": opens one (anyone's own)
    sh:<game>[.<tag>]:<phase>:ready:<1|0>                  "Ready" outside a sheet (anyone's own)
    sh:<game>.<tag>:<phase>:<user>:u:<key>@<page>          a unit's (build site's) menu
    sh:<game>.<tag>:<phase>:<user>:s:<key>:<kind>:<part>@<page>   its second menu (support, convoy...)
    sh:<game>.<tag>:<phase>:<user>:b:<action>[:<key>]@<page>      a button (ready, hold, map, clear,
                                                                  waive, page, remove, keep)
    sb:<sandbox>.<tag>:<step>:<POWER>:u|s|b:...                   the same on a sandbox's sheet

``key`` is the unit's location as the engine writes it (``PAR``, ``STP/SC``) or a build site's
province; ``tag`` the game's random tag, so a sheet left from another database's game with this
number is refused, as is a sheet of a phase that has closed and a tap by anyone but ``user``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Protocol, Self, TypeVar

import discord

from cogs.shared.base import services_of
from cogs.ui.guard import NEVER, Guarded
from cogs.ui.ids import (
    button_arg,
    button_rest,
    checked_id,
    game_ref,
    menu_button,
    menu_select,
    page_number,
    picked,
)
from gm.public import GameError, OrderKind, OrdersView

PREFIX = "sh"
SANDBOX_PREFIX = "sb"
PHASE = r"[SFW]\d{4}[MRA]"
GAME = r"(?P<game_id>\d+)(?:\.(?P<tag>[a-z0-9]{1,12}))?"
BOX = r"(?P<sandbox_id>\d+)\.(?P<box_tag>[a-z0-9]{1,12})"
SHEET = (  # the start of a sheet's ids: a game's, or a sandbox's
    rf"(?:{PREFIX}:{GAME}:(?P<phase>{PHASE}):(?P<user_id>\d+)"
    rf"|{SANDBOX_PREFIX}:{BOX}:(?P<phase_id>\d+):(?P<power>[A-Z]{{1,20}}|-))"
)
NO_POWER = "-"
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


class Action(StrEnum):
    """What a sheet's button does (the ``b:<action>`` of its id)."""

    READY = "ready"
    UNREADY = "unready"
    HOLD = "hold"
    MAP = "map"
    CLEAR = "clear"
    WAIVE = "waive"
    PAGE = "page"
    REMOVE = "remove"
    KEEP = "keep"
    ADJUDICATE = "adjudicate"  # a sandbox's
    BACK = "back"  # a sandbox's: step back


GAME_ACTIONS = frozenset(Action) - {Action.ADJUDICATE, Action.BACK}
SANDBOX_ACTIONS = frozenset(Action) - {Action.READY, Action.UNREADY, Action.HOLD}


class NotYourSheet(GameError):
    """A tap on a sheet someone else opened."""


@dataclass(frozen=True, slots=True)
class Second:
    """A second menu open in a unit's place: its kind (support, convoy, via, move) and part."""

    key: str
    kind: str
    part: int = 0


class Components:
    """The components of a sheet, each with a custom_id its taps come back with (cogs.ui.sheet_draw
    draws a game's sheet and a sandbox's through these)."""

    __slots__ = ()
    prefix: ClassVar[str]
    actions: ClassVar[frozenset[Action]]

    @property
    def base(self) -> str:
        """The start of every custom_id on the sheet."""
        raise NotImplementedError

    def custom_id(self, rest: str) -> str:
        return checked_id(self.base, rest)

    def check(self, interaction: discord.Interaction) -> None:
        """Refuse a tap by anyone the sheet is not for (GameError)."""

    def unit_select(
        self, key: str, page: int, options: Sequence[discord.SelectOption], placeholder: str | None
    ) -> discord.ui.Item[Any]:
        return UnitSelect(self, key, page, (options, placeholder))

    def second_select(
        self, second: Second, page: int, options: Sequence[discord.SelectOption], placeholder: str | None
    ) -> discord.ui.Item[Any]:
        return SecondSelect(self, second, page, (options, placeholder))

    def button(
        self,
        action: Action,
        page: int,
        arg: str | None = None,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
    ) -> discord.ui.Item[Any]:
        return SheetButton(self, action, page, arg, label=label, style=style, disabled=disabled)


SheetIds = Components  # what cogs.ui.sheet_draw draws with


@dataclass(frozen=True, slots=True)
class Sheet(Components):
    """A game's sheet: whose, for which game and phase (``tag``: the game's random tag, gm's
    ``OrderMenu.game_tag``: a tap is refused if the game with this number is another database's)."""

    prefix: ClassVar[str] = PREFIX
    actions: ClassVar[frozenset[Action]] = GAME_ACTIONS

    game_id: int
    phase: str
    user_id: int
    tag: str = ""

    @property
    def base(self) -> str:
        return f"{self.prefix}:{game_ref(self.game_id, self.tag)}:{self.phase}:{self.user_id}"

    @classmethod
    def of(cls, match: re.Match[str]) -> Sheet:
        return cls(int(match["game_id"]), match["phase"], int(match["user_id"]), match["tag"] or "")

    def check(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.user_id:
            raise NotYourSheet(
                "This order sheet belongs to another player, so it cannot order for you. Nothing was "
                "changed.",
                "Open your own with /orders sheet.",
            )


@dataclass(frozen=True, slots=True)
class SandboxSheet(Components):
    """A sandbox's sheet: which sandbox, step and power it shows. Its owner alone sees it (an
    ephemeral answer); gm refuses anyone else, so the sheet checks no one itself."""

    prefix: ClassVar[str] = SANDBOX_PREFIX
    actions: ClassVar[frozenset[Action]] = SANDBOX_ACTIONS

    sandbox_id: int
    tag: str
    phase_id: int
    power: str | None

    @property
    def base(self) -> str:
        return f"{self.prefix}:{self.sandbox_id}.{self.tag}:{self.phase_id}:{self.power or NO_POWER}"

    @classmethod
    def of(cls, match: re.Match[str]) -> SandboxSheet:
        power = match["power"]
        return cls(
            int(match["sandbox_id"]),
            match["box_tag"],
            int(match["phase_id"]),
            None if power == NO_POWER else power,
        )


def sheet_of(match: re.Match[str]) -> Sheet | SandboxSheet:
    """The sheet a :data:`SHEET` match names."""
    return Sheet.of(match) if match["game_id"] is not None else SandboxSheet.of(match)


# --- what answers the taps -------------------------------------------------------------------------

S = TypeVar("S", bound=Components, contravariant=True)


class SheetFlows(Protocol[S]):
    """What answers the taps on the units and buttons of one kind of sheet: cogs.ui.sheet_flows (a
    game's), cogs.ui.sandbox_flows (a sandbox's), kept in the bot's services by :func:`answer_with`
    (the flows draw sheets with this module's components, so this module does not import them)."""

    async def picked(
        self,
        interaction: discord.Interaction,
        sheet: S,
        page: int,
        key: str,
        second: Second | None,
        value: str,
    ) -> None: ...

    async def pressed(
        self, interaction: discord.Interaction, sheet: S, page: int, action: Action, arg: str | None
    ) -> None: ...


class GameSheetFlows(SheetFlows[Sheet], Protocol):
    """A game's flows also open a sheet and say Ready from the buttons under a call to order."""

    async def open_from_button(
        self, interaction: discord.Interaction, game_id: int, phase: str, tag: str
    ) -> None: ...

    async def ready_from_button(
        self, interaction: discord.Interaction, game_id: int, phase: str, tag: str, on: bool
    ) -> None: ...


def answer_with(client: discord.Client, prefix: str, flows: Any) -> None:
    """The taps on sheets whose ids start with ``prefix`` go to ``flows`` (the bot's services)."""
    services_of(client).sheets[prefix] = flows


def flows_of(interaction: discord.Interaction, prefix: str) -> Any:
    """What answers the taps on sheets of ``prefix`` (:func:`answer_with`)."""
    flows = services_of(interaction.client).sheets.get(prefix)
    if flows is None:
        raise RuntimeError(f"no flows answer the sheets {prefix!r}: setup_sheet / setup_sandbox first")
    return flows


def game_flows(interaction: discord.Interaction) -> GameSheetFlows:
    flows: GameSheetFlows = flows_of(interaction, PREFIX)
    return flows


# --- components ------------------------------------------------------------------------------------

I = TypeVar("I", bound=discord.ui.Item[Any])  # noqa: E741


class SheetItem(Guarded[I], template=NEVER):
    """A component on a sheet (a game's or a sandbox's): refuses a tap by anyone the sheet is not for
    before anything is read (discord.py's interaction_check, cogs.ui.guard)."""

    sheet: Components

    def check(self, interaction: discord.Interaction) -> None:
        self.sheet.check(interaction)

    def flows(self, interaction: discord.Interaction) -> Any:
        return flows_of(interaction, self.sheet.prefix)


class OpenSheetButton(Guarded[discord.ui.Button[Any]], template=rf"{PREFIX}:{GAME}:(?P<phase>{PHASE}):open"):
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
    async def read(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["game_id"]), match["phase"], match["tag"] or "")

    async def answer(self, interaction: discord.Interaction) -> None:
        await game_flows(interaction).open_from_button(interaction, self.game_id, self.phase, self.tag)


class ReadyButton(
    Guarded[discord.ui.Button[Any]],
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
    async def read(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["game_id"]), match["phase"], match["tag"] or "", on=match["on"] == "1")

    async def answer(self, interaction: discord.Interaction) -> None:
        await game_flows(interaction).ready_from_button(
            interaction, self.game_id, self.phase, self.tag, self.on
        )


class SheetSelect(SheetItem[discord.ui.Select[Any]], template=NEVER):
    """A menu on a sheet, its id ``<sheet>:<rest>`` (one option when there are none: Discord refuses
    an empty select)."""

    def __init__(
        self, sheet: Any, rest: str, menu: Menu, *, empty_label: str = "-", empty_value: str = NONE
    ) -> None:
        options, placeholder = menu
        custom_id = sheet.custom_id(rest)
        super().__init__(
            menu_select(custom_id, options, placeholder, empty_label=empty_label, empty_value=empty_value)
        )
        self.sheet = sheet


Menu = tuple[Sequence[discord.SelectOption], str | None]
"""A menu's options and its placeholder."""
NO_MENU: Menu = ((), None)  # what a menu read back from a tap carries: its value is what counts


class UnitSelect(SheetSelect, template=rf"{SHEET}:u:(?P<key>[^:@]+)@(?P<page>\d+)"):
    """A unit's (or build site's) menu on a sheet: its legal orders, the current one shown."""

    def __init__(self, sheet: Components, key: str, page: int, menu: Menu = NO_MENU) -> None:
        super().__init__(sheet, f"u:{key}@{page}", menu)
        self.key, self.page = key, page

    @classmethod
    async def read(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(sheet_of(match), match["key"], page_number(match["page"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        value = picked(self.item)
        await self.flows(interaction).picked(interaction, self.sheet, self.page, self.key, None, value)


class SecondSelect(
    SheetSelect,
    template=rf"{SHEET}:s:(?P<key>[^:@]+):(?P<kind>support|convoy|via|move):(?P<part>\d+)@(?P<page>\d+)",
):
    """The second menu in a unit's place: whom a support or a convoy helps, or where by convoy."""

    def __init__(self, sheet: Components, second: Second, page: int, menu: Menu = NO_MENU) -> None:
        rest = f"s:{second.key}:{second.kind}:{second.part}@{page}"
        super().__init__(sheet, rest, menu, empty_label="Back", empty_value=BACK)
        self.second, self.page = second, page

    @classmethod
    async def read(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        second = Second(match["key"], match["kind"], int(match["part"]))
        return cls(sheet_of(match), second, page_number(match["page"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        second, value = self.second, picked(self.item)
        await self.flows(interaction).picked(interaction, self.sheet, self.page, second.key, second, value)


class SheetButton(
    SheetItem[discord.ui.Button[Any]],
    template=rf"{SHEET}:b:(?P<action>{'|'.join(Action)})(?::(?P<arg>[^@]+))?@(?P<page>\d+)",
):
    """A button of a sheet."""

    def __init__(
        self,
        sheet: Components,
        action: Action,
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
    async def read(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        sheet, action = sheet_of(match), Action(match["action"])
        if action not in sheet.actions:
            raise ValueError(f"{action} is not a button of a {sheet.prefix} sheet")
        arg = button_arg(action, match["arg"])  # read whole here (cogs.ui.guard)
        return cls(sheet, action, page_number(match["page"]), arg)

    async def answer(self, interaction: discord.Interaction) -> None:
        await self.flows(interaction).pressed(interaction, self.sheet, self.page, self.action, self.arg)


ITEMS = (UnitSelect, SecondSelect, SheetButton)  # the sheet's own, a game's and a sandbox's alike


def setup_sheet(client: discord.Client, flows: GameSheetFlows) -> None:
    """Register the sheet's components with the bot, the game sheets' taps answered by ``flows``."""
    answer_with(client, PREFIX, flows)
    client.add_dynamic_items(OpenSheetButton, ReadyButton, *ITEMS)


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
    "Action",
    "NotYourSheet",
    "OpenSheetButton",
    "ReadyButton",
    "SandboxSheet",
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
