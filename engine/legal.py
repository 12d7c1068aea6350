"""Every order a power may give in the board's current phase, shaped for menus ("orders by tap").

``legal_orders(board, power)`` answers with a :class:`LegalOrders`: one :class:`UnitOrders` per
thing the power gives an order to, each holding its :class:`LegalOrder` values. A menu walks it in
four steps, each a short list::

    legal = legal_orders(board, "FRANCE")
    entry = legal.entry("PAR")                    # 1. the unit (or build site), from legal.entries
    entry.kinds()                                 # 2. what it does: (HOLD, MOVE, SUPPORT)
    entry.targets(OrderKind.SUPPORT)              # 3. where: ("BRE", "BUR", "GAS", "PIC")
    entry.choices(OrderKind.SUPPORT, "BUR")       # 4. the unit helped: A MAR - BUR, A MUN - BUR
    chosen = entry.choices(OrderKind.SUPPORT, "BUR")[0]
    chosen.text                                   # "A PAR S A MAR - BUR": submit it as typed text

Kinds without a target (hold, disband, remove) have one choice: ``entry.choices(kind)``.

What each phase lists, per entry:

* movement (one entry per unit): ``HOLD``; ``MOVE`` to every place the unit reaches by itself
  (fleets name the coast where a province has two: ``F MAO - SPA/NC`` and ``F MAO - SPA/SC``),
  and for an army every coast a chain of fleets now at sea can carry it to, as ``A LON - NWY VIA``
  (also to a neighbour, ``A LON - YOR VIA``: a different order, DATC 4.A.3); ``SUPPORT`` of any
  unit next to it holding, and of any move another unit could make (by land, along a coast, or
  convoyed by fleets other than the supporter, DATC 6.D.31) into a province this unit could
  itself move to; ``CONVOY`` (fleets at sea, and in a variant's convoy ports) of every army and
  destination for which the fleet lies on a route of fleets now on the board (DATC 6.G.19: not on a
  detour).
* retreats (one entry per dislodged unit): ``RETREAT`` to each of its options, ``DISBAND``.
* adjustments: when the power builds, one entry per vacant home center it owns (any vacant center it
  owns with the ``build_anywhere`` rule switch, engine.rules), with a ``BUILD``
  of each unit that fits there (``A STP B``, ``F STP/NC B``, ``F STP/SC B``; no fleet inland), and
  :attr:`LegalOrders.waive`; when it must remove, one entry per unit with its ``REMOVE``.

What ``target`` and ``helped`` mean, by kind (``target`` is what the third menu step lists):

==========  ===========================================  ======================================
kind        target                                        helped
==========  ===========================================  ======================================
HOLD        None                                          None
MOVE        the destination, coast named for a fleet      None (``via_convoy`` marks VIA moves)
SUPPORT     the province the helped unit is to be in:     the supported unit
            its destination, or its own province for
            a support to hold (``helped_holds``)
CONVOY      the army's destination province               the convoyed army
RETREAT     the destination, coast named for a fleet      None
DISBAND     None                                          None
BUILD       the new unit's text: ``A STP``, ``F STP/NC``  None
REMOVE      None                                          None
WAIVE       None                                          None
==========  ===========================================  ======================================

Legality is the engine's own: the listed orders are exactly those that
:func:`engine.validation.validate_order` and the phase's board-level check
(:func:`engine.adjudicator.legality.board_check`: the fleets at sea, or the adjustment count of
:mod:`engine.adjudicator.adjustments`) accept - the very functions the adjudicator judges orders
with. Retreats and adjustments keep their few candidates by asking those two; a movement phase's
orders (thousands on a crowded board, each judged by the validator in about 7 us) are generated
directly from the map's adjacency and what the board says once for every power (the fleets' convoy
reach and routes, from the board's convoy answers :func:`board_convoys`; the units that could move
into each province), by the same rules (see :func:`_unit_orders`). tests/engine/legal_reference.py
keeps the candidates-and-validator way, and tests/engine/test_legal_orders_reference.py checks the
two give the same lists, element for element, on random boards of every variant and phase. So
every listed order is valid when adjudicated, and ``text`` (``format_order`` of it) reads back
through the parser as the same order. Typed orders pass the same two checks at entry
(:func:`engine.entry.enter_order`, with the board's same convoy answers), so a player is offered by
tap exactly what they may type.

Each order is listed once, in the form the engine writes:

* an army's move to a place it cannot reach by land is listed with VIA; :meth:`LegalOrders.find`
  also finds it from the same move written without (it goes by convoy either way);
* a support of a move names the province, not a coast (it supports a move to either coast,
  DATC 6.B.7); one naming a coast is not listed, and ``find`` does not match it;
* by the rules as validation has them, a support or convoy may help any power's unit, a neutral
  one included (ww1914: Italy's units only hold, but supporting one out of Italy is valid).

The results depend only on the board; they are remembered for the last few boards (by identity:
boards are treated as immutable), so one builder step after another costs a dictionary lookup.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from operator import attrgetter
from typing import Any

from engine.adjudicator.adjustments import adjustment_due
from engine.adjudicator.convoys import SeaGraph, board_convoys, forget_board_convoys, reach_of, sea_graph
from engine.adjudicator.legality import board_check
from engine.board import Board
from engine.errors import OrderError
from engine.mapdata import COAST, GameMap, province_of
from engine.orders import (
    FORMATTERS,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
    format_order,
    quick_hold,
    quick_move,
    quick_support_hold,
    shared_unit,
)
from engine.phase import Phase
from engine.rules import build_sites
from engine.validation import validate_order

__all__ = [
    "LegalOrder",
    "LegalOrders",
    "OrderKind",
    "UnitOrders",
    "forget_board",
    "forget_legal_orders",
    "legal_orders",
]


class OrderKind(StrEnum):
    """What an order does: the second step of a menu. The values are short, stable words (safe in
    a Discord custom id)."""

    HOLD = "hold"
    MOVE = "move"
    SUPPORT = "support"
    CONVOY = "convoy"
    RETREAT = "retreat"
    DISBAND = "disband"
    BUILD = "build"
    REMOVE = "remove"
    WAIVE = "waive"


_RANK = {kind: i for i, kind in enumerate(OrderKind)}


@dataclass(frozen=True, slots=True)
class LegalOrder:
    """One order the rules allow, with the facts a menu groups it by (see the module's table)."""

    order: Order  # the engine's order, exactly as validate_order returns it
    text: str  # its canonical text (format_order), e.g. "A PAR - BUR", "F NTH C A LON - NWY"
    kind: OrderKind
    target: str | None = None
    helped: Unit | None = None  # the unit supported or convoyed
    via_convoy: bool = False  # a move by convoy (VIA)

    @property
    def unit(self) -> Unit | None:
        """The unit ordered (the new unit for a build); None for WAIVE."""
        return self.order.unit

    @property
    def helped_holds(self) -> bool:
        """A support to hold: the helped unit stays where it is."""
        return type(self.order) is SupportHold

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class UnitOrders:
    """The orders of one unit, or of one build site in an adjustment phase.

    ``location`` is where the unit stands (``STP/SC``) or the build site's province (``STP``);
    ``unit`` and ``unit_type`` are None for a build site, where either type may be built.
    ``orders`` come sorted by kind (in :class:`OrderKind` order), then target, then helped unit
    (for supports, the unit holding in the target first).
    """

    location: str
    unit: Unit | None
    orders: tuple[LegalOrder, ...]
    dislodged: bool = False  # a dislodged unit in a retreat phase
    # kind -> its orders, filled on first use (a menu asks for them at every drawing of the sheet)
    _by_kind: dict[str, tuple[LegalOrder, ...]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def province(self) -> str:
        return province_of(self.location)

    @property
    def unit_type(self) -> str | None:
        return None if self.unit is None else self.unit.type

    def kinds(self) -> tuple[OrderKind, ...]:
        """The kinds of order this unit has, in menu order."""
        return tuple(dict.fromkeys(o.kind for o in self.orders))

    def of_kind(self, kind: OrderKind | str) -> tuple[LegalOrder, ...]:
        found = self._by_kind.get(kind)
        if found is None:
            found = self._by_kind[kind] = tuple(o for o in self.orders if o.kind == kind)
        return found

    def targets(self, kind: OrderKind | str) -> tuple[str, ...]:
        """The distinct targets of the orders of ``kind``, in order (none for HOLD, DISBAND...)."""
        return tuple(dict.fromkeys(o.target for o in self.orders if o.kind == kind and o.target is not None))

    def choices(self, kind: OrderKind | str, target: str | None = None) -> tuple[LegalOrder, ...]:
        """The orders of ``kind`` aimed at ``target``: the helped units of a support or convoy, the
        land and the convoy move to one place, or the one order of a hold."""
        return tuple(o for o in self.orders if o.kind == kind and o.target == target)


@dataclass(frozen=True, slots=True)
class LegalOrders:
    """Everything ``power`` may order on one board in its current phase.

    ``entries`` are sorted by location. ``due`` is the adjustment count: builds (> 0) or removals
    (< 0) due, 0 outside adjustment phases. ``waive`` is the WAIVE order when the power builds.
    ``reason`` says why there is nothing to order when the rules forbid the power any order (a
    neutral power in ww1914); it is None otherwise, even when there is simply nothing to do.
    """

    power: str
    phase: Phase
    entries: tuple[UnitOrders, ...]
    due: int = 0
    waive: LegalOrder | None = None
    reason: str | None = None
    # The VIA moves to a place the army cannot walk to, which find takes written without VIA too;
    # the full index is built on first use.
    _aliases: tuple[LegalOrder, ...] = field(default=(), repr=False, compare=False)
    _index: dict[str, LegalOrder] = field(default_factory=dict, repr=False, compare=False)
    _entries: dict[str, UnitOrders] = field(default_factory=dict, repr=False, compare=False)

    def __iter__(self) -> Iterator[LegalOrder]:
        """Every listed order: the entries' in turn, then WAIVE."""
        for entry in self.entries:
            yield from entry.orders
        if self.waive is not None:
            yield self.waive

    def __len__(self) -> int:
        return sum(len(e.orders) for e in self.entries) + (self.waive is not None)

    def __contains__(self, order: object) -> bool:
        return isinstance(order, Order | str) and self.find(order) is not None

    def entry(self, place: str) -> UnitOrders | None:
        """The entry of the unit or build site in ``place`` (a province or location code)."""
        return self._entries.get(province_of(place.upper()))

    def find(self, order: Order | str) -> LegalOrder | None:
        """The listed order that ``order`` (an Order as validation completes it, or its canonical
        text) stands for, or None. ``A LON - NWY`` finds ``A LON - NWY VIA``: an army's move to a
        place it cannot reach by land goes by convoy either way (DATC 4.A.3)."""
        index = self._index  # by text only (an order's text and kind say all of it): half the memory
        if not index:
            for legal in self:
                index[legal.text] = legal
            for legal in self._aliases:
                move = legal.order
                if isinstance(move, Move):  # (always) indexed by the same move's text without VIA
                    index.setdefault(f"{move.unit.text} - {move.dest}", legal)
        if type(order) is str:
            return index.get(order)
        if not isinstance(order, Order):
            return None
        try:
            found = index.get(format_order(order))
        except (TypeError, AttributeError):  # not an order the engine writes
            return None
        # the same text, the same kind (a disband and a removal read alike): the same order
        return found if found is not None and type(found.order) is type(order) else None


# --- per-map tables -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Tables:
    """The map's adjacency as sorted tuples, and who can move where, built once per map."""

    army_moves: dict[str, tuple[str, ...]]  # province -> neighbouring provinces an army moves to
    # (and so supports into); armies can be convoyed further, and their neighbours move in
    fleet_moves: dict[str, tuple[str, ...]]  # location -> locations a fleet moves to
    fleet_reach: dict[str, tuple[str, ...]]  # location -> provinces a fleet there could support into
    fleets_into: dict[str, tuple[tuple[str, str], ...]]  # province -> (location, its province) of
    # the fleets that could move into it
    army_adjacency: dict[str, frozenset[str]]
    seas: frozenset[str]
    graph: SeaGraph
    build_units: dict[str, tuple[Unit, ...]]  # province -> units that can be built there
    coastal: frozenset[str]  # the coastal provinces: where a convoy starts and lands
    province_at: dict[str, str]  # location -> its province


_TABLES: dict[int, tuple[GameMap, _Tables]] = {}


def _tables(gm: GameMap) -> _Tables:
    hit = _TABLES.get(id(gm))
    if hit is not None and hit[0] is gm:
        return hit[1]
    fleets_into: dict[str, list[str]] = {}
    for loc, provs in gm.fleet_reach.items():
        for prov in provs:
            fleets_into.setdefault(prov, []).append(loc)
    build_units: dict[str, tuple[Unit, ...]] = {}
    for code, province in gm.provinces.items():
        units = [shared_unit("A", code)] if province.is_land else []
        if province.has_coast:
            units += [shared_unit("F", loc) for loc in province.locations]
        build_units[code] = tuple(units)
    tables = _Tables(
        army_moves={p: tuple(sorted(adj)) for p, adj in gm.army_adjacency.items()},
        fleet_moves={loc: tuple(sorted(adj)) for loc, adj in gm.fleet_adjacency.items()},
        fleet_reach={loc: tuple(sorted(provs)) for loc, provs in gm.fleet_reach.items()},
        fleets_into={
            p: tuple((loc, province_of(loc)) for loc in sorted(locs)) for p, locs in fleets_into.items()
        },
        army_adjacency=gm.army_adjacency,
        seas=(graph := sea_graph(gm)).seas,  # and the convoy ports, where fleets convoy too
        graph=graph,
        build_units=build_units,
        coastal=frozenset(code for code, province in gm.provinces.items() if province.kind == COAST),
        province_at=gm.province_at,
    )
    _TABLES[id(gm)] = (gm, tables)
    return tables


# --- per-board facts ----------------------------------------------------------------------------------


_NONE: frozenset[str] = frozenset()
_NO_PAIRS: frozenset[tuple[str, str]] = frozenset()


class _BoardFacts:
    """What every power's list shares on one board: where the fleets at sea can carry each army,
    and which fleet may convoy which army where. Worked out from the board's convoy answers
    (:func:`board_convoys`, the very answers the board-level check gives) once per board, and
    dropped once every power is listed; the convoy answers themselves are not kept here (kept for
    every board not yet listed for every power, they held 4 MiB for 45 games)."""

    __slots__ = (
        "_fleet_bits",
        "_fleets",
        "_tables",
        "_without",
        "board",
        "carried_into",
        "carry",
        "chain_seas",
        "convoys_by_sea",
        "movers_into",
    )

    def __init__(self, board: Board, tables: _Tables) -> None:
        self.board = board
        self._tables = tables
        # province -> the units that could move into it by themselves, sorted by text (armies by
        # land first, then fleets along a coast): filled on first use (see movers)
        self.movers_into: dict[str, tuple[Unit, ...]] = {}
        # army's province -> the provinces a chain of fleets can carry it to, sorted
        self.carry: dict[str, tuple[str, ...]] = {}
        # province -> the armies a chain can carry there that cannot walk there
        self.carried_into: dict[str, list[Unit]] = {}
        # sea (or port) -> (destination, army) of every convoy its fleet may be ordered, sorted as
        # listed: by destination, then army (the fleet lies on a route without a detour, DATC 6.G.19)
        self.convoys_by_sea: dict[str, list[tuple[str, Unit]]] = {}
        self.chain_seas: dict[str, frozenset[str]] = {}  # army's province -> the seas of those chains
        # (army's province, a sea left out) -> where chains without that sea's fleet carry it
        self._without: dict[tuple[str, str], frozenset[str]] = {}
        convoys = board_convoys(board)  # order entry and the board-level check ask the same one
        sea_fleets = self._fleets = convoys.sea_fleets
        self._fleet_bits = convoys.fleet_bits
        if not sea_fleets:
            return
        occupant = board.occupant
        closed = board.closed
        shore_seas = tables.graph.shore_seas
        walks = tables.army_adjacency
        coastal = tables.coastal
        armies = []  # those on a coast (validation: only they are convoyed)
        reached: dict[str, frozenset[str]] = {}
        for prov, (_, unit) in occupant.items():
            if unit.type != "A" or shore_seas.get(prov, _NONE).isdisjoint(sea_fleets):
                continue
            dests, seas = convoys.reach(prov)
            self.carry[prov] = tuple(sorted(dests))
            self.chain_seas[prov] = seas
            steps = walks[prov]
            for dest in dests:
                if dest not in steps:
                    self.carried_into.setdefault(dest, []).append(unit)
            if prov in coastal:
                armies.append(unit)
                reached[prov] = dests
        # the convoys, in the order listed: by destination, then army
        armies.sort(key=_TEXT)
        into: dict[str, list[tuple[Unit, frozenset[str]]]] = {}
        for unit in armies:
            prov = unit.province
            can_reach = reached[prov]
            seas = self.chain_seas[prov]
            for dest, fleets in convoys.routes(prov).items():
                if dest in coastal and dest not in closed and dest in can_reach:
                    into.setdefault(dest, []).append((unit, fleets & seas))
        by_sea: defaultdict[str, list[tuple[str, Unit]]] = defaultdict(list)
        for dest in sorted(into):
            for unit, fleets in into[dest]:
                for sea in fleets:
                    if sea != dest:
                        by_sea[sea].append((dest, unit))
        self.convoys_by_sea = dict(by_sea)

    def movers(self, prov: str) -> tuple[Unit, ...]:
        """The units that could move into ``prov`` by themselves (see movers_into)."""
        occupant = self.board.occupant
        tables = self._tables
        found = []
        for src in tables.army_moves.get(prov, ()):
            other = occupant.get(src)
            if other is not None and other[1].type == "A":
                found.append(other[1])
        for loc, src in tables.fleets_into.get(prov, ()):
            other = occupant.get(src)
            if other is not None and other[1].location == loc and other[1].type == "F":
                found.append(other[1])
        hit = self.movers_into[prov] = tuple(found)
        return hit

    def carried_without(self, army: Unit, sea: str) -> frozenset[str]:
        """Where chains of fleets can carry ``army`` without the fleet in ``sea`` (a support of a
        convoyed move by that fleet needs such a chain, DATC 6.D.31)."""
        key = (army.province, sea)
        hit = self._without.get(key)
        if hit is None:
            # (BoardConvoys.reach's own search, not remembered there: the board's convoy answers are
            # kept for the last few boards only, and 45 games list more)
            hit = self._without[key] = reach_of(
                self._tables.graph, self._fleets, army.province, sea, self._fleet_bits
            )[0]
        return hit


_CACHE_SIZE = 48  # as many boards as a bot keeps (gm.ordering.progress.BOARDS_KEPT): one per busy game
# id(board) -> (board, its facts, power -> LegalOrders); the board is kept so its id stays its own
_CACHE: dict[int, tuple[Board, _BoardFacts | None, dict[str, LegalOrders]]] = {}


def forget_board(board: Board) -> None:
    """Forget what was worked out for ``board`` (its legal orders, its convoy answers): a position
    nobody will ask about again (its game has moved on)."""
    hit = _CACHE.get(id(board))
    if hit is not None and hit[0] is board:
        del _CACHE[id(board)]
    forget_board_convoys(board)


def forget_legal_orders() -> None:
    """Empty the memory of boards seen (for benchmarks, and for a board changed in place), the
    boards' convoy answers included (engine.adjudicator.convoys.board_convoys)."""
    _CACHE.clear()
    _SHARED.clear()
    _SHARED_MOVEMENT.clear()
    forget_board_convoys()


# --- the entry point ----------------------------------------------------------------------------------


def legal_orders(board: Board, power: str) -> LegalOrders:
    """Every order ``power`` may give on ``board`` in its phase (see the module docstring).

    Raises ValueError for a power the map does not have. The answer is remembered for the board
    (by identity; a board is never changed once built).
    """
    gm = board.game_map
    if power not in gm.powers:
        raise ValueError(f"unknown power {power!r}; powers are {', '.join(gm.powers)}")
    hit = _CACHE.get(id(board))
    if hit is None or hit[0] is not board:
        if len(_CACHE) >= _CACHE_SIZE:
            del _CACHE[next(iter(_CACHE))]  # the oldest board
        hit = _CACHE[id(board)] = (board, None, {})
    done = hit[2].get(power)
    if done is not None:
        return done
    tables = _tables(gm)
    kind = board.phase.kind
    if board.closed and power in board.rules.neutral:
        # validate_order refuses every order of theirs, first thing, with this reason
        result = _result(board, power, [], reason=board.rules.neutral_reason())
    elif kind == "M":
        facts = hit[1]
        if facts is None:
            facts = _BoardFacts(board, tables)
            _CACHE[id(board)] = (board, facts, hit[2])
        entries, aliases = _movement(board, power, tables, facts)
        result = _result(board, power, entries, aliases=aliases)
    elif kind == "R":
        result = _result(board, power, _retreats(board, power))
    else:
        due = adjustment_due(board, power)
        entries, waive = _adjustments(board, power, tables, due)
        result = _result(board, power, entries, due=due, waive=waive)
    hit[2][power] = result
    if len(hit[2]) == len(gm.powers):  # every power listed: what they shared is needed no more
        _CACHE[id(board)] = (board, None, hit[2])
    return result


def _result(
    board: Board,
    power: str,
    entries: list[UnitOrders],
    *,
    due: int = 0,
    waive: LegalOrder | None = None,
    reason: str | None = None,
    aliases: dict[str, list[LegalOrder]] | None = None,
) -> LegalOrders:
    entries.sort(key=_LOCATION)
    # a VIA move to a place it cannot reach by land: the same move without VIA is convoyed anyway
    found = () if not aliases else tuple(a for e in entries for a in aliases.get(e.location, ()))
    by_place = {entry.province: entry for entry in entries}
    return LegalOrders(power, board.phase, tuple(entries), due, waive, reason, found, {}, by_place)


_LOCATION = attrgetter("location")


# --- judging candidates with the engine's own checks --------------------------------------------------


def _keep(
    candidates: list[Order], board: Board, power: str, check: Callable[[Order], Order]
) -> tuple[LegalOrder, ...]:
    """The candidates that validation and the phase's check accept, described and sorted."""
    seen: set[str] = set()
    keyed = []
    validate = validate_order
    formatters = FORMATTERS
    describe = _DESCRIBE
    shared = _SHARED
    for candidate in candidates:
        try:
            order = check(validate(candidate, board, power))
        except OrderError:
            continue
        kind = type(order)
        text = formatters[kind](order)
        if text in seen:
            continue
        seen.add(text)
        found = shared.get((kind, text))
        if found is None or not _same_units(found[1], order):
            if len(shared) >= _SHARED_SIZE:
                shared.clear()
            found = shared[(kind, text)] = describe[kind](order, text)
        keyed.append(found)
    keyed.sort(key=_first)
    return tuple(legal for _, legal in keyed)


_SHARED_SIZE = 32768  # orders shared (about 10 MiB at most), before starting afresh
# (kind of order, its text) -> (its sort key, the LegalOrder): a LegalOrder depends on the order alone
# (its text and kind say all of it), so every board that lists the same order holds the same object:
# 45 mid-game boards list 76,000 orders but only 2,000 different ones (19 MiB held, 4 shared).
_SHARED: dict[tuple[type[Order], str], _Keyed] = {}


def _same_units(legal: LegalOrder, order: Order) -> bool:
    """Whether ``legal`` names the very Unit objects ``order`` does (the board's own: a listed
    order's unit *is* the board's unit, engine.orders.shared_unit; a board built from other Units
    gets LegalOrders of its own)."""
    if legal.order.unit is not order.unit:
        return False
    helped = legal.helped
    if helped is None:
        return True
    if isinstance(order, Convoy):
        return helped is order.convoyed
    return isinstance(order, SupportHold | SupportMove) and helped is order.supported


def _first(item: tuple[tuple[int, str, int, str, bool], LegalOrder]) -> tuple[int, str, int, str, bool]:
    return item[0]


_new = object.__new__
# The slots' own setters: LegalOrder(...) without the frozen dataclass's __init__, which sets each
# field through object.__setattr__ (a new object per listed order, and a full board lists thousands).
_SET_ORDER, _SET_TEXT, _SET_KIND, _SET_TARGET, _SET_HELPED, _SET_VIA = (
    getattr(LegalOrder, name).__set__ for name in ("order", "text", "kind", "target", "helped", "via_convoy")
)


def _legal(
    order: Order,
    text: str,
    kind: OrderKind,
    target: str | None = None,
    helped: Unit | None = None,
    via_convoy: bool = False,
) -> LegalOrder:
    """The same value as LegalOrder(order, text, kind, target, helped, via_convoy), built faster."""
    legal = _new(LegalOrder)
    _SET_ORDER(legal, order)
    _SET_TEXT(legal, text)
    _SET_KIND(legal, kind)
    _SET_TARGET(legal, target)
    _SET_HELPED(legal, helped)
    _SET_VIA(legal, via_convoy)
    return legal


# How each kind of order is described: (its sort key, the LegalOrder). The key sorts by kind, then
# target, then the helped unit (the one holding in the target first), then land before convoy.
_Keyed = tuple[tuple[int, str, int, str, bool], LegalOrder]
_HOLD, _MOVE, _SUPPORT, _CONVOY, _RETREAT, _DISBAND, _BUILD, _REMOVE, _WAIVE = (_RANK[k] for k in OrderKind)


def _hold(o: Hold, text: str) -> _Keyed:
    return (_HOLD, "", 0, "", False), _legal(o, text, OrderKind.HOLD)


def _move(o: Move, text: str) -> _Keyed:
    return (_MOVE, o.dest, 0, "", o.via_convoy), _legal(o, text, OrderKind.MOVE, o.dest, None, o.via_convoy)


def _support_hold(o: SupportHold, text: str) -> _Keyed:
    helped = o.supported
    return (_SUPPORT, helped.province, 0, "", False), _legal(
        o, text, OrderKind.SUPPORT, helped.province, helped
    )


def _support_move(o: SupportMove, text: str) -> _Keyed:
    helped = o.supported
    dest = province_of(o.dest)  # (validation leaves no coast, but the target is a province anyway)
    return (_SUPPORT, dest, 1, helped.text, False), _legal(o, text, OrderKind.SUPPORT, dest, helped)


def _convoy(o: Convoy, text: str) -> _Keyed:
    army = o.convoyed
    return (_CONVOY, o.dest, 1, army.text, False), _legal(o, text, OrderKind.CONVOY, o.dest, army)


def _retreat(o: Retreat, text: str) -> _Keyed:
    return (_RETREAT, o.dest, 0, "", False), _legal(o, text, OrderKind.RETREAT, o.dest)


def _disband(o: Disband, text: str) -> _Keyed:
    return (_DISBAND, "", 0, "", False), _legal(o, text, OrderKind.DISBAND)


def _build(o: Build, text: str) -> _Keyed:
    return (_BUILD, o.unit.text, 0, "", False), _legal(o, text, OrderKind.BUILD, o.unit.text)


def _remove(o: Remove, text: str) -> _Keyed:
    return (_REMOVE, "", 0, "", False), _legal(o, text, OrderKind.REMOVE)


def _waive(o: Waive, text: str) -> _Keyed:
    return (_WAIVE, "", 0, "", False), _legal(o, text, OrderKind.WAIVE)


# Each takes an order of its key's type (Any: a dict's value type cannot say so; see FORMATTERS).
_DESCRIBE: dict[type[Order], Callable[[Any, str], _Keyed]] = {
    Hold: _hold,
    Move: _move,
    SupportHold: _support_hold,
    SupportMove: _support_move,
    Convoy: _convoy,
    Retreat: _retreat,
    Disband: _disband,
    Build: _build,
    Remove: _remove,
    Waive: _waive,
}


# --- the phases ---------------------------------------------------------------------------------------


def _movement(
    board: Board, power: str, tables: _Tables, facts: _BoardFacts
) -> tuple[list[UnitOrders], dict[str, list[LegalOrder]]]:
    """The power's units' orders, and (by location) the VIA moves ``find`` also takes without VIA."""
    crossings = board.rules.switches.crossings
    across = crossings.pairs if crossings is not None and crossings.no_support_across else _NO_PAIRS
    shared = _SHARED_MOVEMENT
    if len(shared) >= _SHARED_SIZE:
        shared.clear()
    entries = []
    aliases: dict[str, list[LegalOrder]] = {}
    for unit in board.units.get(power, ()):
        orders = _unit_orders(unit, board, tables, facts, across, shared, aliases)
        entries.append(UnitOrders(unit.location, unit, orders))
    return entries, aliases


def _unit_orders(
    unit: Unit,
    board: Board,
    tables: _Tables,
    facts: _BoardFacts,
    across: frozenset[tuple[str, str]],
    shared: dict[str, LegalOrder],
    aliases: dict[str, list[LegalOrder]],
) -> tuple[LegalOrder, ...]:
    """Every order of ``unit`` in a movement phase, in the order listed (by kind, then target, then
    helped unit, the one holding in the target first, then land before convoy).

    Generated from the map and the board's facts as validation (engine.validation) and the
    board-level check (engine.adjudicator.legality) judge them: a move to any neighbour (a fleet's
    to the coast it reaches), or by convoy wherever the fleets now at sea carry the army; a support
    into any province the unit could move to itself, of the unit holding there and of every unit
    that could move there (by land, along a coast, or carried by fleets other than the supporter,
    DATC 6.D.31); a convoy by a fleet on a route without a detour (DATC 6.G.19). None into a closed
    province, and no support across the Cape (engine.rules). tests/engine/legal_reference.py lists
    the same by asking validation about every candidate, and the tests compare the two.

    ``shared`` holds one LegalOrder per text for every board that lists it (see _SHARED); a text
    names its kind and places, so only the Units (the board's own) are checked."""
    here = unit.province
    name = unit.text
    closed = board.closed
    occupant = board.occupant
    text = name + " H"
    legal = shared.get(text)
    if legal is None or legal.order.unit is not unit:
        legal = shared[text] = _legal(quick_hold(unit), text, _HOLD_KIND)
    out = [legal]
    if unit.type == "A":
        reach = tables.army_moves[here]
        carried = facts.carry.get(here)
        if carried is None:
            moves: Iterable[tuple[str, bool]] = [(dest, False) for dest in reach]
        else:
            moves = sorted([*((dest, False) for dest in reach), *((dest, True) for dest in carried)])
    else:
        reach = tables.fleet_reach[unit.location]
        moves = [(dest, False) for dest in tables.fleet_moves[unit.location]]
    province_at = tables.province_at
    for dest, via in moves:
        if closed and province_at[dest] in closed:
            continue
        if via:
            text = f"{name} - {dest} VIA"
            legal = shared.get(text)
            if legal is None or legal.order.unit is not unit:
                legal = shared[text] = _legal(
                    quick_move(unit, dest, True), text, _MOVE_KIND, dest, None, True
                )
            if dest not in tables.army_adjacency[here]:  # the same move written without VIA
                aliases.setdefault(unit.location, []).append(legal)
        else:
            text = f"{name} - {dest}"
            legal = shared.get(text)
            if legal is None or legal.order.unit is not unit:
                legal = shared[text] = _legal(quick_move(unit, dest), text, _MOVE_KIND, dest)
        out.append(legal)
    carried_into = facts.carried_into
    movers_into = facts.movers_into
    for prov in reach:
        if (closed and prov in closed) or (across and (here, prov) in across):
            continue
        standing = occupant.get(prov)
        if standing is not None:
            helped = standing[1]
            text = f"{name} S {helped.text}"
            legal = shared.get(text)
            if legal is None or legal.order.unit is not unit or legal.helped is not helped:
                legal = shared[text] = _legal(
                    quick_support_hold(unit, helped), text, _SUPPORT_KIND, prov, helped
                )
            out.append(legal)
        # every unit that could move into prov (sorted by text), but this one: by land, along a
        # coast, or carried by fleets (not only by this one, DATC 6.D.31)
        helpers: Sequence[Unit] | None = movers_into.get(prov)
        if helpers is None:
            helpers = facts.movers(prov)
        by_convoy = carried_into.get(prov)
        if by_convoy is not None:
            more = [
                army
                for army in by_convoy
                if army is not unit
                and (here not in facts.chain_seas[army.province] or prov in facts.carried_without(army, here))
            ]
            if more:
                helpers = sorted([*helpers, *more], key=_TEXT)
        for helped in helpers:
            if helped is unit:
                continue
            text = f"{name} S {helped.text} - {prov}"
            legal = shared.get(text)
            if legal is None or legal.order.unit is not unit or legal.helped is not helped:
                order = _new(SupportMove)
                _SET_UNIT(order, unit)
                _SET_SUPPORTED(order, helped)
                _SET_DEST(order, prov)
                legal = shared[text] = _legal(order, text, _SUPPORT_KIND, prov, helped)
            out.append(legal)
    if unit.type == "F":
        for dest, army in facts.convoys_by_sea.get(here, ()):
            text = f"{name} C {army.text} - {dest}"
            legal = shared.get(text)
            if legal is None or legal.order.unit is not unit or legal.helped is not army:
                convoy = _new(Convoy)
                _SET_UNIT(convoy, unit)
                _SET_CONVOYED(convoy, army)
                _SET_CONVOY_DEST(convoy, dest)
                legal = shared[text] = _legal(convoy, text, _CONVOY_KIND, dest, army)
            out.append(legal)
    return tuple(out)


# The slots' own setters (see _legal): the same values as quick_support_move and quick_convoy
_SET_UNIT, _SET_SUPPORTED, _SET_DEST = (
    getattr(SupportMove, name).__set__ for name in ("unit", "supported", "dest")
)
_SET_CONVOYED, _SET_CONVOY_DEST = (getattr(Convoy, name).__set__ for name in ("convoyed", "dest"))
_TEXT = attrgetter("text")
_HOLD_KIND, _MOVE_KIND, _SUPPORT_KIND, _CONVOY_KIND = (
    OrderKind.HOLD,
    OrderKind.MOVE,
    OrderKind.SUPPORT,
    OrderKind.CONVOY,
)
# text -> the LegalOrder of a movement order, shared like _SHARED (a movement order's text says its
# kind: no other phase's order reads the same)
_SHARED_MOVEMENT: dict[str, LegalOrder] = {}


def _retreats(board: Board, power: str) -> list[UnitOrders]:
    check = board_check(board, power)
    entries = []
    for entry in board.dislodged_of(power):
        unit = entry.unit
        candidates: list[Order] = [Retreat(unit, dest) for dest in entry.retreats]
        candidates.append(Disband(unit))
        orders = _keep(candidates, board, power, check)
        entries.append(UnitOrders(unit.location, unit, orders, dislodged=True))
    return entries


def _adjustments(
    board: Board, power: str, tables: _Tables, due: int
) -> tuple[list[UnitOrders], LegalOrder | None]:
    check = board_check(board, power)  # (it counts the same ``due``)
    entries = []
    waive = None
    if due > 0:
        for site in build_sites(board, power):
            candidates: list[Order] = [Build(unit) for unit in tables.build_units[site]]
            orders = _keep(candidates, board, power, check)
            if orders:
                entries.append(UnitOrders(site, None, orders))
        kept = _keep([Waive()], board, power, check)
        waive = kept[0] if kept else None
    elif due < 0:
        for unit in board.units.get(power, ()):
            orders = _keep([Remove(unit)], board, power, check)
            if orders:
                entries.append(UnitOrders(unit.location, unit, orders))
    return entries, waive
