"""The database from the command line, the bot running or not:

    python -m db backup PATH        a consistent copy of the SQLite database, taken live (db.backup)
    python -m db restore BACKUP     put a backup in place of the database (SQLite: a backup file,
                                    PostgreSQL: a pg_dump --format=custom dump); refused while a bot
                                    process runs on it (--force: only for a lock left by a dead one)
    python -m db upgrade            bring the schema to the latest revision, backing the file up first
                                    (the bot does the same at every start)

The database is ``DATABASE_URL`` (environment or .env), or ``--database-url``. Exit codes: 0 done,
1 failed (the reason is printed), 2 not for this database (PostgreSQL: use pg_dump, printed) or a
wrong DATABASE_URL, 3 refused: a bot process is using the database (restore). Every file made is
readable by its owner only.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
from pathlib import Path

from dotenv import dotenv_values

from db.backup import PG_DUMP_ADVICE, BackupError, backup_sqlite, restore_sqlite, sqlite_path
from db.database import DEFAULT_DATABASE_URL, make_engine, url_problem
from db.inuse import DatabaseInUse, hold_exclusive, hold_shared, open_by_others
from db.pghold import restore_postgres
from db.preflight import DatabaseProblem, SchemaState, describe_url, prepare_database


def database_url(given: str | None) -> str:
    """``--database-url``, else DATABASE_URL from the environment, else from ./.env, else the default."""
    from_file = dotenv_values(".env").get("DATABASE_URL")
    return given or os.environ.get("DATABASE_URL") or from_file or DEFAULT_DATABASE_URL


def _setting(name: str) -> str | None:
    """A setting from the environment, else from ./.env."""
    return os.environ.get(name) or dotenv_values(".env").get(name) or None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m db", description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", help="the database (default: DATABASE_URL, then .env)")
    commands = parser.add_subparsers(dest="command", required=True)
    backup = commands.add_parser("backup", help="copy the live SQLite database to PATH")
    backup.add_argument("path", type=Path)
    restore = commands.add_parser(
        "restore", help="replace the database by BACKUP, a SQLite backup or a PostgreSQL dump (bot stopped)"
    )
    restore.add_argument("backup", type=Path)
    restore.add_argument(
        "--force",
        action="store_true",
        help="restore even though the database's lock is held: only when no bot runs on it (a lock "
        "left on a network filesystem by a process that is gone)",
    )
    commands.add_parser("upgrade", help="upgrade the schema to the latest revision")
    args = parser.parse_args(argv)
    os.umask(0o077)  # backups hold secret orders: readable by their owner only
    url = database_url(args.database_url)
    problem = url_problem(url)
    if problem is not None:
        print(f"DATABASE_URL: {problem}", file=sys.stderr)
        return 2

    if args.command == "upgrade":
        return upgrade(url)
    path = sqlite_path(url)
    if path is None and args.command == "restore":
        return restore_pg(url, args.backup, force=args.force)
    if path is None:
        print(PG_DUMP_ADVICE, file=sys.stderr)
        return 2
    try:
        if args.command == "backup":
            # backups/gm-2026-01-31.db on a fresh clone: its directory is made (the owner's only)
            args.path.resolve().parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            report = backup_sqlite(path, args.path)
            print(
                f"backed up {report.source} ({report.games} games) to {report.target}: "
                f"{report.bytes / 1e6:.1f} MB in {report.seconds:.2f} s"
            )
        else:
            try:
                lock = hold_exclusive(path)
                others = open_by_others(path)
                if others:
                    lock.release()
                    raise DatabaseInUse(
                        f"process {', '.join(map(str, others))} has {path} open (a bot whose lock file "
                        "was removed?): stop it first (systemctl stop, docker stop, Ctrl-C), then restore"
                    )
            except DatabaseInUse as refusal:
                if not args.force:
                    print(f"restore refused: {refusal}", file=sys.stderr)
                    return 3
                print(f"--force: restoring although {refusal}", file=sys.stderr)
                lock = None
            try:
                kept = restore_sqlite(args.backup, path)
            finally:
                if lock is not None:
                    lock.release()
            print(f"restored {path} from {args.backup.resolve()}")
            if kept is not None:
                print(f"the database it replaced is kept at {kept}")
            print("start the bot: it upgrades the restored database if it is from an older version")
    except BackupError as exc:
        print(f"{args.command} failed: {exc}", file=sys.stderr)
        return 1
    return 0


def restore_pg(url: str, dump: Path, *, force: bool) -> int:
    """PostgreSQL: the dump (pg_dump --format=custom) in place of the database, refused while a bot
    runs on it (db.pghold)."""
    program = shutil.which("pg_restore")
    if program is None:
        print(
            "restore failed: pg_restore is not installed (Debian: apt install postgresql-client)",
            file=sys.stderr,
        )
        return 1
    try:
        if str(dump) == "-":  # from standard input (docker compose run -T ... < diplomacy.dump)
            with tempfile.TemporaryDirectory() as place:
                copy = Path(place) / "restore.dump"
                with copy.open("wb") as out:
                    shutil.copyfileobj(sys.stdin.buffer, out)
                asyncio.run(restore_postgres(url, copy, program, force=force))
        else:
            asyncio.run(restore_postgres(url, dump, program, force=force))
    except DatabaseInUse as refusal:
        print(f"restore refused: {refusal}", file=sys.stderr)
        return 3
    except BackupError as exc:
        print(f"restore failed: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:
        print(
            f"restore failed: {describe_url(url)}: {str(exc).strip().splitlines()[0][:300]}", file=sys.stderr
        )
        return 1
    print(f"restored {describe_url(url)} from {'standard input' if str(dump) == '-' else dump.resolve()}")
    print("start the bot: it upgrades the restored database if it is from an older version")
    return 0


def upgrade(url: str) -> int:
    """The upgrade the bot makes at start-up, a SQLite file backed up first (MIGRATION_BACKUPS)."""
    keep = int(_setting("MIGRATION_BACKUPS") or 3)
    directory = _setting("BACKUP_DIR")

    async def run() -> SchemaState:
        engine = make_engine(url)
        try:
            return await prepare_database(
                engine, backups_kept=keep, backup_dir=Path(directory) if directory else None
            )
        finally:
            await engine.dispose()

    path = sqlite_path(url)
    try:
        lock = hold_shared(path) if path is not None and path.parent.is_dir() else None
    except DatabaseInUse as refusal:
        print(f"upgrade refused: {refusal}", file=sys.stderr)
        return 3
    try:
        state = asyncio.run(run())
    except DatabaseProblem as problem:
        print(f"upgrade failed: {problem.reason}", file=sys.stderr)
        return 1
    finally:
        if lock is not None:
            lock.release()
    if state.at_head:
        print(f"the database is at the latest revision, {state.head}")
    else:
        print(f"database upgraded from {state.current or '(empty)'} to {state.head}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
