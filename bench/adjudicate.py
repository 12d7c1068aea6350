"""How long one movement phase takes to adjudicate, on dense random positions.

Each position has 34 units (as many as there are supply centers), spread over land and sea so that
supports and convoys abound; every unit gets a legal-looking order: moves, supports of holds and
moves (mostly of units that really do that), convoys along real chains of fleets. The figure is the
full cost of ``engine.adjudicate_json`` (board and order parsing, validation, resolution, reasons,
the JSON result), the number the speed goal of the adjudicator issue is about.

What the engine keeps between calls: the map and its tables (loaded once), and the parse of every
order text it has read (``engine.parser``, by map, kind of phase and text; real games repeat their
texts). The headline is the *cold* figure: that memory is emptied (``forget_lines``) before every
call, as if every order text were new to the process. The warm figure beside it is the same call
with every text read before. Nothing about a position or its outcome is kept.

Each row runs every position once per run, ``--runs`` times; a run's median and p99 are taken over
the positions, and the row shows the median of the runs' figures (not the best run), with the
spread of the runs' medians.

    .venv/bin/python bench/adjudicate.py [--positions 300] [--runs 7] [--seed 1]
    .venv/bin/python bench/adjudicate.py --variant youngstown   # a variant's map (see below)
    .venv/bin/python bench/adjudicate.py --compare /tmp/dipvenv/bin/python

``--variant NAME`` times the same on a variant's board: as many units as the map has supply centers
(Youngstown: 72), a third of them fleets at sea, so that the board is as full as the Standard one
with 34; the goal for the largest variant is twice the Standard figures at most.

``--compare PYTHON`` also times the PyPI ``diplomacy`` package (AGPL; never a dependency of this
project) on the same positions, in that other interpreter (its ``set_orders`` and ``process``:
orders in, new position out), and counts the positions where both leave the same units on the
board; install it on the side, e.g.
``python3 -m venv /tmp/dipvenv && /tmp/dipvenv/bin/pip install diplomacy``.
(Seed 7, 1500 positions: 1499 agree. The one that differs is a head-to-head battle where each
side's supporters include the other side's power; we count every support in the defend strength,
as the DATC's definitions do, and that package does not.)
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Board, adjudicate, adjudicate_json, get_variant, load_map
from engine.adjudicator.convoys import route_exists, sea_graph
from engine.errors import OrderError
from engine.mapdata import province_of
from engine.parser import forget_lines, parse_order
from engine.validation import read_order

GM = load_map("standard")
GRAPH = sea_graph(GM)
VARIANT = "standard"
PHASE = "F1901M"


def use_variant(name: str) -> None:
    """Bench on variant ``name``'s board (its map, its first year's fall)."""
    global GM, GRAPH, VARIANT, PHASE
    variant = get_variant(name)
    GM = variant.game_map()
    GRAPH = sea_graph(GM)
    VARIANT = name
    PHASE = f"F{variant.first_year():04d}M"  # year 1 (Ancient Mediterranean) is F0001M


def dense_position(rng: random.Random, n_units: int = 34) -> dict[str, list[str]]:
    """``n_units`` units on distinct provinces, about a third of them fleets at sea."""
    seas = [p for p in GM.provinces if GM.is_sea(p)]
    land = [p for p in GM.provinces if not GM.is_sea(p)]
    at_sea = round(n_units * 12 / 34)
    chosen = rng.sample(seas, at_sea) + rng.sample(land, n_units - at_sea)
    units: dict[str, list[str]] = {}
    for prov in chosen:
        p = GM.provinces[prov]
        kind = "F" if p.is_sea else ("F" if p.has_coast and rng.random() < 0.3 else "A")
        loc = rng.choice(p.locations) if kind == "F" else prov
        units.setdefault(rng.choice(GM.powers), []).append(f"{kind} {loc}")
    return units


def near_seas(prov: str, hops: int) -> set[str]:
    """The seas within ``hops`` seas of coastal province ``prov`` (1: the seas it touches)."""
    seen = set(GRAPH.shore_seas.get(prov, ()))
    frontier = set(seen)
    for _ in range(hops - 1):
        frontier = {n for s in frontier for n in GRAPH.sea_neighbours[s]} - seen
        seen |= frontier
    return seen


def dense_orders(
    rng: random.Random, units: dict[str, list[str]], convoy_hops: int | None = None
) -> dict[str, list[str]]:
    """A plausible order for every unit: first the moves, then supports and convoys for them.
    ``convoy_hops``: convoys only through that many seas at most (None: any route on the board)."""
    where = {province_of(u.split()[1]): u for us in units.values() for u in us}
    fleets = {p for p, u in where.items() if u[0] == "F" and GM.is_sea(p)}
    plan: dict[str, str] = {}
    moves: list[tuple[str, str]] = []  # (unit, destination province)
    for prov, unit in where.items():
        kind, loc = unit.split()
        r = rng.random()
        if r < 0.45:
            options = sorted(GM.neighbours(kind, loc))
            if kind == "A" and GM.is_coastal(prov) and rng.random() < 0.3:
                far = [d for d in GM.provinces if GM.is_coastal(d) and d != prov]
                usable = fleets if convoy_hops is None else fleets & near_seas(prov, convoy_hops)
                far = [d for d in far if route_exists(GRAPH, prov, d, usable)]
                options += far[:8]
            if options:
                dest = rng.choice(options)
                plan[prov] = f"{unit} - {dest}"
                moves.append((unit, province_of(dest)))
    for prov, unit in where.items():
        if prov in plan:
            continue
        kind, loc = unit.split()
        convoyable = [
            (u, d) for u, d in moves
            if u[0] == "A" and prov in fleets and route_exists(GRAPH, province_of(u.split()[1]), d, fleets)
            and not GM.army_can_move(province_of(u.split()[1]), d)
        ]  # fmt: skip
        if convoyable and rng.random() < 0.7:
            u, d = rng.choice(convoyable)
            plan[prov] = f"{unit} C {u} - {d}"
            continue
        reach = {province_of(x) for x in GM.neighbours(kind, loc)}
        into = [(u, d) for u, d in moves if d in reach and province_of(u.split()[1]) != prov]
        hold = [where[p] for p in reach if p in where and p not in plan]
        if into and rng.random() < 0.7:
            u, d = rng.choice(into)
            plan[prov] = f"{unit} S {u} - {d}"
        elif hold:
            plan[prov] = f"{unit} S {rng.choice(hold)}"
        else:
            plan[prov] = f"{unit} H"
    orders: dict[str, list[str]] = {}
    for power, us in units.items():
        orders[power] = [plan[province_of(u.split()[1])] for u in us]
    return orders


def requests(count: int, seed: int, n_units: int = 34, convoy_hops: int | None = None) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        units = dense_position(rng, n_units)
        orders = dense_orders(rng, units, convoy_hops)
        out.append({"variant": VARIANT, "phase": PHASE, "units": units, "centers": {}, "orders": orders})
    return out


def timed(fn, items: list, runs: int, before=None) -> list[list[float]]:
    """Seconds per call, for each run (every item once per run); ``before(item)`` runs untimed."""
    out = []
    gc.disable()
    try:
        for _ in range(runs):
            times = []
            for item in items:
                if before is not None:
                    before(item)
                t0 = time.perf_counter()
                fn(item)
                times.append(time.perf_counter() - t0)
            out.append(times)
    finally:
        gc.enable()
    return out


def forget(_item: object) -> None:
    """Before a cold call: no order text seen before."""
    forget_lines()


def read_all(pair: tuple[Board, dict]) -> None:
    board, req = pair
    for power, texts in req["orders"].items():
        for text in texts:
            with contextlib.suppress(OrderError):
                read_order(text, board, power)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def figures(runs: list[list[float]]) -> tuple[float, float, float, float]:
    """(median, p99, lowest run median, highest run median) in microseconds; median and p99 are the
    median over the runs of each run's figure."""
    medians = [statistics.median(r) * 1e6 for r in runs]
    p99s = [percentile(r, 0.99) * 1e6 for r in runs]
    return statistics.median(medians), statistics.median(p99s), min(medians), max(medians)


def row(name: str, runs: list[list[float]]) -> str:
    median, p99, low, high = figures(runs)
    return f"| {name} | {median:.0f} | {p99:.0f} | {low:.0f}-{high:.0f} |"


COMPARE_SCRIPT = r"""
import json, sys, time, gc
from diplomacy import Game
reqs = json.load(sys.stdin)
runs = int(sys.argv[1])
times, units = [], []
gc.disable()
for run in range(runs):
    times.append([])
    for req in reqs:
        game = Game()
        game.set_current_phase("F1901M")
        game.clear_units()
        for power, us in req["units"].items():
            game.set_units(power, us)
        t0 = time.perf_counter()
        for power, orders in req["orders"].items():
            game.set_orders(power, orders)
        game.process()
        times[-1].append(time.perf_counter() - t0)
        if run == 0:
            left = game.get_units().items()
            units.append({p: sorted(u for u in us if not u.startswith("*")) for p, us in left})
json.dump({"times": times, "units": units}, sys.stdout)
"""


def compare(python: str, reqs: list[dict], runs: int) -> tuple[list[list[float]], list[dict]]:
    """Times of set_orders + process in the PyPI package (per run), and the units it leaves."""
    done = subprocess.run(
        [python, "-c", COMPARE_SCRIPT, str(runs)],
        input=json.dumps(reqs),
        capture_output=True,
        text=True,
        check=True,
    )
    out = json.loads(done.stdout)
    return out["times"], out["units"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--runs", type=int, default=7, help="runs over all positions (default 7)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--compare", metavar="PYTHON", help="a Python with the PyPI diplomacy package")
    ap.add_argument("--variant", default="standard", help="a variant's board (default: the Standard one)")
    args = ap.parse_args()
    use_variant(args.variant)
    n_units = len(GM.supply_centers)

    reqs = requests(args.positions, args.seed, n_units)
    outs = [adjudicate_json(r) for r in reqs]  # warm caches; count what happened
    rows = [r for out in outs for r in out["orders"]]
    orders = sum(len(v) for r in reqs for v in r["orders"].values())
    texts = [r["order"] or "" for r in rows if r["input"] is not None]
    kinds = {
        "S": sum(" S " in t for t in texts),
        "C": sum(" C " in t for t in texts),
        "-": sum(" - " in t and " S " not in t and " C " not in t for t in texts),
    }
    print(
        f"# Adjudication benchmark: {args.positions} dense random movement phases, seed {args.seed}, "
        f"{get_variant(VARIANT).title} board"
    )
    print(
        f"# python {platform.python_version()} on {platform.machine()}; {args.runs} runs over all positions, "
        "the median of the runs' figures (spread: the runs' lowest and highest median)"
    )
    print(f"# load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(
        f"# per phase: {n_units} units, {orders / len(reqs):.0f} orders "
        f"({kinds['-'] / len(reqs):.1f} moves, {kinds['S'] / len(reqs):.1f} supports, "
        f"{kinds['C'] / len(reqs):.1f} convoys); "
        f"{sum(r['status'] == 'succeeded' for r in rows) / len(reqs):.1f} succeed, "
        f"{sum(r['status'] == 'invalid' for r in rows) / len(reqs):.1f} invalid, "
        f"{sum(len(d) for o in outs for d in o['dislodged'].values()) / len(reqs):.1f} dislodged"
    )
    print()
    print("| what (one movement phase) | median µs | p99 µs | spread of medians µs |")
    print("| --- | ---: | ---: | ---: |")
    runs = args.runs
    cold = timed(adjudicate_json, reqs, runs, before=forget)
    print(row("adjudicate_json, cold: no order text seen before (goal: median ≤ 300)", cold))
    for r in reqs:
        adjudicate_json(r)  # read every text again, so that the warm rows are warm from their first run
    print(row("adjudicate_json, warm: every order text read before", timed(adjudicate_json, reqs, runs)))
    print(row("  of which Board.from_json (the position)", timed(Board.from_json, reqs, runs)))
    boards = [Board.from_json(r) for r in reqs]
    pairs = list(zip(boards, reqs, strict=True))
    print(row("  of which read_order for every line, cold", timed(read_all, pairs, runs, before=forget)))
    for pair in pairs:
        read_all(pair)
    print(row("  of which read_order for every line, warm", timed(read_all, pairs, runs)))
    parsed = [
        (b, {p: [parse_order(t, GM, "M") for t in ts] for p, ts in r["orders"].items()})
        for b, r in zip(boards, reqs, strict=True)
    ]
    print(row("adjudicate on a Board, orders already parsed", timed(lambda x: adjudicate(*x), parsed, runs)))
    median, p99, _, _ = figures(cold)
    print(
        f"\nHeadline (cold): median {median:.0f} µs, p99 {p99:.0f} µs per dense movement phase "
        f"(load average {os.getloadavg()[0]:.2f})"
    )
    if args.compare and VARIANT == "standard":
        times, their_units = compare(args.compare, reqs, runs)
        print(row("PyPI diplomacy 1.1.2: set_orders + process (no JSON, no reasons)", times))
        ratio = figures(cold)[0] / figures(times)[0]
        print(f"\nMedian of adjudicate_json (cold): {ratio:.0%} of the PyPI package's")
        our_units = [{p: sorted(us) for p, us in o["units"].items()} for o in outs]
        their_units = [{p: us for p, us in u.items() if us} for u in their_units]
        same = sum(a == b for a, b in zip(our_units, their_units, strict=True))
        print(f"\nSame units on the board afterwards as the PyPI package: {same} of {len(reqs)} positions")


if __name__ == "__main__":
    main()
