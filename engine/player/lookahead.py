"""The hard level's movement: candidate plans tried against the likely replies, judged by our own
adjudicator.

The candidates are the normal player's plan and variants of it drawn with more noise, and plans
aimed at one neighbour each (the normal player's plan with that power's centres worth
:data:`FOCUS_WEIGHT` times as much: a leader first, then the weakest, :data:`FOCUS` of them), all
without the normal player's discount of contested empty provinces (it weighs the bounces itself;
each a complete, legal plan: engine.player.movement). Two replies are tried: what the normal player would
order for each power whose units could meet ours (predicted once per board and shared by every
power that asks), and all of them holding; powers further away and powers in civil disorder hold.
Each candidate is adjudicated against each reply and the position it leaves is scored for us: in
the fall the centres we would own count most; in the spring the centres we stand on, could take
or could lose in the fall; always where our units stand (engine.player.values), a unit of ours
dislodged costs, one of theirs gains. The best candidate (mean score, with a share of its worst)
is then bettered: first by coordinated attacks, each tried on its own and kept when it scores
better (a move into a province another power's unit holds, or into a centre not ours, with every
support our other units can give it; with as few as outnumber the supports the holder could get;
with moves of our free units into the provinces of the holder's units that could support it,
cutting those supports); then one unit at a time: the units near another power's try their other
orders (their best moves, a hold, supports of our moves and holds) and keep the one that scores
best. In the fall, last, each empty home centre of ours that another power could walk into and
none of our moves enters gets the unit whose move there scores best, unless that costs more than
:data:`COVER` of a centre (:data:`COVER_LEADER` while a leader stands, below; :data:`COVER_EVEN`,
off, while no power owns :data:`BLOCKED_BEHIND_AT` centres), judged with a third reply too: the
predicted one with our empty centres entered where a unit of theirs can. In the fall a build that our
units standing on our home centres would block costs :data:`BLOCKED` (:data:`BLOCKED_BEHIND` while a
power of :data:`BLOCKED_BEHIND_AT` centres or more owns more than we do; :data:`BLOCKED_EVEN`, off,
while no power owns that many; a cover keeps a centre at the cost of such a build). While another
power leads (:data:`TRUCE_AT` centres or more, more than ours), the truce: a leader's centre counts
1 + :data:`LEADER_SCORE` centres to take and another power's :data:`TRUCE_SCORE` of one, so the powers
around a leader turn on it rather than on each other. Every order is one of the legal orders; no move
is tried that would close a circle of our units or repeat a move that bounced twice.

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
from engine.player import coalition, refine
from engine.player.geography import Geography, geography
from engine.player.movement import NOISE, REPEATS, movement_orders
from engine.player.openings import book_for, book_opening
from engine.player.plans import alternatives, bounces_own, circles, settle
from engine.player.pressure import aimed_reply, backed_reply, solo
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
# Switches tried for issue 43's sanity goals (their figures: the README's built-in player); all off
# but COVER and COVER_GRAB (on since they met the empty home centres' goal), BLOCKED_BEHIND (since
# 2026-11-30) and, since the truce of 2026-11-30 (France's solos), TRUCE_SCORE, LEADER_SCORE and
# COVER_LEADER.
HOME_EXPOSED = 0.5  # in the fall, a home centre of ours left empty that others could enter (of CENTRE)
STOP = 0.0  # a leader's centre after a fall costs this (of CENTRE); in a spring, taking one gains this more
STOP_AT = (
    10  # a leader: another power (not in civil disorder) of this many centres or more, and more than ours
)
COVER: float | None = 1.0  # in the fall, an empty home centre of ours gets a unit unless that costs more
# (of CENTRE; None: no cover)
COVER_LEADER: float | None = 2.0  # ... this instead (of CENTRE) while TRUCE_SCORE's leader stands: a
# leader's centre then counts 1 + LEADER_SCORE centres to take, so a cover costs more in the score
COVER_EVEN: float | None = None  # ... this instead while no power owns BLOCKED_BEHIND_AT centres or more
COVER_UPTO: int | None = None  # ... only while we own at most this many centres
COVER_STRONGER = False  # ... only where a power at least as big as ours could walk in
COVER_GRAB = True  # ... judged with a third reply that enters our empty centres (_grab)
HOME_REFINE = False  # in the fall, units ending on a home centre of ours try their other orders first
REPLY_CONTEST = True  # the replies discount contested empty provinces as the normal player does
GRAB_HOMES = False  # the grab reply (COVER_GRAB, GRAB) also enters the home centres of ours our units stand
# on: a unit staying there bounces it, one moving out leaves the centre taken
GRAB = False  # in the fall, a third reply: the predicted one with our empty centres entered where they can be
TRUCE_SCORE: float | None = 0.5  # while another power leads (engine.player.values.LEADER_AT centres or
# more, and more than ours), a centre of a power that does not lead counts this share of CENTRE to take
LEADER_SCORE = 1.0  # ... and a leader's this much more
TRUCE_AT = LEADER_AT  # ... a leader: this many centres or more
BUILD_SAFE: float | None = None  # in a fall with more builds due than free home centres, a unit that would
# stand on a home centre of ours moves off where no move can bounce, unless that costs more (of CENTRE)
BUILD_HOPE = True  # ... counting the builds due should every move of ours succeed (else: after the reply)
UNBLOCK: float | None = None  # in the fall, with more builds due than home centres left free, a unit of ours
# that would end on a home centre (staying, moving off where it may bounce, or moving onto one another unit
# of ours leaves) tries its orders that end off our home centres, judged with the third reply too
# (COVER_GRAB), made unless that costs more than this (of CENTRE); None: not tried
UNBLOCK_SAFE = True  # ... a move off only into a province no other power's unit could enter (no bounce)
ALLY = 0  # while a leader (STOP_AT centres or more, more than ours) stands, at most this many supports of
# another power's predicted move into a leader's province or centre tried (the coalition's support)
BLOCKED = 14.0  # a unit of ours left on a home centre where a build is due (as much as a centre lost)
BLOCKED_BEHIND: float | None = 40.0  # ... this much instead while another power owns more centres than we do
BLOCKED_BEHIND_AT = 10  # ... a bigger power of at least this many centres
BLOCKED_EVEN: float | None = None  # ... this much instead while no power owns BLOCKED_BEHIND_AT or more
BLOCKED_LEAD: float | None = None  # ... this much instead while no other power owns more centres than we do
BLOCKED_LEAD_AT = 10  # ... and we own at least this many
BLOCKED_MARGIN: float | None = None  # in the fall, a build one more centre of ours would bring that a unit
# of ours staying on a home centre (there at the fall's start too) would block costs this share of the above
BLOCKED_MARGIN_ALL = False  # ... a unit moving onto a home centre too
SWEEP = 0  # in the fall, while the plan leaves a build blocked by our units against a reply, at most this
# many rounds in which every unit of ours but a cover tries every other order (not only the busy units, not
# only REFINE tries) and the one change the judge likes best is made, if better than the plan
SWEEP_SLACK: float | None = None  # ... only changes that leave fewer builds blocked over the replies, the
# best of them made unless it costs more than this (of CENTRE) below the plan
SWEEP_KEEP = False  # ... only changes that own as many centres after each reply (a build freed, not a
# capture given up)
BLOCKED_KEEPS_DUE = False  # a fall's builds blocked counted as if the centres of ours another power takes in
# it were still ours: a centre lost does not pay for itself by freeing a build (else a plan leaving a home
# centre open scores a blocked build less against the reply that takes it)
MACROS = 24  # at most this many coordinated attacks tried (a move with its supports)
REFINE = 24  # at most this many single-unit changes tried
MOVES_TRIED = 4  # a unit's best moves tried
FOCUS = 3  # plans aimed at one neighbour each (its centres worth FOCUS_WEIGHT times as much)
FOCUS_WEIGHT = 3.0
FOCUS_LEADER = True  # ... a leader (STOP_AT centres or more, more than ours) first
FALL = 0.0  # in a spring, a candidate also counts this share of the score of the fall that can follow it
# (our normal plan then, against FALL_REPLY, after the predicted reply to the spring plan; 0: not tried)
FALL_REPLY = False  # ... against the normal player's predicted fall plans of our neighbours (else: all hold)
WORST = 0.3  # the share of a candidate's worst score in its judgement (the rest: its mean)
BOOK = False  # Spring 1901 on the Standard map: the book's opening (engine.player.openings)
SOLO = 0.0  # a phase that ends in our solo scores this much more (another power's: this much less; of CENTRE)
BACKED = ""  # the seasons ("S", "F", "SF") with one more reply: the predicted one with each attack on a
# province of ours supported by the attacker's other units (engine.player.pressure.backed_reply)
AIMED = 0.0  # a third reply: our neighbours' predicted plans with our centres worth this many times as much
# (engine.player.pressure; 0: not tried)


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
            scores.append(score + solo(outcome, power, SOLO * CENTRE))
            if _MEMO:
                memo[(texts, id(reply))] = scores[-1]
        return (1.0 - WORST) * sum(scores) / len(scores) + WORST * min(scores)

    best: tuple[float, int] | None = None
    ranked: list[tuple[float, int]] = []
    for index, plan in enumerate(plans):
        judged = judge(plan)
        if FALL and board.phase.season == "S":
            judged += FALL * _fall(board, power, plan, replies[0], holding, seed)
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

    allied = _allied(board, power, legal, holding, replies[0]) if ALLY > 0 and replies else []
    if coalition.SUPPORTS > 0 and replies and (big := coalition.big_leader(board, power, holding)):
        allied += coalition.hold_supports(board, power, legal, big, holding, replies[0])
    cover = COVER_LEADER if COVER_LEADER is not None and weights else COVER
    if COVER_EVEN is not None and _even(board):
        cover = COVER_EVEN

    def better(plan: list[LegalOrder], score: float) -> list[LegalOrder]:
        return _refine(
            board, power, legal, plan, score, judge, bounced or {}, view, cover_judge, allied, cover=cover
        )

    chosen = better(plans[best[1]], best[0])
    if refine.TOP > 1:  # the next best candidates bettered too: the best of all kept
        final = judge if cover_judge is None else cover_judge
        kept = final(chosen)
        for judged, index in sorted(r for r in ranked if r[1] != best[1])[: refine.TOP - 1]:
            other = better(plans[index], -judged)
            if (score := final(other)) > kept + 1e-9:
                chosen, kept = other, score
    if refine.REPLAN > 0:
        chosen = refine.replan_orders(board, power, legal, chosen, judge, replies, holding)
    fall_judge = judge if cover_judge is None else cover_judge  # the fall's passes judge with the grab too
    fall_replies = replies if cover_judge is None else with_grab
    if refine.FREE_HOMES > 0 and board.phase.season == "F":
        chosen = refine.free_homes(
            board, power, legal, chosen, fall_judge, fall_replies, holding, bounced or {}, view
        )
    if UNBLOCK is not None and board.phase.season == "F":
        chosen = _unblock(board, power, legal, chosen, fall_judge, bounced or {}, view, replies[0], holding)
    if BUILD_SAFE is not None and board.phase.season == "F":
        chosen = _free_homes(board, power, legal, chosen, judge, bounced or {}, view, replies[0], holding)
    if SWEEP > 0 and board.phase.season == "F":
        chosen = _sweep(board, power, legal, chosen, fall_judge, fall_replies, holding, bounced or {}, view)
    return chosen


def _sweep(
    board: Board,
    power: str,
    legal: LegalOrders,
    plan: list[LegalOrder],
    judge: Callable[[Collection[LegalOrder]], float],
    replies: list[dict[str, list[Order]]],
    holding: Collection[str],
    bounced: Mapping[str, int],
    view: Values,
) -> list[LegalOrder]:
    """In the fall, while ``plan`` leaves a build blocked by our own units against one of the
    ``replies``: every unit of ours but a cover of an empty centre tries each of its other orders
    (moves but convoyed ones and those that bounced too often, holds, supports of our own orders)
    and the one change the judge likes best is made if it betters the plan; with
    :data:`SWEEP_SLACK`, among the changes that leave fewer builds blocked over the replies (with
    :data:`SWEEP_KEEP`, and as many centres owned after each), the best unless it costs more than
    that share of a centre. At most :data:`SWEEP` rounds.

    Why: most builds lost in self-play are the builds a fall's captures bring, blocked by units
    staying on home centres that the busy units' refinement never reaches; a blocked build weighed
    above a centre instead makes captures and covers rarer, which costs strength."""
    current = {o.order.unit.province: o for o in plan if o.order.unit is not None}
    entries = {
        e.unit.province: e
        for e in legal.entries
        if e.unit is not None
        and e.unit.province in current
        and not _covers(board, power, view, current[e.unit.province])
    }
    score = judge(list(current.values()))

    def blocked(orders: Mapping[str, LegalOrder]) -> tuple[int, list[int]]:
        """The builds blocked summed over the replies, and the centres owned after each."""
        mine = [o.order for o in orders.values()]
        count, owned_after = 0, []
        for reply in replies:
            after = adjudicate(board, {**reply, power: mine}, civil_disorder=holding).board
            owned_after.append(_owned_after(board, after, power))
            count += _builds_blocked(board, after, power, owned_after[-1])
        return count, owned_after

    for _ in range(SWEEP):
        now, kept = blocked(current)
        if not now:
            break
        floor = score if SWEEP_SLACK is None else score - SWEEP_SLACK * CENTRE
        best: tuple[float, dict[str, LegalOrder]] | None = None
        for prov in sorted(entries):
            for alt in alternatives(entries[prov], current, bounced, view, len(entries[prov].orders)):
                if alt.text == current[prov].text:
                    continue
                trial = dict(current)
                trial[prov] = alt
                if circles(trial) or bounces_own(trial):
                    continue
                if SWEEP_SLACK is not None:
                    count, owned_after = blocked(trial)
                    fewer = any(a < b for a, b in zip(owned_after, kept, strict=True))
                    if count >= now or (SWEEP_KEEP and fewer):
                        continue
                judged = judge(list(trial.values()))
                if judged > (floor if best is None else best[0]) + 1e-9:
                    best = (judged, trial)
        if best is None:
            break
        score, current = best
    return [current[p] for p in sorted(current)]


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


def _owned_after(before: Board, after: Board, power: str) -> int:
    """The centres ``power`` will own after the fall ``before`` became ``after``."""
    owned = before.centers.get(power, frozenset())
    mine = 0
    for centre in geography(before.game_map).supply_centers:
        standing = after.occupant.get(centre)
        mine += standing[0] == power if standing is not None else centre in owned
    return mine


def _fall(
    board: Board,
    power: str,
    plan: Collection[LegalOrder],
    reply: Mapping[str, list[Order]],
    holding: Collection[str],
    seed: int,
) -> float:
    """The score (:func:`_score`) of the fall that can follow the spring ``plan`` met by ``reply``:
    our normal plan then (dislodged units disbanded) against all holding, or against our neighbours'
    predicted plans (:data:`FALL_REPLY`)."""
    outcome = adjudicate(board, {**reply, power: [o.order for o in plan]}, civil_disorder=holding)
    after = outcome.board
    if outcome.next_phase is None:
        return CENTRE * len(after.centers.get(power, ()))
    if after.phase.kind == "R":
        retreat = adjudicate(after, {}, civil_disorder=holding)
        if retreat.next_phase is None:
            return CENTRE * len(retreat.board.centers.get(power, ()))
        after = retreat.board
    if after.phase.kind != "M" or after.phase.season != "F":
        return 0.0
    legal = legal_orders(after, power)
    if not legal.entries:
        return 0.0
    rng = random.Random(f"fall:{seed}:{after.phase}:{power}")
    mine = movement_orders(after, power, legal, rng, holding, contest=False)
    theirs = _replies(after, power, holding, seed)[0] if FALL_REPLY else {}
    result = adjudicate(after, {**theirs, power: [o.order for o in mine]}, civil_disorder=holding)
    return _score(after, result.board, power, values(after, power, holding), holding)


def _builds_due(
    board: Board,
    power: str,
    plan: list[LegalOrder],
    reply: Mapping[str, list[Order]],
    holding: Collection[str],
    *,
    hope: bool,
) -> int:
    """The builds due to ``power`` after this fall: its centres after ``plan`` meets the predicted
    ``reply`` less its units then; with ``hope``, at least as many as should every move of ours succeed."""
    owned = board.centers.get(power, frozenset())
    outcome = adjudicate(board, {**reply, power: [o.order for o in plan]}, civil_disorder=holding)
    due = _owned_after(board, outcome.board, power) - len(outcome.board.units.get(power, ()))
    if hope:
        geo = geography(board.game_map)
        gains = {province_of(o.target or "") for o in plan if o.kind == OrderKind.MOVE} & geo.supply_centers
        due = max(due, len(owned | gains) - len(board.units.get(power, ())))
    return due


def _homes_and_due(
    board: Board,
    power: str,
    plan: list[LegalOrder],
    reply: Mapping[str, list[Order]],
    holding: Collection[str],
    *,
    hope: bool,
) -> tuple[set[str], int]:
    """Our home centres we own, and the builds due after ``plan`` (:func:`_builds_due`; 0 without
    such a home: nothing to work out)."""
    homes = set(board.game_map.home_centers.get(power, ())) & board.centers.get(power, frozenset())
    if not homes:
        return homes, 0
    return homes, _builds_due(board, power, plan, reply, holding, hope=hope)


def _homes_short(board: Board, power: str, homes: set[str], due: int, ours: set[str]) -> int:
    """How many more of ``homes`` the ``due`` builds need free: those another power's unit stands on
    and ``ours`` (those a unit of ours ends on) take no build."""
    taken = {h for h in homes if (s := board.occupant.get(h)) is not None and s[0] != power}
    return due - len(homes - taken - ours)


def _free_homes(
    board: Board,
    power: str,
    legal: LegalOrders,
    plan: list[LegalOrder],
    judge: Callable[[Collection[LegalOrder]], float],
    bounced: Mapping[str, int],
    view: Values,
    reply: Mapping[str, list[Order]],
    holding: Collection[str],
) -> list[LegalOrder]:
    """In the fall, when the builds due after the predicted reply outnumber the home centres of ours
    no unit of ours may end on (moving onto it, staying on it, or moving off where the move could
    bounce): those units try their other orders that end off our home centres and may bounce less
    (a move off a home where it stays; a move nobody else could meet where it could bounce; a hold
    or another move for a unit moving onto one), the best of them each, made unless it costs more
    than :data:`BUILD_SAFE` of a centre, until enough home centres are free."""
    assert BUILD_SAFE is not None
    homes, due = _homes_and_due(board, power, plan, reply, holding, hope=BUILD_HOPE)
    if not homes or due <= 0:
        return plan
    current = {o.order.unit.province: o for o in plan if o.order.unit is not None}
    occupant = board.occupant

    def risk(target: str) -> int:
        """How likely a move into ``target`` is to bounce: 2 another power stands there, 1 another
        power could enter it, 0 neither."""
        standing = occupant.get(target)
        if standing is not None and standing[0] != power:
            return 2
        return 1 if view.enemy_reach.get(target, 0) > 0 else 0

    def blocks(prov: str, order: LegalOrder) -> str | None:
        """The home centre of ours the unit in ``prov`` may end on with ``order``."""
        if order.kind == OrderKind.MOVE:
            target = province_of(order.target or "")
            if target in homes:
                return target
            return prov if prov in homes and risk(target) > 0 else None
        return prov if prov in homes else None

    blocked = {p: h for p, o in current.items() if (h := blocks(p, o)) is not None}
    need = _homes_short(board, power, homes, due, set(blocked.values()))
    if need <= 0:
        return plan
    entries = {e.unit.province: e for e in legal.entries if e.unit is not None}
    score = judge(list(current.values()))
    for prov in sorted(blocked, key=lambda p: (current[p].kind == OrderKind.MOVE, p)):
        if need <= 0:
            break
        entry = entries.get(prov)
        order = current[prov]
        if entry is None:
            continue
        was = risk(province_of(order.target or "")) if order.kind == OrderKind.MOVE and prov in homes else 3
        best: tuple[float, str, LegalOrder] | None = None
        for alt in entry.orders:
            if alt.text == order.text or blocks(prov, alt) is not None:
                continue
            if alt.kind == OrderKind.MOVE:
                if alt.via_convoy or bounced.get(alt.text, 0) >= REPEATS:
                    continue
                if prov in homes and risk(province_of(alt.target or "")) >= was:
                    continue
            elif alt.kind != OrderKind.HOLD:
                continue
            trial = dict(current)
            trial[prov] = alt
            if circles(trial) or bounces_own(trial):
                continue
            judged = judge(list(trial.values()))
            if best is None or judged > best[0] + 1e-9:
                best = (judged, alt.text, alt)
        if best is not None and best[0] >= score - BUILD_SAFE * CENTRE:
            current[prov] = best[2]
            score = best[0]
            need -= 1
    return [current[p] for p in sorted(current)]


def _unblock(
    board: Board,
    power: str,
    legal: LegalOrders,
    plan: list[LegalOrder],
    judge: Callable[[Collection[LegalOrder]], float],
    bounced: Mapping[str, int],
    view: Values,
    reply: Mapping[str, list[Order]],
    holding: Collection[str],
) -> list[LegalOrder]:
    """In the fall, when the builds due (should our moves succeed, or after the predicted reply)
    outnumber the home centres of ours left free, the units that would end on one (staying there,
    moving off where the move may bounce, or moving onto one that another unit of ours leaves) try
    their orders that end off our home centres: a move off into a province no other power's unit
    could enter (:data:`UNBLOCK_SAFE`), a hold or another move for a unit moving onto one; the best
    of each is made unless it costs more than :data:`UNBLOCK` of a centre, until enough are free."""
    assert UNBLOCK is not None
    homes, due = _homes_and_due(board, power, plan, reply, holding, hope=True)
    if not homes or due <= 0:
        return plan
    occupant = board.occupant
    current = {o.order.unit.province: o for o in plan if o.order.unit is not None}

    def risky(target: str) -> bool:
        standing = occupant.get(target)
        if standing is not None:
            return standing[0] != power or target not in current or current[target].kind != OrderKind.MOVE
        return view.enemy_reach.get(target, 0) > 0

    def ends(prov: str, order: LegalOrder) -> str | None:
        """The home centre of ours the unit in ``prov`` may end on with ``order``."""
        if order.kind == OrderKind.MOVE:
            target = province_of(order.target or "")
            if target in homes:
                return target
            return prov if prov in homes and risky(target) else None
        return prov if prov in homes else None

    ending = {p: h for p, o in current.items() if (h := ends(p, o)) is not None}
    need = _homes_short(board, power, homes, due, set(ending.values()))
    if need <= 0:
        return plan
    entries = {e.unit.province: e for e in legal.entries if e.unit is not None and e.unit.province in current}
    holds = {p: o for p, e in entries.items() for o in e.orders if o.kind == OrderKind.HOLD}
    score = judge(list(current.values()))

    def candidate(prov: str) -> bool:
        order = current[prov]
        if order.kind != OrderKind.MOVE or prov in homes:
            return True
        target = province_of(order.target or "")
        # a move onto a home centre another unit of ours leaves (not a cover of an empty one)
        return target in occupant and occupant[target][0] == power

    for prov in sorted(
        (p for p in ending if candidate(p)), key=lambda p: (current[p].kind == OrderKind.MOVE, p)
    ):
        if need <= 0:
            break
        entry = entries.get(prov)
        if entry is None:
            continue
        best: tuple[float, str, dict[str, LegalOrder]] | None = None
        for alt in entry.orders:
            if alt.text == current[prov].text or ends(prov, alt) is not None:
                continue
            if alt.kind == OrderKind.MOVE:
                if alt.via_convoy or bounced.get(alt.text, 0) >= REPEATS:
                    continue
                target = province_of(alt.target or "")
                if (
                    prov in homes
                    and UNBLOCK_SAFE
                    and (target in occupant or view.enemy_reach.get(target, 0) > 0)
                ):
                    continue
            elif alt.kind != OrderKind.HOLD:
                continue
            trial = settle(current, {prov: alt}, holds)
            if trial is None:
                continue
            judged = judge(list(trial.values()))
            if best is None or judged > best[0] + 1e-9:
                best = (judged, alt.text, trial)
        if best is not None and best[0] >= score - UNBLOCK * CENTRE:
            score, current = best[0], best[2]
            need -= 1
    return [current[p] for p in sorted(current)]


def _allied(
    board: Board,
    power: str,
    legal: LegalOrders,
    holding: Collection[str],
    reply: Mapping[str, list[Order]],
) -> list[LegalOrder]:
    """While a leader stands (:func:`_leaders`): our supports of another power's predicted moves
    (``reply``) into a province a leader's unit holds or a leader's centre, at most :data:`ALLY`,
    in the order of their texts."""
    leaders = _leaders(board, power, holding)
    if not leaders:
        return []
    occupant = board.occupant
    theirs = {c for p in leaders for c in board.centers.get(p, ())}
    moves: dict[str, str] = {}
    for other, orders in sorted(reply.items()):
        if other in leaders or other == power:
            continue
        for order in orders:
            if isinstance(order, Move):
                target = province_of(order.dest)
                standing = occupant.get(target)
                if (standing is not None and standing[0] in leaders) or target in theirs:
                    moves[order.unit.province] = target
    if not moves:
        return []
    found = []
    for entry in legal.entries:
        for option in entry.orders:
            if (
                option.kind == OrderKind.SUPPORT
                and option.helped is not None
                and not option.helped_holds
                and moves.get(option.helped.province) == province_of(option.target or "")
            ):
                found.append(option)
    return sorted(found, key=lambda o: o.text)[:ALLY]


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
    allied: Collection[LegalOrder] = (),
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
    if HOME_REFINE and board.phase.season == "F":
        # units that would end on a home centre of ours (where a build may be due) try first
        homes = set(board.game_map.home_centers.get(power, ())) & owned

        def ends_home(p: str) -> bool:
            o = current[p]
            return (province_of(o.target or "") if o.kind == OrderKind.MOVE else p) in homes

        first = [p for p in sorted(entries) if ends_home(p)]
        busy = first + [p for p in busy if p not in first]
    holds = {p: o for p, e in entries.items() for o in e.orders if o.kind == OrderKind.HOLD}
    macros = _attacks(board, power, entries, current, bounced, view)[:MACROS]
    for changes in macros + refine.defences(board, power, entries, current, view):
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
    current, score = refine.pairs(board, entries, current, score, judge, bounced, view, busy, MOVES_TRIED)
    for alt in allied:
        unit = alt.order.unit
        if unit is None or unit.province not in current or current[unit.province].text == alt.text:
            continue
        trial = dict(current)
        trial[unit.province] = alt
        judged = judge(list(trial.values()))
        if judged > score + 1e-9:
            score, current = judged, trial
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
    ``cover`` of a centre below the plan (:data:`COVER`, :data:`COVER_LEADER` or :data:`COVER_EVEN`;
    the most threatened first)."""
    owned = board.centers.get(power, frozenset())
    occupant = board.occupant
    homes = [
        h
        for h in board.game_map.home_centers.get(power, ())
        if h in owned and h not in occupant and view.enemy_reach.get(h, 0) > 0
    ]
    if COVER_UPTO is not None and len(owned) > COVER_UPTO:
        return current
    if COVER_STRONGER:
        sizes = {p: len(cs) for p, cs in board.centers.items()}
        reach = reach_by_power(board, geography(board.game_map))
        homes = [
            h
            for h in homes
            if any(
                reach.get(other, {}).get(h, 0) > 0 and sizes.get(other, 0) >= len(owned)
                for other in board.units
                if other != power
            )
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
                rng = random.Random(f"reply:{seed}:{board.phase}:{other}:{noise}")
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
    if GRAB and board.phase.season == "F" and replies and replies[0]:
        grab = _grab(board, power, replies[0])
        if grab is not None:
            replies.append(grab)
    if BACKED and board.phase.season in BACKED and replies and replies[0]:
        backed = backed_reply(board, power, replies[0])
        if backed is not None:
            replies.append(backed)
    if AIMED > 0 and others:
        replies.append(aimed_reply(board, power, others, holding, seed, AIMED, contest=REPLY_CONTEST))
    return replies


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
    (the first in the order of provinces whose move there is legal); with :data:`GRAB_HOMES`, our
    home centres our units stand on too; None when none can be."""
    occupant = board.occupant
    homes = set(board.game_map.home_centers.get(power, ())) if GRAB_HOMES else set()
    owned = sorted(c for c in board.centers.get(power, ()) if c not in occupant or c in homes)
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
    that its own units standing on its home centres would keep it from making."""
    due = centres - len(after.units.get(power, ()))
    if due <= 0:
        return 0
    occupant = after.occupant
    free = blocked = 0
    for home in before.game_map.home_centers.get(power, ()):
        standing = occupant.get(home)
        if standing is not None and standing[0] == power:
            blocked += 1
        elif standing is None and home in before.centers.get(power, ()):
            free += 1
    return min(due, free + blocked) - min(due, free)


def _stayed_home(before: Board, after: Board, power: str) -> int:
    """How many of ``power``'s home centres its units stand on both before and after the phase."""
    count = 0
    for home in before.game_map.home_centers.get(power, ()):
        there, standing = before.occupant.get(home), after.occupant.get(home)
        count += there is not None and standing is not None and there[0] == standing[0] == power
    return count


def _blocked_weight(board: Board, power: str) -> float:
    """What a build our units block costs: :data:`BLOCKED`, or :data:`BLOCKED_EVEN` if more while no
    power owns :data:`BLOCKED_BEHIND_AT` centres or more, or :data:`BLOCKED_BEHIND` if more while
    another power of :data:`BLOCKED_BEHIND_AT` centres or more owns more centres than we do, or
    :data:`BLOCKED_LEAD` if more while we own :data:`BLOCKED_LEAD_AT` centres or more and no other
    power owns more."""
    weight = BLOCKED
    owned = len(board.centers.get(power, ()))
    if BLOCKED_EVEN is not None and _even(board):
        weight = max(weight, BLOCKED_EVEN)
    if BLOCKED_BEHIND is not None and _behind(board, power):
        weight = max(weight, BLOCKED_BEHIND)
    if (
        BLOCKED_LEAD is not None
        and owned >= BLOCKED_LEAD_AT
        and all(len(cs) <= owned for p, cs in board.centers.items() if p != power)
    ):
        weight = max(weight, BLOCKED_LEAD)
    return weight


def _behind(board: Board, power: str) -> bool:
    """Whether another power of :data:`BLOCKED_BEHIND_AT` centres or more owns more than we do."""
    owned = len(board.centers.get(power, ()))
    return any(
        len(cs) > owned and len(cs) >= BLOCKED_BEHIND_AT for p, cs in board.centers.items() if p != power
    )


def _even(board: Board) -> bool:
    """Whether no power owns :data:`BLOCKED_BEHIND_AT` centres or more (a board without a big power)."""
    return all(len(cs) < BLOCKED_BEHIND_AT for cs in board.centers.values())


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
    leaders = _leaders(before, power, holding) if STOP else frozenset()
    owner = {c: p for p, cs in before.centers.items() for c in cs} if leaders else {}
    if before.phase.season == "F":
        homes = before.game_map.home_centers.get(power, ())
        mine = taken = 0
        for centre in geo.supply_centers:
            standing = occupant.get(centre)
            mine += standing[0] == power if standing is not None else centre in owned
            taken += standing is not None and standing[0] != power and centre in owned
            if weights and standing is not None and standing[0] == power and centre not in owned:
                score += CENTRE * (weights.get(centre, 1.0) - 1.0)
            if standing is None and centre in owned and view.enemy_reach.get(centre, 0) > 0:
                # left empty where another power could have walked in
                score -= (HOME_EXPOSED if centre in homes else EXPOSED) * CENTRE
        blocked = _builds_blocked(before, after, power, mine + taken if BLOCKED_KEEPS_DUE else mine)
        if blocked:
            score -= _blocked_weight(before, power) * blocked
        if BLOCKED_MARGIN is not None:
            margin = min(
                _builds_blocked(before, after, power, mine + 1) - blocked,
                len(homes) if BLOCKED_MARGIN_ALL else _stayed_home(before, after, power),
            )
            if margin > 0:
                score -= BLOCKED_MARGIN * _blocked_weight(before, power) * margin
        if leaders:
            kept = 0
            for centre in geo.supply_centers:
                standing = occupant.get(centre)
                kept += (standing[0] if standing is not None else owner.get(centre)) in leaders
            score -= STOP * CENTRE * kept
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
        gain = CENTRE * (1.0 + STOP) if owner.get(centre) in leaders else CENTRE
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
    return score
