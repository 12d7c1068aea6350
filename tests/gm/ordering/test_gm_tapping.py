"""Orders by tap at the gm facade: the menu of a player's legal orders (theirs only, with their current
orders), one chosen order submitted through the same path as typed orders, and the private preview
map of one's own orders."""

from __future__ import annotations

import pytest
from sqlmodel import col, select

from db.database import SessionFactory
from db.models import OrderSubmission
from engine.legal import OrderKind
from gm.errors import NotAPlayer, OrdersClosed
from gm.facade import Gamemaster
from gm.meant_for import MeantFor
from gm.ordering import legal
from gm.ordering.drawing import preview_request, preview_title, render_preview
from gm.setup.places import ensure_place_tag
from tests.gm.conftest import close, current_phase, make_started_game, place, player_of, submit, user
from tests.helpers.gm import RecordingSender


def gamemaster(sessions: SessionFactory) -> Gamemaster:
    return Gamemaster(sessions, RecordingSender(), workers=0, render_maps=False)


async def test_the_menu_holds_the_callers_powers_only_with_their_current_orders(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    await submit(sessions, started, "FRANCE", "A Par-Bur")
    await submit(sessions, started, "GERMANY", "A Mun-Bur")
    menu = await gamemaster(sessions).order_menu(started.game.id, player_of(started, "FRANCE"))
    [france] = menu.powers
    assert france.power == "FRANCE" and menu.phase_name == "S1901M"
    assert [e.location for e in france.legal.entries] == ["BRE", "MAR", "PAR"]
    paris = france.legal.entry("PAR")
    assert paris is not None and france.current(paris) == "A PAR - BUR"
    assert france.missing == ("F BRE", "A MAR")
    assert paris.kinds() == (OrderKind.HOLD, OrderKind.MOVE, OrderKind.SUPPORT)
    assert menu.find("MUN") is None, "Germany's units are not France's to order"
    assert [key for _power, key in menu.keys()]  # noqa: SIM118 == ["BRE", "MAR", "PAR"]


async def test_a_chosen_order_goes_the_way_of_a_typed_one(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    gm = gamemaster(sessions)
    france = player_of(started, "FRANCE")
    await submit(sessions, started, "FRANCE", "A Par H")
    chosen = await gm.submit_chosen_order(
        started.game.id, france, "A PAR - BUR", power="FRANCE", meant_for=MeantFor("S1901M")
    )
    [line] = chosen.report.lines
    assert line.accepted and line.order == "A PAR - BUR" and line.replaced == "A PAR H"
    assert chosen.menu is not None
    paris = chosen.menu.powers[0].legal.entry("PAR")
    assert paris is not None and chosen.menu.powers[0].current(paris) == "A PAR - BUR"
    async with sessions() as s:
        logged = (await s.exec(select(OrderSubmission).order_by(col(OrderSubmission.id)))).all()
    assert [(row.action, row.text) for row in logged] == [("submit", "A Par H"), ("submit", "A PAR - BUR")]


async def test_a_builder_of_a_phase_that_has_passed_is_refused_and_changes_nothing(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    gm = gamemaster(sessions)
    france = player_of(started, "FRANCE")
    await close(sessions, started.game.id)
    with pytest.raises(OrdersClosed, match="Spring 1901 Movement orders are closed"):
        await gm.order_menu(started.game.id, france, meant_for=MeantFor("S1901M"))
    with pytest.raises(OrdersClosed):
        await gm.submit_chosen_order(
            started.game.id, france, "A PAR H", power="FRANCE", meant_for=MeantFor("S1901M")
        )
    with pytest.raises(OrdersClosed):
        await gm.orders_preview(started.game.id, france, meant_for=MeantFor("S1901M"))
    view = await gm.my_orders(started.game.id, france)
    assert view.phase.name == "F1901M" and view.powers[0].orders == ()
    with pytest.raises(NotAPlayer):
        await gm.order_menu(started.game.id, user(99))


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_a_builder_of_another_game_that_had_this_number_is_refused_and_changes_nothing(
    sessions: SessionFactory,
) -> None:
    """A builder left from another database (a fresh start, an older backup restored) names a game
    number that is now another game's: its tag differs, and nothing it asks for is done."""
    started = await make_started_game(sessions)
    async with sessions.begin() as session:
        tag = await ensure_place_tag(session, started.game.id)
    gm = gamemaster(sessions)
    france = player_of(started, "FRANCE")
    menu = await gm.order_menu(started.game.id, france, meant_for=MeantFor("S1901M", tag))
    assert menu.game_tag == tag and tag
    other = "zzzz" if tag != "zzzz" else "yyyy"
    with pytest.raises(OrdersClosed, match="earlier game that had the number") as refused:
        await gm.order_menu(started.game.id, france, meant_for=MeantFor("S1901M", other))
    assert "Nothing was recorded" in refused.value.message
    with pytest.raises(OrdersClosed, match="earlier game that had the number"):
        await gm.submit_chosen_order(
            started.game.id,
            france,
            "A PAR H",
            power="FRANCE",
            meant_for=MeantFor("S1901M", other),
        )
    with pytest.raises(OrdersClosed, match="earlier game that had the number"):
        await gm.orders_preview(started.game.id, france, meant_for=MeantFor("S1901M", other))
    assert (await gm.my_orders(started.game.id, france)).powers[0].orders == ()
    chosen = await gm.submit_chosen_order(
        started.game.id,
        france,
        "A PAR H",
        power="FRANCE",
        meant_for=MeantFor("S1901M", tag),
    )
    assert chosen.report.lines[0].accepted
    async with sessions() as s:
        logged = (await s.exec(select(OrderSubmission))).all()
    assert [row.text for row in logged] == ["A PAR H"], "the refused click left no trace"


async def test_the_last_order_of_a_retreat_phase_closes_it_and_leaves_no_menu(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    await place(
        sessions,
        started.phase.id,
        {
            "phase": "F1901R",
            "units": {"FRANCE": ["A PAR"], "GERMANY": ["A BUR", "A MUN"]},
            "centers": {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["BER", "KIE", "MUN"]},
            "dislodged": {"FRANCE": {"A BUR": {"attacker_from": "MUN", "retreats": ["PIC", "GAS"]}}},
        },
    )
    gm = gamemaster(sessions)
    france = player_of(started, "FRANCE")
    menu = await gm.order_menu(started.game.id, france)
    [burgundy] = menu.powers[0].legal.entries
    assert burgundy.dislodged and burgundy.kinds() == (OrderKind.RETREAT, OrderKind.DISBAND)
    assert burgundy.targets(OrderKind.RETREAT) == ("GAS", "PIC")
    chosen = await gm.submit_chosen_order(
        started.game.id, france, "A BUR R PIC", power="FRANCE", meant_for=MeantFor("F1901R")
    )
    assert chosen.report.lines[0].accepted and chosen.menu is None and chosen.report.view.close_now
    await gm.runtime.idle()
    assert (await current_phase(sessions, started.game.id)).name == "W1901A"


async def test_the_preview_draws_the_callers_orders_and_nobody_elses(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await submit(sessions, started, "FRANCE", "A Par-Bur\nF Bre-MAO")
    await submit(sessions, started, "GERMANY", "A Mun-Bur")
    preview = await gamemaster(sessions).orders_preview(started.game.id, player_of(started, "FRANCE"))
    assert preview.drawn == {"FRANCE": ("A PAR - BUR", "F BRE - MAO")}
    assert preview.filename == "S1901M-my-orders.png"
    board = (await current_phase(sessions, started.game.id)).board
    title = preview_title("Spring 1901 Movement", ["FRANCE"])
    assert title == "Spring 1901 Movement \u00b7 France: orders so far"
    theirs = render_preview(preview_request(board, "standard", dict(preview.drawn), title))
    everyone = render_preview(
        preview_request(board, "standard", {**preview.drawn, "GERMANY": ("A MUN - BUR",)}, title)
    )
    assert preview.png == theirs and theirs != everyone


async def test_a_new_position_in_the_same_phase_gives_its_own_menu(sessions: SessionFactory) -> None:
    """The boards and menus remembered by position: the phase's board changed in place (a moderator's
    rollback, a test's position) is another position, with its own legal orders."""
    started = await make_started_game(sessions)
    gm = gamemaster(sessions)
    france = player_of(started, "FRANCE")
    before = await gm.order_menu(started.game.id, france)
    assert [e.location for e in before.powers[0].legal.entries] == ["BRE", "MAR", "PAR"]
    await place(sessions, started.phase.id, {"phase": "S1901M", "units": {"FRANCE": ["A BUR", "F MAO"]}})
    after = await gm.order_menu(started.game.id, france)
    assert [e.location for e in after.powers[0].legal.entries] == ["BUR", "MAO"]
    bur = after.powers[0].legal.entry("BUR")
    assert bur is not None and "A BUR - MUN" in [o.text for o in bur.orders]


async def test_a_menu_read_with_the_game_held_is_the_menu_read_whole(sessions: SessionFactory) -> None:
    """The game the process holds (a write about orders read it) spares the menu's read the game, its
    phase and its seats: the same menu, another player's new order in it, and the same refusals."""
    started = await make_started_game(sessions)
    gm = gamemaster(sessions)
    game, france = started.game.id, player_of(started, "FRANCE")
    await gm.submit_orders(game, france, "A Par-Bur")  # the game held from here on
    held = gm._current.held_game(game)
    assert held is not None
    await submit(sessions, started, "FRANCE", "F Bre-Mao")  # not through the facade: read by both
    async with sessions.read() as s:
        whole = await legal.order_menu(s, game, france)
        spared = await legal.order_menu(s, game, france, held=held)
        with pytest.raises(OrdersClosed, match="closed"):
            await legal.order_menu(s, game, france, meant_for=MeantFor("F1901M"), held=held)
        with pytest.raises(NotAPlayer):
            await legal.order_menu(s, game, user(99), held=held)
    assert spared.view == whole.view and spared.powers == whole.powers
    assert spared.powers[0].orders == {"PAR": "A PAR - BUR", "BRE": "F BRE - MAO"}
