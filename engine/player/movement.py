"""The built-in player's movement orders: every unit moves, holds, supports or convoys.

Each unit first ranks what it could do by the value of where it would end up
(engine.player.values), with a little seeded noise so that equal choices do not always fall the
same way; a lone move into another power's unit counts little (it bounces unless that unit
leaves), and so does a move into an empty province that other powers' units could enter too (it
may bounce; normal and hard levels). Then the plan is made in steps, each leaving the units it
settles to the next:

1. *Cover*: each empty centre of ours that another power could walk into gets a unit, the most
   threatened first (lost centres are mostly centres left empty).
2. *Convoys*: an army crosses the sea in a fleet of ours, alone on the way, when that gains more
   than the fleet loses by staying.
3. *Attacks*: another power's unit is attacked with enough support to outnumber it (two at least,
   more when its neighbours could support it; exactly two against a power in civil disorder),
   the attack that gains most first, while one gains more than its units give up.
4. *The rest choose in turn*, the unit with the best prospect first: never where another of ours
   goes or stays (no bouncing one's own units, no swap without a convoy); where another of ours
   already goes and wants more strength, it supports that move instead.
5. *Repair*: a move into a province whose unit of ours stays after all chooses again.
6. *Strength*: units that stay put support the moves that want it; an attack left without
   support gives way to supporting one that has some.
7. Units still holding support a threatened neighbour of ours, or a move of ours.
8. *Gamble* (normal and hard): a power of one home centre down to one unit (Chaos's 34 powers),
   which takes nothing, now and then (seeded) leaves its centre: in the spring for a province next
   to its neighbours' centres, in the fall into one of them (the first one empty). Without it
   every such unit holds for ever and no centre changes hands.

Builds (normal and hard): in a fall with builds to come, a unit on a home centre nobody threatens,
or on one that the powers which could enter it are predicted not to enter (what the normal player
would order for them, :func:`predicted_targets`), is worth less there: it would take a build's
place.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from engine.board import Board
from engine.legal import LegalOrder, LegalOrders, OrderKind, legal_orders
from engine.mapdata import province_of
from engine.orders import Move, Unit
from engine.player.geography import Geography, geography
from engine.player.values import Values, reach_by_power, values

NOISE = 0.15  # each choice's value is multiplied by 1 + up to this (seeded)
CONVOY_COST = 1.0  # a move by convoy is worth this less than the same move by land
LOOKAHEAD = 0.25  # a fleet's place is also worth this share of the best place it reaches next
LONE = 0.35  # a lone move into another power's unit is worth this share of its place
DISLODGE = 0.5  # a planned attack (step 3) gains this share of its target's own value, plus ...
DISLODGE_UNIT = 3.0  # ... this for the unit it dislodges
_MAX_ROUNDS = 50  # repairs of step 5 (each revokes a move; far more than a board's units)
BOUNCED_ONCE = 0.6  # a move that bounced into an empty province last phase keeps this share of its worth
REPEATS = 2  # a move that bounced so this many phases in a row is not made again (engine.player.memory)
HOME_BLOCK = 0.3  # in a fall with builds to come, ending on a quiet home centre keeps this share of its worth
SPRING_HOME_BLOCK = 0.7  # the same in the spring
GUARD_BLOCK = 0.3  # the same on a threatened home centre that no other power is likely to enter
ATTACK_REACH = 1  # a centre of another power it stands on counts as a gain with more of our units in reach
GAMBLE = 0.75  # how often a lone unit of a one-home power leaves its centre to attack alone (step 8)
CONTESTED = 0.5  # a move into an empty province other powers' units could enter: worth / (1 + this per unit)


@dataclass(slots=True)
class _Options:
    """One unit's legal orders, indexed for the planner."""

    unit: Unit
    hold: LegalOrder
    moves: list[LegalOrder] = field(default_factory=list)  # by land or along the coast
    vias: list[LegalOrder] = field(default_factory=list)  # by convoy
    supports: dict[tuple[str, str], LegalOrder] = field(default_factory=dict)  # (helped's province, target)
    convoys: dict[tuple[str, str], LegalOrder] = field(default_factory=dict)  # (army's province, target)
    ranked: list[tuple[float, LegalOrder]] = field(default_factory=list)  # holds and moves, best first
    worth: dict[str, float] = field(default_factory=dict)  # a move's text -> the worth of its place
    hold_worth: float = 0.0
    best_alone: float = 0.0  # the best a unit can do without a convoy

    @property
    def spare(self) -> float:
        """What the unit gives up by staying where it is instead of its best choice."""
        return self.ranked[0][0] - self.hold_worth


class _Planner:
    """One power's plan for one movement phase, built by the steps of the module docstring."""

    def __init__(
        self,
        board: Board,
        power: str,
        legal: LegalOrders,
        rng: random.Random,
        holding: Collection[str],
        *,
        sane: bool = True,
        bounced: Mapping[str, int] | None = None,
        noise: float = NOISE,
        contest: bool = True,
        predict: bool = True,
        focus: Mapping[str, float] | None = None,
    ) -> None:
        self.contest = contest and sane
        self.board = board
        self.power = power
        self.holding = holding
        self.sane = sane  # False: today's player of the easy level (none of the checks below)
        self.bounced = bounced or {}
        self.noise = noise
        self.geo: Geography = geography(board.game_map)
        self.values: Values = values(board, power, holding, focus)
        self.reach = reach_by_power(board, self.geo)  # power -> province -> its units that could move there
        self.opts: dict[str, _Options] = {}
        for entry in legal.entries:
            if entry.unit is None:
                continue
            options = _index(entry.unit, entry.orders)
            if options is not None:
                self.opts[entry.unit.province] = options
        # the plan: unit's province -> its order; target province -> the unit moving there
        self.chosen: dict[str, LegalOrder] = {}
        self.into: dict[str, str] = {}  # target -> mover's province
        self.staying: set[str] = set()  # provinces whose own unit stays (hold, support, convoy)
        self.helpers: dict[str, list[str]] = {}  # target -> provinces of the units supporting the move
        self.banned: dict[str, set[str]] = {}  # unit's province -> targets it may no longer choose
        self.quiet_homes = quiet_homes(board, power, self.values) if sane else frozenset()
        self.guarded_homes = (
            guarded_homes(board, power, self.values, holding) if sane and predict else frozenset()
        )
        for prov in sorted(self.opts):
            self._rank(self.opts[prov], rng)

    # --- ranking ------------------------------------------------------------------------------------

    def _worth(self, unit_type: str | None, location: str) -> float:
        prov = province_of(location)
        worth = self.values.of(unit_type, prov)
        if unit_type == "F":
            ahead = self.geo.fleet_reach.get(location, ())
            if ahead:
                worth += LOOKAHEAD * max(self.values.fleet.get(p, 0.0) for p in ahead)
        return worth

    def _rank(self, opts: _Options, rng: random.Random) -> None:
        unit = opts.unit
        here = self._worth(unit.type, unit.location)
        block = HOME_BLOCK if self.board.phase.season == "F" else SPRING_HOME_BLOCK
        if unit.province in self.quiet_homes:
            here *= block
        elif unit.province in self.guarded_homes:
            here *= GUARD_BLOCK
        scored = [(here, opts.hold)]
        for move in opts.moves:
            assert isinstance(move.order, Move)
            worth = self._worth(unit.type, move.order.dest)
            opts.worth[move.text] = worth
            dest = province_of(move.order.dest)
            if self._occupied_by_other(dest):
                worth *= LONE
            elif self.contest:
                worth /= self._contest(dest)
            if dest in self.quiet_homes:
                worth *= block
            scored.append((worth, move))
        for via in opts.vias:
            assert isinstance(via.order, Move)
            worth = self._worth("A", via.order.dest) - CONVOY_COST
            if self.sane and self._occupied_by_other(province_of(via.order.dest)):
                worth *= LONE  # a lone convoyed attack bounces as a lone attack by land does
            elif self.contest:
                worth /= self._contest(province_of(via.order.dest))  # (step 2 weighs it so too)
            opts.worth[via.text] = worth
            scored.append((worth, via))
        if self.sane and self.bounced:
            kept = []
            for worth, legal in scored:
                streak = self.bounced.get(legal.text, 0)
                if streak >= REPEATS:
                    continue
                kept.append((worth * BOUNCED_ONCE if streak else worth, legal))
            scored = kept
        noisy = [(worth * (1.0 + self.noise * rng.random()), legal) for worth, legal in scored]
        opts.hold_worth = noisy[0][0]
        opts.best_alone = max(w for w, legal in noisy if not legal.via_convoy)
        noisy.sort(key=lambda item: (-item[0], item[1].text))
        opts.ranked = noisy

    def _contest(self, dest: str) -> float:
        """What a move into ``dest`` is divided by: an empty province, not a centre of ours, that other
        powers' units could enter too may bounce."""
        if dest in self.board.occupant or dest in self.board.centers.get(self.power, ()):
            return 1.0
        return 1.0 + CONTESTED * self.values.enemy_reach.get(dest, 0)

    # --- 4. choosing in turn ----------------------------------------------------------------------

    def need(self, target: str) -> int:
        """The strength a move into ``target`` wants."""
        standing = self.board.occupant.get(target)
        if standing is not None and standing[0] != self.power:
            if standing[0] in self.holding:
                return 2  # it holds, and nobody supports it
            helpers = self.reach.get(standing[0], {}).get(target, 0)
            return 2 + helpers // 2
        contest = self.values.enemy_reach.get(target, 0)
        if contest == 0:
            return 1
        return 2 if target in self.geo.supply_centers or contest >= 2 else 1

    def strength(self, target: str) -> int:
        return 1 + len(self.helpers.get(target, ()))

    def choose(self, prov: str) -> None:
        """Give the unit in ``prov`` its best order that fits the plan so far."""
        opts = self.opts[prov]
        banned = self.banned.get(prov, set())
        must_leave = prov in self.into
        for _, legal in opts.ranked:
            if legal.kind == OrderKind.HOLD:
                if must_leave:
                    continue
                self._stay(prov, legal)
                return
            order = legal.order
            assert isinstance(order, Move)
            target = province_of(order.dest)
            if target in banned or target in self.staying:
                continue
            mover = self.into.get(target)
            if mover is not None:
                if must_leave or self.strength(target) >= self.need(target):
                    continue
                support = opts.supports.get((mover, target))
                if support is None:
                    continue
                self._stay(prov, support)
                self.helpers.setdefault(target, []).append(prov)
                return
            mine = self.board.occupant.get(target)
            if mine is not None and mine[0] == self.power:
                theirs = self.chosen.get(target)
                if theirs is not None and _dest_province(theirs) == prov:
                    continue  # a swap without a convoy: both would bounce
            if legal.via_convoy and not self._convoy(prov, target):
                continue
            self.chosen[prov] = legal
            self.into[target] = prov
            return
        self._stay(prov, opts.hold)  # nothing else fits: step 5 sorts out who must give way

    def _stay(self, prov: str, legal: LegalOrder) -> None:
        self.chosen[prov] = legal
        self.staying.add(prov)

    def _convoy(self, army: str, target: str) -> bool:
        """Find a fleet of ours, not yet moving or supporting, that carries the army alone."""
        for fleet in sorted(self.opts):
            convoy = self.opts[fleet].convoys.get((army, target))
            if convoy is None:
                continue
            if fleet in self.into or not _alone(self.geo, fleet, army, target):
                continue
            current = self.chosen.get(fleet)
            if current is None or current.kind == OrderKind.HOLD:
                self._stay(fleet, convoy)
                return True
        return False

    def release(self, prov: str) -> list[str]:
        """Take back the order of the unit in ``prov`` (and what depended on it); returns the units
        left without an order."""
        legal = self.chosen.pop(prov, None)
        self.staying.discard(prov)
        freed = [prov]
        if legal is None:
            return freed
        if legal.kind == OrderKind.MOVE:
            target = _dest_province(legal)
            assert target is not None
            self.into.pop(target, None)
            for helper in self.helpers.pop(target, []):
                self.chosen.pop(helper, None)
                self.staying.discard(helper)
                freed.append(helper)
            if legal.via_convoy:
                for fleet, order in list(self.chosen.items()):
                    if (
                        order.kind == OrderKind.CONVOY
                        and order.helped is not None
                        and order.helped.province == prov
                    ):
                        self.chosen[fleet] = self.opts[fleet].hold
        elif legal.kind == OrderKind.SUPPORT and legal.target is not None:
            helpers = self.helpers.get(legal.target)
            if helpers is not None and prov in helpers:
                helpers.remove(prov)
        return freed

    # --- 1. guard the centres that would be lost ----------------------------------------

    def cover(self) -> None:
        """Send a unit into each empty centre of ours another power could walk into, the most
        threatened first, taking the unit that gives up least and guards nothing itself."""
        threat = self.values.enemy_reach
        owned = self.board.centers.get(self.power, frozenset())
        empty = [c for c in owned if c not in self.board.occupant and threat.get(c, 0) > 0]
        homes = set(self.board.game_map.home_centers.get(self.power, ()))
        for centre in sorted(empty, key=lambda c: (-threat[c], c)):
            best: tuple[float, str, LegalOrder] | None = None
            for prov in sorted(self.opts):
                if prov in self.chosen or prov in self.into:
                    continue
                if (
                    prov in owned
                    and threat.get(prov, 0) > 0
                    and not self._may_swap_guard(prov, centre, homes)
                ):
                    continue
                opts = self.opts[prov]
                for move in opts.moves:
                    if _dest_province(move) != centre or self._spent(move):
                        continue
                    cost = opts.ranked[0][0] - opts.worth[move.text]
                    if best is None or cost < best[0]:
                        best = (cost, prov, move)
            if best is not None:
                _, prov, move = best
                self.chosen[prov] = move
                self.into[centre] = prov

    def _may_swap_guard(self, guarded: str, centre: str, homes: set[str]) -> bool:
        """Whether a unit guarding our threatened centre ``guarded`` may leave it to cover the empty
        ``centre``: a home centre (builds are made there) threatened at least as much, for a guard
        of a centre that is no home."""
        if not self.sane or centre not in homes:
            return False
        threat = self.values.enemy_reach
        return threat.get(centre, 0) >= threat.get(guarded, 0)

    def recover(self) -> None:
        """After the plan: an empty home centre of ours that another power could walk into and none
        of ours enters takes a unit that leaves its own place anyway (or guards nothing), the one
        that gives up least."""
        threat = self.values.enemy_reach
        owned = self.board.centers.get(self.power, frozenset())
        homes = [
            c
            for c in self.board.game_map.home_centers.get(self.power, ())
            if c in owned and c not in self.board.occupant and threat.get(c, 0) > 0
        ]
        for centre in sorted(homes, key=lambda c: (-threat[c], c)):
            if centre in self.into:
                continue
            best: tuple[float, str, LegalOrder] | None = None
            for prov in sorted(self.opts):
                legal = self.chosen.get(prov)
                leaving = legal is not None and legal.kind == OrderKind.MOVE
                if not leaving and prov in owned and threat.get(prov, 0) > 0:
                    continue
                if prov in self.into and not leaving:
                    continue
                opts = self.opts[prov]
                for move in opts.moves:
                    if _dest_province(move) != centre or self._spent(move):
                        continue
                    cost = self._gain(prov) - (opts.worth[move.text] - opts.hold_worth)
                    if best is None or cost < best[0]:
                        best = (cost, prov, move)
            if best is None:
                continue
            _, prov, move = best
            for freed in self.release(prov):
                if freed != prov:
                    self._stay(freed, self.opts[freed].hold)
            self.chosen[prov] = move
            self.into[centre] = prov

    # --- 2. armies carried by their own fleets ---------------------------------------------------

    def convoys(self) -> None:
        """An army goes by convoy where that gains more than the fleet carrying it loses by staying."""
        while True:
            best: tuple[float, str, LegalOrder, str, LegalOrder] | None = None
            for army in sorted(self.opts):
                opts = self.opts[army]
                if army in self.chosen or not opts.vias:
                    continue
                for via in opts.vias:
                    target = _dest_province(via)
                    if target is None or target in self.into or target in self.board.occupant:
                        continue
                    if self._spent(via):
                        continue
                    for fleet in sorted(self.opts):
                        convoy = self.opts[fleet].convoys.get((army, target))
                        if (
                            convoy is None
                            or fleet in self.chosen
                            or not _alone(self.geo, fleet, army, target)
                        ):
                            continue
                        gain = opts.worth[via.text] - opts.best_alone - self.opts[fleet].spare
                        if gain > 0 and (best is None or gain > best[0]):
                            best = (gain, army, via, fleet, convoy)
            if best is None:
                return
            _, army, via, fleet, convoy = best
            self.chosen[army] = via
            self.into[_dest_province(via) or ""] = army
            self._stay(fleet, convoy)

    # --- 3. planned attacks on other powers' units -----------------------------------------------

    def attacks(self) -> None:
        """Outnumber other powers' units where it pays: the best attack first, while one pays."""
        while True:
            best: tuple[float, str, str, list[str]] | None = None
            for target in sorted(self.values.own_reach):
                if target in self.into or not self._occupied_by_other(target):
                    continue
                found = self._attack_on(target)
                if found is not None and (best is None or found[0] > best[0]):
                    best = found
            if best is None:
                return
            _, target, mover, helpers = best
            move = next(m for m in self.opts[mover].moves if _dest_province(m) == target)
            self.chosen[mover] = move
            self.into[target] = mover
            for helper in helpers:
                self._stay(helper, self.opts[helper].supports[(mover, target)])
            self.helpers[target] = list(helpers)

    def _attack_on(self, target: str) -> tuple[float, str, str, list[str]] | None:
        """The best (gain, target, mover, supporters) for an attack on ``target``, if it gains."""
        wanted = self.need(target) - 1
        free = [p for p in sorted(self.opts) if p not in self.chosen]
        best: tuple[float, str, str, list[str]] | None = None
        for mover in free:
            opts = self.opts[mover]
            moves = [m for m in opts.moves if _dest_province(m) == target and not self._spent(m)]
            if not moves:
                continue
            worth = max(opts.worth[m.text] for m in moves)
            helpers = sorted(
                (self.opts[p].spare, p)
                for p in free
                if p != mover and (mover, target) in self.opts[p].supports
            )
            if len(helpers) < wanted:
                continue
            chosen = [p for _, p in helpers[:wanted]]
            gain = (
                worth
                - opts.ranked[0][0]
                + DISLODGE * self.values.base.get(target, 0.0)
                + DISLODGE_UNIT
                - sum(c for c, _ in helpers[:wanted])
            )
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, target, mover, chosen)
        return best

    # --- 5. no bouncing off one's own units -----------------------------------------------------------

    def repair(self) -> None:
        for _ in range(_MAX_ROUNDS):
            blocked = sorted(t for t, mover in self.into.items() if t in self.staying)
            if not blocked:
                return
            target = blocked[0]
            mover = self.into[target]
            self.banned.setdefault(mover, set()).add(target)
            for prov in self.release(mover):
                self.choose(prov)
        # still blocked after all the rounds (not seen in practice): those movers hold
        for target, mover in sorted(self.into.items()):
            if target in self.staying:
                for prov in self.release(mover):
                    self._stay(prov, self.opts[prov].hold)

    # --- 5b. no circles ---------------------------------------------------------------------------------

    def cycles(self) -> list[list[str]]:
        """The circles of our units' moves, each into the next one's province (they would mostly leave
        the position as it was, or all bounce)."""
        succ: dict[str, str] = {}
        for mover, legal in self.chosen.items():
            target = _dest_province(legal)
            if target is not None and target in self.opts:
                succ[mover] = target
        found: list[list[str]] = []
        seen: set[str] = set()
        for start in sorted(succ):
            path: list[str] = []
            prov: str | None = start
            while prov is not None and prov not in seen and prov not in path:
                path.append(prov)
                prov = succ.get(prov)
            if prov is not None and prov in path:
                found.append(path[path.index(prov) :])
            seen.update(path)
        return found

    def unwind(self) -> None:
        """Break every circle: the unit that gives up least by holding stays, the rest choose again."""
        for _ in range(_MAX_ROUNDS):
            rings = self.cycles()
            if not rings:
                return
            ring = rings[0]
            keeper = min(ring, key=lambda p: (self._gain(p), p))
            target = _dest_province(self.chosen[keeper])
            self.banned.setdefault(keeper, set()).add(target or "")
            for prov in self.release(keeper):
                self._stay(prov, self.opts[prov].hold)
            self.repair()
        for ring in self.cycles():  # (not seen in practice)
            for prov in ring:
                for freed in self.release(prov):
                    self._stay(freed, self.opts[freed].hold)

    def _gain(self, prov: str) -> float:
        opts = self.opts[prov]
        legal = self.chosen.get(prov)
        worth = opts.worth.get(legal.text, 0.0) if legal is not None else 0.0
        return worth - opts.hold_worth

    def _spent(self, legal: LegalOrder) -> bool:
        """A move we no longer make: it bounced into an empty province too many phases in a row."""
        return self.sane and self.bounced.get(legal.text, 0) >= REPEATS

    # --- 6. strength for attacks --------------------------------------------------------------------

    def holders(self) -> list[str]:
        return sorted(p for p, legal in self.chosen.items() if legal.kind == OrderKind.HOLD)

    def reinforce(self) -> None:
        targets = sorted(self.into, key=lambda t: (-self.values.base.get(t, 0.0), t))
        for target in targets:
            self._recruit(target, self.need(target))
        # an attack on a unit that stays short of strength: its mover supports another attack instead
        for target in sorted(targets, key=lambda t: (self.values.base.get(t, 0.0), t)):
            if target not in self.into or not self._occupied_by_other(target) or self.strength(target) >= 2:
                continue
            mover = self.into[target]
            for other in targets:
                if other == target or other not in self.into or self.strength(other) >= self.need(other):
                    continue
                support = self.opts[mover].supports.get((self.into[other], other))
                if support is None or mover in self.into:
                    continue
                for freed in self.release(mover):
                    self._stay(freed, self.opts[freed].hold)
                self._stay(mover, support)
                self.helpers.setdefault(other, []).append(mover)
                break
        self.repair()

    def _occupied_by_other(self, target: str) -> bool:
        standing = self.board.occupant.get(target)
        return standing is not None and standing[0] != self.power

    def _recruit(self, target: str, wanted: int) -> None:
        mover = self.into[target]
        for prov in self.holders():
            if self.strength(target) >= wanted:
                return
            support = self.opts[prov].supports.get((mover, target))
            if support is not None and prov not in self.into:
                self.chosen[prov] = support
                self.helpers.setdefault(target, []).append(prov)

    # --- 7. supports from units that hold ---------------------------------------------------------

    def spare_supports(self) -> None:
        for prov in self.holders():
            if prov in self.into:
                continue
            best: tuple[float, LegalOrder, str | None] | None = None
            for (helped, target), support in sorted(self.opts[prov].supports.items()):
                if helped == target:  # a support to hold
                    if helped not in self.staying or helped == prov:
                        continue
                    threat = self.values.enemy_reach.get(helped, 0)
                    if threat == 0:
                        continue
                    gain = self.values.base.get(helped, 0.0) * threat + threat
                    key = None
                elif self.into.get(target) == helped:
                    short = self.need(target) - self.strength(target)
                    gain = self.values.base.get(target, 0.0) * (1.0 + max(short, 0)) + 0.5
                    key = target
                else:
                    continue
                if best is None or gain > best[0]:
                    best = (gain, support, key)
            if best is not None:
                self.chosen[prov] = best[1]
                if best[2] is not None:
                    self.helpers.setdefault(best[2], []).append(prov)

    def plan(self, rng: random.Random) -> list[LegalOrder]:
        self.cover()
        self.convoys()
        self.attacks()
        first = sorted(self.opts, key=lambda p: (-self.opts[p].ranked[0][0], p))
        for prov in first:
            if prov not in self.chosen:
                self.choose(prov)
        self.repair()
        self.reinforce()
        if self.sane:
            self.recover()
            self.repair()
            self.unwind()
        self.spare_supports()
        if self.sane:
            self.gamble(rng)
        return [self.chosen.get(prov, self.opts[prov].hold) for prov in sorted(self.opts)]

    # --- 8. a lone unit's gamble ------------------------------------------------------------------

    def gamble(self, rng: random.Random) -> None:
        """A power down to one unit, that takes no centre this fall, cannot grow but by the chance
        that a neighbour's unit leaves its centre: now and then (seeded) it moves alone into the
        centre of another power it values most, whose unit may well be leaving too (Chaos's 34
        single units would otherwise all hold for ever)."""
        homes = self.board.game_map.home_centers.get(self.power, ())
        if len(self.opts) != 1 or len(homes) != 1:
            return
        (prov,) = self.opts
        opts = self.opts[prov]
        owned = self.board.centers.get(self.power, frozenset())
        current = self.chosen.get(prov)
        target = _dest_province(current) if current is not None else None
        if target is not None and target in self.geo.supply_centers and target not in owned:
            return
        options: list[tuple[bool, float, str, LegalOrder]] = []
        spring = self.board.phase.season != "F"
        for move in opts.moves:
            dest = _dest_province(move)
            standing = self.board.occupant.get(dest or "")
            if spring:
                quiet = dest is not None and dest not in self.geo.supply_centers and standing is None
                if quiet and not self._spent(move):
                    options.append((False, -opts.worth[move.text], move.text, move))
                continue
            if (
                dest is None
                or dest not in self.geo.supply_centers
                or dest in owned
                or (standing is not None and standing[0] == self.power)
                or (standing is not None and standing[0] in self.holding)
                or self._spent(move)
            ):
                continue
            options.append((standing is not None, -opts.worth[move.text], move.text, move))
        if not options or rng.random() >= GAMBLE:
            return
        options.sort(key=lambda item: item[:3])
        self.chosen[prov] = options[0][3]


def quiet_homes(board: Board, power: str, view: Values) -> frozenset[str]:
    """With builds to come (centres to take): the home centres of ours nobody threatens, where a
    unit of ours left standing would take the place of a build."""
    if not builds_coming(board, power, view):
        return frozenset()
    owned = board.centers.get(power, frozenset())
    homes = board.game_map.home_centers.get(power, ())
    return frozenset(h for h in homes if h in owned and view.enemy_reach.get(h, 0) == 0)


def guarded_homes(board: Board, power: str, view: Values, holding: Collection[str]) -> frozenset[str]:
    """In a fall with builds to come: the home centres of ours that a unit of ours stands on, that
    other powers' units could walk into but, by what the normal player would order for them
    (:func:`predicted_targets`), will not; staying there keeps a build from being made."""
    if board.phase.season != "F" or not builds_coming(board, power, view):
        return frozenset()
    owned = board.centers.get(power, frozenset())
    homes = [
        h
        for h in board.game_map.home_centers.get(power, ())
        if h in owned and board.occupant.get(h, ("",))[0] == power and view.enemy_reach.get(h, 0) > 0
    ]
    if not homes:
        return frozenset()
    geo = geography(board.game_map)
    reach = reach_by_power(board, geo)
    threats = sorted(
        other
        for other, counts in reach.items()
        if other != power and other not in holding and any(counts.get(h, 0) for h in homes)
    )
    entered: set[str] = set()
    for other in threats:
        entered |= predicted_targets(board, other, holding)
    return frozenset(h for h in homes if h not in entered)


_PREDICTED: dict[tuple[int, str, frozenset[str]], tuple[Board, frozenset[str]]] = {}


def predicted_targets(board: Board, power: str, holding: Collection[str]) -> frozenset[str]:
    """The provinces the normal player would move ``power``'s units into on ``board`` (seeded by the
    board alone, without this prediction of its own; remembered for the last boards)."""
    key = (id(board), power, frozenset(holding))
    hit = _PREDICTED.get(key)
    if hit is not None and hit[0] is board:
        return hit[1]
    legal = legal_orders(board, power)
    rng = random.Random(f"predict:{board.phase}:{power}")
    planner = _Planner(board, power, legal, rng, holding, predict=False)
    plan = planner.plan(rng) if planner.opts else []
    found = frozenset(t for t in (_dest_province(o) for o in plan) if t is not None)
    if len(_PREDICTED) >= 64:
        del _PREDICTED[next(iter(_PREDICTED))]
    _PREDICTED[key] = (board, found)
    return found


def builds_coming(board: Board, power: str, view: Values) -> bool:
    """Whether ``power`` could have builds due after this year's fall: more centres it owns or could
    take than units."""
    geo = geography(board.game_map)
    owned = board.centers.get(power, frozenset())
    units = board.units.get(power, ())
    gains = sum(
        1
        for c in geo.supply_centers
        if c not in owned and view.own_reach.get(c, 0) > (0 if c not in board.occupant else ATTACK_REACH)
    )
    return len(owned) + gains > len(units)


def _dest_province(legal: LegalOrder) -> str | None:
    order = legal.order
    return province_of(order.dest) if isinstance(order, Move) else None


def _alone(geo: Geography, fleet: str, army: str, target: str) -> bool:
    """The fleet in sea ``fleet`` touches both the army's province and the target."""
    reach = geo.fleet_graph.get(fleet, ())
    return army in reach and target in reach


def _index(unit: Unit, orders: tuple[LegalOrder, ...]) -> _Options | None:
    hold = next((o for o in orders if o.kind == OrderKind.HOLD), None)
    if hold is None:
        return None
    opts = _Options(unit, hold)
    for legal in orders:
        if legal.kind == OrderKind.MOVE:
            (opts.vias if legal.via_convoy else opts.moves).append(legal)
        elif legal.kind == OrderKind.SUPPORT and legal.helped is not None and legal.target is not None:
            opts.supports[(legal.helped.province, legal.target)] = legal
        elif legal.kind == OrderKind.CONVOY and legal.helped is not None and legal.target is not None:
            opts.convoys[(legal.helped.province, legal.target)] = legal
    return opts


def movement_orders(
    board: Board,
    power: str,
    legal: LegalOrders,
    rng: random.Random,
    holding: Collection[str] = frozenset(),
    *,
    sane: bool = True,
    bounced: Mapping[str, int] | None = None,
    noise: float = NOISE,
    contest: bool = True,
    focus: Mapping[str, float] | None = None,
) -> list[LegalOrder]:
    """One order for each of ``power``'s units (see the module docstring); ``holding``: the powers
    known to be in civil disorder; ``sane`` False: today's easy player, without the checks against
    circles, repeated bounces, lone convoys and blocked builds; ``bounced``: each move's streak of
    bounces into an empty province (engine.player.memory); ``contest`` False: a move into a contested
    empty province is not discounted (the hard level tries plans both ways); ``focus``: other powers
    whose centres are worth that many times as much (engine.player.values)."""
    planner = _Planner(
        board,
        power,
        legal,
        rng,
        holding,
        sane=sane,
        bounced=bounced,
        noise=noise,
        contest=contest,
        focus=focus,
    )
    if not planner.opts:
        return []
    return planner.plan(rng)
