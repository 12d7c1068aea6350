"""How well the hard level predicts the other powers' orders (its replies, engine.player.lookahead),
and how well variants of that prediction would.

    nice -n 10 .venv/bin/python bench/player_replies.py [--games 7] [--seed 0] [--last-year 1915]
        [--opponents baseline|hard]

Plays Standard games, one hard player against six baselines (bench/dumbbot.py; ``--opponents
hard``: seven hard players, self-play), the hard seat rotated over the powers as
bench/player_strength.py rotates it. In every movement phase each other power's orders are
predicted by each model below, from the board at the start of the phase, as the hard level predicts
them (the normal player's plan, drawn with the reply's noise and seed; a big leader, which the level
predicts with its own plan, engine.player.coalition, is counted here as the others are), and compared
with the orders it gave:

- *the level*: as the hard level predicts today (lookahead.REPLY_CONTEST, movement.LONE);
- *no contest*: without the normal player's discount of a move into a contested empty province;
- *no lone*: a lone move into another power's unit keeps all the worth of its place
  (movement.LONE 1.0 while predicting);
- *neither*: both.

Prints, for each model: the share of the orders predicted exactly; and for the moves that matter to
the seat under test (into the provinces of its units; into the provinces its own moves enter; into
its empty centres) how many of those made were predicted (recall) and how many of those predicted
were made (precision). Self-play counts every power as the seat under test. Asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.player_sim import Observer, Player, built_in, play, share
from bench.player_strength import POWERS, baseline
from engine import Board, initial_board
from engine.adjudication import Adjudication
from engine.legal import legal_orders
from engine.mapdata import province_of
from engine.orders import Move, Order, format_order
from engine.player import lookahead, movement
from engine.player.memory import Streaks

MODELS = {  # name -> (contest, lone)
    "the level": (lookahead.REPLY_CONTEST, movement.LONE),
    "no contest": (False, movement.LONE),
    "no lone": (lookahead.REPLY_CONTEST, 1.0),
    "neither": (False, 1.0),
}
KINDS = ("into our units", "into our moves' targets", "into our empty centres")


def predict(board: Board, other: str, seed: int, contest: bool, lone: float) -> list[Order]:
    """``other``'s orders as the hard level predicts them (engine.player.lookahead's replies)."""
    noise = lookahead.REPLY_NOISE[0]
    rng = lookahead.reply_rng(board, other, noise, seed)
    kept, movement.LONE = movement.LONE, lone
    try:
        plan = movement.movement_orders(
            board, other, legal_orders(board, other), rng, noise=noise, contest=contest
        )
    finally:
        movement.LONE = kept
    return [o.order for o in plan]


def entered(orders: list[Order], provinces: set[str]) -> set[tuple[str, str]]:
    """The moves of ``orders`` into ``provinces``: (the unit's province, the target)."""
    return {
        (o.unit.province, province_of(o.dest))
        for o in orders
        if isinstance(o, Move) and province_of(o.dest) in provinces
    }


class Tally:
    def __init__(self) -> None:
        self.exact = Counter[str]()
        self.orders = 0
        self.hit = Counter[tuple[str, str]]()
        self.made = Counter[tuple[str, str]]()
        self.predicted = Counter[tuple[str, str]]()

    def phase(self, board: Board, orders: Mapping[str, list[Order]], seats: list[str], seed: int) -> None:
        for other, actual in orders.items():
            if seats == [other]:
                continue  # against the baselines: the hard seat's own orders are not predicted
            self.orders += len(actual)
            given = {format_order(o) for o in actual}
            for name, (contest, lone) in MODELS.items():
                guess = predict(board, other, seed, contest, lone)
                self.exact[name] += len(given & {format_order(o) for o in guess})
                for seat in seats:
                    if seat == other:
                        continue
                    for kind, provinces in zip(
                        KINDS, _targets(board, orders.get(seat, []), seat), strict=True
                    ):
                        made, said = entered(actual, provinces), entered(guess, provinces)
                        self.hit[(name, kind)] += len(made & said)
                        self.made[(name, kind)] += len(made)
                        self.predicted[(name, kind)] += len(said)

    def observer(self, seats: list[str], seed: int) -> Observer:
        """What :func:`bench.player_sim.play` calls after each phase of the game of ``seed``."""

        def observe(
            board: Board, orders: dict[str, list[Order]], result: Adjudication, streaks: Streaks
        ) -> None:
            if board.phase.kind == "M":
                self.phase(board, orders, seats, seed)

        return observe

    def report(self) -> None:
        for name in MODELS:
            print(f"   {name}: orders predicted {share(self.exact[name], self.orders)}")
            for kind in KINDS:
                key = (name, kind)
                print(
                    f"      moves {kind}: made {self.made[key]}, predicted {self.predicted[key]}; "
                    f"recall {share(self.hit[key], self.made[key])}; "
                    f"precision {share(self.hit[key], self.predicted[key])}"
                )


def _targets(board: Board, mine: list[Order], seat: str) -> tuple[set[str], set[str], set[str]]:
    units = {u.province for u in board.units.get(seat, ())}
    moves = {province_of(o.dest) for o in mine if isinstance(o, Move)}
    empty = {c for c in board.centers.get(seat, ()) if c not in board.occupant}
    return units, moves, empty


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=7)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--last-year", type=int, default=1915)
    parser.add_argument("--opponents", choices=("baseline", "hard"), default="baseline")
    args = parser.parse_args()
    tally = Tally()
    for i in range(args.games):
        seed = args.seed + i
        seat = POWERS[i % 7]
        others: Callable[[int], Player] = baseline if args.opponents == "baseline" else built_in_hard
        players = {p: others(seed) for p in POWERS}
        players[seat] = built_in(seed, "hard")
        seats = [seat] if args.opponents == "baseline" else list(POWERS)
        play(initial_board("standard"), players, args.last_year, observe=tally.observer(seats, seed))
    opponents = "six baselines" if args.opponents == "baseline" else "self-play (seven hard)"
    print(f"{args.games} games, Standard, 1901-{args.last_year}, one hard seat rotated, {opponents}")
    tally.report()


def built_in_hard(seed: int) -> Player:
    return built_in(seed, "hard")


if __name__ == "__main__":
    main()
