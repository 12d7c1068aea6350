"""The built-in player's retreats: each dislodged unit goes to the best place it may, never two of
its power's units to the same place (both would be destroyed); a unit with nowhere to go disbands.

With :data:`HOME_BLOCK` (the hard level's), a fall's retreat onto one of our home centres that is ours
and empty comes last while the builds due after the fall need every such centre: standing there it
would block a build (issue 43's builds lost); with no other place to go it disbands instead, rebuilt
there in the winter (the same count of units, of the type the winter chooses)."""

from __future__ import annotations

import random
from collections.abc import Collection

from engine.adjudication import standing_centers
from engine.board import Board
from engine.legal import LegalOrder, LegalOrders, OrderKind
from engine.mapdata import province_of
from engine.player.values import values

NOISE = 0.1
DANGER = 1.5  # a place is worth this less for each unit one other power could bring against it
HOME_BLOCK = True  # in a fall, a retreat onto a free home centre of ours that a build due needs comes last


def blocking_homes(board: Board, power: str) -> frozenset[str]:
    """In a fall's retreat phase, our home centres that stay ours and empty when the builds due after
    the fall (every dislodged unit of ours with somewhere to go kept) need each of them; empty
    otherwise."""
    if board.phase.season != "F":
        return frozenset()
    occupant = board.occupant
    owned = board.centers.get(power, frozenset())
    after = len(standing_centers(board).get(power, ()))  # who owns what once the fall ends
    units = len(board.units.get(power, ())) + sum(bool(d.retreats) for d in board.dislodged_of(power))
    homes = board.game_map.home_centers.get(power, ())
    free = frozenset(h for h in homes if h in owned and h not in occupant)
    return free if after - units >= len(free) else frozenset()


def retreat_orders(
    board: Board,
    power: str,
    legal: LegalOrders,
    rng: random.Random,
    holding: Collection[str] = frozenset(),
    *,
    hard: bool = False,
) -> list[LegalOrder]:
    """One order (a retreat or a disband) for each of ``power``'s dislodged units; ``hard``: the hard
    level's (:data:`HOME_BLOCK`)."""
    view = values(board, power, holding)
    taken: set[str] = set()
    out: list[LegalOrder] = []
    blocking = blocking_homes(board, power) if hard and HOME_BLOCK else frozenset()
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
        pick = next(((o, t) for _, _, o, t in scored if t not in taken and t not in blocking), None)
        if pick is not None:
            out.append(pick[0])
            taken.add(pick[1])
            continue
        disband = entry.of_kind(OrderKind.DISBAND)
        if disband:
            out.append(disband[0])
    return out
