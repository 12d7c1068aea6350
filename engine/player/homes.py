"""The hard level's fall when builds are due and our own units stand in their way (issue 43): a
self-standoff, off by default.

Two units of ours ordered into one province bounce each other (a standoff): the province stays
empty and ours, so a build can be made there in the winter, and a lone move of another power into
it bounces too (a standoff of three). So in the fall, with more builds due than home centres left
free, a home centre of ours that another power could enter and that a unit of ours would end on (a
unit moving onto it, empty or left by another unit of ours) gets two units of ours ordered into it
instead (:data:`STANDOFF`); with :data:`STANDOFF_OFF`, a unit of ours standing on one also moves off
while two others stand it off; with :data:`STANDOFF_GUARD`, an empty one no unit of ours enters is
stood off too. The look-ahead judges each such plan against its replies (its adjudicator: a
supported move of theirs still enters; a home centre stood off is not scored as left open) and keeps
the best of those that leave one more home centre free unless it costs more than :data:`STANDOFF`
of a centre; a unit whose support the standoff left void then tries its other orders. The normal
player's plans never bounce their own units; a move that bounced twice in a row into an empty
province is not made again (engine.player.memory), a standoff's moves included.

Kept apart from engine.player.lookahead (which calls it, behind these switches, with its judgement
of a plan) so that the look-ahead's own logic stays as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from itertools import combinations

from engine.legal import LegalOrder, LegalOrders, OrderKind, UnitOrders
from engine.mapdata import province_of
from engine.orders import Move, Order

STANDOFF: float | None = None  # in the fall, with more builds due than home centres left free, a home
# centre of ours another power could enter that a unit of ours would end on gets two units of ours ordered
# into it instead (they bounce: it stays empty and ours, free for a build), unless that costs more than this
# (of a centre); None: off
STANDOFF_GUARD = False  # ... and an empty home centre of ours another power could enter that no unit
# of ours enters (empty at the start, or left by a unit of ours) gets two units of ours ordered into it, in
# a fall with builds due, unless that costs more than STANDOFF (of a centre)
STANDOFF_OFF = False  # ... and a unit of ours standing on such a home (not moving) moves off while two
# others stand it off
TRIALS = 16  # at most this many plans tried for one home centre
REUSE = 8  # at most this many orders tried for a unit whose support a standoff left void

Judge = Callable[[Collection[LegalOrder]], float]


def stood(orders: Iterable[Order]) -> frozenset[str]:
    """The provinces two or more of ``orders`` (one power's) move into: they bounce there."""
    seen: set[str] = set()
    twice: set[str] = set()
    for order in orders:
        if isinstance(order, Move):
            dest = province_of(order.dest)
            (twice if dest in seen else seen).add(dest)
    return frozenset(twice)


def _target(order: LegalOrder) -> str | None:
    return province_of(order.target or "") if order.kind == OrderKind.MOVE else None


def _settle(
    current: Mapping[str, LegalOrder],
    changes: Mapping[str, LegalOrder],
    home: str,
    pair: Collection[str],
    holds: Mapping[str, LegalOrder],
    circles: Callable[[Mapping[str, LegalOrder]], bool],
) -> dict[str, LegalOrder] | None:
    """``current`` with ``changes`` made (``pair``'s two moves into ``home`` among them: they bounce,
    those units stay); our other moves into ``home``, into a province whose unit stays or into one
    another move of ours enters turned into holds (repeatedly); None when that cannot be."""
    trial = dict(current)
    trial.update(changes)
    for prov, legal in sorted(trial.items()):
        if (
            legal.kind == OrderKind.SUPPORT
            and not legal.helped_holds
            and province_of(legal.target or "") == home
        ):
            if prov in changes or prov not in holds:
                return None
            trial[prov] = holds[prov]  # a support into it would let one of the two in
    for _ in range(len(trial) + 1):
        staying = {p for p, o in trial.items() if o.kind != OrderKind.MOVE} | set(pair)
        wanted: dict[str, str] = {}
        clash = None
        for prov, legal in sorted(trial.items(), key=lambda item: (item[0] not in changes, item[0])):
            target = _target(legal)
            if target is None or prov in pair:
                continue
            if target == home or target in staying or target in wanted:
                clash = prov
                break
            wanted[target] = prov
        if clash is None:
            break
        if clash in changes or clash not in holds:
            return None
        trial[clash] = holds[clash]
    else:
        return None
    others = {p: o for p, o in trial.items() if p not in pair}
    return None if circles(others) else trial


def standoffs(
    legal: LegalOrders,
    current: dict[str, LegalOrder],
    homes: Collection[str],
    occupant: Mapping[str, tuple[str, object]],
    power: str,
    due: int,
    threatened: Callable[[str], bool],
    judge: Judge,
    bounced: Mapping[str, int],
    repeats: int,
    circles: Callable[[Mapping[str, LegalOrder]], bool],
    allowance: float,
) -> dict[str, LegalOrder]:
    """:data:`STANDOFF` (see the module docstring): ``homes`` our home centres we own, ``due`` the
    builds due, ``threatened`` whether another power's unit could enter a province; each home
    centre a unit of ours would end on (the ones a move of ours enters first), while the builds
    need more free, tries two of our units (each with a move into it, not by convoy, not one that
    bounced ``repeats`` times in a row) ordered into it, and with :data:`STANDOFF_OFF` the unit
    standing on it moving off, at most :data:`TRIALS` plans that leave one more home centre free
    (:data:`STANDOFF_GUARD`: none fewer); keeps the best-judged unless it lowers the judgement by
    more than ``allowance``."""
    entries = {e.unit.province: e for e in legal.entries if e.unit is not None and e.unit.province in current}
    holds = {p: o for p, e in entries.items() for o in e.orders if o.kind == OrderKind.HOLD}
    taken = {h for h in homes if (s := occupant.get(h)) is not None and s[0] != power}

    def ends(plan: Mapping[str, LegalOrder]) -> set[str]:
        """The home centres a unit of ours may end on after ``plan``."""
        pairs = stood(o.order for o in plan.values())
        out = set()
        for prov, order in plan.items():
            target = _target(order)
            if target is None or target in pairs:
                if prov in homes:
                    out.add(prov)
            elif target in homes:
                out.add(target)
            elif prov in homes and (target in occupant or threatened(target)):
                out.add(prov)  # a move off that may bounce
        return out

    def short(plan: Mapping[str, LegalOrder]) -> int:
        return due - len(set(homes) - taken - ends(plan))

    if short(current) <= 0 and not STANDOFF_GUARD:
        return current
    movers: dict[str, list[tuple[str, LegalOrder]]] = {}
    for prov, entry in sorted(entries.items()):
        for alt in entry.orders:
            target = _target(alt)
            if target is None or target not in homes or alt.via_convoy or bounced.get(alt.text, 0) >= repeats:
                continue
            movers.setdefault(target, []).append((prov, alt))

    def onto(home: str) -> bool:
        return any(_target(o) == home for o in current.values())

    candidates = []
    for home in sorted(homes):
        if home in taken or not threatened(home) or len(movers.get(home, ())) < 2:
            continue
        standing = occupant.get(home)
        if standing is None:
            if onto(home):
                candidates.append((0, home))
            elif STANDOFF_GUARD:
                candidates.append((3, home))
        elif home in current and _target(current[home]) is not None:
            if onto(home):
                candidates.append((1, home))  # left by a unit of ours, entered by another
            elif STANDOFF_GUARD:
                candidates.append((4, home))  # left by a unit of ours, left empty
        elif home in current and STANDOFF_OFF:
            candidates.append((2, home))
    score = judge(list(current.values()))
    for kind, home in sorted(candidates):
        need = short(current)
        guard = kind >= 3
        if need <= 0 and not guard:
            continue
        if home in current and _target(current[home]) is None:
            offs = [
                o
                for o in entries[home].orders
                if (t := _target(o)) is not None
                and t not in homes
                and not o.via_convoy
                and bounced.get(o.text, 0) < repeats
                and (t not in occupant or occupant[t][0] == power)
            ]
        else:
            offs = [current[home]] if home in current else []
        pool = [(p, o) for p, o in movers[home] if p != home]
        moves_off: list[LegalOrder | None] = [*offs] or [None]
        best: tuple[float, str, dict[str, LegalOrder]] | None = None
        tries = 0
        for (a, move_a), (b, move_b) in combinations(pool, 2):
            if a == b:
                continue
            for off in moves_off:
                if tries >= TRIALS:
                    break
                changes = {a: move_a, b: move_b}
                if off is not None:
                    changes[home] = off
                trial = _settle(current, changes, home, (a, b), holds, circles)
                if trial is None or short(trial) >= need + guard:
                    continue  # no home centre more left free (a guard: none fewer)
                tries += 1
                judged = judge(list(trial.values()))
                key = " ".join(sorted(o.text for o in changes.values()))
                if best is None or judged > best[0] + 1e-9:
                    best = (judged, key, trial)
        if best is not None and best[0] >= score - allowance:
            score, current = best[0], best[2]
            score, current = _reuse(entries, current, score, home, holds, judge, bounced, repeats, circles)
    return current


def _reuse(
    entries: Mapping[str, UnitOrders],
    current: dict[str, LegalOrder],
    score: float,
    home: str,
    holds: Mapping[str, LegalOrder],
    judge: Judge,
    bounced: Mapping[str, int],
    repeats: int,
    circles: Callable[[Mapping[str, LegalOrder]], bool],
) -> tuple[float, dict[str, LegalOrder]]:
    """After a standoff in ``home``: each unit of ours whose support no longer matches the order of
    the unit it supports tries a hold, its moves (not into ``home``) and the supports of our units'
    orders (not into ``home``), at most :data:`REUSE` of them, and keeps the best-judged if it betters
    the plan."""
    pair = tuple(p for p, o in current.items() if _target(o) == home)
    for prov in sorted(
        p for p, o in current.items() if o.kind == OrderKind.SUPPORT and void_support(o, current)
    ):
        best: tuple[float, str, dict[str, LegalOrder]] | None = None
        tried = 0
        for alt in entries[prov].orders:
            if tried >= REUSE:
                break
            if alt.kind == OrderKind.MOVE:
                if alt.via_convoy or bounced.get(alt.text, 0) >= repeats or _target(alt) == home:
                    continue
            elif alt.kind == OrderKind.SUPPORT:
                if void_support(alt, current) or province_of(alt.target or "") == home:
                    continue
            elif alt.kind != OrderKind.HOLD:
                continue
            trial = _settle(current, {prov: alt}, home, pair, holds, circles)
            if trial is None:
                continue
            tried += 1
            judged = judge(list(trial.values()))
            if best is None or judged > best[0] + 1e-9:
                best = (judged, alt.text, trial)
        if best is not None and best[0] > score + 1e-9:
            score, current = best[0], best[2]
    return score, current


def void_support(order: LegalOrder, plan: Mapping[str, LegalOrder]) -> bool:
    """Whether ``order``, a support, helps no order of ``plan`` (another power's unit: it may)."""
    if order.helped is None:
        return True
    helped = plan.get(order.helped.province)
    if helped is None:
        return False
    if order.helped_holds:
        return helped.kind == OrderKind.MOVE
    return _target(helped) != province_of(order.target or "")
