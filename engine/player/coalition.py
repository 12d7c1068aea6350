"""The hard level's defence against a runaway leader (issue 43: no power should win more than a
quarter of self-play games), kept apart from the look-ahead's search (engine.player.lookahead calls
it behind its switches: ``AT=10 STOP=1.0`` by default, the others off).

Why: in hard self-play the eventual winner gains most of its last centres from 12 centres on by
attacks with one support on a unit whose owner had a unit beside it doing something else, or by
walking into a centre its owner left empty within reach; the powers around it judge their plans
against the normal player's prediction of the leader, which rarely makes hard's coordinated attacks.
So, while a big leader stands (:data:`AT` centres or more, more than ours, and at least :data:`RATIO`
times the next power's), its predicted reply is the hard level's own plan for it (worked out once
per board and shared by every power that asks, drawn with a seed of its own: a prediction, not the
leader's orders), and our plans are judged against the attacks it would really make. With
:data:`STOP`, what the leader takes from anyone in the phase costs us too, so that a plan that keeps
it from a third power's centre (a unit in its way, a support cut) scores. Measured (40 and 100 hard
self-play games, the README's table of switches): ``AT=10 STOP=1.0`` brings France's share from 36 to
23 of 100 on seeds 0-99 (30 on seeds 100-199) but loses more builds (7.3% against 5.8%); with the
cover up to a centre (engine.player.lookahead.COVER=1.0) and the builds by the next centres
(engine.player.builds), on together since 2026-11-29 night: France 19 and Italy 9 of 100 (seeds
0-99), Italy 22 and France 10 (seeds 100-199), builds lost 5.8% as before.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from engine.board import Board
from engine.orders import Order

AT: int | None = 10  # a big leader: another power (not in civil disorder) of this many centres or more
# (None: off) ...
RATIO = 0.0  # ... and at least this many times the centres of the biggest power but it
EXTRA = False  # its hard plan judged as a third reply (else: it replaces its normal prediction)
STOP = 1.0  # while one stands, each centre it gains costs us this (of a centre; 0: off): after a fall, a
# centre it will own that it did not; after a spring, a centre not its own that its unit stands on
# (times the look-ahead's HELD)
NEAR_AT: int | None = None  # a leader this close to a solo (this many centres or more; None: off) ...
NEAR_STOP = 2.0  # ... its gains cost us this instead of STOP (each centre it gains, as above)

# (board, power, holding, seed) -> its hard plan's orders
Planner = Callable[[Board, str, Collection[str], int], list[Order]]

_PLANS: dict[tuple[int, str, frozenset[str], int], tuple[Board, list[Order]]] = {}
_busy = False  # while a leader's plan is worked out (its look-ahead predicts no one so: no recursion)


def big_leader(board: Board, power: str, holding: Collection[str]) -> str | None:
    """The power other than ``power`` (not in civil disorder) that owns the most centres, when it owns
    :data:`AT` or more, more than ``power`` and at least :data:`RATIO` times the next power's; None
    otherwise, when off, or while a leader's own plan is being worked out."""
    if AT is None or _busy:
        return None
    sizes = sorted(((len(cs), p) for p, cs in board.centers.items() if cs), reverse=True)
    if not sizes:
        return None
    top, leader = sizes[0]
    second = sizes[1][0] if len(sizes) > 1 else 0
    mine = len(board.centers.get(power, ()))
    if leader == power or leader in holding or top < AT or top <= mine or top < RATIO * second:
        return None
    return leader


def gains(before: Board, after: Board, leader: str, held: float) -> float:
    """What ``leader`` gains in the phase from ``before`` to ``after`` (the board once adjudicated),
    times :data:`STOP` (:data:`NEAR_STOP` while it owns :data:`NEAR_AT` centres or more): after a
    fall, the centres it will own and did not; after a spring, the centres not its own that its units
    stand on, each ``held``."""
    owned = before.centers.get(leader, frozenset())
    stop = NEAR_STOP if NEAR_AT is not None and len(owned) >= NEAR_AT else STOP
    occupant = after.occupant
    gained = 0
    for centre in before.game_map.supply_centers:
        standing = occupant.get(centre)
        gained += standing is not None and standing[0] == leader and centre not in owned
    return stop * gained * (1.0 if before.phase.season == "F" else held)


def leader_plan(
    board: Board, leader: str, holding: Collection[str], seed: int, planner: Planner
) -> list[Order]:
    """``leader``'s hard plan on ``board`` (``planner``), remembered for the last boards: every power
    around it asks for the same one."""
    global _busy
    key = (id(board), leader, frozenset(holding), seed)
    hit = _PLANS.get(key)
    if hit is None or hit[0] is not board:
        _busy = True
        try:
            plan = planner(board, leader, holding, seed)
        finally:
            _busy = False
        hit = (board, plan)
        if len(_PLANS) >= 64:
            del _PLANS[next(iter(_PLANS))]
        _PLANS[key] = hit
    return hit[1]
