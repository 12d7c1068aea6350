"""How strong and how fast the built-in player is, in games simulated on our own engine (no Discord).

    nice .venv/bin/python bench/player.py [--games 100] [--seed 0] [--timing-years 10] [--level normal]

Every game is on the Standard map; game ``i`` gives the seat under test to the ``i % 7``-th power,
so the seven starting powers take turns. Prints each figure with its spread; asserts nothing.

1. *Against civil disorder*: one built-in player against six powers in civil disorder (their units
   hold, they build nothing; the player is told so, as players are told in a game). The share of
   games in which it owns 18 centres at the end of a year no later than 1920, with a 95% interval
   (Wilson), and the year it gets there (median and range).
2. *Against random players*: one built-in player against six random legal players (each unit one
   of its legal orders at random; random builds and removals). The share of games it wins (a solo
   by the engine's rule) in a year no later than 1925, with its 95% interval.
3. *Self-play*: seven built-in players, each game to a solo or to the end of 1930. Counts invalid
   orders (the adjudicator's verdict), orders missing from ``engine.legal_orders``, and errors.
4. *A seat handed over in 1903*: in each self-play game, the seat's power either stays with the
   built-in player from Spring 1903 (the self-play game itself) or falls into civil disorder then
   (the same game replayed from Spring 1903 with that power holding, the other six told so). Its
   centres at the end of 1906 in both, their means with standard deviations, and the ratio of the
   means with a 95% bootstrap interval; and the same with the six not told of the civil disorder
   (a game tells its players; this shows what the telling is worth).
5. *Timing*: milliseconds per call of ``choose_orders`` for one power in one phase (its legal
   orders included, as a new board has none listed), over the self-play games and over
   ``--timing-years`` years of self-play on every variant (Chaos's 34 powers included): median and
   p95 per variant. Only calls for a power with something to order count.
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import statistics
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Board, adjudicate, all_variants, initial_board
from engine.legal import LegalOrder, legal_orders
from engine.orders import Order
from engine.player import choose_orders, random_orders

POWERS = initial_board("standard").game_map.powers

# A player: (board, power) -> its orders
Player = Callable[[Board, str], Sequence[LegalOrder]]


@dataclass
class Game:
    """What one simulated game left behind."""

    board: Board
    winner: str | None = None
    invalid: int = 0  # orders the adjudicator judged invalid
    unlisted: int = 0  # orders not in legal_orders
    errors: list[str] = field(default_factory=list)
    centres_by_year: dict[int, dict[str, int]] = field(default_factory=dict)  # after each year's fall
    snapshot: Board | None = None  # the board at Spring 1903 (self-play)
    timings: list[float] = field(default_factory=list)  # seconds per choose_orders call with orders


def play(
    board: Board,
    players: dict[str, Player | None],
    last_year: int,
    *,
    stop: Callable[[Board], bool] = lambda b: False,
    timed: frozenset[str] = frozenset(),
) -> Game:
    """Play from ``board`` until a solo, ``stop``, or the end of ``last_year``. A power whose player is
    None is in civil disorder."""
    game = Game(board)
    holding = [p for p, player in players.items() if player is None]
    while board.phase.year <= last_year:
        if str(board.phase) == "S1903M":
            game.snapshot = board
        orders: dict[str, list[Order]] = {}
        for power, player in players.items():
            if player is None:
                continue
            started = time.perf_counter()
            try:
                chosen = player(board, power)
            except Exception:
                game.errors.append(f"{board.phase} {power}: {traceback.format_exc(limit=3)}")
                continue
            spent = time.perf_counter() - started
            legal = legal_orders(board, power)  # (listed by the player already: remembered)
            if power in timed and legal.entries:
                game.timings.append(spent)
            game.unlisted += sum(legal.find(o.text) is None for o in chosen)
            orders[power] = [o.order for o in chosen]
        try:
            result = adjudicate(board, orders, civil_disorder=holding)
        except Exception:
            game.errors.append(f"{board.phase}: {traceback.format_exc(limit=3)}")
            break
        game.invalid += sum(r.status == "invalid" for r in result.results)
        if board.phase.season == "F" or (
            result.next_phase is not None and result.next_phase.year > board.phase.year
        ):
            game.centres_by_year[board.phase.year] = result.board.center_counts()
        board = game.board = result.board
        if result.next_phase is None:
            game.winner = result.winner
            break
        if stop(board):
            break
    return game


LEVEL = "normal"  # the level played (--level)


def built_in(seed: int, holding: Sequence[str] = ()) -> Player:
    return lambda board, power: choose_orders(board, power, seed, frozenset(holding), level=LEVEL)


def random_player(seed: int) -> Player:
    rngs: dict[str, random.Random] = {}

    def orders(board: Board, power: str) -> Sequence[LegalOrder]:
        rng = rngs.setdefault(power, random.Random(f"random:{seed}:{power}"))
        return random_orders(board, power, rng)

    return orders


# --- figures ---------------------------------------------------------------------------------------------


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a share k/n."""
    if n == 0:
        return (0.0, 1.0)
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def share(k: int, n: int) -> str:
    low, high = wilson(k, n)
    return f"{k}/{n} = {100 * k / n:.0f}% (95% interval {100 * low:.0f}-{100 * high:.0f}%)"


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bootstrap_ratio(a: Sequence[int], b: Sequence[int], rounds: int = 2000) -> tuple[float, float]:
    rng = random.Random(1)
    n = len(a)
    ratios = []
    for _ in range(rounds):
        pick = [rng.randrange(n) for _ in range(n)]
        mean_b = statistics.fmean(b[i] for i in pick)
        ratios.append(statistics.fmean(a[i] for i in pick) / mean_b if mean_b else math.inf)
    return percentile(ratios, 0.025), percentile(ratios, 0.975)


def per_power(rows: Sequence[tuple[str, bool]]) -> str:
    return ", ".join(
        f"{p[:3].title()} {sum(ok for q, ok in rows if q == p)}/{sum(q == p for q, _ in rows)}"
        for p in POWERS
    )


# --- the four trials ---------------------------------------------------------------------------------------


def against_disorder(games: int, seed: int) -> None:
    rows: list[tuple[str, bool]] = []
    years = []
    for i in range(games):
        me = POWERS[i % 7]
        others = [p for p in POWERS if p != me]
        players: dict[str, Player | None] = {p: None for p in others}
        players[me] = built_in(seed + i, others)

        def solo(b: Board, me: str = me) -> bool:
            return len(b.centers.get(me, ())) >= 18

        game = play(initial_board("standard"), players, 1920, stop=solo)
        reached = [y for y, counts in sorted(game.centres_by_year.items()) if counts.get(me, 0) >= 18]
        ok = bool(reached) and reached[0] <= 1920
        rows.append((me, ok))
        if ok:
            years.append(reached[0])
    print("1. One built-in player against six powers in civil disorder: 18 centres by 1920")
    print(f"   {share(sum(ok for _, ok in rows), games)}; by power: {per_power(rows)}")
    if years:
        print(f"   year reached: median {statistics.median(years):.0f}, range {min(years)}-{max(years)}")


def against_random(games: int, seed: int) -> None:
    rows: list[tuple[str, bool]] = []
    years = []
    for i in range(games):
        me = POWERS[i % 7]
        randoms = random_player(seed + i)
        players: dict[str, Player | None] = {p: randoms for p in POWERS}
        players[me] = built_in(seed + i)
        game = play(initial_board("standard"), players, 1925)
        ok = game.winner == me
        rows.append((me, ok))
        if ok:
            years.append(max(game.centres_by_year))
    print("2. One built-in player against six random legal players: a solo by 1925")
    print(f"   {share(sum(ok for _, ok in rows), games)}; by power: {per_power(rows)}")
    if years:
        print(f"   year of the solo: median {statistics.median(years):.0f}, range {min(years)}-{max(years)}")


def self_play(games: int, seed: int) -> list[float]:
    solos = 0
    invalid = unlisted = 0
    errors: list[str] = []
    kept: list[int] = []
    held: list[int] = []
    held_untold: list[int] = []  # the same, the other six not told that the seat is in civil disorder
    timings: list[float] = []
    for i in range(games):
        seat = POWERS[i % 7]
        bots = built_in(seed + i)
        game = play(initial_board("standard"), dict.fromkeys(POWERS, bots), 1930, timed=frozenset(POWERS))
        solos += game.winner is not None
        invalid += game.invalid
        unlisted += game.unlisted
        errors += game.errors
        timings += game.timings
        if game.snapshot is None:
            continue
        kept.append(_centres_1906(game, seat))
        players: dict[str, Player | None] = {p: built_in(seed + i, [seat]) for p in POWERS if p != seat}
        players[seat] = None
        handed = play(game.snapshot, players, 1906)
        invalid += handed.invalid
        errors += handed.errors
        held.append(_centres_1906(handed, seat))
        players = {p: built_in(seed + i) for p in POWERS if p != seat}
        players[seat] = None
        untold = play(game.snapshot, players, 1906)
        held_untold.append(_centres_1906(untold, seat))
    print("3. Seven built-in players, each game to a solo or 1930")
    print(
        f"   {games} games: {solos} solos, {games - solos} to 1930; invalid orders: {invalid}, "
        f"orders not in legal_orders: {unlisted}, errors: {len(errors)}"
    )
    for error in errors[:3]:
        print("   ", error)
    print("4. A seat handed over in Spring 1903: its centres at the end of 1906")
    if kept:
        ratio = statistics.fmean(kept) / max(statistics.fmean(held), 1e-9)
        low, high = bootstrap_ratio(kept, held)
        print(
            f"   built-in player: mean {statistics.fmean(kept):.2f} (sd {statistics.pstdev(kept):.2f}); "
            f"civil disorder: mean {statistics.fmean(held):.2f} (sd {statistics.pstdev(held):.2f}); "
            f"ratio {ratio:.2f} (95% interval {low:.2f}-{high:.2f}), over {len(kept)} games"
        )
        low, high = bootstrap_ratio(kept, held_untold)
        print(
            f"   (the other six not told of the civil disorder: mean {statistics.fmean(held_untold):.2f}, "
            f"ratio {statistics.fmean(kept) / max(statistics.fmean(held_untold), 1e-9):.2f}, "
            f"95% interval {low:.2f}-{high:.2f})"
        )
    return timings


def _centres_1906(game: Game, power: str) -> int:
    counts = game.centres_by_year.get(1906)
    if counts is None:  # the game ended before (a solo): its last count
        counts = game.board.center_counts()
    return counts.get(power, 0)


def timing(years: int, seed: int, standard: list[float]) -> None:
    print("5. Milliseconds per power and phase (choose_orders, its legal orders included)")
    rows = [("standard (self-play games above)", standard)]
    for variant in sorted(all_variants(), key=lambda v: v.name):
        if not variant.playable():
            continue
        board = initial_board(variant.name)
        powers = board.game_map.powers
        game = play(
            board,
            dict.fromkeys(powers, built_in(seed)),
            board.phase.year + years - 1,
            timed=frozenset(powers),
        )
        extra = f", {game.invalid} invalid, {game.unlisted} unlisted, {len(game.errors)} errors"
        rows.append((f"{variant.name} ({len(powers)} powers, {years} years{extra})", game.timings))
    for name, values in rows:
        if values:
            ms = [1000 * v for v in values]
            print(
                f"   {name}: median {statistics.median(ms):.2f}, p95 {percentile(ms, 0.95):.2f}, "
                f"max {max(ms):.1f} over {len(ms)} calls"
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100, help="games per trial (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed (game i: seed + i)")
    parser.add_argument("--timing-years", type=int, default=10, help="years of self-play per variant timed")
    parser.add_argument("--level", default="normal", help="the built-in player's level (easy, normal, hard)")
    args = parser.parse_args()
    global LEVEL
    LEVEL = args.level
    print(f"Python {platform.python_version()} on {platform.machine()}, {args.games} games per trial")
    started = time.perf_counter()
    against_disorder(args.games, args.seed)
    against_random(args.games, args.seed)
    standard = self_play(args.games, args.seed)
    timing(args.timing_years, args.seed, standard)
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
