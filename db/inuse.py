"""Who uses a SQLite database: every bot process holds a shared lock on ``<database>.lock`` for as
long as it runs, and ``python -m db restore`` takes it exclusively, so a restore is refused while a
bot runs on that file, and a bot does not start while a restore is putting a backup in place.

The lock is the kernel's (``flock``): it ends with the process that held it, however that process
ended (``kill -9`` included), so a dead bot leaves no lease behind to wait out. Only on a network
filesystem that loses track of its locks could the lock outlive its holder; ``restore --force``
is for that case (README, "Backups and restore").

PostgreSQL is restored with its own tools (db.backup.PG_DUMP_ADVICE); nothing here applies to it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

SUFFIX = ".lock"


class DatabaseInUse(Exception):
    """The lock is held by another process; the message says by whom, as far as it is known."""


class UseLock:
    """A lock held on a database's lock file; :meth:`release` (or the process's end) lets it go."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

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
    return UseLock(path, fd)


def holders_of(path: Path) -> list[int]:
    """The processes holding a lock on ``path``, from Linux's /proc/locks (empty elsewhere, or when
    they are in another pid namespace)."""
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
        if len(fields) >= 6 and fields[1] == "FLOCK" and "->" not in fields and fields[5].endswith(wanted):
            with contextlib.suppress(ValueError):
                pid = int(fields[4])
                if pid != os.getpid() and pid not in found:
                    found.append(pid)
    return sorted(found)
