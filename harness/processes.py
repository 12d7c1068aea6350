"""The bot as an operator runs it: a process of its own (harness.bot_process) started with
environment variables, its log read line by line, stopped with a signal, judged by its exit code."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import sys
import time
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path
from typing import Any

from harness import zygote
from harness.bot_helpers import MODERATOR_ROLE

ROOT = Path(__file__).resolve().parents[1]


class BotProcess:
    def __init__(self, process: asyncio.subprocess.Process | zygote.Process, database: Path | None) -> None:
        self.process = process
        self.database = database
        self.lines: list[str] = []
        self._changed = asyncio.Condition()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def start(cls, cwd: Path, *args: str, fake_url: str, **env: str) -> BotProcess:
        """``python -m harness.bot_process *args`` in ``cwd`` (no .env there) with ``env`` added to
        a clean environment (forked by a zygote that imported the bot: harness/zygote.py); stdout and
        stderr are read together. The bot leads a process group of its
        own, as in a terminal (see :meth:`send_to_group`)."""
        clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "LOG_"))}
        values = {
            "PYTHONPATH": str(ROOT),
            "FAKE_DISCORD_URL": fake_url,
            "MODERATOR_ROLE": MODERATOR_ROLE,
            "LOG_LEVEL": "INFO",
            **env,
        }
        process = await zygote.create_subprocess_exec(  # a fork of a zygote that imported the bot
            sys.executable,
            "-m",
            "harness.bot_process",
            *args,
            cwd=cwd,
            env={**clean, **values},
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,
        )
        url = values.get("DATABASE_URL", "")
        database = Path(url.split("///", 1)[1]) if url.startswith("sqlite") else None
        return cls(process, database)

    async def _read(self) -> None:
        assert self.process.stdout is not None
        async for raw in self.process.stdout:
            async with self._changed:
                self.lines.append(raw.decode("utf-8", "replace").rstrip("\n"))
                self._changed.notify_all()
        async with self._changed:
            self._changed.notify_all()

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    async def line_with(self, text: str, timeout: float = 60.0) -> str:
        """The first line of the log containing ``text``, waiting for it if need be."""

        def found() -> str | None:
            return next((line for line in self.lines if text in line), None)

        async def wait() -> str:
            async with self._changed:
                while (line := found()) is None:
                    if self._reader.done():
                        raise AssertionError(f"the bot ended without logging {text!r}:\n{self.output}")
                    await self._changed.wait()
                return line

        try:
            return await asyncio.wait_for(wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"no line with {text!r} after {timeout} s:\n{self.output}") from None

    def send(self, sig: signal.Signals) -> None:
        """A signal to the bot's process alone (docker stop, systemctl stop with KillMode=mixed)."""
        self.process.send_signal(sig)

    def send_to_group(self, sig: signal.Signals) -> None:
        """A signal to the bot and its worker processes at once, as Ctrl-C in a terminal does."""
        os.killpg(self.process.pid, sig)

    async def exit_code(self, timeout: float = 60.0) -> int:
        try:
            code = await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
            raise AssertionError(f"the bot did not exit within {timeout} s:\n{self.output}") from None
        await self._reader
        return code

    async def stopped_by(
        self, sig: signal.Signals, timeout: float = 60.0, *, group: bool = False
    ) -> tuple[int, float]:
        """Send ``sig`` (to the whole process group with ``group``); the exit code and the seconds the
        process took to end."""
        began = time.perf_counter()
        (self.send_to_group if group else self.send)(sig)
        code = await self.exit_code(timeout)
        return code, time.perf_counter() - began

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Read the bot's SQLite database from outside, as an operator's sqlite3 would (WAL: no lock)."""
        assert self.database is not None
        with closing(sqlite3.connect(self.database, timeout=30)) as conn:
            return conn.execute(sql, params).fetchall()


@contextlib.asynccontextmanager
async def bot_process(cwd: Path, *args: str, fake_url: str, **env: str) -> AsyncIterator[BotProcess]:
    """A bot process, killed at the end if the test left it running."""
    process = await BotProcess.start(cwd, *args, fake_url=fake_url, **env)
    try:
        yield process
    finally:
        if process.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.process.pid, signal.SIGKILL)
            await process.process.wait()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(process._reader, 5)
