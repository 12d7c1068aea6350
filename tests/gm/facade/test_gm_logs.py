"""The operator's log: one INFO line per lifecycle event, with the figures that matter (which game and
phase, how long), warnings for messages that could not be sent, and never a player's order text."""

from __future__ import annotations

import logging
import random
import re
from datetime import timedelta

import pytest

from db.database import SessionFactory
from db.models import PhaseRecord
from gm.clock import utcnow
from gm.delivery.outbox import OutboxMessage, RetriableSendError
from gm.facade import Gamemaster
from gm.ordering import submission as orders
from gm.ordering.reminders import queue_reminders
from gm.setup import games
from tests.gm.conftest import CREATOR, make_game, make_started_game, player_of, submit
from tests.helpers.gm import RecordingSender

ORDER_TEXT = ("Par-Bur", "PAR - BUR", "Bre-MAO", "BRE - MAO")


def lines(caplog: pytest.LogCaptureFixture, logger: str = "gm") -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith(logger)]


def no_orders_in(caplog: pytest.LogCaptureFixture) -> None:
    logged = "\n".join(f"{r.getMessage()} {r.__dict__}" for r in caplog.records)
    for text in ORDER_TEXT:
        assert text not in logged, text


async def test_a_close_logs_game_phase_and_timings_and_the_outbox_its_deliveries(
    sessions: SessionFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    started = await make_started_game(sessions)
    await submit(sessions, started, "FRANCE", "A Par-Bur\nF Bre-MAO")
    gm = Gamemaster(sessions, RecordingSender(), workers=0)
    outcome = await gm.runtime.close_phase(started.phase.id, reason="moderator")
    assert outcome.closed
    logged = lines(caplog)
    closed = [line for line in logged if line.startswith("phase closed:")]
    assert len(closed) == 1
    assert re.fullmatch(
        rf"phase closed: game {started.game.id} S1901M, "
        r"adjudication \d+\.\d ms, maps \d+\.\d ms; next F1901M",
        closed[0],
    )
    record = next(r for r in caplog.records if r.getMessage() == closed[0])
    assert record.levelno == logging.INFO
    fields = vars(record)  # what the log call gave as extra=
    assert fields["event"] == "phase_closed" and fields["render_ms"] > 10, "maps take tens of ms"
    assert any(
        re.fullmatch(r"outbox: \d+ sent, 0 to retry, 0 given up; \d+ waiting", line) for line in logged
    )
    no_orders_in(caplog)


async def test_messages_to_retry_are_a_warning_with_the_backlog(
    sessions: SessionFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    await make_started_game(sessions)

    def busy(message: OutboxMessage) -> Exception | None:
        return RetriableSendError("Discord 503: try later") if message.kind == "welcome" else None

    gm = Gamemaster(sessions, RecordingSender(busy), workers=0)
    await gm.runtime.deliver()
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING and r.name == "gm.facade.runtime"]
    assert len(warnings) == 1
    assert re.fullmatch(
        r"outbox: 1 sent, 7 to retry, 0 given up; 8 waiting \(first error: outbox \d+: "
        r"Discord 503: try later\)",  # in words, not Python's repr
        warnings[0].getMessage(),
    )
    assert vars(warnings[0])["backlog"] == 8
    caplog.clear()
    await gm.runtime.deliver()  # nothing due: nothing said
    assert lines(caplog, "gm.facade.runtime") == []


async def test_reminders_and_the_start_up_report_are_logged(
    sessions: SessionFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    game = await make_game(sessions)
    async with sessions.begin() as s:
        started = await games.start_game(s, game.id, CREATOR, now=utcnow(), rng=random.Random(1))
    async with sessions.begin() as s:
        await orders.set_ready(s, started.game.id, player_of(started, "FRANCE"))
    async with sessions.begin() as s:
        reminded = await queue_reminders(s, started.phase.id, 2.0)
    assert len(reminded) == 6
    assert f"reminders: game {started.game.id} S1901M, 6 players reminded 2 h before the deadline" in lines(
        caplog
    )

    async with sessions() as s:  # the bot was away when the deadline passed
        phase = await s.get(PhaseRecord, started.phase.id)
        assert phase is not None
        phase.deadline = utcnow() - timedelta(minutes=5)
        await s.commit()
    caplog.clear()
    gm = Gamemaster(sessions, RecordingSender(), workers=0, render_maps=False)
    await gm.runtime.start()
    try:
        await gm.runtime.scheduler.idle(timeout=30)
    finally:
        await gm.runtime.shutdown()
    logged = lines(caplog)
    assert (
        "start-up: 1 overdue phases to close now, 0 stuck closes to finish now, 0 open phases scheduled "
        "with 0 reminders" in logged
    )
    assert any(line.startswith(f"phase closed: game {started.game.id} S1901M") for line in logged)
