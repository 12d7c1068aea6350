"""What the process knows about itself for ``/admin status``: its version, when it started, and the
last error it logged (one line)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime

from ops import version


class LastError(logging.Handler):
    """Remembers the last record at ERROR or above (its first line, without the traceback)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.message: str | None = None
        self.at: datetime | None = None

    def emit(self, record: logging.LogRecord) -> None:
        try:
            lines = record.getMessage().strip().splitlines()
        except Exception:
            lines = [str(record.msg)]
        self.message = f"{record.name}: {lines[0][:300] if lines else ''}"
        self.at = datetime.fromtimestamp(record.created, UTC)


@dataclass(slots=True)
class ProcessFacts:
    started_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    last_error: LastError = field(default_factory=LastError)
    version: str = field(default_factory=version.describe)
