"""A forming game's Join post, kept live: who has joined (n of N), the Join button disabled once the
game is full or has started, and where to follow it once it runs. Edited best effort (a deleted post
or a channel the bot may no longer write in is left alone, logged)."""

from __future__ import annotations

import logging

import discord

from cogs.shared import text
from cogs.ui.components import JoinButton
from gm.reading.info import GameInfo

log = logging.getLogger(__name__)

LOBBY_COLOUR = discord.Colour.from_rgb(46, 94, 140)


def lobby_embed(game: GameInfo) -> discord.Embed:
    from cogs.commands.game import settings_lines  # the settings as /game status words them

    seats = game.settings.players
    if game.status == "forming":
        state = (
            f"Full: <@{game.creator_id}> or a moderator can start it with `/game start`."
            if len(game.players) >= seats
            else f"Press **Join** or use `/game join` to play ({seats - len(game.players)} seats left)."
        )
    elif game.game_channel_id:
        state = f"Started: results and maps in <#{game.game_channel_id}>."
    else:
        state = "Started."
    lines = [
        f"Created by <@{game.creator_id}>. {state}",
        f"**Joined ({len(game.players)} of {seats}):** "
        + (", ".join(f"<@{p.user_id}>" for p in game.players) or "nobody yet"),
        *settings_lines(game.settings, game.variant),
    ]
    return discord.Embed(
        title=text.safe(f"New Diplomacy game: #{game.id} {game.name}", limit=256),
        description="\n".join(lines),
        colour=LOBBY_COLOUR,
    )


def lobby_view(game: GameInfo) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    button = JoinButton(game.id)
    button.item.disabled = game.status != "forming" or len(game.players) >= game.settings.players
    view.add_item(button)
    return view


async def refresh_lobby(client: discord.Client, game: GameInfo) -> None:
    """Edit the game's Join post to show ``game`` as it is now."""
    if game.lobby is None:
        return
    channel_id, message_id = game.lobby
    message = client.get_partial_messageable(channel_id).get_partial_message(message_id)
    try:
        await message.edit(embed=lobby_embed(game), view=lobby_view(game))
    except discord.HTTPException as exc:
        log.info("could not update the Join post of game %s: %s", game.id, exc)
