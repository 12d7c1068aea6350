"""Order entry (engine.entry.enter_order) takes exactly the position's legal orders: the ones the order
builder lists (engine.legal_orders), with the DATC's completions. An army's move that no chain of
fleets on the board could carry, its support and its convoy are refused at entry, naming the fleets
that would be needed, and are still judged as before when a caller sends them to the adjudicator.
Then the properties, on random positions of every variant in every kind of phase: every listed order
is accepted by its text, every accepted line is listed, every refusal has a reason and a hint, and
every order a hint tells the player to write is accepted."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Board, adjudicate, enter_order, initial_board, legal_orders
from engine.errors import InvalidOrder, OrderError
from engine.orders import Build, Move, Unit, Waive
from tests.helpers.positions import KINDS, VARIANTS, hinted_orders, random_board, typed_lines

MakeBoard = Callable[..., Board]


def refused(text: str, board: Board, power: str, ordered: tuple[str, ...] = ()) -> InvalidOrder:
    with pytest.raises(InvalidOrder) as info:
        enter_order(text, board, power, ordered)
    err = info.value
    assert err.reason and err.hint, "every refusal says why and how to fix it"
    for hinted in hinted_orders(err.hint):
        enter_order(hinted, board, power, ordered)  # a hint names only what is accepted
    return err


def entered(text: str, board: Board, power: str, ordered: tuple[str, ...] = ()) -> str:
    return str(enter_order(text, board, power, ordered))


# --- convoys need fleets at sea --------------------------------------------------------------------------


def test_an_army_move_no_fleet_can_carry_is_refused_naming_the_fleets() -> None:
    start = initial_board("standard")
    err = refused("A Mar-Tus", start, "FRANCE")
    assert err.reason == "no fleet can carry A MAR to TUS: it would need a fleet in LYO"
    assert err.hint == "A MAR can move to BUR, GAS, PIE, SPA"
    assert refused("A Mar - Tus via convoy", start, "FRANCE").reason == err.reason
    assert refused("A Lvp - Nwy", start, "ENGLAND").reason == (
        "no fleet can carry A LVP to NWY: it would need fleets in NAO and NWG"
    )
    # Ancient Mediterranean, the other example
    assert refused("A Car - Num", initial_board("ancmed"), "CARTHAGE").reason.startswith(
        "no fleet can carry A CAR to NUM: it would need fleets in"
    )


def test_the_fleets_already_at_sea_are_counted(make_board: MakeBoard) -> None:
    board = make_board("S1902M", units={"ENGLAND": ["A LON", "F ENG"], "TURKEY": ["F TYS"]}, centers={})
    # the fleets on the way are counted: only the missing ones are named
    err = refused("A Lon - Tus", board, "ENGLAND")
    assert err.reason == (
        "no chain of fleets can carry A LON to TUS: besides the fleets in ENG and TYS, "
        "it would need fleets in MAO and WES"
    )
    # and where the fleets can carry it now, the hint says so
    assert err.hint == "A LON can move to WAL, YOR, or by convoy to BEL, BRE, PIC"
    assert refused("A Lon - Tun", board, "ENGLAND").reason == (
        "no chain of fleets can carry A LON to TUN: besides the fleet in ENG, "
        "it would need fleets in MAO and WES"
    )
    # one fleet more would do, in any of these seas
    board = make_board("S1902M", units={"ENGLAND": ["A LON", "F ENG", "F WES"]}, centers={})
    assert refused("A Lon - Tun", board, "ENGLAND").reason == (
        "no fleet can carry A LON to TUN: it would need a fleet in MAO"
    )
    board = make_board("S1902M", units={"ITALY": ["A NAP"]}, centers={})
    assert refused("A Nap - Tun", board, "ITALY").reason == (
        "no fleet can carry A NAP to TUN: it would need a fleet in ION or TYS"
    )


def test_a_move_fleets_can_carry_is_taken_as_the_convoy_it_needs(make_board: MakeBoard) -> None:
    board = make_board("S1902M", units={"ENGLAND": ["F NTH", "A LON"]}, centers={})
    assert entered("A Lon-Nwy", board, "ENGLAND") == "A LON - NWY"  # a convoy either way (DATC 4.A.3)
    assert entered("A LON - NWY VIA", board, "ENGLAND") == "A LON - NWY VIA"
    assert entered("A Lon - Yor via convoy", board, "ENGLAND") == "A LON - YOR VIA"
    legal = legal_orders(board, "ENGLAND")
    assert legal.find("A LON - NWY") is legal.find("A LON - NWY VIA") is not None
    assert refused("A Lon - Bre", board, "ENGLAND").reason == (
        "no fleet can carry A LON to BRE: it would need a fleet in ENG"
    )


def test_supports_and_convoys_of_moves_no_fleet_can_carry(make_board: MakeBoard) -> None:
    board = make_board(
        "S1902M",
        units={"ENGLAND": ["A YOR", "F NTH", "A LON"], "ITALY": ["A APU"], "FRANCE": ["F LYO", "A BRE"]},
        centers={},
    )
    err = refused("A YOR S A APU - LON", board, "ENGLAND")
    assert err.reason.startswith(
        "A YOR cannot support A APU to LON: no fleet can carry A APU there: it would need"
    )
    err = refused("F LYO C A BRE - TUN", board, "FRANCE")
    assert err.reason.startswith("F LYO cannot convoy A BRE to TUN: no chain of fleets joins BRE and TUN")
    assert "it would need" in err.reason
    # the only chain runs through the supporter (DATC 6.D.31): the hint offers the convoy instead
    err = refused("F NTH S A LON - NWY", board, "ENGLAND")
    assert "only by a convoy through NTH" in err.reason
    assert err.hint == "write F NTH C A LON - NWY to carry it instead"
    assert entered("F NTH C A LON - NWY", board, "ENGLAND") == "F NTH C A LON - NWY"


def test_a_convoy_off_the_army_s_way_names_the_fleets_on_it(make_board: MakeBoard) -> None:
    board = make_board("S1902M", units={"ENGLAND": ["F NTH", "F ENG", "A LON"]}, centers={})
    err = refused("F NTH C A LON - BRE", board, "ENGLAND")  # DATC 6.G.19: ENG alone carries it
    assert "not needed on any convoy route" in err.reason and err.hint == "the fleets on its way: F ENG"


def test_the_adjudicator_still_judges_such_orders_as_before() -> None:
    # the change is at entry: a caller who sends the order gets the adjudication's answer of old
    result = adjudicate(initial_board("standard"), {"FRANCE": ["A MAR - TUS"]})
    line = next(r for r in result.results if r.input == "A MAR - TUS")
    assert line.status == "invalid"
    assert line.reason == (
        "A MAR cannot reach TUS: not adjacent, and no chain of fleets at sea could convoy it; "
        "treated as a hold"
    )


# --- the DATC's completions ------------------------------------------------------------------------------


def test_completions(make_board: MakeBoard) -> None:
    start = initial_board("standard")
    assert entered("Par - Bur", start, "FRANCE") == "A PAR - BUR"  # the type filled in
    board = make_board("S1902M", units={"FRANCE": ["A GAS", "F MAO"]}, centers={})
    assert entered("A Gascony - Spain(nc)", board, "FRANCE") == "A GAS - SPA"  # DATC 4.B.6: coast ignored
    err = refused("F MAO - SPA", board, "FRANCE")  # two coasts: which one?
    assert err.hint == "write F MAO - SPA/NC or F MAO - SPA/SC"
    fleet = make_board("S1902M", units={"FRANCE": ["F GAS"]}, centers={})
    assert entered("F Gas - Spa", fleet, "FRANCE") == "F GAS - SPA/NC"  # the only coast it reaches


# --- winter: the count, with the orders given so far -------------------------------------------------------


@pytest.fixture
def winter(make_board: MakeBoard) -> Board:
    return make_board(
        "W1901A",
        units={"FRANCE": ["A PIC"], "RUSSIA": ["A MOS", "A UKR", "F BOT"], "ENGLAND": ["F LON"]},
        centers={"FRANCE": ["PAR", "MAR", "BRE"], "RUSSIA": ["MOS", "STP"], "ENGLAND": ["LON"]},
    )


def test_builds_and_waives_are_counted(winter: Board) -> None:
    assert entered("A Par B", winter, "FRANCE", ("A MAR B",)) == "A PAR B"
    err = refused("WAIVE", winter, "FRANCE", ("A MAR B", "F BRE B"))
    assert err.reason == "France may build 2 units and already has 2 ordered (A MAR B, F BRE B)"
    # the same site again replaces that build: it does not count against itself
    assert entered("F Bre B", winter, "FRANCE", ("A MAR B", "A BRE B")) == "F BRE B"
    # a build refused for its form gets a hint for that site only while builds are left
    assert refused("Bre B", winter, "FRANCE").hint == "write A BRE B or F BRE B"
    assert refused("Bre B", winter, "FRANCE", ("A MAR B", "A PAR B")).reason.startswith(
        "France may build 2 units"
    )


def test_a_power_without_builds_is_never_told_to_write_waive(winter: Board) -> None:
    err = refused("WAIVE", winter, "ENGLAND")
    assert err.reason == "England has no builds this winter"
    assert err.hint == "building needs more supply centers than units"
    err = refused("A Edi B", winter, "ENGLAND")
    assert err.reason == "England has no builds this winter" and "WAIVE" not in (err.hint or "")
    err = refused("A Mos B", winter, "RUSSIA")
    assert err.hint == "it has more units than supply centers, so it removes 1 unit this winter instead"
    assert refused("A Pic D", winter, "FRANCE").hint == "it may build 2 units this winter, or waive"
    assert refused("F Lon D", winter, "ENGLAND").hint == "it has nothing to order this winter"


def test_removals_are_counted(winter: Board) -> None:
    assert entered("A Ukr", winter, "RUSSIA") == "A UKR D"  # a bare unit: a removal when one is due
    err = refused("F Bot D", winter, "RUSSIA", ("A UKR D",))
    assert err.reason == "Russia must remove 1 unit and already has 1 ordered (A UKR D)"
    assert entered("A Ukr D", winter, "RUSSIA", ("A UKR D",)) == "A UKR D"


def test_the_winter_answers_use_orders_and_texts_alike(winter: Board) -> None:
    as_orders = (Build(Unit("A", "MAR")), Waive())
    with pytest.raises(InvalidOrder, match="already has 2 ordered"):
        enter_order("A PAR B", winter, "FRANCE", as_orders)


# --- properties on random positions of every variant -------------------------------------------------------


def check_position(board: Board, rng: random.Random, lines: int) -> tuple[int, int]:
    """Every listed order is accepted by its text as itself; every accepted line is listed; every
    refusal has a reason and a hint whose orders are accepted. Returns (accepted, hinted) counts."""
    accepted = hinted = 0
    for power in board.game_map.powers:
        legal = legal_orders(board, power)
        for item in legal:
            assert enter_order(item.text, board, power) == item.order, item.text
        for line in typed_lines(board, power, rng, lines):
            try:
                order = enter_order(line, board, power)
            except OrderError as exc:
                assert exc.reason and exc.hint, line
                for text in hinted_orders(exc.hint):
                    hinted += 1
                    assert legal.find(enter_order(text, board, power)) is not None, (line, exc.hint)
                continue
            accepted += 1
            assert legal.find(order) is not None, f"{line!r} is accepted as {order} but not a legal order"
    return accepted, hinted


SEEDS = st.integers(0, 2**32 - 1)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.sampled_from(VARIANTS), st.sampled_from(KINDS))
def test_entry_and_the_builder_agree_on_random_positions(seed: int, variant: str, kind: str) -> None:
    rng = random.Random(seed)
    check_position(random_board(variant, kind, rng), rng, 15)


def test_entry_and_the_builder_agree_on_many_positions() -> None:
    """A fixed sweep, so that every variant and phase is covered on every run, with enough lines
    that refusals with concrete hints and accepted convoys both occur."""
    rng = random.Random(26)
    accepted = hinted = 0
    for variant in VARIANTS:
        for kind in KINDS:
            for _ in range(3):
                got = check_position(random_board(variant, kind, rng), rng, 10)
                accepted += got[0]
                hinted += got[1]
    assert accepted > 500 and hinted > 20


def test_a_convoyed_move_is_taken_exactly_when_listed() -> None:
    """Armies' far moves on crowded and sparse boards: accepted at entry iff the builder lists them."""
    rng = random.Random(5)
    both = set()
    for variant in VARIANTS:
        for _ in range(4):
            board = random_board(variant, "M", rng)
            gm = board.game_map
            coastal = sorted(p for p in gm.provinces if gm.is_coastal(p))
            for power, unit in board.all_units():
                if unit.type != "A" or not gm.is_coastal(unit.province):
                    continue
                legal = legal_orders(board, power)
                for dest in rng.sample(coastal, 12):
                    try:
                        order = enter_order(f"{unit} - {dest}", board, power)
                    except OrderError:
                        assert legal.find(Move(unit, dest, True)) is None, f"{unit} - {dest} VIA is listed"
                        both.add(False)
                        continue
                    assert legal.find(order) is not None
                    both.add(True)
    assert both == {True, False}
