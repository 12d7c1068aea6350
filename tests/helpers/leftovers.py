"""The work a test left running on its event loop, finished before its database engine goes.

A test that ends while a gamemaster's follow-up (the early-close check after a command) or a scheduler
job is still under way would have it cancelled by the closing of the test's event loop, in the middle
of a session. On SQLite a cancellation that cuts a connection's return to the pool short makes
SQLAlchemy terminate the connection: it stops aiosqlite's thread and starts a graceful close in a task
of its own, which then waits for that stopped thread for ever (aiosqlite 0.22). The closing loop
waits for that task without end (a hang), or, when the task was born after the loop collected its
tasks to cancel, leaves it pending: destroyed later, it fails another test with an unraisable
exception. The engine fixtures (tests/gm/conftest.py, tests/db/conftest.py) call
:func:`finish_work_left` first, as the bot's own stop lets its work finish (gm.facade.runtime's
shutdown)."""

from __future__ import annotations

import asyncio

WAIT = 30.0  # seconds; a test's follow-up work takes well under one


async def finish_work_left(wait: float = WAIT) -> None:
    """Wait until the tasks other than the caller's on the running loop are done (those they start
    meanwhile included). Raises AssertionError naming the ones still running after ``wait`` seconds
    (the test left work that does not end: it must stop it itself)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + wait
    while left := [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()]:
        _, still = await asyncio.wait(left, timeout=max(0.0, until - loop.time()))
        if still and loop.time() >= until:
            names = sorted(t.get_name() for t in still)
            raise AssertionError(f"the test left work running for more than {wait} s: {names}")
