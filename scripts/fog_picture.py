"""The README's picture of the fog of war: the rulebook's sample game (harness/sample_game.py) at Fall
1902 Movement, as France's player gets its results in a fogged game, drawn by the bot's own code
(gm.phases.worker.fog_maps, which the close of a phase runs). The same phase in full is
docs/images/sample_F1902M_results.png.

    .venv/bin/python scripts/fog_picture.py [--out docs/images] [--power FRANCE] [--phase F1902M]

Writes ``fog_<phase>_<power>.png`` (lower case), and prints what the power saw.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import Board, adjudicate  # noqa: E402
from gm.messages.maps import ORDERS_MAP, fog_kind  # noqa: E402
from gm.phases.worker import fog_maps  # noqa: E402
from gm.rules.fog import seen_in_phase  # noqa: E402
from harness.sample_game import play  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--power", default="FRANCE")
    parser.add_argument("--phase", default="F1902M")
    args = parser.parse_args()
    power = args.power.upper()
    for request, _ in play():
        if request["phase"] != args.phase.upper():
            continue
        board = Board.from_json(request)
        done = adjudicate(board, request["orders"])
        png = fog_maps(board, done, [power], position=False)[fog_kind(ORDERS_MAP, power)]
        path = args.out / f"fog_{args.phase.lower()}_{power.lower()}.png"
        path.write_bytes(png)
        seen = sorted(seen_in_phase(board, done.board, [power]))
        print(f"{path}: {len(png) // 1024} KB; {power} saw {' '.join(seen)}")
        return 0
    print(f"no phase {args.phase} in the sample game", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
