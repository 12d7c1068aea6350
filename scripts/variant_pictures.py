"""Draw each variant's opening position with the bot's own renderer, for docs/images.

Run from the repository root::

    .venv/bin/python scripts/variant_pictures.py                  # every variant -> docs/images
    .venv/bin/python scripts/variant_pictures.py 1900 --out /tmp  # some, elsewhere
    .venv/bin/python scripts/variant_pictures.py --phone 1080     # also a copy at a phone's width

Each picture is what the bot posts when the game starts (render.render_map, at the map's own width:
render.compose.picture_width), except for Chaos, whose game starts with no unit on the board: its
picture is the board after the opening builds, every power building an army in its home centre (a
fleet where only a fleet fits). ``--phone`` also writes ``<name>_phone.png`` shrunk to that many
pixels wide, to look at the picture the way a phone shows it before zooming in.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import Board, adjudicate, all_variants, initial_board  # noqa: E402
from render import render_map  # noqa: E402


def opening(name: str) -> Board:
    """The variant's first position, or, for a game that opens with builds, the one after them."""
    board = initial_board(name)
    if board.phase.kind != "A":
        return board
    gm = board.game_map
    orders = {}
    for power in gm.powers:
        home = gm.home_centers[power][0]
        kind = "A" if gm.provinces[home].is_land else "F"
        orders[power] = [f"{kind} {home} B"]
    return adjudicate(board, orders).board


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="variants (default: every one but the Standard games)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--phone", type=int, help="also write a copy this many pixels wide")
    args = parser.parse_args()
    names = args.names or [v.name for v in all_variants() if v.name not in ("standard", "ww1914")]
    args.out.mkdir(parents=True, exist_ok=True)
    for name in names:
        png = render_map(opening(name))
        path = args.out / f"variant_{name}.png"
        path.write_bytes(png)
        with Image.open(path) as img:
            print(f"{path}: {img.width} x {img.height}, {len(png) // 1024} KB")
            if args.phone:
                small = img.convert("RGB").resize(
                    (args.phone, round(img.height * args.phone / img.width)), Image.Resampling.LANCZOS
                )
                small.save(args.out / f"variant_{name}_phone.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
