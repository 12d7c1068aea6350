"""A fogged game's results (setting ``fog``, gm.phases.fogged): the game channel gets no order and no
map, and the center counts only after the fall (``counts``) or never (``silent``); each power's
channel gets the orders it saw and its own maps, stored beside the full ones for the end."""

from __future__ import annotations

from sqlmodel import col, select

from db.database import SessionFactory
from db.models import OutboxEntry, OutboxTarget, PhaseMap
from engine import Board, initial_board
from engine.fog import named_provinces, visible_provinces
from gm.messages.kinds import PhaseResults, read_message
from gm.phases.fogged import PUBLIC_LINE
from gm.settings import GameSettings
from tests.gm.conftest import close, current_phase, make_closer, make_started_game, submit

SPRING = {
    "FRANCE": "A Par-Bur\nA Mar-Pie\nF Bre-Mao",
    "GERMANY": "A Mun-Ruh\nF Kie-Den\nA Ber-Kie",
    "ITALY": "A Ven-Tyr\nA Rom-Ven\nF Nap-Ion",
    "RUSSIA": "A War-Gal\nF Sev-Bla",
}


async def results(sessions: SessionFactory) -> list[tuple[OutboxEntry, PhaseResults]]:
    async with sessions() as s:
        rows = (
            await s.exec(
                select(OutboxEntry).where(OutboxEntry.kind == "phase_results").order_by(col(OutboxEntry.id))
            )
        ).all()
    out = []
    for row in rows:
        content = read_message(row.kind, row.payload)
        assert isinstance(content, PhaseResults)
        out.append((row, content))
    return out


async def stored_kinds(sessions: SessionFactory, phase_id: int) -> set[str]:
    async with sessions() as s:
        return set((await s.exec(select(PhaseMap.kind).where(PhaseMap.phase_id == phase_id))).all())


async def test_a_fogged_phase_tells_each_power_what_it_saw_and_the_game_channel_nothing(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions, settings=GameSettings(players=7, fog="counts"))
    first = await current_phase(sessions, started.game.id)
    for power, text in SPRING.items():
        await submit(sessions, started, power, text)
    await close(sessions, started.game.id, closer=make_closer(sessions, render_maps=True))
    spring = await results(sessions)
    public = [c for row, c in spring if row.target_kind == OutboxTarget.GAME_CHANNEL]
    private = {str(row.target_power): c for row, c in spring if row.target_kind == OutboxTarget.POWER_CHANNEL}
    [shown] = public
    assert shown.fogged and not shown.orders and not shown.maps and not shown.fields
    assert list(shown.lines) == [PUBLIC_LINE]
    assert set(private) == set(started.assignments)  # every power's player gets its own view

    board = initial_board("standard")
    nxt = await current_phase(sessions, started.game.id)
    after = Board.from_json(nxt.board)
    for power, view in private.items():
        seen = visible_provinces(board, power) | visible_provinces(after, power)
        assert view.fogged and view.title.endswith("'s view")
        for rival, lines in view.orders.items():
            for line in lines:
                assert rival == power or named_provinces(board.game_map, line["order"]) & seen, (power, line)
        assert [m["kind"] for m in view.maps] == [f"orders-{power}", f"pos-{power}"]
        assert list(view.fields) == [power.capitalize()]  # its own count only before the fall
    france = private["FRANCE"]
    assert "ITALY" in france.orders  # A Ven-Tyr: Venice borders Piedmont, where France went
    assert "RUSSIA" not in france.orders and "TURKEY" not in france.orders
    assert "GERMANY" in france.orders  # A Mun-Ruh: Ruhr borders Burgundy, where France went
    assert {f"orders-{p}" for p in private} | {"orders"} <= await stored_kinds(sessions, first.row_id)
    assert {f"pos-{p}" for p in private} | {"position"} <= await stored_kinds(sessions, nxt.row_id)

    await close(sessions, started.game.id, closer=make_closer(sessions))  # Fall 1901: centers change hands
    fall = (await results(sessions))[len(spring) :]
    [public_fall] = [c for row, c in fall if row.target_kind == OutboxTarget.GAME_CHANNEL]
    assert set(public_fall.fields) == {p.capitalize() for p in started.assignments}
    assert not public_fall.orders


async def test_a_silent_fog_gives_the_game_channel_no_counts(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, settings=GameSettings(players=7, fog="silent"))
    await close(sessions, started.game.id)
    await close(sessions, started.game.id)
    public = [c for row, c in await results(sessions) if row.target_kind == OutboxTarget.GAME_CHANNEL]
    assert len(public) == 2 and not any(c.fields or c.orders or c.maps for c in public)


async def test_a_game_without_fog_posts_its_results_as_before(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await submit(sessions, started, "FRANCE", SPRING["FRANCE"])
    await close(sessions, started.game.id)
    [(row, content)] = await results(sessions)
    assert row.target_kind == OutboxTarget.GAME_CHANNEL and not content.fogged
    assert "FRANCE" in content.orders and "TURKEY" in content.orders
