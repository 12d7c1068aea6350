"""The built-in player: a computer player for seats nobody plays.

``choose_orders(board, power, seed=...)`` answers with a complete set of orders for ``power`` in the
board's phase, whatever the phase and the variant: one order for each unit in a movement phase, one
for each dislodged unit in a retreat phase, the builds (a waive for each build it leaves unused)
or the removals it owes in an adjustment phase. Every order is taken from
:func:`engine.legal.legal_orders`, so each is legal as the adjudicator judges it. The same board,
power and seed always give the same orders (the choice is seeded, and nothing depends on the order
of a set), in any process.

How it plays (no press: it never writes to anyone): :mod:`engine.player.values` works out what
each province is worth to the power; :mod:`engine.player.movement` moves the units towards the
best of it, with supports and convoys, never bouncing its own units;
:mod:`engine.player.retreats` and :mod:`engine.player.adjustments` retreat, build and remove by
the same values. ``random_orders`` is a random legal player, for benchmarks and tests.
"""

from __future__ import annotations

import random
from collections.abc import Collection

from engine.board import Board
from engine.legal import LegalOrder, legal_orders
from engine.player.adjustments import adjustment_orders
from engine.player.movement import movement_orders
from engine.player.random_player import random_orders
from engine.player.retreats import retreat_orders

__all__ = ["choose_orders", "random_orders"]


def choose_orders(
    board: Board, power: str, seed: int = 0, holding: Collection[str] = frozenset()
) -> tuple[LegalOrder, ...]:
    """``power``'s orders on ``board`` (see the module docstring). ``holding`` names the powers in
    civil disorder (public in a game: their units only hold), which the player then treats as
    such. Raises ValueError for a power the map does not have; a power with nothing to order gets
    none."""
    legal = legal_orders(board, power)
    rng = random.Random(f"{seed}:{board.variant}:{board.phase}:{power}")
    kind = board.phase.kind
    if not legal.entries:
        return ()
    if kind == "M":
        return tuple(movement_orders(board, power, legal, rng, holding))
    if kind == "R":
        return tuple(retreat_orders(board, power, legal, rng, holding))
    return tuple(adjustment_orders(board, power, legal, rng, holding))
