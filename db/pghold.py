"""PostgreSQL's "a bot runs on this database" (db.inuse for SQLite): every bot process holds a shared
session-level advisory lock (:data:`db.inuse.IN_USE_KEY`) on a connection of its own for its life,
and ``python -m db restore DUMP`` takes it exclusively for as long as it works, so that a restore is
refused while a bot runs and a bot does not start while a restore is under way. The lock ends with
the connection, however the process ends.

The restore itself (:func:`restore_postgres`): the tables, sequences and types of the bot's schema
are dropped first (``pg_restore --clean`` leaves the tables a newer version added, and the next start
fails on them), then ``pg_restore --single-transaction`` puts the dump in place."""

from __future__ import annotations

import contextlib
import os
import subprocess
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.pool import NullPool

from db.backup import BackupError
from db.database import make_engine, normalize_url
from db.inuse import IN_USE_KEY, DatabaseInUse


def _where(url: str) -> str:
    parsed = make_url(normalize_url(url))
    return f"the PostgreSQL database {parsed.database} at {parsed.host or 'localhost'}:{parsed.port or 5432}"


async def _holders(connection: AsyncConnection) -> str:
    """Who holds the in-use lock, as far as PostgreSQL says (its backends' client addresses)."""
    found = await connection.exec_driver_sql(
        "SELECT DISTINCT coalesce(host(a.client_addr), 'local') || ' (backend ' || a.pid || ')' "
        "FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' "
        f"AND l.granted AND ((l.classid::bigint << 32) | l.objid::bigint) = {IN_USE_KEY} "
        "AND a.pid <> pg_backend_pid()"
    )
    names = [str(row[0]) for row in found]
    return f" (from {', '.join(names)})" if names else ""


class PostgresHold:
    """The lock a bot process holds (shared) or a restore holds (exclusive) on a PostgreSQL database."""

    def __init__(self, url: str, *, exclusive: bool = False) -> None:
        self.url = url
        self.exclusive = exclusive
        self._engine: AsyncEngine | None = None
        self._connection: AsyncConnection | None = None

    async def take(self) -> None:
        """Raises :class:`DatabaseInUse` when the other kind of holder has it."""
        self._engine = self._engine or make_engine(self.url, poolclass=NullPool)
        self._connection = await self._engine.connect()
        function = "pg_try_advisory_lock" if self.exclusive else "pg_try_advisory_lock_shared"
        got = (await self._connection.exec_driver_sql(f"SELECT {function}({IN_USE_KEY})")).scalar()
        who = "" if got else await _holders(self._connection)
        await self._connection.commit()  # the session keeps the lock; no transaction left open
        if not got:
            await self._drop()
            where = _where(self.url)
            raise DatabaseInUse(
                f"a bot process is using {where}{who}: stop it first (systemctl stop, docker stop, Ctrl-C), "
                "then restore"
                if self.exclusive
                else f"a restore of {where} is under way{who}: start the bot when it has finished"
            )

    async def lost(self) -> str | None:
        """None while the lock is held; a connection that dropped (a server restart) takes it again,
        and a reason to stop when a restore got it meanwhile."""
        if self._connection is not None:
            try:
                await self._connection.exec_driver_sql("SELECT 1")
                await self._connection.commit()
                return None
            except Exception:
                await self._drop()
        try:
            await self.take()
        except DatabaseInUse as refusal:
            return f"the connection holding the database's lock was lost, and {refusal}; stopping"
        except Exception:
            return None  # the database is away: the outage is logged elsewhere; tried again later
        return None

    async def _drop(self) -> None:
        if self._connection is not None:
            try:
                await self._connection.close()
            except Exception:
                with contextlib.suppress(Exception):
                    await self._connection.invalidate()
            self._connection = None

    async def release(self) -> None:
        await self._drop()
        if self._engine is not None:
            await self._engine.dispose()
            self._engine = None


DROP_EVERYTHING = """
DO $$
DECLARE item record;
BEGIN
    FOR item IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() LOOP
        EXECUTE format('DROP TABLE IF EXISTS %I CASCADE', item.tablename);
    END LOOP;
    FOR item IN SELECT sequence_name FROM information_schema.sequences
                WHERE sequence_schema = current_schema() LOOP
        EXECUTE format('DROP SEQUENCE IF EXISTS %I CASCADE', item.sequence_name);
    END LOOP;
    FOR item IN SELECT t.typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
                WHERE n.nspname = current_schema() AND t.typtype = 'e' LOOP
        EXECUTE format('DROP TYPE IF EXISTS %I CASCADE', item.typname);
    END LOOP;
END $$;
"""


async def restore_postgres(url: str, dump: Path, program: str, *, force: bool = False) -> None:
    """Put ``dump`` (``pg_dump --format=custom``) in place of the database at ``url``: refused with
    :class:`DatabaseInUse` while a bot holds the in-use lock (``force``: anyway); every table of the
    bot's schema dropped first, then ``pg_restore`` in one transaction. Raises :class:`BackupError`
    with pg_restore's first complaint when it fails."""
    if not dump.is_file():
        raise BackupError(f"there is no dump file at {dump}")
    hold = PostgresHold(url, exclusive=True)
    try:
        try:
            await hold.take()
        except DatabaseInUse:
            if not force:
                raise
        engine = make_engine(url, poolclass=NullPool)
        try:
            async with engine.begin() as connection:
                await connection.exec_driver_sql(DROP_EVERYTHING)
        finally:
            await engine.dispose()
        parsed = make_url(normalize_url(url))
        argv = [
            program,
            "--no-owner",
            "--single-transaction",
            "--exit-on-error",
            f"--dbname={parsed.database}",
        ]
        argv += [f"--host={parsed.host}"] if parsed.host else []
        argv += [f"--port={parsed.port}"] if parsed.port else []
        argv += [f"--username={parsed.username}"] if parsed.username else []
        if not parsed.host and parsed.query.get("host"):
            argv.append(f"--host={parsed.query['host']}")
        environment = {**os.environ}
        if parsed.password:
            environment["PGPASSWORD"] = str(parsed.password)
        done = subprocess.run([*argv, str(dump)], capture_output=True, env=environment, check=False)
        if done.returncode != 0:
            complaint = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise BackupError(
                f"pg_restore failed: {complaint[0] if complaint else f'exit {done.returncode}'}"
            )
    finally:
        await hold.release()
