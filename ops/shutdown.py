"""What a graceful stop needs besides the gamemaster's own shutdown: SIGTERM and SIGINT turned into a
stop request, and the handlers discord.py is running (a slash command half way through making a
game's channels) waited for or, when time runs out, cancelled."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)

LISTENER_TASKS = (
    "discord.py: on_",  # an event's listeners (on_message: orders by DM or mention)
    "CommandTree-invoker",  # a slash command
    "discord-ui-view-dispatch-",  # a button or select
    "discord-ui-modal-dispatch-",  # a submitted form
)
"""How discord.py 2.7 names the tasks in which it runs the bot's handlers of one event."""


def listener_tasks() -> list[asyncio.Task[object]]:
    """The bot's event handlers running now (not the caller)."""
    current = asyncio.current_task()
    return [
        task
        for task in asyncio.all_tasks()
        if task is not current and not task.done() and task.get_name().startswith(LISTENER_TASKS)
    ]


async def listeners_finished() -> None:
    """Wait until no handler of the bot's is running (new ones are kept out by ops.gate)."""
    while running := listener_tasks():
        await asyncio.wait(running)


async def cancel(tasks: list[asyncio.Task[object]], timeout: float = 5.0) -> None:
    """Cancel ``tasks`` and give them ``timeout`` seconds to unwind (roll back their transactions)."""
    for task in tasks:
        task.cancel()
    if tasks:
        await asyncio.wait(tasks, timeout=timeout)


def on_stop_signals(callback: Callable[[signal.Signals], None]) -> Callable[[], None]:
    """Call ``callback(signal)`` on SIGTERM (docker stop, systemctl stop) and SIGINT (Ctrl-C), in the
    running event loop; returns the function that puts the default handlers back."""
    loop = asyncio.get_running_loop()
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, callback, sig)

    def restore() -> None:
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)

    return restore
