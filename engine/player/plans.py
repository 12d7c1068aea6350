"""Checks and changes of one power's plan for the look-ahead's search (engine.player.lookahead): a
plan is a province -> legal order mapping."""

from __future__ import annotations

from collections.abc import Mapping

from engine.legal import LegalOrder, OrderKind, UnitOrders
from engine.mapdata import province_of
from engine.player.movement import REPEATS
from engine.player.values import Values


def bounces_own(plan: Mapping[str, LegalOrder]) -> bool:
    """Two of our moves into one province, or a move into a province whose unit of ours stays."""
    targets = [province_of(legal.target or "") for legal in plan.values() if legal.kind == OrderKind.MOVE]
    if len(targets) != len(set(targets)):
        return True
    return any(t in plan and plan[t].kind != OrderKind.MOVE for t in targets)


def circles(plan: Mapping[str, LegalOrder]) -> bool:
    """Our moves going round in a circle."""
    succ = {}
    for prov, legal in plan.items():
        if legal.kind == OrderKind.MOVE and legal.target is not None:
            target = province_of(legal.target)
            if target in plan:
                succ[prov] = target
    for start in succ:
        prov, steps = start, 0
        while prov in succ and steps <= len(succ):
            prov = succ[prov]
            steps += 1
            if prov == start:
                return True
    return False


def settle(
    current: Mapping[str, LegalOrder], changes: Mapping[str, LegalOrder], holds: Mapping[str, LegalOrder]
) -> dict[str, LegalOrder] | None:
    """``current`` with ``changes`` made, our other moves into a province a changed unit moves into or
    stays in turned into holds (repeatedly); None when the changes alone bounce or circle."""
    trial = dict(current)
    trial.update(changes)
    for _ in range(len(trial)):
        staying = {p for p, o in trial.items() if o.kind != OrderKind.MOVE}
        wanted: dict[str, str] = {}
        clash = None
        for prov, legal in sorted(trial.items(), key=lambda item: (item[0] not in changes, item[0])):
            if legal.kind != OrderKind.MOVE:
                continue
            target = province_of(legal.target or "")
            if target in staying or target in wanted:
                clash = prov
                break
            wanted[target] = prov
        if clash is None:
            break
        if clash in changes or clash not in holds:
            return None
        trial[clash] = holds[clash]
    if circles(trial) or bounces_own(trial):
        return None
    return trial


def alternatives(
    entry: UnitOrders,
    current: Mapping[str, LegalOrder],
    bounced: Mapping[str, int],
    view: Values,
    tried: int,
) -> list[LegalOrder]:
    """A unit's orders worth trying instead of its planned one, the likeliest first (its best ``tried``
    moves)."""
    moves = []
    out: list[LegalOrder] = []
    for legal in entry.orders:
        if legal.kind == OrderKind.HOLD:
            out.append(legal)
        elif legal.kind == OrderKind.MOVE:
            if legal.via_convoy or bounced.get(legal.text, 0) >= REPEATS:
                continue
            target = province_of(legal.target or "")
            moves.append((-view.of(entry.unit_type, target), legal.text, legal))
        elif legal.kind == OrderKind.SUPPORT and legal.helped is not None:
            helped = current.get(legal.helped.province)
            if helped is None:
                continue  # another power's unit
            if legal.helped_holds:
                if helped.kind != OrderKind.MOVE:
                    out.append(legal)
            elif helped.kind == OrderKind.MOVE and province_of(helped.target or "") == legal.target:
                out.append(legal)
    moves.sort(key=lambda m: (m[0], m[1]))
    return [m for _, _, m in moves[:tried]] + out
