"""``python -m render IN.json OUT.png [--width N] [--palette colorblind] [--no-labels] [--title T]``

IN.json is the engine's JSON, request or result form ('-' reads stdin). Exit status 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.board import BoardError
from render.compose import DEFAULT_WIDTH, RenderOptions
from render.jsonio import render_json
from render.palette import PALETTES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m render", description="Draw a Diplomacy map as a PNG.")
    parser.add_argument("input", help="engine JSON (request or result form), or - for stdin")
    parser.add_argument("output", type=Path, help="PNG file to write")
    parser.add_argument(
        "--width",
        type=int,
        default=None,
        help=f"pixels (default: the map's own, {DEFAULT_WIDTH} for the Standard map, wider for bigger maps)",
    )
    parser.add_argument("--palette", choices=sorted(PALETTES), default="default")
    parser.add_argument("--no-labels", action="store_true", help="leave out the province names")
    parser.add_argument("--title", help="title instead of the phase's name")
    args = parser.parse_args(argv)
    try:
        text = sys.stdin.read() if args.input == "-" else Path(args.input).read_text(encoding="utf-8")
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("the JSON must be an object")
        options = RenderOptions(
            width=args.width, palette=args.palette, show_labels=not args.no_labels, title=args.title
        )
        png = render_json(data, options)
    except (OSError, ValueError, BoardError) as exc:  # json.JSONDecodeError is a ValueError
        print(f"render: {exc}", file=sys.stderr)
        return 2
    args.output.write_bytes(png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
