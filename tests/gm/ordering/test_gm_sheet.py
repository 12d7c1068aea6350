"""The order sheet's actions at the gm facade: hold the rest, take one order back, clear and ready,
each for the sheet's phase and game only, through the same paths as typed orders; and the menu's
owners (whose unit a support helps)."""

from __future__ import annotations

import pytest
from sqlmodel import col, select

from db.database import SessionFactory
from db.models import OrderSubmission
from gm.errors import NoOrdersGiven, NotAllowed, OrdersClosed
from gm.meant_for import MeantFor
from gm.setup.places import ensure_place_tag
from tests.gm.conftest import close, current_phase, make_started_game, place, player_of, submit
from tests.helpers.gm import gamemaster


async def test_hold_the_rest_holds_only_the_units_without_orders(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    gm = gamemaster(sessions)
    france = player_of(started, "FRANCE")
    await submit(sessions, started, "FRANCE", "A Par-Bur")
    answer = await gm.sheet_hold_the_rest(started.game.id, france, meant_for=MeantFor("S1901M"))
    assert answer.report is not None
    assert [line.order for line in answer.report.lines] == ["F BRE H", "A MAR H"]
    assert answer.view.powers[0].orders == ("A PAR - BUR", "F BRE H", "A MAR H")
    assert answer.menu is not None and answer.menu.powers[0].missing == ()
    with pytest.raises(NoOrdersGiven, match="nothing left to hold"):
        await gm.sheet_hold_the_rest(started.game.id, france, meant_for=MeantFor("S1901M"))
    async with sessions() as s:
        logged = (await s.exec(select(OrderSubmission).order_by(col(OrderSubmission.id)))).all()
    assert [row.text for row in logged][-1] == "F BRE H\nA MAR H", "logged as a typed submission"


async def test_a_build_taken_back_and_ready_toggled(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await place(
        sessions,
        started.phase.id,
        {
            "phase": "W1901A",
            "units": {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "F KIE", "A BER"]},
            "centers": {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["BER", "KIE", "MUN"]},
        },
        adjustments={"FRANCE": 2},
    )
    gm = gamemaster(sessions)
    france = player_of(started, "FRANCE")
    await gm.submit_chosen_order(
        started.game.id, france, "A PAR B", power="FRANCE", meant_for=MeantFor("W1901A")
    )
    answer = await gm.sheet_withdraw(started.game.id, france, "PAR", meant_for=MeantFor("W1901A"))
    assert answer.view.powers[0].orders == () and answer.view.powers[0].missing == ("2 builds",)
    again = await gm.sheet_withdraw(started.game.id, france, "PAR", meant_for=MeantFor("W1901A"))
    assert again.view.powers[0].orders == (), "nothing to take back is no error"
    with pytest.raises(NotAllowed, match="movement phases"):
        await gm.sheet_hold_the_rest(started.game.id, france, meant_for=MeantFor("W1901A"))
    ready = await gm.sheet_ready(started.game.id, france, ready=True, meant_for=MeantFor("W1901A"))
    assert ready.menu is None and ready.view.close_now, "France was the only one to act: it closes"
    await gm.runtime.idle()
    assert (await current_phase(sessions, started.game.id)).name == "S1902M"


async def test_ready_and_clear_in_a_movement_phase(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    gm = gamemaster(sessions)
    france = player_of(started, "FRANCE")
    await submit(sessions, started, "FRANCE", "A Par-Bur\nF Bre-MAO")
    ready = await gm.sheet_ready(started.game.id, france, ready=True, meant_for=MeantFor("S1901M"))
    assert ready.menu is not None and ready.menu.ready and not ready.view.close_now
    unready = await gm.sheet_ready(started.game.id, france, ready=False, meant_for=MeantFor("S1901M"))
    assert unready.menu is not None and not unready.menu.ready
    cleared = await gm.sheet_clear(started.game.id, france, meant_for=MeantFor("S1901M"))
    assert cleared.view.powers[0].orders == () and cleared.menu is not None
    assert set(cleared.menu.powers[0].missing) == {"F BRE", "A MAR", "A PAR"}


async def test_the_menu_says_whose_unit_stands_where(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    menu = await gamemaster(sessions).order_menu(started.game.id, player_of(started, "FRANCE"))
    assert menu.owner("MUN") == "GERMANY" and menu.owner("STP/SC") == "RUSSIA"
    assert menu.owner("PAR") == "FRANCE" and menu.owner("BUR") is None


async def test_a_sheet_of_a_closed_phase_or_another_game_changes_nothing(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    async with sessions.begin() as session:
        tag = await ensure_place_tag(session, started.game.id)
    gm = gamemaster(sessions)
    france = player_of(started, "FRANCE")
    other = "zzzz" if tag != "zzzz" else "yyyy"
    for action in (
        gm.sheet_hold_the_rest(started.game.id, france, meant_for=MeantFor("S1901M", other)),
        gm.sheet_clear(started.game.id, france, meant_for=MeantFor("S1901M", other)),
        gm.sheet_ready(started.game.id, france, ready=True, meant_for=MeantFor("S1901M", other)),
        gm.sheet_withdraw(started.game.id, france, "PAR", meant_for=MeantFor("S1901M", other)),
    ):
        with pytest.raises(OrdersClosed, match="earlier game that had the number"):
            await action
    await close(sessions, started.game.id)
    with pytest.raises(OrdersClosed, match="orders are closed"):
        await gm.sheet_hold_the_rest(started.game.id, france, meant_for=MeantFor("S1901M", tag))
    view = await gm.my_orders(started.game.id, france)
    assert view.phase.name == "F1901M" and view.powers[0].orders == () and not view.powers[0].ready
