"""A throw-away PostgreSQL server for tests, started from Debian's ``postgresql`` binaries.

Import the fixtures into a conftest.py::

    from tests.pg import postgres_server, postgres_url  # noqa: F401

``postgres_server`` (session scope) runs initdb + pg_ctl in a temporary directory, listening only on a
unix socket there, and stops it at the end. ``postgres_url`` (function scope) creates a fresh, empty
database for one test and returns its SQLAlchemy URL. When the binaries are missing the tests using them
are skipped with the command that installs them.

PostgreSQL refuses to run as root; when the tests run as root (CI does) the server binaries run as the
``postgres`` system user, which the Debian package creates.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

INSTALL_HINT = "PostgreSQL is not installed; install it with `apt-get install postgresql` to run these tests"
PORT = 5432  # only names the socket file; the server listens on no TCP port
_database_numbers = itertools.count(1)


@dataclass(frozen=True)
class PostgresServer:
    socket_dir: Path
    user: str
    bin_dir: Path

    def psql(self, sql: str) -> None:
        _run(
            [
                str(self.bin_dir / "psql"),
                "-h",
                str(self.socket_dir),
                "-p",
                str(PORT),
                "-U",
                self.user,
                "-d",
                "postgres",
                "-v",
                "ON_ERROR_STOP=1",
                "-q",
                "-c",
                sql,
            ]
        )

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+asyncpg://{self.user}@/{database}?host={self.socket_dir}&port={PORT}"


def find_bin_dir() -> Path | None:
    """The directory holding pg_ctl and initdb, or None."""
    on_path = shutil.which("pg_ctl")
    if on_path and shutil.which("initdb"):
        return Path(on_path).resolve().parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=_version_key, reverse=True)
    return Path(candidates[0]).parent if candidates else None


def _version_key(path: str) -> int:
    part = Path(path).parent.parent.name
    return int(part) if part.isdigit() else 0


def _as_server_user(argv: list[str]) -> tuple[list[str], str]:
    """The command to run a server binary, and the database superuser's name."""
    if os.geteuid() != 0:
        return argv, pwd.getpwuid(os.geteuid()).pw_name
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        pytest.skip("running as root and no `postgres` system user exists (apt-get install postgresql)")
    runner = shutil.which("runuser")
    if runner:
        return [runner, "-u", "postgres", "--", *argv], "postgres"
    return ["su", "postgres", "-s", "/bin/sh", "-c", " ".join(_quote(a) for a in argv)], "postgres"


def _quote(arg: str) -> str:
    return "'" + arg.replace("'", "'\\''") + "'"


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    bin_dir = find_bin_dir()
    if bin_dir is None:
        pytest.skip(INSTALL_HINT)
    base = Path(tempfile.mkdtemp(prefix="gm-pg-"))
    data_dir, socket_dir = base / "data", base / "run"
    socket_dir.mkdir()
    base.chmod(0o755)
    init, user = _as_server_user(
        [
            str(bin_dir / "initdb"),
            "-D",
            str(data_dir),
            "--auth=trust",
            "--no-sync",
            "-E",
            "UTF8",
            "--locale=C",
        ]
    )
    if os.geteuid() == 0:  # the server runs as `postgres`: let it write its directories
        entry = pwd.getpwnam("postgres")
        for path in (base, socket_dir):
            os.chown(path, entry.pw_uid, entry.pw_gid)
    _run(init)
    options = f"-c listen_addresses='' -c unix_socket_directories={socket_dir} -p {PORT} -c fsync=off"
    start, _ = _as_server_user(
        [str(bin_dir / "pg_ctl"), "-D", str(data_dir), "-o", options, "-l", str(base / "log"), "-w", "start"]
    )
    _run(start)
    try:
        yield PostgresServer(socket_dir=socket_dir, user=user, bin_dir=bin_dir)
    finally:
        stop, _ = _as_server_user([str(bin_dir / "pg_ctl"), "-D", str(data_dir), "-m", "immediate", "stop"])
        subprocess.run(stop, capture_output=True, check=False)
        shutil.rmtree(base, ignore_errors=True)


def _run(argv: list[str]) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{argv[0]} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A new empty database on the test server, dropped after the test."""
    name = f"gm_test_{os.getpid()}_{next(_database_numbers)}"
    postgres_server.psql(f'CREATE DATABASE "{name}"')
    yield postgres_server.url(name)
    postgres_server.psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database: a SQLite file, or a fresh database on the test PostgreSQL server.

    Tests using it run twice, once per backend; the PostgreSQL run is skipped where it is not installed.
    """
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'test.db'}"
    return str(request.getfixturevalue("postgres_url"))
