"""A bot's SQLite database already at the latest schema, for the harness's in-process bots.

Every bot the harness starts on a new SQLite file would first run all the migrations on it (a tenth of
a second of CPU each time, hundreds of times in the suite). Instead the migrations run once per process
into a template file, and a bot whose database file does not exist yet gets a copy of it: the same
schema the bot would have made, as the bot's start-up check (db.preflight) finds it at the latest
revision and goes on. A test that needs the migrations themselves passes a file that exists, or a
``database_url`` of its own.
"""

from __future__ import annotations

import atexit
import shutil
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

from db.migrate import upgrade_database

_template: Path | None = None


async def migrated_copy(path: Path) -> None:
    """Put a copy of the migrated template at ``path`` (whose directory exists) unless a file is there."""
    if path.exists():
        return
    shutil.copyfile(await migrated_template(), path)


async def migrated_template() -> Path:
    """The process's template (never opened: copy it), made at the first call (two callers at once may
    each make one: no harm). tests/pg.py's ``sqlite_template`` is this file too."""
    global _template
    if _template is None:
        folder = tempfile.mkdtemp(prefix="gm-harness-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        made = Path(folder) / "template.db"
        await upgrade_database(f"sqlite+aiosqlite:///{made}")
        with closing(sqlite3.connect(made)) as conn:  # everything in the main file: it is copied alone
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        _template = made
    return _template
