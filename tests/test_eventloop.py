"""ops.eventloop: the bot's event loop is uvloop's where it is installed, asyncio's otherwise or when
EVENT_LOOP=asyncio; either runs the bot's kinds of work (tests/e2e/test_bot_shutdown.py runs the whole
bot on each)."""

from __future__ import annotations

import asyncio
import signal
import threading

import pytest

from config import Settings
from ops import eventloop


async def _work() -> tuple[str, int, bool]:
    """What the bot asks of its loop: a thread's answer (aiosqlite, the worker pool), a timer, a signal
    handler added and removed (ops.shutdown); the loop's module."""
    loop = asyncio.get_running_loop()
    answered = await loop.run_in_executor(None, lambda: threading.get_ident())
    await asyncio.sleep(0.01)
    loop.add_signal_handler(signal.SIGUSR2, lambda: None)
    removed = loop.remove_signal_handler(signal.SIGUSR2)
    return type(loop).__module__, answered, removed


@pytest.mark.skipif(eventloop.UVLOOP is None, reason="uvloop is not installed here")
def test_uvloop_is_chosen_by_default_and_runs_the_bots_kinds_of_work() -> None:
    choice = Settings(discord_token="x").event_loop
    assert eventloop.loop_factory(choice)[0] == "uvloop"
    module, thread, removed = eventloop.run(_work(), choice)
    assert module.startswith("uvloop") and thread != threading.get_ident() and removed


def test_asyncio_is_chosen_on_request_or_without_uvloop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVENT_LOOP", "asyncio")
    assert eventloop.run(_work(), Settings(discord_token="x").event_loop)[0].startswith("asyncio")
    monkeypatch.setattr(eventloop, "UVLOOP", None)  # a system uvloop is not built for
    assert eventloop.loop_factory("uvloop")[0] == "asyncio"
    assert eventloop.run(_work(), "uvloop")[0].startswith("asyncio")


def test_a_wrong_event_loop_is_a_settings_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVENT_LOOP", "trio")
    with pytest.raises(ValueError, match="event_loop"):
        Settings(discord_token="x")
