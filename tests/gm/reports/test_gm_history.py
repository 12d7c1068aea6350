"""History and maps: public after the close, secret before; maps stored once."""

from __future__ import annotations

import asyncio

import pytest
from sqlmodel import select

from db.database import SessionFactory
from db.models import PhaseMap, PhaseRecord
from engine import Board, load_map
from gm.errors import UnknownPhase
from gm.reports.history import phase_history
from gm.settings import GameSettings
from render import RenderOptions, render_map
from tests.gm.conftest import make_closer, make_started_game, submit
from tests.helpers.gm import gamemaster


async def test_orders_are_hidden_until_the_phase_closes(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await submit(sessions, started, "FRANCE", "A Par-Bur")
    async with sessions() as s:
        before = await phase_history(s, started.game.id)
    assert before.phase.name == "S1901M" and before.results is None
    assert "A PAR" in before.board["units"]["FRANCE"]  # the board is public
    await make_closer(sessions).close(started.phase.id)
    async with sessions() as s:
        after = await phase_history(s, started.game.id)
        current = await phase_history(s, started.game.id, "f1901m")
    assert after.phase.name == "S1901M" and after.results is not None
    assert {"power": "FRANCE", "order": "A PAR - BUR", "status": "succeeded"}.items() <= next(
        o for o in after.results["orders"] if o["power"] == "FRANCE"
    ).items()
    assert current.results is None and current.phases == ("S1901M", "F1901M")
    assert "bookkeeping" not in after.results, "gm's notes for a rollback (database ids) are not history"
    async with sessions() as s:
        with pytest.raises(UnknownPhase, match="no phase 'S1950M'") as refused:
            await phase_history(s, started.game.id, "S1950M")
    assert "S1901M, F1901M" in (refused.value.hint or "")


async def test_the_orders_map_of_an_open_phase_is_refused(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    with pytest.raises(UnknownPhase, match="secret until the phase closes"):
        await gamemaster(sessions).phase_map(started.game.id, with_orders=True)


async def test_the_opening_map_is_rendered_once_and_kept(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)

    async def fetch() -> bytes:
        image = await gamemaster(sessions).phase_map(started.game.id)
        assert image is not None and image.filename == "S1901M-position.png"
        return image.png

    first, second = await asyncio.gather(fetch(), fetch())
    assert first.startswith(b"\x89PNG") and first == second
    async with sessions() as s:
        assert len((await s.exec(select(PhaseMap))).all()) == 1


@pytest.mark.parametrize("rendered_at_close", [True, False])
@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_the_map_of_a_game_that_ended_at_a_close_shows_the_final_position(
    sessions: SessionFactory, rendered_at_close: bool
) -> None:
    started = await make_started_game(sessions, settings=GameSettings(last_year=1901))
    await submit(sessions, started, "FRANCE", "A Par-Bur")
    spring = await make_closer(sessions).close(started.phase.id)
    assert spring.next_phase is not None
    await submit(sessions, started, "FRANCE", "A Bur-Bel")
    fall = await make_closer(sessions, render_maps=rendered_at_close).close(spring.next_phase.id)
    assert fall.game_over
    maps = gamemaster(sessions)
    shown = await maps.phase_map(started.game.id)
    opening = await maps.phase_map(started.game.id, "F1901M")  # asked by name: as the phase opened
    assert shown is not None and opening is not None
    assert shown.filename == "F1901M-final.png" and opening.filename == "F1901M-position.png"
    async with sessions() as s:
        phase = await s.get(PhaseRecord, fall.phase_id)
        assert phase is not None
        final = (
            await s.exec(select(PhaseMap).where(PhaseMap.phase_id == fall.phase_id, PhaseMap.kind == "final"))
        ).one()  # stored at the close, or once when first asked for
    assert shown.png == final.png != opening.png
    assert phase.results is not None and "A BEL" in phase.results["board_after"]["units"]["FRANCE"]
    final_options = RenderOptions(
        title="Game over: France and Russia share the win \u00b7 position after Fall 1901 Movement",
        show_adjustments=False,
    )
    assert shown.png == render_map(
        Board.from_json(phase.results["board_after"], load_map()), options=final_options
    )


@pytest.mark.parametrize("asked", ["S1901", "spring 1901", "Spring 1901 Movement", "s1901m"])
async def test_a_phase_is_found_by_how_players_write_it(sessions: SessionFactory, asked: str) -> None:
    started = await make_started_game(sessions)
    await make_closer(sessions).close(started.phase.id)
    shown = await gamemaster(sessions).phase_map(started.game.id, asked)
    assert shown is not None and shown.filename == "S1901M-position.png"
