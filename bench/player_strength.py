"""How strong the built-in player is against opponents written for the bench: a DumbBot-like baseline
(bench/dumbbot.py) and the first built-in player (the easy level).

    nice -n 10 .venv/bin/python bench/player_strength.py [--games 70] [--level hard] [--seed 0]
        [--powers RUSSIA,GERMANY] [--per-game]

Standard games from 1901 to a solo or the end of 1920; game ``i`` gives the seat under test to the
``i % 7``-th power (seats rotated) and seeds every player with ``seed + i``. Trials:

1. one player of ``--level`` against six baselines: its centres in 1920 (a solo counts its centres
   then), and its solos by 1920;
2. one baseline against six players of ``--level``: the baseline's centres in 1920;
3. one player of ``--level`` against six easy players, and (for reference) one easy player among
   seven: centres in 1920 and solos.

``--powers`` plays only the games whose seat under test is one of those powers (the same games, the
same seeds, as the full run plays for them), for a change that acts for some powers only.
``--per-game`` prints one line a game (seed, power, centres after 1901 and in 1920, solo), for a
paired comparison of two runs.

Prints each figure with its spread, by power too (centres in 1920, after 1901, solos), and the CPU
time of the seat under test per call; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.dumbbot import dumbbot_orders
from bench.player_sim import Game, Player, built_in, percentile, play, rng_for, share, spread
from engine import Board, initial_board
from engine.legal import LegalOrder

POWERS = initial_board("standard").game_map.powers
LAST_YEAR = 1920


def baseline(seed: int) -> Player:
    def orders(board: Board, power: str, bounced: Mapping[str, int]) -> Sequence[LegalOrder]:
        return dumbbot_orders(board, power, rng_for("dumbbot", seed, board.phase, power))

    return orders


def _centres_in(game: Game, power: str) -> int:
    counts = game.centres_by_year.get(LAST_YEAR) or game.board.center_counts()
    return counts.get(power, 0)


def trial(
    title: str,
    games: int,
    seed: int,
    me_player: Callable[[int], Player],
    others_player: Callable[[int], Player],
    powers: Collection[str] = POWERS,
    per_game: bool = False,
) -> None:
    centres: list[int] = []
    solos = 0
    by_power: dict[str, list[int]] = {p: [] for p in POWERS}
    first_year: dict[str, list[int]] = {p: [] for p in POWERS}
    solos_by: dict[str, int] = {p: 0 for p in POWERS}
    ms: list[float] = []
    started = time.perf_counter()
    for i in range(games):
        me = POWERS[i % 7]
        if me not in powers:
            continue
        players: dict[str, Player | None] = {p: others_player(seed + i) for p in POWERS}
        players[me] = me_player(seed + i)
        game = play(initial_board("standard"), players, LAST_YEAR, timed=frozenset([me]))
        ms += [1000 * t for t in game.timings]
        n = _centres_in(game, me)
        centres.append(n)
        by_power[me].append(n)
        early = game.centres_by_year.get(1901, {}).get(me, 0)
        first_year[me].append(early)
        solos += game.winner == me
        solos_by[me] += game.winner == me
        if per_game:
            print(
                f"   game seed {seed + i} {me}: 1901 {early}, {LAST_YEAR} {n}, solo {int(game.winner == me)}",
                flush=True,
            )
    print(title)
    print(f"   centres in {LAST_YEAR}: {spread(centres)}; solos by {LAST_YEAR}: {share(solos, len(centres))}")
    print(
        "   by power (mean centres): "
        + ", ".join(f"{p[:3].title()} {statistics.fmean(v):.1f}" for p, v in by_power.items() if v)
        + f" ({time.perf_counter() - started:.0f} s)"
    )
    print(
        "   by power (mean centres after 1901; solos/games): "
        + ", ".join(
            f"{p[:3].title()} {statistics.fmean(first_year[p]):.1f}; {solos_by[p]}/{len(v)}"
            for p, v in by_power.items()
            if v
        )
    )
    print(
        f"   ms of CPU per call of the seat under test: median {statistics.median(ms):.1f}, "
        f"p95 {percentile(ms, 0.95):.1f} over {len(ms)} calls"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=70)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--trials", default="123", help="which trials to run (default: all, 123)")
    parser.add_argument("--powers", default="", help="only the games of these seats (comma list)")
    parser.add_argument("--per-game", action="store_true", help="one line a game")
    args = parser.parse_args()
    level = args.level
    powers = [p.strip().upper() for p in args.powers.split(",") if p.strip()] or list(POWERS)
    unknown = sorted(set(powers) - set(POWERS))
    if unknown:
        parser.error(f"no such power: {', '.join(unknown)}")
    print(f"{args.games} games per trial, Standard, 1901-{LAST_YEAR}, seats rotated, seeds {args.seed}-")
    if "1" in args.trials:
        trial(
            f"1. one {level} player against six baselines (DumbBot-like)",
            args.games,
            args.seed,
            lambda s: built_in(s, level),
            baseline,
            powers,
            args.per_game,
        )
    if "2" in args.trials:
        trial(
            f"2. one baseline against six {level} players",
            args.games,
            args.seed,
            baseline,
            lambda s: built_in(s, level),
            powers,
            args.per_game,
        )
    if "3" in args.trials:
        trial(
            f"3. one {level} player against six easy players (the first built-in player)",
            args.games,
            args.seed,
            lambda s: built_in(s, level),
            lambda s: built_in(s, "easy"),
            powers,
            args.per_game,
        )
    if "4" in args.trials:
        trial(
            "4. (reference) one easy player against six easy players",
            args.games,
            args.seed,
            lambda s: built_in(s, "easy"),
            lambda s: built_in(s, "easy"),
        )
        trial(
            "5. (reference) one easy player against six baselines",
            args.games,
            args.seed,
            lambda s: built_in(s, "easy"),
            baseline,
        )


if __name__ == "__main__":
    main()
