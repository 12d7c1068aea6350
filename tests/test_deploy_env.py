"""The documented deployments start with the .env the README tells people to make: each one's
environment is put together the way its supervisor does (harness.deployments: Docker's ENV <
--env-file / env_file < compose's environment; systemd's Environment= < EnvironmentFile=), its
directories moved under a temporary root, and the real bot started with it against the loopback
fake Discord, as the deployment's unprivileged user where the tests run as root. The database, its
lock, the pre-upgrade backup and /healthz must land where the deployment says. The .env of the trial
that found the bug (the defaults uncommented) fails with one line, not a traceback."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import pwd
import shlex
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import AsyncIterator, Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import pytest

from db.inuse import DatabaseInUse, hold_exclusive
from db.migrate import downgrade_database
from harness import deployments, zygote
from harness.fakediscord import FakeDiscord, fake_discord
from tests.helpers.db_cli import started_games

pytestmark = pytest.mark.waits  # processes or real time: spread through the run (tests/conftest.py)

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = (ROOT / "Dockerfile").read_text()
COMPOSE = (ROOT / "compose.yaml").read_text()
UNIT = (ROOT / "deploy" / "diplomacy-gm.service").read_text()
EXAMPLE = (ROOT / ".env.example").read_text()
TOKEN = "fake-token"
# The .env of the trial (issue 40): .env.example as it was, its defaults uncommented.
TRIAL_ENV = (
    f"DISCORD_TOKEN={TOKEN}\nDATABASE_URL=sqlite+aiosqlite:///diplomacy.db\nBACKUP_DIR=\nHEALTH_PORT=\n"
)
# Where the tests run as root, the bot runs without the capabilities that let root write anywhere
# (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH): like the deployment's own user (Docker's gm, systemd's
# diplomacy), it writes only where the permission bits let it.
UNPRIVILEGED = (
    ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-dac_override,-dac_read_search"]
    if os.geteuid() == 0
    else []
)


def made_env(example: str = EXAMPLE, **values: str) -> str:
    """The .env an operator makes: .env.example with DISCORD_TOKEN (and ``values``) filled in."""
    lines = []
    for line in example.splitlines():
        name = line.removeprefix("# ").split("=", 1)[0]
        if line.startswith("DISCORD_TOKEN="):
            line = f"DISCORD_TOKEN={TOKEN}"
        elif name in values:
            line = f"{name}={values[name]}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def free_port() -> int:
    with closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def root() -> Iterator[Path]:
    """A directory the deployment's user can enter (pytest's own may be private to root)."""
    place = Path(tempfile.mkdtemp(prefix="deploy-"))
    place.chmod(0o755)
    yield place
    shutil.rmtree(place, ignore_errors=True)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with fake_discord() as started:
        yield started


def owned_by_bot(path: Path, mode: int = 0o700) -> Path:
    """A directory of the bot's own (the volume, the StateDirectory)."""
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(mode)
    return path


def read_only_for_bot(path: Path) -> Path:
    """A directory the bot may read, never write (the image's /app, the clone under ProtectSystem)."""
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o555)
    return path


@dataclass
class Run:
    code: int
    output: str
    health: tuple[int, str] | None = None
    lock_held: bool = False


async def older_database(path: Path) -> None:
    """A database from before an upgrade, so that the start makes its pre-upgrade backup."""
    url = f"sqlite+aiosqlite:///{path}"
    await started_games(url, 1)
    await downgrade_database(url, "0014")


async def start(env: dict[str, str], cwd: Path, fake: FakeDiscord, database: Path | None) -> Run:
    """The bot with exactly ``env`` (and what a process needs to run), until ready; then /healthz is
    asked, the lock tried, and the bot stopped with SIGTERM."""
    environment = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(ROOT),
        "FAKE_DISCORD_URL": fake.base_url,
        "PYTHONDONTWRITEBYTECODE": "1",
        **env,
    }
    if environment.get("DISCORD_TOKEN") == TOKEN:
        environment["DISCORD_TOKEN"] = fake.token  # the one the fake Discord accepts
    process = await zygote.create_subprocess_exec(  # forked by a zygote that imported the bot (and runs
        *UNPRIVILEGED,  # unprivileged too)
        sys.executable,
        "-m",
        "harness.bot_process",
        cwd=cwd,
        env=environment,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    assert process.stdout is not None
    lines: list[str] = []
    run = Run(-1, "")
    try:
        while True:
            raw = await asyncio.wait_for(process.stdout.readline(), 90)
            if not raw:
                break
            lines.append(raw.decode(errors="replace").rstrip())
            if " ready: " in lines[-1]:
                port = env.get("HEALTH_PORT", "").strip()
                if port:
                    run.health = await asyncio.to_thread(healthz, int(port))
                if database is not None:
                    try:
                        hold_exclusive(database).release()
                    except DatabaseInUse:
                        run.lock_held = True
                process.send_signal(signal.SIGTERM)
        run.code = await asyncio.wait_for(process.wait(), 60)
    finally:
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
    run.output = "\n".join(lines)
    return run


def healthz(port: int) -> tuple[int, str]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as answer:
        return answer.status, answer.read().decode()


def one_line_refusal(run: Run) -> str:
    assert "Traceback" not in run.output, run.output
    refused = [line for line in run.output.splitlines() if "cannot start:" in line]
    assert len(refused) == 1, run.output
    return refused[0]


# --- the environments, as each supervisor builds them --------------------------------------------


def test_each_deployment_s_environment_keeps_its_own_paths_with_the_env_the_readme_makes() -> None:
    env = made_env()
    docker = deployments.docker_run_env(DOCKERFILE, env)
    assert docker["DATABASE_URL"] == "sqlite+aiosqlite:////data/diplomacy.db"
    assert docker["BACKUP_DIR"] == "/data/backups" and docker["HEALTH_PORT"] == "8080"
    assert docker["DISCORD_TOKEN"] == TOKEN
    compose = deployments.compose_env(DOCKERFILE, COMPOSE, made_env(POSTGRES_PASSWORD="pw1"))
    assert compose["DATABASE_URL"] == "postgresql://diplomacy:pw1@db:5432/diplomacy"
    assert compose["BACKUP_DIR"] == "/data/backups" and compose["HEALTH_PORT"] == "8080"
    systemd = deployments.unit_env(UNIT, env)
    assert systemd["DATABASE_URL"] == "sqlite+aiosqlite:////var/lib/diplomacy-gm/diplomacy.db"
    assert systemd["BACKUP_DIR"] == "/var/lib/diplomacy-gm/backups"


def test_the_supervisors_precedence_is_the_documented_one() -> None:
    """What the trial met: a line in the settings file wins over the image's ENV and the unit's
    Environment= (so the file must leave them commented)."""
    docker = deployments.docker_run_env(DOCKERFILE, TRIAL_ENV)
    assert docker["DATABASE_URL"] == "sqlite+aiosqlite:///diplomacy.db" and docker["HEALTH_PORT"] == ""
    systemd = deployments.unit_env(UNIT, TRIAL_ENV)
    assert systemd["DATABASE_URL"] == "sqlite+aiosqlite:///diplomacy.db" and systemd["BACKUP_DIR"] == ""
    compose = deployments.compose_env(DOCKERFILE, COMPOSE, TRIAL_ENV + "POSTGRES_PASSWORD=pw1\n")
    assert compose["DATABASE_URL"].startswith("postgresql://"), "compose's environment: wins over env_file"


# --- started as deployed ---------------------------------------------------------------------------


async def test_docker_run_as_the_readme_says_uses_the_volume_and_serves_healthz(
    root: Path, fake: FakeDiscord
) -> None:
    app = read_only_for_bot(root / "app")
    data = root / "data"
    data.mkdir()
    await older_database(data / "diplomacy.db")
    owned_by_bot(data)
    port = free_port()
    env = deployments.relocated(deployments.docker_run_env(DOCKERFILE, made_env()), {"/data": data})
    env["HEALTH_PORT"] = str(port)  # 8080 from the image; a free one here (tests run side by side)
    run = await start(env, app, fake, data / "diplomacy.db")
    assert run.code == 0, run.output
    assert f"database the SQLite file {data / 'diplomacy.db'}" in run.output
    assert run.lock_held, "the bot held the lock beside its database"
    assert (data / "diplomacy.db.lock").exists() and not list(app.iterdir())
    assert len(list((data / "backups").glob("diplomacy.*.pre-migration.db"))) == 1
    # 200: "ok", or "degraded" by the old database's message that waits for a server the fake lacks
    assert run.health is not None and run.health[0] == 200 and '"version"' in run.health[1]


async def test_docker_run_with_the_trial_s_env_stops_with_one_line(root: Path, fake: FakeDiscord) -> None:
    app = read_only_for_bot(root / "app")
    data = owned_by_bot(root / "data")
    env = deployments.relocated(deployments.docker_run_env(DOCKERFILE, TRIAL_ENV), {"/data": data})
    run = await start(env, app, fake, None)
    assert run.code == 4, run.output
    line = one_line_refusal(run)
    assert f"cannot make the lock file beside the SQLite file {app / 'diplomacy.db'}" in line
    assert "settings file wins" in line


async def test_systemd_as_the_unit_says_uses_its_state_directory(root: Path, fake: FakeDiscord) -> None:
    clone = read_only_for_bot(root / "opt")  # ProtectSystem=strict: the clone is read-only
    state = root / "state"
    state.mkdir()
    await older_database(state / "diplomacy.db")
    owned_by_bot(state)
    env = deployments.relocated(
        deployments.unit_env(UNIT, made_env()), {"/var/lib/diplomacy-gm": state, "/opt/diplomacy-gm": clone}
    )
    run = await start(env, clone, fake, state / "diplomacy.db")
    assert run.code == 0, run.output
    assert f"database the SQLite file {state / 'diplomacy.db'}" in run.output
    assert run.lock_held and (state / "diplomacy.db.lock").exists()
    assert len(list((state / "backups").glob("diplomacy.*.pre-migration.db"))) == 1
    assert not list(clone.iterdir())


async def test_systemd_with_the_trial_s_env_stops_with_one_line(root: Path, fake: FakeDiscord) -> None:
    clone = read_only_for_bot(root / "opt")
    state = owned_by_bot(root / "state")
    env = deployments.relocated(
        deployments.unit_env(UNIT, TRIAL_ENV), {"/var/lib/diplomacy-gm": state, "/opt/diplomacy-gm": clone}
    )
    run = await start(env, clone, fake, None)
    assert run.code == 4 and "cannot make the lock file" in one_line_refusal(run)


async def test_an_unreadable_env_file_stops_with_one_line(root: Path, fake: FakeDiscord) -> None:
    clone = root / "clone"
    clone.mkdir(mode=0o755)
    (clone / ".env").write_text(made_env())
    (clone / ".env").chmod(0o000)  # the bot's user cannot read it
    run = await start({}, clone, fake, None)
    assert run.code == 2
    assert "cannot read the settings file" in one_line_refusal(run)


async def test_compose_s_bot_uses_its_database_service_and_dumps_to_the_volume(
    root: Path, fake: FakeDiscord, postgres_url: str
) -> None:
    app = read_only_for_bot(root / "app")
    data = owned_by_bot(root / "data")
    await started_games(postgres_url, 1)
    await downgrade_database(postgres_url, "0014")
    composed = deployments.compose_env(DOCKERFILE, COMPOSE, made_env(POSTGRES_PASSWORD="pw1"))
    assert composed["DATABASE_URL"] == "postgresql://diplomacy:pw1@db:5432/diplomacy"
    env = deployments.relocated(composed, {"/data": data})
    env["DATABASE_URL"] = postgres_url  # the db service: here the tests' own server
    port = free_port()
    env["HEALTH_PORT"] = str(port)
    run = await start(env, app, fake, None)
    assert run.code == 0, run.output
    dumps = list((data / "backups").glob("*.pre-migration.dump"))
    assert len(dumps) == 1 and dumps[0].stat().st_mode & 0o777 == 0o600
    assert run.health is not None and run.health[0] == 200
    assert not list(app.iterdir())


def test_an_older_database_helper_really_is_older(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    asyncio.run(older_database(path))
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == ("0014",)


FAKE_VENV_PYTHON = """#!/usr/bin/env bash
if [ "$1 $2" = "-m pip" ]; then echo "$@" >> "$(dirname "$0")/../../pip.log"; exit 0; fi
exec {python} "$@"
"""


def test_a_systemd_restart_after_a_requirements_change_installs_them_first(root: Path) -> None:
    """`git pull && systemctl restart`: the unit's ExecStartPre installs what the new requirements.txt
    asks (once), then ExecStart starts the bot (pip stands in: it records what it was asked)."""
    clone = root / "opt"
    (clone / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "run.sh", clone)
    shutil.copy(ROOT / "scripts" / "ensure_venv.sh", clone / "scripts")
    shutil.copy(ROOT / "requirements.txt", clone)
    for name in (
        "bot.py",
        "config.py",
        "alembic.ini",
        "cogs",
        "data",
        "db",
        "engine",
        "gm",
        "migrations",
        "ops",
        "render",
    ):
        (clone / name).symlink_to(ROOT / name)
    python = clone / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(FAKE_VENV_PYTHON.format(python=sys.executable))
    python.chmod(0o755)
    installed = hashlib.sha256((clone / "requirements.txt").read_bytes()).hexdigest()
    (clone / ".venv" / ".requirements-runtime.sha256").write_text(installed + "\n")  # the last install
    me = pwd_name()

    def unit_command(line: str) -> list[str]:
        words = shlex.split(line.lstrip("+-@!").replace("/opt/diplomacy-gm", str(clone)))
        if words[:2] == ["/usr/sbin/runuser", "-u"]:  # as the unit's user: here, ours
            words[2] = me
            if os.geteuid() != 0:
                words = words[4:]
        return words

    (pre,) = deployments.unit_lines(UNIT, "ExecStartPre")
    (start_line,) = deployments.unit_lines(UNIT, "ExecStart")

    def run(words: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            words,
            cwd=clone,
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "DISCORD_TOKEN": "x"},
        )

    done = run(unit_command(pre))
    assert done.returncode == 0, done.stderr
    assert not (clone / "pip.log").exists(), "unchanged requirements: nothing installed"
    with (clone / "requirements.txt").open("a") as requirements:
        requirements.write("newdep==1.0\n")  # what `git pull` brought
    done = run(unit_command(pre))
    assert done.returncode == 0, done.stderr
    log = (clone / "pip.log").read_text().splitlines()
    assert log == [f"-m pip install --quiet --disable-pip-version-check -r {clone / 'requirements.txt'}"]
    assert run(unit_command(pre)).returncode == 0 and len((clone / "pip.log").read_text().splitlines()) == 1
    started = run([*unit_command(start_line), "--version"])
    assert started.returncode == 0 and started.stdout.startswith("diplomacy-gm "), started.stderr


def pwd_name() -> str:
    return pwd.getpwuid(os.geteuid()).pw_name


def readme_commands(*sections: str) -> list[str]:
    """The commands (indented code lines) of the README's sections named ``sections``."""
    text = (ROOT / "README.md").read_text()
    found = []
    for section in sections:
        body = text.split(f"\n### {section}\n", 1)[1].split("\n#", 1)[0]
        lines = [line[4:] for line in body.splitlines() if line.startswith("    ")]
        joined = "\n".join(lines).replace("\\\n", " ")
        found += [" ".join(line.split()) for line in joined.splitlines() if line.strip()]
    return found


def test_the_readme_s_deployment_commands_are_the_ones_simulated() -> None:
    """Word by word: the README's docker run is the environment test_docker_run_* builds (the .env
    made by its install line, the volume on the image's /data), compose's and the unit's settings
    files are made the same way, every compose command that carries a dump has -T, every manual
    dump is private, and the unit's by-hand commands name the unit's database."""
    docker = readme_commands("With Docker")
    assert (
        "install -m 600 .env.example .env # then edit .env: DISCORD_TOKEN=... "
        "(leave the other lines commented)" in docker
    )
    (run,) = [line for line in docker if line.startswith("docker run ")]
    words = shlex.split(run)
    assert words[words.index("--env-file") + 1] == ".env"
    volume = words[words.index("-v") + 1]
    assert volume.split(":")[1] == "/data" and 'VOLUME ["/data"]' in DOCKERFILE
    assert words[-1] == "diplomacy-gm" and "docker build -t diplomacy-gm ." in docker
    assert COMPOSE.count("install -m 600 .env.example .env") == 1
    assert "sudo install -m 600 .env.example /etc/diplomacy-gm/diplomacy-gm.env" in UNIT
    assert "EnvironmentFile=/etc/diplomacy-gm/diplomacy-gm.env" in UNIT
    everything = readme_commands("With Docker", "Backups and restore", "Upgrading", "Rolling back")
    compose_lines = [line for line in COMPOSE.splitlines() if "docker compose" in line]
    for line in everything + compose_lines:
        if "docker compose exec" in line or "docker compose run" in line:
            assert " -T " in line, line
        if "pg_dump" in line and "--format=custom" in line:
            assert "umask 077" in line, line
    by_hand = [line for line in readme_commands("Rolling back") if "python -m db" in line]
    assert by_hand and all(
        "--database-url sqlite+aiosqlite:////var/lib/diplomacy-gm/diplomacy.db" in line for line in by_hand
    )
    unit_env = deployments.unit_env(UNIT, made_env())
    assert unit_env["DATABASE_URL"] == "sqlite+aiosqlite:////var/lib/diplomacy-gm/diplomacy.db"
