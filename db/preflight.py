"""Before the bot uses its database: can it be reached and written, is its schema the latest, and
the upgrade (with a backup of a SQLite file first). Each failure is a :class:`DatabaseProblem` whose
message is one line saying what failed, where, and what to check."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import time
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from db.backup import (
    backup_before_migration,
    dump_before_migration,
    pg_dump_program,
    rotate_backups,
    sqlite_path,
)
from db.database import normalize_url
from db.migrate import current_revision, head_revision, known_revision, upgrade_database

log = logging.getLogger(__name__)


class Problem(StrEnum):
    UNREACHABLE = "unreachable"  # cannot connect or open
    UNWRITABLE = "unwritable"  # connected, but writes are refused
    MIGRATION = "migration"  # the schema could not be brought to the latest revision
    BEHIND = "behind"  # (checks only) the schema is not at the latest revision
    NEWER = "newer"  # the schema is at a revision this code does not know: a newer version made it


class DatabaseProblem(Exception):
    def __init__(self, kind: Problem, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


@dataclass(frozen=True, slots=True)
class SchemaState:
    current: str | None
    head: str | None

    @property
    def at_head(self) -> bool:
        return self.current == self.head

    @property
    def newer_than_code(self) -> bool:
        """The database was upgraded by a newer version of the bot (a rollback without a restore)."""
        return not self.at_head and not known_revision(self.current)


def newer_database(where: str, state: SchemaState) -> str:
    return (
        f"{where} is at revision {state.current}, newer than this version knows (its latest is "
        f"{state.head}): a newer version upgraded it. Run that version again, or restore the backup made "
        "before its upgrade (README, 'Rolling back'); nothing was changed"
    )


def describe(engine: AsyncEngine) -> str:
    """The database in words, without its password: "the SQLite file /srv/gm/diplomacy.db" or
    "PostgreSQL database diplomacy at db:5432 (user diplomacy)"."""
    return describe_url(engine.url.render_as_string(hide_password=False))


def describe_url(text: str) -> str:
    """:func:`describe` for a URL."""
    url = make_url(normalize_url(text))
    path = sqlite_path(url.render_as_string(hide_password=True))
    if url.get_backend_name() == "sqlite":
        return f"the SQLite file {path}" if path else "the in-memory SQLite database"
    where = f"{url.host or 'localhost'}:{url.port or 5432}"
    return f"PostgreSQL database {url.database} at {where} (user {url.username})"


async def check_database(engine: AsyncEngine) -> None:
    """Connect and prove that a write would be accepted, without changing anything."""
    try:
        async with engine.connect() as conn:
            if conn.dialect.name == "sqlite":
                probe = await conn.begin()  # BEGIN IMMEDIATE (db.database): the write lock
                try:
                    await conn.exec_driver_sql("CREATE TABLE _gm_write_probe (x INTEGER)")
                finally:
                    await probe.rollback()
            else:
                async with conn.begin():
                    read_only = (await conn.exec_driver_sql("SHOW transaction_read_only")).scalar()
                if read_only == "on":
                    raise DatabaseProblem(
                        Problem.UNWRITABLE,
                        f"{describe(engine)} is read-only (a standby server?): "
                        "point DATABASE_URL at the primary",
                    )
    except DatabaseProblem:
        raise
    except Exception as exc:
        if engine.dialect.name == "sqlite":
            await _let_failed_connections_end()
        raise _translated(engine, exc) from exc


async def _let_failed_connections_end(at_most: float = 1.0) -> None:
    """Wait (``at_most`` seconds) for aiosqlite's threads of connections that failed to open.

    aiosqlite stops such a connection without waiting for its thread, whose last act posts to the
    event loop; the bot exits at once after a start that failed, and a loop closed first made that
    thread print a traceback under the one line that says why the start failed."""
    deadline = time.monotonic() + at_most
    for thread in threading.enumerate():
        if thread.name.endswith("(_connection_worker_thread)") and thread.is_alive():
            await asyncio.to_thread(thread.join, max(0.0, deadline - time.monotonic()))


async def schema_state(engine: AsyncEngine) -> SchemaState:
    try:
        current = await current_revision(engine)
    except Exception as exc:
        raise _translated(engine, exc) from exc
    return SchemaState(current, head_revision())


async def prepare_database(
    engine: AsyncEngine, *, backups_kept: int = 3, backup_dir: Path | None = None
) -> SchemaState:
    """Check the database, then upgrade it to the latest revision if it is behind. Under the
    migration's database-wide lock (db.migrate: any number of processes may start together) and
    before anything changes, a database that holds data is backed up: a SQLite file next to itself
    (or in ``backup_dir``), PostgreSQL with ``pg_dump`` into ``backup_dir`` (default: the working
    directory) where pg_dump is installed, else a warning says that no dump was taken. Returns the
    state before the upgrade."""
    await check_database(engine)
    state = await schema_state(engine)
    _keep_private(engine)
    if state.at_head:
        return state
    if state.newer_than_code:  # before any backup: a start that cannot succeed makes none
        raise DatabaseProblem(Problem.NEWER, newer_database(describe(engine), state))
    url = engine.url.render_as_string(hide_password=False)
    made: list[Path] = []

    def back_up(current: str | None) -> None:
        if current is None:
            return  # an empty database: nothing to lose
        try:
            backup = _backup_before(engine, url, current, backups_kept, backup_dir, state.head)
        except Exception as exc:
            raise DatabaseProblem(
                Problem.MIGRATION,
                f"the database needs an upgrade, but the backup made before it failed: {_one_line(exc)}; "
                "nothing was changed (MIGRATION_BACKUPS=0 upgrades without a backup)",
            ) from exc
        if backup is not None:
            made.append(backup)

    try:
        started_at = await upgrade_database(engine, before=back_up)
    except DatabaseProblem:
        raise
    except Exception as exc:
        # Rolled back: the database is as it was, so the backup made just before is a copy of what is
        # still there. It goes, and the older ones stay: a start that fails again and again (a
        # supervisor restarting it) never rotates away the backup made before the last real upgrade.
        for backup in made:
            backup.unlink(missing_ok=True)
        raise DatabaseProblem(
            Problem.MIGRATION,
            f"upgrading {describe(engine)} from revision {state.current or '(empty)'} to {state.head} "
            f"failed and was rolled back: {_one_line(exc)}; the database is as it was and the backups "
            "made before earlier upgrades are kept",
        ) from exc
    for backup in made:  # upgraded: only now may the oldest backups go
        rotate_backups(backup, backups_kept)
    if started_at == state.head:
        log.info(
            "database upgraded to revision %s by another process meanwhile",
            state.head,
            extra={"event": "database_upgraded_elsewhere", "to": state.head},
        )
        return SchemaState(started_at, state.head)
    log.info(
        "database upgraded from revision %s to %s%s",
        started_at or "(empty)",
        state.head,
        f"; the database before it is kept at {made[0]}" if made else "",
        extra={"event": "database_upgraded", "from": started_at, "to": state.head},
    )
    _keep_private(engine)
    return SchemaState(started_at, state.head)


def _backup_before(
    engine: AsyncEngine, url: str, current: str, keep: int, directory: Path | None, head: str | None
) -> Path | None:
    """The backup before an upgrade from ``current`` (None: none made, and said why when it matters)."""
    path = sqlite_path(url)
    if path is not None:
        return backup_before_migration(path, current, keep, directory)
    if keep <= 0:
        log.warning(
            "upgrading %s from revision %s to %s without a dump (MIGRATION_BACKUPS=0)",
            describe(engine),
            current,
            head,
            extra={"event": "upgrade_without_backup", "from": current, "to": head},
        )
        return None
    program = pg_dump_program()
    if program is None:
        log.warning(
            "upgrading %s from revision %s to %s: no dump was taken, pg_dump is not installed (take one "
            "yourself before an upgrade: README, 'Upgrading')",
            describe(engine),
            current,
            head,
            extra={"event": "upgrade_without_backup", "from": current, "to": head},
        )
        return None
    target = dump_before_migration(url, directory or Path.cwd(), keep, program)
    log.warning(
        "upgrading %s from revision %s to %s; pg_dump took a dump of it first: %s",
        describe(engine),
        current,
        head,
        target,
        extra={"event": "pre_upgrade_dump", "from": current, "to": head, "dump": str(target)},
    )
    return target


def _keep_private(engine: AsyncEngine) -> None:
    """A SQLite file made readable by others before the bot made its files private (an older
    version, a copy): readable by its owner only from now on, with its WAL and shared memory."""
    path = sqlite_path(engine.url.render_as_string(hide_password=False))
    if path is None:
        return
    for file in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        try:
            mode = file.stat().st_mode & 0o777
            if mode & 0o077:
                os.chmod(file, mode & 0o700)
                log.info("%s could be read by others (mode %o): now by its owner only", file, mode)
        except OSError:
            continue


def _translated(engine: AsyncEngine, exc: BaseException) -> DatabaseProblem:
    """A connection or open error as a one-line reason naming the database."""
    what = describe(engine)
    cause = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
    name = type(cause).__name__
    text = _one_line(cause)
    if isinstance(cause, socket.gaierror):
        return DatabaseProblem(
            Problem.UNREACHABLE, f"cannot find the host of {what}: {text}; check DATABASE_URL"
        )
    if isinstance(cause, ConnectionRefusedError):
        return DatabaseProblem(
            Problem.UNREACHABLE, f"{what} refused the connection: is the server running and listening there?"
        )
    if isinstance(cause, TimeoutError):
        return DatabaseProblem(
            Problem.UNREACHABLE, f"{what} did not answer in time: check the host and firewall"
        )
    if name in ("InvalidPasswordError", "InvalidAuthorizationSpecificationError"):
        return DatabaseProblem(Problem.UNREACHABLE, f"{what} refused the user name or password: {text}")
    if name == "InvalidCatalogNameError":
        return DatabaseProblem(Problem.UNREACHABLE, f"{what} does not exist: create it first ({text})")
    lowered = text.lower()
    if "readonly" in lowered or "read-only" in lowered or "permission denied" in lowered:
        return DatabaseProblem(
            Problem.UNWRITABLE, f"{what} cannot be written ({text}): the bot's user must be able to write it"
        )
    if "unable to open database file" in lowered:
        return DatabaseProblem(
            Problem.UNREACHABLE,
            f"cannot open {what} ({text}): its directory must exist and the bot's user must be able to "
            "write in it (SQLite writes -wal and -shm files beside the database)",
        )
    if "not a database" in lowered:
        return DatabaseProblem(Problem.UNREACHABLE, f"{what} is not a SQLite database ({text})")
    if isinstance(cause, OSError):
        return DatabaseProblem(Problem.UNREACHABLE, f"cannot reach {what}: {text}")
    return DatabaseProblem(Problem.UNREACHABLE, f"cannot use {what}: {name}: {text}")


def _one_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    text = lines[0] if lines else type(exc).__name__
    if text.startswith("(") and ") " in text:  # SQLAlchemy's "(sqlite3.OperationalError) ..."
        text = text.split(") ", 1)[1]
    return text[:300]
