"""Backups of the SQLite database, taken while the bot runs, and their restore.

A backup is made with SQLite's online backup API (:meth:`sqlite3.Connection.backup`) in one step: it
reads a consistent snapshot of the database (committed transactions only, the WAL included) while the
bot goes on writing (in WAL mode readers never block the writer), into a temporary file that is
renamed into place once complete, so a backup file is never half written. The copy is switched to the
rollback journal so that it is one self-contained file.

PostgreSQL is backed up with its own tools (:data:`PG_DUMP_ADVICE`).
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.engine import make_url

from db.database import normalize_url

BUSY_TIMEOUT_S = 30.0
PRE_MIGRATION = "pre-migration"

PG_DUMP_ADVICE = """\
This database is PostgreSQL: back it up with PostgreSQL's own tool, which takes a consistent dump of
a running database, readable by you only:

    (umask 077; pg_dump --format=custom --file=diplomacy.dump "$DATABASE_URL")

(use the URL without "+asyncpg"; with Docker compose: (umask 077; docker compose exec -T db pg_dump
-U diplomacy --format=custom diplomacy > diplomacy.dump): -T, or the terminal mangles the dump).
Restore it, the bot stopped, with python -m db restore diplomacy.dump: refused while a bot runs on
the database, it drops the bot's tables (a newer version's too) before pg_restore."""


class BackupError(Exception):
    """The backup or restore could not be made; the message says why."""


@dataclass(frozen=True, slots=True)
class BackupReport:
    source: Path
    target: Path
    bytes: int
    games: int
    seconds: float


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite database URL (None for PostgreSQL or an in-memory database)."""
    parsed = make_url(normalize_url(url))
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    name = parsed.database
    if name.startswith("file:"):  # a URI filename (sqlite:///file:x.db?mode=ro&uri=true)
        name = name.removeprefix("file:").split("?", 1)[0]
    return Path(name).resolve()


@contextmanager
def _connect(path: Path, *, read_only: bool = False) -> Iterator[sqlite3.Connection]:
    uri = f"{path.as_uri()}?mode=ro" if read_only else path.as_uri()
    with closing(sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)) as conn:
        yield conn


def backup_sqlite(source: Path, target: Path) -> BackupReport:
    """Copy the live database ``source`` to ``target`` (replaced if it exists), consistently."""
    started = time.perf_counter()
    source, target = Path(source).resolve(), Path(target).resolve()
    if not source.is_file():
        raise BackupError(f"there is no database file at {source}")
    if target == source:
        raise BackupError("the backup must not be the database itself")
    if not target.parent.is_dir():
        raise BackupError(f"the directory {target.parent} does not exist")
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        with _connect(source) as live, _connect(partial) as copy:
            live.backup(copy)  # all pages in one step: one consistent snapshot
            copy.execute("PRAGMA journal_mode=DELETE")
            _check(copy, partial)
            games = _count_games(copy)
        os.chmod(partial, 0o600)  # secret orders: the owner's only, whatever the umask
        os.replace(partial, target)
    except sqlite3.Error as exc:
        raise BackupError(f"backing up {source} failed: {exc}") from exc
    finally:
        partial.unlink(missing_ok=True)
    return BackupReport(source, target, target.stat().st_size, games, time.perf_counter() - started)


def restore_sqlite(backup: Path, database: Path) -> Path | None:
    """Put ``backup`` in place of ``database`` (the bot must be stopped). The database it replaces is
    kept beside it, renamed ``<name>.replaced-<time>`` (returned; None when there was none)."""
    backup, database = Path(backup).resolve(), Path(database).resolve()
    if not backup.is_file():
        raise BackupError(f"there is no backup file at {backup}")
    try:
        with _connect(backup, read_only=True) as conn:
            _check(conn, backup)
            _count_games(conn)
    except sqlite3.Error as exc:
        raise BackupError(f"{backup} is not a readable database: {exc}") from exc
    kept = None
    if database.exists():
        kept = database.with_name(f"{database.name}.replaced-{_stamp()}")
        with _connect(database) as old:  # fold the WAL into the file, so the kept copy is whole
            old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        os.replace(database, kept)
        for suffix in ("-wal", "-shm"):
            Path(f"{database}{suffix}").unlink(missing_ok=True)
    partial = database.with_name(f".{database.name}.{os.getpid()}.partial")
    try:
        with _connect(backup, read_only=True) as source, _connect(partial) as copy:
            source.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
        os.chmod(partial, 0o600)
        os.replace(partial, database)
    finally:
        partial.unlink(missing_ok=True)
    return kept


def backup_before_migration(
    database: Path, revision: str | None, keep: int, directory: Path | None = None
) -> Path | None:
    """A backup of ``database`` in ``directory`` (default: next to it) before a migration changes it,
    named ``<stem>.<time>.pre-migration.db`` (0: none made). The older ones are rotated away
    (:func:`rotate_backups`) only once the upgrade succeeded: a failed start never pushes out the
    backup made before the last real upgrade."""
    if keep <= 0 or not database.is_file():
        return None
    place = directory or database.parent
    place.mkdir(mode=0o700, parents=True, exist_ok=True)
    target = place / f"{database.stem}.{_stamp()}.{PRE_MIGRATION}.db"
    backup_sqlite(database, target)
    return target


def rotate_backups(newest: Path, keep: int) -> None:
    """Keep the newest ``keep`` pre-migration backups like ``newest`` (a .db or a .dump), beside it."""
    found = re.fullmatch(rf"(.+)\.\d{{8}}-\d{{6}}-\d{{6}}\.{PRE_MIGRATION}(\.db|\.dump)", newest.name)
    if found is None:
        return
    siblings = sorted(newest.parent.glob(f"{glob.escape(found[1])}.*.{PRE_MIGRATION}{found[2]}"))
    for old in siblings[: -max(keep, 1)]:
        old.unlink(missing_ok=True)


def migration_backups(database: Path, directory: Path | None = None) -> list[Path]:
    """The automatic backups of ``database``, oldest first."""
    return sorted((directory or database.parent).glob(f"{database.stem}.*.{PRE_MIGRATION}.db"))


def pg_dump_program() -> str | None:
    """PostgreSQL's ``pg_dump`` where it is installed (the Docker image ships it), else None."""
    return shutil.which("pg_dump")


def dump_before_migration(url: str, directory: Path, keep: int, program: str) -> Path:
    """A ``pg_dump --format=custom`` of the PostgreSQL database at ``url`` in ``directory``, named
    ``<dbname>.<time>.pre-migration.dump`` and readable by its owner only (rotated, ``keep``, once the
    upgrade succeeded: :func:`rotate_backups`).
    Raises :class:`BackupError` with pg_dump's first line of complaint when it fails."""
    parsed = make_url(normalize_url(url))
    name = parsed.database or parsed.username or "postgres"
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    target = directory / f"{name}.{_stamp()}.{PRE_MIGRATION}.dump"
    partial = target.with_name(f".{target.name}.partial")
    host = parsed.host or parsed.query.get("host")
    port = parsed.port or parsed.query.get("port")
    argv = [program, "--format=custom", f"--dbname={name}"]
    argv += [f"--host={host}"] if host else []
    argv += [f"--port={port}"] if port else []
    argv += [f"--username={parsed.username}"] if parsed.username else []
    environment = {**os.environ, "PGCONNECT_TIMEOUT": "30"}
    if parsed.password:
        environment["PGPASSWORD"] = str(parsed.password)  # not on the command line, where ps shows it
    try:
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out:
            done = subprocess.run(argv, stdout=out, stderr=subprocess.PIPE, env=environment, check=False)
        if done.returncode != 0:
            complaint = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise BackupError(f"pg_dump failed: {complaint[0] if complaint else f'exit {done.returncode}'}")
        os.replace(partial, target)
    except OSError as exc:
        raise BackupError(f"pg_dump could not be run: {exc}") from exc
    finally:
        partial.unlink(missing_ok=True)
    return target


def _check(conn: sqlite3.Connection, path: Path) -> None:
    found = conn.execute("PRAGMA quick_check").fetchone()
    if found is None or found[0] != "ok":
        raise BackupError(f"{path} failed SQLite's integrity check: {found}")


def _count_games(conn: sqlite3.Connection) -> int:
    try:
        return int(conn.execute("SELECT count(*) FROM game").fetchone()[0])
    except sqlite3.OperationalError as exc:  # no such table: not (yet) a database of the bot's
        raise BackupError(f"this is not a database of the bot ({exc})") from exc


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
