"""The bot's version and the commit it was built from, for ``--version``, the first log line,
``/admin status`` and the metrics.

The commit is found without running git: ``GIT_COMMIT`` from the environment, else a ``COMMIT`` file
at the top of the code (the Docker build writes it from its ``GIT_COMMIT`` build argument), else the
clone's own ``.git`` (its HEAD, the branch's ref or packed-refs; a worktree's ``.git`` file too), else
"unknown"."""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

VERSION = "0.2.0"
"""Kept equal to pyproject.toml's (tests/test_operations.py checks it)."""
NAME = "diplomacy-gm"
ROOT = Path(__file__).resolve().parent.parent
_SHA = re.compile(r"[0-9a-f]{7,40}")


@cache
def commit() -> str:
    """The commit's 12-hex-digit abbreviation, or "unknown"."""
    found = os.environ.get("GIT_COMMIT", "").strip() or _from_file(ROOT / "COMMIT") or _from_git(ROOT)
    found = (found or "").strip().lower()
    return found[:12] if _SHA.fullmatch(found) else "unknown"


def describe() -> str:
    """``diplomacy-gm 0.2.0 (commit 1a2b3c4d5e6f)``."""
    return f"{NAME} {VERSION} (commit {commit()})"


def _from_file(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


def _from_git(root: Path) -> str | None:
    """HEAD's commit read from the ``.git`` directory (or a worktree's ``.git`` file)."""
    git = root / ".git"
    try:
        if git.is_file():  # a worktree: "gitdir: /path/to/main/.git/worktrees/name"
            git = Path(git.read_text(encoding="utf-8").split(":", 1)[1].strip())
        head = (git / "HEAD").read_text(encoding="utf-8").strip()
    except (OSError, IndexError):
        return None
    if not head.startswith("ref:"):
        return head  # a detached HEAD holds the commit itself
    ref = head.split(":", 1)[1].strip()
    common = git
    commondir = _from_file(git / "commondir")
    if commondir:
        common = (git / commondir).resolve()
    for place in (git, common):
        found = _from_file(place / ref)
        if found:
            return found
    packed = _from_file(common / "packed-refs") or ""
    for line in packed.splitlines():
        sha, _, name = line.partition(" ")
        if name.strip() == ref:
            return sha
    return None
