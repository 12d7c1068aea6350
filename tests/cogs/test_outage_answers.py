"""A database outage is not a fault of the bot's: every interaction that meets it is answered "try
again in a minute" (nothing was recorded), counted as failed, and the log gets one line a minute,
not a traceback per interaction. Errors are shown in words, never as Python's repr."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from sqlalchemy.exc import OperationalError

from cogs.shared import replies
from gm.delivery.outbox import RetriableSendError, in_words
from gm.public import database_outage
from gm.reports.operations import in_words_stored


class Answers:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def is_done(self) -> bool:
        return False

    async def send_message(self, content: str, **_: Any) -> None:
        self.sent.append(content)


def interaction(answers: Answers) -> Any:
    return SimpleNamespace(
        id=1001,
        response=answers,
        type=discord.InteractionType.application_command,
        command=SimpleNamespace(qualified_name="orders show"),
        data={},
        user=SimpleNamespace(id=42),
    )


def refused_connection() -> OperationalError:
    return OperationalError("SELECT 1", {}, ConnectionRefusedError(111, "Connection refused"))


async def test_an_outage_is_one_line_a_minute_and_a_clear_answer(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    counted: list[str] = []
    failures = replies.FailureCounter()
    failures.listener = counted.append
    monkeypatch.setattr(replies, "failures", failures)
    clock = [1000.0]
    monkeypatch.setattr(replies.time, "monotonic", lambda: clock[0])
    answers = Answers()
    with caplog.at_level(logging.DEBUG):
        for _ in range(30):  # thirty interactions in 30 s
            await replies.report_error(interaction(answers), refused_connection())
            clock[0] += 1.0
        clock[0] += 31.0
        await replies.report_error(interaction(answers), refused_connection())
    assert answers.sent == [replies.DATABASE_DOWN_TEXT] * 31
    assert counted == ["database"] * 31
    lines = [r for r in caplog.records if r.name == "cogs.shared.replies"]
    assert [r.levelno for r in lines] == [logging.WARNING, logging.WARNING], "one line a minute"
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert "Connection refused" in lines[0].getMessage() and "30 interactions" in lines[1].getMessage()


async def test_a_fault_of_ours_is_still_an_error_with_its_traceback(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    counted: list[str] = []
    failures = replies.FailureCounter()
    failures.listener = counted.append
    monkeypatch.setattr(replies, "failures", failures)
    answers = Answers()
    await replies.report_error(interaction(answers), KeyError("power"))
    assert answers.sent == [replies.CRASH_TEXT] and counted == ["fault"]
    assert [r.exc_info is not None for r in caplog.records if r.levelno >= logging.ERROR] == [True]
    assert database_outage(KeyError("power")) is None
    assert database_outage(OperationalError("x", {}, Exception("no such table: game"))) is None


def test_errors_in_words_not_python_reprs() -> None:
    assert in_words(RetriableSendError("forbidden: 403 Missing Access")) == "forbidden: 403 Missing Access"
    assert in_words(TimeoutError()) == "timed out"
    assert in_words(ValueError("bad")) == "ValueError: bad"
    stored = "RetriableSendError('forbidden: 403 Forbidden (error code: 50001): Missing Access')"
    assert in_words_stored(stored) == "forbidden: 403 Forbidden (error code: 50001): Missing Access"
    assert (
        in_words_stored("gave up after 8 attempts: RetriableSendError('429')")
        == "gave up after 8 attempts: 429"
    )
    assert in_words_stored("plain words\nsecond line") == "plain words"
