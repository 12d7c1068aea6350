"""The supply-center chart of a game (``/history chart``): each power's centers at the start and at
the end of every year played, drawn by render.chart in the power's colour, in the usual palette or
the colour-blind one. Public data only: refused while the fog of war hides a running game's center
counts (its ``fog`` setting but ``counts``); the final post carries the same chart
(gm.endings.final_post)."""

from __future__ import annotations

from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from gm.endings.ending import centers_by_year
from gm.endings.final_post import chart_request
from gm.errors import NotAllowed, UnknownPhase
from gm.reading.fog import fog_on
from gm.reading.lookup import load_game
from gm.settings import FOG_COUNTS, GameSettings

PALETTES = ("default", "colorblind")


async def chart_of(
    session: AsyncSession, game_id: int, *, colorblind: bool = False
) -> tuple[str, dict[str, Any]]:
    """The chart's file name and what gm.endings.final_post.chart_work draws, for a game that has
    started (refused before: it has nothing to show yet)."""
    game = await load_game(session, game_id)
    if fog_on(game) and GameSettings.from_json(game.settings).fog != FOG_COUNTS:
        raise NotAllowed(
            f"{game.name} is played under the fog of war, which hides its center counts while it runs.",
            "The final post shows the chart when the game ends.",
        )
    table = await centers_by_year(session, game)
    if not table["years"]:
        raise UnknownPhase(
            f"{game.name} has not started, so it has no supply centers to chart yet.",
            "Ask again once its first phase is under way.",
        )
    palette = PALETTES[1] if colorblind else PALETTES[0]
    request = chart_request(
        table, variant=game.variant, title=f"{game.name}: supply centers per year", palette=palette
    )
    suffix = "-colorblind" if colorblind else ""
    return f"game-{game.row_id}-chart{suffix}.png", request
