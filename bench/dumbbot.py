"""A DumbBot-like baseline for the built-in player's benches (bench only, never shipped).

Written here from the published description of David Norman's DumbBot, not from its code:

* Each province gets a value for the power: a centre another power owns is worth that power's
  size (attack), a centre of its own the size of the biggest power with a unit next to it
  (defence); other provinces nothing. Attack and defence are weighed by season.
* The values spread over the neighbours in rounds (each round a province's value is its own and
  its neighbours' values of the last round, over five), and a destination is worth the weighted
  sum of its rounds, plus the units of ours next to it, less the most units one other power has
  next to it.
* Movement: the units choose in random order, each its best destination, now and then the next
  best when close in value; a destination another unit of ours already takes is supported instead
  when that move meets opposition, else the unit looks further down its list.
* Retreats go to the best free destination, else disband; builds go to the best home centres
  (an army or a fleet, whichever is worth more there); removals take the worst-placed units.

Every order is taken from engine.legal.legal_orders, so it is always legal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.board import Board
from engine.legal import LegalOrder, OrderKind, UnitOrders, legal_orders
from engine.mapdata import province_of
from engine.player.geography import Geography, geography

# (attack weight, defence weight, the weights of the rounds of spreading), by season
SPRING = (700.0, 300.0, (100.0, 1000.0, 30.0, 10.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0))
FALL = (600.0, 400.0, (1000.0, 100.0, 30.0, 10.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0))
STRENGTH = 1000.0
COMPETITION = 1000.0
ALTERNATIVE = 5.0  # the chance (in percent) of taking the next best when it is within ... ...
CLOSE = 0.2  # ... this share of the best


def _units_next_to(board: Board, geo: Geography) -> dict[str, dict[str, int]]:
    """Power -> province -> its units that could move there."""
    out: dict[str, dict[str, int]] = {}
    for power, units in board.units.items():
        counts: dict[str, int] = {}
        for unit in units:
            for prov in geo.reach(unit):
                counts[prov] = counts.get(prov, 0) + 1
        out[power] = counts
    return out


def _destination_values(board: Board, power: str) -> tuple[dict[str, float], dict[str, float]]:
    """(army values, fleet values) by province."""
    geo = geography(board.game_map)
    attack, defence, rounds = FALL if board.phase.season == "F" else SPRING
    sizes = {p: len(cs) for p, cs in board.centers.items()}
    owner = {c: p for p, cs in board.centers.items() for c in cs}
    near = _units_next_to(board, geo)
    base: dict[str, float] = {}
    for centre in geo.supply_centers:
        holder = owner.get(centre)
        if holder == power:
            biggest = max(
                (sizes.get(p, 0) for p, c in near.items() if p != power and c.get(centre)), default=0
            )
            base[centre] = defence * biggest
        else:
            base[centre] = attack * (sizes.get(holder, 0) if holder else 1)
    mine = near.get(power, {})
    competition: dict[str, int] = {}
    for other, counts in near.items():
        if other == power:
            continue
        for prov, n in counts.items():
            competition[prov] = max(competition.get(prov, 0), n)
    out = []
    for graph in (geo.army_graph, geo.fleet_graph):
        current = {p: base.get(p, 0.0) for p in graph}
        total = {p: rounds[0] * v for p, v in current.items()}
        for w in rounds[1:]:
            current = {
                p: (current[p] + sum(current.get(n, 0.0) for n in ns)) / 5.0 for p, ns in graph.items()
            }
            for p, v in current.items():
                total[p] += w * v
        for p in total:
            total[p] += STRENGTH * mine.get(p, 0) - COMPETITION * competition.get(p, 0)
        out.append(total)
    return out[0], out[1]


def dumbbot_orders(board: Board, power: str, rng: random.Random) -> Sequence[LegalOrder]:
    legal = legal_orders(board, power)
    if not legal.entries:
        return ()
    army, fleet = _destination_values(board, power)

    def worth(unit_type: str | None, location: str) -> float:
        return (army if unit_type == "A" else fleet).get(province_of(location), 0.0)

    kind = board.phase.kind
    if kind == "A":
        if legal.due > 0:
            options = []
            for entry in legal.entries:
                for build in entry.of_kind(OrderKind.BUILD):
                    assert build.unit is not None
                    options.append(
                        (worth(build.unit.type, build.unit.location), build.text, entry.province, build)
                    )
            options.sort(key=lambda o: (-o[0], o[1]))
            out: list[LegalOrder] = []
            used: set[str] = set()
            for _, _, site, build in options:
                if len(out) < legal.due and site not in used:
                    used.add(site)
                    out.append(build)
            if legal.waive is not None:
                out += [legal.waive] * (legal.due - len(out))
            return out
        removals = sorted(
            (worth(e.unit.type, e.location), e.location, e.of_kind(OrderKind.REMOVE)[0])
            for e in legal.entries
            if e.unit is not None and e.of_kind(OrderKind.REMOVE)
        )
        return [r for _, _, r in removals[: -legal.due]] if legal.due < 0 else []
    if kind == "R":
        taken: set[str] = set()
        out = []
        for entry in legal.entries:
            spots = sorted(
                (
                    (worth(entry.unit_type, o.target or ""), o.text, o)
                    for o in entry.of_kind(OrderKind.RETREAT)
                ),
                key=lambda o: (-o[0], o[1]),
            )
            pick = next((o for _, _, o in spots if province_of(o.target or "") not in taken), None)
            if pick is not None:
                taken.add(province_of(pick.target or ""))
                out.append(pick)
            elif entry.of_kind(OrderKind.DISBAND):
                out.append(entry.of_kind(OrderKind.DISBAND)[0])
        return out
    return _movement(board, power, legal.entries, worth, rng)


def _movement(
    board: Board,
    power: str,
    entries: Sequence[UnitOrders],
    worth: Callable[[str | None, str], float],
    rng: random.Random,
) -> list[LegalOrder]:
    near = _units_next_to(board, geography(board.game_map))
    opposed = {p for other, counts in near.items() if other != power for p in counts}
    chosen: dict[str, LegalOrder] = {}
    going: dict[str, str] = {}  # destination province -> mover's province
    staying: set[str] = set()
    order = list(entries)
    rng.shuffle(order)
    for entry in order:
        unit = entry.unit
        if unit is None:
            continue
        here = unit.province
        options = [(worth(unit.type, unit.location), "", entry.of_kind(OrderKind.HOLD)[0])]
        for move in entry.of_kind(OrderKind.MOVE):
            if move.via_convoy:
                continue
            options.append((worth(unit.type, move.target or ""), move.text, move))
        options.sort(key=lambda o: (-o[0], o[1]))
        i = 0
        while i + 1 < len(options) and options[i][0] > 0:
            best, nxt = options[i][0], options[i + 1][0]
            if best - nxt <= CLOSE * abs(best) and rng.random() * 100 < ALTERNATIVE:
                i += 1
            else:
                break
        options = options[i:] + options[:i]
        for _, _, legal in options:
            if legal.kind == OrderKind.HOLD:
                chosen[here] = legal
                staying.add(here)
                break
            dest = province_of(legal.target or "")
            if dest in staying:
                continue
            if dest in going:
                if dest in opposed or (board.occupant.get(dest, (power,))[0] != power):
                    support = next(
                        (
                            s
                            for s in entry.of_kind(OrderKind.SUPPORT)
                            if s.helped is not None
                            and s.helped.province == going[dest]
                            and province_of(s.target or "") == dest
                        ),
                        None,
                    )
                    if support is not None:
                        chosen[here] = support
                        staying.add(here)
                        break
                continue
            standing = board.occupant.get(dest)
            if (
                standing is not None
                and standing[0] == power
                and dest not in going.values()
                and dest in chosen
            ):
                continue  # our unit there is not leaving
            chosen[here] = legal
            going[dest] = here
            break
        else:
            chosen[here] = entry.of_kind(OrderKind.HOLD)[0]
            staying.add(here)
    # a move into a province whose unit of ours stays would bounce: hold instead
    for dest, mover in list(going.items()):
        if dest in staying and chosen.get(mover) is not None and chosen[mover].kind == OrderKind.MOVE:
            holds = [e for e in entries if e.unit is not None and e.unit.province == mover]
            chosen[mover] = holds[0].of_kind(OrderKind.HOLD)[0]
    return [chosen[e.unit.province] for e in entries if e.unit is not None and e.unit.province in chosen]
