"""Benchmark: drawing the order sheets of a busy server in turn, as its direct-message sheets are
redrawn (cogs.ui.sheet_live): every power's sheet of ``--games`` games, each in bench/load.py's
mid-game position less a unit or two (no two alike), drawn one after the other, ``--rounds`` times
over, one unit's order of each power changed between rounds. Prints the CPU per sheet drawn (the
drawing and its message payload) and what the drawing keeps. In one process, without Discord:
compare two checkouts run alike.

    .venv/bin/python bench/sheet_draws.py                   # this checkout
    .venv/bin/python bench/sheet_draws.py --root ../main    # another checkout's drawing
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def run(games: int, rounds: int) -> None:
    from discord.http import handle_message_parameters

    from bench.legal_orders import MID_GAME
    from bench.load import units_of
    from cogs.ui import sheet_draw
    from cogs.ui.sheet import Sheet
    from engine import Board
    from gm.ordering.legal import OrderMenu
    from tests.helpers.menus import menu_of

    boards = [Board.from_json({"phase": "F1905M", "units": units_of(n), "centers": {}}) for n in range(games)]
    menus = [menu_of(board, [power], "standard") for board in boards for power in MID_GAME]
    rng = random.Random(1)

    def changed(menu: OrderMenu) -> OrderMenu:
        """``menu`` with one unit's order changed (a player's change between two redraws)."""
        power = menu.powers[0]
        entry = rng.choice([e for e in power.legal.entries if e.orders])
        orders = {**power.orders, entry.location: rng.choice(entry.orders).text}
        return OrderMenu(menu.view, (type(power)(power.power, power.legal, orders, ()),), "standard")

    def draw_all(shown: list[OrderMenu]) -> None:
        for number, menu in enumerate(shown):
            sheet = Sheet(game_id=number, phase="F1905M", user_id=number, tag="t")
            with handle_message_parameters(view=sheet_draw.draw(menu, sheet, live=True)):
                pass

    draw_all(menus)  # the engine's listings made, as a server's are after its first taps
    cpu, drawn = 0.0, 0
    shown = menus
    for _ in range(rounds):
        shown = [changed(menu) for menu in shown]
        start = time.process_time()
        draw_all(shown)
        cpu += time.process_time() - start
        drawn += len(shown)
    units = sum(len(m.powers[0].legal.entries) for m in menus)
    kept = len(getattr(sheet_draw, "_options", {}))
    print(
        f"{len(menus)} sheets ({units} units) of {games} games, drawn {rounds} times: "
        f"{1000 * cpu / drawn:.3f} ms of CPU per sheet; units' options kept: {kept}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--root", help="draw with this checkout's code (default: this one)")
    parser.add_argument("--games", type=int, default=45)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if args.root:
        sys.path.insert(0, str(Path(args.root).resolve()))
    run(args.games, args.rounds)


if __name__ == "__main__":
    main()
