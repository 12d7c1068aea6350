"""What /mod does, shared by its commands and its confirmation buttons: who is asking (gm's Actor),
the gm call, the private answer, and the result's effects handed to the Gamemaster in the background
(deadline jobs, the close itself, the final post), so the moderator is answered at once.

Each flow returns the lines of its answer; a refusal is a GameError from gm, raised before anything
changed.
"""

from __future__ import annotations

import discord

from cogs import text
from cogs.announce import long_name
from cogs.base import services_of
from cogs.context import is_server_moderator
from gm import games as gm_games
from gm import moderation, rollback
from gm.errors import NotAllowed, PhaseBusy
from gm.moderation import Actor, ModerationResult
from gm.modtools import JUDGE_ONLY, playing_moderator
from gm.rollback import RollbackPlan
from gm.views import GameInfo


async def actor_of(interaction: discord.Interaction, game: GameInfo) -> Actor:
    """The caller as gm sees them: a server moderator (role or Manage Server) of the game's server, or
    not; gm itself lets the game's creator through either way."""
    moderator = await is_server_moderator(interaction.client, interaction.user.id, game.guild_id)
    return Actor(interaction.user.id, is_server_moderator=moderator)


def require_moderator(game: GameInfo, actor: Actor, action: str | None = None) -> None:
    """gm's refusals, said before a confirmation is even offered to someone who may not moderate, or
    may not take ``action`` because they play in the game (gm.modtools.JUDGE_ONLY)."""
    if not (actor.is_server_moderator or actor.user_id == game.creator_id):
        raise NotAllowed(
            f"Only the creator of {game.name} or a server moderator can use /mod.",
            "Ask one of them; nothing was changed.",
        )
    held = sorted(p for player in game.players if player.user_id == actor.user_id for p in player.powers)
    if action in JUDGE_ONLY and held:
        raise playing_moderator(game.name, held, action)


def carry_out(client: discord.Client, result: ModerationResult) -> None:
    """Hand the result's effects to the Gamemaster after the answer (a close may take a while)."""
    services = services_of(client)
    services.spawn(
        services.gamemaster.apply(result.effects), f"/mod {result.action} in game {result.game_id}"
    )


def answer_lines(result: ModerationResult, follow_up: str | None = None) -> list[str]:
    lines = [f"Done: {text.safe_keeping_users(result.message)}"]
    if follow_up:
        lines.append(follow_up)
    return lines


# --- the two actions that ask for a confirmation first --------------------------------------------


async def rollback_plan(interaction: discord.Interaction, game: GameInfo) -> RollbackPlan:
    actor = await actor_of(interaction, game)
    async with services_of(interaction.client).sessions() as session:
        return await rollback.plan_rollback(session, game.id, actor)


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
    game = await _unchanged(interaction, game_id, asked_phase, "rollback")
    actor = await actor_of(interaction, game)
    async with services_of(interaction.client).sessions() as session:
        result = await rollback.rollback_last_phase(session, game.id, actor)
    carry_out(interaction.client, result)
    voided = result.details.get("voided_phase")
    reopened = result.phase.long_name if result.phase is not None else "its"
    follow = f"The game channel is told that the {reopened} results are void"
    follow += f", and that {long_name(voided)} never happened." if voided else "."
    if result.phase is not None and result.phase.deadline is not None:
        follow += f" New deadline: {text.when(result.phase.deadline)}."
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
    game = await _unchanged(interaction, game_id, asked_phase, "end")
    actor = await actor_of(interaction, game)
    async with services_of(interaction.client).sessions() as session:
        result = await moderation.end_game(session, game.id, actor, reason=reason)
    carry_out(interaction.client, result)
    return answer_lines(result, "The final post is on its way to the game channel.")


async def _unchanged(
    interaction: discord.Interaction, game_id: int, asked_phase: int, action: str
) -> GameInfo:
    """The game, refused when its phase has changed since the moderator was asked to confirm."""
    async with services_of(interaction.client).sessions() as session:
        game = await gm_games.get_game(session, game_id)
    now = game.phase.id if game.phase is not None else 0
    if now != asked_phase:
        where = f" (it is now at {game.phase.long_name})" if game.phase is not None else ""
        raise PhaseBusy(
            f"{game.name} has moved on since you asked{where}; nothing was changed.",
            f"Run /mod {action} again if it is still needed.",
        )
    return game
