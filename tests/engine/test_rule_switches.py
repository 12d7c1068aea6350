"""The variants' rule switches (engine.rules) beyond the DATC-style cases (datc/V*.datc): how they are
read, what the player is told, and that legal_orders lists exactly what validation accepts on the
boards of the variants that use them (Chaos, Ancient Mediterranean, 1900), on random positions.

The oracle here is the adjudicator's own judgement of a line (validate_order, then the phase's
board-level check) with the convoy questions answered by the per-destination searches, as in
test_legal_orders; the rule-specific properties are checked against the rules as stated.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Board, adjudicate, adjudicate_json, initial_board, legal_orders, read_order
from engine.adjudicator.adjustments import adjustment_counts, check_adjustment_order
from engine.adjudicator.convoys import convoying_fleets, minimal_route_fleets, route_exists, sea_graph
from engine.adjudicator.legality import check_movement_order, check_retreat_order
from engine.errors import InvalidOrder, OrderError
from engine.legal import LegalOrders, OrderKind
from engine.mapdata import province_of
from engine.orders import (
    Build,
    Convoy,
    Hold,
    Move,
    Order,
    Remove,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
    format_order,
)
from engine.rules import (
    BUILD_ANYWHERE,
    CAPE_OF_GOOD_HOPE,
    CONVOY_PORTS,
    SUPPORTED,
    Crossings,
    Switches,
    build_sites,
    read_switches,
)
from engine.variants import SUPPORTED_RULES, all_variants, convoy_ports, get_variant
from tests.helpers.boards import random_units
from tests.helpers.engine import check_invariants
from tests.helpers.profiles import examples

CAPE = {("EGY", "MAO"), ("MAO", "EGY"), ("HEJ", "MAO"), ("MAO", "HEJ")}


# --- reading the switches -----------------------------------------------------------------------------


def test_every_variant_is_playable_by_the_rules_it_asks_for() -> None:
    assert SUPPORTED_RULES == SUPPORTED == {BUILD_ANYWHERE, CONVOY_PORTS, CAPE_OF_GOOD_HOPE}
    assert all(v.playable() for v in all_variants())
    assert get_variant("chaos").switches == Switches(build_anywhere=True)
    assert get_variant("ancmed").switches == Switches(convoy_ports=frozenset({"BAL"}))
    nineteen = get_variant("1900").switches
    assert nineteen.convoy_ports == {"GIB"} and not nineteen.build_anywhere
    assert nineteen.crossings == Crossings(frozenset(CAPE), True, True, True)
    assert get_variant("standard").switches == Switches()
    assert convoy_ports("ancmed") == {"BAL"} and convoy_ports("1900") == {"GIB"}
    assert convoy_ports("standard") == frozenset()


def test_a_switch_with_a_setting_of_the_wrong_shape_is_refused() -> None:
    with pytest.raises(ValueError, match="build_anywhere must be true or false"):
        read_switches({BUILD_ANYWHERE: "yes"})
    with pytest.raises(ValueError, match="convoy_ports must be a list"):
        read_switches({CONVOY_PORTS: "BAL"})
    with pytest.raises(ValueError, match="is not two provinces"):
        read_switches({CAPE_OF_GOOD_HOPE: {"crossings": [["EGY"]]}})
    off = read_switches({CAPE_OF_GOOD_HOPE: {"crossings": [["EGY", "MAO"]], "half_strength": False}})
    assert off.crossings is not None and not off.crossings.half_strength and off.crossings.no_support_across


def test_the_switches_name_real_places_of_their_maps() -> None:
    for variant in all_variants():
        gm = variant.game_map()
        for port in variant.switches.convoy_ports:
            assert gm.is_coastal(port), (variant.name, port)
            assert any(gm.is_sea(province_of(loc)) for loc in gm.fleet_adjacency[port]), port
        crossings = variant.switches.crossings
        for a, b in crossings.pairs if crossings else ():
            assert gm.can_reach("F", a, b), (variant.name, a, b)


# --- what the player reads --------------------------------------------------------------------------


def reasons(board: Board, orders: dict[str, list[str]]) -> dict[str, str]:
    return {str(r.order): f"{r.status}: {r.reason}" for r in adjudicate(board, orders).results}


def test_a_half_strength_move_says_so_in_its_result() -> None:
    board = Board.from_json(
        {"variant": "1900", "phase": "S1900M", "units": {"BRITAIN": ["F EGY"], "FRANCE": ["F BRE"]}}
    )
    got = reasons(board, {"BRITAIN": ["F Egy - Mao"], "FRANCE": ["F Bre - Mao"]})
    assert got["F EGY - MAO"] == (
        "failed: bounced: F BRE - MAO was stronger (yours ½ at half strength round the Cape, theirs 1)"
    )
    assert got["F BRE - MAO"] == "succeeded: moved to MAO"


def test_a_support_round_the_cape_is_refused_with_the_reason() -> None:
    board = Board.from_json(
        {"variant": "1900", "phase": "S1900M", "units": {"BRITAIN": ["F EGY"], "FRANCE": ["F MAO", "F BRE"]}}
    )
    with pytest.raises(InvalidOrder, match="no support goes round the Cape of Good Hope"):
        read_order("F Egy S F Bre - Mao", board, "BRITAIN")
    with pytest.raises(InvalidOrder, match="no support goes round the Cape of Good Hope"):
        read_order("F Mao S F Egy", board, "FRANCE")
    assert read_order("F Egy - Mao", board, "BRITAIN") == Move(Unit("F", "EGY"), "MAO")  # moving is fine


def test_a_retreat_round_the_cape_that_gives_way_says_why() -> None:
    board = Board.from_json(
        {
            "variant": "1900",
            "phase": "F1900R",
            "dislodged": {
                "BRITAIN": {"F EGY": {"attacker_from": "PAL", "retreats": ["MAO"]}},
                "FRANCE": {"F BRE": {"attacker_from": "PIC", "retreats": ["MAO"]}},
            },
        }
    )
    got = reasons(board, {"BRITAIN": ["F Egy R Mao"], "FRANCE": ["F Bre R Mao"]})
    assert got["F EGY R MAO"].startswith("failed: gave way to F BRE retreating to MAO")
    assert got["F BRE R MAO"] == "succeeded: retreated to MAO"


def test_chaos_build_hints_name_every_owned_vacant_centre() -> None:
    board = Board.from_json(
        {
            "variant": "chaos",
            "phase": "W1901A",
            "units": {"PARIS": ["A PAR"], "LONDON": ["F BRE"]},
            "centers": {"PARIS": ["PAR", "BRE", "MAR", "SPA"]},
        }
    )
    assert build_sites(board, "PARIS") == ("MAR", "SPA")
    assert adjustment_counts(board)["PARIS"] == 2
    with pytest.raises(InvalidOrder) as caught:
        read_order("Build A Bur", board, "PARIS")
    assert caught.value.hint == "you can build in MAR, SPA"
    legal = legal_orders(board, "PARIS")
    assert [e.location for e in legal.entries] == ["MAR", "SPA"]
    assert {o.text for o in legal} == {"A MAR B", "F MAR B", "A SPA B", "F SPA/NC B", "F SPA/SC B", "WAIVE"}


def test_the_standard_game_still_builds_only_at_home() -> None:
    board = Board.from_json(
        {"phase": "W1901A", "units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": ["PAR", "BRE", "SPA"]}}
    )
    assert build_sites(board, "FRANCE") == ("BRE",)
    assert [e.location for e in legal_orders(board, "FRANCE").entries] == ["BRE"]


def test_the_chaos_opening_lists_one_build_per_power_at_its_home() -> None:
    board = initial_board("chaos")
    assert str(board.phase) == "W1900A" and not any(board.units.values())
    counts = adjustment_counts(board)
    assert len(counts) == 34 and set(counts.values()) == {1}
    for power in board.game_map.powers:
        (entry,) = legal_orders(board, power).entries
        assert entry.location == board.game_map.home_centers[power][0]


def test_a_fleet_in_a_port_is_offered_its_convoys() -> None:
    board = Board.from_json(
        {"variant": "ancmed", "phase": "S0001M", "units": {"ROME": ["A SAG", "F BAL", "F LIG"]}}
    )
    legal = legal_orders(board, "ROME")
    bal = legal.entry("BAL")
    assert bal is not None
    assert "F BAL C A SAG - ETR" in {o.text for o in bal.of_kind(OrderKind.CONVOY)}
    sag = legal.entry("SAG")
    assert sag is not None and "A SAG - ETR VIA" in {o.text for o in sag.of_kind(OrderKind.MOVE)}
    army_in_port = Board.from_json(
        {"variant": "ancmed", "phase": "S0001M", "units": {"ROME": ["A BAL", "F LIG"]}}
    )
    entry = legal_orders(army_in_port, "ROME").entry("BAL")
    assert entry is not None and entry.of_kind(OrderKind.CONVOY) == ()  # an army does not convoy


# --- legal_orders and validation agree on the variants' boards -------------------------------------------


VARIANT_MAPS = ("ancmed", "1900", "chaos")
FIRST = {"ancmed": "S0001M", "1900": "S1900M", "chaos": "S1901M"}


def rich_board(variant: str, rng: random.Random) -> Board:
    """A random movement position, with the rule's own places filled more often than chance would:
    fleets in the ports and round the Cape, armies beside them."""
    gm = get_variant(variant).game_map()
    units = random_units(gm, rng)
    taken = {province_of(u.split()[1]) for us in units.values() for u in us}
    special = {
        "ancmed": ["F BAL", "A SAG", "F LIG", "A MAS"],
        "1900": ["F GIB", "F MAO", "F EGY", "A PAL", "F WES"],
    }
    for text in special.get(variant, []):
        if province_of(text.split()[1]) not in taken and rng.random() < 0.8:
            units.setdefault(rng.choice(gm.powers), []).append(text)
            taken.add(province_of(text.split()[1]))
    return Board.from_json({"variant": variant, "phase": FIRST[variant], "units": units, "centers": {}})


class _ReferenceConvoys:
    """BoardConvoys' questions answered by the per-destination searches."""

    def __init__(self, board: Board) -> None:
        self.graph = sea_graph(board.game_map)
        self.fleets = convoying_fleets(self.graph, board.occupant)

    def can_carry(self, src: str, dst: str, without: str | None = None) -> bool:
        return route_exists(self.graph, src, dst, self.fleets - {without})

    def needed(self, src: str, dst: str, fleet_sea: str) -> bool:
        return fleet_sea in minimal_route_fleets(self.graph, src, dst, self.fleets)


def accepted(board: Board, power: str, order: Order) -> Order | None:
    from engine.validation import validate_order

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


def candidates(board: Board, power: str, rng: random.Random, count: int) -> list[Order]:
    """Orders a player could write for ``power``: a random sample biased to the plausible, plus every
    support and convoy of every unit next to the rule's places."""
    gm = board.game_map
    everyone = [u for _, u in board.all_units()]
    mine = list(board.units.get(power, ()))
    provinces = sorted(gm.provinces)
    coastal = [p for p in provinces if gm.is_coastal(p)]
    out: list[Order] = []
    for _ in range(count if mine else 0):
        unit = rng.choice(mine)
        other = rng.choice(everyone)
        near = sorted(gm.neighbours(other.type or "A", other.location)) or provinces
        dest = province_of(rng.choice(near)) if rng.random() < 0.7 else rng.choice(provinces)
        pick = rng.randrange(6)
        if pick == 0:
            goal = rng.choice(sorted(gm.neighbours(unit.type or "A", unit.location)) or coastal)
            out.append(Move(unit, goal, rng.random() < 0.3))
        elif pick == 1:
            out.append(Move(unit, rng.choice(coastal), rng.random() < 0.5))
        elif pick == 2:
            out.append(SupportHold(unit, other))
        elif pick == 3:
            out.append(SupportMove(unit, other, dest))
        else:
            out.append(Convoy(unit, other, rng.choice(coastal)))
    special = {"BAL", "GIB", "MAO", "EGY", "HEJ", "LIG", "WES"}
    for unit in mine:
        if unit.province in special:
            for other in everyone:
                out.append(SupportHold(unit, other))
                out += [SupportMove(unit, other, p) for p in provinces]
                out += [Convoy(unit, other, p) for p in coastal]
            out += [Move(unit, loc, via) for loc in sorted(gm.locations) for via in (False, True)]
    return out


def assert_agree(board: Board, power: str, legal: LegalOrders, orders: Iterable[Order]) -> None:
    for item in legal:
        assert accepted(board, power, item.order) == item.order, item.text
        assert read_order(item.text, board, power) == item.order, item.text
    for order in orders:
        done = accepted(board, power, order)
        if done is None:
            continue
        hit = legal.find(done)
        assert hit is not None, f"{order} is accepted as {done} but not listed"


def assert_rules_kept(board: Board, legal: LegalOrders) -> None:
    """What the switches say, read off the list itself."""
    switches = board.rules.switches
    for item in legal:
        order = item.order
        if isinstance(order, SupportHold | SupportMove) and switches.crossings is not None:
            into = item.target or ""
            assert (order.unit.province, into) not in CAPE, f"{item.text} supports round the Cape"
        if isinstance(order, Convoy):
            here = order.unit.province
            assert board.game_map.is_sea(here) or here in switches.convoy_ports, item.text


SEEDS = st.integers(0, 2**32 - 1)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.sampled_from(VARIANT_MAPS))
def test_random_movement_boards_of_the_variants(seed: int, variant: str) -> None:
    rng = random.Random(seed)
    board = rich_board(variant, rng)
    powers = [p for p in board.game_map.powers if board.units.get(p)]
    for power in powers:
        legal = legal_orders(board, power)
        assert_agree(board, power, legal, candidates(board, power, rng, 150))
        assert_rules_kept(board, legal)


@pytest.mark.parametrize("variant", ["ancmed", "1900"])
def test_the_ports_fleets_convoy_on_some_board(variant: str) -> None:
    """Over a few random boards, a fleet in the port is offered a convoy, and an army a convoy
    through the port that no route of seas alone gives."""
    port = next(iter(get_variant(variant).switches.convoy_ports))
    offered = through = 0
    for seed in range(30):
        board = rich_board(variant, random.Random(seed))
        graph = sea_graph(board.game_map)
        fleets = convoying_fleets(graph, board.occupant)
        for power in board.game_map.powers:
            for item in legal_orders(board, power):
                order = item.order
                if isinstance(order, Convoy) and order.unit.province == port:
                    offered += 1
                if isinstance(order, Move) and order.via_convoy and port in fleets:
                    src = order.unit.province
                    if not route_exists(graph, src, order.dest, fleets - {port}):
                        through += 1
    assert offered > 0 and through > 0


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS)
def test_random_chaos_adjustments(seed: int) -> None:
    rng = random.Random(seed)
    gm = get_variant("chaos").game_map()
    units = random_units(gm, rng, 0.3)
    centers: dict[str, list[str]] = {}
    for center in sorted(gm.supply_centers):
        if rng.random() < 0.9:
            centers.setdefault(rng.choice(gm.powers[:8]), []).append(center)
    board = Board.from_json({"variant": "chaos", "phase": "W1901A", "units": units, "centers": centers})
    due = adjustment_counts(board)
    for power in gm.powers:
        legal = legal_orders(board, power)
        assert legal.due == due.get(power, 0)
        owned = set(board.centers.get(power, ()))
        vacant = sorted(c for c in owned if board.unit_at(c) is None)
        if legal.due > 0:
            # builds in every vacant owned centre, home or not, and the count capped by them
            assert [e.location for e in legal.entries] == vacant
            assert legal.due == min(len(owned) - len(board.units.get(power, ())), len(vacant))
        everything: list[Order] = [Waive()]
        for prov in sorted(gm.provinces):
            everything += [
                Build(Unit("A", prov)),
                *(Build(Unit("F", loc)) for loc in gm.provinces[prov].locations),
            ]
        everything += [Remove(u) for _, u in board.all_units()]
        assert_agree(board, power, legal, everything)


def test_exhaustively_on_one_board_each() -> None:
    for variant in VARIANT_MAPS:
        board = rich_board(variant, random.Random(5))
        gm = board.game_map
        everyone = [u for _, u in board.all_units()]
        coastal = [p for p in sorted(gm.provinces) if gm.is_coastal(p)]
        for power in gm.powers:
            mine = board.units.get(power, ())
            orders: list[Order] = []
            for unit in mine:
                orders.append(Hold(unit))
                orders += [Move(unit, loc, via) for loc in sorted(gm.locations) for via in (False, True)]
                for other in everyone:
                    orders.append(SupportHold(unit, other))
                    orders += [SupportMove(unit, other, p) for p in sorted(gm.provinces)]
                    if unit.type == "F" and other.type == "A":
                        orders += [Convoy(unit, other, p) for p in coastal]
            legal = legal_orders(board, power)
            assert_agree(board, power, legal, orders)
            assert_rules_kept(board, legal)


# --- adjudication stays sound under the switches ---------------------------------------------------------


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.sampled_from(VARIANT_MAPS))
def test_adjudication_invariants_on_the_variants_boards(seed: int, variant: str) -> None:
    """Random orders (the rule's places favoured) keep the adjudicator's invariants: every line
    reported with a reason, one counting line per unit, units conserved, no two in a province, and
    after random retreats (round the Cape among them) still no two in a province."""
    rng = random.Random(seed)
    board = rich_board(variant, rng)
    request = board.to_json()
    orders = {}
    for power in board.game_map.powers:
        mine = board.units.get(power, ())
        if mine:
            picked = candidates(board, power, rng, 3 * len(mine))
            orders[power] = [format_order(o) for o in rng.sample(picked, min(len(picked), 2 * len(mine)))]
    full = {**request, "orders": orders}
    out = adjudicate_json(full)
    check_invariants(full, out)
    if out["next_phase"] and out["next_phase"].endswith("R"):
        retreats = {
            power: [
                f"{u} R {rng.choice(info['retreats'])}" for u, info in entries.items() if info["retreats"]
            ]
            for power, entries in out["dislodged"].items()
        }
        after = adjudicate_json(
            {
                "variant": variant,
                "phase": out["next_phase"],
                "units": out["units"],
                "centers": out["centers"],
                "dislodged": out["dislodged"],
                "orders": retreats,
            }
        )
        placed = [province_of(u.split()[1]) for us in after["units"].values() for u in us]
        assert len(set(placed)) == len(placed)
