"""Boards to draw in tests and in bench/render.py: a crowded mid-game with an order for every unit."""

from __future__ import annotations

from typing import Any

from engine import adjudicate_json
from engine.adjudication import AdjudicationJSON
from engine.board import Board
from engine.mapdata import load_map, province_of

# Every supply centre owned, 34 units (one in almost every centre, a fleet in the North Sea).
CROWDED_UNITS: dict[str, list[str]] = {
    "AUSTRIA": ["A VIE", "A BUD", "F TRI", "A SER"],
    "ENGLAND": ["A LON", "F EDI", "F LVP", "F NWY", "F NTH"],
    "FRANCE": ["A PAR", "F BRE", "A MAR", "F POR", "F SPA/SC", "A BEL"],
    "GERMANY": ["A BER", "F KIE", "A MUN", "A HOL", "F DEN"],
    "ITALY": ["A ROM", "F NAP", "A VEN", "F TUN"],
    "RUSSIA": ["A MOS", "A WAR", "F SEV", "F STP/NC", "A SWE", "A RUM"],
    "TURKEY": ["F ANK", "A CON", "A SMY", "A BUL"],
}
CROWDED_CENTERS: dict[str, list[str]] = {
    "AUSTRIA": ["VIE", "BUD", "TRI", "SER", "GRE"],
    "ENGLAND": ["LON", "EDI", "LVP", "NWY"],
    "FRANCE": ["PAR", "BRE", "MAR", "POR", "SPA", "BEL"],
    "GERMANY": ["BER", "KIE", "MUN", "HOL", "DEN"],
    "ITALY": ["ROM", "NAP", "VEN", "TUN"],
    "RUSSIA": ["MOS", "WAR", "SEV", "STP", "SWE", "RUM"],
    "TURKEY": ["ANK", "CON", "SMY", "BUL"],
}


def crowded_orders(board: Board) -> dict[str, list[str]]:
    """One order per unit, chosen by rule so that moves, supports, holds and a convoy all occur."""
    game_map = board.game_map
    orders: dict[str, list[str]] = {p: [] for p in board.units}
    occupied = board.occupied()
    special = {
        "A LON": "A LON - BEL VIA",
        "F NTH": "F NTH C A LON - BEL",
        "A BEL": "A BEL - RUH",
    }
    for i, (power, unit) in enumerate(sorted(board.all_units(), key=lambda pu: pu[1].location)):
        text = str(unit)
        if text in special:
            orders[power].append(special[text])
            continue
        neighbours = sorted(game_map.neighbours(unit.type or "A", unit.location))
        friends = [n for n in neighbours if occupied.get(province_of(n), ("",))[0] == power]
        rule = i % 5
        if rule == 1 and friends:
            orders[power].append(f"{text} S {occupied[province_of(friends[0])][1]}")
        elif rule == 2:
            orders[power].append(f"{text} H")
        else:
            dest = neighbours[(i * 7) % len(neighbours)]
            orders[power].append(f"{text} - {dest}")
    return orders


def crowded_request(phase: str = "F1905M") -> dict[str, Any]:
    board = Board.from_json({"phase": phase, "units": CROWDED_UNITS, "centers": CROWDED_CENTERS}, load_map())
    return {**board.to_json(), "orders": crowded_orders(board)}


def crowded_result(phase: str = "F1905M") -> AdjudicationJSON:
    return adjudicate_json(crowded_request(phase))
