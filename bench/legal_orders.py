"""How long ``engine.legal_orders`` takes. Prints milliseconds; asserts nothing.

    .venv/bin/python bench/legal_orders.py [--runs 200] [--positions 30] [--seed 1]

Each row is the time to list the orders of *every* power on one board (seven calls), the median
over ``--runs`` runs. "cold" empties all of legal_orders' memory before each run: the boards seen,
their convoy answers, and the listed orders shared between boards; "new board" forgets only the
board itself (engine.legal.forget_board), as a running bot meets a new position, its shared orders
at hand (here all of them: an upper bound for a position seen for the first time); "warm" is the same
seven calls again on a board already listed (every later builder step). The per-map tables are built
once, before timing, as in a running bot. Times are the CPU time of the calling thread
(time.thread_time): what the bot's event loop spends, without the waits for a core that a busy
machine adds to the wall-clock time.

Boards:
  start        the Spring 1901 position (22 units)
  mid-game     a hand-made Fall 1905 position: 34 units, 12 fleets at sea, one body of water
  dense (rnd)  --positions random 34-unit positions of bench/adjudicate.py (12 fleets at sea each);
               the median over positions of each position's median, and the slowest position
  retreats     a Fall 1901 retreat phase with three dislodged units
  adjustments  a Winter 1901 adjustment phase with builds and removals

Then 45 games at once, as a busy bot holds them (gm.ordering.progress keeps one board per game and
forgets a position no game holds): each at its own dense position, 20,000 requests for a random
power of a random game, one in 500 moving its game to a new position. It prints how many times a
position's list for a power was worked out again (the memory of boards too small, or a board rebuilt),
and how many times a position's convoy answers were (engine.adjudicator.convoys keeps 16 boards').
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.adjudicate import dense_position  # the adjudicator's dense positions
from engine import Board, load_map
from engine.adjudicator import convoys
from engine.legal import forget_board, forget_legal_orders, legal_orders

GM = load_map("standard")

MID_GAME = {
    "ENGLAND": ["F NTH", "F NWG", "F ENG", "F IRI", "A NWY", "A LON"],
    "FRANCE": ["F MAO", "F WES", "A SPA", "A BUR", "A PAR"],
    "GERMANY": ["A MUN", "A KIE", "A HOL", "F HEL", "F DEN", "A RUH"],
    "ITALY": ["F TYS", "F ION", "A TUN", "A VEN", "A PIE"],
    "AUSTRIA": ["A VIE", "A BUD", "A SER", "A TRI"],
    "RUSSIA": ["A WAR", "F SWE", "A GAL", "F BOT"],
    "TURKEY": ["F BLA", "F AEG", "A BUL", "A CON"],
}
RETREATS = {
    "phase": "F1901R",
    "units": {
        "TURKEY": ["A SER", "F BLA", "A BUL"],
        "AUSTRIA": ["A BUD", "F ALB"],
        "RUSSIA": ["A UKR", "A GAL", "F SWE"],
        "GERMANY": ["A DEN", "F HOL", "A MUN"],
    },
    "centers": {},
    "dislodged": {
        "AUSTRIA": {"A SER": {"attacker_from": "BUL", "retreats": ["TRI", "GRE"]}},
        "RUSSIA": {"F SEV": {"attacker_from": "BLA", "retreats": ["ARM", "RUM"]}},
        "ENGLAND": {"F NTH": {"attacker_from": "HOL", "retreats": ["EDI", "YOR", "LON", "NWG", "SKA"]}},
    },
}
ADJUSTMENTS = {
    "phase": "W1901A",
    "units": {
        "RUSSIA": ["A WAR", "F SEV", "A RUM", "A SWE"],
        "GERMANY": ["A DEN", "A HOL"],
        "FRANCE": ["A PAR", "F BRE", "A MAR", "A BUR", "F ENG"],
        "AUSTRIA": ["A SER", "A GAL"],
    },
    "centers": {
        "RUSSIA": ["MOS", "SEV", "STP", "WAR", "RUM", "SWE"],
        "GERMANY": ["BER", "KIE", "MUN", "DEN", "HOL"],
        "FRANCE": ["PAR", "BRE", "MAR"],
        "AUSTRIA": ["VIE", "BUD", "TRI", "SER"],
    },
}


def every_power(board: Board) -> int:
    return sum(len(legal_orders(board, power)) for power in GM.powers)


def timed(board: Board, runs: int, cold: bool, new_board: bool = False) -> list[float]:
    out = []
    every_power(board)
    gc.disable()
    try:
        for _ in range(runs):
            if cold:
                forget_legal_orders()
            elif new_board:
                forget_board(board)
            t0 = time.thread_time()
            every_power(board)
            out.append(time.thread_time() - t0)
    finally:
        gc.enable()
    return out


def per_power_ms(board: Board, runs: int) -> tuple[str, float]:
    """The power whose list takes longest on ``board``, and its median time (cold)."""
    worst = ("", 0.0)
    for power in GM.powers:
        times = []
        for _ in range(runs):
            forget_legal_orders()
            t0 = time.thread_time()
            legal_orders(board, power)
            times.append(time.thread_time() - t0)
        ms = statistics.median(times) * 1e3
        worst = max(worst, (power, ms), key=lambda x: x[1])
    return worst


def row(label: str, board: Board, runs: int) -> None:
    units = sum(len(us) for us in board.units.values())
    orders = every_power(board)
    cold = statistics.median(timed(board, runs, cold=True)) * 1e3
    new = statistics.median(timed(board, runs, cold=False, new_board=True)) * 1e3
    warm = statistics.median(timed(board, runs, cold=False)) * 1e3
    power, one = per_power_ms(board, max(1, runs // 4))
    print(
        f"  {label:<12} {units:3d} units {orders:5d} orders   all powers: cold {cold:6.2f} ms  "
        f"new board {new:6.2f} ms  warm {warm * 1e3:5.1f} us   slowest power {power.title()} {one:5.2f} ms"
    )


def busy_bot(rng: random.Random, games: int = 45, requests: int = 20_000) -> None:
    built = 0
    build = convoys.BoardConvoys.__init__

    def counted(self: convoys.BoardConvoys, graph: convoys.SeaGraph, sea_fleets: frozenset[str]) -> None:
        nonlocal built
        built += 1
        build(self, graph, sea_fleets)

    convoys.BoardConvoys.__init__ = counted  # type: ignore[method-assign]
    try:
        forget_legal_orders()
        boards = [
            Board.from_json({"phase": "F1905M", "units": dense_position(rng), "centers": {}})
            for _ in range(games)
        ]
        positions = games
        first: dict[tuple[int, str], object] = {}
        held = list(boards)  # every board stays alive: its id is its own
        again = 0
        for _ in range(requests):
            game = rng.randrange(games)
            if rng.random() < 0.002:
                forget_board(boards[game])
                boards[game] = Board.from_json(
                    {"phase": "F1905M", "units": dense_position(rng), "centers": {}}
                )
                held.append(boards[game])
                positions += 1
                continue
            power = rng.choice(GM.powers)
            listed = legal_orders(boards[game], power)
            seen = first.setdefault((id(boards[game]), power), listed)
            again += seen is not listed
    finally:
        convoys.BoardConvoys.__init__ = build  # type: ignore[method-assign]
    print(
        f"{games} games at once, {requests:,} requests, {positions} positions: a power's list worked out "
        f"again {again} times; a position's convoy answers built {built} times"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    legal_orders(Board.initial(GM), "FRANCE")  # the per-map tables, outside the timing
    print(f"legal_orders for all seven powers, median of {args.runs} runs")
    row("start", Board.initial(GM), args.runs)
    row("mid-game", Board.from_json({"phase": "F1905M", "units": MID_GAME, "centers": {}}), args.runs)
    rng = random.Random(args.seed)
    medians = []
    news = []
    sizes = []
    for _ in range(args.positions):
        board = Board.from_json({"phase": "F1901M", "units": dense_position(rng), "centers": {}})
        sizes.append(every_power(board))
        medians.append(statistics.median(timed(board, max(5, args.runs // 10), cold=True)) * 1e3)
        news.append(
            statistics.median(timed(board, max(5, args.runs // 10), cold=False, new_board=True)) * 1e3
        )
    print(
        f"  {'dense (rnd)':<12}  34 units {statistics.median(sizes):5.0f} orders   all powers: cold "
        f"{statistics.median(medians):6.2f} ms  new board {statistics.median(news):6.2f} ms (median of "
        f"{args.positions} positions; slowest {max(medians):.2f} ms cold, {max(sizes)} orders at most)"
    )
    row("retreats", Board.from_json(RETREATS), args.runs)
    row("adjustments", Board.from_json(ADJUSTMENTS), args.runs)
    busy_bot(rng)


if __name__ == "__main__":
    main()
