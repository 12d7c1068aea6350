"""A sandbox's sheet (gm.sandbox): the order sheet of a game (cogs.ui.sheet_draw draws both), for one
power at a time, with a power picker and the sandbox's own buttons: **Adjudicate**, **Waive a build**
(winter), **Orders on the map**, **Step back** and **Clear** (the shown power's orders).

The sheet is an ephemeral answer, seen by its owner alone; gm refuses any other caller, so a custom
id copied or forged by someone else changes nothing. Ids carry the sandbox, its random tag, the step
(its row: a sheet of a step adjudicated or stepped back from since is refused) and the power shown::

    sb:<sandbox>.<tag>:<step>:<POWER>:u:<key>@<page>                 a unit's (build site's) menu
    sb:<sandbox>.<tag>:<step>:<POWER>:s:<key>:<kind>:<part>@<page>   its second menu
    sb:<sandbox>.<tag>:<step>:<POWER>:b:<action>[:<arg>]@<page>      a button
    sb:<sandbox>.<tag>:<step>:<POWER>:p                              the power picker
    sbx:open:<sandbox>.<tag>                                         "Open" under /sandbox list
    sbx:new:<owner>:<oldest>:<game|->:<phase|->:<variant|->:<0|1>    "Replace" (a fourth sandbox)
    sbx:keep:<owner>                                                 "Keep my sandboxes"

``POWER`` is ``-`` when no power is shown (the sandbox's game is over). Replace and Keep act only
for their ``owner``, pressed on the private question they were asked with (cogs.ui.guard.own_question):
copied onto another message, or pressed by anyone else, they change nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from cogs.shared.replies import answering
from cogs.ui.guard import own_question
from cogs.ui.ids import button_arg, button_rest, checked_id, menu_button, menu_select, page_number, picked
from cogs.ui.sheet import PHASE, Second
from cogs.ui.wording import cut

PREFIX = "sb"
BOX = r"(?P<sandbox_id>\d+)\.(?P<tag>[a-z0-9]{1,12})"
SHEET = rf"{PREFIX}:{BOX}:(?P<phase_id>\d+):(?P<power>[A-Z]{{1,20}}|-)"
ACTIONS = "adjudicate|back|map|clear|waive|page|remove|keep"
NO_POWER = "-"


@dataclass(frozen=True, slots=True)
class SandboxSheet:
    """Which sandbox, step and power a sheet shows: the start of every custom_id on it."""

    sandbox_id: int
    tag: str
    phase_id: int
    power: str | None

    @property
    def base(self) -> str:
        return f"{PREFIX}:{self.sandbox_id}.{self.tag}:{self.phase_id}:{self.power or NO_POWER}"

    def custom_id(self, rest: str) -> str:
        return checked_id(self.base, rest)

    @classmethod
    def of(cls, match: re.Match[str]) -> SandboxSheet:
        power = match["power"]
        return cls(
            int(match["sandbox_id"]),
            match["tag"],
            int(match["phase_id"]),
            None if power == NO_POWER else power,
        )

    # --- cogs.ui.sheet.SheetIds --------------------------------------------------------------------

    def unit_select(
        self, key: str, page: int, options: Sequence[discord.SelectOption], placeholder: str | None
    ) -> discord.ui.Item[Any]:
        return SandboxUnitSelect(self, key, page, options, placeholder)

    def second_select(
        self, second: Second, page: int, options: Sequence[discord.SelectOption], placeholder: str | None
    ) -> discord.ui.Item[Any]:
        return SandboxSecondSelect(self, second, page, options, placeholder)

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
        return SandboxButton(self, action, page, arg, label=label, style=style, disabled=disabled)


class SandboxFlows(Protocol):
    """What answers the sandbox sheet's taps: cogs.ui.sandbox_flows, handed to
    :func:`setup_sandbox` (the flows draw sheets with this module's components, so this module does
    not import them)."""

    async def open_from_button(self, interaction: discord.Interaction, sandbox_id: int, tag: str) -> None: ...

    async def picked(
        self,
        interaction: discord.Interaction,
        sheet: SandboxSheet,
        page: int,
        key: str,
        second: Second | None,
        value: str,
    ) -> None: ...

    async def power_picked(
        self, interaction: discord.Interaction, sheet: SandboxSheet, power: str
    ) -> None: ...

    async def pressed(
        self, interaction: discord.Interaction, sheet: SandboxSheet, page: int, action: str, arg: str | None
    ) -> None: ...

    async def replace_confirmed(self, interaction: discord.Interaction, request: NewRequest) -> None: ...


_answering: list[SandboxFlows] = []  # the flows :func:`setup_sandbox` was given


def _flows() -> SandboxFlows:
    if not _answering:
        raise RuntimeError(
            "the sandbox sheet has no flows: setup_sandbox(client, cogs.ui.sandbox_flows) first"
        )
    return _answering[-1]


class SandboxUnitSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"{SHEET}:u:(?P<key>[^:@]+)@(?P<page>\d+)"
):
    """A unit's (or build site's) menu on a sandbox's sheet."""

    def __init__(
        self,
        sheet: SandboxSheet,
        key: str,
        page: int,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str | None = None,
    ) -> None:
        super().__init__(menu_select(sheet.custom_id(f"u:{key}@{page}"), options, placeholder))
        self.sheet, self.key, self.page = sheet, key, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SandboxUnitSelect:
        return cls(SandboxSheet.of(match), match["key"], page_number(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _flows().picked(interaction, self.sheet, self.page, self.key, None, picked(self.item))


class SandboxSecondSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"{SHEET}:s:(?P<key>[^:@]+):(?P<kind>support|convoy|via|move):(?P<part>\d+)@(?P<page>\d+)",
):
    """The second menu in a unit's place on a sandbox's sheet."""

    def __init__(
        self,
        sheet: SandboxSheet,
        second: Second,
        page: int,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str | None = None,
    ) -> None:
        custom_id = sheet.custom_id(f"s:{second.key}:{second.kind}:{second.part}@{page}")
        super().__init__(menu_select(custom_id, options, placeholder))
        self.sheet, self.second, self.page = sheet, second, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SandboxSecondSelect:
        second = Second(match["key"], match["kind"], int(match["part"]))
        return cls(SandboxSheet.of(match), second, page_number(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _flows().picked(
            interaction, self.sheet, self.page, self.second.key, self.second, picked(self.item)
        )


class PowerPicker(discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"{SHEET}:p"):
    """Which power the sandbox's sheet shows: every power with something to order in the phase."""

    def __init__(
        self,
        sheet: SandboxSheet,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str | None = None,
    ) -> None:
        super().__init__(menu_select(sheet.custom_id("p"), options, placeholder))
        self.sheet = sheet

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PowerPicker:
        return cls(SandboxSheet.of(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _flows().power_picked(interaction, self.sheet, picked(self.item))


class SandboxButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{SHEET}:b:(?P<action>{ACTIONS})(?::(?P<arg>[^@]+))?@(?P<page>\d+)",
):
    """A button of a sandbox's sheet."""

    def __init__(
        self,
        sheet: SandboxSheet,
        action: str,
        page: int,
        arg: str | None = None,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
    ) -> None:
        custom_id = sheet.custom_id(button_rest(action, arg, page))
        super().__init__(menu_button(custom_id, label=label, style=style, disabled=disabled))
        self.sheet, self.action, self.page, self.arg = sheet, action, page, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SandboxButton:
        arg = button_arg(match["action"], match["arg"])  # read whole here (cogs.ui.guard)
        return cls(SandboxSheet.of(match), match["action"], page_number(match["page"]), arg)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _flows().pressed(interaction, self.sheet, self.page, self.action, self.arg)


class OpenSandboxButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"sbx:open:{BOX}"):
    """ "Open" beside a sandbox in /sandbox list: its sheet, privately."""

    def __init__(self, sandbox_id: int, tag: str, label: str = "Open") -> None:
        super().__init__(
            discord.ui.Button(
                label=cut(label, 80),
                style=discord.ButtonStyle.primary,
                custom_id=f"sbx:open:{sandbox_id}.{tag}",
            )
        )
        self.sandbox_id, self.tag = sandbox_id, tag

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> OpenSandboxButton:
        return cls(int(match["sandbox_id"]), match["tag"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _flows().open_from_button(interaction, self.sandbox_id, self.tag)


@dataclass(frozen=True, slots=True)
class NewRequest:
    """A /sandbox new that waits for its owner's confirmation (a fourth sandbox replaces ``oldest``)."""

    owner: int
    oldest: int
    game_id: int | None
    phase: str | None
    variant: str | None
    my_orders: bool

    @property
    def custom_id(self) -> str:
        game = str(self.game_id) if self.game_id is not None else "-"
        where = f"{game}:{self.phase or '-'}:{self.variant or '-'}"
        return f"sbx:new:{self.owner}:{self.oldest}:{where}:{int(self.my_orders)}"


class ReplaceButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"sbx:new:(?P<owner>\d+):(?P<oldest>\d+):(?P<game>\d+|-):(?P<phase>{PHASE}|-):(?P<variant>[a-z0-9]{{1,40}}|-)"
    r":(?P<mine>[01])",
):
    """ "Replace #N" under the question a fourth /sandbox new asks: makes the new sandbox in place of
    the one used longest ago (gm checks it is still that one and still the presser's)."""

    def __init__(self, request: NewRequest, label: str = "Replace it") -> None:
        super().__init__(
            discord.ui.Button(
                label=cut(label, 80), style=discord.ButtonStyle.danger, custom_id=request.custom_id
            )
        )
        self.request = request

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReplaceButton:
        game, phase, variant = match["game"], match["phase"], match["variant"]
        request = NewRequest(
            owner=int(match["owner"]),
            oldest=int(match["oldest"]),
            game_id=None if game == "-" else int(game),
            phase=None if phase == "-" else phase,
            variant=None if variant == "-" else variant,
            my_orders=match["mine"] == "1",
        )
        return cls(request)

    async def callback(self, interaction: discord.Interaction) -> None:
        await answering(self._confirmed)(interaction)

    async def _confirmed(self, interaction: discord.Interaction) -> None:
        own_question(interaction, self.request.owner)
        await _flows().replace_confirmed(interaction, self.request)


class KeepButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"sbx:keep:(?P<owner>\d+)"):
    """ "Keep my sandboxes": the fourth /sandbox new is dropped."""

    def __init__(self, owner: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Keep my sandboxes",
                style=discord.ButtonStyle.secondary,
                custom_id=f"sbx:keep:{owner}",
            )
        )
        self.owner = owner

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> KeepButton:
        return cls(int(match["owner"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answering(self._kept)(interaction)

    async def _kept(self, interaction: discord.Interaction) -> None:
        own_question(interaction, self.owner)
        await interaction.response.edit_message(content="Kept: no sandbox was made or deleted.", view=None)


def setup_sandbox(client: discord.Client, flows: SandboxFlows) -> None:
    """Register the sandbox sheet's components with the bot, their taps answered by ``flows``."""
    _answering[:] = [flows]
    client.add_dynamic_items(
        SandboxUnitSelect,
        SandboxSecondSelect,
        PowerPicker,
        SandboxButton,
        OpenSandboxButton,
        ReplaceButton,
        KeepButton,
    )


def replace_buttons(request: NewRequest) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ReplaceButton(request, f"Replace #{request.oldest}"))
    view.add_item(KeepButton(request.owner))
    return view


def open_buttons(sandboxes: Sequence[tuple[int, str]]) -> discord.ui.View:
    """ "Open #N" for each (id, tag)."""
    view = discord.ui.View(timeout=None)
    for sandbox_id, tag in sandboxes[:25]:
        view.add_item(OpenSandboxButton(sandbox_id, tag, f"Open #{sandbox_id}"))
    return view


__all__ = [
    "NewRequest",
    "OpenSandboxButton",
    "PowerPicker",
    "ReplaceButton",
    "SandboxButton",
    "SandboxSecondSelect",
    "SandboxSheet",
    "SandboxUnitSelect",
    "open_buttons",
    "replace_buttons",
    "setup_sandbox",
]
