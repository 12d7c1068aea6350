"""The 2000 rulebook's sample game ("Opening moves in a sample game"), played through the engine.

The orders are the rulebook's, in its own notation, phase by phase; retreats and builds as its
commentary gives them. :func:`play` runs them through ``engine.adjudicate_json`` and yields, for
every phase, the request and the result, which the render tests and bench/render.py draw.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine import adjudicate_json
from engine.board import Board

ORDERS: dict[str, dict[str, list[str]]] = {
    "S1901M": {
        "AUSTRIA": ["A Vie-Tri", "A Bud-Gal", "F Tri-Alb"],
        "ENGLAND": ["A Lvp-Yor", "F Lon-Nth", "F Edi-Nrg"],
        "FRANCE": ["A Par-Bur", "A Mar-Spa", "F Bre-Pic"],
        "GERMANY": ["A Ber-Kie", "A Mun-Ruh", "F Kie-Den"],
        "ITALY": ["A Ven-Pie", "A Rom-Ven", "F Nap-Ion"],
        "RUSSIA": ["A Mos-Ukr", "A War-Gal", "F StP-Bot", "F Sev-Bla"],
        "TURKEY": ["A Con-Bul", "A Smy-Con", "F Ank-Bla"],
    },
    "F1901M": {
        "AUSTRIA": ["A Tri Holds", "A Bud-Ser", "F Alb-Gre"],
        "ENGLAND": ["A Yor-Nwy", "F Nth C A Yor-Nwy", "F Nrg-Bar"],
        "FRANCE": ["A Bur-Mar", "A Spa-Por", "F Pic-Bel"],
        "GERMANY": ["A Kie-Hol", "A Ruh-Bel", "F Den Holds"],
        "ITALY": ["A Ven Holds", "A Pie-Mar", "F Ion-Tun"],
        "RUSSIA": ["A Ukr S F Sev-Rum", "A War-Gal", "F Bot-Swe", "F Sev-Rum"],
        "TURKEY": ["A Bul-Ser", "A Con-Bul", "F Ank-Bla"],
    },
    "W1901A": {
        "ENGLAND": ["F Edi"],
        "GERMANY": ["F Kie", "A Mun"],
        "RUSSIA": ["A StP", "A Sev"],
        "TURKEY": ["A Smy"],
        "AUSTRIA": ["A Vie"],
        "ITALY": ["F Nap"],
        "FRANCE": ["F Mar", "A Por"],
    },
    "S1902M": {
        "AUSTRIA": ["A Tri-Bud", "A Vie-Bud", "A Bud-Ser", "F Gre Holds"],
        "ENGLAND": ["A Nwy-StP", "F Nth-Nwy", "F Bar S A Nwy-StP", "F Edi-Nth"],
        "FRANCE": ["A Bur S F Pic-Bel", "A Por-Spa", "F Pic-Bel", "F Mar Holds"],
        "GERMANY": ["A Hol-Bel", "A Ruh S A Hol-Bel", "A Mun-Bur", "F Den Holds", "F Kie-Hol"],
        "ITALY": ["A Ven Holds", "A Pie-Mar", "F Tun-Wes", "F Nap-Tyn"],
        "RUSSIA": ["A Ukr S F Rum", "A Gal-Bud", "A StP-Nwy", "A Sev S F Rum", "F Swe S A StP-Nwy",
                   "F Rum Holds"],
        "TURKEY": ["A Bul-Rum", "A Con-Bul", "A Smy-Arm", "F Bla S A Bul-Rum"],
    },
    "F1902M": {
        "AUSTRIA": ["A Vie-Gal", "A Tri-Bud", "A Ser S Turkish A Bul-Rum", "F Gre Holds"],
        "ENGLAND": ["A Nwy-StP", "F Bar S A Nwy-StP", "F Nth-Nwy", "F Edi-Nth"],
        "FRANCE": ["A Bur-Bel", "F Pic S A Bur-Bel", "A Spa S F Mar", "F Mar S A Spa"],
        "GERMANY": ["A Ruh-Bur", "A Mun S A Ruh-Bur", "A Bel S A Ruh-Bur", "F Den-Swe", "F Hol S A Bel"],
        "ITALY": ["A Ven-Pie", "A Pie-Mar", "F Wes-NAf", "F Tyn-GoL"],
        "RUSSIA": ["A StP-Nwy", "F Swe S StP-Nwy", "F Rum S A Sev", "A Sev S F Rum", "A Gal S F Rum",
                   "A Ukr S A Sev"],
        "TURKEY": ["A Bul-Rum", "A Con-Bul", "A Arm-Sev", "F Bla S A Bul-Rum"],
    },
    "F1902R": {"RUSSIA": ["A StP-Mos"], "FRANCE": ["A Bur-Gas"]},
    "W1902A": {
        "GERMANY": ["F Kie"],
        "RUSSIA": ["Remove A Gal"],
        "TURKEY": ["F Smy"],
        "AUSTRIA": ["A Tri"],
        "FRANCE": ["A Par"],
        "ENGLAND": ["F Lon"],
    },
}  # fmt: skip


LAST_PHASE = "W1902A"


def play() -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """(request, result) for every phase the engine opens, from Spring 1901 to Winter 1902.

    A phase the rulebook gives no orders for (a retreat phase it says nothing about) is played with
    no orders, as the engine would at its deadline.
    """
    state: dict[str, Any] = Board.initial().to_json()
    for _ in range(12):  # the game has at most 10 phases up to Winter 1902
        phase = state["phase"]
        request = {**state, "orders": ORDERS.get(phase, {})}
        result = adjudicate_json(request)
        yield request, result
        if phase == LAST_PHASE or not result.get("next_phase"):
            return
        state = {
            "variant": "standard",
            "phase": result["next_phase"],
            "units": result["units"],
            "centers": result["centers"],
        }
        if result.get("dislodged"):
            state["dislodged"] = result["dislodged"]
