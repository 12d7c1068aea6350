"""What /mod does, shared by its commands and its confirmation buttons: who is asking (gm's Actor),
the gm call (which runs its consequences in the background, so the moderator is answered at once),
and the private answer.

Each flow returns the lines of its answer; a refusal is a GameError from gm, raised before anything
changed.
"""

from __future__ import annotations

import discord

from cogs.messages.render import long_name
from cogs.shared import text
from cogs.shared.base import services_of
from cogs.shared.context import is_server_moderator
from gm.public import Actor, GameInfo, ModerationResult, RollbackPlan


async def actor_of(interaction: discord.Interaction, game: GameInfo) -> Actor:
    """The caller as gm sees them: a server moderator (role or Manage Server) of the game's server, or
    not; gm itself lets the game's creator through either way."""
    moderator = await is_server_moderator(interaction.client, interaction.user.id, game.guild_id)
    return Actor(interaction.user.id, is_server_moderator=moderator)


def answer_lines(result: ModerationResult, follow_up: str | None = None) -> list[str]:
    lines = [f"Done: {text.safe_keeping_users(result.message)}"]
    if follow_up:
        lines.append(follow_up)
    return lines


CLOSE_FOLLOW_UP = "The results follow in the game channel."


# --- the actions that ask for a confirmation first -----------------------------------------------


def close_question(game: GameInfo, phase: str, seconds: int, *, first: bool = False) -> str:
    ago = text.plural(seconds, "second") if seconds < 60 else "a minute"
    why = (
        "the game has just started"
        if first
        else "you may have meant the phase before it, which is closed already"
    )
    return (
        f"**{long_name(phase)}** of **#{game.id} {text.safe(game.name)}** opened only {ago} before you "
        f"asked: {why}. Close {long_name(phase)} now? Confirm below; nothing changes otherwise."
    )


async def do_close(interaction: discord.Interaction, game_id: int, asked_phase: int) -> list[str]:
    gamemaster = services_of(interaction.client).gamemaster
    actor = await actor_of(interaction, await gamemaster.get_game(game_id))
    result = await gamemaster.close_now(game_id, actor, asked_phase=asked_phase)
    return answer_lines(result, CLOSE_FOLLOW_UP)


async def rollback_plan(interaction: discord.Interaction, game: GameInfo) -> RollbackPlan:
    """The rollback /mod rollback asks to confirm, of the game as it was when the moderator sent the
    command (Discord's time of it)."""
    actor = await actor_of(interaction, game)
    return await services_of(interaction.client).gamemaster.plan_rollback(
        game.id, actor, sent_at=interaction.created_at
    )


def rollback_question(plan: RollbackPlan) -> str:
    lines = [
        f"Roll **#{plan.game_id} {text.safe(plan.game_name)}** back to "
        f"**{long_name(plan.target)}**? Its results, already posted, become void; its orders come back "
        "as they stood at its deadline, with a fresh deadline.",
    ]
    if plan.voided:
        lines.append(
            f"{long_name(plan.voided)}, open now, is deleted: the orders sent for it go back to their "
            "authors by direct message."
        )
    lines.append("The game channel is told. Confirm below.")
    return "\n".join(lines)


async def do_rollback(interaction: discord.Interaction, game_id: int, asked_phase: int) -> list[str]:
    gamemaster = services_of(interaction.client).gamemaster
    game = await gamemaster.get_game(game_id)
    actor = await actor_of(interaction, game)
    result = await gamemaster.rollback_last_phase(game_id, actor, asked_phase=asked_phase)
    voided = result.details.get("voided_phase")
    reopened = result.phase.long_name if result.phase is not None else "its"
    follow = f"The game channel is told that the {reopened} results are void"
    follow += f", and that {long_name(voided)} never happened." if voided else "."
    if result.phase is not None and result.phase.deadline is not None:
        follow += f" New deadline: {text.when(result.phase.deadline, game.settings.zone)}."
    return answer_lines(result, follow)


def end_question(game: GameInfo, reason: str | None) -> str:
    lines = [
        f"End **#{game.id} {text.safe(game.name)}** now, for everyone, without a winner? "
        "This cannot be undone. The final post (map, centers per year, the game as an animation) "
        "goes to the game channel.",
    ]
    if reason:
        lines.append(f"Reason given: {text.safe(reason, limit=300)}")
    lines.append("Confirm below.")
    return "\n".join(lines)


async def do_end(
    interaction: discord.Interaction, game_id: int, asked_phase: int, reason: str | None
) -> list[str]:
    gamemaster = services_of(interaction.client).gamemaster
    actor = await actor_of(interaction, await gamemaster.get_game(game_id))
    result = await gamemaster.end_game(game_id, actor, asked_phase=asked_phase, reason=reason)
    return answer_lines(result, "The final post is on its way to the game channel.")
