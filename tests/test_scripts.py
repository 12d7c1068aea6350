"""scripts/ensure_venv.sh: ./run.sh installs the runtime dependencies only, ./test.sh the dev set on
top (also into a venv run.sh made), each again only when its requirement files change; it works where
sha256sum is missing. pip is a stand-in here that records what it was asked to install."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FAKE_PYTHON = """#!/usr/bin/env bash
echo "$@" >> "$(dirname "$0")/../pip.log"
"""


def project(tmp_path: Path) -> Path:
    """A copy of the script and requirement files, with a .venv whose python only logs pip calls."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "ensure_venv.sh", tmp_path / "scripts")
    for name in ("requirements.txt", "requirements-dev.txt"):
        shutil.copy(ROOT / name, tmp_path)
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    return tmp_path


def ensure(root: Path, kind: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHON": sys.executable}
    if path is not None:
        env["PATH"] = path
    return subprocess.run(
        ["bash", "-c", f"REQUIREMENTS={kind} source scripts/ensure_venv.sh"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def installs(root: Path) -> list[str]:
    log = root / ".venv" / "pip.log"
    return [line.rsplit("/", 1)[-1] for line in log.read_text().splitlines()] if log.exists() else []


def test_run_installs_the_runtime_set_and_test_adds_the_dev_set_once(tmp_path: Path) -> None:
    root = project(tmp_path)
    assert ensure(root, "runtime").returncode == 0
    assert installs(root) == ["requirements.txt"]
    assert ensure(root, "runtime").returncode == 0
    assert installs(root) == ["requirements.txt"], "nothing changed: nothing installed"
    assert ensure(root, "dev").returncode == 0
    assert installs(root) == ["requirements.txt", "requirements-dev.txt"], "test.sh after run.sh"
    assert ensure(root, "dev").returncode == 0 and ensure(root, "runtime").returncode == 0
    assert len(installs(root)) == 2, "the dev set holds the runtime set"
    with (root / "requirements.txt").open("a") as f:
        f.write("# changed\n")
    assert ensure(root, "runtime").returncode == 0
    assert installs(root)[2:] == ["requirements.txt"]
    assert ensure(root, "dev").returncode == 0
    assert installs(root)[3:] == ["requirements-dev.txt"]


def test_the_runtime_set_holds_no_test_or_build_tool() -> None:
    runtime = (ROOT / "requirements.txt").read_text().lower()
    for tool in ("pytest", "hypothesis", "ruff", "numpy", "shapely"):
        assert f"\n{tool}==" not in runtime, tool
    pins = [line for line in runtime.splitlines() if line and not line.startswith("#")]
    assert pins and all("==" in line for line in pins), "every runtime dependency is pinned"


def test_it_works_without_sha256sum(tmp_path: Path) -> None:
    root = project(tmp_path)
    tools = tmp_path / "bin"  # a PATH with the basics but neither sha256sum nor shasum
    tools.mkdir()
    for tool in ("bash", "cat", "cut", "dirname"):
        found = shutil.which(tool)
        assert found, tool
        (tools / tool).symlink_to(found)
    run = ensure(root, "runtime", path=str(tools))
    assert run.returncode == 0, run.stderr
    assert installs(root) == ["requirements.txt"]
    stamp = (root / ".venv" / ".requirements-runtime.sha256").read_text().strip()
    assert len(stamp) == 64 and int(stamp, 16) >= 0
    assert ensure(root, "runtime", path=str(tools)).returncode == 0
    assert installs(root) == ["requirements.txt"]


def test_an_old_python_is_named(tmp_path: Path) -> None:
    root = project(tmp_path)
    old = tmp_path / "python3.9"
    old.write_text("#!/usr/bin/env bash\n[ \"$1\" = --version ] && echo 'Python 3.9.2'; exit 1\n")
    old.chmod(0o755)
    run = subprocess.run(
        ["bash", "-c", "REQUIREMENTS=runtime source scripts/ensure_venv.sh"],
        cwd=root,
        env={**os.environ, "PYTHON": str(old)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1 and "Python 3.11 or newer is needed (found Python 3.9.2)" in run.stderr
