"""The hard level's strength against opponents that come for it (issue 43): a reply in which the
neighbours aim at us, so that a plan is also judged against the attack a bigger power draws.

Kept apart from engine.player.lookahead (which calls it, behind its switches) so that the
look-ahead's own logic stays as it is.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence

from engine.adjudication import Adjudication
from engine.board import Board
from engine.legal import LegalOrder, OrderKind, legal_orders
from engine.mapdata import province_of
from engine.orders import Move, Order, SupportMove
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


def backed_reply(board: Board, power: str, reply: Mapping[str, list[Order]]) -> dict[str, list[Order]] | None:
    """``reply`` with the attacks on ``power`` backed: each unit of another power that is not itself
    predicted to move into a province of ours (a centre we own, or where a unit of ours stands)
    supports instead one of its own power's predicted moves into one, where it can (the move with
    the fewest supports so far, then by text). None when no order changes. The normal player's
    prediction often moves on us alone where a DumbBot-like opponent brings its support."""
    ours = set(board.centers.get(power, ())) | {u.province for u in board.units.get(power, ())}
    out: dict[str, list[Order]] = {}
    changed = False
    for other, orders in sorted(reply.items()):
        attacks = {
            o.unit.province: province_of(o.dest)
            for o in orders
            if isinstance(o, Move) and province_of(o.dest) in ours
        }
        if not attacks:
            out[other] = list(orders)
            continue
        backing = dict.fromkeys(attacks, 0)
        for order in orders:
            if isinstance(order, SupportMove) and attacks.get(order.supported.province) == province_of(
                order.dest
            ):
                backing[order.supported.province] += 1
        legal = legal_orders(board, other)
        new: list[Order] = []
        for order in orders:
            unit = order.unit
            entry = legal.entry(unit.province) if unit is not None else None
            if (
                unit is None
                or entry is None
                or unit.province in attacks
                or (isinstance(order, SupportMove) and order.supported.province in attacks)
            ):
                new.append(order)
                continue
            best: tuple[tuple[int, str], LegalOrder] | None = None
            for cand in entry.orders:
                helped = cand.helped
                if cand.kind != OrderKind.SUPPORT or helped is None or cand.helped_holds:
                    continue
                if attacks.get(helped.province) != province_of(cand.target or ""):
                    continue
                rank = (backing[helped.province], cand.text)
                if best is None or rank < best[0]:
                    best = (rank, cand)
            if best is None:
                new.append(order)
                continue
            helped = best[1].helped
            assert helped is not None
            backing[helped.province] += 1
            new.append(best[1].order)
            changed = True
        out[other] = new
    return out if changed else None


def solo(outcome: Adjudication, power: str, worth: float) -> float:
    """What the end of the game in ``outcome`` is worth to ``power``: its solo ends the game won,
    whatever the position left (``worth``); another power's ends it lost (``-worth``)."""
    if not worth or outcome.winner is None:
        return 0.0
    return worth if outcome.winner == power else -worth
