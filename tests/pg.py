"""The tests' databases: a throw-away PostgreSQL server started from Debian's ``postgresql`` binaries,
and databases migrated once per test session, copied for each test.

tests/conftest.py makes these fixtures available to every test (a test module or conftest that still
imports them from here works too, but gets a server of its own):

``postgres_server`` (session scope) runs initdb + pg_ctl in a temporary directory, listening only on a
unix socket there, and stops it at the end. ``postgres_url`` (function scope) creates a fresh, empty
database for one test and returns its SQLAlchemy URL. When the binaries are missing the tests using them
are skipped with the command that installs them.

``database_url``: an empty database, on SQLite and on PostgreSQL (the test runs once per backend).
``migrated_database_url``: the same, already at the latest schema. Running the eleven migrations takes
a third of a second on SQLite and more on PostgreSQL, so it is done once per session: into a template
SQLite file, copied for each test, and into a template PostgreSQL database, from which each test's
database is created (``CREATE DATABASE ... TEMPLATE``). Each test still gets a database of its own.

With pytest-xdist the workers share one server (the controller names its directory, tests/conftest.py,
and stops it at the end; the first worker that needs it starts it and makes the PostgreSQL template) and
each makes its own SQLite template; their databases' names carry the worker's process id. One server
instead of one per worker: three initdb, server starts and template migrations fewer per run.

PostgreSQL refuses to run as root; when the tests run as root (CI does) the server binaries run as the
``postgres`` system user, which the Debian package creates.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import glob
import itertools
import os
import pwd
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Coroutine, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import asyncpg  # type: ignore[import-untyped]  # no stubs; used for a handful of statements
import pytest

from db.migrate import upgrade_database
from harness.template_db import migrated_template

INSTALL_HINT = "PostgreSQL is not installed; install it with `apt-get install postgresql` to run these tests"
PORT = 5432  # only names the socket file; the server listens on no TCP port
TEMPLATE = "gm_template"  # the migrated database each test's PostgreSQL database is a copy of
_database_numbers = itertools.count(1)
T = TypeVar("T")


@dataclass
class PostgresServer:
    socket_dir: Path
    user: str
    bin_dir: Path
    major: int = 0  # the server's major version (0: unknown)
    _admin: _Admin | None = field(default=None, repr=False)
    _ready: dict[str, Future[str]] = field(default_factory=dict, repr=False)

    def execute(self, sql: str) -> None:
        """Run ``sql`` in the ``postgres`` database (one connection, kept open for the session)."""
        self.admin.run(sql).result()

    @property
    def admin(self) -> _Admin:
        if self._admin is None:
            self._admin = _Admin(self.socket_dir, self.user)
        return self._admin

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+asyncpg://{self.user}@/{database}?host={self.socket_dir}&port={PORT}"

    def new_database(self, template: str | None = None) -> str:
        """A new database's name: empty, or a copy of ``template``. The copies are made one ahead,
        while the test before runs: the next test finds its database ready."""
        if template is None:
            name = _database_name()
            self.execute(f'CREATE DATABASE "{name}"')
            return name
        made = self._ready.pop(template, None) or self._copy(template)
        self._ready[template] = self._copy(template)
        return made.result()

    def _copy(self, template: str) -> Future[str]:
        name = _database_name()
        copy = f' TEMPLATE "{template}"'
        if self.major >= 15:
            # a file copy of the small template: 19 ms instead of 62 ms for the WAL-logged copy
            # PostgreSQL 15 made the default (fsync is off on this throw-away server anyway)
            copy += " STRATEGY FILE_COPY"
        return self.admin.run(f'CREATE DATABASE "{name}"{copy}', name)

    def drop_database(self, name: str) -> None:
        """Drop ``name`` in the background (the next test need not wait for it)."""
        self.admin.run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def close(self) -> None:
        if self._admin is not None:
            self._admin.close()


def _database_name() -> str:
    return f"gm_test_{os.getpid()}_{next(_database_numbers)}"


class _Admin:
    """One connection to the server's ``postgres`` database on a thread of its own (with its event
    loop): the statements that make and drop the tests' databases run there, in order, without a
    psql process each, while the tests' own event loops come and go."""

    def __init__(self, socket_dir: Path, user: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="postgres-admin", daemon=True)
        self._thread.start()
        self._turn = asyncio.Lock()  # one statement at a time on the connection, in the order asked
        connecting = asyncpg.connect(host=str(socket_dir), port=PORT, user=user, database="postgres")
        self._connection = asyncio.run_coroutine_threadsafe(connecting, self._loop).result()

    def run(self, sql: str, result: str = "") -> Future[str]:
        """Run ``sql``; the future gives ``result`` when done (or the statement's error)."""

        async def execute() -> str:
            async with self._turn:
                await self._connection.execute(sql)
            return result

        return asyncio.run_coroutine_threadsafe(execute(), self._loop)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(self._connection.close(), self._loop).result(timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)


def find_bin_dir() -> Path | None:
    """The directory holding pg_ctl and initdb, or None."""
    on_path = shutil.which("pg_ctl")
    if on_path and shutil.which("initdb"):
        return Path(on_path).resolve().parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=_version_key, reverse=True)
    return Path(candidates[0]).parent if candidates else None


def _major(bin_dir: Path) -> int:
    """The major version of the server in ``bin_dir`` ("pg_ctl (PostgreSQL) 15.8" -> 15), or 0."""
    done = subprocess.run([str(bin_dir / "pg_ctl"), "--version"], capture_output=True, text=True, check=False)
    found = re.search(r"(\d+)(?:\.\d+)?", done.stdout)
    return int(found.group(1)) if found else 0


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


SHARED = "TEST_POSTGRES_DIR"
"""Under pytest-xdist, the directory of the run's one server (set by the controller, tests/conftest.py):
the first worker to need a server starts it there, the others use it, the controller stops it."""


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    bin_dir = find_bin_dir()
    if bin_dir is None:
        pytest.skip(INSTALL_HINT)
    shared = os.environ.get(SHARED)
    if shared:  # one server for every worker of the run: started once, stopped by the controller
        with _holding(Path(shared)):
            server = _started(bin_dir, Path(shared))
        yield server
        server.close()
        return
    base = Path(tempfile.mkdtemp(prefix="gm-pg-"))
    try:
        server = _started(bin_dir, base)
        yield server
        server.close()
    finally:
        stop_server(base)


@contextlib.contextmanager
def _holding(base: Path) -> Iterator[None]:
    """``base``'s lock, held by one worker at a time (while it starts the server or makes the template)."""
    with open(base / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _started(bin_dir: Path, base: Path) -> PostgresServer:
    """The server of ``base`` (a directory of its own): started here unless it runs already."""
    data_dir, socket_dir = base / "data", base / "run"
    user = _as_server_user([])[1]
    if not (base / "started").exists():
        _start(bin_dir, data_dir, socket_dir)
        (base / "started").touch()
    return PostgresServer(socket_dir=socket_dir, user=user, bin_dir=bin_dir, major=_major(bin_dir))


def _start(bin_dir: Path, data_dir: Path, socket_dir: Path) -> None:
    base = data_dir.parent
    socket_dir.mkdir()
    base.chmod(0o755)
    init, _ = _as_server_user(
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
    # no autovacuum: the databases live for one test each; connections enough for four workers' tests
    options = f"-c listen_addresses='' -c unix_socket_directories={socket_dir} -p {PORT} -c fsync=off"
    options += " -c full_page_writes=off -c synchronous_commit=off -c wal_level=minimal -c max_wal_senders=0"
    options += " -c autovacuum=off -c max_connections=400"
    start, _ = _as_server_user(
        [str(bin_dir / "pg_ctl"), "-D", str(data_dir), "-o", options, "-l", str(base / "log"), "-w", "start"]
    )
    _run(start)


def stop_server(base: Path) -> None:
    """Stop the server of ``base`` if one was started there, and remove the directory."""
    bin_dir = find_bin_dir()
    if bin_dir is not None and (base / "data" / "postmaster.pid").exists():
        data = str(base / "data")
        stop, _ = _as_server_user([str(bin_dir / "pg_ctl"), "-D", data, "-m", "immediate", "stop"])
        subprocess.run(stop, capture_output=True, check=False)
    shutil.rmtree(base, ignore_errors=True)


def _run(argv: list[str]) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{argv[0]} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A new empty database on the test server, dropped after the test."""
    name = postgres_server.new_database()
    yield postgres_server.url(name)
    postgres_server.drop_database(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database: a SQLite file, or a fresh database on the test PostgreSQL server.

    Tests using it run twice, once per backend; the PostgreSQL run is skipped where it is not installed.
    """
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'test.db'}"
    return str(request.getfixturevalue("postgres_url"))


def _migrated(url: str) -> None:
    """Upgrade the database at ``url`` to the latest revision. On a thread of its own, with an event
    loop of its own: a session fixture may be set up while a test's loop runs on this thread."""
    _run_coroutine(upgrade_database(url))


def _run_coroutine(coroutine: Coroutine[object, object, T]) -> T:
    """``coroutine``'s result, run on a thread of its own with an event loop of its own."""
    outcome: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(asyncio.run(coroutine))
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=run, name="migrate-template")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return outcome[0]


@pytest.fixture(scope="session")
def sqlite_template() -> Path:
    """A SQLite file at the latest schema, made once per session (and xdist worker): copied, never used.
    The same file the harness's bots start from (harness.template_db)."""
    return _run_coroutine(migrated_template())


@pytest.fixture(scope="session")
def postgres_template(postgres_server: PostgresServer) -> str:
    """The name of a database at the latest schema on the test server, made once per session: each
    test's database is created from it. Nobody connects to it afterwards (PostgreSQL copies only a
    database nobody is connected to)."""
    shared = os.environ.get(SHARED)
    with _holding(Path(shared)) if shared else contextlib.nullcontext():
        if not (shared and (Path(shared) / "template").exists()):
            postgres_server.execute(f'CREATE DATABASE "{TEMPLATE}"')
            _migrated(postgres_server.url(TEMPLATE))
            if shared:
                (Path(shared) / "template").touch()
    return TEMPLATE


@pytest.fixture
def migrated_postgres_url(postgres_server: PostgresServer, postgres_template: str) -> Iterator[str]:
    """A new database at the latest schema on the test server (a copy of the template), dropped after
    the test."""
    name = postgres_server.new_database(template=postgres_template)
    yield postgres_server.url(name)
    postgres_server.drop_database(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def migrated_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database of the test's own at the latest schema: a copy of the migrated SQLite template in
    the test's directory, or a copy of the PostgreSQL template. Like ``database_url``, tests using it
    run once per backend; the PostgreSQL run is skipped where it is not installed."""
    if request.param == "sqlite":
        path = tmp_path / "test.db"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite+aiosqlite:///{path}"
    return str(request.getfixturevalue("migrated_postgres_url"))
