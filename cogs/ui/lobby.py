"""A forming game's Join post, kept live: who has joined (n of N), the Join button disabled once the
game is full or has started, and where to follow it once it runs. Edited best effort (a deleted post
or a channel the bot may no longer write in is left alone, logged)."""

from __future__ import annotations

import logging
from collections.abc import Mapping

import discord

from cogs.shared import text
from cogs.shared.base import services_of
from cogs.ui.components import JoinButton
from gm.reading.info import GameInfo
from gm.rules.leaderboard import badge

log = logging.getLogger(__name__)

LOBBY_COLOUR = discord.Colour.from_rgb(46, 94, 140)


def lobby_embed(game: GameInfo, badges: Mapping[int, str] | None = None) -> discord.Embed:
    """The Join post; ``badges``: each player's record on the server, shown beside their name."""
    from cogs.commands.game import settings_lines  # the settings as /game status words them

    def who(user_id: int) -> str:
        badge = (badges or {}).get(user_id)
        return f"<@{user_id}> ({badge})" if badge else f"<@{user_id}>"

    seats = game.settings.players
    if game.status == "forming":
        state = (
            f"Full: <@{game.creator_id}> or a moderator can start it with `/game start`."
            if len(game.players) >= seats
            else f"Press **Join** or use `/game join` to play ({seats - len(game.players)} seats left)."
        )
        if game.settings.fill_seats and len(game.players) < seats:
            state += " It may start any time: the seats left go to built-in players."
    elif game.game_channel_id:
        state = f"Started: results and maps in <#{game.game_channel_id}>."
    else:
        state = "Started."
    if game.status != "forming" and game.built_in:
        state += f" Played by the built-in player: {text.powers_text(sorted(game.built_in))}."
    lines = [
        f"Created by <@{game.creator_id}>. {state}",
        f"**Joined ({len(game.players)} of {seats}):** "
        + (", ".join(who(p.user_id) for p in game.players) or "nobody yet"),
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


async def lobby_badges(client: discord.Client, game: GameInfo) -> dict[int, str]:
    """Each forming game's player's record on its server, when the bot shows them (PLAYER_RECORDS)."""
    services = services_of(client)
    if not services.player_records or game.status != "forming":
        return {}
    users = [p.user_id for p in game.players]
    found = await services.gamemaster.players_stats(game.guild_id, users)
    return {u: badge(found.get(u)) for u in users}


async def refresh_lobby(client: discord.Client, game: GameInfo) -> None:
    """Edit the game's Join post to show ``game`` as it is now."""
    if game.lobby is None:
        return
    channel_id, message_id = game.lobby
    message = client.get_partial_messageable(channel_id).get_partial_message(message_id)
    try:
        badges = await lobby_badges(client, game)
        await message.edit(embed=lobby_embed(game, badges), view=lobby_view(game))
    except discord.HTTPException as exc:
        log.info("could not update the Join post of game %s: %s", game.id, exc)
