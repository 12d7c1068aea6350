"""Each map says the phase it shows: the results map of Spring 1901 Movement is titled Spring 1901
Movement (not the phase that follows), a retreat's and an adjustment's results likewise, the opening
position of the next phase with that phase, and the final position of a finished game says the game's
end, without build or removal chips. Read from what gm gives the renderer, through a real close."""

from __future__ import annotations

from typing import Any

import pytest

import render
from db.database import SessionFactory
from render import RenderOptions
from tests.gm.conftest import (
    close,
    current_phase,
    france_one_move_from_a_solo,
    make_closer,
    make_started_game,
    place,
    submit,
)


@pytest.fixture
def titles(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str | None, bool]]:
    """(board's phase, title given, chips of builds shown) of every map gm renders."""
    seen: list[tuple[str, str | None, bool]] = []
    real = render.render_map  # gm.phases.worker imports it when it draws

    def spy(
        board: Any, orders: Any = None, results: Any = None, options: RenderOptions | None = None
    ) -> bytes:
        seen.append(
            (
                str(board.phase),
                options.title if options else None,
                options.show_adjustments if options else True,
            )
        )
        return real(board, orders, results, options)

    monkeypatch.setattr(render, "render_map", spy)
    return seen


def shown(entry: tuple[str, str | None, bool]) -> str:
    """The title the picture shows: the one given, else the board's own phase."""
    from engine import Phase

    return entry[1] or Phase.parse(entry[0]).long_name


async def test_every_phase_types_results_map_is_titled_with_that_phase(
    sessions: SessionFactory, titles: list[tuple[str, str | None, bool]]
) -> None:
    started = await make_started_game(sessions)
    closer = make_closer(sessions, render_maps=True)
    await submit(sessions, started, "FRANCE", "A Par-Bur")
    await close(sessions, started.game.id, closer=closer)  # Spring 1901 Movement
    assert [shown(t) for t in titles] == ["Spring 1901 Movement", "Fall 1901 Movement"]

    titles.clear()
    phase = await current_phase(sessions, started.game.id)
    await place(  # a retreat to order: Germany's A MUN dislodged by France
        sessions,
        phase.id,
        {
            "phase": "F1901R",
            "units": {"FRANCE": ["A MUN", "A BUR"], "GERMANY": ["A BER"]},
            "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["BER", "KIE", "MUN"]},
            "dislodged": {"GERMANY": {"A MUN": {"attacker_from": "BUR", "retreats": ["BOH", "SIL"]}}},
        },
    )
    await close(sessions, started.game.id, closer=closer)
    assert [shown(t) for t in titles][:2] == ["Fall 1901 Retreats", "Winter 1901 Adjustments"]

    titles.clear()
    await close(sessions, started.game.id, closer=closer)  # Winter 1901 Adjustments
    assert [shown(t) for t in titles][:2] == ["Winter 1901 Adjustments", "Spring 1902 Movement"]


async def test_the_final_map_says_the_game_is_over_without_build_chips(
    sessions: SessionFactory, titles: list[tuple[str, str | None, bool]]
) -> None:
    started = await make_started_game(sessions)
    await france_one_move_from_a_solo(sessions, started)
    await close(sessions, started.game.id, closer=make_closer(sessions, render_maps=True))
    results, final = titles[-2:]
    assert shown(results) == "Fall 1901 Movement"
    assert shown(final) == "Final position after Fall 1901 Movement \u00b7 France wins"
    assert final[2] is False, "no +N chips on a game that is over"
