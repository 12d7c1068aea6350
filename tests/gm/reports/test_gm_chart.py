"""/history chart's data and picture: every power's centers from the start, drawn in either palette;
refused, with what to do, for a game not started."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from db.database import SessionFactory
from gm.errors import NotAllowed, UnknownPhase
from gm.reports.chart import chart_of
from gm.settings import GameSettings
from tests.gm.conftest import make_game, make_started_game
from tests.helpers.gm import gamemaster


async def test_the_chart_of_a_started_game_has_every_power_from_the_start(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    async with sessions() as s:
        filename, request = await chart_of(s, started.game.id, colorblind=True)
    assert filename == f"game-{started.game.id}-chart-colorblind.png" and request["palette"] == "colorblind"
    assert request["years"] == ["start"]
    assert {r["power"]: r["centers"] for r in request["rows"]}["RUSSIA"] == [4]
    image = await gamemaster(sessions).centers_chart(started.game.id)
    assert Image.open(io.BytesIO(image.png)).size == (1200, 900)


async def test_a_game_not_started_has_no_chart_yet(sessions: SessionFactory) -> None:
    game = await make_game(sessions)
    with pytest.raises(UnknownPhase, match="has not started") as refused:
        await gamemaster(sessions).centers_chart(game.id)
    assert refused.value.hint and "first phase" in refused.value.hint


async def test_the_fog_of_war_hides_the_chart_until_the_end_unless_the_counts_are_public(
    sessions: SessionFactory,
) -> None:
    silent = await make_started_game(sessions, settings=GameSettings(players=7, fog="silent"))
    with pytest.raises(NotAllowed, match="fog of war") as refused:
        await gamemaster(sessions).centers_chart(silent.game.id)
    assert refused.value.hint and "final post" in refused.value.hint
    counted = await make_started_game(sessions, settings=GameSettings(players=7, fog="counts"))
    assert (await gamemaster(sessions).centers_chart(counted.game.id)).png.startswith(b"\x89PNG")
