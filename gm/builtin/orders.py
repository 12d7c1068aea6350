"""The built-in player's orders at a close, in the worker process that adjudicates (gm.phases.worker):
the engine's player, given the board, the powers it plays and the powers in civil disorder (public
in a game: their units only hold). A power it fails for is left in civil disorder for the phase,
with the reason, for the bot's log; the close never stops for it.
"""

from __future__ import annotations

from collections.abc import Collection

from engine import Board
from engine.fog import fog_board
from engine.player import choose_orders


def built_in_orders(
    board: Board, powers: Collection[str], *, seed: int, holding: Collection[str], fogged: bool = False
) -> tuple[dict[str, list[str]], dict[str, str]]:
    """(power -> its order lines, power -> why no orders could be chosen) for each of ``powers``.

    ``seed`` makes the choice repeatable (the game's id: a close redone after a crash or a rollback
    gives the same orders); ``holding`` are the powers in civil disorder. ``fogged``: the game is
    played under the fog of war, and each power's orders are chosen on the board as it sees it
    (engine.fog.fog_board); what it sees is all real, so they are as legal on the whole board."""
    orders: dict[str, list[str]] = {}
    failed: dict[str, str] = {}
    for power in sorted(powers):
        try:
            seen = fog_board(board, power) if fogged else board
            orders[power] = [o.text for o in choose_orders(seen, power, seed, frozenset(holding))]
        except Exception as exc:  # a failure of the player must never stop a close
            failed[power] = f"{type(exc).__name__}: {exc}"
    return orders, failed
