"""/map and /history (``phase``, ``chart``): the board and the orders with their results, current or
past, and the supply-center chart. Public data only: gm refuses a phase's orders until the phase has
closed."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.messages.render import orders_lines
from cogs.shared import text
from cogs.shared.base import GameCog, services_of
from cogs.shared.context import Scope, any_choices, resolve_game
from cogs.shared.replies import defer, send
from gm.public import GameError, MapImage, change_lines

PHASE_OPTION = "A phase, like S1901M or F1902R (default: the latest)"


async def phase_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The phases of the game named in the game option (or implied), newest first, by name and code:
    what is typed may be either ("Fall", "1902", "S1901M")."""
    try:
        game = await resolve_game(interaction, getattr(interaction.namespace, "game", None), Scope.ANY)
        history = await services_of(interaction.client).gamemaster.phase_history(
            game.id, viewer=interaction.user.id
        )
    except GameError:
        return []
    typed = " ".join(current.split()).casefold()
    found = []
    for code in reversed(history.phases):
        shown = f"{text.long_name(code)} ({code})"  # "Fall 1901 Movement (F1901M)": typing "fall" finds it
        if typed in shown.casefold():
            found.append(app_commands.Choice(name=shown, value=code))
    return found[:25]


def results_by_power(results: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    by_power: dict[str, list[dict[str, Any]]] = {}
    for line in results.get("orders", []):
        by_power.setdefault(line["power"], []).append(line)
    return by_power


class MapCommands(GameCog):
    @app_commands.command(name="map", description="The map of a game: now, or at the start of a past phase")
    @app_commands.describe(
        phase=PHASE_OPTION,
        game="The game (leave empty if there is only one)",
        orders="Show the phase's orders and results (closed phases only)",
    )
    @app_commands.autocomplete(game=any_choices, phase=phase_choices)
    async def show_map(
        self,
        interaction: discord.Interaction,
        phase: str | None = None,
        game: str | None = None,
        orders: bool = False,
    ) -> None:
        await defer(interaction)
        chosen = await resolve_game(interaction, game, Scope.ANY)
        if orders and phase is None:  # the orders of the last phase that has closed
            phase = (await self.gamemaster.phase_history(chosen.id, viewer=interaction.user.id)).phase.name
        picture = await self.gamemaster.phase_map(
            chosen.id, phase, with_orders=orders, viewer=interaction.user.id
        )
        history = await self.gamemaster.phase_history(
            chosen.id, picture_phase(picture, phase), viewer=interaction.user.id
        )
        caption = f"**#{chosen.id} {text.safe(chosen.name)}**, {history.phase.long_name}"
        caption += ": orders and results" if orders else ""
        if picture is None:
            await send(interaction, f"{caption}: no picture of it is available.")
            return
        await send(
            interaction, caption, files=[discord.File(io.BytesIO(picture.png), filename=picture.filename)]
        )

    history_group = app_commands.Group(
        name="history", description="A game's past: a phase's orders and results, or the supply-center chart"
    )

    @history_group.command(
        name="chart", description="Every power's supply centers year by year, as a picture"
    )
    @app_commands.describe(
        game="The game (leave empty if there is only one)",
        colorblind="Colours told apart by colour-blind eyes (default: the map's usual colours)",
    )
    @app_commands.autocomplete(game=any_choices)
    async def chart(
        self, interaction: discord.Interaction, game: str | None = None, colorblind: bool = False
    ) -> None:
        await defer(interaction)
        chosen = await resolve_game(interaction, game, Scope.ANY)
        picture = await self.gamemaster.centers_chart(chosen.id, colorblind=colorblind)
        await send(
            interaction,
            f"**#{chosen.id} {text.safe(chosen.name)}**: supply centers per year, each power in its colour",
            files=[discord.File(io.BytesIO(picture.png), filename=picture.filename)],
        )

    @history_group.command(name="phase", description="A past phase's orders and results, with its map")
    @app_commands.describe(phase=PHASE_OPTION, game="The game (leave empty if there is only one)")
    @app_commands.autocomplete(game=any_choices, phase=phase_choices)
    async def history(
        self, interaction: discord.Interaction, phase: str | None = None, game: str | None = None
    ) -> None:
        await defer(interaction)
        chosen = await resolve_game(interaction, game, Scope.ANY)
        past = await self.gamemaster.phase_history(chosen.id, phase, viewer=interaction.user.id)
        header = f"**#{chosen.id} {text.safe(chosen.name)}**, {past.phase.long_name}"
        if past.results is None:
            await send(
                interaction,
                [
                    f"{header} is still open: its orders stay secret until it closes "
                    f"({text.due(past.phase.deadline)}).",
                    "Phases so far: " + ", ".join(past.phases),
                ],
            )
            return
        lines = [header, *(change_lines(past.results["changes"]) if past.results.get("changes") else [])]
        lines += orders_lines(
            past.phase.long_name, results_by_power(past.results), built_in=past.results.get("built_in") or ()
        )
        files = []
        if "orders" in past.maps:
            picture = await self.gamemaster.phase_map(
                chosen.id, past.phase.name, with_orders=True, viewer=interaction.user.id
            )
            if picture is not None:
                files.append(discord.File(io.BytesIO(picture.png), filename=picture.filename))
        await send(interaction, lines, files=files)


def picture_phase(picture: MapImage | None, asked: str | None) -> str | None:
    """The phase a map belongs to (its file is named after it), for the caption."""
    if picture is None:
        return asked
    return picture.filename.split("-", 1)[0]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(MapCommands(bot))
