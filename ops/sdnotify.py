"""systemd's notification protocol (deploy/diplomacy-gm.service: ``Type=notify``, ``WatchdogSec=``):
READY=1 once the bot is connected, STOPPING=1 when it stops, and WATCHDOG=1 every half watchdog
interval while it is well (ops.liveness, the gateway left out: discord.py reconnects by itself, and a
restart cannot bring Discord back). A hung event loop, a stopped scheduler or a database gone for
the whole interval stop the pings, and systemd restarts the bot. Nothing is sent outside systemd
(no NOTIFY_SOCKET)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket

from ops.liveness import LoopLag, Vitals, examine

log = logging.getLogger(__name__)


def notify(message: str) -> bool:
    """Send ``message`` to systemd; False when not run by systemd (or the socket refused it)."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError as exc:
        log.debug("systemd notification %r not sent: %s", message, exc)
        return False
    return True


def watchdog_interval() -> float | None:
    """Seconds between two pings (half systemd's WatchdogSec), or None without a watchdog."""
    usec = os.environ.get("WATCHDOG_USEC", "")
    pid = os.environ.get("WATCHDOG_PID", "")
    if not usec.isdigit() or (pid and pid != str(os.getpid())):
        return None
    return int(usec) / 1_000_000 / 2


class Watchdog:
    def __init__(self, vitals: Vitals, lag: LoopLag) -> None:
        self._vitals = vitals
        self._lag = lag
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        every = watchdog_interval()
        if every is not None and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._ping(every), name="systemd-watchdog")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _ping(self, every: float) -> None:
        while True:
            health = await examine(self._vitals, self._lag, gateway=False)
            if health.ok:
                notify("WATCHDOG=1")
            else:
                log.warning("not well (%s): the systemd watchdog is not told so", "; ".join(health.problems))
            await asyncio.sleep(every)
