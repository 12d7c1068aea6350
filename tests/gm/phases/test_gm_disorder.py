"""Missed orders and civil disorder: counting, falling into it, what it does at the close, coming back."""

from __future__ import annotations

import pytest

from db.database import SessionFactory
from db.models import PhaseRecord
from gm.ordering import submission as orders
from gm.settings import GameSettings
from tests.gm.conftest import (
    T0,
    close,
    current_phase,
    make_closer,
    make_started_game,
    messages,
    place,
    player_of,
    player_row,
    submit,
)


async def test_two_missed_movement_phases_put_a_player_in_civil_disorder_and_alert_the_moderators(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    italy = player_of(started, "ITALY")
    await submit(sessions, started, "FRANCE", "A Par H")
    await close(sessions, started.game.id)  # Spring 1901: Italy's first miss
    assert (await player_row(sessions, started.game.id, italy)).status == "active"
    assert await messages(sessions, "civil_disorder") == []

    await submit(sessions, started, "FRANCE", "A Par H")
    await close(sessions, started.game.id)  # Fall 1901: the second in a row
    row = await player_row(sessions, started.game.id, italy)
    assert row.status == "civil_disorder" and row.missed_in_a_row == 2 and row.missed_phases == 2
    france = await player_row(sessions, started.game.id, player_of(started, "FRANCE"))
    assert france.status == "active" and france.missed_in_a_row == 0
    said = await messages(sessions, "civil_disorder")
    # Six players fell at this close: one announcement, one call to the moderators, listing them all.
    (alert,) = [m for m in said if m.target_kind == "game_channel"]
    assert alert.payload["alert_moderators"] is True
    assert (
        alert.payload["title"] == "Austria, England, Germany, Italy, Russia and Turkey are in civil disorder"
    )
    why = f"[[user:{italy}]] sent no orders for Italy for 2 movement phases in a row."
    assert why in alert.payload["lines"]
    # ... and each of them is told by direct message, without a call to the moderators.
    dms = {m.target_user_id: m for m in said if m.target_kind == "user"}
    absent = {player_of(started, p) for p in ("AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY")}
    assert set(dms) == absent
    assert dms[italy].payload["title"] == "Test game: Italy is in civil disorder"
    assert dms[italy].payload["lines"][0] == "You sent no orders for Italy for 2 movement phases in a row."
    assert "send orders" in dms[italy].payload["lines"][-1]
    assert not any(m.payload.get("alert_moderators") for m in dms.values())


async def test_a_power_in_civil_disorder_is_disbanded_when_dislodged_and_its_retreat_phase_closes_at_once(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions, settings=GameSettings(civil_disorder_after=1))
    await submit(sessions, started, "AUSTRIA", "A Vie H")
    await close(sessions, started.game.id)  # Italy misses once: civil disorder at once (setting 1)
    assert (
        await player_row(sessions, started.game.id, player_of(started, "ITALY"))
    ).status == "civil_disorder"
    phase = await current_phase(sessions, started.game.id)
    await place(
        sessions,
        phase.row_id,
        {
            "phase": "F1901M",
            "units": {"AUSTRIA": ["A TYR", "A TRI"], "ITALY": ["A VEN", "A ROM"]},
            "centers": {"AUSTRIA": ["VIE", "TRI", "BUD"], "ITALY": ["VEN", "ROM", "NAP"]},
        },
    )
    await submit(sessions, started, "AUSTRIA", "A Tri-Ven\nA Tyr S A Tri-Ven")
    outcome = await close(sessions, started.game.id)  # the retreat phase concerns only Italy: closes at once
    assert outcome.phase == "F1901R" and outcome.closed
    async with sessions() as s:
        retreat = await s.get(PhaseRecord, outcome.phase_id)
    assert retreat is not None and retreat.results is not None
    (line,) = [o for o in retreat.results["orders"] if o["power"] == "ITALY"]
    assert line["order"] == "A VEN D" and line["input"] is None  # disbanded, not retreated
    after = retreat.results["board_after"]
    assert after["units"]["ITALY"] == ["A ROM"] and "VEN" in after["centers"]["AUSTRIA"]


async def test_orders_or_ready_bring_a_player_back_and_reset_the_count(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, settings=GameSettings(civil_disorder_after=1))
    italy = player_of(started, "ITALY")
    await close(sessions, started.game.id)
    assert (await player_row(sessions, started.game.id, italy)).status == "civil_disorder"
    await submit(sessions, started, "ITALY", "A Rom H")
    row = await player_row(sessions, started.game.id, italy)
    assert row.status == "active"
    await submit(sessions, started, "ITALY", "A Ven H")
    await close(sessions, started.game.id)
    row = await player_row(sessions, started.game.id, italy)
    assert row.status == "active" and row.missed_in_a_row == 0


async def test_zero_turns_civil_disorder_off(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, settings=GameSettings(civil_disorder_after=0))
    for _ in range(3):
        await close(sessions, started.game.id)
    row = await player_row(sessions, started.game.id, player_of(started, "ITALY"))
    assert row.status == "active" and row.missed_in_a_row >= 2
    assert await messages(sessions, "civil_disorder") == []


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_missed_retreats_and_adjustments_do_not_count_toward_civil_disorder(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    await place(
        sessions,
        started.phase.id,
        {
            "phase": "W1901A",
            "units": {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
            "centers": {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["MUN"]},
        },
        adjustments={"FRANCE": 2},
    )
    await close(sessions, started.game.id)  # France owed builds and sent nothing
    france = await player_row(sessions, started.game.id, player_of(started, "FRANCE"))
    assert france.missed_phases == 1 and france.missed_in_a_row == 0 and france.status == "active"


async def test_a_player_with_two_powers_falls_into_civil_disorder_with_both(sessions: SessionFactory) -> None:
    started = await make_started_game(
        sessions, players=4, settings=GameSettings(players=4, civil_disorder_after=1)
    )
    seat = player_of(started, "ITALY")
    assert player_of(started, "RUSSIA") == seat
    async with sessions.begin() as s:  # the Austria/France player orders
        await orders.submit_orders(
            s, started.game.id, player_of(started, "AUSTRIA"), "A Vie H\nA Par H", now=T0
        )
    await close(sessions, started.game.id)
    said = await messages(sessions, "civil_disorder")
    (alert,) = [m for m in said if m.target_kind == "game_channel"]
    powers = alert.payload["powers"]
    assert "ITALY" in powers and "RUSSIA" in powers
    assert "AUSTRIA" not in powers and "FRANCE" not in powers  # that player ordered
    (dm,) = [m for m in said if m.target_user_id == seat]
    assert dm.payload["title"] == "Test game: Italy and Russia are in civil disorder"
    assert (await player_row(sessions, started.game.id, seat)).status == "civil_disorder"


async def test_acting_for_one_of_two_powers_is_not_a_miss(sessions: SessionFactory) -> None:
    started = await make_started_game(
        sessions, players=4, settings=GameSettings(players=4, civil_disorder_after=1)
    )
    seat = player_of(started, "ITALY")
    async with sessions.begin() as s:
        await orders.submit_orders(s, started.game.id, seat, "A Rom H", now=T0)  # Italy only, Russia silent
    await make_closer(sessions).close(started.phase.id)
    row = await player_row(sessions, started.game.id, seat)
    assert row.status == "active" and row.missed_phases == 0 and row.missed_in_a_row == 0
