"""A forming game's Join post, kept live: who has joined (n of N), the Join button disabled once the
game is full or has started, and where to follow it once it runs. Edited best effort (a deleted post
or a channel the bot may no longer write in is left alone, logged). The Join button and /game join
share one flow, :func:`join`, which refreshes the post. The button is a DynamicItem (its custom_id
carries the game), so it keeps working after the bot restarts."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

import discord

from cogs.places.spaces import sees_everything
from cogs.shared import text
from cogs.shared.base import services_of
from cogs.shared.replies import answering, defer, send
from cogs.shared.settings_text import settings_lines
from cogs.ui.guard import Guarded
from gm.public import GameError, GameInfo, badge

log = logging.getLogger(__name__)

LOBBY_COLOUR = discord.Colour.from_rgb(46, 94, 140)


def lobby_embed(game: GameInfo, badges: Mapping[int, str] | None = None) -> discord.Embed:
    """The Join post; ``badges``: each player's record on the server, shown beside their name."""

    def who(user_id: int) -> str:
        badge = (badges or {}).get(user_id)
        return f"<@{user_id}> ({badge})" if badge else f"<@{user_id}>"

    seats = game.settings.players
    if game.status == "forming":
        state = (
            f"Full: {'its creator' if game.settings.anonymous else f'<@{game.creator_id}>'} or a moderator "
            "can start it with `/game start`."
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
        level = game.settings.builtin_level
        state += f" Played by the built-in player ({level}): {text.powers_text(sorted(game.built_in))}."
    hidden = game.settings.anonymous  # who plays is revealed at the end only (gm.anonymity)
    lines = [
        (
            f"Anonymous game: the players are revealed at the end. {state}"
            if hidden
            else f"Created by <@{game.creator_id}>. {state}"
        ),
        f"**Joined ({len(game.players)} of {seats})**"
        + ("" if hidden else ": " + (", ".join(who(p.user_id) for p in game.players) or "nobody yet")),
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
    """Edit the game's Join post to show the game as it is now (``game``: as a change left it). The
    post's edits go out one at a time, each drawn from the game read when it goes out, so an edit held
    back by a 429 never lands over a later one (cogs.shared.ordered.Latest)."""
    if game.lobby is None:
        return
    channel_id, message_id = game.lobby
    message = client.get_partial_messageable(channel_id).get_partial_message(message_id)
    services = services_of(client)

    async def redraw() -> None:
        try:
            now = await services.gamemaster.get_game(game.id)
        except GameError:  # gone meanwhile: as the change left it
            now = game
        badges = await lobby_badges(client, now)
        await message.edit(embed=lobby_embed(now, badges), view=lobby_view(now))

    try:
        await services.posts.refresh(message_id, redraw)
    except discord.HTTPException as exc:
        log.info("could not update the Join post of game %s: %s", game.id, exc)


SEES_ALL_NOTE = (
    "Note: as this server's owner or an administrator you can read every channel of this game, the other "
    "players' private channels and talks included; Discord lets no permission hide a channel from you. "
    "The game channel will say so at the start, so that the others know."
)


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


class JoinButton(Guarded[discord.ui.Button], template=r"join:(?P<game_id>\d+)"):
    """ "Join" under a new game's announcement."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="Join", style=discord.ButtonStyle.primary, custom_id=f"join:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def read(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["game_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answering(join)(interaction, self.game_id)


def join_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(JoinButton(game_id))
    return view
