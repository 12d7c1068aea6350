"""Does the built-in player play like a sensible player? Figures over self-play games.

    nice -n 10 .venv/bin/python bench/player_sanity.py [--games 100] [--level normal] [--seed 0]
        [--per-game]

Seven built-in players of one level (game ``i`` seeded ``seed + i``) play Standard games from 1901 to
a solo or the end of 1930, then 34 of them play Chaos for 10 years. Prints, each with its spread:

1. circles: moves of one power's units each into the next one's province, all of one type, that
   leave the position as it was (goal 0);
2. repeated bounces: a move made again after it bounced twice in a row into a province that
   stayed empty (goal 0);
3. lone convoyed attacks (an army by convoy, unsupported, into another power's unit) beside lone
   attacks by land, and how often each bounced;
4. builds lost: builds due that a power could not make because its own units stood on its home
   centres, over all builds due (goal <= 3%); printed beside: how many of them stood on a home centre
   they had just retaken that fall (no player could build there: taking it back leaves the unit on
   it), and the share of the others, the units left standing on their home centres;
5. empty homes lost: home centres lost in a fall that were empty at its start while a unit of
   theirs could have moved in, over all home centres lost in a fall (goal <= 10%);
6. wins: solos by power (goal: none above 25% of the games), eliminations by power;
7. Chaos: centres that changed hands in 10 years, per game over --chaos-games games (goal >= 20);
8. milliseconds per call of choose_orders for one power in one phase, and for all seven at one close
   (CPU time: the machine is shared, its wall times say little).

``--per-game`` prints one line a game as it ends (seed, winner, last phase, centres by power, builds lost,
empty homes lost), for a paired comparison of two runs on the same seeds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.player_sim import Game, Player, built_in, percentile, play, share, spread
from engine import Board, initial_board
from engine.adjudication import Adjudication
from engine.legal import LegalOrder
from engine.orders import Move, Order, SupportMove
from engine.player.geography import geography
from engine.player.memory import Streaks

POWERS = initial_board("standard").game_map.powers


class Sanity:
    def __init__(self) -> None:
        self.circles = 0  # circles leaving the position unchanged
        self.all_circles = 0
        self.repeats = 0  # moves repeated after two bounces into an empty province
        self.repeat_chances = 0  # moves that had bounced so (could have been repeated)
        self.lone_via = self.lone_via_bounced = 0
        self.lone_land = self.lone_land_bounced = 0
        self.vias = self.vias_bounced = 0
        self.builds_due = self.builds_lost = 0
        self.builds_lost_retaken = 0  # of them, to units standing on a home centre they retook that fall
        self.fall_owned: dict[str, frozenset[str]] = {}  # power -> its centres at the start of the fall
        self.homes_lost = self.homes_lost_empty = 0
        self.by_power = Counter[str]()  # "builds due/lost", "homes lost/empty" by power
        self.fall_start: Board | None = None
        self.per_game: list[Counter[str]] = []
        self.game = Counter[str]()

    def end_game(self) -> None:
        self.per_game.append(self.game)
        self.game = Counter()

    def observe(
        self, board: Board, orders: dict[str, list[Order]], result: Adjudication, streaks: Streaks
    ) -> None:
        kind = board.phase.kind
        if kind == "M":
            self._movement(board, orders, result, streaks)
            if board.phase.season == "F":
                self.fall_start = board
                self.fall_owned = dict(board.centers)
        if kind == "A":
            self._builds(board)
        nxt = result.next_phase
        if self.fall_start is not None and (nxt is None or nxt.kind == "A" or nxt.season == "S"):
            self._homes(self.fall_start, result.board)
            self.fall_start = None

    def _movement(
        self, board: Board, orders: dict[str, list[Order]], result: Adjudication, streaks: Streaks
    ) -> None:
        status = {(r.power, r.order): r.status for r in result.results if r.order is not None}
        supported = {
            (o.supported.province, o.dest.split("/")[0])
            for os in orders.values()
            for o in os
            if isinstance(o, SupportMove)
        }
        for power, os in orders.items():
            moves = {o.unit.province: o for o in os if isinstance(o, Move)}
            # circles
            seen: set[str] = set()
            for start in sorted(moves):
                path: list[str] = []
                prov: str | None = start
                while prov is not None and prov not in seen and prov not in path:
                    path.append(prov)
                    prov = moves[prov].dest.split("/")[0] if prov in moves else None
                    if prov is not None and prov not in moves:
                        prov = None
                if prov is not None and prov in path:
                    ring = path[path.index(prov) :]
                    self.all_circles += 1
                    self.game["circles (any)"] += 1
                    after = result.board.occupant
                    same = all(
                        after.get(p) is not None and after[p] == board.occupant.get(p) for p in ring
                    ) or (
                        all(after.get(p) is not None and after[p][0] == power for p in ring)
                        and len({board.occupant[p][1].type for p in ring}) == 1
                    )
                    if same:
                        self.circles += 1
                        self.game["circles"] += 1
                seen.update(path)
            mine = streaks.get(power, {})
            self.repeat_chances += sum(n >= 2 for n in mine.values())
            for move in moves.values():
                from engine.orders import format_order

                text = format_order(move)
                if mine.get(text, 0) >= 2:
                    self.repeats += 1
                    self.game["repeats"] += 1
                dest = move.dest.split("/")[0]
                standing = board.occupant.get(dest)
                bounced = status.get((power, move)) != "succeeded"
                if move.via_convoy or (
                    move.unit.type == "A"
                    and dest not in geography(board.game_map).army_graph.get(move.unit.province, ())
                ):
                    self.vias += 1
                    self.vias_bounced += bounced
                lone = (
                    standing is not None
                    and standing[0] != power
                    and (move.unit.province, dest) not in supported
                )
                if not lone:
                    continue
                if move.via_convoy:
                    self.lone_via += 1
                    self.lone_via_bounced += bounced
                    self.game["lone convoyed attacks"] += 1
                else:
                    self.lone_land += 1
                    self.lone_land_bounced += bounced

    def _builds(self, board: Board) -> None:
        for power in board.game_map.powers:
            due = len(board.centers.get(power, ())) - len(board.units.get(power, ()))
            if due <= 0:
                continue
            owned = board.centers.get(power, frozenset())
            homes = [h for h in board.game_map.home_centers.get(power, ()) if h in owned]
            free = sum(h not in board.occupant for h in homes)
            blocked = [h for h in homes if board.occupant.get(h, ("",))[0] == power]
            lost = min(due, free + len(blocked)) - min(due, free)
            retaken = sum(h not in self.fall_owned.get(power, ()) for h in blocked)
            left = min(due, free + len(blocked) - retaken) - min(due, free)
            self.builds_due += due
            self.builds_lost += lost
            self.builds_lost_retaken += lost - left
            self.game["builds lost on retaken homes"] += lost - left
            self.by_power[f"due {power}"] += due
            self.by_power[f"lost {power}"] += lost
            self.game["builds lost"] += lost

    def _homes(self, start: Board, after: Board) -> None:
        geo = geography(start.game_map)
        for power, homes in start.game_map.home_centers.items():
            owned_before = start.centers.get(power, frozenset())
            owned_after = after.centers.get(power, frozenset())
            reach = {p for u in start.units.get(power, ()) for p in geo.reach(u)}
            for home in homes:
                if home in owned_before and home not in owned_after:
                    self.homes_lost += 1
                    self.by_power[f"homes {power}"] += 1
                    if home not in start.occupant and home in reach:
                        self.homes_lost_empty += 1
                        self.by_power[f"empty {power}"] += 1
                        self.game["empty homes lost"] += 1


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--level", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--last-year", type=int, default=1930)
    parser.add_argument("--chaos-years", type=int, default=10)
    parser.add_argument("--chaos-games", type=int, default=6)
    parser.add_argument("--per-game", action="store_true", help="a line per game: its seed, winner, centres")
    args = parser.parse_args()
    started = time.perf_counter()
    stats = Sanity()
    solos: Counter[str] = Counter()
    eliminated: Counter[str] = Counter()
    timings: list[float] = []
    games: list[Game] = []
    close_ms: dict[str, float] = {}  # game and phase -> the seven powers' time in it (one close's extra work)
    for i in range(args.games):
        inner = built_in(args.seed + i, args.level)

        def bot(
            board: Board, power: str, bounced: Mapping[str, int], inner: Player = inner, i: int = i
        ) -> Sequence[LegalOrder]:
            started = time.thread_time()
            chosen = inner(board, power, bounced)
            key = f"{i}:{board.phase}"
            close_ms[key] = close_ms.get(key, 0.0) + 1000 * (time.thread_time() - started)
            return chosen

        game = play(
            initial_board("standard"),
            dict.fromkeys(POWERS, bot),
            args.last_year,
            observe=stats.observe,
            timed=frozenset(POWERS),
        )
        if args.per_game:
            counts = game.board.center_counts()
            print(
                f"game {args.seed + i}: winner {game.winner or '-'}, {game.board.phase}; "
                + ", ".join(f"{p[:3].title()} {counts.get(p, 0)}" for p in POWERS)
                + f"; builds lost {stats.game['builds lost']}, "
                f"empty homes lost {stats.game['empty homes lost']}, "
                f"builds lost on retaken homes {stats.game['builds lost on retaken homes']}",
                flush=True,
            )
        stats.end_game()
        games.append(game)
        timings += game.timings
        if game.winner:
            solos[game.winner] += 1
        for power in POWERS:
            if not game.board.centers.get(power):
                eliminated[power] += 1
    n = args.games
    print(
        f"Level {args.level}: {n} self-play games on Standard, "
        f"1901-{args.last_year} (seeds {args.seed}-{args.seed + n - 1})"
    )
    per = [g for g in stats.per_game]
    print(
        f"1. circles leaving the position unchanged: {stats.circles} "
        f"(all circles of one power's moves: {stats.all_circles}); "
        f"per game {spread([g['circles'] for g in per])}"
    )
    print(
        f"2. moves repeated after two bounces in a row into an empty province: {stats.repeats} "
        f"of {stats.repeat_chances} such moves; "
        f"per game {spread([g['repeats'] for g in per])}"
    )
    print(
        f"3. lone convoyed attacks: {stats.lone_via} ({stats.lone_via_bounced} bounced), "
        f"per game {spread([g['lone convoyed attacks'] for g in per])}; "
        f"lone attacks by land: {stats.lone_land} ({stats.lone_land_bounced} bounced); "
        f"armies convoyed: {stats.vias}, {stats.vias_bounced} bounced"
    )
    print(
        f"4. builds lost to own units on home centres: {share(stats.builds_lost, stats.builds_due)} "
        f"of the builds due ({stats.builds_lost_retaken} of them to units on a home centre they retook that "
        "fall, where no build could stand; to units left standing on their home centres: "
        f"{share(stats.builds_lost - stats.builds_lost_retaken, stats.builds_due)}); "
        f"per game {spread([g['builds lost'] for g in per])}"
    )
    print(
        "5. home centres lost in a fall, empty at its start with a unit in reach: "
        f"{share(stats.homes_lost_empty, stats.homes_lost)} of the home centres lost; "
        f"per game {spread([g['empty homes lost'] for g in per])}"
    )
    print(
        "   by power (builds lost/due; empty homes lost/homes lost): "
        + ", ".join(
            f"{p[:3].title()} {stats.by_power[f'lost {p}']}/{stats.by_power[f'due {p}']}; "
            f"{stats.by_power[f'empty {p}']}/{stats.by_power[f'homes {p}']}"
            for p in POWERS
        )
    )
    print(
        f"6. solos: {sum(solos.values())} of {n}; by power: "
        + ", ".join(f"{p[:3].title()} {share(solos[p], n)}" for p in POWERS)
    )
    print("   eliminated by 1930: " + ", ".join(f"{p[:3].title()} {eliminated[p]}" for p in POWERS))
    centres = [g.board.center_counts() for g in games]
    if centres:  # none with --games 0 (Chaos alone)
        print(
            "   centres at the end: "
            + ", ".join(
                f"{p[:3].title()} {statistics.fmean(c.get(p, 0) for c in centres):.1f}" for p in POWERS
            )
        )
    if args.chaos_years and args.chaos_games:
        chaos(args)
    ms = [1000 * t for t in timings]
    if not ms:  # no Standard game played (--games 0)
        print(f"({time.perf_counter() - started:.0f} s)")
        return
    print(
        f"8. ms of CPU per power and phase on Standard: median {statistics.median(ms):.1f}, "
        f"p95 {percentile(ms, 0.95):.1f}, max {max(ms):.0f} over {len(ms)} calls"
    )
    closes = list(close_ms.values())
    print(
        "   all seven powers' orders at one close (every seat built-in): "
        f"median {statistics.median(closes):.1f} ms, p95 {percentile(closes, 0.95):.1f} ms, "
        f"max {max(closes):.0f} ms over {len(closes)} closes"
    )
    print(f"({time.perf_counter() - started:.0f} s)")


def chaos(args: argparse.Namespace) -> None:
    board = initial_board("chaos")
    powers = board.game_map.powers
    changes: list[int] = []
    owners_before: dict[str, str] = {}
    captures = 0

    def observe(
        before: Board, orders: dict[str, list[Order]], result: Adjudication, streaks: Streaks
    ) -> None:
        nonlocal captures, owners_before
        owners = {c: p for p, cs in result.board.centers.items() for c in cs}
        if owners_before:
            captures += sum(1 for c, p in owners.items() if owners_before.get(c) not in (None, p))
        owners_before = owners

    ms: list[float] = []
    close_ms: dict[str, float] = {}  # phase -> all 34 powers' time in that phase (one close's extra work)
    for k in range(args.chaos_games):
        captures = 0
        owners_before = {}
        inner = built_in(args.seed + k, args.level)

        def bot(
            board: Board, power: str, bounced: Mapping[str, int], inner: Player = inner, k: int = k
        ) -> Sequence[LegalOrder]:
            started = time.thread_time()
            chosen = inner(board, power, bounced)
            key = f"{k}:{board.phase}"
            close_ms[key] = close_ms.get(key, 0.0) + 1000 * (time.thread_time() - started)
            return chosen

        game = play(
            board,
            dict.fromkeys(powers, bot),
            board.phase.year + args.chaos_years,
            observe=observe,
            timed=frozenset(powers),
        )
        changes.append(captures)
        ms += [1000 * t for t in game.timings]
    print(
        f"7. Chaos, 34 built-in players, {args.chaos_years} years: centres that changed hands "
        f"per game {spread(changes)}; "
        f"ms of CPU per call median {statistics.median(ms):.1f}, p95 {percentile(ms, 0.95):.1f}; "
        f"all 34 powers' orders at one close: median {statistics.median(close_ms.values()):.0f} ms, "
        f"max {max(close_ms.values()):.0f} ms over {len(close_ms)} closes"
    )


if __name__ == "__main__":
    main()
