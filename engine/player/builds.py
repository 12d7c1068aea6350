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
"""

from __future__ import annotations

import random
from collections.abc import Collection

from engine.board import Board
from engine.legal import LegalOrder, LegalOrders
from engine.orders import Unit
from engine.player.adjustments import _builds, _unit_worth, adjustment_orders
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


def _ahead_worth(board: Board, view: Values, unit: Unit) -> float:
    worth = _unit_worth(board, view, unit)
    geo = geography(board.game_map)
    if unit.type == "A" and ARMY_AHEAD:
        ahead = geo.army_graph.get(unit.province, ())
        if ahead:
            worth += ARMY_AHEAD * max(view.army.get(p, 0.0) for p in ahead)
    if TARGETS:
        graph = _army_paths(geo) if unit.type == "A" else geo.fleet_graph
        owned = board.centers.get(view.power, frozenset())
        seen = {unit.province}
        ring = [unit.province]
        found = []
        for step in range(STEPS):
            ring = sorted({n for p in ring for n in graph.get(p, ()) if n not in seen})
            seen.update(ring)
            for prov in ring:
                if prov in geo.supply_centers and prov not in owned:
                    found.append(view.base.get(prov, 0.0) * 0.5**step)
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


def hard_adjustments(
    board: Board, power: str, legal: LegalOrders, rng: random.Random, holding: Collection[str] = frozenset()
) -> list[LegalOrder]:
    """The builds (and waives) or removals ``power`` owes, as the hard level makes them."""
    if (ARMY_AHEAD is None and TARGETS is None) or legal.due <= 0:
        return adjustment_orders(board, power, legal, rng, holding)
    if ARMY_AHEAD is None and TARGETS_POWERS is not None and power not in TARGETS_POWERS:
        return adjustment_orders(board, power, legal, rng, holding)
    return _builds(board, legal, values(board, power, holding), rng, _ahead_worth)
