"""/stats: the server's leaderboard, and /stats user: one player's record with their reliability."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.shared import text
from cogs.shared.base import GameCog
from cogs.shared.context import require_guild
from cogs.shared.replies import defer, send
from gm.reports.stats import ServerBoard
from gm.rules.leaderboard import PENALTY_PHASES, UserStats
from gm.rules.scoring import SYSTEM_NAMES, score_text


def board_lines(board: ServerBoard) -> list[str]:
    """The leaderboard: rank, player, average score, games and results, reliability."""
    if not board.rows:
        return [
            "No finished game on this server yet: the leaderboard starts with the first final post.",
            "`/stats user:` shows a player's record so far.",
        ]
    systems = " and ".join(SYSTEM_NAMES.get(s, s) for s in board.systems) or SYSTEM_NAMES["draw_size"]
    robots = (
        f", {board.built_in_games} with built-in players, whose seats count for no one"
        if board.built_in_games
        else ""
    )
    lines = [
        f"**Leaderboard of this server** ({text.plural(board.finished_games, 'finished game')}{robots}; "
        f"average score per game, {systems} scoring as each game was set)"
    ]
    for row in board.rows:
        stats = row.stats
        lines.append(
            f"{row.rank}. <@{stats.user_id}>: **{score_text(stats.average_score)}** average over "
            f"{text.plural(stats.games, 'game')} ({results_text(stats)}){reliability_text(stats, short=True)}"
        )
    return lines


def results_text(stats: UserStats) -> str:
    parts = [
        text.plural(stats.solos, "solo"),
        text.plural(stats.draws, "draw"),
        text.plural(stats.survivals, "survival"),
        text.plural(stats.eliminations, "elimination"),
    ]
    if stats.left:
        parts.append(f"{stats.left} left before the end")
    return ", ".join(parts)


def reliability_text(stats: UserStats, *, short: bool = False) -> str:
    if stats.reliability is None:
        return "" if short else "not measured yet (no phase owed)"
    if short:
        return f", {stats.reliability:.0f}% reliable"
    return f"{stats.reliability:.0f}%"


def user_lines(user_id: int, stats: UserStats | None) -> list[str]:
    """/stats user: a player's record on this server."""
    if stats is None:
        return [f"<@{user_id}> has not played a game on this server yet."]
    lines = [f"**Record of <@{user_id}> on this server**"]
    if stats.games:
        lines.append(
            f"Finished games: {stats.games} ({results_text(stats)}); average score "
            f"{score_text(stats.average_score)}"
        )
        if stats.with_built_in:
            lines.append(
                f"- {stats.with_built_in} of them with built-in players (the seats they played count "
                "for no one)"
            )
    else:
        lines.append("No finished game yet (games still running count towards reliability only).")
    lines += [
        f"Reliability: {reliability_text(stats)}",
        f"- Phases ordered in time: {stats.ordered}",
        f"- Phases missed: {stats.missed}",
        f"- Civil disorders: {stats.civil_disorders}",
        f"- Replaced: {text.plural(stats.replaced, 'time')}",
        f"(Each civil disorder or replacement weighs as {PENALTY_PHASES} missed phases.)",
    ]
    return lines


class StatsCommands(GameCog):
    @app_commands.command(name="stats", description="The server's leaderboard, or one player's record")
    @app_commands.describe(user="A player: their games, results, scores and reliability")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        guild_id = require_guild(interaction, "The leaderboard")
        await defer(interaction)
        if user is None:
            await send(interaction, board_lines(await self.gamemaster.server_board(guild_id)))
            return
        await send(interaction, user_lines(user.id, await self.gamemaster.player_stats(guild_id, user.id)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(StatsCommands(bot))
