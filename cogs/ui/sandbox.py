"""A sandbox's sheet (gm.sandbox): the order sheet of a game, for one power at a time, with a power
picker and the sandbox's own buttons: **Adjudicate**, **Waive a build** (winter), **Orders on the
map**, **Step back** and **Clear** (the shown power's orders). Its units' menus and buttons are the
game sheet's components (cogs.ui.sheet: one family, whose ids' prefix ``sb`` sends their taps to
cogs.ui.sandbox_flows); this module has the power picker and the buttons around the sandboxes.

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
from typing import Any, Protocol, Self

import discord

from cogs.ui.guard import Guarded, own_question
from cogs.ui.ids import picked
from cogs.ui.sheet import (
    BOX,
    ITEMS,
    NO_MENU,
    PHASE,
    SANDBOX_PREFIX,
    Action,
    Menu,
    SandboxSheet,
    Second,
    SheetFlows,
    SheetSelect,
    answer_with,
    flows_of,
)
from cogs.ui.wording import cut


class SandboxFlows(SheetFlows[SandboxSheet], Protocol):
    """What answers a sandbox's sheet: cogs.ui.sandbox_flows, handed to :func:`setup_sandbox` and kept
    in the bot's services (the flows draw sheets with this module's components, so this module does
    not import them): the taps on its units and buttons (cogs.ui.sheet's items), and these."""

    async def open_from_button(self, interaction: discord.Interaction, sandbox_id: int, tag: str) -> None: ...

    async def power_picked(
        self, interaction: discord.Interaction, sheet: SandboxSheet, power: str
    ) -> None: ...

    async def replace_confirmed(self, interaction: discord.Interaction, request: NewRequest) -> None: ...


def _flows(interaction: discord.Interaction) -> SandboxFlows:
    flows: SandboxFlows = flows_of(interaction, SANDBOX_PREFIX)
    return flows


class PowerPicker(
    SheetSelect, template=rf"{SANDBOX_PREFIX}:{BOX}:(?P<phase_id>\d+):(?P<power>[A-Z]{{1,20}}|-):p"
):
    """Which power the sandbox's sheet shows: every power with something to order in the phase."""

    def __init__(self, sheet: SandboxSheet, menu: Menu = NO_MENU) -> None:
        super().__init__(sheet, "p", menu)
        self.sheet: SandboxSheet = sheet

    @classmethod
    async def read(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(SandboxSheet.of(match))

    async def answer(self, interaction: discord.Interaction) -> None:
        await _flows(interaction).power_picked(interaction, self.sheet, picked(self.item))


class OpenSandboxButton(Guarded[discord.ui.Button[Any]], template=rf"sbx:open:{BOX}"):
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
    async def read(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> OpenSandboxButton:
        return cls(int(match["sandbox_id"]), match["box_tag"])

    async def answer(self, interaction: discord.Interaction) -> None:
        await _flows(interaction).open_from_button(interaction, self.sandbox_id, self.tag)


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
    Guarded[discord.ui.Button[Any]],
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
    async def read(
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

    async def answer(self, interaction: discord.Interaction) -> None:
        own_question(interaction, self.request.owner)
        await _flows(interaction).replace_confirmed(interaction, self.request)


class KeepButton(Guarded[discord.ui.Button[Any]], template=r"sbx:keep:(?P<owner>\d+)"):
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
    async def read(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> KeepButton:
        return cls(int(match["owner"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        own_question(interaction, self.owner)
        await interaction.response.edit_message(content="Kept: no sandbox was made or deleted.", view=None)


def setup_sandbox(client: discord.Client, flows: SandboxFlows) -> None:
    """Register the sandbox sheet's components with the bot, their taps answered by ``flows`` (the
    units' menus and buttons are the game sheet's: registered by whichever setup comes first)."""
    answer_with(client, SANDBOX_PREFIX, flows)
    client.add_dynamic_items(*ITEMS, PowerPicker, OpenSandboxButton, ReplaceButton, KeepButton)


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
    "Action",
    "NewRequest",
    "OpenSandboxButton",
    "PowerPicker",
    "ReplaceButton",
    "SandboxSheet",
    "Second",
    "open_buttons",
    "replace_buttons",
    "setup_sandbox",
]
