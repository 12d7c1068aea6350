"""The built-in player's retreats: each dislodged unit goes to the best place it may, never two of
its power's units to the same place (both would be destroyed); a unit with nowhere to go disbands."""

from __future__ import annotations

import random
from collections.abc import Collection

from engine.board import Board
from engine.legal import LegalOrder, LegalOrders, OrderKind
from engine.mapdata import province_of
from engine.player.values import values

NOISE = 0.1
DANGER = 1.5  # a place is worth this less for each unit one other power could bring against it


def retreat_orders(
    board: Board, power: str, legal: LegalOrders, rng: random.Random, holding: Collection[str] = frozenset()
) -> list[LegalOrder]:
    """One order (a retreat or a disband) for each of ``power``'s dislodged units."""
    view = values(board, power, holding)
    taken: set[str] = set()
    out: list[LegalOrder] = []
    # the units with the fewest places to go choose first
    entries = sorted(legal.entries, key=lambda e: (len(e.of_kind(OrderKind.RETREAT)), e.location))
    for entry in entries:
        unit_type = entry.unit_type
        scored = []
        for option in entry.of_kind(OrderKind.RETREAT):
            target = province_of(option.target or "")
            worth = view.of(unit_type, target) - DANGER * view.enemy_reach.get(target, 0)
            scored.append((worth * (1.0 + NOISE * rng.random()), option.text, option, target))
        scored.sort(key=lambda item: (-item[0], item[1]))
        pick = next(((o, t) for _, _, o, t in scored if t not in taken), None)
        if pick is not None:
            out.append(pick[0])
            taken.add(pick[1])
            continue
        disband = entry.of_kind(OrderKind.DISBAND)
        if disband:
            out.append(disband[0])
    return out
