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
        phase.row_id,
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
    assert shown(final) == "Game over: France wins \u00b7 position after Fall 1901 Movement"
    assert final[2] is False, "no +N chips on a game that is over"


async def test_a_game_ended_during_a_phase_has_a_final_map_saying_how(
    sessions: SessionFactory, titles: list[tuple[str, str | None, bool]]
) -> None:
    """A moderator's end (and a vote's, the same path) comes while a phase is played: the final post's
    map is that phase's position, titled with the game's end, not with the phase alone."""
    from gm.facade import Gamemaster
    from gm.moderation import actions as moderation
    from tests.gm.conftest import T0
    from tests.helpers.endings import JUDGE, with_channel
    from tests.helpers.gm import RecordingSender

    started = await make_started_game(sessions)
    await with_channel(sessions, started.game.id)
    async with sessions.begin() as s:
        result = await moderation.end_game(s, started.game.id, JUDGE, now=T0)
    sender = RecordingSender()
    gm = Gamemaster(sessions, sender, workers=0, render_maps=False, clock=lambda: T0)
    await gm.runtime.apply(result.follow_ups)
    await gm.runtime.deliver()
    (post,) = [m for m in sender.sent if m.kind == "game_over"]
    assert post.payload["title"] == "Test game is over: ended by a moderator"
    assert post.attachments[0].filename == "S1901M-final.png"
    final = [t for t in titles if t[1] and t[1].startswith("Game over")]
    assert [shown(t) for t in final] == [
        "Game over: ended by a moderator \u00b7 position in Spring 1901 Movement"
    ]
    assert final[0][2] is False, "no chips of builds"
    await gm.runtime.shutdown()


def test_each_ending_in_words() -> None:
    from gm.messages.maps import ending_words

    assert ending_words("solo", "FRANCE") == "France wins"
    assert (
        ending_words("draw", None, ["ENGLAND", "FRANCE", "RUSSIA"]) == "a draw of England, France and Russia"
    )
    assert ending_words("concession", "TURKEY") == "conceded to Turkey"
    assert ending_words("moderator") == "ended by a moderator"
    assert ending_words("last_year", "ITALY") == "Italy wins on centers"
    assert ending_words("last_year", None, ["AUSTRIA", "ITALY"]) == "Austria and Italy share the win"
