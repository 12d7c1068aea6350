"""The deployment files, checked without Docker (no engine here; building the image is documented in
the README): the image holds everything the bot imports, and nothing but the runtime dependencies;
its health check asks the bot's /healthz; the supervisors give a stop more time than the bot takes;
the systemd unit reads its settings from an EnvironmentFile and is hardened (systemd-analyze)."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.waits  # processes or real time: spread through the run (tests/conftest.py)

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = (ROOT / "Dockerfile").read_text()
COMPOSE = (ROOT / "compose.yaml").read_text()
UNIT = (ROOT / "deploy" / "diplomacy-gm.service").read_text()


def number(pattern: str, text: str) -> int:
    """The number the pattern's group catches in ``text`` (a line of a file: ^ and $ match at lines)."""
    found = re.search(pattern, text, re.MULTILINE)
    assert found is not None, f"no {pattern!r}"
    return int(found[1])


def copied() -> list[str]:
    """The paths the Dockerfile copies into /app (the code, not requirements.txt)."""
    names: list[str] = []
    for line in DOCKERFILE.splitlines():
        if line.startswith("COPY ") and "requirements" not in line:
            names += line.split()[1:-1]
    return [n for n in names if not n.startswith("--")]


def local_imports(start: Path) -> set[str]:
    """Top-level project modules and packages reachable by imports from ``start``."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        path = todo.pop()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module.split(".")[0]]
            for name in names:
                if name in seen:
                    continue
                if (ROOT / name / "__init__.py").exists():
                    seen.add(name)
                    todo += list((ROOT / name).rglob("*.py"))
                elif (ROOT / f"{name}.py").exists():
                    seen.add(name)
                    todo.append(ROOT / f"{name}.py")
    return seen


def test_the_image_copies_every_module_the_bot_imports() -> None:
    needed = local_imports(ROOT / "bot.py") | {"migrations", "data", "alembic.ini"}
    have = {Path(name).stem if name.endswith(".py") else name.rstrip("/") for name in copied()}
    have = {n.removeprefix("./") for n in have}
    assert needed - have == set(), f"missing from the image: {needed - have}"
    assert not have & {"tests", "bench", "scripts", "docs"}


def test_the_image_installs_the_runtime_set_runs_as_a_user_and_checks_its_health() -> None:
    assert "pip install --no-cache-dir -r requirements.txt" in DOCKERFILE
    assert "requirements-dev" not in DOCKERFILE
    users = re.findall(r"^USER (\S+)", DOCKERFILE, re.MULTILINE)
    assert users and users[-1] not in ("root", "0")
    assert 'VOLUME ["/data"]' in DOCKERFILE and "sqlite+aiosqlite:////data/" in DOCKERFILE
    assert re.search(r'HEALTHCHECK .*\n\s*CMD \["python", "-m", "ops.probe"\]', DOCKERFILE)
    assert "HEALTH_PORT=8080" in DOCKERFILE and "HEALTH_HOST=127.0.0.1" in DOCKERFILE
    assert "postgresql-client-16" in DOCKERFILE and "postgres:16" in COMPOSE, "pg_dump as new as the server"
    assert 'CMD ["python", "bot.py"]' in DOCKERFILE, "exec form: the bot is PID 1 and gets SIGTERM"


def test_supervisors_wait_longer_than_the_bot_takes_to_stop() -> None:
    from config import Settings

    bot_needs = Settings.model_fields["shutdown_timeout"].default
    grace = number(r"stop_grace_period: (\d+)s", COMPOSE)
    stop = number(r"TimeoutStopSec=(\d+)", UNIT)
    assert grace > bot_needs and stop > bot_needs
    assert "KillMode=mixed" in UNIT, "SIGTERM to the bot only; its workers end with it"
    assert "RestartPreventExitStatus=2 6" in UNIT


def test_compose_runs_the_bot_on_its_postgresql_service() -> None:
    assert "image: postgres:" in COMPOSE and "pgdata:/var/lib/postgresql/data" in COMPOSE
    assert "DATABASE_URL: postgresql://diplomacy:${POSTGRES_PASSWORD}@db:5432/diplomacy" in COMPOSE
    assert "condition: service_healthy" in COMPOSE


def test_what_the_image_holds_is_enough_to_run(tmp_path: Path) -> None:
    """The files the Dockerfile copies, alone in a directory: the health check and an upgrade work."""
    app = tmp_path / "app"
    app.mkdir()
    for name in copied():
        source = ROOT / name.removeprefix("./")
        if source.is_dir():
            shutil.copytree(source, app / source.name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, app)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DATABASE_URL")}
    env.update(DISCORD_TOKEN="x", DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'data.db'}")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, *args], cwd=app, env=env, capture_output=True, text=True, timeout=120
        )

    assert run("bot.py", "--check").returncode == 5  # no database yet
    upgrade = run("-m", "db", "upgrade")
    assert upgrade.returncode == 0, upgrade.stderr
    check = run("bot.py", "--check")
    assert check.returncode == 0 and check.stdout.startswith("ok:"), check.stderr
    drawn = run(
        "-c",
        "from render import render_map; from engine import Board; print(len(render_map(Board.initial())))",
    )
    assert drawn.returncode == 0 and int(drawn.stdout) > 10_000, drawn.stderr


def test_the_systemd_unit_is_hardened_and_reads_its_settings_from_a_private_file() -> None:
    for line in (
        "EnvironmentFile=/etc/diplomacy-gm/diplomacy-gm.env",
        "StateDirectory=diplomacy-gm",
        "Environment=BACKUP_DIR=/var/lib/diplomacy-gm/backups",
        "UMask=0077",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "ProtectHome=yes",
        "PrivateTmp=yes",
        "CapabilityBoundingSet=",
        "SystemCallFilter=@system-service",
        "Type=notify",
    ):
        assert re.search(rf"^{re.escape(line)}$", UNIT, re.MULTILINE), line
    assert re.search(r"^RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX", UNIT, re.MULTILINE)
    assert number(r"^WatchdogSec=(\d+)", UNIT) > 0
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed: the exposure is not measured here")
    done = subprocess.run(
        [analyze, "security", "--offline=true", str(ROOT / "deploy" / "diplomacy-gm.service")],
        capture_output=True,
        text=True,
    )
    found = re.search(r"Overall exposure level for diplomacy-gm.service: ([\d.]+)", done.stdout + done.stderr)
    if found is None:
        pytest.skip(f"this systemd-analyze cannot rate a unit offline: {done.stderr.strip()[:200]}")
    assert float(found[1]) <= 4.0, done.stdout


def test_the_image_probe_asks_the_bot_s_healthz(tmp_path: Path) -> None:
    """``python -m ops.probe`` (the image's HEALTHCHECK): 1 with nothing listening, with a line."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEALTH_")}
    done = subprocess.run(
        [sys.executable, "-m", "ops.probe"],
        cwd=ROOT,
        env={**env, "HEALTH_PORT": "9"},  # discard: nothing answers there
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and "did not answer" in done.stderr


def test_every_alert_has_a_runbook_section_and_reads_metrics_the_bot_exposes() -> None:
    """deploy/prometheus-alerts.yml's rules: each alert has its section in deploy/RUNBOOK.md, and
    every metric an expression reads is one the bot's /metrics serves (a renamed metric would leave
    an alert that never fires)."""
    from ops.metrics import Metrics

    rules = (ROOT / "deploy" / "prometheus-alerts.yml").read_text()
    runbook = (ROOT / "deploy" / "RUNBOOK.md").read_text()
    alerts = re.findall(r"^\s+- alert: (\w+)$", rules, re.MULTILINE)
    assert len(alerts) >= 8
    sections = re.findall(r"^## (\w+)$", runbook, re.MULTILINE)
    assert sorted(alerts) == sorted(sections)
    served = set()
    for family in Metrics().registry.collect():
        suffixes = {"counter": ["_total"], "histogram": ["_bucket", "_count", "_sum"]}.get(family.type, [""])
        served |= {sample.name for sample in family.samples} | {family.name + end for end in suffixes}
    used = set(re.findall(r"\b((?:diplomacy|process)_\w+)", rules))
    assert used and used - served == set(), f"not served: {used - served}"
    assert "METRICS_TOKEN" in COMPOSE and "HEALTH_HOST=0.0.0.0" in COMPOSE, "compose says how to scrape it"
