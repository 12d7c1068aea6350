"""Convoy geometry: which chains of fleets at sea can carry an army from one coast to another.

A convoy route is a sequence of sea provinces, each holding a fleet, where the first sea touches
the army's province, each sea touches the next, and the last touches the destination. A convoy port
(the ``convoy_ports`` rule switch, engine.rules: Baleares in Ancient Mediterranean) counts as a sea
here, and as a coast too: an army may stand in it, and leave or reach it by convoy, but a fleet in
the port is never part of a route from or to the port itself. Only the fleets' positions matter
here; whether they were ordered to convoy (and survive) is the resolver's business
(:mod:`engine.adjudicator.movement`).

Two board-level questions decide whether an order is legal before anything is resolved:

* :func:`route_exists` - could *some* chain of fleets now on the board carry the army? A move or a
  support that needs a convoy is illegal without one (DATC 6.D.32, 6.D.31, 4.E.1).
* :func:`minimal_route_fleets` - is this fleet part of some route that has no shortcut? A convoy
  order by a fleet that no route needs is illegal (DATC 6.G.19, 6.F.12): otherwise a fleet off the
  army's way could "express intent" for a convoy it takes no part in. :func:`minimal_routes`
  answers it for every destination in one search (what :mod:`engine.legal` needs to list every
  convoy on a board).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.mapdata import GameMap, province_of
from engine.orders import Unit
from engine.variants import convoy_ports

if TYPE_CHECKING:
    from engine.board import Board


@dataclass(frozen=True, slots=True)
class SeaGraph:
    """Province-level convoy adjacency of one map."""

    seas: frozenset[str]  # where a fleet convoys: the seas, and the convoy ports
    sea_neighbours: dict[str, frozenset[str]]  # sea -> adjacent seas
    sea_shores: dict[str, frozenset[str]]  # sea -> coastal land provinces it touches
    shore_seas: dict[str, frozenset[str]]  # coastal land province -> seas it touches
    ports: frozenset[str] = frozenset()  # the convoy ports: in ``seas`` and among the shores too
    # The same adjacency with each sea as one bit of an int, for BoardConvoys' searches: a set of
    # seas is an int, and a step of a search one "or" per sea reached.
    bit: dict[str, int] = field(default_factory=dict)  # sea -> its bit
    sea_at: dict[int, str] = field(default_factory=dict)  # bit -> its sea
    neighbour_bits: dict[int, int] = field(default_factory=dict)  # a sea's bit -> the seas next to it
    next_to_bits: dict[int, int] = field(default_factory=dict)  # a sea's bit -> the seas it is next to
    shore_bits: dict[str, int] = field(default_factory=dict)  # coastal province -> the seas it touches
    # (seas reached as bits, from where) -> (the other provinces they touch, the seas): a search's
    # answer but for the ports, shared by every board where an army there reaches the same seas
    # (kept for _DECODED_KEPT searches at most)
    decoded: dict[tuple[int, str], tuple[frozenset[str], frozenset[str]]] = field(
        default_factory=dict, compare=False, repr=False
    )
    # seas (bits) -> their names
    sea_sets: dict[int, frozenset[str]] = field(default_factory=dict, compare=False, repr=False)


_DECODED_KEPT = 4096


def convoying_fleets(graph: SeaGraph, occupant: dict[str, tuple[str, Unit]]) -> frozenset[str]:
    """The provinces of ``graph.seas`` where a fleet stands (``occupant``: Board.occupant), that is
    the fleets that could convoy: any unit at sea, and a fleet (not an army) in a convoy port."""
    found = graph.seas.intersection(occupant)
    if graph.ports:
        return frozenset(p for p in found if p not in graph.ports or occupant[p][1].type == "F")
    return found


_GRAPHS: dict[int, tuple[GameMap, SeaGraph]] = {}


def sea_graph(game_map: GameMap) -> SeaGraph:
    """The convoy adjacency of ``game_map``, built once per map."""
    hit = _GRAPHS.get(id(game_map))
    if hit is not None and hit[0] is game_map:
        return hit[1]
    ports = frozenset(p for p in convoy_ports(game_map.name) if game_map.is_coastal(p))
    seas = frozenset(code for code, p in game_map.provinces.items() if p.is_sea) | ports
    sea_neighbours: dict[str, set[str]] = {s: set() for s in seas}
    sea_shores: dict[str, set[str]] = {s: set() for s in seas}
    shore_seas: dict[str, set[str]] = {}
    for sea in seas:
        for loc in game_map.fleet_adjacency.get(sea, ()):
            prov = province_of(loc)
            if prov in seas:
                sea_neighbours[sea].add(prov)
            if prov not in seas or prov in ports:  # a port is a coast as well
                sea_shores[sea].add(prov)
                shore_seas.setdefault(prov, set()).add(sea)
    bit = {sea: 1 << i for i, sea in enumerate(sorted(seas))}
    graph = SeaGraph(
        seas=seas,
        sea_neighbours={k: frozenset(v) for k, v in sea_neighbours.items()},
        sea_shores={k: frozenset(v) for k, v in sea_shores.items()},
        shore_seas={k: frozenset(v) for k, v in shore_seas.items()},
        ports=ports,
        bit=bit,
        sea_at={b: sea for sea, b in bit.items()},
        neighbour_bits={bit[sea]: _bits(bit, near) for sea, near in sea_neighbours.items()},
        next_to_bits={bit[sea]: _bits(bit, [s for s in seas if sea in sea_neighbours[s]]) for sea in seas},
        shore_bits={prov: _bits(bit, near) for prov, near in shore_seas.items()},
    )
    _GRAPHS[id(game_map)] = (game_map, graph)
    return graph


def _bits(bit: dict[str, int], seas: Collection[str]) -> int:
    found = 0
    for sea in seas:
        found |= bit[sea]
    return found


def route_exists(
    graph: SeaGraph,
    src: str,
    dst: str,
    fleets: Collection[str],
    usable: Callable[[str], bool] | None = None,
) -> bool:
    """A chain of the sea provinces in ``fleets`` joins province ``src`` to province ``dst``.

    ``usable(sea)`` may veto a fleet; it is asked lazily, only for fleets the search reaches, which
    is what the resolver needs (asking means resolving whether that fleet is dislodged).
    """
    if src == dst:
        return False
    starts = graph.shore_seas.get(src)
    if not starts:
        return False
    if graph.ports and (src in fleets or dst in fleets):  # a port's own fleet carries nobody there
        fleets = set(fleets) - {src, dst}
    seen: set[str] = set()
    frontier = [s for s in starts if s in fleets]
    while frontier:
        sea = frontier.pop()
        if sea in seen:
            continue
        seen.add(sea)
        if usable is not None and not usable(sea):
            continue
        if dst in graph.sea_shores[sea]:
            return True
        for nxt in graph.sea_neighbours[sea]:
            if nxt in fleets and nxt not in seen:
                frontier.append(nxt)
    return False


def minimal_route_fleets(graph: SeaGraph, src: str, dst: str, fleets: Collection[str]) -> frozenset[str]:
    """The fleets (their seas) that lie on some route from ``src`` to ``dst`` without a shortcut.

    A route has no shortcut when no fleet on it could be left out: no sea touches a sea further
    along than the next one, only the first sea touches ``src`` and only the last touches ``dst``.
    Every route contains such a minimal one, so a fleet on none of them is never needed.
    """
    if src == dst:
        return frozenset()
    if graph.ports and (src in fleets or dst in fleets):  # a port's own fleet carries nobody there
        fleets = set(fleets) - {src, dst}
    shores = graph.sea_shores
    neighbours = graph.sea_neighbours
    src_seas = graph.shore_seas.get(src, frozenset())
    found: set[str] = set()
    path: list[str] = []

    def extend(sea: str) -> None:
        if any(sea in neighbours[earlier] for earlier in path[:-1]):
            return  # a shortcut from an earlier sea
        path.append(sea)
        if dst in shores[sea]:
            found.update(path)  # a route; going further would only add a shortcut to dst
        else:
            for nxt in neighbours[sea]:
                if nxt in fleets and nxt not in path and nxt not in src_seas:
                    extend(nxt)
        path.pop()

    for start in src_seas:
        if start in fleets:
            extend(start)
    return frozenset(found)


def minimal_routes(graph: SeaGraph, src: str, fleets: Collection[str]) -> dict[str, frozenset[str]]:
    """:func:`minimal_route_fleets` for every destination at once: destination -> the fleets on
    some route from ``src`` to it without a shortcut (destinations no route reaches are left out).

    One walk over the shortcut-free chains from ``src`` instead of one per destination: a chain
    that touches a province counts for it only where its last sea is the first to touch it, which
    is where the search for that one destination would have stopped.
    """
    bit = graph.bit
    sea_at = graph.sea_at
    shores = graph.sea_shores
    shore_bits = graph.shore_bits
    neighbour_bits = graph.neighbour_bits
    next_to = graph.next_to_bits
    fleet_bits = 0
    for name in fleets:
        fleet_bits |= bit.get(name, 0)
    src_seas = shore_bits.get(src, 0)
    found: dict[str, int] = {}  # destination -> the seas of its routes (bits)

    def extend(sea: int, before: int, last: int) -> None:
        # ``before``: the seas of the chain so far (bits), ``last`` the latest of them
        if next_to[sea] & before & ~last:
            return  # a shortcut from an earlier sea
        path = before | sea
        for dst in shores[sea_at[sea]]:
            # the first sea of the chain to touch dst, and dst not one of its seas (a port)
            if dst != src and not shore_bits[dst] & before and not bit.get(dst, 0) & path:
                found[dst] = found.get(dst, 0) | path
        further = neighbour_bits[sea] & fleet_bits & ~path & ~src_seas
        while further:
            nxt = further & -further
            extend(nxt, path, sea)
            further ^= nxt

    starts = src_seas & fleet_bits
    while starts:
        first = starts & -starts
        extend(first, 0, 0)
        starts ^= first
    return {dst: _seas_of(graph, seas) for dst, seas in found.items()}


def _seas_of(graph: SeaGraph, seas: int) -> frozenset[str]:
    """The seas of the bits ``seas``, as names (remembered for the map)."""
    hit = graph.sea_sets.get(seas)
    if hit is None:
        if len(graph.sea_sets) >= _DECODED_KEPT:
            graph.sea_sets.clear()
        names = []
        rest = seas
        while rest:
            names.append(graph.sea_at[rest & -rest])
            rest &= rest - 1
        hit = graph.sea_sets[seas] = frozenset(names)
    return hit


class BoardConvoys:
    """Convoy questions about one board (its fleets at sea), each answered once.

    The adjudicator asks about a few armies and destinations: :meth:`can_carry` and :meth:`needed`
    search for just those. Asking :meth:`reach` or :meth:`routes` first (engine.legal asks about
    every army and destination) answers them for every destination at once, and later questions
    about that army use those answers.
    """

    def __init__(self, graph: SeaGraph, sea_fleets: frozenset[str]) -> None:
        self.graph = graph
        self.sea_fleets = sea_fleets
        self.fleet_bits = _bits(graph.bit, sea_fleets)  # the same seas, as bits (SeaGraph.bit)
        self._carry: dict[tuple[str, str, str | None], bool] = {}
        self._minimal: dict[tuple[str, str], frozenset[str]] = {}
        self._reach: dict[tuple[str, str | None], tuple[frozenset[str], frozenset[str]]] = {}
        self._routes: dict[str, dict[str, frozenset[str]]] = {}

    def can_carry(self, src: str, dst: str, without: str | None = None) -> bool:
        """Some chain of fleets (leaving out the one in sea ``without``) joins coasts ``src``, ``dst``."""
        reach = self._reach.get((src, without))
        if reach is not None:
            return dst in reach[0]
        key = (src, dst, without)
        hit = self._carry.get(key)
        if hit is None:
            fleets = self.sea_fleets if without is None else self.sea_fleets - {without}
            hit = self._carry[key] = route_exists(self.graph, src, dst, fleets)
        return hit

    def needed(self, src: str, dst: str, fleet_sea: str) -> bool:
        """The fleet in ``fleet_sea`` is on some route from ``src`` to ``dst`` without a shortcut."""
        routes = self._routes.get(src)
        if routes is not None:
            seas = routes.get(dst)
            return seas is not None and fleet_sea in seas
        key = (src, dst)
        hit = self._minimal.get(key)
        if hit is None:
            hit = self._minimal[key] = minimal_route_fleets(self.graph, src, dst, self.sea_fleets)
        return fleet_sea in hit

    def routes(self, src: str) -> dict[str, frozenset[str]]:
        """:func:`minimal_routes` from ``src`` on this board (do not modify)."""
        hit = self._routes.get(src)
        if hit is None:
            hit = self._routes[src] = minimal_routes(self.graph, src, self.sea_fleets)
        return hit

    def reach(self, src: str, without: str | None = None) -> tuple[frozenset[str], frozenset[str]]:
        """Where chains of fleets (leaving out the one in sea ``without``) can carry an army from
        coastal province ``src``: the provinces (never ``src`` itself), and the seas of those
        chains. One search answers :meth:`can_carry` for every destination."""
        key = (src, without)
        hit = self._reach.get(key)
        if hit is None:
            if without is not None:
                hit = self.reach(src)
                if without in hit[1]:  # else leaving that fleet out changes nothing
                    hit = self._search(src, without)
            else:
                hit = self._search(src, None)
            self._reach[key] = hit
        return hit

    def _search(self, src: str, without: str | None) -> tuple[frozenset[str], frozenset[str]]:
        return reach_of(self.graph, self.sea_fleets, src, without, self.fleet_bits)


def reach_of(
    graph: SeaGraph, sea_fleets: frozenset[str], src: str, without: str | None = None, fleet_bits: int = -1
) -> tuple[frozenset[str], frozenset[str]]:
    """Where chains of the fleets in ``sea_fleets`` (leaving out the one in sea ``without``) can carry
    an army from coastal province ``src``: the provinces (never ``src`` itself), and the seas of
    those chains (:meth:`BoardConvoys.reach` without remembering; ``fleet_bits``: ``sea_fleets`` as
    bits, when known)."""
    allowed = fleet_bits if fleet_bits >= 0 else _bits(graph.bit, sea_fleets)
    if without is not None:
        allowed &= ~graph.bit.get(without, 0)
    frontier = graph.shore_bits.get(src, 0) & allowed
    if not frontier:
        return _NOWHERE
    neighbours = graph.neighbour_bits
    seen = frontier
    while frontier:  # breadth first: the seas next to those reached last
        step = 0
        while frontier:
            sea = frontier & -frontier  # its lowest bit: one sea
            step |= neighbours[sea]
            frontier ^= sea
        frontier = step & allowed & ~seen
        seen |= frontier
    key = (seen, src)
    reached = graph.decoded.get(key)
    if reached is None:
        if len(graph.decoded) >= _DECODED_KEPT:
            graph.decoded.clear()
        reached = graph.decoded[key] = _decode(graph, seen, src)
    if not graph.ports:
        return reached
    shores, seas = reached
    fleets = sea_fleets if without is None else sea_fleets - {without}
    for port in graph.ports.intersection(seas, shores):  # reached only through its own fleet?
        if not route_exists(graph, src, port, fleets):
            shores -= {port}
    return shores, seas


_NOWHERE: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())


def _decode(graph: SeaGraph, seen: int, src: str) -> tuple[frozenset[str], frozenset[str]]:
    """The provinces but ``src`` that the seas ``seen`` (bits) touch, and those seas."""
    sea_at = graph.sea_at
    sea_shores = graph.sea_shores
    seas = []
    touched: set[str] = set()
    while seen:
        sea = sea_at[seen & -seen]
        seas.append(sea)
        touched.update(sea_shores[sea])
        seen &= seen - 1
    touched.discard(src)
    return frozenset(touched), frozenset(seas)


# --- one board's convoy answers, shared ---------------------------------------------------------------

_BOARDS_KEPT = 16
# id(board) -> (board, its BoardConvoys); the board is kept so that its id stays its own
_BOARD_CONVOYS: dict[int, tuple[Board, BoardConvoys]] = {}


def board_convoys(board: Board) -> BoardConvoys:
    """The :class:`BoardConvoys` of ``board`` (its fleets now at sea), one per board: order entry
    (engine.entry) and the legal orders' list (engine.legal) ask the same object, so they share its
    answers and cannot judge a convoy differently. Remembered for the last few boards, by identity
    (a board is never changed once built)."""
    hit = _BOARD_CONVOYS.get(id(board))
    if hit is not None and hit[0] is board:
        return hit[1]
    graph = sea_graph(board.game_map)
    convoys = BoardConvoys(graph, convoying_fleets(graph, board.occupant))
    if len(_BOARD_CONVOYS) >= _BOARDS_KEPT:
        del _BOARD_CONVOYS[next(iter(_BOARD_CONVOYS))]  # the oldest board
    _BOARD_CONVOYS[id(board)] = (board, convoys)
    return convoys


def forget_board_convoys(board: Board | None = None) -> None:
    """Empty the memory of boards seen (for benchmarks, and for a board changed in place); with
    ``board``, forget that board only."""
    if board is None:
        _BOARD_CONVOYS.clear()
        return
    hit = _BOARD_CONVOYS.get(id(board))
    if hit is not None and hit[0] is board:
        del _BOARD_CONVOYS[id(board)]


@dataclass(frozen=True, slots=True)
class FleetsNeeded:
    """What a convoy from one coast to another lacks: ``missing`` are seas that need a fleet (any one
    of them when ``alternatives``, else all of them, with the fleets in ``present`` on the same
    chain)."""

    missing: tuple[str, ...]
    present: tuple[str, ...] = ()
    alternatives: bool = False


def fleets_needed(
    graph: SeaGraph, src: str, dst: str, fleets: Collection[str], without: str | None = None
) -> FleetsNeeded | None:
    """The fewest seas that would need a fleet, besides ``fleets`` (leaving out the one in sea
    ``without``), for a chain to join coasts ``src`` and ``dst``: of the chains lacking the fewest
    fleets, the shortest. When one fleet would do, every sea where one fleet alone would do.
    None when no chain of seas joins them at all, or none is lacking."""
    if src == dst:
        return None
    blocked = {src, dst, without}
    usable = [s for s in graph.seas if s not in blocked]
    have = {s for s in fleets if s not in blocked}
    starts = [s for s in graph.shore_seas.get(src, ()) if s not in blocked]
    # Dijkstra over the seas: cost (fleets lacking, seas) of the cheapest chain from src to each sea
    best: dict[str, tuple[int, int]] = {}
    parent: dict[str, str] = {}  # sea -> the sea before it on that chain ("" for the first)
    frontier = [((0 if s in have else 1, 1), s, "") for s in starts]
    heapq.heapify(frontier)
    end = None
    while frontier:
        cost, sea, before = heapq.heappop(frontier)
        if sea in best:
            continue
        best[sea] = cost
        parent[sea] = before
        if dst in graph.sea_shores[sea]:
            end = sea
            break
        for nxt in graph.sea_neighbours[sea]:
            if nxt not in best and nxt not in blocked:
                step = (cost[0] + (0 if nxt in have else 1), cost[1] + 1)
                heapq.heappush(frontier, (step, nxt, sea))
    if end is None or best[end][0] == 0:
        return None
    if best[end][0] == 1:
        alone = (s for s in usable if s not in have and route_exists(graph, src, dst, have | {s}))
        return FleetsNeeded(tuple(sorted(alone)), alternatives=True)
    chain = []
    here = end
    while here:
        chain.append(here)
        here = parent[here]
    chain.reverse()
    return FleetsNeeded(tuple(s for s in chain if s not in have), tuple(s for s in chain if s in have))
