"""Which test modules lack pytest's cached rewrite: ``python -m tests.helpers.rewritten`` prints them.

pytest rewrites the asserts of every test module and conftest it imports (an AST pass, about 9 s of
CPU for the whole suite) and caches the result beside it (``__pycache__/*-pytest-*.pyc``, checked by
the source's hash). Every pytest-xdist worker imports every module, so where the cache is missing (a
fresh clone's first run, a branch that changed many tests) each worker would rewrite them all at the
same time; ./test.sh lets one process write the cache first when this prints many."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from _pytest.assertion.rewrite import PYC_TAIL

ROOT = Path(__file__).resolve().parents[2]


def cached(source: Path) -> bool:
    """Whether ``source`` has a rewritten copy pytest would read (its header names this source's hash)."""
    pyc = source.parent / "__pycache__" / (source.stem + PYC_TAIL)
    try:
        with pyc.open("rb") as file:
            header = file.read(16)
    except OSError:
        return False
    return header[8:16] == importlib.util.source_hash(source.read_bytes())[:8]


def uncached(root: Path = ROOT / "tests") -> list[Path]:
    """The test modules and conftests under ``root`` without an up-to-date rewritten copy."""
    modules = [*root.rglob("test_*.py"), *root.rglob("conftest.py")]
    return sorted(path for path in modules if not cached(path))


if __name__ == "__main__":
    sys.stdout.write("".join(f"{path.relative_to(ROOT)}\n" for path in uncached()))
