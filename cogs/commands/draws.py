"""/draw propose|vote|status: ending a game by agreement, a draw or a concession, voted in secret.

Every answer is private. The game channel learns only what gm announces: that a vote is open (not who
proposed it), and whether it passed or lapsed (never who voted what). A player who holds several
powers votes for all of them at once, or for the one named in ``power``.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.shared import text
from cogs.shared.base import GameCog
from cogs.shared.context import Scope, playing_choices, power_choices, resolve_game
from cogs.shared.replies import defer, send
from gm.public import CONCEDE, DRAW, GameError, VoteReport

GAME_OPTION = "The game (leave empty if you play only one)"
KIND_CHOICES = [
    app_commands.Choice(name="a draw shared by the surviving powers", value=DRAW),
    app_commands.Choice(name="conceding the game to one power", value=CONCEDE),
]
YES_NO = [app_commands.Choice(name="yes", value="yes"), app_commands.Choice(name="no", value="no")]
OPTION_TEXT = {
    "kind": "A draw, or a concession to one power",
    "to": "For a concession: the power that wins",
    "power": "If you hold several powers: only this one (default: all of them)",
    "game": GAME_OPTION,
}


def votes_text(mine: dict[str, str]) -> str:
    return ", ".join(f"{text.power_name(p)} {choice}" for p, choice in sorted(mine.items())) or "none yet"


def report_lines(report: VoteReport, *, proposed: bool) -> list[str]:
    title = report.proposal.title
    if proposed:
        lines = [
            f"You proposed {title}; your vote counts as yes ({votes_text(report.my_votes)}).",
            "The game channel is told that a vote is open, not who proposed it. It passes only if "
            "every surviving power with a player present votes yes before this phase closes (a draw "
            "is shared by every surviving power).",
        ]
    else:
        lines = [f"Your vote on {title}: {votes_text(report.my_votes)}. Nobody else sees it."]
    if report.passed:
        lines.append(
            "That was the last vote needed: every power with a player present agreed, so the game is over. "
            "The final post follows in the game channel."
        )
    elif not proposed:
        lines.append("You may change your vote until the phase closes; votes start afresh every phase.")
    return lines


class DrawCommands(GameCog):
    draw = app_commands.Group(name="draw", description="Draws and concessions, voted in secret")

    @draw.command(name="propose", description="Propose a draw or a concession; your own vote is yes")
    @app_commands.describe(**OPTION_TEXT)
    @app_commands.choices(kind=KIND_CHOICES)
    @app_commands.autocomplete(game=playing_choices, to=power_choices, power=power_choices)
    async def propose(
        self,
        interaction: discord.Interaction,
        kind: str = DRAW,
        to: str | None = None,
        power: str | None = None,
        game: str | None = None,
    ) -> None:
        await defer(interaction)
        chosen = await resolve_game(interaction, game, Scope.PLAYING)
        report = await self.gamemaster.propose(chosen.id, interaction.user.id, kind, to=to, power=power)
        await send(interaction, report_lines(report, proposed=True))

    @draw.command(name="vote", description="Vote yes or no on the open draw or concession, in secret")
    @app_commands.describe(choice="yes or no", **OPTION_TEXT)
    @app_commands.choices(choice=YES_NO, kind=KIND_CHOICES)
    @app_commands.autocomplete(game=playing_choices, to=power_choices, power=power_choices)
    async def vote(
        self,
        interaction: discord.Interaction,
        choice: str,
        kind: str | None = None,
        to: str | None = None,
        power: str | None = None,
        game: str | None = None,
    ) -> None:
        await defer(interaction)
        chosen = await resolve_game(interaction, game, Scope.PLAYING)
        if kind is None:  # the one open proposal; when several are open, ask which
            proposals = await self.gamemaster.open_proposals(chosen.id)
            if len(proposals) > 1 and to is None:
                listed = " and ".join(p.title for p in proposals)
                raise GameError(
                    f"Several proposals are open in {chosen.name}: {listed}.",
                    "Say which one you vote on with the kind option (and to: for a concession).",
                )
            kind = proposals[0].kind if proposals else DRAW
            if kind == CONCEDE and to is None and proposals:
                to = proposals[0].beneficiary
        report = await self.gamemaster.cast_vote(
            chosen.id, interaction.user.id, kind=kind, to=to, yes=choice == "yes", power=power
        )
        await send(interaction, report_lines(report, proposed=False))

    @draw.command(name="status", description="The open proposals, and your own votes on them")
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.autocomplete(game=playing_choices)
    async def status(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await defer(interaction)
        chosen = await resolve_game(interaction, game, Scope.PLAYING)
        proposals = await self.gamemaster.open_proposals(chosen.id)
        mine = await self.gamemaster.my_votes(chosen.id, interaction.user.id)
        header = f"**#{chosen.id} {text.safe(chosen.name)}**"
        if not proposals:
            await send(
                interaction,
                f"{header}: nothing is proposed this phase. Propose a draw or a concession with "
                "`/draw propose`.",
            )
            return
        lines = [f"{header}, open this phase (votes are secret; you see only yours):"]
        lines += [f"- {p.title}: your votes: {votes_text(mine.get(p.id, {}))}" for p in proposals]
        lines.append(
            "Vote with `/draw vote`; a proposal passes when every surviving power with a player present "
            "says yes."
        )
        await send(interaction, lines)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DrawCommands(bot))
