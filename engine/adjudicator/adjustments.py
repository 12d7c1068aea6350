"""Adjustments: how many units each power builds or removes, and the winter orders themselves.

A power with more supply centers than units may build the difference, but only in its own home
centers that it owns and that stand empty, so the count is capped by those (docs/ARCHITECTURE.md,
"One phase in JSON"); with the ``build_anywhere`` rule switch (Chaos, engine.rules) in any supply
center it owns that stands empty. A power with more units than centers removes the difference; what
it does not name is removed by the civil-disorder rule (:mod:`engine.adjudicator.civil_disorder`,
DATC 6.J.2-6.J.11).

Orders are taken one by one in the order given (DATC 4.D.4, 4.D.6): once the count is used up,
further builds, waives or removals fail (6.I.1, 6.J.1). A build must name a valid site: a home
center of the power (6.I.6), owned (6.I.5), empty on every coast (6.I.3, 6.I.4), a fleet only on
a coast (6.I.2) and with the coast named where there are two (6.B.14).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.adjudicator import explain
from engine.adjudicator.civil_disorder import removal_order
from engine.board import Board
from engine.errors import InvalidOrder
from engine.mapdata import coast_of, province_of
from engine.orders import AdjustmentOrder, Build, Order, Remove, Unit, Waive
from engine.rules import build_sites, may_build_in


def adjustment_counts(board: Board) -> dict[str, int]:
    """Power -> builds (+) or removals (-) due; powers with nothing to do are left out."""
    out = {}
    powers = set(board.units) | set(board.centers)
    for power in sorted(powers):
        diff = adjustment_due(board, power)
        if diff:
            out[power] = diff
    return out


def adjustment_due(board: Board, power: str) -> int:
    """``power``'s entry of :func:`adjustment_counts` (0 when it has nothing to do), worked out alone."""
    diff = len(board.centers.get(power, ())) - len(board.units.get(power, ()))
    if diff > 0:
        diff = min(diff, len(build_sites(board, power)))
    return diff


def check_adjustment_order(order: Order, board: Board, power: str, due: int) -> Order:
    """A build, removal or waive made exact, or InvalidOrder. ``due``: this power's count."""
    game_map = board.game_map
    if isinstance(order, Waive):
        if due <= 0:
            raise InvalidOrder(_no_builds(board, power))
        return order
    if isinstance(order, Remove):
        if due >= 0:
            raise InvalidOrder(explain.no_removals(power))
        prov = order.unit.province
        actual = board.unit_at(prov)
        if actual is None:
            raise InvalidOrder(explain.no_unit(prov))
        owner = board.owner_at(prov)
        if owner != power:
            raise InvalidOrder(explain.not_yours(actual, owner))
        if order.unit.type is not None and order.unit.type != actual.type:
            raise InvalidOrder(explain.wrong_type(order.unit, actual))
        return Remove(actual)
    if not isinstance(order, Build):
        raise InvalidOrder(explain.wrong_phase(order, "A"))
    if due <= 0:
        raise InvalidOrder(_no_builds(board, power))
    unit = order.unit
    prov = unit.province
    province = game_map.provinces.get(prov)
    if province is None:
        raise InvalidOrder(explain.unknown_place(unit.location))
    if not may_build_in(board, power, prov):
        raise InvalidOrder(explain.build_not_home(prov, power))
    if prov not in board.centers.get(power, ()):
        raise InvalidOrder(explain.build_not_owned(prov, power))
    standing = board.unit_at(prov)
    if standing is not None:
        raise InvalidOrder(explain.build_occupied(prov, standing))
    if unit.type == "F":
        if not province.has_coast:
            raise InvalidOrder(explain.build_fleet_inland(prov))
        if province.coasts:
            if coast_of(unit.location) is None or unit.location not in province.locations:
                raise InvalidOrder(explain.build_coast_needed(prov, province.locations))
            return Build(unit)
        return Build(Unit("F", prov))
    return Build(Unit("A", prov))


def _no_builds(board: Board, power: str) -> str:
    return explain.no_builds(power, len(board.centers.get(power, ())), len(board.units.get(power, ())))


@dataclass(frozen=True, slots=True)
class AdjustmentOutcome:
    """One winter order's result; ``order`` with ``ordered=False`` is a civil-disorder removal."""

    power: str
    order: AdjustmentOrder
    status: str
    reason: str
    ordered: bool = True


def resolve_adjustments(
    board: Board, orders: Sequence[tuple[str, AdjustmentOrder]], due: dict[str, int]
) -> list[AdjustmentOutcome]:
    """Apply valid winter ``orders`` (power, order) in the order given; add civil-disorder removals.

    Returns one outcome per given order (same order), then the civil-disorder removals.
    """
    used: dict[str, int] = {}
    removed: dict[str, set[str]] = {}
    out = []
    for power, order in orders:
        count = due.get(power, 0)
        n = used.get(power, 0)
        if count > 0:
            if n >= count:
                why = explain.too_many_builds(power, count)
                out.append(AdjustmentOutcome(power, order, explain.FAILED, why))
                continue
            used[power] = n + 1
            text = explain.waived() if isinstance(order, Waive) else explain.built(order.unit)
            out.append(AdjustmentOutcome(power, order, explain.SUCCEEDED, text))
        else:
            if n >= -count:
                why = explain.too_many_removals(power, -count)
                out.append(AdjustmentOutcome(power, order, explain.FAILED, why))
                continue
            assert not isinstance(order, Waive), "check_adjustment_order refuses a waive when units must go"
            used[power] = n + 1
            removed.setdefault(power, set()).add(province_of(order.unit.location))
            out.append(AdjustmentOutcome(power, order, explain.SUCCEEDED, explain.removed(order.unit)))
    for power, count in sorted(due.items()):
        missing = -count - used.get(power, 0)
        if count >= 0 or missing <= 0:
            continue
        gone = removed.get(power, set())
        for unit, distance in removal_order(board, power):
            if missing == 0:
                break
            if unit.province in gone:
                continue
            out.append(
                AdjustmentOutcome(
                    power, Remove(unit), explain.SUCCEEDED, explain.disorder_removed(unit, distance), False
                )
            )
            missing -= 1
    return out
