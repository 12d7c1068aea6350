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

Levels (``level``): ``easy`` is the first player, as it was (no checks against circles of its own
units, repeated bounces, lone convoys or builds blocked by its own units); ``normal`` is that player
with those checks; ``hard`` tries several normal plans against the likely replies of its neighbours
with our adjudicator and plays the best (:mod:`engine.player.lookahead`); its builds
(:mod:`engine.player.builds`) are the normal player's unless a switch there says otherwise.
``bounced`` is what the player remembers of the last phases (:mod:`engine.player.memory`): it never
repeats a move that bounced into an empty province twice in a row.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping

from engine.board import Board
from engine.legal import LegalOrder, legal_orders
from engine.player.adjustments import adjustment_orders
from engine.player.builds import hard_adjustments
from engine.player.lookahead import lookahead_orders
from engine.player.movement import movement_orders
from engine.player.random_player import random_orders
from engine.player.retreats import retreat_orders

__all__ = ["DEFAULT_LEVEL", "LEVELS", "choose_orders", "random_orders"]

LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"


def choose_orders(
    board: Board,
    power: str,
    seed: int = 0,
    holding: Collection[str] = frozenset(),
    *,
    level: str = DEFAULT_LEVEL,
    bounced: Mapping[str, int] | None = None,
) -> tuple[LegalOrder, ...]:
    """``power``'s orders on ``board`` (see the module docstring). ``holding`` names the powers in
    civil disorder (public in a game: their units only hold), which the player then treats as
    such; ``level`` one of :data:`LEVELS`; ``bounced`` the streaks of ``power``'s moves that bounced
    into an empty province (engine.player.memory). Raises ValueError for a power the map does not
    have or an unknown level; a power with nothing to order gets none."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels are {', '.join(LEVELS)}")
    legal = legal_orders(board, power)
    rng = random.Random(f"{seed}:{board.variant}:{board.phase}:{power}")
    kind = board.phase.kind
    if not legal.entries:
        return ()
    if kind == "M":
        if level == "hard":
            return tuple(lookahead_orders(board, power, legal, rng, holding, bounced, seed))
        sane = level != "easy"
        return tuple(movement_orders(board, power, legal, rng, holding, sane=sane, bounced=bounced))
    if kind == "R":
        return tuple(retreat_orders(board, power, legal, rng, holding, hard=level == "hard"))
    if level == "hard":
        return tuple(hard_adjustments(board, power, legal, rng, holding))
    return tuple(adjustment_orders(board, power, legal, rng, holding))
