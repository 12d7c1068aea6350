"""/game create|join|leave|start|status|list|settings: setting games up and looking at them."""

from __future__ import annotations

import gzip
import io
import json
import logging
import re
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.messages.sender import MAX_ALERTED
from cogs.places.members import member_of
from cogs.places.spaces import (
    DiscordPlaces,
    SpacesFailed,
    missing_permissions,
    moderator_role,
    sees_everything,
)
from cogs.shared import text
from cogs.shared.base import GameCog, services_of
from cogs.shared.context import (
    Scope,
    any_choices,
    forming_choices,
    is_server_moderator,
    joinable_choices,
    my_choices,
    require_guild,
    resolve_game,
)
from cogs.shared.replies import defer, send
from cogs.shared.setting_options import with_create_options, with_setting_options
from cogs.shared.settings_text import settings_lines, variant_line
from cogs.ui.leave import leave_buttons, leave_question, setup_leave
from cogs.ui.lobby import JoinButton, join, lobby_badges, lobby_embed, lobby_view, refresh_lobby
from gm.public import (
    MAX_PAIR_PRESS_PLAYERS,
    RUNNING_STATES,
    STANDARD,
    GameInfo,
    GameStatusView,
    LogLine,
    PowerStatus,
    UnknownGame,
    UnknownVariant,
    Variant,
    all_variants,
    get_variant,
    option_changes,
    variant_for_players,
)

log = logging.getLogger(__name__)

UPLOAD_LIMIT = 10 * 1024 * 1024  # Discord's per-file limit on an unboosted server
MODERATION_BUDGET = 1500  # characters of /game status given to the moderation log
MODERATION_FETCHED = 100  # log entries read for it
RECENT_FINISHED = 5  # finished games /game list shows
ENDED = ("finished", "cancelled")


def variant_choice_name(variant: Variant) -> str:
    """``Modern Diplomacy (10 players)``, ``Standard (2 to 7 players)``: a /game create choice."""
    counts = variant.player_counts
    if "player" in variant.title.casefold():  # "World War I (two players)" says it already
        return variant.title[:100]
    who = str(counts[0]) if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
    return f"{variant.title} ({who} players)"[:100]


VARIANT_CHOICES = [
    app_commands.Choice(name=variant_choice_name(v), value=v.name) for v in all_variants() if v.playable()
][:25]  # Discord's limit of choices; the registry has far fewer variants


def pick_variant(variant: str | None, players: int | None) -> tuple[str, int | None]:
    """The variant and player count /game create means: a count alone picks the variant played by that
    many (two players: the 1914 game); a variant alone its own count when it has only one."""
    if variant is None:
        found = variant_for_players(players) if players is not None else None
        variant = found.name if found is not None else STANDARD
    if players is None:
        try:
            counts = get_variant(variant).player_counts
        except UnknownVariant:
            counts = ()
        if len(counts) == 1:
            players = counts[0]
    return variant, players


POWER_STATES = {
    "playing": "",
    "civil_disorder": "in civil disorder (units hold)",
    "left": "left (units hold)",
    "eliminated": "eliminated",
    "neutral": "nobody (units hold)",
    "survived": "survived",
    "built_in": "played by the built-in player",
}


def status_lines(view: GameStatusView, viewer: int | None = None) -> list[str]:
    """/game status: public facts only (gm.reports.status): who plays what, centers, who is done; never
    orders. An anonymous game names nobody but ``viewer`` until its end, even while it forms (as its
    Join post: who joined would narrow who plays which power)."""
    game = view.game
    state = text.status_word(game.status)
    title = f"**#{game.id} {text.safe(game.name)}** ({view.variant_title})"
    hidden = game.settings.anonymous and game.status in ("forming", "active", "paused")  # revealed at the end
    lines = [f"{title}: {state}" + ("" if hidden else f", created by <@{game.creator_id}>")]
    if game.status == "forming":
        lines.append(f"Players ({len(game.players)} of {game.settings.players}):")
        named = [p for p in game.players if not hidden or p.user_id == viewer]
        lines.extend(f"- <@{p.user_id}>" for p in named)
        if len(named) < len(game.players):
            others = len(game.players) - len(named)
            lines.append(f"- and {text.plural(others, 'other player')}, not named: the game is anonymous")
        if game.settings.fill_seats and len(game.players) < game.settings.players:
            lines.append("The seats nobody takes go to built-in players at the start.")
    if view.phase is not None and game.status in RUNNING_STATES:
        if view.paused:
            left = f", {text.duration(view.remaining_seconds // 60)} left" if view.remaining_seconds else ""
            lines.append(f"Now: **{view.phase.long_name}**, paused by a moderator{left}")
        else:
            lines.append(
                f"Now: **{view.phase.long_name}**, {text.due(view.phase.deadline, game.settings.zone)}"
            )
    if game.status != "forming":
        for power in view.powers:
            level = game.settings.builtin_level
            lines.append("- " + _power_line(power, acting=game.status == "active", level=level))
    if game.game_channel_id:
        lines.append(f"Results and maps: <#{game.game_channel_id}>")
    if view.votes:
        lines.append("Open proposals: " + ", ".join(v.title for v in view.votes))
    if view.result:
        lines.append(f"Result: {result_text(view.result)}")
    if view.moderation:
        lines.append("Moderation (newest first):")
        lines.extend(moderation_lines(view.moderation))
    lines.extend(settings_lines(game.settings, game.variant))
    return lines


def moderation_lines(entries: Sequence[LogLine], budget: int = MODERATION_BUDGET) -> list[str]:
    """The moderation log, newest first, as many entries as fit in ``budget`` characters, then how
    many earlier ones were left out. A reason given with /mod end is user text: shown as typed."""
    shown: list[str] = []
    used = 0
    for entry in reversed(entries):
        line = f"- {text.when_short(entry.at)} <@{entry.actor_id}> {text.safe_keeping_users(entry.text)}"
        if used + len(line) + 1 > budget:
            break
        shown.append(line)
        used += len(line) + 1
    left = len(entries) - len(shown)
    if left:
        shown.append(f"- … and {left} earlier" + (" (or more)" if len(entries) >= MODERATION_FETCHED else ""))
    return shown


def result_text(result: dict[str, Any]) -> str:
    """How a game ended, in a sentence (gm.endings.ending's result)."""
    kind, winner = result.get("kind"), result.get("winner")
    shared = text.powers_text(result.get("shared") or [])
    if kind == "draw":
        return f"a draw shared by {shared}."
    if kind == "concession" and winner:
        return f"{text.power_name(winner)} won by concession."
    if winner:
        return f"{text.power_name(winner)} won."
    if kind == "last_year" and shared:
        return f"{shared} share the win (most centers in the last year)."
    if kind == "moderator":
        return "a moderator ended the game without a winner."
    return "the game ended without a winner."


ORDER_STATES = {"none": "no orders sent yet", "some": "some units ordered", "all": "all units ordered"}


def _power_line(power: PowerStatus, *, acting: bool, level: str = "") -> str:
    who = f" <@{power.user_id}>" if power.user_id is not None else ""
    state = POWER_STATES.get(power.state, power.state)
    if power.state == "built_in" and level:
        state += f" ({level})"
    counts = [text.plural(power.centers, "center")] if power.centers is not None else []
    counts += [text.plural(power.units, "unit")] if power.units is not None else []
    facts = [", ".join(counts) if counts else "counts hidden by the fog of war"]
    if state:
        facts.append(state)
        if acting and power.state == "built_in" and power.ready:
            facts.append("ready ✅")
    elif acting and power.must_act:
        facts.append(ORDER_STATES.get(power.orders, "still ordering"))
        if power.done:
            facts.append("ready ✅" if power.ready else "done ✅")
    return f"{text.power_name(power.power)}{who}: " + ", ".join(facts)


class GameCommands(GameCog):
    game = app_commands.Group(name="game", description="Create, join and follow Diplomacy games")

    # --- create -------------------------------------------------------------------------------

    @game.command(name="create", description="Create a game here; players join with its button or /game join")
    @app_commands.describe(
        name="The game's name",
        variant="The map and its powers: Standard (3 to 7 players) or a variant, each with its own number",
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    @with_create_options  # the settings' options /game create offers (gm.settings.SETTING_OPTIONS)
    async def create(
        self, interaction: discord.Interaction, name: str, variant: str | None = None, **options: Any
    ) -> None:
        guild_id = require_guild(interaction, "Creating a game")
        await defer(interaction)
        variant, options["players"] = pick_variant(variant, options.get("players"))
        changes = option_changes(options)
        if options.get("press") is None and (options["players"] or 0) > MAX_PAIR_PRESS_PLAYERS:
            changes["press"] = "public"  # no private space per pair in a big game (Chaos): gm.settings
        game = await self.gamemaster.create_game(
            guild_id=guild_id,
            creator_id=interaction.user.id,
            name=name,
            settings=changes,
            lobby_channel_id=interaction.channel_id,
            variant=variant,
            sees_all=sees_everything(interaction.user),
        )
        announced = await self._announce_new(interaction, game)
        seated = any(p.user_id == interaction.user.id for p in game.players)
        lines = [
            f"You created **#{game.id} {text.safe(game.name)}** and joined it "
            f"(1 of {game.settings.players} players). {variant_line(game.variant)}."
            if seated
            else f"You created **#{game.id} {text.safe(game.name)}** without a seat in it: you can read "
            "every channel of this server (its owner, or Administrator), and this server's admins do not "
            f"let such members play (`/server settings`). {variant_line(game.variant)}.",
            f"When {game.settings.players} players have joined, start it with `/game start`."
            if not game.settings.fill_seats
            else "Start it with `/game start` whenever you like: the seats nobody took go to built-in "
            "players (a person may take one over later).",
        ]
        if not announced:
            lines.append(
                "I cannot post in this channel, so there is no Join button: players can join with "
                f"`/game join game:{game.id}`."
            )
        await send(interaction, lines)

    async def _announce_new(self, interaction: discord.Interaction, game: GameInfo) -> bool:
        channel = interaction.channel
        if not isinstance(channel, discord.abc.Messageable):
            return False
        try:
            badges = await lobby_badges(self.bot, game)
            posted = await channel.send(embed=lobby_embed(game, badges), view=lobby_view(game))
        except discord.HTTPException as exc:
            log.info("could not announce game %s in channel %s: %s", game.id, interaction.channel_id, exc)
            return False
        await self.gamemaster.set_lobby_message(game.id, posted.id)
        return True

    # --- join / leave ---------------------------------------------------------------------------

    @game.command(name="join", description="Join a game that has not started yet")
    @app_commands.describe(game="The game to join (leave empty if there is only one)")
    @app_commands.autocomplete(game=joinable_choices)
    async def join(self, interaction: discord.Interaction, game: str | None = None) -> None:
        require_guild(interaction, "Joining a game")
        chosen = await resolve_game(interaction, game, Scope.JOINABLE)
        await join(interaction, chosen.id)

    @game.command(
        name="leave", description="Leave a game (after the start, your power holds in civil disorder)"
    )
    @app_commands.describe(game="The game to leave")
    @app_commands.autocomplete(game=my_choices)
    async def leave(self, interaction: discord.Interaction, game: str | None = None) -> None:
        chosen = await resolve_game(interaction, game, Scope.MINE)
        await defer(interaction)
        if chosen.status != "forming":  # asked first, with buttons (cogs.ui.leave)
            await send(
                interaction, leave_question(chosen), view=leave_buttons(chosen.id, interaction.user.id)
            )
            return
        left = await self.gamemaster.leave_game(chosen.id, interaction.user.id)
        await send(interaction, f"You left **#{left.after.id} {text.safe(left.after.name)}**.")
        if left.was_forming:
            self.services.spawn(refresh_lobby(self.bot, left.after), f"updating game {chosen.id}'s Join post")

    # --- start ----------------------------------------------------------------------------------

    @game.command(name="start", description="Start a full game: draw the powers and create its channels")
    @app_commands.describe(game="The game to start")
    @app_commands.autocomplete(game=forming_choices)
    async def start(self, interaction: discord.Interaction, game: str | None = None) -> None:
        guild_id = require_guild(interaction, "Starting a game")
        guild = interaction.guild
        assert guild is not None
        chosen = await _startable(interaction, game)
        if chosen.guild_id != guild_id:
            raise UnknownGame(
                f"There is no game {chosen.id} on this server.", "See /game list for the games here."
            )
        lacking = missing_permissions(guild)
        if lacking:
            raise SpacesFailed(
                f"I cannot create the game's channels: my role lacks {', '.join(lacking)}.",
                "A server admin can add them to my role (or re-invite me with the link in the README).",
            )
        moderator = await is_server_moderator(self.bot, interaction.user.id, guild.id)
        await defer(interaction)
        maker = DiscordPlaces(guild, self.services.moderator_role)
        unhidden = [p.user_id for p in chosen.players if sees_everything(await member_of(guild, p.user_id))]
        outcome = await self.gamemaster.start_game(
            chosen.id, interaction.user.id, is_moderator=moderator, maker=maker, sees_all=unhidden
        )
        started = outcome.game
        if outcome.already:
            await send(
                interaction,
                f"**#{started.id} {text.safe(started.name)}** has already started: results and maps in "
                f"<#{started.game_channel_id}>.",
            )
            return
        lines = [
            f"**#{started.id} {text.safe(started.name)}** has started. Results and maps: "
            f"<#{started.game_channel_id}>. Every player has a direct message with their power.",
        ]
        warning = moderator_role_warning(guild, self.services.moderator_role)
        if warning:
            lines.append(warning)
        await send(interaction, lines)
        self.services.spawn(refresh_lobby(self.bot, started), f"updating game {started.id}'s Join post")
        await _tell_lobby(interaction, started)

    # --- looking ----------------------------------------------------------------------------------

    @game.command(name="status", description="A game's players, phase, deadline and settings")
    @app_commands.describe(game="The game to look at")
    @app_commands.autocomplete(game=any_choices)
    async def status(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await defer(interaction)
        chosen = await resolve_game(interaction, game, Scope.ANY)
        view = await self.gamemaster.game_status(
            chosen.id, log_limit=MODERATION_FETCHED, viewer=interaction.user.id
        )
        await send(interaction, status_lines(view, interaction.user.id))

    @game.command(
        name="export", description="A game as a JSON file: settings, every phase, orders and results"
    )
    @app_commands.describe(game="The game to export")
    @app_commands.autocomplete(game=any_choices)
    async def export(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await defer(interaction)
        chosen = await resolve_game(interaction, game, Scope.ANY)
        data = await self.gamemaster.export_game(chosen.id, viewer=interaction.user.id)
        name, raw = export_file(chosen.id, data)
        await send(
            interaction,
            [
                f"**#{chosen.id} {text.safe(chosen.name)}** as JSON: settings, players, every phase with its "
                "board, orders and results, and the game log.",
                "Only what is already public: the phase still open comes without its orders, votes are "
                "never included, and the log holds what the game channel has told (nobody's name behind "
                "an absence or a grace extension)."
                if data.get("log_scope") != "full"
                else "The game is over, so the log is the whole log, names behind absences and grace "
                "extensions included; votes are never included.",
            ],
            files=[discord.File(io.BytesIO(raw), filename=name)],
        )

    @game.command(name="list", description="The games on this server (in direct messages: your games)")
    async def list_games(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        if interaction.guild_id is None:
            found = await self.gamemaster.games_of_user(interaction.user.id, include_ended=True)
            title, nothing = "Your games:", "You are in no running game."
        else:
            found = await self.gamemaster.list_games(interaction.guild_id, include_ended=True)
            title, nothing = "Games on this server:", "No game is running on this server."
        await send(interaction, list_lines(found, title, nothing))

    @game.command(name="settings", description="See a game's settings, or change them before it starts")
    @app_commands.describe(game="The game")
    @app_commands.autocomplete(game=any_choices)
    @with_setting_options  # the settings' options (gm.settings.SETTING_OPTIONS)
    async def settings(
        self, interaction: discord.Interaction, game: str | None = None, **options: Any
    ) -> None:
        await defer(interaction)
        changes = option_changes(options)
        if not changes:
            chosen = await resolve_game(interaction, game, Scope.ANY)
            await send(
                interaction,
                [
                    f"Settings of **#{chosen.id} {text.safe(chosen.name)}**:",
                    *settings_lines(chosen.settings, chosen.variant),
                ],
            )
            return
        chosen = await resolve_game(interaction, game, Scope.FORMING)
        moderator = await is_server_moderator(self.bot, interaction.user.id, chosen.guild_id)
        updated = await self.gamemaster.update_settings(
            chosen.id, interaction.user.id, changes, is_moderator=moderator
        )
        self.services.spawn(refresh_lobby(self.bot, updated), f"updating game {updated.id}'s Join post")
        await send(
            interaction,
            [
                f"New settings of **#{updated.id} {text.safe(updated.name)}**:",
                *settings_lines(updated.settings, updated.variant),
            ],
        )


async def _startable(interaction: discord.Interaction, option: str | None) -> GameInfo:
    """The forming game to start, or a started game of this server (its channels may be missing, or
    still being made by another /game start)."""
    if option is not None:
        match = re.fullmatch(r"#?([0-9]{1,18})(?:\s.*)?", option.strip())
        if match:
            game = await services_of(interaction.client).gamemaster.get_game(int(match[1]))
            if game.status in RUNNING_STATES and game.guild_id == interaction.guild_id:
                return game
    return await resolve_game(interaction, option, Scope.FORMING)


def moderator_role_warning(guild: discord.Guild, role_name: str) -> str | None:
    """What the starter should fix so that moderator alerts (civil disorder) reach someone."""
    role = moderator_role(guild, role_name)
    if role is None:
        return (
            f"Note: this server has no role named **{text.safe(role_name)}**, so when a moderator is "
            "needed (a power in civil disorder) I can only call the game's creator. Create that role, "
            'give it to your moderators and turn on its "Allow anyone to @mention this role".'
        )
    if not role.mentionable and not guild.me.guild_permissions.mention_everyone:
        return (
            f"Note: the role **{text.safe(role_name)}** cannot be @mentioned, so when a moderator is "
            "needed I call the game's creator and at most "
            f'{MAX_ALERTED} members of that role by name. Turn on "Allow anyone to @mention this '
            'role" in its settings to call the role itself.'
        )
    return None


def export_file(game_id: int, data: dict[str, Any]) -> tuple[str, bytes]:
    """The export's file name and bytes: JSON, gzipped when it would pass Discord's upload limit."""
    raw = json.dumps(data, indent=1, ensure_ascii=False).encode()
    if len(raw) <= UPLOAD_LIMIT:
        return f"diplomacy-game-{game_id}.json", raw
    return f"diplomacy-game-{game_id}.json.gz", gzip.compress(raw)


def list_lines(games: list[GameInfo], title: str, nothing: str) -> list[str]:
    """/game list: the running and forming games, then the most recent finished ones."""
    if not games:
        return ["There are no games here yet. Create one with `/game create`."]
    current = [g for g in games if g.status not in ENDED]
    ended = sorted((g for g in games if g.status in ENDED), key=lambda g: g.id, reverse=True)
    lines = (
        [title, *(_list_line(g) for g in current)]
        if current
        else [f"{nothing} Create one with `/game create`."]
    )
    if ended:
        lines.append(
            f"Finished ({len(ended)}; their results and maps stay available with `/history phase game:`):"
        )
        lines.extend(_list_line(g) for g in ended[:RECENT_FINISHED])
        if len(ended) > RECENT_FINISHED:
            lines.append(f"… and {len(ended) - RECENT_FINISHED} earlier")
    return lines


def _list_line(game: GameInfo) -> str:
    if game.status == "forming":
        extra = f"waiting for players, {len(game.players)} of {game.settings.players}"
    elif game.phase is not None and game.status in RUNNING_STATES:
        extra = f"{game.phase.long_name}, {text.due(game.phase.deadline, game.settings.zone)}"
    else:
        extra = text.status_word(game.status)
    if game.built_in and game.status in RUNNING_STATES:
        extra += (
            f"; built-in players ({game.settings.builtin_level}): {text.powers_text(sorted(game.built_in))}"
        )
    return text.game_list_line(game.id, game.name, extra)


async def _tell_lobby(interaction: discord.Interaction, game: GameInfo) -> None:
    channel = interaction.channel
    if not isinstance(channel, discord.abc.Messageable) or channel.id == game.game_channel_id:
        return
    try:
        await channel.send(
            f"**#{game.id} {text.safe(game.name)}** has started: follow it in <#{game.game_channel_id}>."
        )
    except discord.HTTPException as exc:
        log.info("could not announce the start of game %s: %s", game.id, exc)


async def setup(bot: commands.Bot) -> None:
    from cogs.ui.seats import setup_buttons

    bot.add_dynamic_items(JoinButton)
    setup_buttons(bot)
    setup_leave(bot)
    await bot.add_cog(GameCommands(bot))
