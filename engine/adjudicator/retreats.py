"""Retreats: where a dislodged unit may go, and the retreat phase itself.

Where a dislodged unit may retreat is fixed when the movement phase is resolved (DATC 6.H.13,
6.H.14: supports and convoys of the movement phase are of no use later). It may go to a province
it could move to by itself, except

* a province occupied after the movement,
* the province its attacker came from - unless that attacker was convoyed (2023 rules, DATC
  4.A.5 b, 6.H.11, 6.H.12), and never to the other coast of it (DATC 6.H.15),
* a province left empty by a standoff (DATC 6.H.6; a coast of a split province counts for the
  whole province, 6.H.16; a failed convoy or a lost head-to-head battle is no standoff, 6.F.7,
  6.H.9),
* a province the variant closes (``Board.closed``: Italy while it is neutral in ww1914).

In the retreat phase two or more units retreating to one province are all disbanded (6.H.7, 6.H.8),
and a dislodged unit without a valid order is disbanded. With 1900's Cape of Good Hope
(``retreat_loses_to_others``, engine.rules) a unit retreating across a crossing is disbanded when any
other unit retreats to the same province, and gives way: the others are judged among themselves.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from engine.adjudicator import explain
from engine.adjudicator.movement import Dislodgement, MovementResolver
from engine.board import Dislodged
from engine.mapdata import GameMap, province_of
from engine.orders import Order, Retreat, Unit
from engine.rules import Crossings


def retreat_options(
    game_map: GameMap,
    unit: Unit,
    attacker_from: str,
    attacker_convoyed: bool,
    occupied: Collection[str],
    standoffs: Collection[str],
    closed: Collection[str] = (),
) -> tuple[str, ...]:
    """Locations (coasts named for fleets) where ``unit`` may retreat, sorted."""
    out = []
    for loc in game_map.neighbours(unit.type or "A", unit.location):
        prov = province_of(loc)
        if prov in occupied or prov in standoffs or prov in closed:
            continue
        if prov == attacker_from and not attacker_convoyed:
            continue
        out.append(loc)
    return tuple(sorted(out))


def dislodged_units(
    r: MovementResolver, hits: Sequence[Dislodgement], closed: Collection[str] = ()
) -> dict[int, Dislodged]:
    """Unit index -> its Dislodged entry (attacker's province and retreat options), for the
    resolver's dislodgements ``hits``; no option lies in a ``closed`` province."""
    if not hits:
        return {}
    occupied = r.provinces_after()
    out = {}
    for hit in hits:
        victim, attacker = hit.victim, hit.attacker
        unit = r.units[victim]
        near = {province_of(loc) for loc in r.game_map.neighbours(unit.type or "A", unit.location)}
        standoffs = {prov for prov in near if r.standoff_at(prov)}  # only where it might go
        options = retreat_options(
            r.game_map, unit, r.prov[attacker], r.via[attacker], occupied, standoffs, closed
        )
        out[victim] = Dislodged(r.power[victim], unit, r.prov[attacker], options)
    return out


@dataclass(frozen=True, slots=True)
class RetreatOutcome:
    """What happened to one dislodged unit in the retreat phase."""

    dislodged: Dislodged
    order: Order | None  # the valid order it had, or None
    dest: str | None  # where it went, or None when disbanded
    status: str
    reason: str


def resolve_retreats(
    dislodged: Collection[Dislodged], orders: Mapping[str, Order], crossings: Crossings | None = None
) -> list[RetreatOutcome]:
    """Resolve retreat-phase ``orders`` (dislodged unit's province -> valid Retreat or Disband);
    ``crossings``: the variant's special adjacencies, when a retreat across one gives way."""
    wanted: dict[str, list[Dislodged]] = {}
    for d in dislodged:
        order = orders.get(d.unit.province)
        if isinstance(order, Retreat):
            wanted.setdefault(province_of(order.dest), []).append(d)

    def crossing(d: Dislodged, dest: str) -> bool:
        return (
            crossings is not None
            and crossings.retreat_loses_to_others
            and crossings.across(d.unit.province, province_of(dest))
        )

    out = []
    for d in dislodged:
        order = orders.get(d.unit.province)
        if isinstance(order, Retreat):
            rivals = wanted[province_of(order.dest)]
            if len(rivals) > 1 and crossings is not None:
                if crossing(d, order.dest):
                    beaten_by = [o.unit for o in rivals if o is not d]
                    why = explain.retreat_gave_way(province_of(order.dest), beaten_by)
                    out.append(RetreatOutcome(d, order, None, explain.FAILED, why))
                    continue
                # the units crossing give way: only the others count as rivals
                rivals = [o for o in rivals if o is d or not crossing(o, _dest(orders, o))]
            if len(rivals) == 1:
                why = explain.retreated(order.dest)
                out.append(RetreatOutcome(d, order, order.dest, explain.SUCCEEDED, why))
            else:
                others = [o.unit for o in rivals if o is not d]
                why = explain.retreat_bounced(province_of(order.dest), others)
                out.append(RetreatOutcome(d, order, None, explain.FAILED, why))
        elif order is not None:
            out.append(RetreatOutcome(d, order, None, explain.SUCCEEDED, explain.disbanded()))
        else:
            why = explain.no_retreat_ordered() if d.retreats else explain.nowhere_to_retreat()
            out.append(RetreatOutcome(d, None, None, explain.SUCCEEDED, why))
    return out


def _dest(orders: Mapping[str, Order], d: Dislodged) -> str:
    order = orders[d.unit.province]
    assert isinstance(order, Retreat)
    return order.dest
