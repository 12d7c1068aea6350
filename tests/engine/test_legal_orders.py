"""legal_orders lists exactly the orders the engine accepts: hand-checked positions, then properties
on random boards of every kind of phase (each listed order is accepted, reads back from its text,
and every order the engine accepts is listed).

"Accepted" is judged here as the adjudicator judges a line: validate_order, then the phase's
board-level check. The convoy questions of that check are answered with the per-destination
functions of engine.adjudicator.convoys (route_exists, minimal_route_fleets), not with the
one-search-for-all answers legal_orders uses, so the two implementations check each other.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import adjudicate, initial_board, legal_orders
from engine.adjudicator.adjustments import adjustment_counts, check_adjustment_order
from engine.adjudicator.convoys import (
    BoardConvoys,
    minimal_route_fleets,
    minimal_routes,
    route_exists,
    sea_graph,
)
from engine.adjudicator.legality import check_movement_order, check_retreat_order
from engine.board import Board
from engine.errors import OrderError
from engine.legal import LegalOrders, OrderKind, UnitOrders, forget_legal_orders
from engine.mapdata import load_map, province_of
from engine.orders import (
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
)
from engine.parser import parse_order
from engine.validation import read_order, validate_order
from tests.helpers.engine import random_order, random_position
from tests.helpers.profiles import examples

GM = load_map("standard")
GRAPH = sea_graph(GM)
MakeBoard = Callable[..., Board]
PROVINCES = sorted(GM.provinces)
LOCATIONS = sorted(GM.locations)
COASTAL = [p for p in PROVINCES if GM.provinces[p].kind == "coast"]


# --- the oracle: what the adjudicator accepts ------------------------------------------------------------


class _ReferenceConvoys:
    """BoardConvoys' questions answered by the per-destination searches."""

    def __init__(self, board: Board) -> None:
        self.fleets = GRAPH.seas.intersection(board.occupant)

    def can_carry(self, src: str, dst: str, without: str | None = None) -> bool:
        return route_exists(GRAPH, src, dst, self.fleets - {without})

    def needed(self, src: str, dst: str, fleet_sea: str) -> bool:
        return fleet_sea in minimal_route_fleets(GRAPH, src, dst, self.fleets)


def accepted(board: Board, power: str, order: Order) -> Order | None:
    """The order as the adjudicator would take it from ``power``, or None if it would be invalid."""
    try:
        done = validate_order(order, board, power)
        kind = board.phase.kind
        if kind == "M":
            # the oracle answers BoardConvoys' questions its own way (a stand-in, hence the ignore)
            return check_movement_order(done, board, _ReferenceConvoys(board))  # type: ignore[arg-type]
        if kind == "R":
            return check_retreat_order(done, board, power)
        return check_adjustment_order(done, board, power, adjustment_counts(board).get(power, 0))
    except OrderError:
        return None


def entry_of(legal: LegalOrders, place: str) -> UnitOrders:
    """The entry of ``place``, which the test expects to be listed."""
    entry = legal.entry(place)
    assert entry is not None, place
    return entry


def texts(legal: LegalOrders, place: str) -> set[str]:
    return {o.text for o in entry_of(legal, place).orders}


def of_kind(legal: LegalOrders, place: str, kind: OrderKind) -> set[str]:
    return {o.text for o in entry_of(legal, place).of_kind(kind)}


def menu_facts(order: Order) -> tuple[OrderKind, str | None, Unit | None, bool]:
    """What the module's table says kind, target, helped and via_convoy are for ``order``."""
    if isinstance(order, Hold):
        return OrderKind.HOLD, None, None, False
    if isinstance(order, Move):
        return OrderKind.MOVE, order.dest, None, order.via_convoy
    if isinstance(order, SupportHold):
        return OrderKind.SUPPORT, order.supported.province, order.supported, False
    if isinstance(order, SupportMove):
        return OrderKind.SUPPORT, order.dest, order.supported, False
    if isinstance(order, Convoy):
        return OrderKind.CONVOY, order.dest, order.convoyed, False
    if isinstance(order, Retreat):
        return OrderKind.RETREAT, order.dest, None, False
    if isinstance(order, Disband):
        return OrderKind.DISBAND, None, None, False
    if isinstance(order, Build):
        return OrderKind.BUILD, order.unit.text, None, False
    if isinstance(order, Remove):
        return OrderKind.REMOVE, None, None, False
    return OrderKind.WAIVE, None, None, False


def assert_sound(board: Board, power: str, legal: LegalOrders) -> None:
    """Every listed order is accepted as it is, its text reads back as it, and its menu facts
    and place in the list are the documented ones."""
    kind = board.phase.kind
    seen = set()
    for item in legal:
        assert item.text not in seen, f"{item.text} listed twice"
        seen.add(item.text)
        assert accepted(board, power, item.order) == item.order, item.text
        assert parse_order(item.text, GM, kind) == item.order, item.text
        assert read_order(item.text, board, power) == item.order, item.text
        assert legal.find(item.order) is item and legal.find(item.text) is item
        assert (item.kind, item.target, item.helped, item.via_convoy) == menu_facts(item.order), item.text
    assert [e.location for e in legal.entries] == sorted(e.location for e in legal.entries)
    for entry in legal.entries:
        assert entry.orders, entry
        for item in entry.orders:
            assert item.unit is not None and item.unit.province == entry.province
            assert entry.unit is None or item.unit is entry.unit
        ranks = [list(OrderKind).index(o.kind) for o in entry.orders]
        assert ranks == sorted(ranks)
        for k in entry.kinds():
            targets = [o.target for o in entry.of_kind(k)]
            assert targets == sorted(targets, key=lambda t: t or "")
            assert sum(len(entry.choices(k, t)) for t in entry.targets(k) or [None]) == len(targets)


def assert_listed(board: Board, power: str, legal: LegalOrders, candidates: Iterable[Order]) -> int:
    """Every candidate the engine accepts is listed (as the order validation makes of it)."""
    found = 0
    for candidate in candidates:
        done = accepted(board, power, candidate)
        if done is None:
            continue
        found += 1
        hit = legal.find(done)
        assert hit is not None, f"{candidate} is accepted as {done} but not listed"
        if hit.order != done:  # only the convoy an army's far move needs anyway
            assert (
                isinstance(done, Move)
                and not done.via_convoy
                and hit.order == Move(done.unit, done.dest, True)
            )
            assert done.dest not in GM.army_adjacency[done.unit.province]
    return found


# --- movement: the start position ------------------------------------------------------------------------


@pytest.fixture
def start() -> Board:
    return Board.initial(GM)


def test_start_fleet_in_london(start: Board) -> None:
    legal = legal_orders(start, "ENGLAND")
    assert of_kind(legal, "LON", OrderKind.HOLD) == {"F LON H"}
    assert of_kind(legal, "LON", OrderKind.MOVE) == {
        "F LON - ENG",
        "F LON - NTH",
        "F LON - WAL",
        "F LON - YOR",
    }
    assert of_kind(legal, "LON", OrderKind.SUPPORT) == {
        "F LON S F BRE - ENG",
        "F LON S F EDI - NTH",
        "F LON S F EDI - YOR",
        "F LON S A LVP - YOR",
        "F LON S A LVP - WAL",
    }  # nothing stands next to it, so no support to hold; no convoy from a coast
    assert entry_of(legal, "LON").kinds() == (OrderKind.HOLD, OrderKind.MOVE, OrderKind.SUPPORT)


def test_start_army_in_paris_supports(start: Board) -> None:
    legal = legal_orders(start, "FRANCE")
    assert of_kind(legal, "PAR", OrderKind.SUPPORT) == {
        "A PAR S F BRE",
        "A PAR S A MAR - BUR",
        "A PAR S A MUN - BUR",
        "A PAR S A MAR - GAS",
        "A PAR S F BRE - GAS",
        "A PAR S F BRE - PIC",
    }
    entry = legal.entry("PAR")
    assert entry is not None and entry.unit is not None and entry.unit_type == "A"
    assert entry.targets(OrderKind.SUPPORT) == ("BRE", "BUR", "GAS", "PIC")
    # a menu's last step: the units helped into (or holding in) one province, the holder first
    assert [o.text for o in entry.choices(OrderKind.SUPPORT, "BUR")] == [
        "A PAR S A MAR - BUR",
        "A PAR S A MUN - BUR",
    ]
    hold = entry.choices(OrderKind.SUPPORT, "BRE")
    assert len(hold) == 1 and hold[0].helped_holds and str(hold[0].helped) == "F BRE"
    assert of_kind(legal, "PAR", OrderKind.MOVE) == {
        "A PAR - BRE",
        "A PAR - BUR",
        "A PAR - GAS",
        "A PAR - PIC",
    }


def test_start_position_every_power(start: Board) -> None:
    total = 0
    for power in GM.powers:
        legal = legal_orders(start, power)
        assert legal.reason is None and legal.due == 0 and legal.waive is None
        assert [e.unit for e in legal.entries] == sorted(start.units[power], key=lambda u: u.location)
        assert_sound(start, power, legal)
        total += len(legal)
    assert total == 238  # counted by hand for a few units above, the rest by the engine's checks


def test_listed_orders_are_valid_lines_for_the_adjudicator(start: Board) -> None:
    # the end-to-end check: each listed text, sent alone, is not reported invalid
    for power in ("FRANCE", "RUSSIA"):
        for item in legal_orders(start, power):
            result = adjudicate(start, {power: [item.text]})
            line = next(r for r in result.results if r.input == item.text)
            assert line.status != "invalid", (item.text, line.reason)


# --- movement: coasts ------------------------------------------------------------------------------------


def test_split_coasts(make_board: MakeBoard) -> None:
    board = make_board(
        "S1902M",
        units={"FRANCE": ["F MAO", "F GAS", "A MAR"], "ITALY": ["F WES"], "RUSSIA": ["F STP/SC"]},
        centers={},
    )
    france = legal_orders(board, "FRANCE")
    assert {"F MAO - SPA/NC", "F MAO - SPA/SC"} <= of_kind(france, "MAO", OrderKind.MOVE)
    assert "F MAO - SPA" not in texts(france, "MAO")
    assert {o for o in of_kind(france, "GAS", OrderKind.MOVE) if "SPA" in o} == {"F GAS - SPA/NC"}
    # a support names the province, whatever coast the fleet goes to (DATC 6.B.7): listed once
    assert {o for o in of_kind(france, "MAR", OrderKind.SUPPORT) if "- SPA" in o} == {
        "A MAR S F MAO - SPA",
        "A MAR S F GAS - SPA",
        "A MAR S F WES - SPA",
    }
    mao = france.entry("MAO")
    assert mao is not None and mao.targets(OrderKind.MOVE).count("SPA/NC") == 1
    italy = legal_orders(board, "ITALY")
    assert {o for o in of_kind(italy, "WES", OrderKind.MOVE) if "SPA" in o} == {"F WES - SPA/SC"}
    russia = legal_orders(board, "RUSSIA")
    entry = russia.entry("STP")
    assert entry is not None and entry.location == "STP/SC"
    assert of_kind(russia, "STP", OrderKind.MOVE) == {"F STP/SC - BOT", "F STP/SC - FIN", "F STP/SC - LVN"}
    for power in ("FRANCE", "ITALY", "RUSSIA"):
        assert_sound(board, power, legal_orders(board, power))


# --- movement: convoys -----------------------------------------------------------------------------------


NORTH_SEA = {"BEL", "DEN", "EDI", "HOL", "NWY", "YOR"}


def test_convoy_through_the_north_sea(make_board: MakeBoard) -> None:
    board = make_board("S1902M", units={"ENGLAND": ["F NTH", "A LON"], "GERMANY": ["A RUH"]}, centers={})
    england = legal_orders(board, "ENGLAND")
    moves = entry_of(england, "LON").of_kind(OrderKind.MOVE)
    assert {o.text for o in moves if not o.via_convoy} == {"A LON - WAL", "A LON - YOR"}
    assert {o.target for o in moves if o.via_convoy} == NORTH_SEA
    assert all(o.text.endswith(" VIA") for o in moves if o.via_convoy)
    # to a neighbour both by land and by convoy: two orders (DATC 4.A.3), one target in the menu
    assert [o.text for o in entry_of(england, "LON").choices(OrderKind.MOVE, "YOR")] == [
        "A LON - YOR",
        "A LON - YOR VIA",
    ]
    assert of_kind(england, "NTH", OrderKind.CONVOY) == {f"F NTH C A LON - {p}" for p in NORTH_SEA}
    convoy = entry_of(england, "NTH").choices(OrderKind.CONVOY, "NWY")
    assert len(convoy) == 1 and str(convoy[0].helped) == "A LON"
    # the move typed without VIA is the same move (it cannot go by land)
    hit = england.find("A LON - NWY")
    assert (
        hit is not None
        and hit.text == "A LON - NWY VIA"
        and isinstance(hit.order, Move)
        and hit is england.find(Move(hit.order.unit, "NWY"))
    )
    assert england.find("A LON - BRE VIA") is None
    # the fleet cannot support a move that only its own convoy carries (DATC 6.D.31)
    assert {o for o in texts(england, "NTH") if " S A LON" in o} == {"F NTH S A LON", "F NTH S A LON - YOR"}
    germany = legal_orders(board, "GERMANY")
    assert {"A RUH S A LON - BEL", "A RUH S A LON - HOL"} <= of_kind(germany, "RUH", OrderKind.SUPPORT)
    for power in ("ENGLAND", "GERMANY"):
        assert_sound(board, power, legal_orders(board, power))


def test_convoy_chains_and_detours(make_board: MakeBoard) -> None:
    board = make_board("S1902M", units={"ENGLAND": ["F NTH", "F ENG", "A LON"]}, centers={})
    england = legal_orders(board, "ENGLAND")
    via = {o.target for o in entry_of(england, "LON").of_kind(OrderKind.MOVE) if o.via_convoy}
    assert via == NORTH_SEA | {"BRE", "PIC", "WAL"}
    # NTH is no part of a route to Brest: ENG alone carries the army there (DATC 6.G.19)
    assert "F NTH C A LON - BRE" not in texts(england, "NTH")
    assert {"F ENG C A LON - BRE", "F ENG C A LON - BEL", "F NTH C A LON - BEL"} <= set(map(str, england))
    # with a second chain, each fleet may support the move the other one carries
    assert "F NTH S A LON - BEL" in texts(england, "NTH")
    assert "F ENG S A LON - BEL" in texts(england, "ENG")
    assert_sound(board, "ENGLAND", england)


def test_no_convoy_moves_without_fleets(make_board: MakeBoard) -> None:
    board = make_board("S1902M", units={"ENGLAND": ["A LON", "F YOR"]}, centers={})
    england = legal_orders(board, "ENGLAND")
    assert not [o for o in england if o.via_convoy or o.kind == OrderKind.CONVOY]
    assert england.find("A LON - NWY VIA") is None  # the validator alone would take it: no fleet carries it
    assert validate_order(Move(Unit("A", "LON"), "NWY", True), board, "ENGLAND")
    assert accepted(board, "ENGLAND", Move(Unit("A", "LON"), "NWY", True)) is None


# --- retreats --------------------------------------------------------------------------------------------


def test_retreats(make_board: MakeBoard) -> None:
    board = make_board(
        "F1901R",
        units={"TURKEY": ["A SER", "F POR"], "AUSTRIA": ["A BUD"], "FRANCE": ["A PAR"]},
        centers={},
        dislodged={
            "AUSTRIA": {"A SER": {"attacker_from": "BUL", "retreats": ["ALB", "TRI", "GRE"]}},
            "FRANCE": {"F POR": {"attacker_from": "MAO", "retreats": ["SPA/NC", "SPA/SC"]}},
        },
    )
    austria = legal_orders(board, "AUSTRIA")
    assert [(e.location, e.dislodged) for e in austria.entries] == [("SER", True)]  # not A BUD
    assert texts(austria, "SER") == {"A SER R ALB", "A SER R GRE", "A SER R TRI", "A SER D"}
    assert entry_of(austria, "SER").kinds() == (OrderKind.RETREAT, OrderKind.DISBAND)
    france = legal_orders(board, "FRANCE")
    assert texts(france, "POR") == {"F POR R SPA/NC", "F POR R SPA/SC", "F POR D"}
    assert entry_of(france, "POR").targets(OrderKind.RETREAT) == ("SPA/NC", "SPA/SC")
    assert len(legal_orders(board, "TURKEY")) == 0
    for power in ("AUSTRIA", "FRANCE"):
        assert_sound(board, power, legal_orders(board, power))


def test_a_unit_with_nowhere_to_go_disbands(make_board: MakeBoard) -> None:
    board = make_board(
        "F1901R",
        units={"TURKEY": ["A RUM"]},
        centers={},
        dislodged={"RUSSIA": {"F RUM": {"attacker_from": "BUL", "retreats": []}}},
    )
    assert [o.text for o in legal_orders(board, "RUSSIA")] == ["F RUM D"]


# --- adjustments -----------------------------------------------------------------------------------------


def test_builds_with_coasts(make_board: MakeBoard) -> None:
    board = make_board(
        "W1901A",
        units={"RUSSIA": ["A WAR", "F SEV", "A RUM"], "GERMANY": ["A BER"]},
        centers={"RUSSIA": ["MOS", "SEV", "STP", "WAR", "RUM"], "GERMANY": ["BER", "MUN", "KIE", "DEN"]},
    )
    russia = legal_orders(board, "RUSSIA")
    assert russia.due == 2
    assert [e.location for e in russia.entries] == ["MOS", "STP"]  # SEV and WAR are occupied
    assert texts(russia, "MOS") == {"A MOS B"}  # inland: no fleet
    assert texts(russia, "STP") == {"A STP B", "F STP/NC B", "F STP/SC B"}
    stp = russia.entry("STP")
    assert stp is not None and stp.unit is None and stp.unit_type is None
    assert stp.targets(OrderKind.BUILD) == ("A STP", "F STP/NC", "F STP/SC")
    assert russia.waive is not None and russia.waive.text == "WAIVE" and list(russia)[-1] is russia.waive
    assert_sound(board, "RUSSIA", russia)
    germany = legal_orders(board, "GERMANY")
    assert germany.due == 2 and [e.location for e in germany.entries] == ["KIE", "MUN"]
    assert texts(germany, "KIE") == {"A KIE B", "F KIE B"}
    assert_sound(board, "GERMANY", germany)


def test_no_builds_without_a_free_home_center(make_board: MakeBoard) -> None:
    board = make_board(
        "W1901A",
        units={"FRANCE": ["A PAR", "F BRE", "A MAR"], "GERMANY": ["A MUN", "A KIE", "A BER"]},
        centers={"FRANCE": ["PAR", "BRE", "MAR", "SPA"], "GERMANY": ["MUN", "KIE", "BER"]},
    )
    france = legal_orders(board, "FRANCE")
    assert france.due == 0 and len(france) == 0 and france.waive is None
    assert len(legal_orders(board, "GERMANY")) == 0


def test_removals(make_board: MakeBoard) -> None:
    board = make_board(
        "W1901A",
        units={"AUSTRIA": ["A VIE", "A BUD", "F TRI"], "ITALY": ["A SER"]},
        centers={"AUSTRIA": ["VIE", "BUD"], "ITALY": ["ROM", "NAP", "VEN", "TRI"]},
    )
    austria = legal_orders(board, "AUSTRIA")
    assert austria.due == -1 and austria.waive is None
    assert [o.text for o in austria] == ["A BUD D", "F TRI D", "A VIE D"]
    assert {o.kind for o in austria} == {OrderKind.REMOVE}
    assert_sound(board, "AUSTRIA", austria)
    italy = legal_orders(board, "ITALY")  # three free home centers, but one owned one is TRI
    assert italy.due == 3 and {e.location for e in italy.entries} == {"NAP", "ROM", "VEN"}


# --- ww1914: Italy closed until 1915 ---------------------------------------------------------------------


def test_ww1914_italy_is_closed() -> None:
    board = initial_board("ww1914")
    italy = legal_orders(board, "ITALY")
    assert len(italy) == 0 and italy.entries == ()
    assert italy.reason is not None and "neutral" in italy.reason
    austria = legal_orders(board, "AUSTRIA")
    assert of_kind(austria, "TRI", OrderKind.MOVE) == {"F TRI - ADR", "F TRI - ALB"}
    closed = board.closed
    for item in austria:
        assert item.target is None or province_of(item.target) not in closed, item.text
    france = legal_orders(board, "FRANCE")
    assert "A MAR - PIE" not in texts(france, "MAR")
    # what validation allows: helping a neutral unit out of Italy (it will hold; the module says so)
    assert "A BUD S A VEN - TRI" in texts(austria, "BUD")
    for power in GM.powers:
        assert_sound(board, power, legal_orders(board, power))
        assert_listed(board, power, legal_orders(board, power), everything_for(board, power))


def test_ww1914_italy_opens_in_1915() -> None:
    data = initial_board("ww1914").to_json()
    data["phase"] = "S1915M"
    board = Board.from_json(data)
    assert not board.closed
    assert "F TRI - VEN" in texts(legal_orders(board, "AUSTRIA"), "TRI")
    italy = legal_orders(board, "ITALY")
    assert italy.reason is None and "A VEN - TRI" in texts(italy, "VEN")


# --- the API --------------------------------------------------------------------------------------------


def test_answers_are_remembered_per_board(start: Board) -> None:
    first = legal_orders(start, "TURKEY")
    assert legal_orders(start, "TURKEY") is first
    other = Board.initial(GM)
    assert legal_orders(other, "TURKEY") is not first and legal_orders(other, "TURKEY") == first
    forget_legal_orders()
    assert legal_orders(start, "TURKEY") is not first


def test_unknown_power_is_an_error(start: Board) -> None:
    with pytest.raises(ValueError, match="unknown power"):
        legal_orders(start, "NARNIA")


def test_find_refuses_what_is_not_listed(start: Board) -> None:
    legal = legal_orders(start, "FRANCE")
    assert legal.find("A PAR - MUN") is None and legal.find("A MUN - BUR") is None
    assert legal.find([1, 2]) is None  # type: ignore[arg-type]  # deliberately not an order
    assert "A PAR - BUR" in legal and Hold(Unit("A", "PAR")) in legal


# --- properties on random boards -------------------------------------------------------------------------


def everything_for(board: Board, power: str) -> list[Order]:
    """Every order one could write for ``power``'s units and build sites in the board's phase:
    each kind of order to every place, of every unit on the board (also with the type left out)."""
    kind = board.phase.kind
    out: list[Order] = []
    if kind == "A":
        for prov in PROVINCES:
            out += [Build(Unit("A", prov)), Build(Unit(None, prov))]
            out += [Build(Unit("F", loc)) for loc in GM.provinces[prov].locations]
        out += [Remove(u) for _, u in board.all_units()]
        out.append(Waive())
        return out
    if kind == "R":
        for entry in [d for ds in board.dislodged.values() for d in ds]:
            unit = entry.unit
            out += [Retreat(unit, loc) for loc in LOCATIONS] + [Disband(unit), Move(unit, "PAR", True)]
        return out
    everyone = [u for _, u in board.all_units()]
    for unit in board.units.get(power, ()):
        out.append(Hold(unit))
        for loc in LOCATIONS:
            out += [Move(unit, loc), Move(unit, loc, True), Move(Unit(None, unit.location), loc)]
        for other in everyone:
            out.append(SupportHold(unit, other))
            out += [SupportMove(unit, other, prov) for prov in PROVINCES]
            if unit.type == "F" and other.type == "A" and GM.is_sea(unit.province):
                out += [Convoy(unit, other, prov) for prov in COASTAL]
    return out


def sampled_for(board: Board, power: str, rng: random.Random, count: int) -> list[Order]:
    """A random sample of everything_for, biased to orders that may well be valid."""
    everyone = [u for _, u in board.all_units()]
    mine = list(board.units.get(power, ()))
    if not mine:
        return []
    out: list[Order] = []
    for _ in range(count):
        unit = rng.choice(mine)
        other = rng.choice(everyone)
        near = sorted(GM.neighbours(other.type or "A", other.location)) or ["PAR"]
        dest = rng.choice(near) if rng.random() < 0.7 else rng.choice(LOCATIONS)
        pick = rng.randrange(5)
        if pick == 0:
            mine_near = sorted(GM.neighbours(unit.type or "A", unit.location)) or ["PAR"]
            goal = rng.choice(mine_near) if rng.random() < 0.5 else rng.choice(COASTAL)
            out.append(Move(unit, goal, rng.random() < 0.5))
        elif pick == 1:
            out.append(SupportHold(unit, other))
        elif pick in (2, 3):
            out.append(SupportMove(unit, other, dest))
        else:
            out.append(Convoy(unit, other, rng.choice(COASTAL)))
    return out


# A seed rather than st.randoms(): a board and hundreds of orders draw more numbers than hypothesis
# lets one example draw from it.
SEEDS = st.integers(0, 2**32 - 1)


def movement_board(rng: random.Random) -> Board:
    units = random_position(rng)
    if rng.random() < 0.2:
        return Board.from_json({"variant": "ww1914", "phase": "F1914M", "units": units, "centers": {}})
    return Board.from_json({"phase": rng.choice(["S1901M", "F1901M"]), "units": units, "centers": {}})


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS)
def test_random_movement_boards(seed: int) -> None:
    rng = random.Random(seed)
    board = movement_board(rng)
    everyone = [u.text for _, u in board.all_units()]
    listed = 0
    for power in GM.powers:
        legal = legal_orders(board, power)
        assert_sound(board, power, legal)
        units = sorted(board.units.get(power, ()), key=lambda u: u.location)
        if legal.reason is None:
            assert [e.unit for e in legal.entries] == units
            assert all(e.orders[0].kind == OrderKind.HOLD for e in legal.entries)
        listed += len(legal)
        # random orders as players write them, and random orders of every kind
        typed = [random_order(rng, u.text, everyone) for u in units for _ in range(5)]
        for text in typed:
            try:
                order = parse_order(text, GM, "M")
            except OrderError:
                continue
            assert_listed(board, power, legal, [order])
        assert_listed(board, power, legal, sampled_for(board, power, rng, 300))
    assert listed >= sum(len(us) for us in board.units.values()) - len(board.units.get("ITALY", ()))


@pytest.mark.parametrize("seed", range(4))
def test_every_accepted_order_is_listed_exhaustively(seed: int) -> None:
    """All of everything_for on a few random boards: the strongest check that nothing is missed."""
    rng = random.Random(seed)
    board = movement_board(rng)
    found = 0
    for power in GM.powers:
        legal = legal_orders(board, power)
        found += assert_listed(board, power, legal, everything_for(board, power))
        assert_sound(board, power, legal)
    assert found > 50


def test_the_dense_bench_board_exhaustively() -> None:
    board = Board.from_json({"phase": "F1905M", "units": DENSE, "centers": {}})
    kinds: set[OrderKind | str] = set()
    for power in GM.powers:
        legal = legal_orders(board, power)
        assert_sound(board, power, legal)
        assert_listed(board, power, legal, everything_for(board, power))
        kinds |= {o.kind for o in legal}
        kinds |= {"via" for o in legal if o.via_convoy}
    assert kinds == {OrderKind.HOLD, OrderKind.MOVE, OrderKind.SUPPORT, OrderKind.CONVOY, "via"}


def retreat_board(rng: random.Random) -> Board:
    """The board after a random movement phase that dislodged units (tries until one does): half
    the units move, the others support one of those moves where they can."""
    while True:
        board = Board.from_json({"phase": "F1901M", "units": random_position(rng), "centers": {}})
        moves: dict[Unit, str] = {}
        for _, unit in board.all_units():
            near = sorted(GM.neighbours(unit.type or "A", unit.location))
            if near and rng.random() < 0.5:
                moves[unit] = rng.choice(near)
        orders: dict[str, list[str]] = {}
        for power, unit in board.all_units():
            text = f"{unit} H"
            if unit in moves:
                text = f"{unit} - {moves[unit]}"
            else:
                helped = [
                    (other, province_of(dest))
                    for other, dest in moves.items()
                    if GM.can_reach(unit.type or "A", unit.location, province_of(dest))
                    and province_of(dest) != unit.province
                ]
                if helped:
                    other, dest = rng.choice(helped)
                    text = f"{unit} S {other} - {dest}"
            orders.setdefault(power, []).append(text)
        result = adjudicate(board, orders)
        if result.board.phase.kind == "R":
            return result.board


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS)
def test_random_retreat_boards(seed: int) -> None:
    rng = random.Random(seed)
    board = retreat_board(rng)
    for power in GM.powers:
        legal = legal_orders(board, power)
        assert_sound(board, power, legal)
        assert [e.unit for e in legal.entries] == sorted(
            (d.unit for d in board.dislodged_of(power)), key=lambda u: u.location
        )
        for entry in legal.entries:
            assert entry.orders[-1].kind == OrderKind.DISBAND
        assert_listed(board, power, legal, everything_for(board, power))
        # nothing for the units that stayed
        for unit in board.units.get(power, ()):
            if legal.entry(unit.province) is None:
                assert accepted(board, power, Disband(unit)) is None


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS)
def test_random_adjustment_boards(seed: int) -> None:
    rng = random.Random(seed)
    units = random_position(rng)
    centers: dict[str, list[str]] = {}
    for center in sorted(GM.supply_centers):
        if rng.random() < 0.85:
            centers.setdefault(rng.choice(GM.powers), []).append(center)
    board = Board.from_json({"phase": "W1901A", "units": units, "centers": centers})
    due = adjustment_counts(board)
    for power in GM.powers:
        legal = legal_orders(board, power)
        assert legal.due == due.get(power, 0)
        assert (legal.waive is not None) == (legal.due > 0)
        if legal.due < 0:
            assert len(legal) == len(board.units[power])
        assert_sound(board, power, legal)
        assert_listed(board, power, legal, everything_for(board, power))


# --- the convoy searches legal_orders relies on ----------------------------------------------------------


@settings(max_examples=examples(200), deadline=None)
@given(fleets=st.sets(st.sampled_from(sorted(GRAPH.seas))), src=st.sampled_from(COASTAL))
def test_one_search_answers_as_many(fleets: set[str], src: str) -> None:
    # BoardConvoys answers from the one-destination searches until reach() or routes() is asked
    fresh = BoardConvoys(GRAPH, frozenset(fleets))
    full = BoardConvoys(GRAPH, frozenset(fleets))
    routes = full.routes(src)
    assert routes == minimal_routes(GRAPH, src, fleets)
    withouts = [None, *sorted(fleets)[:4]]
    for without in withouts:
        full.reach(src, without)
    for dst in COASTAL:
        assert routes.get(dst, frozenset()) == minimal_route_fleets(GRAPH, src, dst, fleets), dst
        for sea in GRAPH.seas:
            assert full.needed(src, dst, sea) == fresh.needed(src, dst, sea)
        for without in withouts:
            expected = route_exists(GRAPH, src, dst, fleets - {without})
            assert full.can_carry(src, dst, without) == fresh.can_carry(src, dst, without) == expected


DENSE = {
    "ENGLAND": ["F NTH", "F NWG", "F ENG", "F IRI", "A NWY", "A LON"],
    "FRANCE": ["F MAO", "F WES", "A SPA", "A BUR", "A PAR"],
    "GERMANY": ["A MUN", "A KIE", "A HOL", "F HEL", "F DEN", "A RUH"],
    "ITALY": ["F TYS", "F ION", "A TUN", "A VEN", "A PIE"],
    "AUSTRIA": ["A VIE", "A BUD", "A SER", "A TRI"],
    "RUSSIA": ["A WAR", "F SWE", "A GAL", "F BOT"],
    "TURKEY": ["F BLA", "F AEG", "A BUL", "A CON"],
}
