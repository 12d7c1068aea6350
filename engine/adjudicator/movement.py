"""Movement resolution: which moves succeed, which supports are cut, which units are dislodged.

The algorithm is Lucas Kruijswijk's "guess and check" (DATC v3.0, chapter 5), written afresh here.

Decisions
    Every unit carries one yes/no decision: for a move, *does it succeed*; for a support, *is it
    given* (not cut, supporter not dislodged); for a hold or a convoy, *does the unit stay* (is not
    dislodged). Convoy routes are not decisions of their own: a route is open when a chain of
    convoying fleets that stay joins the two coasts, so it is read off the fleets' decisions.

Strengths (DATC 5.B), computed from other decisions
    attack   1 + supports, counting only supports from powers other than the defender's when the
             province is held by a unit that stays; 0 when that unit is the attacker's own power
             (no self-dislodgement) or when a convoy route is missing.
    hold     strength of the unit in the target: 0 if it moves away, 1 if it tried to move and
             failed, else 1 + hold supports.
    defend   1 + supports of the opposing unit in a head-to-head battle.
    prevent  1 + supports of a rival move into the same province; 0 when its route is missing or
             it lost a head-to-head battle (a dislodged unit has no effect on the province its
             attacker came from, but still blocks elsewhere: DATC 4.A.7 b).
    A move succeeds when its attack beats the hold (or, head to head, the defend) strength and
    every rival's prevent strength.

Resolving
    ``resolve(i)`` works out decision ``i`` recursively, asking for the decisions it depends on.
    When the recursion comes back to a decision already being worked out there is a cycle: the
    decision is answered with a guess, and every decision whose value rests on that guess stays
    provisional while the guess is open (the low-link bookkeeping of Tarjan's algorithm tells which
    open guess a value rests on; a cycle settled deeper down leaves nothing behind). When the
    outermost decision of the cycle is done, it is worked out again with the opposite guess. If both
    guesses give the same answer, that answer holds. If they disagree (two consistent outcomes or
    none) the cycle is settled by the backup rule:

    * a cycle that runs through a convoying fleet is a convoy paradox. By the Szykman rule
      (DATC 4.A.2) the armies convoyed by those fleets do not move: their routes count as broken,
      so they neither move nor cut support.
    * any other cycle is circular movement (units moving round in a ring): every move in it
      succeeds.

    Then the decision is resolved again; each backup step settles something for good, so this
    terminates.

Convoy intent (DATC 4.A.3, 2023 rules)
    An army moving to an adjacent province goes by convoy when the player wrote "via convoy" or
    when a fleet of its own power was ordered to convoy it; then there is no land fallback. Two
    units swapping provinces are in a head-to-head battle only when neither goes by convoy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.adjudicator.convoys import SeaGraph, route_exists
from engine.mapdata import GameMap, coast_of
from engine.orders import Convoy, Move, Order, SupportHold, SupportMove, Unit

HOLD = 0
MOVE = 1
SUPPORT = 2
CONVOY = 3

_UNRESOLVED = 0
_GUESSING = 1
_RESOLVED = 2
_NO_GUESS = 1 << 62  # more than any decision's number: "no open guess was read"


@dataclass(frozen=True, slots=True)
class Dislodgement:
    """Unit ``victim`` was dislodged by the move of unit ``attacker`` (both unit indices)."""

    victim: int
    attacker: int


class MovementResolver:
    """Resolves one movement phase. Build it, call :meth:`resolve_all`, then read the results.

    ``units[i]`` is (power, unit) and ``orders[i]`` its legal order, already checked against the
    board by :mod:`engine.adjudicator.legality` (units without a legal order hold).
    """

    def __init__(
        self,
        game_map: GameMap,
        graph: SeaGraph,
        units: Sequence[tuple[str, Unit]],
        orders: Sequence[Order],
    ) -> None:
        self.game_map = game_map
        self.graph = graph
        n = len(units)
        self.n = n
        self.units = [u for _, u in units]
        self.power = [p for p, _ in units]
        self.orders = list(orders)
        self.prov = [u.province for u in self.units]
        self.occ: dict[str, int] = {p: i for i, p in enumerate(self.prov)}
        self.kind = [HOLD] * n
        self.dst: list[str] = [""] * n  # move: target province ("" for other orders)
        self.support_dst: list[str | None] = [None] * n  # support: province supported into (None = hold)
        self.target: list[int] = [-1] * n  # support / convoy: index of the unit named
        self.via = [False] * n  # move goes by convoy
        self.opp = [-1] * n  # head-to-head opponent
        self.sups: list[list[int]] = [[] for _ in range(n)]  # supports matching this unit's order
        self.matched = [False] * n  # support / convoy order matches what the named unit does
        self.convoy_fleets: list[set[str] | None] = [None] * n  # move: seas of fleets convoying it
        self.moves: dict[int, Move] = {}  # the move orders, by unit
        self.moves_into: dict[str, list[int]] = {}
        self.broken_by_paradox = [False] * n  # move whose convoy failed by the Szykman rule
        self.result = [False] * n
        self.state = [_UNRESOLVED] * n
        self._deps: list[int] = []  # guesses read and provisional decisions, newest last
        self._mark = [0] * n  # a guessing decision: the number of the guess it rests on (see _settle)
        self._opened = 0  # decisions opened so far, to number them
        self._low = _NO_GUESS  # the oldest open guess read by the decision being worked out
        self._classify()

    # --- set-up ---------------------------------------------------------------------------------

    def _classify(self) -> None:
        occ = self.occ
        kind = self.kind
        dst_of = self.dst
        target = self.target
        support_dst = self.support_dst
        moves_into = self.moves_into
        province_at = self.game_map.province_at  # the orders are legal: every place is on the map
        moves = self.moves
        supports: list[tuple[int, SupportMove | SupportHold]] = []
        convoys: list[tuple[int, Convoy]] = []
        for i, order in enumerate(self.orders):
            if type(order) is Move:
                kind[i] = MOVE
                moves[i] = order
                dst = province_at[order.dest]
                dst_of[i] = dst
                movers = moves_into.get(dst)
                if movers is None:
                    moves_into[dst] = [i]
                else:
                    movers.append(i)
            elif type(order) is SupportMove or type(order) is SupportHold:
                j = occ.get(order.supported.province, -1)
                if j >= 0:
                    kind[i] = SUPPORT
                    target[i] = j
                    supports.append((i, order))
                    if type(order) is SupportMove:
                        support_dst[i] = province_at[order.dest]
            elif type(order) is Convoy:
                j = occ.get(order.convoyed.province, -1)
                if j >= 0:
                    kind[i] = CONVOY
                    target[i] = j
                    convoys.append((i, order))
        # supports and convoys that match what the named unit does
        for i, support in supports:
            j = target[i]
            if type(support) is SupportMove:
                ok = kind[j] == MOVE and dst_of[j] == support_dst[i]
                if ok:
                    want = coast_of(support.dest)
                    ok = want is None or (have := coast_of(moves[j].dest)) is None or want == have
            else:
                ok = kind[j] != MOVE
            if ok:
                self.matched[i] = True
                self.sups[j].append(i)
        for i, convoy in convoys:
            j = target[i]
            if kind[j] == MOVE and dst_of[j] == province_at[convoy.dest] and self.units[j].type == "A":
                self.matched[i] = True
                fleets = self.convoy_fleets[j]
                if fleets is None:
                    fleets = self.convoy_fleets[j] = set()
                fleets.add(self.prov[i])
        # which moves go by convoy (DATC 4.A.3) and which are head-to-head battles
        army_adj = self.game_map.army_adjacency
        prov = self.prov
        via = self.via
        power = self.power
        movers = [i for movers in moves_into.values() for i in movers]
        for i in movers:
            if self.units[i].type != "A":
                continue
            if moves[i].via_convoy or dst_of[i] not in army_adj[prov[i]]:
                via[i] = True
            elif fleets := self.convoy_fleets[i]:
                me = power[i]
                via[i] = any(power[occ[sea]] == me for sea in fleets)
        opp = self.opp
        for i in movers:
            if via[i]:
                continue
            j = occ.get(dst_of[i], -1)
            if j >= 0 and kind[j] == MOVE and not via[j] and dst_of[j] == prov[i]:
                opp[i] = j
        # The easy majority: a support or a convoy that nobody attacks is given; no need to ask later.
        state = self.state
        result = self.result
        for i, _ in (*supports, *convoys):
            if prov[i] not in moves_into:
                state[i] = _RESOLVED
                result[i] = True

    # --- the guess-and-check driver ---------------------------------------------------------------

    def resolve_all(self) -> None:
        for i in range(self.n):
            if self.kind[i] != HOLD:
                self.resolve(i)

    def resolve(self, i: int) -> bool:
        state = self.state[i]
        if state == _RESOLVED:
            return self.result[i]
        if state == _GUESSING:
            # a decision still being worked out, or provisional: answer with its guess, and note the
            # oldest open guess it rests on (see _settle)
            mark = self._mark[i]
            if mark < self._low:
                self._low = mark
            if i not in self._deps:
                self._deps.append(i)
            return self.result[i]
        outer = self._low
        opened = self._opened
        self._opened = opened + 1
        value, low = self._settle(i, opened)
        self._low = low if low < outer else outer
        return value

    def _settle(self, i: int, opened: int) -> tuple[bool, int]:
        """Work out decision ``i``, the ``opened``-th decision opened: (its value, the number of the
        oldest open guess the value rests on, or _NO_GUESS when it is settled for good).

        This is the low-link of Tarjan's algorithm for strongly connected components: each guess
        read during the work lowers ``_low`` to the number of the decision that made it (for a
        provisional decision, to what that one rests on). Less than ``opened``: the value rests on
        a guess made further up, and stays provisional. Equal: ``i`` heads a cycle and tries both
        guesses. More: no open guess was read, so the value holds for good. A cycle that a decision
        deeper down headed and settled leaves nothing behind, so only guesses still open count.
        """
        deps = self._deps
        state = self.state
        result = self.result
        while True:
            if state[i] == _RESOLVED:  # a backup rule settled it
                return result[i], _NO_GUESS
            start = len(deps)
            state[i] = _GUESSING
            self._mark[i] = opened
            result[i] = False
            self._low = _NO_GUESS
            first = self._decide(i)
            low = self._low
            if state[i] == _RESOLVED:
                return result[i], _NO_GUESS
            if low > opened:  # no open guess was read
                state[i] = _RESOLVED
                result[i] = first
                return first, _NO_GUESS
            if low < opened:  # rests on a guess made further up: provisional until that one is settled
                deps.append(i)
                self._mark[i] = low
                result[i] = first
                return first, low
            # i heads a cycle: try the other guess
            self._forget(start)
            state[i] = _GUESSING
            result[i] = True
            self._low = _NO_GUESS
            second = self._decide(i)
            low = self._low
            if low < opened:  # the second guess reached a guess further up: the cycle is that one's
                deps.append(i)
                self._mark[i] = low
                result[i] = second
                return second, low
            if first == second:
                self._forget(start)
                state[i] = _RESOLVED
                result[i] = first
                return first, _NO_GUESS
            cycle = deps[start:]
            self._forget(start)
            self._backup_rule(cycle)

    def _forget(self, start: int) -> None:
        deps = self._deps
        for j in deps[start:]:
            self.state[j] = _UNRESOLVED
        del deps[start:]

    def _backup_rule(self, cycle: list[int]) -> None:
        paradox_armies = [
            self.target[j]
            for j in cycle
            if self.kind[j] == CONVOY and self.matched[j] and self.via[self.target[j]]
        ]
        if paradox_armies:
            for army in paradox_armies:
                self.broken_by_paradox[army] = True
            return
        for j in cycle:
            if self.kind[j] == MOVE:
                self.state[j] = _RESOLVED
                self.result[j] = True

    # --- decisions ------------------------------------------------------------------------------

    def _decide(self, i: int) -> bool:
        kind = self.kind[i]
        if kind == MOVE:
            return self._move_succeeds(i)
        if kind == SUPPORT:
            return self._support_given(i)
        return not self._attacked_successfully(self.prov[i])

    def _attacked_successfully(self, prov: str) -> bool:
        """Some move into ``prov`` succeeds (for a unit that stays there: it is dislodged)."""
        return any(self.resolve(m) for m in self.moves_into.get(prov, ()))

    def _support_given(self, i: int) -> bool:
        attackers = self.moves_into.get(self.prov[i])
        if not attackers:
            return True
        me = self.power[i]
        spared = self.support_dst[i]  # an attack from where the support goes does not cut it
        power = self.power
        prov = self.prov
        for m in attackers:
            if power[m] != me and prov[m] != spared and self.path(m):
                return False
        return not any(self.resolve(m) for m in attackers)

    def _move_succeeds(self, i: int) -> bool:
        attack = self.attack_strength(i)
        if attack == 0:
            return False
        dst = self.dst[i]
        opp = self.opp[i]
        if opp >= 0:
            if attack <= self.defend_strength(opp):
                return False
        else:
            d = self.occ.get(dst, -1)
            # a holding unit's strength is at most 1 + its supports: no need to resolve them if beaten
            if (
                d >= 0
                and (self.kind[d] == MOVE or attack <= 1 + len(self.sups[d]))
                and attack <= self.hold_strength(dst)
            ):
                return False
        sups = self.sups
        for m in self.moves_into[dst]:
            if m != i and attack <= 1 + len(sups[m]) and attack <= self.prevent_strength(m):
                return False
        return True

    # --- strengths and routes -------------------------------------------------------------------

    def path(self, i: int) -> bool:
        """Move ``i`` has its way open: always over land, by convoy only along fleets that stay."""
        if not self.via[i]:
            return True
        if self.broken_by_paradox[i]:
            return False
        fleets = self.convoy_fleets[i]
        if not fleets:
            return False
        occ = self.occ
        return route_exists(
            self.graph, self.prov[i], self.dst[i], fleets, usable=lambda sea: self.resolve(occ[sea])
        )

    def _count(self, supporters: list[int], except_power: str | None = None) -> int:
        """How many of ``supporters`` are given (leaving out those of ``except_power``)."""
        n = 0
        state = self.state
        result = self.result
        power = self.power
        for s in supporters:
            if power[s] != except_power and (result[s] if state[s] == _RESOLVED else self.resolve(s)):
                n += 1
        return n

    def attack_strength(self, i: int) -> int:
        if not self.path(i):
            return 0
        d = self.occ.get(self.dst[i], -1)
        if d < 0 or (self.kind[d] == MOVE and self.opp[i] != d and self.resolve(d)):
            return 1 + self._count(self.sups[i])
        defender = self.power[d]
        if defender == self.power[i]:
            return 0
        return 1 + self._count(self.sups[i], except_power=defender)

    def hold_strength(self, prov: str) -> int:
        d = self.occ.get(prov, -1)
        if d < 0:
            return 0
        if self.kind[d] == MOVE:
            return 0 if self.resolve(d) else 1
        return 1 + self._count(self.sups[d])

    def defend_strength(self, i: int) -> int:
        return 1 + self._count(self.sups[i])

    def prevent_strength(self, i: int) -> int:
        if not self.path(i):
            return 0
        opp = self.opp[i]
        if opp >= 0 and self.resolve(opp):
            return 0
        return 1 + self._count(self.sups[i])

    # --- results (after resolve_all) ------------------------------------------------------------

    def unsettled(self) -> list[int]:
        """Decisions not settled for good (none, after :meth:`resolve_all`)."""
        return [i for i in range(self.n) if self.kind[i] != HOLD and self.state[i] != _RESOLVED]

    def moved(self, i: int) -> bool:
        return self.kind[i] == MOVE and self.result[i]

    def provinces_after(self) -> set[str]:
        """Where the units stand after the moves (a dislodged unit still where it was)."""
        kind = self.kind
        result = self.result
        dst = self.dst
        return {dst[i] if kind[i] == MOVE and result[i] else p for i, p in enumerate(self.prov)}

    def dislodgements(self) -> list[Dislodgement]:
        """Every dislodged unit with the move that dislodged it."""
        out = []
        for prov, movers in self.moves_into.items():
            d = self.occ.get(prov, -1)
            if d < 0 or self.moved(d):
                continue
            for m in movers:
                if self.result[m]:
                    out.append(Dislodgement(d, m))
                    break
        return out

    def standoff_at(self, prov: str) -> bool:
        """``prov`` was left empty by a standoff: no unit may retreat there (DATC 6.H.6, 6.F.7, 6.H.9)."""
        movers = self.moves_into.get(prov)
        if movers is None:
            return False
        result = self.result
        for m in movers:
            if result[m]:
                return False
        d = self.occ.get(prov, -1)
        if d >= 0 and not self.moved(d):
            return False
        for m in movers:
            opp = self.opp[m]
            if self.path(m) and not (opp >= 0 and result[opp]):
                return True
        return False
