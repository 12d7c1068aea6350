"""The hard level's search beyond one unit at a time (engine.player.lookahead), every part behind a
switch, all off by default but :data:`TOP` (since 2026-11-30; their figures: the README's table
"Tried for hard's goals not met").

Several starts (:data:`TOP`): the look-ahead betters (coordinated attacks, then single-unit
changes, then cover) not only the candidate plan that scores best but the next best too, the best
:data:`TOP` of them, and keeps the bettered plan that scores best: the single-unit changes stop
where no one change betters a plan, and another start may end higher.

Pairs (:data:`PAIRS`): after the single-unit changes, each unit of ours near another power's (the
most threatened first, :data:`PAIR_UNITS` of them) ranks its other orders by how the plan scores
with that one change; then for each two such units that could meet (one reaches the other's
province, or both reach one province), the combinations of each one's best :data:`PAIR_ORDERS`
orders (its planned one among them), and each one's move or hold with the other's support of it,
are judged; the best is kept when it betters the plan. At most :data:`PAIRS` combinations a call.

Defences (:data:`DEFEND`): for each unit of ours that other powers' units could attack with
support (two of one power's units or more reach it), the unit holds with every support to hold
our units around it can give, and with as few as match the attackers; tried with the coordinated
attacks, at most :data:`DEFEND` of them, the most valuable province first.

Re-planning against the worst reply (:data:`REPLAN`): once the plan is bettered, the provinces of
ours that the reply scoring worst for it takes (units dislodged, centres entered) are each
defended by two or three units together: a hold of our unit there, or a move of ours back in,
with every support our units can give it, or as many as the attack has, with moves that cut the
attack's supports, or those cuts alone; a unit taken off its move for that lets another of ours
make the move instead. With :data:`REPLAN_BACKED`, the captures of the backed reply too (the
predicted one with each attack on us supported by the attacker's other units,
engine.player.pressure.backed_reply), whose score then counts that share more in the judgement.
The best defence is kept when it betters the plan.

Free homes (:data:`FREE_HOMES`): in the fall, once the plan is bettered (after the several starts),
the plan is adjudicated against each reply; where the builds due then outnumber our home centres
left free, the units of ours that end on one (staying there, a move off that bounced, a move onto
it) are the ones that block a build. Each tries its other orders (a hold, its best
:data:`FREE_MOVES` moves, supports of our units), the others' moves into its province turned into
holds; the best is kept when it betters the plan (no cost accepted: the judge already weighs a
blocked build). A unit moving into an empty home centre another power could enter (the cover,
which may cost up to engine.player.lookahead.COVER of a centre) keeps its move unless
:data:`FREE_COVERS`. The single-unit changes before stop at a budget shared by every unit near another
power's, so these units were often never tried.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from engine.adjudication import adjudicate, standing_centers
from engine.board import Board
from engine.legal import LegalOrder, LegalOrders, OrderKind, UnitOrders
from engine.mapdata import province_of
from engine.orders import Move, Order, SupportMove
from engine.player.geography import geography
from engine.player.plans import alternatives, bounces_own, circles, settle
from engine.player.pressure import backed_reply
from engine.player.values import Values

TOP = 9  # the best this many candidate plans bettered (engine.player.lookahead), the best result kept
PAIRS = 0  # at most this many two-unit changes judged a call (0: none)
PAIR_ORDERS = 3  # each unit's best other orders combined with the other unit's
PAIR_UNITS = 5  # the most threatened units of ours taking part
DEFEND = 0  # at most this many defences tried with the coordinated attacks (0: none)
REPLAN = 0  # at most this many defences against the worst reply's captures tried (0: none)
REPLAN_BACKED = 0.0  # ... and against the backed reply's (engine.player.pressure.backed_reply), which
# then counts this share of its score in their judgement (0: not tried)
FREE_HOMES = 0  # in the fall, at most this many other orders tried for the units of ours that end on a
# home centre of ours where they keep a build from being made, against any reply (0: none)
FREE_MOVES = 8  # ... each unit's best this many moves among them
FREE_COVERS = False  # ... a unit moving into an empty home centre another power could enter too (a cover)


def _valid(plan: Mapping[str, LegalOrder]) -> bool:
    return not circles(plan) and not bounces_own(plan)


def _consistent(order: LegalOrder, other: str, other_order: LegalOrder) -> bool:
    """Whether ``order`` (of one unit), if it supports the unit in ``other``, supports what that
    unit does with ``other_order``."""
    if order.kind != OrderKind.SUPPORT or order.helped is None or order.helped.province != other:
        return True
    if order.helped_holds:
        return other_order.kind != OrderKind.MOVE
    return other_order.kind == OrderKind.MOVE and province_of(other_order.target or "") == order.target


def _support_of(entry: UnitOrders, helped: str, order: LegalOrder) -> LegalOrder | None:
    """``entry``'s unit's support of what the unit in ``helped`` does with ``order``, if legal."""
    moving = order.kind == OrderKind.MOVE
    if moving and order.via_convoy:
        return None
    target = province_of(order.target or "") if moving else helped
    for legal in entry.orders:
        if (
            legal.kind == OrderKind.SUPPORT
            and legal.helped is not None
            and legal.helped.province == helped
            and legal.helped_holds != moving
            and legal.target == target
        ):
            return legal
    return None


def pairs(
    board: Board,
    entries: Mapping[str, UnitOrders],
    current: dict[str, LegalOrder],
    score: float,
    judge: Callable[[Collection[LegalOrder]], float],
    bounced: Mapping[str, int],
    view: Values,
    busy: Sequence[str],
    tried: int,
) -> tuple[dict[str, LegalOrder], float]:
    """Better ``current`` (scoring ``score``) by changing two units together (the module docstring;
    each unit's best ``tried`` moves);
    returns the plan and its score."""
    units = [p for p in busy if p in entries][:PAIR_UNITS]
    if PAIRS <= 0 or len(units) < 2:
        return current, score
    geo = geography(board.game_map)
    ranked: dict[str, list[LegalOrder]] = {}
    for prov in units:
        scored = []
        for alt in alternatives(entries[prov], current, bounced, view, tried):
            if alt.text == current[prov].text:
                continue
            trial = dict(current)
            trial[prov] = alt
            if not _valid(trial):
                continue
            judged = judge(list(trial.values()))
            if judged > score + 1e-9:  # a single change still better: made at once
                score, current = judged, trial
                continue
            scored.append((-judged, alt.text, alt))
        scored.sort(key=lambda s: (s[0], s[1]))
        ranked[prov] = [s[2] for s in scored[:PAIR_ORDERS]]
    reach = {p: set(geo.reach(e.unit)) if e.unit is not None else set() for p, e in entries.items()}
    couples = [
        (a, b)
        for i, a in enumerate(units)
        for b in units[i + 1 :]
        if b in reach[a] or a in reach[b] or reach[a] & reach[b]
    ]
    tries = 0
    for a, b in couples:
        if tries >= PAIRS:
            break
        combos: list[dict[str, LegalOrder]] = []
        opts_a = [current[a], *ranked[a]]
        opts_b = [current[b], *ranked[b]]
        for oa in opts_a:
            for ob in opts_b:
                if oa.text == current[a].text or ob.text == current[b].text:
                    continue
                combos.append({a: oa, b: ob})
        for one, other in ((a, b), (b, a)):
            for order in [current[one], *ranked[one]]:
                if order.kind == OrderKind.SUPPORT:
                    continue
                support = _support_of(entries[other], one, order)
                if support is not None and support.text != current[other].text:
                    combos.append({one: order, other: support})
        best: tuple[float, dict[str, LegalOrder]] | None = None
        seen: set[tuple[str, str]] = set()
        for changes in combos:
            key = (changes[a].text, changes[b].text)
            if key in seen:
                continue
            seen.add(key)
            if not _consistent(changes[a], b, changes[b]) or not _consistent(changes[b], a, changes[a]):
                continue
            trial = dict(current)
            trial.update(changes)
            if not _valid(trial):
                continue
            tries += 1
            judged = judge(list(trial.values()))
            if best is None or judged > best[0] + 1e-9:
                best = (judged, trial)
            if tries >= PAIRS:
                break
        if best is not None and best[0] > score + 1e-9:
            score, current = best
    return current, score


def defences(
    board: Board,
    power: str,
    entries: Mapping[str, UnitOrders],
    current: Mapping[str, LegalOrder],
    view: Values,
) -> list[dict[str, LegalOrder]]:
    """Defences worth trying (the module docstring), the most valuable province first."""
    if DEFEND <= 0:
        return []
    found: list[tuple[float, str, dict[str, LegalOrder]]] = []
    for prov, entry in sorted(entries.items()):
        threat = view.enemy_reach.get(prov, 0)
        if threat < 2:
            continue
        hold = next((o for o in entry.orders if o.kind == OrderKind.HOLD), None)
        if hold is None:
            continue
        helpers: list[tuple[str, LegalOrder]] = []
        for other, other_entry in sorted(entries.items()):
            if other == prov:
                continue
            support = _support_of(other_entry, prov, hold)
            if support is not None:
                helpers.append((other, support))
        if not helpers:
            continue
        worth = view.base.get(prov, 0.0) + view.of(entry.unit_type, prov)
        full = {prov: hold, **dict(helpers)}
        if not all(current.get(p) is o for p, o in full.items()):
            found.append((worth, prov, full))
        few = {prov: hold, **dict(helpers[: threat - 1])}
        if len(few) < len(full):
            found.append((worth - 0.001, prov + "/few", few))
    found.sort(key=lambda f: (-f[0], f[1]))
    return [f[2] for f in found[:DEFEND]]


def _losses(
    board: Board,
    power: str,
    after: Board,
) -> list[str]:
    """Our provinces the phase took from us on ``after``: units of ours dislodged, and centres of
    ours another power's unit stands on."""
    lost = {d.unit.province for d in after.dislodged.get(power, ())}
    occupant = after.occupant
    for centre in board.centers.get(power, frozenset()):
        standing = occupant.get(centre)
        if standing is not None and standing[0] != power:
            lost.add(centre)
    return sorted(lost)


def _defences_of(
    reply: Mapping[str, list[Order]],
    lost: list[str],
    entries: Mapping[str, UnitOrders],
    holds: Mapping[str, LegalOrder],
    movers: Mapping[str, list[tuple[str, LegalOrder]]],
) -> list[dict[str, LegalOrder]]:
    """For each of ``lost`` (provinces of ours ``reply`` takes): a hold of our unit there, or a move
    of ours back in, with every support our units can give it, with as many as the attack has, and
    with moves that cut the attack's supports; and those cuts alone."""
    tried: list[dict[str, LegalOrder]] = []
    for target in lost:
        attacked = any(
            isinstance(o, Move) and province_of(o.dest) == target for os in reply.values() for o in os
        )
        backing = [
            o.unit.province
            for os in reply.values()
            for o in os
            if isinstance(o, SupportMove) and province_of(o.dest) == target
        ]
        cuts: dict[str, LegalOrder] = {}
        for prov in backing:
            for mover, move in movers.get(prov, ()):
                if mover != target and mover not in cuts:
                    cuts[mover] = move
                    break
        keepers: list[tuple[str, LegalOrder]] = []  # (province, its order) that would keep target
        if target in entries:
            keepers.append((target, holds[target]))
        keepers += [(p, m) for p, m in movers.get(target, ()) if p != target]
        for prov, order in keepers[:3]:
            helpers = [
                (other, s)
                for other, entry in sorted(entries.items())
                if other not in (prov, target) and (s := _support_of(entry, prov, order)) is not None
            ]
            need = len(backing) if attacked else 1
            tried.append({prov: order, **dict(helpers)})
            if len(helpers) > need:
                tried.append({prov: order, **dict(helpers[:need])})
            used = dict(helpers[:need])
            free = {p: m for p, m in cuts.items() if p != prov and p not in used}
            if free:
                tried.append({prov: order, **used, **free})
        if cuts:
            tried.append(dict(cuts))
    return tried


def replan(
    board: Board,
    power: str,
    entries: Mapping[str, UnitOrders],
    current: dict[str, LegalOrder],
    judge_with: Callable[[Collection[LegalOrder], list[dict[str, list[Order]]]], float],
    replies: list[dict[str, list[Order]]],
    holding: Collection[str],
) -> dict[str, LegalOrder]:
    """Against the reply that scores worst for ``current``, the provinces of ours it takes: each
    defended by two or three of our units together (a hold with supports, a move back in with
    supports, moves that cut the attack's supports), at most :data:`REPLAN` tried, the best kept
    when the plan scores better (see the module docstring)."""
    if REPLAN <= 0 or not replies:
        return current
    plan = list(current.values())
    scores = [judge_with(plan, [reply]) for reply in replies]
    sources = [replies[min(range(len(replies)), key=lambda i: (scores[i], i))]]
    backed = backed_reply(board, power, replies[0]) if REPLAN_BACKED > 0 and replies[0] else None
    if backed is not None:
        sources.insert(0, backed)
    holds = {p: o for p, e in entries.items() for o in e.orders if o.kind == OrderKind.HOLD}
    movers: dict[str, list[tuple[str, LegalOrder]]] = {}
    for prov, entry in sorted(entries.items()):
        for legal in entry.orders:
            if legal.kind == OrderKind.MOVE and not legal.via_convoy:
                movers.setdefault(province_of(legal.target or ""), []).append((prov, legal))
    tried: list[dict[str, LegalOrder]] = []
    mine = [o.order for o in plan]
    for source in sources:
        outcome = adjudicate(board, {**source, power: mine}, civil_disorder=holding)
        tried += _defences_of(source, _losses(board, power, outcome.board), entries, holds, movers)
    if not tried:
        return current

    def objective(orders: Collection[LegalOrder]) -> float:
        judged = judge_with(orders, replies)
        if backed is not None:
            judged += REPLAN_BACKED * judge_with(orders, [backed])
        return judged

    # a defence that takes a unit off its move: each other unit of ours that could make that move
    # instead, as well
    more: list[dict[str, LegalOrder]] = []
    for changes in tried:
        more.append(changes)
        for prov, order in sorted(changes.items()):
            was = current.get(prov)
            if was is None or was.kind != OrderKind.MOVE or was.text == order.text:
                continue
            for mover, move in movers.get(province_of(was.target or ""), ())[:2]:
                if mover not in changes:
                    more.append({**changes, mover: move})
    score = objective(plan)
    best: tuple[float, dict[str, LegalOrder]] | None = None
    for changes in more[:REPLAN]:
        if all(current.get(p) is o for p, o in changes.items()):
            continue
        trial = settle(current, changes, holds)
        if trial is None:
            continue
        judged = objective(list(trial.values()))
        if judged > score + 1e-9 and (best is None or judged > best[0] + 1e-9):
            best = (judged, trial)
    return current if best is None else best[1]


def replan_orders(
    board: Board,
    power: str,
    legal: LegalOrders,
    plan: list[LegalOrder],
    judge_with: Callable[[Collection[LegalOrder], list[dict[str, list[Order]]]], float],
    replies: list[dict[str, list[Order]]],
    holding: Collection[str],
) -> list[LegalOrder]:
    """:func:`replan` of a plan given as a list of orders."""
    current = {o.order.unit.province: o for o in plan if o.order.unit is not None}
    entries = {e.unit.province: e for e in legal.entries if e.unit is not None and e.unit.province in current}
    found = replan(board, power, entries, current, judge_with, replies, holding)
    return plan if found is current else [found[p] for p in sorted(found)]


def _blockers(
    board: Board, power: str, mine: list[Order], reply: Mapping[str, list[Order]], holding: Collection[str]
) -> set[str]:
    """The provinces of our units that, after ``mine`` meets ``reply`` in the fall, end on a home
    centre of ours while the builds due outnumber our home centres left free."""
    outcome = adjudicate(board, {**reply, power: mine}, civil_disorder=holding)
    after = outcome.board
    owned = board.centers.get(power, frozenset())
    occupant = after.occupant
    due = len(standing_centers(after).get(power, ())) - len(after.units.get(power, ()))
    homes = set(board.game_map.home_centers.get(power, ())) & owned
    free = sum(h not in occupant for h in homes)
    if due <= free:
        return set()
    ending: dict[str, str] = {}  # where a unit of ours ends -> where it started
    for result in outcome.results:
        order = result.order
        if result.power != power or order is None or order.unit is None:
            continue
        start = order.unit.province
        end = province_of(order.dest) if isinstance(order, Move) and result.status == "succeeded" else start
        ending[end] = start
    return {ending[h] for h in homes if h in ending and (s := occupant.get(h)) is not None and s[0] == power}


def free_homes(
    board: Board,
    power: str,
    legal: LegalOrders,
    plan: list[LegalOrder],
    judge: Callable[[Collection[LegalOrder]], float],
    replies: Sequence[Mapping[str, list[Order]]],
    holding: Collection[str],
    bounced: Mapping[str, int],
    view: Values,
) -> list[LegalOrder]:
    """:data:`FREE_HOMES` (the module docstring): ``plan`` with the units that block a build tried
    on their other orders, the best kept when it betters the plan."""
    if FREE_HOMES <= 0 or board.phase.season != "F":
        return plan
    current = {o.order.unit.province: o for o in plan if o.order.unit is not None}
    mine = [o.order for o in plan]
    blocking: set[str] = set()
    for reply in replies:
        blocking |= _blockers(board, power, mine, reply, holding)
    if not blocking:
        return plan
    entries = {e.unit.province: e for e in legal.entries if e.unit is not None and e.unit.province in current}
    holds = {p: o for p, e in entries.items() for o in e.orders if o.kind == OrderKind.HOLD}
    score = judge(plan)
    tries = 0
    changed = False
    owned = board.centers.get(power, frozenset())
    for prov in sorted(blocking):
        if prov not in entries:
            continue
        order = current[prov]
        target = province_of(order.target or "") if order.kind == OrderKind.MOVE else ""
        if (
            not FREE_COVERS
            and target in owned
            and target not in board.occupant
            and view.enemy_reach.get(target, 0) > 0
        ):
            continue  # a cover of an empty home centre: kept, though it may cost (lookahead.COVER)
        best: tuple[float, dict[str, LegalOrder]] | None = None
        for alt in alternatives(entries[prov], current, bounced, view, FREE_MOVES):
            if alt.text == current[prov].text or tries >= FREE_HOMES:
                continue
            trial = settle(current, {prov: alt}, holds)
            if trial is None:
                continue
            tries += 1
            judged = judge(list(trial.values()))
            if best is None or judged > best[0] + 1e-9:
                best = (judged, trial)
        if best is not None and best[0] > score + 1e-9:
            score, current = best
            changed = True
    return [current[p] for p in sorted(current)] if changed else plan
