"""Who uses a SQLite database: every bot process holds a shared lock on ``<database>.lock`` for as
long as it runs, and ``python -m db restore`` takes it exclusively, so a restore is refused while a
bot runs on that file, and a bot does not start while a restore is putting a backup in place.

The lock is the kernel's (``flock``): it ends with the process that held it, however that process
ended (``kill -9`` included), so a dead bot leaves no lease behind to wait out. Only on a network
filesystem that loses track of its locks could the lock outlive its holder; ``restore --force``
is for that case (README, "Backups and restore").

Removing the lock file (it looks stale: it is never deleted) does not defeat this. A restore also
refuses while another process holds SQLite's own lock on ``<database>-shm`` (every open connection
in WAL mode holds it), and a running bot checks every few seconds (:class:`UseLock.lost`) that its
lock file and its database are still the ones it opened: a lock file removed is made and locked
again, and a database file replaced under it (a restore forced through) stops the bot with one line
instead of letting it write on into the file that was moved away.

PostgreSQL: every bot process holds a shared advisory lock (:data:`IN_USE_KEY`) on a connection of
its own for its whole life, and ``python -m db restore`` takes it exclusively (db.pghold).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

SUFFIX = ".lock"
IN_USE_KEY = 0x6469706C6F6E  # PostgreSQL's advisory lock key of "a bot runs on this database"


class DatabaseInUse(Exception):
    """The lock is held by another process; the message says by whom, as far as it is known."""


class UseLock:
    """A lock held on a database's lock file; :meth:`release` (or the process's end) lets it go."""

    def __init__(self, path: Path, fd: int, database: Path | None = None) -> None:
        self.path = path
        self._fd: int | None = fd
        self.database = database
        self._identity = _identity(database) if database is not None else None

    def lost(self) -> str | None:
        """Why the bot can no longer trust its database (None: all is well). A lock file removed or
        replaced is locked again (shared); the database file replaced or gone is a reason to stop."""
        if self.database is None or self._fd is None:
            return None
        if self._identity is None:
            self._identity = _identity(self.database)  # the first start made it since
        now = _identity(self.database)
        if self._identity is not None and now != self._identity:
            what = "removed" if now is None else "replaced by another file (a restore?)"
            return (
                f"the SQLite file {self.database} was {what} while the bot ran on it: stopping, so as not "
                "to write on into the file that was moved away; start the bot again to use the one there now"
            )
        try:
            same = os.stat(self.path).st_ino == os.fstat(self._fd).st_ino
        except FileNotFoundError:
            same = False
        if not same:
            try:
                again = hold_shared(self.database)
            except DatabaseInUse as refusal:
                return f"the lock file {self.path} was removed and {refusal}; stopping"
            except OSError as exc:
                return (
                    f"the lock file {self.path} was removed and cannot be made again ({exc.strerror or exc})"
                )
            self.release()
            self._fd, again._fd = again._fd, None
        return None

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    @property
    def held(self) -> bool:
        return self._fd is not None


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + SUFFIX)


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return None
    return found.st_dev, found.st_ino


def hold_shared(database: Path) -> UseLock:
    """The lock a bot process holds while it runs on ``database`` (several bots may hold it at once).
    Raises :class:`DatabaseInUse` while a restore holds it."""
    return _take(
        database,
        fcntl.LOCK_SH,
        "a restore of {database} is under way{who}: start the bot when it has finished",
    )


def hold_exclusive(database: Path) -> UseLock:
    """The lock a restore holds while it replaces ``database``. Raises :class:`DatabaseInUse` while a
    bot process (or another restore) holds it."""
    return _take(
        database,
        fcntl.LOCK_EX,
        "a bot process is using {database}{who}: stop it first (systemctl stop, docker stop, Ctrl-C), "
        "then restore",
    )


def _take(database: Path, mode: int, refusal: str) -> UseLock:
    path = lock_path(database)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, mode | fcntl.LOCK_NB)
    except BlockingIOError:
        holders = holders_of(path)
        os.close(fd)
        who = f" (process {', '.join(map(str, holders))})" if holders else ""
        raise DatabaseInUse(refusal.format(database=database, who=who)) from None
    except BaseException:
        os.close(fd)
        raise
    return UseLock(path, fd, database)


def open_by_others(database: Path) -> list[int]:
    """The processes that have ``database`` open in WAL mode (SQLite keeps a read lock on a byte of
    ``<database>-shm`` for as long as a connection is open): the bot's connections, even when its lock
    file was removed."""
    return holders_of(Path(f"{database}-shm"), "POSIX")


def holders_of(path: Path, kind: str = "FLOCK") -> list[int]:
    """The processes holding a lock (``FLOCK`` or ``POSIX``) on ``path``, from Linux's /proc/locks
    (empty elsewhere, or when they are in another pid namespace)."""
    try:
        stat = path.stat()
        table = Path("/proc/locks").read_text()
    except OSError:
        return []
    wanted = f":{stat.st_ino}"
    found: list[int] = []
    for line in table.splitlines():
        fields = line.split()
        # "1: FLOCK  ADVISORY  READ  1234 08:01:123456 0 EOF" (a blocked waiter's line has "->")
        if len(fields) >= 6 and fields[1] == kind and "->" not in fields and fields[5].endswith(wanted):
            with contextlib.suppress(ValueError):
                pid = int(fields[4])
                if pid != os.getpid() and pid not in found:
                    found.append(pid)
    return sorted(found)
