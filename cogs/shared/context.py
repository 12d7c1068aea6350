"""Which game an interaction is about, who may manage it, and the ``game`` option's autocomplete.

The ``game`` option is optional everywhere: it is implied by the channel (a game's own channels) or,
when the user has only one game that fits, by that. Otherwise the answer lists the candidates.
"""

from __future__ import annotations

import enum

import discord
from discord import app_commands

from cogs.shared.base import services_of
from cogs.shared.text import safe
from gm.public import RUNNING_STATES, GameError, GameInfo, UnknownGame, UnknownVariant, get_variant, name_key

MAX_CHOICES = 25


class Scope(enum.Enum):
    PLAYING = "a running game you play in"
    MINE = "a game you have joined"
    JOINABLE = "a game on this server waiting for players"
    FORMING = "a game on this server that has not started"
    ANY = "a game"


class WrongPlace(GameError):
    """A command used where it cannot work (a DM instead of a server, another server)."""


def require_guild(interaction: discord.Interaction, what: str) -> int:
    if interaction.guild_id is None:
        raise WrongPlace(
            f"{what} works in a server channel, not in direct messages.",
            "Run it in a channel of the server where you play.",
        )
    return interaction.guild_id


async def candidates(interaction: discord.Interaction, scope: Scope) -> list[GameInfo]:
    """The games that fit ``scope`` for this user in this place, oldest first."""
    gamemaster = services_of(interaction.client).gamemaster
    user_id, guild_id = interaction.user.id, interaction.guild_id
    if scope is Scope.PLAYING:
        games = await gamemaster.games_of_user(user_id)
        return [g for g in games if g.status in RUNNING_STATES]
    if scope is Scope.MINE:
        return await gamemaster.games_of_user(user_id)
    if scope is Scope.ANY:
        mine = await gamemaster.games_of_user(user_id)
        here = await gamemaster.list_games(guild_id) if guild_id is not None else []
        seen = {g.id for g in mine}
        found = sorted(mine + [g for g in here if g.id not in seen], key=lambda g: g.id)
        if not found:  # the game just ended: /game status or /map right after means that one
            ended = await gamemaster.games_of_user(user_id, include_ended=True)
            found = [g for g in ended if g.guild_id == guild_id or guild_id is None][-1:]
        return found
    if guild_id is None:
        return []
    forming = [g for g in await gamemaster.list_games(guild_id) if g.status == "forming"]
    if scope is Scope.JOINABLE:
        return [g for g in forming if all(p.user_id != user_id for p in g.players)]
    return forming


async def resolve_game(interaction: discord.Interaction, option: str | None, scope: Scope) -> GameInfo:
    """The game the user means: the ``game`` option (number or name), else the channel's game, else
    the only candidate. Raises a GameError that lists the candidates when it is ambiguous."""
    services = services_of(interaction.client)
    if option is not None and option.strip():
        return await _by_option(interaction, option.strip(), scope)
    found = await candidates(interaction, scope)
    if interaction.channel_id is not None and interaction.guild_id is not None:
        here = await services.gamemaster.game_of_channel(interaction.channel_id)
        match = next((g for g in found if g.id == here), None)
        if match is not None:
            return match
    if len(found) == 1:
        return found[0]
    if not found:
        raise UnknownGame(*_none_text(scope))
    listing = ", ".join(f"#{g.id} {g.name}" for g in found[:10])
    raise UnknownGame(
        f"You have {len(found)} games to choose from here: {listing}.",
        "Say which one with the game option (start typing and pick it from the list).",
    )


def game_number(option: str | None) -> int | None:
    """The game number a ``game`` option names (``12``, ``#12 Friday``, as autocomplete fills it), or
    None (empty, or a name)."""
    number = (option or "").strip().removeprefix("#").split(" ", 1)[0]
    return int(number) if number.isascii() and number.isdigit() else None


async def _by_option(interaction: discord.Interaction, option: str, scope: Scope) -> GameInfo:
    services = services_of(interaction.client)
    number = game_number(option)
    if number is not None:
        game = await services.gamemaster.get_game(number)
    else:
        wanted = name_key(option)  # as gm compares names: what looks alike is alike
        matches = [g for g in await candidates(interaction, scope) if name_key(g.name) == wanted]
        if not matches and interaction.guild_id is not None:
            matches = [
                g
                for g in await services.gamemaster.list_games(interaction.guild_id, include_ended=True)
                if name_key(g.name) == wanted
            ]
        if not matches:
            raise UnknownGame(
                f"I know no game called {option!r}.", "Pick one from the list the game option offers."
            )
        game = matches[-1]
    if scope in (Scope.JOINABLE, Scope.FORMING) and game.guild_id != interaction.guild_id:
        raise _no_such_game(interaction, option)  # joining and setting up happen on the game's server
    if game.guild_id != interaction.guild_id and not _takes_part(game, interaction.user.id):
        raise _no_such_game(interaction, option)
    return game


def _takes_part(game: GameInfo, user_id: int) -> bool:
    """A player of the game (now, or until they left) or its creator: they may look at it from
    anywhere (their DMs, another server); everybody else only from the game's own server."""
    return (
        user_id == game.creator_id
        or any(p.user_id == user_id for p in game.players)
        or (user_id in game.powers.values())
    )


def _no_such_game(interaction: discord.Interaction, option: str) -> UnknownGame:
    """The refusal for a game of another server: it does not say whether such a game exists."""
    shown = safe(option, limit=40)
    if interaction.guild_id is None:
        return UnknownGame(
            f"You play in no game {shown}.", "See /game list for your games, or ask in the game's server."
        )
    return UnknownGame(f"There is no game {shown} on this server.", "See /game list for the games here.")


def _none_text(scope: Scope) -> tuple[str, str]:
    if scope is Scope.PLAYING:
        return (
            "You are not playing in any running game.",
            "Join one with /game join before it starts, or create one with /game create.",
        )
    if scope is Scope.MINE:
        return ("You have not joined any game.", "Join one with /game join, or create one with /game create.")
    if scope is Scope.JOINABLE:
        return ("No game on this server is waiting for players.", "Create one with /game create.")
    if scope is Scope.FORMING:
        return ("No game on this server is waiting to start.", "Create one with /game create.")
    return ("You have no game here.", "See /game list, or create one with /game create.")


async def game_choices(
    interaction: discord.Interaction, current: str, scope: Scope
) -> list[app_commands.Choice[str]]:
    """Autocomplete for a ``game`` option: the candidates whose number or name match what is typed."""
    typed = current.strip().removeprefix("#").casefold()
    choices = []
    for game in await candidates(interaction, scope):
        label = f"#{game.id} {game.name}"
        if game.phase is not None and game.status in RUNNING_STATES:
            label += f" ({game.phase.long_name})"
        elif game.status == "forming":
            label += f" ({len(game.players)}/{game.settings.players} players)"
        if typed and typed not in label.casefold():
            continue
        choices.append(app_commands.Choice(name=label[:100], value=str(game.id)))
    return choices[:MAX_CHOICES]


async def playing_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return await game_choices(interaction, current, Scope.PLAYING)


async def my_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return await game_choices(interaction, current, Scope.MINE)


async def any_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return await game_choices(interaction, current, Scope.ANY)


async def joinable_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return await game_choices(interaction, current, Scope.JOINABLE)


async def forming_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return await game_choices(interaction, current, Scope.FORMING)


# --- who may do what ------------------------------------------------------------------------------


async def is_server_moderator(client: discord.Client, user_id: int, guild_id: int) -> bool:
    """Manage Server, Administrator, or the moderator role (by name, from the settings)."""
    guild = client.get_guild(guild_id)
    if guild is None:
        return False
    member = guild.get_member(user_id)
    if member is None:
        try:
            member = await guild.fetch_member(user_id)
        except discord.HTTPException:
            return False
    if guild.owner_id == user_id:
        return True
    permissions = member.guild_permissions
    if permissions.administrator or permissions.manage_guild:
        return True
    role_name = services_of(client).moderator_role
    return any(role.name == role_name for role in member.roles)


async def may_manage(client: discord.Client, user_id: int, game: GameInfo) -> bool:
    """The game's creator or a moderator of its server."""
    return user_id == game.creator_id or await is_server_moderator(client, user_id, game.guild_id)


async def power_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a ``power`` option: the powers of the game the command is about (its ``game``
    option, the channel's game, or the user's only game), from its variant; none when it is unclear."""
    option = getattr(interaction.namespace, "game", None)
    try:
        game = await resolve_game(interaction, str(option) if option else None, Scope.ANY)
        variant = get_variant(game.variant)
    except (GameError, UnknownVariant):
        return []
    typed = current.strip().casefold()
    found = [
        app_commands.Choice(name=variant.power_name(code)[:100], value=code)
        for code in variant.game_map().powers
        if not typed or typed in code.casefold() or typed in variant.power_name(code).casefold()
    ]
    return found[:MAX_CHOICES]


def name_of(game: GameInfo) -> str:
    return f"#{game.id} {safe(game.name)}"
