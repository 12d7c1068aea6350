"""/mod extend|pause|resume|close|replace|disorder|builtin|rollback|end: moderating a running game.

The group is visible to everyone (``default_member_permissions`` would hide it from the game's creator,
who may moderate their own game without Manage Server); who may act is decided per game by gm, from
:class:`gm.moderation.actions.Actor`. Every answer is private; the public announcement is gm's, posted through
the outbox. Rolling back and ending ask for a confirmation first (cogs.ui.confirm), and so does closing
a phase that opened less than a minute before the command (the moderator may have meant the one before).

/mod close, /mod extend and /mod rollback act on the game as it was when the moderator sent them
(the interaction's id carries Discord's time of it): one that reaches the bot after the phase it
was about has closed (another moderator's close, the deadline) is refused without a question, and
changes nothing. Pause, resume, replace, disorder, builtin and end are about the game or a seat, not
a phase.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.messages.render import long_name
from cogs.places.spaces import sees_everything
from cogs.shared import mod_flows as modflows
from cogs.shared import text
from cogs.shared.base import GameCog
from cogs.shared.context import Scope, any_choices, is_server_moderator, power_choices, resolve_game
from cogs.shared.replies import defer, send
from cogs.ui.confirm import ConfirmButton, confirm_view, keep_reason
from gm.public import GameOverError, NotAllowed, WrongGameState

GAME_OPTION = "The game (leave empty in its channels, or if there is only one)"
STATE_CHOICES = [
    app_commands.Choice(name="on: its units hold, it builds nothing", value="on"),
    app_commands.Choice(name="off: back under its player's control", value="off"),
]
BUILT_IN_CHOICES = [
    app_commands.Choice(name="on: the built-in player gives the seat's orders", value="on"),
    app_commands.Choice(name="off: the built-in player stops; the units hold", value="off"),
]


def extension_minutes(hours: float | None, minutes: int | None) -> int:
    """The time to add, in whole minutes; a refusal when none was given."""
    if hours is None and minutes is None:
        raise WrongGameState(
            "Say how much time to add.", "For example /mod extend hours:12, or /mod extend minutes:30."
        )
    return text.hours_in_minutes("hours", hours or 0) + (minutes or 0)


class ModCommands(GameCog):
    mod = app_commands.Group(
        name="mod", description="Moderate a running game (its creator and the server's moderators)"
    )

    @mod.command(name="extend", description="Give the current phase more time")
    @app_commands.describe(hours="Hours to add", minutes="Minutes to add", game=GAME_OPTION)
    @app_commands.autocomplete(game=any_choices)
    async def extend(
        self,
        interaction: discord.Interaction,
        hours: float | None = None,
        minutes: int | None = None,
        game: str | None = None,
    ) -> None:
        await defer(interaction)
        chosen = await resolve_game(interaction, game, Scope.ANY)
        actor = await modflows.actor_of(interaction, chosen)
        # the phase open when the moderator sent the command (an extend reaching the bot once the
        # phase has closed must not extend the next one)
        result = await self.gamemaster.extend_deadline(
            chosen.id, actor, minutes=extension_minutes(hours, minutes), sent_at=interaction.created_at
        )
        deadline = result.phase.deadline if result.phase else None
        follow = f"Orders now due {text.when(deadline, chosen.settings.zone)}." if deadline else None
        await send(interaction, modflows.answer_lines(result, follow))

    @mod.command(name="pause", description="Stop the clock; the time left is kept for /mod resume")
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.autocomplete(game=any_choices)
    async def pause(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await defer(interaction)
        chosen = await resolve_game(interaction, game, Scope.ANY)
        actor = await modflows.actor_of(interaction, chosen)
        result = await self.gamemaster.pause_game(chosen.id, actor)
        follow = "Players can still send orders. `/mod resume` starts the clock again with the time left."
        await send(interaction, modflows.answer_lines(result, follow))

    @mod.command(name="resume", description="Start the clock again with the time that was left")
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.autocomplete(game=any_choices)
    async def resume(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await defer(interaction)
        chosen = await resolve_game(interaction, game, Scope.ANY)
        actor = await modflows.actor_of(interaction, chosen)
        result = await self.gamemaster.resume_game(chosen.id, actor)
        deadline = result.phase.deadline if result.phase else None
        follow = text.due(deadline, chosen.settings.zone)
        await send(interaction, modflows.answer_lines(result, f"{follow[0].upper()}{follow[1:]}."))

    @mod.command(name="close", description="Close the current phase now and post its results")
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.autocomplete(game=any_choices)
    async def close(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await defer(interaction)
        chosen = await resolve_game(interaction, game, Scope.ANY)
        actor = await modflows.actor_of(interaction, chosen)
        # the phase open when the moderator sent the command, by Discord's time of it (a second
        # /mod close of one phase must not close the next one, opened meanwhile)
        result = await self.gamemaster.close_now(chosen.id, actor, sent_at=interaction.created_at)
        if result.action == "close_confirm":
            phase, phase_id = str(result.details["phase"]), int(result.details["phase_id"])
            await send(
                interaction,
                modflows.close_question(
                    chosen, phase, int(result.details["seconds"]), first=bool(result.details.get("first"))
                ),
                view=confirm_view("close", chosen.id, phase_id, label=f"Close {long_name(phase)}"),
            )
            return
        await send(interaction, modflows.answer_lines(result, modflows.CLOSE_FOLLOW_UP))

    @mod.command(
        name="replace", description="Give a player's powers to someone else, orders and channels included"
    )
    @app_commands.describe(
        power="A power of the player to replace (all their powers go)",
        player="Who takes over",
        game=GAME_OPTION,
    )
    @app_commands.autocomplete(game=any_choices, power=power_choices)
    async def replace(
        self,
        interaction: discord.Interaction,
        power: str,
        player: discord.Member,
        game: str | None = None,
    ) -> None:
        await defer(interaction)
        chosen = await resolve_game(interaction, game, Scope.ANY)
        actor = await modflows.actor_of(interaction, chosen)
        self.gamemaster.check_moderator(chosen, actor, "replace")
        if player.bot:
            raise NotAllowed(f"{player.display_name} is a bot and cannot play.", "Pick a person.")
        result = await self.gamemaster.replace_player(
            chosen.id,
            actor,
            power=power,
            new_user_id=player.id,
            sees_all=sees_everything(player),
            reads_places=await is_server_moderator(self.bot, player.id, chosen.guild_id),
        )
        powers = text.powers_text(result.details["replacement"].powers)
        follow = (
            f"<@{player.id}> gets {powers}'s private channel and negotiation spaces, and a direct "
            "message with the units, the orders given so far and the deadline; the player replaced "
            "loses access. The game channel is told."
        )
        await send(interaction, modflows.answer_lines(result, follow))

    @mod.command(name="disorder", description="Put a power's player in civil disorder, or take them out")
    @app_commands.describe(power="A power of that player", state="on or off", game=GAME_OPTION)
    @app_commands.choices(state=STATE_CHOICES)
    @app_commands.autocomplete(game=any_choices, power=power_choices)
    async def disorder(
        self, interaction: discord.Interaction, power: str, state: str, game: str | None = None
    ) -> None:
        await defer(interaction)
        chosen = await resolve_game(interaction, game, Scope.ANY)
        actor = await modflows.actor_of(interaction, chosen)
        result = await self.gamemaster.set_civil_disorder(chosen.id, actor, power=power, on=state == "on")
        follow = (
            "Their units hold until the player sends orders or says /ready, or a moderator turns it off."
            if state == "on"
            else "Their orders count again from now on."
        )
        await send(interaction, modflows.answer_lines(result, follow))

    @mod.command(name="builtin", description="Give a seat to the built-in computer player, or take it back")
    @app_commands.describe(
        power="A power of that seat (all its powers go)", state="on or off", game=GAME_OPTION
    )
    @app_commands.choices(state=BUILT_IN_CHOICES)
    @app_commands.autocomplete(game=any_choices, power=power_choices)
    async def builtin(
        self, interaction: discord.Interaction, power: str, state: str, game: str | None = None
    ) -> None:
        await defer(interaction)
        chosen = await resolve_game(interaction, game, Scope.ANY)
        actor = await modflows.actor_of(interaction, chosen)
        result = await self.gamemaster.set_built_in(chosen.id, actor, power=power, on=state == "on")
        follow = (
            "It orders at each close from this phase on, is always ready and writes to no one; the "
            "seat is a person's again as soon as one takes it over or its player sends orders."
            if state == "on"
            else "The seat's units hold until its player comes back or a person takes it over."
        )
        await send(interaction, modflows.answer_lines(result, follow))

    @mod.command(name="rollback", description="Undo the last phase's results (asks for a confirmation)")
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.autocomplete(game=any_choices)
    async def rollback(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await defer(interaction)
        chosen = await resolve_game(interaction, game, Scope.ANY)
        plan = await modflows.rollback_plan(interaction, chosen)
        phase_id = chosen.phase.id if chosen.phase is not None else 0
        await send(
            interaction, modflows.rollback_question(plan), view=confirm_view("rollback", chosen.id, phase_id)
        )

    @mod.command(name="end", description="End the game now, without a winner (asks for a confirmation)")
    @app_commands.describe(reason="Why (shown in the final post and the moderation log)", game=GAME_OPTION)
    @app_commands.autocomplete(game=any_choices)
    async def end(
        self, interaction: discord.Interaction, reason: str | None = None, game: str | None = None
    ) -> None:
        await defer(interaction)
        chosen = await resolve_game(interaction, game, Scope.ANY)
        self.gamemaster.check_moderator(chosen, await modflows.actor_of(interaction, chosen), "end")
        if chosen.status in ("finished", "cancelled"):
            raise GameOverError(f"{chosen.name} is already over.", "Nothing to end.")
        phase_id = chosen.phase.id if chosen.phase is not None else 0
        view = confirm_view("end", chosen.id, phase_id, keep_reason(reason))
        await send(interaction, modflows.end_question(chosen, reason), view=view)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(ConfirmButton)
    await bot.add_cog(ModCommands(bot))
