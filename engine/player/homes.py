"""The hard level's fall when builds are due and our own units stand in their way (issue 43): the
switches below, each off by default, change the look-ahead's chosen fall plan so that fewer units of
ours end the fall on a home centre a build needs.

Kept apart from engine.player.lookahead (which calls it, behind these switches, with its judgement
of a plan) so that the look-ahead's own logic stays as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from engine.legal import LegalOrder, LegalOrders, OrderKind
from engine.mapdata import province_of

SUPPORT_OFF: float | None = None  # in the fall, with more builds due than home centres left free, a unit
# of ours moving off a home centre where the move may bounce gets the best support another unit of ours
# can give it, unless that costs more than this (of a centre); None: off
CALM_ONTO: float | None = None  # ... a unit of ours moving onto a home centre of ours no other power could
# enter (empty, or left by another unit of ours) holds or moves elsewhere off our home centres instead,
# unless that costs more than this (of a centre); None: off
SUPPORT_SWAP: float | None = None  # ... a unit of ours on a home centre supporting a move or hold lets
# another unit of ours off our home centres give that support and moves off (where no other power could
# meet it), unless that costs more than this (of a centre); None: off
SWAP_SAFE = True  # ... the unit moves off only where no other power could meet it (else: where none stands)

Judge = Callable[[Collection[LegalOrder]], float]
Settle = Callable[[Mapping[str, LegalOrder], Mapping[str, LegalOrder]], "dict[str, LegalOrder] | None"]


def _move_target(order: LegalOrder) -> str | None:
    return province_of(order.target or "") if order.kind == OrderKind.MOVE else None


def support_off(
    legal: LegalOrders,
    current: dict[str, LegalOrder],
    homes: Collection[str],
    risky: Callable[[str], bool],
    judge: Judge,
    settle: Settle,
    allowance: float,
) -> dict[str, LegalOrder]:
    """:data:`SUPPORT_OFF`: each unit of ours on a home centre in ``homes`` moving off into a
    province where its move may bounce (``risky``) gets the best-judged support of that move from
    another unit of ours not already moving off a home centre, unless that lowers the judgement by
    more than ``allowance``."""
    entries = {e.unit.province: e for e in legal.entries if e.unit is not None and e.unit.province in current}
    score = judge(list(current.values()))
    for prov in sorted(current):
        order = current[prov]
        target = _move_target(order)
        if prov not in homes or target is None or not risky(target):
            continue
        mover = order.order.unit
        if any(
            o.kind == OrderKind.SUPPORT
            and o.helped == mover
            and not o.helped_holds
            and province_of(o.target or "") == target
            for o in current.values()
        ):
            continue
        best: tuple[float, str, dict[str, LegalOrder]] | None = None
        for other, entry in sorted(entries.items()):
            if other == prov:
                continue
            mine = current[other]
            if other in homes and _move_target(mine) is not None:
                continue  # a move off a home centre of its own
            for alt in entry.orders:
                if (
                    alt.kind != OrderKind.SUPPORT
                    or alt.helped != mover
                    or alt.helped_holds
                    or province_of(alt.target or "") != target
                ):
                    continue
                trial = settle(current, {other: alt})
                if trial is None:
                    continue
                judged = judge(list(trial.values()))
                if best is None or judged > best[0] + 1e-9:
                    best = (judged, alt.text, trial)
        if best is not None and best[0] >= score - allowance:
            score, current = best[0], best[2]
    return current


def calm_onto(
    legal: LegalOrders,
    current: dict[str, LegalOrder],
    homes: Collection[str],
    threatened: Callable[[str], bool],
    leaves: Callable[[str], bool],
    judge: Judge,
    settle: Settle,
    allowance: float,
    need: int,
) -> dict[str, LegalOrder]:
    """:data:`CALM_ONTO`: while ``need`` > 0, each unit of ours moving onto a home centre in ``homes``
    that is free (empty, or ``leaves``: another unit of ours moves off it) and not ``threatened`` by
    another power tries a hold or a move that ends off our home centres instead (not into a province
    ``threatened``); the best is made unless it lowers the judgement by more than ``allowance``."""
    entries = {e.unit.province: e for e in legal.entries if e.unit is not None and e.unit.province in current}
    score = judge(list(current.values()))
    for prov in sorted(current):
        if need <= 0:
            break
        target = _move_target(current[prov])
        if target is None or target not in homes or threatened(target):
            continue
        if target in current and not leaves(target):
            continue
        entry = entries.get(prov)
        if entry is None:
            continue
        best: tuple[float, str, dict[str, LegalOrder]] | None = None
        for alt in entry.orders:
            if alt.text == current[prov].text:
                continue
            if alt.kind == OrderKind.MOVE:
                there = _move_target(alt)
                if alt.via_convoy or there is None or there in homes or threatened(there):
                    continue
            elif alt.kind != OrderKind.HOLD or prov in homes:
                continue
            trial = settle(current, {prov: alt})
            if trial is None:
                continue
            judged = judge(list(trial.values()))
            if best is None or judged > best[0] + 1e-9:
                best = (judged, alt.text, trial)
        if best is not None and best[0] >= score - allowance:
            score, current = best[0], best[2]
            need -= 1
    return current


def support_swap(
    legal: LegalOrders,
    current: dict[str, LegalOrder],
    homes: Collection[str],
    threatened: Callable[[str], bool],
    occupied: Collection[str],
    judge: Judge,
    settle: Settle,
    allowance: float,
    need: int,
) -> dict[str, LegalOrder]:
    """:data:`SUPPORT_SWAP`: while ``need`` > 0, each unit of ours on a home centre in ``homes`` that
    supports gives its support to another unit of ours off our home centres that is not moving (the
    same support, same target), and itself moves off into a province no other power could enter
    (not ``threatened``, not a home centre; without :data:`SWAP_SAFE`: not ``occupied`` by another
    power's unit); the best pair is made unless it lowers the judgement by
    more than ``allowance``."""
    entries = {e.unit.province: e for e in legal.entries if e.unit is not None and e.unit.province in current}
    score = judge(list(current.values()))
    for prov in sorted(current):
        if need <= 0:
            break
        order = current[prov]
        if prov not in homes or order.kind != OrderKind.SUPPORT or prov not in entries:
            continue
        offs = [
            o
            for o in entries[prov].orders
            if o.kind == OrderKind.MOVE
            and not o.via_convoy
            and (t := _move_target(o)) is not None
            and t not in homes
            and (not threatened(t) if SWAP_SAFE else t not in occupied)
        ]
        if not offs:
            continue
        best: tuple[float, str, dict[str, LegalOrder]] | None = None
        for other, entry in sorted(entries.items()):
            if other == prov or other in homes or current[other].kind == OrderKind.MOVE:
                continue
            same = [
                o
                for o in entry.orders
                if o.kind == OrderKind.SUPPORT
                and o.helped == order.helped
                and o.helped_holds == order.helped_holds
                and o.target == order.target
            ]
            for support in same:
                for off in offs:
                    trial = settle(current, {other: support, prov: off})
                    if trial is None:
                        continue
                    judged = judge(list(trial.values()))
                    if best is None or judged > best[0] + 1e-9:
                        best = (judged, f"{support.text}|{off.text}", trial)
        if best is not None and best[0] >= score - allowance:
            score, current = best[0], best[2]
            need -= 1
    return current
