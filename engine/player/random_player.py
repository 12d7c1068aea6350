"""A random legal player: for each unit one of its legal orders, drawn at random (a move, a hold, a
support... each as likely as the others); in winter random builds or removals. Benchmarks and tests
play the built-in player against it."""

from __future__ import annotations

import random

from engine.board import Board
from engine.legal import LegalOrder, OrderKind, legal_orders


def random_orders(board: Board, power: str, rng: random.Random) -> tuple[LegalOrder, ...]:
    """Random legal orders for ``power``: one per unit, or the adjustments it owes."""
    legal = legal_orders(board, power)
    if board.phase.kind != "A":
        return tuple(rng.choice(entry.orders) for entry in legal.entries if entry.orders)
    if legal.due > 0:
        sites = list(legal.entries)
        rng.shuffle(sites)
        return tuple(rng.choice(entry.of_kind(OrderKind.BUILD)) for entry in sites[: legal.due])
    removals = [entry.orders[0] for entry in legal.entries if entry.orders]
    rng.shuffle(removals)
    return tuple(removals[: -legal.due]) if legal.due < 0 else ()
