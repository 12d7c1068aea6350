"""How fast orders are read and checked. Prints microseconds per order; asserts nothing.

    .venv/bin/python bench/parse.py [--rounds N]

Sets of orders:
  canonical   what format_order prints (the adjudicator's usual input)
  rulebook    the rulebook's notation ("A Par-Bur", "F Nth C A Yor-Nwy", "A Tri Holds")
  full names  the DATC's style ("F North Sea Convoys A London - Belgium")
  validate    validate_order on the canonical set against a Spring 1901-like board
  read_order  parse + validate, as the adjudicator calls it
  enter_order read_order + the board-level check (fleets at sea), as the bot calls it at entry (issue
              26); "new board" forgets the board's convoy answers before each line (the first line of a
              submission: gm reads the board anew for each)
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import contextlib

from engine.adjudicator.convoys import forget_board_convoys
from engine.board import Board
from engine.entry import enter_order
from engine.mapdata import GameMap, load_map
from engine.orders import Order
from engine.parser import forget_lines, parse_order
from engine.validation import read_order, validate_order

CANONICAL = [
    "A VIE - TRI",
    "A BUD - GAL",
    "F TRI - ALB",
    "A LVP - YOR",
    "F LON - NTH",
    "F EDI - NWG",
    "A PAR - BUR",
    "A MAR - SPA",
    "F BRE - PIC",
    "A BER - KIE",
    "A MUN - RUH",
    "F KIE - DEN",
    "A VEN - PIE",
    "A ROM - VEN",
    "F NAP - ION",
    "A MOS - UKR",
    "A WAR - GAL",
    "F STP/SC - BOT",
    "F SEV - BLA",
    "A CON - BUL",
    "A SMY - CON",
    "F ANK - BLA",
    "A PAR S A MAR - BUR",
    "A MAR H",
    "F NTH C A LON - NWY",
    "A LON - NWY VIA",
    "A PAR S F BRE",
    "F BRE S A PAR - PIC",
    "A VIE H",
    "A BUD S A VIE - GAL",
    "F ION C A APU - TUN",
    "A APU - TUN VIA",
    "F MAO - SPA/NC",
    "A SMY H",
]
RULEBOOK = [
    "A Vie-Tri",
    "A Bud-Gal",
    "F Tri-Alb",
    "A Lvp-Yor",
    "F Lon-Nth",
    "F Edi-Nrg",
    "A Par-Bur",
    "A Mar-Spa",
    "F Bre-Pic",
    "A Ber-Kie",
    "A Mun-Ruh",
    "F Kie-Den",
    "A Ven-Pie",
    "A Rom-Ven",
    "F Nap-Ion",
    "A Mos-Ukr",
    "A War-Gal",
    "F StP-Bot",
    "F Sev-Bla",
    "A Con-Bul",
    "A Smy-Con",
    "F Ank-Bla",
    "A Tri Holds",
    "F Nth C A Yor-Nwy",
    "A Ukr S F Sev-Rum",
    "F Con-Bul EC",
    "A Ser S Turkish A Bul–Rum",
    "F Swe S StP–Nwy",
    "F Wes–NAf",
    "F Tyn–GoL",
    "A Spa-Port",
    "F Den Holds",
    "F Bar S A Nwy–StP",
    "A Bur–Gas",
]
FULL_NAMES = [
    "F North Sea - Picardy",
    "A Liverpool - Irish Sea",
    "F Kiel - Munich",
    "F North Sea Convoys A Yorkshire - Yorkshire",
    "A Liverpool Supports A Yorkshire - Yorkshire",
    "F London - Yorkshire",
    "A Wales Supports F London - Yorkshire",
    "F Gascony - Spain(nc)",
    "F Mid-Atlantic Ocean - Spain(nc)",
    "F Gulf of Lyon Supports F Western Mediterranean - Spain(sc)",
    "A Spain - Portugal via convoy",
    "F Irish Sea Supports F North Atlantic Ocean - Mid-Atlantic Ocean",
]


def cold_parse(text: str, gm: GameMap) -> Order:
    """parse_order with the parser's line cache emptied first."""
    forget_lines()
    return parse_order(text, gm, "M")


def cold_entry(text: str, board: Board, power: str) -> Order:
    """enter_order with the board's convoy answers forgotten first."""
    forget_board_convoys()
    return enter_order(text, board, power)


def unit_place(order: Order) -> str:
    assert order.unit is not None, order  # every benchmarked order is a unit's
    return order.unit.province


def per_order_us(texts: list[str], rounds: int, fn: Callable[..., object]) -> float:
    start = time.perf_counter()
    for _ in range(rounds):
        for t in texts:
            fn(t)
    return (time.perf_counter() - start) / (rounds * len(texts)) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=2000)
    args = ap.parse_args()
    gm = load_map()
    parse_order("A PAR - BUR", gm)  # build the cached tables outside the timing

    print(f"parse_order, {args.rounds} rounds (cold = the parser's line cache emptied before each call)")
    for label, texts in (("canonical", CANONICAL), ("rulebook", RULEBOOK), ("full names", FULL_NAMES)):
        warm = per_order_us(texts, args.rounds, lambda t: parse_order(t, gm, "M"))
        cold = per_order_us(texts, max(1, args.rounds // 4), lambda t: cold_parse(t, gm))
        print(
            f"  {label:<11} cold {cold:7.2f} us/order ({cold * 34:7.1f} per 34)"
            f"   warm {warm:6.2f} us/order ({warm * 34:6.1f} per 34)"
        )

    board = Board.initial(gm)
    units = {u.province: p for p, us in board.units.items() for u in us}
    extra = {"F NTH": "ENGLAND", "A LON": "ENGLAND", "F ION": "ITALY", "A APU": "ITALY", "F MAO": "FRANCE"}
    data = board.to_json()
    for unit, power in extra.items():
        data["units"].setdefault(power, []).append(unit)
    for power in data["units"]:
        data["units"][power] = [u for u in data["units"][power] if u not in ("F LON",)]
    board = Board.from_json(data, gm)
    units = {u.province: p for p, us in board.units.items() for u in us}
    orders = [parse_order(t, gm, "M") for t in CANONICAL]
    pairs = [(o, units[unit_place(o)]) for o in orders if unit_place(o) in units]
    valid = 0
    for o, p in pairs:
        try:
            validate_order(o, board, p)
            valid += 1
        except ValueError:
            pass
    rounds = args.rounds
    start = time.perf_counter()
    for _ in range(rounds):
        for o, p in pairs:
            with contextlib.suppress(ValueError):
                validate_order(o, board, p)
    us = (time.perf_counter() - start) / (rounds * len(pairs)) * 1e6
    print(f"validate_order ({valid}/{len(pairs)} valid)")
    print(f"  canonical   {us:7.2f} us/order   ({us * 34:7.1f} us per 34)")

    # read_order = parse for the board's phase + validate: what the adjudicator calls per input line.
    print("read_order (parse + validate), valid lines only")
    for label, texts in (("canonical", CANONICAL), ("rulebook", RULEBOOK)):
        owner = {t: units.get(unit_place(parse_order(t, gm, "M")), "") for t in texts}
        mine = [t for t in texts if owner[t] and _valid(t, board, owner[t])]
        us = per_order_us(mine, args.rounds, lambda t, owner=owner: read_order(t, board, owner[t]))
        print(f"  {label:<11} {us:7.2f} us/order   ({us * 34:7.1f} us per 34; {len(mine)} lines)")
    print("enter_order (read_order + the board-level check), valid lines only")
    for label, texts in (("canonical", CANONICAL), ("rulebook", RULEBOOK)):
        owner = {t: units.get(unit_place(parse_order(t, gm, "M")), "") for t in texts}
        mine = [t for t in texts if owner[t] and _valid(t, board, owner[t])]
        us = per_order_us(mine, args.rounds, lambda t, owner=owner: enter_order(t, board, owner[t]))
        cold = per_order_us(
            mine,
            max(1, args.rounds // 4),
            lambda t, owner=owner: cold_entry(t, board, owner[t]),
        )
        print(
            f"  {label:<11} {us:7.2f} us/order   ({us * 34:7.1f} us per 34; {len(mine)} lines)"
            f"   new board {cold:7.2f} us/order"
        )


def _valid(text: str, board: Board, power: str) -> bool:
    try:
        read_order(text, board, power)
    except ValueError:
        return False
    return True


if __name__ == "__main__":
    main()
