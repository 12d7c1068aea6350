"""What a command, a button and a form have in common: the flows behind them, written once.

Each flow defers (ephemerally: the answers are private), calls gm, answers, and hands slow work (an
early close: adjudication, maps, posting) to the background so the interaction is answered at once.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, Concatenate, ParamSpec

import discord

from cogs import text
from cogs.base import services_of
from cogs.lobby import refresh_lobby
from cogs.replies import defer, report_error, send
from gm import games as gm_games
from gm import orders as gm_orders
from gm.errors import UnknownGame
from gm.orders import OrdersView
from gm.sheet import replace_orders

P = ParamSpec("P")


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


def after_orders(client: discord.Client, view: OrdersView) -> None:
    """Close the phase in the background if this change made everybody done."""
    if view.close_now:
        services = services_of(client)
        services.spawn(services.gamemaster.orders_changed(view), f"early close of phase {view.phase.id}")


async def join(interaction: discord.Interaction, game_id: int) -> None:
    services = services_of(interaction.client)
    await defer(interaction)
    async with services.sessions() as session:
        game = await gm_games.get_game(session, game_id)
        if interaction.guild_id != game.guild_id:  # never say that another server has such a game
            raise UnknownGame(
                f"There is no game {game_id} on this server.", "See /game list for the games here."
            )
    async with services.sessions() as session:
        game = await gm_games.join_game(session, game_id, interaction.user.id)
    services.spawn(refresh_lobby(interaction.client, game), f"updating game {game_id}'s Join post")
    seats = game.settings.players
    lines = [f"You joined **#{game.id} {text.safe(game.name)}** ({len(game.players)} of {seats} players)."]
    if len(game.players) == seats:
        lines.append("The game is full: its creator or a moderator can now `/game start` it.")
    else:
        lines.append("I will send you your power by direct message when the game starts.")
    await send(interaction, lines)


async def submit(
    interaction: discord.Interaction, game_id: int, orders_text: str, *, sheet_of_phase: str | None = None
) -> None:
    """Judge ``orders_text`` line by line and answer with each line's fate, what is still missing and
    the deadline. ``sheet_of_phase``: the text is the whole sheet from the /orders form of that phase
    (it replaces every earlier order); otherwise the lines add to or replace orders unit by unit."""
    services = services_of(interaction.client)
    await defer(interaction)
    user_id = interaction.user.id
    async with services.sessions() as session:
        if sheet_of_phase is None:
            report = await gm_orders.submit_orders(session, game_id, user_id, orders_text)
        elif orders_text.strip():
            report = await replace_orders(
                session, game_id, user_id, orders_text, expected_phase=sheet_of_phase
            )
        else:
            view = await gm_orders.clear_orders(session, game_id, user_id, expected_phase=sheet_of_phase)
            await send(
                interaction, ["Your form was empty, so you now have no orders.", *text.view_lines(view)]
            )
            after_orders(interaction.client, view)
            return
    await send(interaction, text.report_lines(report))
    after_orders(interaction.client, report.view)
