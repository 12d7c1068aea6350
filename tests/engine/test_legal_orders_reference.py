"""engine.legal.legal_orders generates the legal orders directly from the map and the board; the
validator-based enumeration (tests/engine/legal_reference.py: every candidate judged by
validate_order and the board-level check) is the answer it must give, element for element: the same
entries in the same order, the same orders in the same order, every field of every LegalOrder and of
LegalOrders the same, and ``find`` taking the same texts. The built-in player picks from these lists
by position, so any difference would change its games.

Boards: random games played through every phase kind on Standard and every variant (convoys,
retreats, builds, waives and removals, ww1914's neutral Italy and its closed provinces), the
adjudication bench's dense positions, random positions of the legal-orders and rule-switch tests
(ports, the Cape), and hand-picked corners.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.adjudicate import dense_position
from engine import adjudicate, all_variants, initial_board
from engine.board import Board
from engine.legal import LegalOrder, LegalOrders, forget_legal_orders, legal_orders
from engine.orders import format_order
from tests.engine.legal_reference import reference_aliases, reference_legal_orders
from tests.engine.test_legal_orders import DENSE, movement_board, retreat_board
from tests.engine.test_player import random_board
from tests.engine.test_rule_switches import VARIANT_MAPS, rich_board
from tests.helpers.profiles import examples

VARIANTS = sorted(v.name for v in all_variants() if v.playable())
SEEDS = st.integers(0, 2**32 - 1)


def assert_same(board: Board, power: str, legal: LegalOrders | None = None) -> int:
    """legal_orders(board, power) is the reference's answer in every field; the number of orders."""
    if legal is None:
        legal = legal_orders(board, power)
    expected = reference_legal_orders(board, power)
    where = f"{power} on {board.phase} ({board.variant})"
    assert (legal.power, legal.phase, legal.due, legal.reason) == (
        expected.power,
        expected.phase,
        expected.due,
        expected.reason,
    ), where
    assert legal.waive == expected.waive, where
    assert [(e.location, e.unit, e.dislodged) for e in legal.entries] == [
        (e.location, e.unit, e.dislodged) for e in expected.entries
    ], where
    for got, want in zip(legal.entries, expected.entries, strict=True):
        # field by field first, for a readable failure
        assert [o.text for o in got.orders] == [o.text for o in want.orders], f"{where}: {got.location}"
        for a, b in zip(got.orders, want.orders, strict=True):
            assert (a.order, a.text, a.kind, a.target, a.helped, a.via_convoy) == (
                b.order,
                b.text,
                b.kind,
                b.target,
                b.helped,
                b.via_convoy,
            ), where
            assert type(a.order) is type(b.order), where
            if a.kind != "build":  # the very Units of the board, as validation returns them
                assert a.order.unit is b.order.unit and a.helped is b.helped, where
    assert legal == expected, where
    for item in legal:
        assert legal.find(item.text) is item and legal.find(item.order) is item, item.text
    aliases = reference_aliases(expected, board)
    assert [item.text for item in legal._aliases] == [item.text for _, item in aliases], where
    for plain, item in aliases:
        assert legal.find(plain) is legal.find(item.text), plain
        assert legal.find(format_order(plain)) is legal.find(item.text), plain
    return len(legal)


def assert_board(board: Board) -> int:
    """Every power of the board, cold (nothing remembered) and then remembered."""
    forget_legal_orders()
    found = sum(assert_same(board, power) for power in board.game_map.powers)
    for power in board.game_map.powers:
        assert legal_orders(board, power) is legal_orders(board, power)
    return found


def play(variant: str, rng: random.Random, phases: int) -> list[Board]:
    """The boards of a random game of ``variant``, each order picked from the listed ones: half the
    units move, the others support one of those moves where they can (so that units are dislodged),
    a power builds or removes what it must."""
    board = initial_board(variant)
    boards = [board]
    for _ in range(phases):
        listed = {power: legal_orders(board, power) for power in board.game_map.powers}
        picked: dict[str, list[LegalOrder]] = {}
        for power, legal in listed.items():
            for entry in legal.entries:
                moves = entry.of_kind("move") or entry.orders
                if rng.random() < 0.5:
                    picked.setdefault(power, []).append(rng.choice(moves))
        moving = {o.order.unit: o.target for orders in picked.values() for o in orders}
        orders: dict[str, list[str]] = {}
        for power, legal in listed.items():
            chosen = {o.order.unit for o in picked.get(power, ())}
            lines = [o.text for o in picked.get(power, ())]
            for entry in legal.entries:
                if entry.unit is not None and entry.unit in chosen:
                    continue
                helping = [
                    o for o in entry.of_kind("support") if o.helped in moving and moving[o.helped] == o.target
                ]
                lines.append(rng.choice(helping or list(entry.orders)).text)
            orders[power] = lines[: abs(legal.due)] if legal.due else lines
        result = adjudicate(board, orders)
        if result.next_phase is None:
            break
        board = result.board
        boards.append(board)
    return boards


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_of_every_variant(variant: str) -> None:
    kinds = set()
    listed = 0
    for seed in range(3):
        for board in play(variant, random.Random(f"{variant}:{seed}"), 24):
            kinds.add(board.phase.kind)
            listed += assert_board(board)
    assert kinds == {"M", "R", "A"} and listed > 500


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("kind", ["M", "R", "A"])
def test_random_positions_of_every_variant(variant: str, kind: str) -> None:
    rng = random.Random(f"reference:{variant}{kind}")
    for _ in range(4):
        assert_board(random_board(rng, variant, kind))


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS)
def test_dense_positions(seed: int) -> None:
    """The adjudication bench's crowded boards: 34 units, a third of them fleets at sea (the most
    convoys, and supports of convoyed moves)."""
    rng = random.Random(seed)
    board = Board.from_json(
        {"phase": rng.choice(["S1901M", "F1905M"]), "units": dense_position(rng), "centers": {}}
    )
    assert assert_board(board) > 0


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS)
def test_random_movement_and_retreat_boards(seed: int) -> None:
    """The legal-orders tests' boards: half the map filled (ww1914's closed Italy one in five), and
    the retreat phases random movement leaves."""
    rng = random.Random(seed)
    assert_board(movement_board(rng))
    assert_board(retreat_board(rng))


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.sampled_from(VARIANT_MAPS))
def test_the_rule_switches_boards(seed: int, variant: str) -> None:
    """Fleets in the convoy ports and round the Cape of Good Hope (no support across it)."""
    assert_board(rich_board(variant, random.Random(seed)))


def test_corners() -> None:
    boards = [
        initial_board("standard"),
        Board.from_json({"phase": "F1905M", "units": DENSE, "centers": {}}),
        # split coasts both ways, a fleet on each coast of a neighbour
        Board.from_json(
            {
                "phase": "S1901M",
                "units": {
                    "FRANCE": ["F MAO", "F SPA/SC", "A GAS"],
                    "ITALY": ["F WES", "F LYO", "A MAR"],
                    "RUSSIA": ["F STP/SC", "F BOT", "A FIN"],
                    "ENGLAND": ["F BAR", "F NWY", "A SWE"],
                },
                "centers": {},
            }
        ),
        # a convoy the supporter itself carries (DATC 6.D.31), and a long chain with detours
        Board.from_json(
            {
                "phase": "F1901M",
                "units": {
                    "ENGLAND": ["A LON", "F NTH", "F ENG", "F NWG"],
                    "FRANCE": ["A BRE", "F MAO", "F IRI"],
                    "GERMANY": ["A HOL", "F HEL", "F SKA"],
                },
                "centers": {},
            }
        ),
        # ww1914 while Italy is neutral: its units only hold, its provinces closed to the others
        Board.from_json(
            {"variant": "ww1914", "phase": "F1914M", "units": initial_board("ww1914").to_json()["units"]}
        ),
        initial_board("ww1914"),
    ]
    for board in boards:
        assert_board(board)
