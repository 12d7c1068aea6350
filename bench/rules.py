"""How fast the community rules run. Prints timings; asserts nothing.

  .venv/bin/python bench/rules.py [--games N] [--rounds N]

deadline     gm.rules.deadlines.phase_deadline for a movement phase, every 1 and every 14 days,
             weekends excluded, Europe/Berlin (run at every phase opening)
leaderboard  gm.rules.leaderboard.leaderboard over N finished seven-player games among 300 users
             (/stats on a large server, recomputed from its records each time)
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gm.rules.deadlines import DeadlineSchedule, Lengths, phase_deadline
from gm.rules.leaderboard import GameRecord, PlayerRecord, leaderboard
from gm.rules.scoring import FinalResult

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def bench_deadlines(rounds: int) -> None:
    lengths = Lengths()
    rng = random.Random(1)
    start = datetime(2024, 1, 1, tzinfo=UTC)
    openings = [start + timedelta(minutes=rng.randrange(0, 3 * 365 * 24 * 60)) for _ in range(rounds)]
    for every in (1, 14):
        schedule = DeadlineSchedule(at="21:00", zone="Europe/Berlin", every_days=every, skip_weekdays=(5, 6))
        began = time.perf_counter()
        for opens in openings:
            phase_deadline("M", opens, lengths, schedule)
        took = time.perf_counter() - began
        print(f"deadline every {every:>2} days: {took / rounds * 1e6:7.1f} µs per phase")


def random_game(rng: random.Random, game_id: int, users: int) -> GameRecord:
    counts = [rng.randrange(0, 13) for _ in POWERS]
    centers = dict(zip(POWERS, counts, strict=True))
    survivors = frozenset(p for p, n in centers.items() if n)
    if rng.random() < 0.3:
        winner = rng.choice(POWERS)
        centers[winner] = 18
        result = FinalResult("solo", centers, survivors | {winner}, winner=winner)
    else:
        result = FinalResult("draw", centers, survivors, shared=tuple(sorted(survivors)))
    seated = rng.sample(range(1, users + 1), len(POWERS))
    players = tuple(
        PlayerRecord(user, (power,), ordered=rng.randrange(10, 40), missed=rng.randrange(0, 3))
        for user, power in zip(seated, POWERS, strict=True)
    )
    return GameRecord(game_id, result, players)


def bench_leaderboard(games: int, rounds: int) -> None:
    rng = random.Random(2)
    records = [random_game(rng, i, 300) for i in range(games)]
    times = []
    for _ in range(rounds):
        began = time.perf_counter()
        rows = leaderboard(records, min_games=3)
        times.append(time.perf_counter() - began)
    median_ms = statistics.median(times) * 1e3
    print(f"leaderboard of {games} games, {len(rows)} ranked users: median {median_ms:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    bench_deadlines(2000)
    bench_leaderboard(args.games, args.rounds)


if __name__ == "__main__":
    main()
