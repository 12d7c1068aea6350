"""The current orders the process holds for the orders form (gm.ordering.current): what the form shows
is what the database holds, after a submission by any path and after any other change."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update
from sqlmodel import col

from db.database import SessionFactory
from db.models import PhaseRecord, PlayerStatus
from gm.delivery.shards import Ownership
from gm.errors import NotAPlayer, OrdersClosed
from gm.facade import Gamemaster
from gm.meant_for import MeantFor
from gm.ordering import legal
from gm.ordering import submission as orders
from gm.ordering.drawing import render_preview
from gm.ordering.legal import OrderMenu
from gm.ordering.preview import preview_of
from gm.ordering.submission import OrdersView
from gm.reading.info import GameInfo
from gm.settings import GameSettings
from gm.setup import games
from tests.gm.conftest import (
    GUILD,
    T0,
    make_game,
    make_started_game,
    player_of,
    player_row,
    set_player_status,
)
from tests.helpers.gm import RecordingSender

FRANCE = "FRANCE"


@pytest.fixture
async def started(sessions: SessionFactory) -> games.StartResult:
    return await make_started_game(sessions, players=7)


@pytest.fixture
async def gm(sessions: SessionFactory) -> AsyncIterator[Gamemaster]:
    gamemaster = Gamemaster(sessions, RecordingSender(), workers=0, render_maps=False)
    yield gamemaster
    await gamemaster.runtime.idle()


async def stored(sessions: SessionFactory, started: games.StartResult, power: str = FRANCE) -> OrdersView:
    """What a read of the database gives the player now."""
    async with sessions.read() as session:
        return await orders.my_orders(session, started.game.id, player_of(started, power))


def held(gm: Gamemaster, started: games.StartResult, power: str = FRANCE) -> OrdersView | None:
    return gm.orders_held(started.game.id, player_of(started, power))


def orders_of(view: OrdersView | None) -> tuple[tuple[str, ...], ...] | None:
    return None if view is None else tuple(p.orders for p in view.powers)


async def test_the_form_shows_the_orders_after_a_submission_by_every_path(
    gm: Gamemaster, sessions: SessionFactory, started: games.StartResult
) -> None:
    game, me = started.game.id, player_of(started, FRANCE)
    assert held(gm, started) is None
    await gm.my_orders(game, me)  # the first form reads and keeps
    assert held(gm, started) == await stored(sessions, started)

    await gm.submit_orders(game, me, "A Par-Bur\nF Bre-Nowhere")  # a DM, /order
    now = held(gm, started)
    assert now == await stored(sessions, started)
    assert orders_of(now) == (("A PAR - BUR",),) and now is not None and now.refused == ("F Bre-Nowhere",)

    await gm.replace_orders(game, me, "A Mar-Spa", meant_for=MeantFor("S1901M"))  # the form itself
    assert orders_of(held(gm, started)) == (("A MAR - SPA",),)
    assert held(gm, started) == await stored(sessions, started)

    await gm.submit_chosen_order(game, me, "F BRE - MAO", power=FRANCE, meant_for=MeantFor("S1901M"))  # a tap
    assert orders_of(held(gm, started)) == (("A MAR - SPA", "F BRE - MAO"),)
    assert held(gm, started) == await stored(sessions, started)

    await gm.clear_orders(game, me)
    assert held(gm, started) == await stored(sessions, started)
    assert orders_of(held(gm, started)) == ((),)

    await gm.set_ready(game, me)  # the ready flag: read again at the next form
    assert held(gm, started) is None
    assert await gm.my_orders(game, me) == await stored(sessions, started)


async def test_another_players_submission_leaves_the_form_of_others_held(
    gm: Gamemaster, sessions: SessionFactory, started: games.StartResult
) -> None:
    await gm.my_orders(started.game.id, player_of(started, FRANCE))
    await gm.submit_orders(started.game.id, player_of(started, "GERMANY"), "A Mun-Ruh")
    assert held(gm, started) == await stored(sessions, started)
    assert held(gm, started, "GERMANY") == await stored(sessions, started, "GERMANY")


async def test_any_other_change_to_the_game_drops_what_was_held(
    gm: Gamemaster, sessions: SessionFactory, started: games.StartResult
) -> None:
    game, me = started.game.id, player_of(started, FRANCE)
    await gm.submit_orders(game, me, "A Par-Bur")
    assert held(gm, started) is not None

    await set_player_status(sessions, started, "ENGLAND", PlayerStatus.CIVIL_DISORDER)  # a row changed
    assert held(gm, started) is None
    assert await gm.my_orders(game, me) == await stored(sessions, started)

    async with sessions() as session:  # a statement changing rows (as the closer's compare-and-set)
        await session.exec(update(PhaseRecord).where(col(PhaseRecord.id) == -1).values(status="open"))
        await session.commit()
    assert held(gm, started) is None

    await gm.my_orders(game, me)
    await gm.runtime.close_phase(started.phase.id, reason="all_ready")  # the phase closes: a new one opens
    await gm.runtime.idle()  # what is held of the game: the new phase's, read once it opened
    now = held(gm, started)
    assert now is not None and now.phase.name == "F1901M" and now == await stored(sessions, started)


async def test_the_first_form_of_a_new_phase_opens_with_every_players_orders_as_a_read_gives_them(
    gm: Gamemaster, sessions: SessionFactory, started: games.StartResult
) -> None:
    """Once a phase opens, the process holds every player's orders of the new phase (read in the
    background): the first form of the phase opens without a read, with what a read gives."""
    game = started.game.id
    await gm.submit_orders(game, player_of(started, "ENGLAND"), "F Lon-Nth")
    await gm.runtime.close_phase(started.phase.id, reason="all_ready")
    await gm.runtime.idle()
    for power in started.assignments:
        now = held(gm, started, power)
        assert now is not None and now.phase.name == "F1901M", power
        assert now == await stored(sessions, started, power)
    assert orders_of(held(gm, started, "ENGLAND")) == ((),)  # the spring's orders are not the fall's


@pytest.mark.both_backends  # the latest submissions of every player in one statement
async def test_after_a_restart_every_players_form_opens_as_a_read_gives_it_refused_lines_included(
    sessions: SessionFactory, started: games.StartResult
) -> None:
    game = started.game.id
    first = Gamemaster(sessions, RecordingSender(), workers=0, render_maps=False)
    await first.submit_orders(game, player_of(started, FRANCE), "A Par-Bur\nF Bre-Nowhere")
    await first.submit_orders(game, player_of(started, FRANCE), "A Mar-Spa\nA Nowhere-Mun")
    await first.submit_orders(game, player_of(started, "GERMANY"), "A Mun-Ruh")
    await first.set_ready(game, player_of(started, "GERMANY"))
    await first.runtime.idle()
    async with sessions.begin() as session:  # a deadline ahead: the start-up closes nothing
        await session.exec(
            update(PhaseRecord)
            .where(col(PhaseRecord.game_id) == game)
            .values(deadline=datetime.now(UTC) + timedelta(days=1))
        )
    restarted = Gamemaster(sessions, RecordingSender(), workers=0, render_maps=False)
    await restarted.runtime.start()  # holds every running game's orders, in the background
    try:
        await restarted.runtime.idle()
        for power in started.assignments:
            assert held(restarted, started, power) == await stored(sessions, started, power), power
        mine = held(restarted, started)
        assert mine is not None and mine.refused == ("A Nowhere-Mun",)  # the latest submission's
        assert orders_of(mine) == (("A PAR - BUR", "A MAR - SPA"),)
        germany = held(restarted, started, "GERMANY")
        assert germany is not None and germany.refused == () and germany.powers[0].ready
    finally:
        await restarted.runtime.shutdown()


async def test_a_holding_read_that_began_before_a_submission_is_not_kept(
    gm: Gamemaster, sessions: SessionFactory, started: games.StartResult
) -> None:
    """Every player's orders read while one of them submitted would show that player's from before
    the submission: none of them is kept, the submission's view is."""
    game, me = started.game.id, player_of(started, FRANCE)
    stamp = gm._current.every_player_stamp(game)
    async with sessions.read() as session:
        before = await orders.every_players_orders(session, game)
    await gm.submit_orders(game, me, "A Par-Pic")
    gm._current.fill_every_player(stamp, game, before)
    assert orders_of(held(gm, started)) == (("A PAR - PIC",),)
    assert held(gm, started, "GERMANY") is None


async def test_a_close_renewing_its_claims_keeps_what_was_held_and_its_claim_drops_it(
    gm: Gamemaster, sessions: SessionFactory, started: games.StartResult
) -> None:
    """While games close, the closer renews its claims every few seconds (gm.phases.closer's
    heartbeat): nothing a player sees changes, so nothing held is read again; the claim itself (the
    phase no longer open) drops it."""
    game, me = started.game.id, player_of(started, FRANCE)
    await gm.submit_orders(game, me, "A Par-Bur")
    async with sessions() as session:
        await session.exec(
            update(PhaseRecord).where(col(PhaseRecord.id) == -1).values(adjudication_started_at=T0)
        )
        await session.commit()
    assert held(gm, started) == await stored(sessions, started)

    async with sessions() as session:
        await session.exec(
            update(PhaseRecord)
            .where(col(PhaseRecord.id) == started.phase.id)
            .values(status="adjudicating", adjudication_started_at=T0)
        )
        await session.commit()
    assert held(gm, started) is None


async def test_a_read_that_began_before_a_submission_is_not_kept(
    gm: Gamemaster, sessions: SessionFactory, started: games.StartResult
) -> None:
    """A slow form's read, begun before the player's submission committed, would show the orders
    from before it: it is not kept, the submission's view is."""
    game, me = started.game.id, player_of(started, FRANCE)
    ticket = gm._current.ticket(game, me)
    before = await stored(sessions, started)
    await gm.submit_orders(game, me, "A Par-Pic")
    gm._current.fill(ticket, before)
    assert orders_of(held(gm, started)) == (("A PAR - PIC",),)


async def test_among_several_processes_nothing_is_held(
    sessions: SessionFactory, started: games.StartResult
) -> None:
    """Another process may write the orders (a direct message goes to shard 0's): every form reads."""
    gm = Gamemaster(
        sessions, RecordingSender(), workers=0, render_maps=False, ownership=Ownership(2, frozenset({0}))
    )
    game, me = started.game.id, player_of(started, FRANCE)
    await gm.submit_orders(game, me, "A Par-Bur")
    assert held(gm, started) is None
    async with sessions.begin() as session:  # the sibling's write
        await orders.submit_orders(session, game, me, "A Par-Gas")
    assert orders_of(await gm.my_orders(game, me)) == (("A PAR - GAS",),)
    await gm.runtime.idle()


# --- the order menus held for the sheet and the builder (their taps answer without a read) -----------


async def read_menu(sessions: SessionFactory, started: games.StartResult, power: str = FRANCE) -> OrderMenu:
    """The menu a read of the database gives the player now."""
    async with sessions.read() as session:
        return await legal.order_menu(session, started.game.id, player_of(started, power))


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_the_menu_after_every_tap_is_the_one_the_database_gives(
    gm: Gamemaster, sessions: SessionFactory, started: games.StartResult
) -> None:
    game, me = started.game.id, player_of(started, FRANCE)
    assert await gm.order_menu(game, me) == await read_menu(sessions, started)  # the sheet opens

    chosen = await gm.submit_chosen_order(game, me, "A PAR - BUR", power=FRANCE, meant_for=MeantFor("S1901M"))
    assert chosen.menu == await read_menu(sessions, started)
    assert await gm.order_menu(game, me, meant_for=MeantFor("S1901M")) == chosen.menu  # the next tap

    taps = (
        lambda: gm.sheet_ready(game, me, ready=True, meant_for=MeantFor("S1901M")),
        lambda: gm.sheet_ready(game, me, ready=False, meant_for=MeantFor("S1901M")),
        lambda: gm.sheet_hold_the_rest(game, me, meant_for=MeantFor("S1901M")),
        lambda: gm.sheet_withdraw(game, me, "MAR", meant_for=MeantFor("S1901M")),
        lambda: gm.sheet_clear(game, me, meant_for=MeantFor("S1901M")),
    )
    for tap in taps:
        answer = await tap()
        assert answer.menu == await read_menu(sessions, started)
        assert await gm.order_menu(game, me, meant_for=MeantFor("S1901M")) == answer.menu

    await gm.submit_orders(game, me, "F Bre-Pic")  # typed (a DM, /order): the next tap reads it
    menu = await gm.order_menu(game, me, meant_for=MeantFor("S1901M"))
    assert menu == await read_menu(sessions, started)
    assert menu.powers[0].orders == {"BRE": "F BRE - PIC"}


async def test_a_typed_change_keeps_the_menu_of_a_player_whose_sheet_is_kept_up_to_date(
    gm: Gamemaster, sessions: SessionFactory, started: games.StartResult
) -> None:
    """A player with a sheet in their direct messages (the runtime's ``menu_watch``): a typed change
    keeps the menu it computed, the one a read gives, so that the sheet's redraw reads nothing."""
    game, me = started.game.id, player_of(started, FRANCE)
    gm.runtime.menu_watch = lambda game_id, user_id: (game_id, user_id) == (game, me)
    await gm.order_menu(game, me)  # the call to order's sheet
    changes = (
        lambda: gm.submit_orders(game, me, "A Par-Bur\nF Bre-Nowhere"),  # a DM, /order
        lambda: gm.replace_orders(game, me, "A Mar-Spa\nF Bre-Mao", meant_for=MeantFor("S1901M")),  # the form
        lambda: gm.set_ready(game, me),  # /ready
        lambda: gm.set_ready(game, me, ready=False),
        lambda: gm.submit_orders(game, me, "A Mar-Pie"),  # after Ready: takes it back
    )
    for change in changes:
        await change()
        menu = gm.menu_held(game, me, meant_for=MeantFor("S1901M"))
        assert menu is not None and menu == await read_menu(sessions, started)
    assert menu is not None and menu.powers[0].orders == {"MAR": "A MAR - PIE", "BRE": "F BRE - MAO"}

    other = player_of(started, "GERMANY")  # no sheet kept up to date: their next tap reads
    await gm.order_menu(game, other)
    await gm.submit_orders(game, other, "A Mun-Ruh")
    assert gm.menu_held(game, other) is None


async def test_a_menu_held_is_dropped_by_any_other_change_to_the_game(
    gm: Gamemaster, sessions: SessionFactory, started: games.StartResult
) -> None:
    game, me = started.game.id, player_of(started, FRANCE)
    await gm.order_menu(game, me)
    await gm.submit_orders(game, player_of(started, "GERMANY"), "A Mun-Bur")  # another player's orders
    assert await gm.order_menu(game, me) == await read_menu(sessions, started)

    await set_player_status(sessions, started, "FRANCE", PlayerStatus.CIVIL_DISORDER)  # a row changed
    assert await gm.order_menu(game, me) == await read_menu(sessions, started)

    await gm.runtime.close_phase(started.phase.id, reason="all_ready")  # the phase closes
    with pytest.raises(OrdersClosed):  # a sheet of the phase that has passed is refused
        await gm.order_menu(game, me, meant_for=MeantFor("S1901M"))
    assert (await gm.order_menu(game, me)).phase_name == "F1901M"


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_the_games_held_are_the_ones_the_database_gives(
    gm: Gamemaster, sessions: SessionFactory, started: games.StartResult
) -> None:
    """What every command asks first (the game named, the user's games, the server's), held in the
    process: after any change of a game, what a read gives."""
    game, me = started.game.id, player_of(started, FRANCE)

    async def read() -> tuple[GameInfo, list[GameInfo], list[GameInfo]]:
        async with sessions.read() as session:
            return (
                await games.get_game(session, game),
                await games.games_of_user(session, me),
                await games.list_games(session, GUILD),
            )

    async def held_now() -> tuple[GameInfo, list[GameInfo], list[GameInfo]]:
        return await gm.get_game(game), await gm.games_of_user(me), await gm.list_games(GUILD)

    assert await held_now() == await read()
    await set_player_status(sessions, started, "ENGLAND", PlayerStatus.CIVIL_DISORDER)
    assert await held_now() == await read()

    other = await make_game(sessions, players=3, name="Another game")
    async with sessions.begin() as session:
        await games.join_game(session, other.id, me, now=T0)
    assert [g.id for g in await gm.games_of_user(me)] == [game, other.id]
    assert await held_now() == await read()

    await gm.runtime.close_phase(started.phase.id, reason="all_ready")
    info = await gm.get_game(game)
    assert info.phase is not None and info.phase.name == "F1901M"
    assert await held_now() == await read()


@pytest.mark.both_backends  # a held game's phase row is locked by a statement of its own on PostgreSQL
async def test_a_write_from_the_game_held_acts_on_what_the_database_holds(
    gm: Gamemaster, sessions: SessionFactory, started: games.StartResult
) -> None:
    """A write about orders holds the game, its phase and its seats for the next (none of it read
    again): after any other change of the game, the next write acts on the game as it is now."""
    game, me = started.game.id, player_of(started, FRANCE)
    await gm.submit_orders(game, me, "A Par-Bur")
    assert gm._current.held_game(game) is not None
    report = await gm.replace_orders(game, me, "A Par-Pic\nF Bre-Mao", meant_for=MeantFor("S1901M"))
    assert orders_of(report.view) == (("A PAR - PIC", "F BRE - MAO"),)
    assert held(gm, started) == await stored(sessions, started)

    await set_player_status(sessions, started, FRANCE, PlayerStatus.CIVIL_DISORDER)
    await gm.submit_orders(game, me, "A Mar-Spa")  # back from civil disorder, as a read would find
    assert (await player_row(sessions, game, me)).status == PlayerStatus.ACTIVE
    assert await gm.my_orders(game, me) == await stored(sessions, started)

    await gm.submit_orders(game, me, "A Mar-Bur")
    await set_player_status(sessions, started, FRANCE, PlayerStatus.LEFT)
    with pytest.raises(NotAPlayer):
        await gm.submit_orders(game, me, "A Mar-Gas")

    germany = player_of(started, "GERMANY")
    await gm.submit_orders(game, germany, "A Mun-Ruh")
    await gm.runtime.close_phase(started.phase.id, reason="all_ready")
    report = await gm.submit_orders(game, germany, "A Ruh-Bel")  # the new phase's, not the closed one's
    assert report.view.phase.name == "F1901M" and report.lines[0].accepted
    assert await gm.my_orders(game, germany) == await stored(sessions, started, "GERMANY")


async def test_the_last_ready_from_the_game_held_records_the_early_close(
    gm: Gamemaster, sessions: SessionFactory, started: games.StartResult
) -> None:
    """Everybody ready, the last one from the game held: the phase's deadline becomes now in the same
    transaction (a bot stopped before the close runs it at its next start)."""
    game = started.game.id
    later = datetime.now(UTC) + timedelta(days=1)
    async with sessions.begin() as session:
        await session.exec(
            update(PhaseRecord).where(col(PhaseRecord.id) == started.phase.id).values(deadline=later)
        )
    powers = sorted(started.assignments)
    for power in powers:
        await gm.submit_orders(game, player_of(started, power), "A Par H" if power == FRANCE else "WAIVE")
    assert gm._current.held_game(game) is not None
    for power in powers:
        view = await gm.set_ready(game, player_of(started, power))
    assert view.close_now
    await gm.runtime.idle()
    async with sessions.read() as session:
        phase = await session.get(PhaseRecord, started.phase.id)
    assert phase is not None and phase.deadline is not None and phase.deadline < later


@pytest.mark.parametrize("fog", ["off", "counts"])
async def test_the_preview_from_what_is_held_is_the_one_a_read_gives(
    sessions: SessionFactory, fog: str
) -> None:
    """/orders show from the player's orders and the game the process holds (no read): the same
    orders, the same picture as a read's, the caller's alone (and under the fog, the caller's view)."""
    started = await make_started_game(sessions, settings=GameSettings(players=7, fog=fog))
    gm = Gamemaster(sessions, RecordingSender(), workers=0, render_maps=False)
    game, me = started.game.id, player_of(started, FRANCE)
    await gm.submit_orders(game, player_of(started, "GERMANY"), "A Mun-Bur")
    await gm.submit_orders(game, me, "A Par-Bur\nF Bre-Mao")
    assert held(gm, started) is not None and gm._current.held_game(game) is not None
    preview = await gm.orders_preview(game, me)
    async with sessions.read() as session:
        view, request = await preview_of(session, game, me)
    assert preview.drawn == {FRANCE: ("A PAR - BUR", "F BRE - MAO")}
    assert preview.view.powers == view.powers and preview.png == render_preview(request)
    assert ("fog" in request) == (fog != "off")
    await gm.runtime.idle()


async def test_orders_from_the_game_held_just_after_a_close_carry_the_new_phase_notice(
    gm: Gamemaster, started: games.StartResult
) -> None:
    """Orders typed moments after a close, the game held by then: the answer still says that the phase
    before has closed and the orders count for the new one."""
    game, germany = started.game.id, player_of(started, "GERMANY")
    await gm.submit_orders(game, germany, "A Mun-Ruh")
    await gm.runtime.close_phase(started.phase.id, reason="all_ready")
    first = await gm.submit_orders(game, germany, "A Ruh-Bel")
    assert gm._current.held_game(game) is not None
    second = await gm.submit_orders(game, germany, "A Ruh-Hol")
    for report in (first, second):
        assert report.lines[0].accepted and report.new_phase_notice is not None
        assert report.new_phase_notice.startswith("Spring 1901 Movement closed")
        assert "these orders are for Fall 1901 Movement" in report.new_phase_notice
