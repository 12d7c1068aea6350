"""The bot's exit codes (documented in the README, used by ``python bot.py --check``) and the error
that ends a start-up with a one-line reason."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    FAILED = 1  # an unexpected error; its traceback is in the log
    SETTINGS = 2  # a setting is missing or wrong, or Discord refused the token or the members intent
    DISCORD = 3  # Discord could not be reached, or did not answer in time
    DATABASE = 4  # the database could not be reached, opened or written
    MIGRATION = 5  # upgrading the database failed (or, for --check, it is not at the latest revision)
    NEWER_DATABASE = 6  # the database was upgraded by a newer version than this code: never restarted


class StartupError(Exception):
    """Start-up cannot go on: ``reason`` is one line saying what failed and what to check."""

    def __init__(self, code: ExitCode, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
