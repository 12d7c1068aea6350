"""A newcomer's welcome to a seat carries the current position's map; when it was never drawn (a
fogged seat nobody's view was stored for), the hand-over draws it first (gm.facade.moderating), so the
welcome finds it: under the fog, the seat's first power's view."""

from __future__ import annotations

import pytest
from sqlmodel import col, select

from db.database import SessionFactory
from db.models import OutboxEntry, PhaseMap
from gm.settings import GameSettings
from tests.gm.conftest import current_phase, make_started_game, user
from tests.helpers.gm import MOD, gamemaster

NEWCOMER = user(30)


async def welcome_maps(sessions: SessionFactory) -> list[str]:
    async with sessions() as s:
        rows = (
            await s.exec(
                select(OutboxEntry)
                .where(OutboxEntry.kind == "welcome", OutboxEntry.target_user_id == NEWCOMER)
                .order_by(col(OutboxEntry.id))
            )
        ).all()
    [row] = rows
    return [ref["kind"] for ref in row.payload.get("maps", ())]


async def stored(sessions: SessionFactory, phase_id: int) -> set[str]:
    async with sessions() as s:
        return set((await s.exec(select(PhaseMap.kind).where(PhaseMap.phase_id == phase_id))).all())


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_a_fogged_seats_welcome_map_is_drawn_before_the_hand_over(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, settings=GameSettings(players=3, fog="silent"))
    phase = await current_phase(sessions, started.game.id)
    seat = sorted(p for p, u in started.assignments.items() if u == started.assignments["TURKEY"])
    assert len(seat) == 2 and await stored(sessions, phase.row_id) == set(), "a seat of two, no map yet"
    await gamemaster(sessions).replace_player(started.game.id, MOD, power="TURKEY", new_user_id=NEWCOMER)
    first = f"pos-{seat[0]}"
    assert await welcome_maps(sessions) == [first], "the seat's first power's view"
    assert await stored(sessions, phase.row_id) == {first}, "drawn for it, and nobody else's view"


async def test_a_seats_welcome_shows_the_whole_position_without_fog(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    phase = await current_phase(sessions, started.game.id)
    await gamemaster(sessions).replace_player(started.game.id, MOD, power="ITALY", new_user_id=NEWCOMER)
    assert await welcome_maps(sessions) == ["position"]
    assert await stored(sessions, phase.row_id) == {"position"}
