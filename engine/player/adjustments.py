"""The built-in player's winter: builds where a new unit is worth most (an army or a fleet,
whichever its values favour there), and removes the units worth least where they stand."""

from __future__ import annotations

import random
from collections.abc import Callable, Collection

from engine.board import Board
from engine.legal import LegalOrder, LegalOrders, OrderKind
from engine.orders import Unit
from engine.player.geography import geography
from engine.player.values import Values, values

NOISE = 0.1
LOOKAHEAD = 0.25  # as in engine.player.movement: a fleet's coast counts what it reaches next


def adjustment_orders(
    board: Board, power: str, legal: LegalOrders, rng: random.Random, holding: Collection[str] = frozenset()
) -> list[LegalOrder]:
    """The builds (and a waive for each build left unused) or the removals ``power`` owes."""
    view = values(board, power, holding)
    if legal.due > 0:
        return _builds(board, legal, view, rng)
    if legal.due < 0:
        return _removals(board, legal, view, rng)
    return []


def _unit_worth(board: Board, view: Values, unit: Unit) -> float:
    worth = view.of(unit.type, unit.province)
    if unit.type == "F":
        ahead = geography(board.game_map).fleet_reach.get(unit.location, ())
        if ahead:
            worth += LOOKAHEAD * max(view.fleet.get(p, 0.0) for p in ahead)
    return worth


def _builds(
    board: Board,
    legal: LegalOrders,
    view: Values,
    rng: random.Random,
    unit_worth: Callable[[Board, Values, Unit], float] | None = None,
) -> list[LegalOrder]:
    """The best builds (one per site) by ``unit_worth`` (default: the unit's place, a fleet's with
    what it reaches next), and a waive for each build left unused."""
    options = []
    for entry in legal.entries:
        for build in entry.of_kind(OrderKind.BUILD):
            unit = build.unit
            assert unit is not None
            worth = (unit_worth or _unit_worth)(board, view, unit) * (1.0 + NOISE * rng.random())
            options.append((worth, build.text, build, entry.province))
    options.sort(key=lambda item: (-item[0], item[1]))
    out: list[LegalOrder] = []
    used: set[str] = set()
    for _, _, build, site in options:
        if len(out) >= legal.due:
            break
        if site not in used:
            used.add(site)
            out.append(build)
    if legal.waive is not None:
        out += [legal.waive] * (legal.due - len(out))
    return out


def _removals(board: Board, legal: LegalOrders, view: Values, rng: random.Random) -> list[LegalOrder]:
    options = []
    for entry in legal.entries:
        remove = entry.of_kind(OrderKind.REMOVE)
        if entry.unit is None or not remove:
            continue
        worth = _unit_worth(board, view, entry.unit) * (1.0 + NOISE * rng.random())
        options.append((worth, entry.location, remove[0]))
    options.sort(key=lambda item: (item[0], item[1]))
    return [remove for _, _, remove in options[: -legal.due]]
