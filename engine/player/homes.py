"""The hard level's care for its home centres and for the game's balance (issue 43's sanity goals),
kept apart from the look-ahead's search (engine.player.lookahead calls these behind its switches)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from engine.board import Board
from engine.legal import LegalOrder, OrderKind, legal_orders
from engine.mapdata import province_of
from engine.orders import Order


def build_sites(
    before: Board, after: Board, power: str, centres: int, threat: Mapping[str, int]
) -> frozenset[str]:
    """The home centres of ours a build would stand on after this fall: empty after it and still ours,
    as many as the builds due (``centres`` then, less our units), the most threatened first. A unit
    built there covers it, so leaving it empty exposes nothing."""
    due = centres - len(after.units.get(power, ()))
    if due <= 0:
        return frozenset()
    owned = before.centers.get(power, frozenset())
    occupant = after.occupant
    empty = [h for h in before.game_map.home_centers.get(power, ()) if h in owned and h not in occupant]
    empty.sort(key=lambda h: (-threat.get(h, 0), h))
    return frozenset(empty[:due])


def runaway(board: Board, power: str, holding: Collection[str], at: int, margin: int) -> str | None:
    """The power other than ``power`` (not in civil disorder) that owns at least ``at`` centres and at
    least ``margin`` more than any other power; None when no power leads so."""
    sizes = sorted(((len(cs), p) for p, cs in board.centers.items() if cs), reverse=True)
    if not sizes:
        return None
    top, leader = sizes[0]
    second = sizes[1][0] if len(sizes) > 1 else 0
    if leader == power or leader in holding or top < at or top - second < margin:
        return None
    return leader


def attacks_on_others(
    board: Board, power: str, leader: str, holding: Collection[str]
) -> Callable[[Collection[LegalOrder]], int]:
    """Counts a plan's moves that attack a power other than ``leader`` (and not in civil disorder):
    into a centre it owns, or into a province its unit holds that is not a centre of ours."""
    owned = board.centers.get(power, frozenset())
    owner = {c: p for p, cs in board.centers.items() for c in cs}
    occupant = board.occupant
    spared = {p for p in board.game_map.powers if p not in (power, leader) and p not in holding}
    targets = {c for c, p in owner.items() if p in spared}
    targets |= {prov for prov, (p, _) in occupant.items() if p in spared and prov not in owned}

    def count(plan: Collection[LegalOrder]) -> int:
        return sum(1 for o in plan if o.kind == OrderKind.MOVE and province_of(o.target or "") in targets)

    return count


def leader_attack(
    board: Board, power: str, reply: Mapping[str, list[Order]], leader: str
) -> dict[str, list[Order]] | None:
    """``reply`` with ``leader``'s units turned on our centres: into each centre of ours (the one most
    of its units could enter first) one of its units moves, and its other units that could support
    that move do; each unit used once. None when none of its units could enter a centre of ours."""
    owned = board.centers.get(power, frozenset())
    legal = legal_orders(board, leader)
    entries = {e.unit.province: e for e in legal.entries if e.unit is not None}
    into: dict[str, list[tuple[str, LegalOrder]]] = {}
    for prov, entry in sorted(entries.items()):
        for option in entry.orders:
            if option.kind == OrderKind.MOVE and not option.via_convoy:
                target = province_of(option.target or "")
                if target in owned:
                    into.setdefault(target, []).append((prov, option))
    if not into:
        return None
    orders = {o.unit.province: o for o in reply.get(leader, ()) if o.unit is not None}
    used: set[str] = set()
    for centre in sorted(into, key=lambda c: (-len(into[c]), c)):
        mover = next(((p, o) for p, o in into[centre] if p not in used), None)
        if mover is None:
            continue
        used.add(mover[0])
        orders[mover[0]] = mover[1].order
        for prov, entry in sorted(entries.items()):
            if prov in used:
                continue
            for option in entry.orders:
                if (
                    option.kind == OrderKind.SUPPORT
                    and option.helped is not None
                    and not option.helped_holds
                    and option.helped.province == mover[0]
                    and province_of(option.target or "") == centre
                ):
                    orders[prov] = option.order
                    used.add(prov)
                    break
    return {**reply, leader: [orders[p] for p in sorted(orders)]}
