"""tests/helpers/rewritten.py tells the test modules pytest has a rewritten copy of from the others,
as pytest itself reads its cache: ./test.sh writes the cache first when many lack one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.helpers.rewritten import uncached


def collect(root: Path) -> None:
    """What a worker does to ``root``'s test modules: pytest imports (and rewrites) them."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": ""}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-c", os.devnull,
         "--rootdir", str(root), str(root)],
        cwd=root, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_collected_module_is_cached_until_it_changes(tmp_path: Path) -> None:
    first, second = tmp_path / "test_first.py", tmp_path / "sub" / "test_second.py"
    second.parent.mkdir()
    for module in (first, second):
        module.write_text("def test_it() -> None:\n    assert 1 + 1 == 2\n")
    (tmp_path / "helper.py").write_text("X = 1\n")  # not a test module: never listed
    assert uncached(tmp_path) == sorted([first, second])
    collect(tmp_path)
    assert uncached(tmp_path) == []
    second.write_text("def test_it() -> None:\n    assert 2 + 2 == 4\n")
    assert uncached(tmp_path) == [second]
