"""The hard level's builds (issue 43): an army or a fleet by where the next centres are (for France,
Germany and Russia by default; the others build as the normal player does).

The normal player (engine.player.adjustments) weighs a build by the value of its site, a fleet's
also by the best place it reaches next. With :data:`TARGETS` set, a build also counts that share of
the value of each centre not ours that the new unit could reach in up to :data:`STEPS` moves
(halved for each move after the first; an army's moves along the army graph or across one sea, as
a convoy would carry it): Germany builds an army in Berlin where the normal player builds a fleet.
Against six baselines it made France, Germany and Russia stronger and the others no stronger (the
README's table of the built-in player's switches); alone it made France's self-play solos more
frequent, which the big leader's defence (engine.player.coalition) now holds back. :data:`TARGETS_POWERS`
names the powers that build so (the others build as the normal player does). :data:`ARMY_AHEAD` and
:data:`NEAREST` were tried too. Removals stay the normal player's.

:data:`COMPLEMENT` (every power): the builds are chosen one by one, each also counting the centres
not ours it could reach, a centre the less the more of our units (and builds before it) could reach
it too. The site's worth alone builds more of what a power already has: Turkey and England, whose
home centres are all on the coast, built fleets until they had thirteen of them and one army or
none, and stopped short of a solo at 14-17 centres with Vienna, Munich or Paris out of every fleet's
reach. At 2.5 Turkey builds armies again; an England of eleven fleets still builds fleets (at 5.0 it
builds an army, but Turkey then wins 18 of 50 self-play games: the README).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection

from engine.board import Board
from engine.legal import LegalOrder, LegalOrders, OrderKind
from engine.orders import Unit
from engine.player.adjustments import NOISE, _builds, _unit_worth, adjustment_orders
from engine.player.geography import Geography, geography
from engine.player.values import Values, values

ARMY_AHEAD: float | None = None  # an army's build also counts this share of the best place it reaches next
# (None: the normal player's builds)
TARGETS: float | None = 0.5  # a build also counts this share of the centres not ours it could reach in
# up to :data:`STEPS` moves (each its value, halved for each move after the first; None: not counted)
TARGETS_POWERS: tuple[str, ...] | None = ("FRANCE", "GERMANY", "RUSSIA")  # ... only for these powers (None:
# every power; against six baselines the others gained nothing from it, the README)
STEPS = 4
NEAREST = False  # ... only the best of them (its value, halved for each move after the first)
COMPLEMENT: float | None = 2.5  # a build also counts this share of the centres not ours it could reach in up
# to :data:`COMPLEMENT_STEPS` moves, each its value halved for each move after the first and divided by one
# more than the units of ours (and builds before it) that could reach it too (None: not counted)
COMPLEMENT_STEPS = 4
COMPLEMENT_POWERS: tuple[str, ...] | None = None  # ... only for these powers (None: every power)


def _ahead_worth(board: Board, view: Values, unit: Unit) -> float:
    worth = _unit_worth(board, view, unit)
    geo = geography(board.game_map)
    if unit.type == "A" and ARMY_AHEAD:
        ahead = geo.army_graph.get(unit.province, ())
        if ahead:
            worth += ARMY_AHEAD * max(view.army.get(p, 0.0) for p in ahead)
    if TARGETS:
        owned = board.centers.get(view.power, frozenset())
        found = [
            view.base.get(prov, 0.0) * 0.5**step
            for prov, step in _reachable_centres(geo, unit.type, unit.province, owned, STEPS).items()
        ]
        if found:
            worth += TARGETS * (max(found) if NEAREST else sum(found))
    return worth


_PATHS: dict[int, tuple[Geography, dict[str, tuple[str, ...]]]] = {}


def _army_paths(geo: Geography) -> dict[str, tuple[str, ...]]:
    """The army graph with a convoy's crossing: a coastal province's seas are a step away, and a sea
    is a step from the land provinces on its shores."""
    hit = _PATHS.get(id(geo))
    if hit is not None and hit[0] is geo:
        return hit[1]
    seas = geo.waters - geo.land
    out = {p: set(ns) for p, ns in geo.army_graph.items()}
    for prov, ns in geo.fleet_graph.items():
        if prov in seas:
            out[prov] = {n for n in ns if n in geo.land}
        elif prov in geo.land:
            out.setdefault(prov, set()).update(n for n in ns if n in seas)
    found = {p: tuple(sorted(ns)) for p, ns in sorted(out.items())}
    _PATHS[id(geo)] = (geo, found)
    return found


def _reachable_centres(
    geo: Geography, unit_type: str | None, province: str, owned: Collection[str], steps: int
) -> dict[str, int]:
    """The centres not in ``owned`` that a unit of ``unit_type`` in ``province`` could reach in up to
    ``steps`` moves (an army also across a sea, as a convoy would carry it), with the moves each takes."""
    graph = _army_paths(geo) if unit_type == "A" else geo.fleet_graph
    seen = {province}
    ring = [province]
    found: dict[str, int] = {}
    for step in range(steps):
        ring = sorted({n for p in ring for n in graph.get(p, ()) if n not in seen})
        seen.update(ring)
        for prov in ring:
            if prov in geo.supply_centers and prov not in owned:
                found[prov] = step
    return found


def _complement_builds(
    board: Board, legal: LegalOrders, view: Values, rng: random.Random
) -> list[LegalOrder]:
    """The builds one by one, each by its site's worth (as :func:`_ahead_worth`, or the normal player's
    for a power not among :data:`TARGETS_POWERS`) and the centres not ours it could reach, each the less
    the more units of ours (and builds made before it) could reach it too: the power's units come to
    cover every kind of target, where the site's worth alone builds the type it already has."""
    geo = geography(board.game_map)
    owned = board.centers.get(view.power, frozenset())
    covered: Counter[str] = Counter()  # centre -> how many of our units could reach it
    for standing in board.units.get(view.power, ()):
        covered.update(
            _reachable_centres(geo, standing.type, standing.province, owned, COMPLEMENT_STEPS).keys()
        )
    by_targets = TARGETS and (TARGETS_POWERS is None or view.power in TARGETS_POWERS)
    unit_worth = _ahead_worth if by_targets else _unit_worth
    options = []
    for entry in legal.entries:
        for build in entry.of_kind(OrderKind.BUILD):
            unit = build.unit
            assert unit is not None
            worth = unit_worth(board, view, unit) * (1.0 + NOISE * rng.random())
            reach = _reachable_centres(geo, unit.type, unit.province, owned, COMPLEMENT_STEPS)
            options.append((worth, build.text, build, entry.province, reach))

    def score(option: tuple[float, str, LegalOrder, str, dict[str, int]]) -> tuple[float, str]:
        worth, text, _, _, reach = option
        extra = sum(view.base.get(c, 0.0) * 0.5**step / (1 + covered[c]) for c, step in reach.items())
        return (-(worth + (COMPLEMENT or 0.0) * extra), text)

    out: list[LegalOrder] = []
    while len(out) < legal.due and options:
        best = min(options, key=score)
        _, _, build, site, reach = best
        options = [o for o in options if o[3] != site]
        covered.update(reach.keys())
        out.append(build)
    if legal.waive is not None:
        out += [legal.waive] * (legal.due - len(out))
    return out


def hard_adjustments(
    board: Board, power: str, legal: LegalOrders, rng: random.Random, holding: Collection[str] = frozenset()
) -> list[LegalOrder]:
    """The builds (and waives) or removals ``power`` owes, as the hard level makes them."""
    if legal.due > 0 and COMPLEMENT and (COMPLEMENT_POWERS is None or power in COMPLEMENT_POWERS):
        return _complement_builds(board, legal, values(board, power, holding), rng)
    if (ARMY_AHEAD is None and TARGETS is None) or legal.due <= 0:
        return adjustment_orders(board, power, legal, rng, holding)
    if ARMY_AHEAD is None and TARGETS_POWERS is not None and power not in TARGETS_POWERS:
        return adjustment_orders(board, power, legal, rng, holding)
    return _builds(board, legal, values(board, power, holding), rng, _ahead_worth)
