"""The step-by-step order builder's ways in, now the order sheet's (cogs.ui.sheet).

The builder walked a player through one order at a time (a unit, what it does, where, whom it
helps, "by land or by convoy?"); the sheet does every order it did in fewer taps, so the builder is
gone and its ways in lead to the sheet: ``/orders build`` opens it (cogs.commands.orders), and the
builder's buttons and menus already posted in Discord (under calls to order made before the sheet,
in old private builders) answer the tapper with their own order sheet of the game's current phase,
saying the menu they tapped is old. Their ids::

    tap:<game>[.<tag>]:<phase>:open                       "Order by tap" under an old call to order
    tap:<game>.<tag>:<phase>:<user>:<anything>            a step of an old builder

A tap names no one but the tapper: it opens the tapper's own sheet, whoever's builder it was (gm
refuses someone who plays no power there), and changes nothing. A builder of another database's
game with that number (its tag differs) is refused, as gm refuses any tap of that game's.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from cogs.ui.guard import Guarded
from cogs.ui.sheet import GAME, PHASE
from cogs.ui.sheet_flows import open_sheet
from gm.public import MeantFor

PREFIX = "tap"
OLD_MENU = (
    "**That order builder is old:** here is your order sheet, which gives every order it did "
    "(each unit's menu lists its legal orders)."
)


class OldBuilderItem(
    Guarded[discord.ui.Button[Any]],
    template=rf"{PREFIX}:{GAME}:(?P<phase>{PHASE})(?::[^\n]{{1,80}})?",
):
    """Any button or menu of the old builder (Discord sends its id back): the tapper's own sheet."""

    def __init__(self, item: discord.ui.Item[Any], game_id: int, tag: str) -> None:
        # why the ignore below: DynamicItem is typed for its Button; an old builder's menu is a Select
        super().__init__(item)  # type: ignore[arg-type]
        self.game_id, self.tag = game_id, tag

    @classmethod
    async def read(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(item, int(match["game_id"]), match["tag"] or "")

    async def answer(self, interaction: discord.Interaction) -> None:
        await open_sheet(
            interaction, self.game_id, meant_for=MeantFor(tag=self.tag or None), notice=[OLD_MENU]
        )


def setup_builder(client: discord.Client) -> None:
    """The old builder's ids answered (its buttons and menus posted by earlier versions)."""
    client.add_dynamic_items(OldBuilderItem)


__all__ = ["OLD_MENU", "OldBuilderItem", "setup_builder"]
