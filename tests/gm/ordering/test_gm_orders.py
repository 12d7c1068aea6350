"""Submitting, replacing, clearing and showing orders, readiness, and the refusals a player can meet."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import col, select

from db.database import SessionFactory
from db.models import OrderRecord, OrderSubmission, PlayerStatus
from gm.errors import (
    GameNotStarted,
    GameOver,
    NoOrdersGiven,
    NotAllowed,
    NotAPlayer,
    OrdersClosed,
    UnknownGame,
)
from gm.meant_for import MeantFor
from gm.ordering import submission as orders
from gm.ordering import whole_sheet
from gm.settings import GameSettings
from gm.setup import games
from tests.gm.conftest import (
    CREATOR,
    T0,
    close,
    current_phase,
    make_game,
    make_started_game,
    place,
    player_of,
    player_row,
    set_player_status,
    submit,
    user,
)
from tests.helpers.gm import RETREAT_BOARD


async def test_each_line_is_accepted_or_refused_with_the_engines_reason(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    report = await submit(sessions, started, "FRANCE", "A Par-Bur\nF Bre - Mid; A Mun - Ruh\nxyzzy")
    assert [(o.line, o.accepted, o.order) for o in report.lines] == [
        ("A Par-Bur", True, "A PAR - BUR"),
        ("F Bre - Mid", True, "F BRE - MAO"),
        ("A Mun - Ruh", False, None),
        ("xyzzy", False, None),
    ]
    munich, garbage = report.refused
    assert "GERMANY" in (munich.reason or "") and munich.hint
    assert "xyzzy" in (garbage.reason or "") and garbage.hint
    france = report.view.powers[0]
    assert france.power == "FRANCE"
    assert france.orders == ("A PAR - BUR", "F BRE - MAO")
    assert france.missing == ("A MAR",)
    assert report.view.deadline == started.phase.deadline


async def test_a_later_order_for_a_unit_replaces_the_earlier(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await submit(sessions, started, "FRANCE", "A Par-Bur\nA Mar H")
    report = await submit(sessions, started, "FRANCE", "A Paris - Picardy")
    assert report.lines[0].replaced == "A PAR - BUR"
    assert report.view.powers[0].orders == ("A PAR - PIC", "A MAR H")
    async with sessions() as s:
        rows = (await s.exec(select(OrderRecord).where(OrderRecord.power == "FRANCE"))).all()
    assert sorted(r.text for r in rows) == ["A MAR H", "A PAR - PIC"]
    assert {r.input for r in rows} == {"A Paris - Picardy", "A Mar H"}


async def test_every_submission_is_logged_as_typed_refused_lines_included(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    text = "A Par-Bur\nA Lon-Bel\n"
    await submit(sessions, started, "FRANCE", text)
    async with sessions() as s:
        logged = (await s.exec(select(OrderSubmission))).one()
    assert logged.text == text
    assert logged.user_id == player_of(started, "FRANCE")
    assert [line["accepted"] for line in logged.outcome] == [True, False]


async def test_a_nul_character_loses_nothing_on_either_database(sessions: SessionFactory) -> None:
    """PostgreSQL refuses U+0000 in text; the valid orders around one must still count."""
    started = await make_started_game(sessions)
    report = await submit(sessions, started, "FRANCE", "A Par-Bur\x00\nF B\x00re-MAO\n")
    assert [line.accepted for line in report.lines] == [True, True]
    async with sessions() as s:
        view = await orders.my_orders(s, started.game.id, player_of(started, "FRANCE"))
        logged = (await s.exec(select(OrderSubmission))).one()
    assert set(view.powers[0].orders) == {"A PAR - BUR", "F BRE - MAO"}
    assert "\x00" not in logged.text and "A Par-Bur" in logged.text
    async with sessions.begin() as s:
        named = await games.create_game(
            s, guild_id=1, creator_id=CREATOR, name="Nul\x00 league", settings=GameSettings(), now=T0
        )
    assert named.name == "Nul league"


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_the_submission_log_keeps_only_the_latest_per_player_and_phase(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    for n in range(orders.SUBMISSIONS_KEPT + 7):
        await submit(sessions, started, "FRANCE", f"A Par-{'Bur' if n % 2 else 'Gas'}")
    await submit(sessions, started, "GERMANY", "A Mun-Ruh")
    async with sessions() as s:
        logged = (await s.exec(select(OrderSubmission).order_by(col(OrderSubmission.id)))).all()
        view = await orders.my_orders(s, started.game.id, player_of(started, "FRANCE"))
    france = [e for e in logged if e.user_id == player_of(started, "FRANCE")]
    assert len(france) == orders.SUBMISSIONS_KEPT
    assert france[-1].text == f"A Par-{'Bur' if (orders.SUBMISSIONS_KEPT + 6) % 2 else 'Gas'}"
    assert len(logged) == orders.SUBMISSIONS_KEPT + 1, "another player's log is untouched"
    assert "A PAR - GAS" in view.powers[0].orders, "the orders themselves are all there"
    for text in ("A Par-Pic", "A Par-Bur"):  # the form: its withdrawal and its submission logged at once
        async with sessions.begin() as s:
            await whole_sheet.replace_orders(s, started.game.id, player_of(started, "FRANCE"), text, now=T0)
    async with sessions() as s:
        logged = (await s.exec(select(OrderSubmission).order_by(col(OrderSubmission.id)))).all()
    france = [e for e in logged if e.user_id == player_of(started, "FRANCE")]
    assert len(france) == orders.SUBMISSIONS_KEPT
    assert [e.action for e in france[-4:]] == ["clear", "submit", "clear", "submit"]
    assert france[-1].text == "A Par-Bur"


async def test_my_orders_shows_only_my_own(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await submit(sessions, started, "FRANCE", "A Par-Bur")
    await submit(sessions, started, "GERMANY", "A Mun-Bur")
    async with sessions() as s:
        view = await orders.my_orders(s, started.game.id, player_of(started, "GERMANY"))
    assert [(p.power, p.orders) for p in view.powers] == [("GERMANY", ("A MUN - BUR",))]
    assert set(view.powers[0].missing) == {"F KIE", "A BER"}


async def test_clear_removes_only_my_orders(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await submit(sessions, started, "FRANCE", "A Par-Bur")
    await submit(sessions, started, "GERMANY", "A Mun-Bur")
    async with sessions.begin() as s:
        view = await orders.clear_orders(s, started.game.id, player_of(started, "FRANCE"))
    assert view.powers[0].orders == ()
    async with sessions() as s:
        left = (await s.exec(select(OrderRecord))).all()
    assert [r.text for r in left] == ["A MUN - BUR"]


async def test_refusals_for_the_wrong_people_and_games(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    forming = await make_game(sessions, players=2, name="Later")
    async with sessions() as s:
        with pytest.raises(NotAPlayer, match="not playing in Test game"):
            await orders.submit_orders(s, started.game.id, user(99), "A Par-Bur", now=T0)
    async with sessions() as s:
        with pytest.raises(GameNotStarted, match="Later has not started"):
            await orders.submit_orders(s, forming.id, CREATOR, "A Par-Bur", now=T0)
    async with sessions() as s:
        with pytest.raises(UnknownGame):
            await orders.submit_orders(s, 999_999, CREATOR, "A Par-Bur", now=T0)
    async with sessions() as s:
        with pytest.raises(NotAllowed, match="You do not play England"):
            await orders.submit_orders(
                s, started.game.id, player_of(started, "FRANCE"), "F Lon-Nth", power="england", now=T0
            )
    async with sessions() as s:
        with pytest.raises(NoOrdersGiven):
            await orders.submit_orders(s, started.game.id, player_of(started, "FRANCE"), " \n ", now=T0)
    async with sessions() as s:
        assert (await s.exec(select(OrderSubmission))).all() == []
        assert (await s.exec(select(OrderRecord))).all() == []


async def test_orders_for_a_finished_game_are_refused(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    async with sessions() as s:
        game = await s.get(games.Game, started.game.id)
        assert game is not None
        game.status = "finished"
        await s.commit()
    with pytest.raises(GameOver, match="Test game is over"):
        await submit(sessions, started, "FRANCE", "A Par-Bur")


async def test_orders_for_a_phase_that_has_moved_on_are_refused(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    async with sessions() as s:
        with pytest.raises(OrdersClosed, match="Fall 1901 Movement orders are closed") as refused:
            await orders.submit_orders(
                s,
                started.game.id,
                player_of(started, "FRANCE"),
                "A Par-Bur",
                meant_for=MeantFor("F1901M"),
                now=T0,
            )
    assert "Nothing was recorded" in refused.value.message


async def test_a_player_with_two_powers_orders_both_in_one_message(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, players=4)
    holder = player_of(started, "AUSTRIA")
    assert player_of(started, "FRANCE") == holder
    async with sessions.begin() as s:
        report = await orders.submit_orders(
            s, started.game.id, holder, "A Vie-Gal\nA Par-Bur\nFrance:\nF Bre H\nA Mun-Ruh", now=T0
        )
    assert [(o.power, o.order) for o in report.accepted] == [
        ("AUSTRIA", "A VIE - GAL"),
        ("FRANCE", "A PAR - BUR"),
        ("FRANCE", "F BRE H"),
    ]
    (munich,) = report.refused  # under the heading "France:", the line is France's: France's reason
    assert munich.power == "FRANCE" and "GERMANY" in (munich.reason or "")
    async with sessions.begin() as s:
        report = await orders.submit_orders(s, started.game.id, holder, "A Bud-Ser\nA Ven-Tyr", now=T0)
    assert [o.power for o in report.accepted] == ["AUSTRIA"]
    (venice,) = report.refused  # Italy is not this player's: the reason names Italy's owner
    assert "ITALY" in (venice.reason or "")
    assert [p.power for p in report.view.powers] == ["AUSTRIA", "FRANCE"]


async def test_orders_bring_a_player_back_from_civil_disorder(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await set_player_status(sessions, started, "FRANCE", PlayerStatus.CIVIL_DISORDER)
    await submit(sessions, started, "FRANCE", "A Par-Bur")
    player = await player_row(sessions, started.game.id, player_of(started, "FRANCE"))
    assert player.status == PlayerStatus.ACTIVE


async def test_ready_closes_early_only_when_everybody_is_ready(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    powers = sorted(started.assignments)
    for i, power in enumerate(powers):
        async with sessions.begin() as s:
            view = await orders.set_ready(s, started.game.id, player_of(started, power), now=T0)
        assert view.powers[0].ready
        assert view.close_now == (i == len(powers) - 1)
    async with sessions.begin() as s:
        view = await orders.set_ready(s, started.game.id, player_of(started, "FRANCE"), ready=False, now=T0)
    assert not view.close_now and not view.powers[0].ready


async def test_absent_players_do_not_hold_up_an_early_close(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    async with sessions.begin() as s:
        await games.leave_game(s, started.game.id, player_of(started, "ITALY"), now=T0)
    for power in sorted(p for p in started.assignments if p != "ITALY"):
        async with sessions.begin() as s:
            view = await orders.set_ready(s, started.game.id, player_of(started, power), now=T0)
    assert view.close_now


async def test_a_retreat_phase_closes_as_soon_as_the_dislodged_power_has_ordered(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    await place(sessions, started.phase.id, RETREAT_BOARD)
    report = await submit(sessions, started, "FRANCE", "A Mar - Bur")
    assert not report.accepted and not report.view.close_now
    assert report.view.powers[0].missing == ("A MAR",)
    report = await submit(sessions, started, "FRANCE", "A Mar R Gascony")
    assert report.lines[0].order == "A MAR R GAS"
    assert report.view.close_now


WINTER_BOARD = {
    "phase": "W1901A",
    "units": {"FRANCE": ["A PAR", "A SPA", "A POR"], "GERMANY": ["A MUN", "A HOL", "A BEL", "A DEN"]},
    "centers": {"FRANCE": ["PAR", "MAR", "BRE", "SPA", "POR"], "GERMANY": ["MUN", "BER", "KIE"]},
}


async def test_builds_beyond_the_count_are_refused(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await place(sessions, started.phase.id, WINTER_BOARD, adjustments={"FRANCE": 2, "GERMANY": -1})
    report = await submit(sessions, started, "FRANCE", "F Bre B\nA Mar B\nWAIVE")
    assert [o.accepted for o in report.lines] == [True, True, False]
    assert "may build 2 units and already has 2 ordered" in (report.lines[2].reason or "")
    assert report.view.powers[0].missing == ()
    report = await submit(sessions, started, "FRANCE", "F Mar B")  # same site: replaces, not a third
    assert report.lines[0].accepted and report.lines[0].replaced == "A MAR B"
    germany = await submit(sessions, started, "GERMANY", "A Kie B")
    assert not germany.accepted and "no builds" in (germany.lines[0].reason or "")
    germany = await submit(sessions, started, "GERMANY", "A Den D\nA Hol D")
    assert [o.accepted for o in germany.lines] == [True, False]
    assert germany.view.close_now


async def test_the_phase_shown_is_the_current_one(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    phase = await current_phase(sessions, started.game.id)
    async with sessions() as s:
        view = await orders.my_orders(s, started.game.id, player_of(started, "TURKEY"))
    assert view.phase.id == phase.id and view.phase.long_name == "Spring 1901 Movement"


async def test_ready_brings_a_player_back_from_civil_disorder(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    italy = player_of(started, "ITALY")
    await set_player_status(sessions, started, "ITALY", PlayerStatus.CIVIL_DISORDER)
    async with sessions.begin() as s:
        await orders.set_ready(s, started.game.id, italy, now=T0)
    player = await player_row(sessions, started.game.id, italy)
    assert player.status == PlayerStatus.ACTIVE


async def test_orders_sent_just_after_a_close_say_that_they_are_for_the_new_phase(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    first = await submit(sessions, started, "FRANCE", "A Par-Bur")
    assert first.new_phase_notice is None  # the first phase follows no other
    await close(sessions, started.game.id)  # at T0
    late = await submit(sessions, started, "FRANCE", "A Bur-Bel", now=T0 + timedelta(seconds=12))
    assert [line.order for line in late.accepted] == ["A BUR - BEL"]  # kept, for the new phase
    assert late.view.phase.name == "F1901M"
    assert late.new_phase_notice == (
        "Spring 1901 Movement closed 12 seconds ago: these orders are for Fall 1901 Movement. "
        "Check the new position ([[cmd:map]])."
    )
    later = await submit(sessions, started, "FRANCE", "A Mar H", now=T0 + timedelta(minutes=4))
    assert later.new_phase_notice is None
    async with sessions.begin() as s:  # the form names its phase: no warning needed
        from_form = await orders.submit_orders(
            s,
            started.game.id,
            player_of(started, "FRANCE"),
            "F Bre H",
            meant_for=MeantFor("F1901M"),
            now=T0 + timedelta(minutes=1),
        )
    assert from_form.accepted and from_form.new_phase_notice is None


async def test_a_retreat_sent_just_after_the_moves_closed_gets_no_warning(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await place(
        sessions,
        started.phase.id,
        {"phase": "S1901M", "units": {"FRANCE": ["A BUR"], "GERMANY": ["A RUH", "A MUN"]}, "centers": {}},
    )
    await submit(sessions, started, "GERMANY", "A Ruh-Bur\nA Mun S A Ruh-Bur")
    await submit(sessions, started, "FRANCE", "A Bur H")
    await close(sessions, started.game.id)  # at T0: France's A BUR is dislodged
    # France's only unit must retreat: France is still in the game (it may retreat onto a center).
    assert (await player_row(sessions, started.game.id, player_of(started, "FRANCE"))).status == "active"
    retreat = await submit(sessions, started, "FRANCE", "A Bur R Par", now=T0 + timedelta(seconds=5))
    assert retreat.view.phase.name == "S1901R"
    assert [line.order for line in retreat.accepted] == ["A BUR R PAR"]
    assert retreat.new_phase_notice is None


async def test_a_submission_takes_few_statements(sessions: SessionFactory, engine: AsyncEngine) -> None:
    """The submission path's round trips (issue 19): the game with its open phase, the seats, the
    orders and ready flags with the player's count in the log (one statement), the orders written (one
    statement for the new ones, one for the replaced), the log entry; its bound only when the log is full
    (test_the_submission_log_is_bounded_per_player). A guard against a slip back to one query per lookup."""
    started = await make_started_game(sessions)
    statements: list[str] = []

    def count(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        statements.append(statement.split()[0].upper())

    event.listen(engine.sync_engine, "before_cursor_execute", count)
    try:
        await submit(sessions, started, "FRANCE", "A Par-Bur\nF Bre H")  # two new orders
        first = list(statements)
        statements.clear()
        await submit(sessions, started, "FRANCE", "A Par H\nA Mar H")  # one replaced, one new
        second = list(statements)
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", count)
    reads = ["SELECT"] * 3  # the game and its phase, the seats, the orders with the ready flags
    log = ["INSERT"]  # the submission logged (far from the bound: nothing to forget)
    begin = ["BEGIN"] if first[0] == "BEGIN" else []  # SQLite's BEGIN IMMEDIATE is a statement
    assert first == [*begin, *reads, "INSERT", *log]
    assert second == [*begin, *reads, "INSERT", "UPDATE", *log]


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_an_order_row_the_session_holds_shows_the_replacement(sessions: SessionFactory) -> None:
    """The orders are written with plain statements: a row the caller's session had loaded as an
    object is given the new values, as when the rows were written through the session."""
    started = await make_started_game(sessions)
    await submit(sessions, started, "FRANCE", "A Par-Bur")
    async with sessions.begin() as s:
        held = (await s.exec(select(OrderRecord).where(OrderRecord.unit_key == "PAR"))).one()
        await orders.submit_orders(s, started.game.id, player_of(started, "FRANCE"), "A Par H", now=T0)
        assert (held.text, held.input) == ("A PAR H", "A Par H")
        again = (await s.exec(select(OrderRecord).where(OrderRecord.unit_key == "PAR"))).one()
        assert again is held and again.text == "A PAR H"
