"""Simulated games for the built-in player's benches (bench/player_sanity.py, bench/player_strength.py):
players by level, the bounce memory a game keeps for them, and a game loop that hands each phase to
an observer. No Discord, no database: the engine alone.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Board, adjudicate
from engine.adjudication import Adjudication
from engine.legal import LegalOrder
from engine.orders import Order, format_order
from engine.player import choose_orders
from engine.player.memory import Streaks, empty_bounces, next_streaks

# A player: (board, power, its bounce streaks) -> its orders
Player = Callable[[Board, str, Mapping[str, int]], Sequence[LegalOrder]]
# An observer: (board before, orders by power, the adjudication, streaks before) -> None
Observer = Callable[[Board, dict[str, list[Order]], Adjudication, Streaks], None]


def built_in(seed: int, level: str, holding: Sequence[str] = ()) -> Player:
    def play(board: Board, power: str, bounced: Mapping[str, int]) -> Sequence[LegalOrder]:
        return choose_orders(board, power, seed, frozenset(holding), level=level, bounced=bounced)

    return play


@dataclass
class Game:
    board: Board
    winner: str | None = None
    errors: list[str] = field(default_factory=list)
    centres_by_year: dict[int, dict[str, int]] = field(default_factory=dict)  # after each fall
    timings: list[float] = field(default_factory=list)  # seconds of CPU per call with something to order
    phases: int = 0


def play(
    board: Board,
    players: Mapping[str, Player | None],
    last_year: int,
    *,
    observe: Observer | None = None,
    timed: frozenset[str] = frozenset(),
) -> Game:
    """Play from ``board`` to a solo or the end of ``last_year``; a power whose player is None holds
    (civil disorder)."""
    game = Game(board)
    holding = [p for p, player in players.items() if player is None]
    streaks: Streaks = {}
    while board.phase.year <= last_year:
        orders: dict[str, list[Order]] = {}
        for power, player in players.items():
            if player is None or (not board.units.get(power) and board.phase.kind != "A"):
                continue
            started = time.thread_time()  # CPU time: the machine is shared, wall times say little
            chosen = player(board, power, streaks.get(power, {}))
            spent = time.thread_time() - started
            if power in timed and chosen:
                game.timings.append(spent)
            orders[power] = [o.order for o in chosen]
        result = adjudicate(board, orders, civil_disorder=holding)
        game.phases += 1
        if observe is not None:
            observe(board, orders, result, streaks)
        if board.phase.kind == "M":
            lines = [(r.power, format_order(r.order) if r.order else None, r.status) for r in result.results]
            streaks = next_streaks(streaks, empty_bounces(board, lines, result.board.occupant))
        if board.phase.season == "F" or (
            result.next_phase is not None and result.next_phase.year > board.phase.year
        ):
            game.centres_by_year[board.phase.year] = result.board.center_counts()
        board = game.board = result.board
        if result.next_phase is None:
            game.winner = result.winner
            break
    return game


def spread(values: Sequence[float]) -> str:
    """Mean, standard deviation and range."""
    if not values:
        return "no data"
    sd = statistics.pstdev(values) if len(values) > 1 else 0.0
    return (
        f"mean {statistics.fmean(values):.2f} (sd {sd:.2f}, "
        f"range {min(values):g}-{max(values):g}, n {len(values)})"
    )


def wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def share(k: int, n: int) -> str:
    low, high = wilson(k, n)
    pct = 100 * k / n if n else 0.0
    return f"{k}/{n} = {pct:.1f}% (95% interval {100 * low:.1f}-{100 * high:.1f}%)"


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rng_for(*parts: object) -> random.Random:
    return random.Random(":".join(map(str, parts)))
