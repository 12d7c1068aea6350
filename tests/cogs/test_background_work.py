"""The cogs' background work (cogs.shared.base.Services.spawn): a failure is logged with its
traceback, but work a stop out of time cancels ends with one warning line, whatever it raised while
unwinding (its connection closed under it): the stop's log stays free of tracebacks."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, cast

import pytest

from cogs.shared.base import Services


def services() -> Services:
    return Services(gamemaster=cast(Any, None))  # the background work needs no gamemaster


async def test_a_failure_of_background_work_is_logged_with_its_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def fails() -> None:
        raise RuntimeError("a Join post could not be edited")

    wiring = services()
    wiring.spawn(fails(), "editing a Join post")
    await wiring.idle()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in errors] == ["background work failed: editing a Join post"]
    assert errors[0].exc_info is not None


async def test_work_a_stop_out_of_time_cancels_ends_with_a_warning_whatever_it_raises_unwinding(
    caplog: pytest.LogCaptureFixture,
) -> None:
    started = asyncio.Event()

    async def reads_discord() -> None:
        started.set()
        try:
            await asyncio.Event().wait()
        finally:  # the HTTP session closed under it as the stop went on
            raise ConnectionError("Connector is closed.")

    wiring = services()
    wiring.spawn(reads_discord(), "answering direct messages sent while offline")
    await started.wait()
    await wiring.abandon(timeout=5)  # as bot.py's stop out of time does
    records = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert records == [
        (
            "WARNING",
            "background work cut short by the stop: answering direct messages sent while offline "
            "(Connector is closed.)",
        )
    ]
    assert not any(r.exc_info for r in caplog.records)
