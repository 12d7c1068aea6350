"""The hard level's movement: candidate plans tried against the likely replies, judged by our own
adjudicator.

The candidates are the normal player's plan and variants of it drawn with more noise (each a
complete, legal plan: engine.player.movement). The replies are what the normal player would order
for each power whose units could meet ours (two draws, the second with more noise); powers further
away hold, and powers in civil disorder hold. Each candidate is adjudicated against each reply and
the position it leaves is scored for us: in the fall the centres we would own count most, in the
spring where our units stand (engine.player.values); a unit of ours dislodged costs, one of theirs
dislodged gains. The candidate with the best mean (and a share of its worst) is played.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping

from engine.adjudication import adjudicate
from engine.board import Board
from engine.legal import LegalOrder, LegalOrders, legal_orders
from engine.orders import Order
from engine.player.geography import geography
from engine.player.movement import NOISE, movement_orders
from engine.player.values import Values, reach_by_power, values

CANDIDATES = 8  # plans of ours tried (the normal plan and variants)
VARIANT_NOISE = (0.6, 1.0, 1.5)  # the variants' noise, in turn
REPLY_NOISE = (NOISE, 0.6)  # each reply's noise
CENTRE = 14.0  # a centre we own after a fall
OCCUPIED_CENTRE = 4.0  # a centre not ours that a unit of ours stands on after a spring
LOST_UNIT = 9.0  # a unit of ours dislodged
TAKEN_UNIT = 4.0  # a unit of theirs dislodged
WORST = 0.3  # the share of a candidate's worst score in its judgement (the rest: its mean)


def lookahead_orders(
    board: Board,
    power: str,
    legal: LegalOrders,
    rng: random.Random,
    holding: Collection[str],
    bounced: Mapping[str, int] | None,
) -> list[LegalOrder]:
    """``power``'s movement orders (see the module docstring)."""
    plans: list[list[LegalOrder]] = []
    seen: set[tuple[str, ...]] = set()
    for i in range(CANDIDATES):
        noise = NOISE if i == 0 else VARIANT_NOISE[(i - 1) % len(VARIANT_NOISE)]
        plan = movement_orders(
            board, power, legal, random.Random(rng.random()), holding, bounced=bounced, noise=noise
        )
        key = tuple(sorted(o.text for o in plan))
        if key not in seen:
            seen.add(key)
            plans.append(plan)
    if len(plans) == 1:
        return plans[0]
    replies = _replies(board, power, holding, rng)
    view = values(board, power, holding)
    best: tuple[float, int] | None = None
    for index, plan in enumerate(plans):
        mine = [o.order for o in plan]
        scores = []
        for reply in replies:
            orders = dict(reply)
            orders[power] = mine
            outcome = adjudicate(board, orders, civil_disorder=holding)
            scores.append(_score(board, outcome.board, power, view))
        judged = (1.0 - WORST) * sum(scores) / len(scores) + WORST * min(scores)
        if best is None or judged > best[0] + 1e-9:
            best = (judged, index)
    assert best is not None
    return plans[best[1]]


def _neighbours(board: Board, power: str, holding: Collection[str]) -> list[str]:
    """The powers (not in civil disorder) with a unit that could move where one of ours could, or
    into a centre of ours."""
    geo = geography(board.game_map)
    reach = reach_by_power(board, geo)
    ours = set(reach.get(power, {})) | {u.province for u in board.units.get(power, ())}
    ours |= set(board.centers.get(power, ()))
    return [
        other
        for other in sorted(board.units)
        if other != power and other not in holding and board.units[other] and ours & set(reach.get(other, {}))
    ]


def _replies(
    board: Board, power: str, holding: Collection[str], rng: random.Random
) -> list[dict[str, list[Order]]]:
    others = _neighbours(board, power, holding)
    replies = []
    for noise in REPLY_NOISE:
        reply: dict[str, list[Order]] = {}
        for other in others:
            theirs = legal_orders(board, other)
            if not theirs.entries:
                continue
            plan = movement_orders(board, other, theirs, random.Random(rng.random()), holding, noise=noise)
            reply[other] = [o.order for o in plan]
        replies.append(reply)
    return replies


def _score(before: Board, after: Board, power: str, view: Values) -> float:
    """How good ``after`` (the board once the phase is adjudicated) is for ``power``."""
    score = 0.0
    for unit in after.units.get(power, ()):
        score += view.of(unit.type, unit.province)
    lost = len(after.dislodged.get(power, ()))
    taken = sum(len(d) for p, d in after.dislodged.items() if p != power)
    score += TAKEN_UNIT * taken - LOST_UNIT * lost
    centres = geography(before.game_map).supply_centers
    owned = before.centers.get(power, frozenset())
    if before.phase.season == "F":
        mine = 0
        for centre in centres:
            standing = after.occupant.get(centre)
            if standing is not None:
                mine += standing[0] == power
            else:
                mine += centre in owned
        score += CENTRE * mine
    else:
        for centre in centres:
            standing = after.occupant.get(centre)
            if standing is not None and standing[0] == power and centre not in owned:
                score += OCCUPIED_CENTRE
    return score
