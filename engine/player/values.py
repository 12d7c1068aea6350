"""How much each province is worth to one power now: the built-in player's view of the board.

A supply centre has a value of its own: a neutral one is worth taking, another power's is worth
more the bigger that power is (and less the better it is defended), one's own is worth guarding in
proportion to the units that could walk into it. Stop the leader: while another power holds
:data:`LEADER_AT` centres or more (and more than this one), its centres are worth much more, and
those of the powers that do not lead half as much (they turn on the leader instead of each other).
Other provinces start at nothing. The values then spread to the neighbours, a few rounds along the
army graph and along the fleet graph apart, so a province next to good targets is itself worth
standing on; the rounds are weighed by season (in the fall, when centres change hands, the centre
itself counts most; in the spring, being next to it).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from engine.board import Board
from engine.player.geography import Geography, geography

# The weights of the base values (tuned with bench/player.py).
NEUTRAL = 10.0  # a centre nobody owns
ATTACK = 7.0  # another power's centre ...
ATTACK_PER_CENTRE = 0.4  # ... plus this for each centre its owner has
GUARD = 1.0  # one's own centre ...
GUARD_PER_THREAT = 8.0  # ... plus this for each unit one other power could bring into it
SPRING_GUARD = 1.0  # in the spring a threat to one's own centre counts this much (as in the fall)
DEFENDED = 0.5  # another power's centre it stands on is divided by 1 + this per unit that could support it
PREY = 1.5  # a centre of a power in civil disorder is worth this many times as much
LEADER_AT = 10  # another power with at least this many centres is a leader, close to a solo ...
LEADER_PER_CENTRE = 2.0  # ... and each of its centres is worth this more for each centre from LEADER_AT on
TRUCE = 0.5  # while another power leads, the centres of the powers that do not lead are worth this share
DIVISOR = 5.0  # a round's value: the province's own and its neighbours' values of the last round, over this
# The weight of each round's values (round 0: the base value), by season.
SPRING_ROUNDS = (1.0, 1.0, 0.6, 0.35, 0.2, 0.12, 0.07, 0.04, 0.02)
FALL_ROUNDS = (2.0, 0.7, 0.35, 0.2, 0.1, 0.06, 0.03, 0.02, 0.01)


@dataclass(frozen=True, slots=True)
class Values:
    """One power's view of a board."""

    power: str
    base: dict[str, float]  # province -> its own value (non-centres: 0)
    army: dict[str, float]  # land province -> the value of an army there
    fleet: dict[str, float]  # sea or coast -> the value of a fleet there
    enemy_reach: dict[str, int]  # province -> the most units one other power could move into it
    own_reach: dict[str, int]  # province -> the units of this power that could move into it

    def of(self, unit_type: str | None, province: str) -> float:
        table = self.army if unit_type == "A" else self.fleet
        return table.get(province, 0.0)


_REACH: dict[int, tuple[Board, dict[str, dict[str, int]]]] = {}


def reach_by_power(board: Board, geo: Geography) -> dict[str, dict[str, int]]:
    """Power -> province -> how many of its units could move into that province (remembered for the
    last few boards, as each power of a board asks)."""
    hit = _REACH.get(id(board))
    if hit is not None and hit[0] is board:
        return hit[1]
    out: dict[str, dict[str, int]] = {}
    for power, units in board.units.items():
        counts: dict[str, int] = {}
        for unit in units:
            for prov in geo.reach(unit):
                counts[prov] = counts.get(prov, 0) + 1
        out[power] = counts
    if len(_REACH) >= 8:
        del _REACH[next(iter(_REACH))]
    _REACH[id(board)] = (board, out)
    return out


_VALUES: dict[tuple[int, str, frozenset[str], tuple[tuple[str, float], ...]], tuple[Board, Values]] = {}


def values(
    board: Board,
    power: str,
    holding: Collection[str] = frozenset(),
    focus: Mapping[str, float] | None = None,
) -> Values:
    """``power``'s values on ``board`` (see the module docstring). ``holding``: the powers known to
    be in civil disorder, whose units only hold: they threaten nothing, and their units, never
    supported, are easy prey. ``focus``: other powers whose centres are worth that many times as
    much (the hard level's plans aimed at one power). Remembered for the last boards (the hard
    level asks many times)."""
    focused = tuple(sorted((focus or {}).items()))
    key = (id(board), power, frozenset(holding), focused)
    hit = _VALUES.get(key)
    if hit is not None and hit[0] is board:
        return hit[1]
    found = _values(board, power, holding, dict(focused))
    if len(_VALUES) >= 64:
        del _VALUES[next(iter(_VALUES))]
    _VALUES[key] = (board, found)
    return found


def _values(board: Board, power: str, holding: Collection[str], focus: Mapping[str, float]) -> Values:
    geo = geography(board.game_map)
    reach = reach_by_power(board, geo)
    enemy: dict[str, int] = {}
    for other, counts in sorted(reach.items()):
        if other == power or other in holding:
            continue
        for prov, n in counts.items():
            if n > enemy.get(prov, 0):
                enemy[prov] = n
    fall = board.phase.season == "F"
    sizes = {p: len(cs) for p, cs in board.centers.items()}
    mine = sizes.get(power, 0)
    leaders = {p for p, n in sizes.items() if n >= LEADER_AT and n > mine and p not in holding}
    owner = {c: p for p, cs in board.centers.items() for c in cs}
    occupant = board.occupant
    base: dict[str, float] = {}
    for centre in sorted(geo.supply_centers):
        holder = owner.get(centre)
        if holder == power:
            threat = enemy.get(centre, 0)
            base[centre] = GUARD + GUARD_PER_THREAT * threat * (1.0 if fall else SPRING_GUARD)
            continue
        worth = NEUTRAL if holder is None else ATTACK + ATTACK_PER_CENTRE * sizes.get(holder, 0)
        if holder in leaders:
            worth += LEADER_PER_CENTRE * (sizes[holder] - LEADER_AT + 1)  # stop the leader
        elif holder is not None and holder not in holding and leaders:
            worth *= TRUCE
        if holder in holding:
            worth *= PREY
        if holder is not None and holder in focus:
            worth *= focus[holder]
        standing = occupant.get(centre)
        if standing is not None and standing[0] != power and standing[0] not in holding:
            helpers = reach.get(standing[0], {}).get(centre, 0)
            worth /= 1.0 + DEFENDED * helpers
        base[centre] = worth
    rounds = FALL_ROUNDS if fall else SPRING_ROUNDS
    return Values(
        power=power,
        base=base,
        army=_spread(base, geo.army_graph, rounds),
        fleet=_spread(base, geo.fleet_graph, rounds),
        enemy_reach=enemy,
        own_reach=dict(reach.get(power, {})),
    )


def _spread(
    base: Mapping[str, float], graph: Mapping[str, tuple[str, ...]], rounds: tuple[float, ...]
) -> dict[str, float]:
    """Each province's weighed sum of its values round after round (see the module docstring)."""
    current = {p: base.get(p, 0.0) for p in graph}
    total = {p: rounds[0] * v for p, v in current.items()}
    for weight in rounds[1:]:
        current = {
            p: (current[p] + sum(current[n] for n in neighbours if n in current)) / DIVISOR
            for p, neighbours in graph.items()
        }
        for p, v in current.items():
            total[p] += weight * v
    return total
