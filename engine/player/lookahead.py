"""The hard level's movement: candidate plans tried against the likely replies, judged by our own
adjudicator.

The candidates are the normal player's plan and variants of it drawn with more noise, and plans
aimed at one neighbour each (the normal player's plan with that power's centres worth
:data:`FOCUS_WEIGHT` times as much: a leader first, then the weakest, :data:`FOCUS` of them), all
without the normal player's discount of contested empty provinces (it weighs the bounces itself;
each a complete, legal plan: engine.player.movement). Two replies are tried: what the normal player would
order for each power whose units could meet ours (predicted once per board and shared by every
power that asks), and all of them holding; powers further away and powers in civil disorder hold.
Each candidate is adjudicated against each reply and the position it leaves is scored for us: in the
fall the centres we would own count most; in the spring the centres we stand on, could take or could
lose in the fall; always where our units stand (engine.player.values), a unit of ours dislodged
costs, one of theirs gains. The best :data:`TOP` candidates (mean score, with a share of their
worst) are then bettered, each in turn, and the best result kept: first by coordinated attacks, each
tried on its own and kept when it scores better (a move into a province another power's unit holds,
or into a centre not ours, with every support our other units can give it; with as few as outnumber
the supports the holder could get; with moves of our free units into the provinces of the holder's
units that could support it, cutting those supports); then one unit at a time: the units near
another power's try their other orders (their best moves, a hold, supports of our moves and holds)
and keep the one that scores best. In the fall, last, each empty home centre of ours that another
power could walk into and none of our moves enters gets the unit whose move there scores best,
unless that costs more than :data:`COVER` of a centre (:data:`COVER_LEADER` while a leader stands,
below), judged with a third reply too: the predicted one with our empty centres entered where a unit
of theirs can. In the fall a build that our units standing on our home centres would block costs
:data:`BLOCKED` (:data:`BLOCKED_BEHIND` while a power of :data:`BLOCKED_BEHIND_AT` centres or more
owns more than we do; a cover keeps a centre at the cost of such a build). While another power leads
(:data:`TRUCE_AT` centres or more, more than ours), the truce: a leader's centre counts 1 +
:data:`LEADER_SCORE` centres to take and another power's :data:`TRUCE_SCORE` of one, so the powers
around a leader turn on it rather than on each other. Every order is one of the legal orders; no
move is tried that would close a circle of our units or repeat a move that bounced twice.

A power of one unit plays the normal plan (nothing to coordinate; Chaos's lone units keep the
normal player's gamble). The opening position is the same in every game of a variant: its orders
depend on the seed modulo :data:`OPENINGS` and are remembered, so a close of many new games at
one deadline works them out once.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping

from engine.adjudication import adjudicate
from engine.board import Board, initial_board
from engine.legal import LegalOrder, LegalOrders, OrderKind, UnitOrders, legal_orders
from engine.mapdata import province_of
from engine.orders import Move, Order, Unit
from engine.player import coalition
from engine.player.geography import Geography, geography
from engine.player.movement import NOISE, REPEATS, movement_orders
from engine.player.openings import book_for, book_opening
from engine.player.plans import alternatives, bounces_own, circles, settle
from engine.player.values import LEADER_AT, Values, reach_by_power, values

OPENINGS = 4  # the opening's orders depend on the seed modulo this (remembered: every game's is alike)
CANDIDATES = 6  # plans of ours tried (the normal plan and variants)
VARIANT_NOISE = (0.6, 1.0, 1.5)  # the variants' noise, in turn
REPLY_NOISE = (NOISE, -1.0)  # each reply's noise (below 0: they all hold)
CENTRE = 14.0  # a centre we own after a fall
LOST_UNIT = 5.0  # a unit of ours dislodged (9.0 before 2026-11-30 night: fewer centres against the baselines)
TAKEN_UNIT = 4.0  # a unit of theirs dislodged
UNIT_PLACE = 0.3  # the share of a unit's place's value (engine.player.values) in the score
HELD = 0.8  # a centre not ours that a unit of ours stands on after a spring (of CENTRE)
OPEN = 0.4  # a centre not ours that we could take in the fall (of CENTRE)
EXPOSED = 0.5  # a centre of ours that we could lose in the fall (of CENTRE)
# Switches kept for issue 43's sanity goals (their figures: the README's built-in player). The switches
# measured off were taken out on 2026-11-30 (the README names them; its rows are their record), all but
# BOOK below: off for every power, the book's opening is still played by openings.BOOK_POWERS.
HOME_EXPOSED = 0.5  # in the fall, a home centre of ours left empty that others could enter (of CENTRE)
STOP_AT = (
    10  # a leader: another power (not in civil disorder) of this many centres or more, and more than ours
)
COVER: float | None = 1.0  # in the fall, an empty home centre of ours gets a unit unless that costs more
# (of CENTRE; None: no cover)
COVER_LEADER: float | None = 2.0  # ... this instead (of CENTRE) while TRUCE_SCORE's leader stands: a
# leader's centre then counts 1 + LEADER_SCORE centres to take, so a cover costs more in the score
COVER_GRAB = True  # ... judged with a third reply that enters our empty centres (_grab)
REPLY_CONTEST = True  # the replies discount contested empty provinces as the normal player does
TRUCE_SCORE: float | None = 0.5  # while another power leads (engine.player.values.LEADER_AT centres or
# more, and more than ours), a centre of a power that does not lead counts this share of CENTRE to take
LEADER_SCORE = 1.0  # ... and a leader's this much more
TRUCE_AT = LEADER_AT  # ... a leader: this many centres or more
BLOCKED = 14.0  # a unit of ours left on a home centre where a build is due (as much as a centre lost)
BLOCKED_BEHIND: float | None = 40.0  # ... this much instead while another power owns more centres than we do
BLOCKED_BEHIND_AT = 10  # ... a bigger power of at least this many centres
# In the spring, a unit of ours on a home centre no other power can reach, where a build due in the fall would
# have to stand (0 before 2026-12-01: the unit then had to move off in the fall, and often bounced).
SPRING_BLOCKED = 14.0
MACROS = 24  # at most this many coordinated attacks tried (a move with its supports)
REFINE = 24  # at most this many single-unit changes tried
MOVES_TRIED = 4  # a unit's best moves tried
FOCUS = 3  # plans aimed at one neighbour each (its centres worth FOCUS_WEIGHT times as much)
FOCUS_WEIGHT = 3.0
FOCUS_LEADER = True  # ... a leader (STOP_AT centres or more, more than ours) first
WORST = 0.3  # the share of a candidate's worst score in its judgement (the rest: its mean)
BOOK = False  # Spring 1901 on the Standard map: the book's opening (engine.player.openings)
TOP = 9  # the best this many candidate plans bettered, the best result kept (refine.TOP before)


def lookahead_orders(
    board: Board,
    power: str,
    legal: LegalOrders,
    rng: random.Random,
    holding: Collection[str],
    bounced: Mapping[str, int] | None,
    seed: int = 0,
) -> list[LegalOrder]:
    """``power``'s movement orders (see the module docstring)."""
    if len(legal.entries) == 1:
        # one unit: nothing to coordinate; the normal plan (with its gamble for a lone unit)
        return movement_orders(board, power, legal, rng, holding, bounced=bounced)
    if bounced or not _opening(board):
        return _look(board, power, legal, rng, holding, bounced, seed)
    book = book_opening(board, power, legal) if book_for(power, BOOK) else None
    if book is not None:
        return book
    key = (board.variant, power, seed % OPENINGS, frozenset(holding))
    hit = _OPENINGS.get(key)
    if hit is None:
        rng = random.Random(f"opening:{board.variant}:{power}:{seed % OPENINGS}")
        hit = tuple(_look(board, power, legal, rng, holding, None, seed % OPENINGS))
        if len(_OPENINGS) >= 256:
            del _OPENINGS[next(iter(_OPENINGS))]
        _OPENINGS[key] = hit
    return [legal.find(o.text) or o for o in hit]


_OPENINGS: dict[tuple[str, str, int, frozenset[str]], tuple[LegalOrder, ...]] = {}
_MEMO = True  # a plan's score against a reply remembered within one call (the same figures, sooner)
_INITIAL: dict[str, Board] = {}


def _opening(board: Board) -> bool:
    """Whether ``board`` is its variant's opening position (the same in every game)."""
    first = _INITIAL.get(board.variant)
    if first is None:
        first = _INITIAL[board.variant] = initial_board(board.variant)
    return board.phase == first.phase and board == first


def _look(
    board: Board,
    power: str,
    legal: LegalOrders,
    rng: random.Random,
    holding: Collection[str],
    bounced: Mapping[str, int] | None,
    seed: int,
) -> list[LegalOrder]:
    plans: list[list[LegalOrder]] = []
    seen: set[tuple[str, ...]] = set()

    def draw(noise: float, focus: Mapping[str, float] | None = None) -> None:
        plan = movement_orders(
            board,
            power,
            legal,
            random.Random(rng.random()),
            holding,
            bounced=bounced,
            noise=noise,
            contest=False,
            focus=focus,
        )
        key = tuple(sorted(o.text for o in plan))
        if key not in seen:
            seen.add(key)
            plans.append(plan)

    for i in range(CANDIDATES):
        draw(NOISE if i == 0 else VARIANT_NOISE[(i - 1) % len(VARIANT_NOISE)])
    for target in _targets(board, power, holding)[:FOCUS]:
        draw(NOISE, {target: FOCUS_WEIGHT})
    if len(plans) == 1:
        return plans[0]
    replies = _replies(board, power, holding, seed)
    view = values(board, power, holding)
    weights = _weights(board, power, holding)
    leader = coalition.big_leader(board, power, holding) if coalition.STOP else None

    memo: dict[tuple[frozenset[str], int], float] = {}  # (a plan's orders, a reply's id) -> its score

    def judge(plan: Collection[LegalOrder], replies: list[dict[str, list[Order]]] = replies) -> float:
        mine = [o.order for o in plan]
        texts = frozenset(o.text for o in plan)
        scores = []
        for reply in replies:
            hit = memo.get((texts, id(reply)))
            if hit is not None:
                scores.append(hit)
                continue
            orders = dict(reply)
            orders[power] = mine
            outcome = adjudicate(board, orders, civil_disorder=holding)
            score = _score(board, outcome.board, power, view, holding, weights)
            if leader is not None:
                score -= CENTRE * coalition.gains(board, outcome.board, leader, HELD)
            scores.append(score)
            if _MEMO:
                memo[(texts, id(reply))] = scores[-1]
        return (1.0 - WORST) * sum(scores) / len(scores) + WORST * min(scores)

    best: tuple[float, int] | None = None
    ranked: list[tuple[float, int]] = []
    for index, plan in enumerate(plans):
        judged = judge(plan)
        ranked.append((-judged, index))
        if best is None or judged > best[0] + 1e-9:
            best = (judged, index)
    assert best is not None
    if REFINE <= 0:
        return plans[best[1]]
    cover_judge = None
    if COVER_GRAB and board.phase.season == "F" and replies and replies[0]:
        grab = _grab(board, power, replies[0])
        if grab is not None:
            with_grab = [*replies, grab]

            def cover_judge(plan: Collection[LegalOrder]) -> float:
                return judge(plan, with_grab)

    cover = COVER_LEADER if COVER_LEADER is not None and weights else COVER

    def better(plan: list[LegalOrder], score: float) -> list[LegalOrder]:
        return _refine(board, power, legal, plan, score, judge, bounced or {}, view, cover_judge, cover=cover)

    chosen = better(plans[best[1]], best[0])
    if TOP > 1:  # the next best candidates bettered too: the best of all kept
        final = judge if cover_judge is None else cover_judge
        kept = final(chosen)
        for judged, index in sorted(r for r in ranked if r[1] != best[1])[: TOP - 1]:
            other = better(plans[index], -judged)
            if (score := final(other)) > kept + 1e-9:
                chosen, kept = other, score
    return chosen


def _covers(board: Board, power: str, view: Values, order: LegalOrder) -> bool:
    """Whether ``order`` moves into an empty centre of ``power``'s that another power could walk
    into (a cover: made at a cost, so the passes that better a plan keep it)."""
    target = province_of(order.target or "")
    return (
        order.kind == OrderKind.MOVE
        and target in board.centers.get(power, frozenset())
        and target not in board.occupant
        and view.enemy_reach.get(target, 0) > 0
    )


def _weights(board: Board, power: str, holding: Collection[str]) -> dict[str, float]:
    """Centre -> what taking it counts (of CENTRE) where that is not 1 (see :data:`TRUCE_SCORE`)."""
    if TRUCE_SCORE is None:
        return {}
    sizes = {p: len(cs) for p, cs in board.centers.items()}
    ours = sizes.get(power, 0)
    leaders = {p for p, n in sizes.items() if n >= TRUCE_AT and n > ours and p not in holding}
    if not leaders:
        return {}
    out = {}
    for other, centres in board.centers.items():
        if other == power or other in holding:
            continue
        weight = 1.0 + LEADER_SCORE if other in leaders else TRUCE_SCORE
        for centre in centres:
            out[centre] = weight
    return out


def _refine(
    board: Board,
    power: str,
    legal: LegalOrders,
    plan: list[LegalOrder],
    score: float,
    judge: Callable[[Collection[LegalOrder]], float],
    bounced: Mapping[str, int],
    view: Values,
    cover_judge: Callable[[Collection[LegalOrder]], float] | None = None,
    *,
    cover: float | None,
) -> list[LegalOrder]:
    """Better the plan one unit at a time: each unit near another power's tries its other orders
    (moves, holds, supports of our moves and holds) and keeps the one that scores best against
    the replies; at most :data:`REFINE` tries. In the fall, then, empty home centres covered
    unless that costs more than ``cover`` of a centre (None: no cover)."""
    current = {o.order.unit.province: o for o in plan if o.order.unit is not None}
    entries = {e.unit.province: e for e in legal.entries if e.unit is not None and e.unit.province in current}
    busy = sorted(entries, key=lambda p: (-view.enemy_reach.get(p, 0), p))
    busy = [p for p in busy if view.enemy_reach.get(p, 0) > 0 or _near_others(board, power, entries[p].unit)]
    owned = board.centers.get(power, frozenset())
    # a unit covering an empty centre of ours that another power could walk into keeps its move,
    # unless it stands on a centre not ours (staying may take it: the judge weighs both)
    centres = geography(board.game_map).supply_centers
    busy = [
        p for p in busy if (p in centres and p not in owned) or not _covers(board, power, view, current[p])
    ]
    holds = {p: o for p, e in entries.items() for o in e.orders if o.kind == OrderKind.HOLD}
    macros = _attacks(board, power, entries, current, bounced, view)[:MACROS]
    for changes in macros:
        trial = settle(current, changes, holds)
        if trial is None:
            continue
        judged = judge(list(trial.values()))
        if judged > score + 1e-9:
            score, current = judged, trial
    tries = 0
    for prov in busy:
        for alt in alternatives(entries[prov], current, bounced, view, MOVES_TRIED):
            if alt.text == current[prov].text:
                continue
            trial = dict(current)
            trial[prov] = alt
            if circles(trial) or bounces_own(trial):
                continue
            tries += 1
            judged = judge(list(trial.values()))
            if judged > score + 1e-9:
                score, current = judged, trial
            if tries >= REFINE:
                break
        if tries >= REFINE:
            break
    if cover is not None and board.phase.season == "F":
        if cover_judge is not None:
            score = cover_judge(list(current.values()))
        else:
            cover_judge = judge
        current = _cover(board, power, entries, current, score, cover_judge, bounced, view, holds, cover)
    return [current[p] for p in sorted(current)]


def _cover(
    board: Board,
    power: str,
    entries: Mapping[str, UnitOrders],
    current: dict[str, LegalOrder],
    score: float,
    judge: Callable[[Collection[LegalOrder]], float],
    bounced: Mapping[str, int],
    view: Values,
    holds: Mapping[str, LegalOrder],
    cover: float,
) -> dict[str, LegalOrder]:
    """In the fall, each empty home centre of ours that another power could walk into and none of
    our moves enters: the move of ours into it that scores best, made unless it scores more than
    ``cover`` of a centre below the plan (:data:`COVER` or :data:`COVER_LEADER`; the most threatened
    first)."""
    owned = board.centers.get(power, frozenset())
    occupant = board.occupant
    homes = [
        h
        for h in board.game_map.home_centers.get(power, ())
        if h in owned and h not in occupant and view.enemy_reach.get(h, 0) > 0
    ]
    covering: set[str] = set()
    for home in sorted(homes, key=lambda h: (-view.enemy_reach.get(h, 0), h)):
        if any(o.kind == OrderKind.MOVE and province_of(o.target or "") == home for o in current.values()):
            continue
        best: tuple[float, str, dict[str, LegalOrder]] | None = None
        for prov, entry in sorted(entries.items()):
            if prov in covering:
                continue
            for legal in entry.orders:
                if (
                    legal.kind != OrderKind.MOVE
                    or legal.via_convoy
                    or province_of(legal.target or "") != home
                    or bounced.get(legal.text, 0) >= REPEATS
                ):
                    continue
                trial = settle(current, {prov: legal}, holds)
                if trial is None:
                    continue
                judged = judge(list(trial.values()))
                if best is None or judged > best[0] + 1e-9:
                    best = (judged, prov, trial)
        if best is not None and best[0] >= score - cover * CENTRE:
            score, current = best[0], best[2]
            covering.add(best[1])
    return current


def _attacks(
    board: Board,
    power: str,
    entries: Mapping[str, UnitOrders],
    current: Mapping[str, LegalOrder],
    bounced: Mapping[str, int],
    view: Values,
) -> list[dict[str, LegalOrder]]:
    """Coordinated attacks worth trying, the most valuable target first: for each province one of
    our units could move into that another power's unit holds, or a centre not ours, a move by one
    of our units with every support our others could give it (and with as few as outnumber the
    supports the holder could get)."""
    owned = board.centers.get(power, frozenset())
    occupant = board.occupant
    geo = geography(board.game_map)
    reach = reach_by_power(board, geo)
    movers: dict[str, list[tuple[str, LegalOrder]]] = {}
    supports: dict[tuple[str, str], list[tuple[str, LegalOrder]]] = {}
    for prov, entry in sorted(entries.items()):
        for legal in entry.orders:
            if legal.kind == OrderKind.MOVE and not legal.via_convoy:
                if bounced.get(legal.text, 0) >= REPEATS:
                    continue
                movers.setdefault(province_of(legal.target or ""), []).append((prov, legal))
            elif (
                legal.kind == OrderKind.SUPPORT
                and legal.helped is not None
                and not legal.helped_holds
                and legal.helped.province in entries
            ):
                supports.setdefault((legal.helped.province, province_of(legal.target or "")), []).append(
                    (prov, legal)
                )
    found: list[tuple[float, str, dict[str, LegalOrder]]] = []
    for target, moves in movers.items():
        standing = occupant.get(target)
        if standing is not None and standing[0] == power:
            continue
        if standing is None and (target not in view.base or target in owned):
            continue
        worth = view.base.get(target, 0.0) + (TAKEN_UNIT if standing is not None else 0.0)
        held = 0 if standing is None else reach.get(standing[0], {}).get(target, 0)
        for mover, move in moves:
            helpers = supports.get((mover, target), [])
            if not helpers and standing is not None:
                continue
            full = {mover: move, **dict(helpers)}
            if all(current.get(p) is o for p, o in full.items()):
                continue
            found.append((worth + len(helpers) * 0.01, move.text, full))
            if standing is not None and held > 0:
                cuts = _cuts(board, geo, target, standing[0], full, movers)
                if cuts:
                    found.append((worth + 0.005, move.text + "/cut", {**full, **cuts}))
            if 0 < held < len(helpers):
                few = {mover: move, **dict(helpers[:held])}
                found.append((worth, move.text + "/few", few))
    found.sort(key=lambda f: (-f[0], f[1]))
    return [f[2] for f in found]


def _cuts(
    board: Board,
    geo: Geography,
    target: str,
    holder: str,
    busy: Mapping[str, LegalOrder],
    movers: Mapping[str, list[tuple[str, LegalOrder]]],
) -> dict[str, LegalOrder]:
    """Moves of our units not in ``busy`` into the provinces of ``holder``'s units that could support
    its unit in ``target`` (each such support is cut, unless the move comes from where the support
    goes)."""
    cuts: dict[str, LegalOrder] = {}
    for unit in sorted(board.units.get(holder, ()), key=lambda u: u.province):
        if unit.province == target or target not in geo.reach(unit):
            continue
        for prov, move in movers.get(unit.province, ()):
            if prov in busy or prov in cuts or prov == target:
                continue
            cuts[prov] = move
            break
    return cuts


def _near_others(board: Board, power: str, unit: Unit | None) -> bool:
    if unit is None:
        return False
    occupant = board.occupant
    for prov in geography(board.game_map).reach(unit):
        standing = occupant.get(prov)
        if standing is not None and standing[0] != power:
            return True
    return False


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


def _targets(board: Board, power: str, holding: Collection[str]) -> list[str]:
    """The neighbours (:func:`_neighbours`) a plan may aim at: a leader first (:func:`_leaders`), then
    the weakest (fewest centres)."""
    if FOCUS <= 0:
        return []
    leaders = _leaders(board, power, holding) if FOCUS_LEADER else frozenset()
    sizes = {p: len(cs) for p, cs in board.centers.items()}
    return sorted(_neighbours(board, power, holding), key=lambda p: (p not in leaders, sizes.get(p, 0), p))


_PREDICTED: dict[tuple[int, str, float, frozenset[str], int], tuple[Board, list[Order]]] = {}


def _replies(board: Board, power: str, holding: Collection[str], seed: int) -> list[dict[str, list[Order]]]:
    """What the powers around ``power`` would likely order: one reply for each noise of
    :data:`REPLY_NOISE`. A power's predicted plan depends on the board, the seed and the noise only
    (not on who asks), so the predictions are remembered for the board and shared by every power."""
    others = _neighbours(board, power, holding)
    replies = []
    for noise in REPLY_NOISE:
        reply: dict[str, list[Order]] = {}
        if noise < 0:  # the reply in which they all hold
            replies.append(reply)
            continue
        for other in others:
            key = (id(board), other, noise, frozenset(holding), seed)
            hit = _PREDICTED.get(key)
            if hit is None or hit[0] is not board:
                theirs = legal_orders(board, other)
                rng = reply_rng(board, other, noise, seed)
                plan = movement_orders(board, other, theirs, rng, holding, noise=noise, contest=REPLY_CONTEST)
                hit = (board, [o.order for o in plan])
                if len(_PREDICTED) >= 256:
                    del _PREDICTED[next(iter(_PREDICTED))]
                _PREDICTED[key] = hit
            if hit[1]:
                reply[other] = hit[1]
        replies.append(reply)
    leader = coalition.big_leader(board, power, holding) if coalition.AT is not None else None
    if leader is not None and leader in others and replies:
        hard = coalition.leader_plan(board, leader, holding, seed, _hard_plan)
        if coalition.EXTRA:
            replies.append({**replies[0], leader: hard})
        else:
            replies[0][leader] = hard
    return replies


def reply_rng(board: Board, other: str, noise: float, seed: int) -> random.Random:
    """The random source of ``other``'s predicted plan drawn with ``noise`` (the same whoever asks)."""
    return random.Random(f"reply:{seed}:{board.phase}:{other}:{noise}")


def _hard_plan(board: Board, power: str, holding: Collection[str], seed: int) -> list[Order]:
    """``power``'s hard plan on ``board`` as another power predicts it (engine.player.coalition):
    this module's own choice, drawn with a seed of its own (not the one ``power`` plays with)."""
    legal = legal_orders(board, power)
    if not legal.entries:
        return []
    rng = random.Random(f"leader:{seed}:{board.phase}:{power}")
    return [o.order for o in lookahead_orders(board, power, legal, rng, holding, None, seed)]


def _grab(board: Board, power: str, reply: Mapping[str, list[Order]]) -> dict[str, list[Order]] | None:
    """``reply`` with each empty centre of ours that a unit in it could move into entered by one
    (the first in the order of provinces whose move there is legal); None when none can be."""
    occupant = board.occupant
    owned = sorted(c for c in board.centers.get(power, ()) if c not in occupant)
    if not owned:
        return None
    orders = {p: list(os) for p, os in reply.items()}
    entered = {province_of(o.dest) for os in orders.values() for o in os if isinstance(o, Move)}
    used: set[str] = set()
    changed = False
    for centre in owned:
        if centre in entered:
            continue
        for other in sorted(orders):
            legal = legal_orders(board, other)
            found = None
            for i, order in enumerate(orders[other]):
                unit = order.unit
                entry = legal.entry(unit.province) if unit is not None else None
                if entry is None or unit is None or unit.province in used:
                    continue
                for cand in entry.orders:
                    if (
                        cand.kind == OrderKind.MOVE
                        and not cand.via_convoy
                        and province_of(cand.target or "") == centre
                    ):
                        found = (i, cand.order, unit.province)
                        break
                if found is not None:
                    break
            if found is not None:
                orders[other][found[0]] = found[1]
                used.add(found[2])
                entered.add(centre)
                changed = True
                break
    return orders if changed else None


def _builds_blocked(before: Board, after: Board, power: str, centres: int) -> int:
    """The builds ``power`` would owe after the fall (``centres`` then, its units after the phase)
    that its own units standing on its home centres would keep it from making. A home centre not
    ours before the fall is no block: the unit that takes it back has to stand on it, and that build
    is owed only because it does."""
    return _home_blocks(before, after, power, centres - len(after.units.get(power, ())))


def _home_blocks(
    before: Board, after: Board, power: str, due: int, guarded: Mapping[str, int] | None = None
) -> int:
    """Of ``due`` builds, how many our units standing on our home centres (ours before the phase)
    keep us from making, after our free home centres take theirs. With ``guarded`` (the most units
    of another power that could enter each province), a unit on a home centre another power could
    enter is its guard, not a block."""
    if due <= 0:
        return 0
    occupant = after.occupant
    owned = before.centers.get(power, frozenset())
    free = blocked = 0
    for home in before.game_map.home_centers.get(power, ()):
        if home not in owned:
            continue
        standing = occupant.get(home)
        if standing is None:
            free += 1
        elif standing[0] == power and not (guarded and guarded.get(home, 0)):
            blocked += 1
    return min(due, free + blocked) - min(due, free)


def _blocked_weight(board: Board, power: str) -> float:
    """What a build our units block costs: :data:`BLOCKED`, or :data:`BLOCKED_BEHIND` if more while
    another power of :data:`BLOCKED_BEHIND_AT` centres or more owns more centres than we do."""
    if BLOCKED_BEHIND is not None and _behind(board, power):
        return max(BLOCKED, BLOCKED_BEHIND)
    return BLOCKED


def _behind(board: Board, power: str) -> bool:
    """Whether another power of :data:`BLOCKED_BEHIND_AT` centres or more owns more than we do."""
    owned = len(board.centers.get(power, ()))
    return any(
        len(cs) > owned and len(cs) >= BLOCKED_BEHIND_AT for p, cs in board.centers.items() if p != power
    )


def _leaders(board: Board, power: str, holding: Collection[str]) -> frozenset[str]:
    """The other powers (not in civil disorder) of :data:`STOP_AT` centres or more, and more than ours."""
    sizes = {p: len(cs) for p, cs in board.centers.items()}
    mine = sizes.get(power, 0)
    return frozenset(
        p for p, n in sizes.items() if p != power and p not in holding and n >= STOP_AT and n > mine
    )


def _score(
    before: Board,
    after: Board,
    power: str,
    view: Values,
    holding: Collection[str],
    weights: Mapping[str, float] | None = None,
) -> float:
    """How good ``after`` (the board once the phase is adjudicated) is for ``power``: in the fall the
    centres it will own; in the spring the centres it stands on, the centres it could take in the
    fall and those of its own it could lose then; always where its units stand, and the units
    dislodged."""
    geo = geography(before.game_map)
    score = 0.0
    for unit in after.units.get(power, ()):
        score += UNIT_PLACE * view.of(unit.type, unit.province)
    lost = len(after.dislodged.get(power, ()))
    taken = sum(len(d) for p, d in after.dislodged.items() if p != power)
    score += TAKEN_UNIT * taken - LOST_UNIT * lost
    owned = before.centers.get(power, frozenset())
    occupant = after.occupant
    if before.phase.season == "F":
        homes = before.game_map.home_centers.get(power, ())
        mine = 0
        for centre in geo.supply_centers:
            standing = occupant.get(centre)
            mine += standing[0] == power if standing is not None else centre in owned
            if weights and standing is not None and standing[0] == power and centre not in owned:
                score += CENTRE * (weights.get(centre, 1.0) - 1.0)
            if standing is None and centre in owned and view.enemy_reach.get(centre, 0) > 0:
                # left empty where another power could have walked in
                score -= (HOME_EXPOSED if centre in homes else EXPOSED) * CENTRE
        blocked = _builds_blocked(before, after, power, mine)
        if blocked:
            score -= _blocked_weight(before, power) * blocked
        return score + CENTRE * mine
    reach = reach_by_power(after, geo)
    ours = reach.get(power, {})
    threat: dict[str, int] = {}
    for other, counts in reach.items():
        if other == power or other in holding:
            continue
        for prov, n in counts.items():
            if n > threat.get(prov, 0):
                threat[prov] = n
    for centre in geo.supply_centers:
        standing = occupant.get(centre)
        if centre in owned:
            if standing is None:
                if threat.get(centre, 0) > ours.get(centre, 0):
                    score -= EXPOSED * CENTRE
            elif standing[0] != power:
                score -= CENTRE * (1.0 if ours.get(centre, 0) < 2 else 0.5)
            elif threat.get(centre, 0) > 1 + ours.get(centre, 0):
                score -= EXPOSED * CENTRE
            continue
        gain = CENTRE
        if weights:
            gain *= weights.get(centre, 1.0)
        if standing is not None and standing[0] == power:
            score += HELD * gain
        elif standing is None:
            if ours.get(centre, 0) > threat.get(centre, 0):
                score += OPEN * gain
        elif standing[0] in holding:
            score += OPEN * gain * (ours.get(centre, 0) >= 2)
        elif ours.get(centre, 0) >= 2 + reach.get(standing[0], {}).get(centre, 0):
            score += OPEN * gain
    if SPRING_BLOCKED:
        score -= SPRING_BLOCKED * _spring_blocks(before, after, power, threat)
    return score


def _spring_blocks(before: Board, after: Board, power: str, threat: Mapping[str, int]) -> int:
    """After a spring: the builds the fall would owe (the centres we own and the others we stand on,
    less our units) that our units on home centres no other power can reach would keep us from
    making, should they stay."""
    owned = before.centers.get(power, frozenset())
    held = sum(
        1
        for centre, standing in after.occupant.items()
        if standing[0] == power and centre not in owned and centre in before.game_map.supply_centers
    )
    due = len(owned) + held - len(after.units.get(power, ()))
    return _home_blocks(before, after, power, due, guarded=threat)
