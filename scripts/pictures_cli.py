"""The command line the README's picture scripts share (scripts/sheet_picture.py,
scripts/sandbox_picture.py): ``--out`` (default docs/images), then the script's ``make(out)``."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"


def pictures_main(doc: str, make: Callable[[Path], Coroutine[Any, Any, None]]) -> None:
    """Reads ``--out`` (the folder the pictures go to) and runs ``make`` with it."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=IMAGES)
    args = parser.parse_args()
    asyncio.run(make(args.out))
