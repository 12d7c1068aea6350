"""Closing a phase: results, the next phase, the messages, the end of the game."""

from __future__ import annotations

import dataclasses
import pickle
from datetime import timedelta

import pytest
from sqlmodel import col, select

from db.database import SessionFactory
from db.models import Game, OrderRecord, OutboxEntry, PhaseMap, PhaseRecord, Player
from gm.errors import OrdersClosed
from gm.meant_for import MeantFor
from gm.ordering import submission as orders
from gm.phases.closer import CloseFailed, CloseHooks
from gm.phases.contract import CloseRequest
from gm.phases.worker import close_work
from gm.settings import GameSettings
from tests.gm.conftest import (
    T0,
    current_phase,
    france_one_move_from_a_solo,
    make_closer,
    make_started_game,
    messages,
    place,
    player_of,
    set_player_status,
    submit,
)
from tests.helpers.gm import RETREAT_BOARD


async def test_closing_writes_results_opens_the_next_phase_and_queues_the_messages(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    await submit(sessions, started, "FRANCE", "A Par-Bur\nF Bre-Mid\nA Mar-Spa")
    await submit(sessions, started, "GERMANY", "A Mun-Bur\nA Ber-Kie")  # F Kie has no order
    outcome = await make_closer(sessions).close(started.phase.id)

    assert outcome.closed and outcome.status == "closed"
    assert outcome.next_phase is not None and outcome.next_phase.name == "F1901M"
    assert outcome.next_phase.deadline == T0 + timedelta(days=1)
    async with sessions() as s:
        closed = await s.get(PhaseRecord, started.phase.id)
    assert closed is not None and closed.status == "closed" and closed.results is not None
    by_order = {line["order"]: line for line in closed.results["orders"]}
    assert by_order["A PAR - BUR"]["status"] == "failed"  # bounced with A MUN - BUR
    assert "bounced" in by_order["A PAR - BUR"]["reason"]
    assert by_order["F BRE - MAO"]["status"] == "succeeded"
    nxt = await current_phase(sessions, started.game.id)
    assert nxt.name == "F1901M" and nxt.status == "open"
    assert "F MAO" in nxt.board["units"]["FRANCE"]

    (results,) = await messages(sessions, "phase_results")
    payload = results.payload
    assert payload["phase"] == "S1901M" and payload["next_phase"] == "F1901M"
    assert payload["deadline"] == (T0 + timedelta(days=1)).isoformat()
    assert [o["order"] for o in payload["orders"]["GERMANY"]] == ["A MUN - BUR", "A BER - KIE", "F KIE H"]
    assert sorted(payload["missed"]["none"]) == ["AUSTRIA", "ENGLAND", "ITALY", "RUSSIA", "TURKEY"]
    assert payload["missed"]["partial"] == {"GERMANY": ["F KIE"]}
    assert payload["centers"]["FRANCE"] == 3
    opened = await messages(sessions, "phase_opened")
    assert sorted(m.target_power or "" for m in opened) == sorted(started.assignments)


async def test_missed_orders_are_counted_per_player(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await submit(sessions, started, "FRANCE", "A Par H")
    await make_closer(sessions).close(started.phase.id)
    async with sessions() as s:
        players = {p.user_id: p for p in (await s.exec(select(Player))).all()}
    assert players[player_of(started, "FRANCE")].missed_phases == 0
    assert players[player_of(started, "ITALY")].missed_in_a_row == 1


async def test_a_phase_that_is_not_open_is_left_alone(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    closer = make_closer(sessions)
    first = await closer.close(started.phase.id)
    again = await closer.close(started.phase.id)
    assert first.closed and not again.closed and again.status == "closed"
    async with sessions() as s:
        assert len((await s.exec(select(PhaseRecord))).all()) == 2


async def test_an_order_sent_while_the_phase_is_adjudicated_is_refused_and_changes_nothing(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    await submit(sessions, started, "FRANCE", "A Par-Bur")
    refusals: list[OrdersClosed] = []

    async def late_order(phase_id: int) -> None:
        try:
            await submit(sessions, started, "FRANCE", "A Par-Pic\nA Mar-Spa")
        except OrdersClosed as exc:
            refusals.append(exc)

    await make_closer(sessions, hooks=CloseHooks(after_claim=late_order)).close(started.phase.id)
    (refused,) = refusals
    assert "Spring 1901 Movement orders of Test game are closed" in refused.message
    assert "Nothing was recorded" in refused.message and refused.hint
    async with sessions() as s:
        rows = (await s.exec(select(OrderRecord).where(OrderRecord.phase_id == started.phase.id))).all()
        closed = await s.get(PhaseRecord, started.phase.id)
    assert [r.text for r in rows] == ["A PAR - BUR"]
    assert closed is not None and closed.results is not None
    assert next(o["order"] for o in closed.results["orders"] if o["power"] == "FRANCE") == "A PAR - BUR"


async def test_an_order_after_the_close_goes_to_the_next_phase_or_is_refused(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    await make_closer(sessions).close(started.phase.id)
    async with sessions() as s:
        with pytest.raises(OrdersClosed, match="Spring 1901 Movement orders are closed"):
            await orders.submit_orders(
                s,
                started.game.id,
                player_of(started, "FRANCE"),
                "A Par-Bur",
                meant_for=MeantFor("S1901M"),
                now=T0,
            )
    report = await submit(sessions, started, "FRANCE", "A Par-Bur")
    assert report.view.phase.name == "F1901M" and report.accepted


async def test_a_failed_adjudication_reopens_the_phase(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)

    def broken(request: dict) -> dict:
        raise RuntimeError("engine bug")

    with pytest.raises(CloseFailed):
        await make_closer(sessions, work=broken).close(started.phase.id)
    phase = await current_phase(sessions, started.game.id)
    assert phase.id == started.phase.id and phase.status == "open"
    report = await submit(sessions, started, "FRANCE", "A Par-Bur")
    assert report.accepted


async def test_retreats_then_the_next_phase(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await place(sessions, started.phase.id, RETREAT_BOARD)
    await submit(sessions, started, "FRANCE", "A Mar R Spa")
    outcome = await make_closer(sessions).close(started.phase.id)
    assert outcome.next_phase is not None and outcome.next_phase.name == "F1901M"
    nxt = await current_phase(sessions, started.game.id)
    assert sorted(nxt.board["units"]["FRANCE"]) == ["A PAR", "A SPA"]


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_a_retreat_phase_for_an_absent_power_can_close_at_once(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await place(
        sessions,
        started.phase.id,
        {
            "phase": "S1901M",
            "units": {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"], "ITALY": ["A ROM"]},
            "centers": {"FRANCE": ["PAR"], "GERMANY": ["MUN"], "ITALY": ["ROM"]},
        },
    )
    await set_player_status(sessions, started, "FRANCE", "left")
    await submit(sessions, started, "GERMANY", "A Mun-Bur\nA Ruh S A Mun-Bur")
    outcome = await make_closer(sessions).close(started.phase.id)
    assert outcome.next_phase is not None and outcome.next_phase.name == "S1901R"
    assert outcome.next_close_now  # only France must act, and France's player is gone
    async with sessions() as s:
        opened = (
            await s.exec(select(OutboxEntry).where(OutboxEntry.phase_id == outcome.next_phase.id))
        ).all()
    assert opened == []  # nobody to call to order


async def test_a_short_game_ends_after_its_last_fall(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, settings=GameSettings(last_year=1901))
    closer = make_closer(sessions)
    spring = await closer.close(started.phase.id)
    assert spring.next_phase is not None and not spring.game_over
    await submit(sessions, started, "FRANCE", "A Par-Bur\nA Mar-Spa\nF Bre-Mid", now=T0)
    fall = await closer.close(spring.next_phase.id)
    assert fall.game_over and fall.next_phase is None
    async with sessions() as s:
        game = await s.get(Game, started.game.id)
        phases = (await s.exec(select(PhaseRecord).order_by(col(PhaseRecord.ordinal)))).all()
    assert game is not None and game.status == "finished"
    assert game.result is not None and game.result["kind"] == "last_year"
    assert game.result["centers"]["FRANCE"] == 4  # Spain taken
    assert [p.name for p in phases] == ["S1901M", "F1901M"]
    # France took Spain: 4 centers, level with Russia's four at the start, so they share the win.
    assert game.result["winner"] is None and game.result["shared"] == ["FRANCE", "RUSSIA"]
    (over,) = await messages(sessions, "game_over")
    assert over.payload["lines"][:2] == [
        "The last year (1901) has been played; the most centers decide.",
        "France and Russia share the win with 4 centers each.",
    ]


async def test_a_solo_ends_the_game(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await france_one_move_from_a_solo(sessions, started)
    outcome = await make_closer(sessions).close(started.phase.id)
    assert outcome.game_over and outcome.winner == "FRANCE" and outcome.next_phase is None
    async with sessions() as s:
        game = await s.get(Game, started.game.id)
    assert game is not None and game.status == "finished"
    assert (
        game.result is not None
        and game.result["winner"] == "FRANCE"
        and game.result["centers"]["FRANCE"] == 18
    )
    (over,) = await messages(sessions, "game_over")
    assert over.payload["lines"][0] == "France wins with 18 centers."


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_maps_are_stored_with_the_phases_when_rendering(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    outcome = await make_closer(sessions, render_maps=True).close(started.phase.id)
    assert outcome.next_phase is not None
    async with sessions() as s:
        maps = (await s.exec(select(PhaseMap))).all()
    assert {(m.phase_id, m.kind) for m in maps} == {
        (started.phase.id, "orders"),
        (outcome.next_phase.id, "position"),
    }
    assert all(m.png.startswith(b"\x89PNG") for m in maps)
    (results,) = await messages(sessions, "phase_results")
    assert [ref["kind"] for ref in results.payload["maps"]] == ["orders", "position"]


def test_the_worker_is_plain_data_in_and_out() -> None:
    """What crosses the process boundary: JSON-able request, JSON-able answer (maps as bytes)."""
    from engine import Board

    request = CloseRequest(
        variant="standard",
        board=dict(Board.initial().to_json()),
        orders={"FRANCE": ("A Par-Bur",)},
        render=False,
    )
    answer = close_work(pickle.loads(pickle.dumps(request)))
    answer = pickle.loads(pickle.dumps(answer))
    assert answer.result["next_phase"] == "F1901M"
    assert answer.next_board["phase"] == "F1901M"
    assert "A BUR" in answer.next_board["units"]["FRANCE"]
    assert answer.maps == {}
    with pytest.raises(dataclasses.FrozenInstanceError):
        answer.maps = {}
