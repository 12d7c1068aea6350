"""What a command, a button and a form have in common: the flows behind them, written once.

Each flow defers (ephemerally: the answers are private), calls gm, answers, and hands slow work (an
early close: adjudication, maps, posting) to the background so the interaction is answered at once.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, Concatenate, ParamSpec

import discord

from cogs.places.spaces import sees_everything
from cogs.shared import text
from cogs.shared.base import services_of
from cogs.shared.replies import defer, report_error, send
from cogs.ui.lobby import refresh_lobby
from cogs.ui.sheet import ready_offer

P = ParamSpec("P")

SEES_ALL_NOTE = (
    "Note: as this server's owner or an administrator you can read every channel of this game, the other "
    "players' private channels and talks included; Discord lets no permission hide a channel from you. "
    "The game channel will say so at the start, so that the others know."
)


def answering(
    func: Callable[Concatenate[discord.Interaction, P], Awaitable[Any]],
) -> Callable[Concatenate[discord.Interaction, P], Awaitable[None]]:
    """For buttons and forms (which the command tree's error handler does not cover): every error
    becomes an answer to the user."""

    @functools.wraps(func)
    async def wrapper(interaction: discord.Interaction, *args: P.args, **kwargs: P.kwargs) -> None:
        try:
            await func(interaction, *args, **kwargs)
        except Exception as exc:
            await report_error(interaction, exc)

    return wrapper


async def join(interaction: discord.Interaction, game_id: int) -> None:
    services = services_of(interaction.client)
    await defer(interaction)
    pressed = interaction.message.id if interaction.message is not None else None  # None: /game join
    unhidden = sees_everything(interaction.user)
    game = await services.gamemaster.join_game(
        game_id, interaction.user.id, guild_id=interaction.guild_id, from_post=pressed, sees_all=unhidden
    )
    services.spawn(refresh_lobby(interaction.client, game), f"updating game {game_id}'s Join post")
    seats = game.settings.players
    lines = [f"You joined **#{game.id} {text.safe(game.name)}** ({len(game.players)} of {seats} players)."]
    if len(game.players) == seats:
        lines.append("The game is full: its creator or a moderator can now `/game start` it.")
    else:
        lines.append("I will send you your power by direct message when the game starts.")
    if unhidden:
        lines.append(SEES_ALL_NOTE)
    await send(interaction, lines)


async def submit(
    interaction: discord.Interaction, game_id: int, orders_text: str, *, sheet_of_phase: str | None = None
) -> None:
    """Judge ``orders_text`` line by line and answer with each line's fate, what is still missing and
    the deadline. ``sheet_of_phase``: the text is the whole sheet from the /orders form of that phase
    (it replaces every earlier order); otherwise the lines add to or replace orders unit by unit."""
    gamemaster = services_of(interaction.client).gamemaster
    await defer(interaction)
    user_id = interaction.user.id
    if sheet_of_phase is None:
        report = await gamemaster.submit_orders(game_id, user_id, orders_text)
    elif orders_text.strip():
        report = await gamemaster.replace_orders(game_id, user_id, orders_text, expected_phase=sheet_of_phase)
    else:
        view = await gamemaster.clear_orders(game_id, user_id, expected_phase=sheet_of_phase)
        await send(interaction, ["Your form was empty, so you now have no orders.", *text.view_lines(view)])
        return
    lines = text.report_lines(report)
    offer = ready_offer(report.view)
    if offer is None:
        await send(interaction, lines)
        return
    await send(interaction, [*lines, "", offer[0]], view=offer[1])
