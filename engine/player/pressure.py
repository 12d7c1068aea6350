"""The hard level's strength against opponents that come for it (issue 43): a reply in which the
neighbours aim at us, so that a plan is also judged against the attack a bigger power draws.

Kept apart from engine.player.lookahead (which calls it, behind its switches) so that the
look-ahead's own logic stays as it is.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

from engine.adjudication import Adjudication
from engine.board import Board
from engine.legal import legal_orders
from engine.orders import Order
from engine.player.movement import NOISE, movement_orders

_AIMED: dict[tuple[int, str, str, float, frozenset[str], int], tuple[Board, list[Order]]] = {}


def aimed_reply(
    board: Board,
    power: str,
    others: Sequence[str],
    holding: Collection[str],
    seed: int,
    weight: float,
    *,
    contest: bool = True,
) -> dict[str, list[Order]]:
    """What ``others`` would order should each of them weigh ``power``'s centres ``weight`` times as
    much (the normal player's plan with that focus, engine.player.values): the reply of neighbours
    that come for us. Remembered for the last boards (every candidate plan is judged against it)."""
    reply: dict[str, list[Order]] = {}
    for other in others:
        key = (id(board), power, other, weight, frozenset(holding), seed)
        hit = _AIMED.get(key)
        if hit is None or hit[0] is not board:
            theirs = legal_orders(board, other)
            rng = random.Random(f"aimed:{seed}:{board.phase}:{other}:{power}")
            plan = movement_orders(
                board, other, theirs, rng, holding, noise=NOISE, contest=contest, focus={power: weight}
            )
            hit = (board, [o.order for o in plan])
            if len(_AIMED) >= 256:
                del _AIMED[next(iter(_AIMED))]
            _AIMED[key] = hit
        if hit[1]:
            reply[other] = hit[1]
    return reply


def solo(outcome: Adjudication, power: str, worth: float) -> float:
    """What the end of the game in ``outcome`` is worth to ``power``: its solo ends the game won,
    whatever the position left (``worth``); another power's ends it lost (``-worth``)."""
    if not worth or outcome.winner is None:
        return 0.0
    return worth if outcome.winner == power else -worth
