"""The hard level's fall switches for builds our own units block (engine.player.homes): a move off a
home centre supported, a needless move onto a free home centre dropped, a support given from off the
home centres. Their figures: bench/player_sanity.py through bench/player_variants.py (README)."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from engine import Board, legal_orders
from engine.legal import LegalOrder, LegalOrders, OrderKind
from engine.player import homes
from engine.player.lookahead import _settle

# Fall 1902: France's army in Paris (a home centre) would move off to Burgundy, where Germany's army
# in Munich could meet it; France's armies in Marseilles (home) and Gascony hold
FRANCE = {
    "phase": "F1902M",
    "units": {
        "FRANCE": ["A PAR", "A MAR", "A GAS", "F MAO"],
        "GERMANY": ["A MUN", "A RUH"],
    },
    "centers": {
        "FRANCE": ["PAR", "MAR", "BRE", "SPA", "POR"],
        "GERMANY": ["MUN", "BER", "KIE"],
    },
}
HOMES = {"PAR", "MAR", "BRE"}


def _plan(legal: LegalOrders, texts: list[str]) -> dict[str, LegalOrder]:
    found = [legal.find(t) for t in texts]
    assert all(o is not None for o in found), texts
    return {o.order.unit.province: o for o in found if o is not None and o.order.unit is not None}


def _settler(legal: LegalOrders) -> homes.Settle:
    holds = {
        e.unit.province: o
        for e in legal.entries
        if e.unit is not None
        for o in e.orders
        if o.kind == OrderKind.HOLD
    }

    def settle(
        now: Mapping[str, LegalOrder], changes: Mapping[str, LegalOrder]
    ) -> dict[str, LegalOrder] | None:
        return _settle(now, changes, holds)

    return settle


def _flat(plan: Collection[LegalOrder]) -> float:
    return 0.0


def test_a_move_off_a_home_centre_that_may_bounce_gets_a_support() -> None:
    board = Board.from_json(FRANCE)
    legal = legal_orders(board, "FRANCE")
    plan = _plan(legal, ["A PAR - BUR", "A MAR H", "A GAS H", "F MAO H"])
    after = homes.support_off(legal, plan, HOMES, lambda t: t == "BUR", _flat, _settler(legal), 7.0)
    texts = {o.text for o in after.values()}
    assert "A PAR - BUR" in texts
    assert texts & {"A MAR S A PAR - BUR", "A GAS S A PAR - BUR"}, texts


def test_the_support_is_not_given_when_it_costs_more_than_allowed() -> None:
    board = Board.from_json(FRANCE)
    legal = legal_orders(board, "FRANCE")
    plan = _plan(legal, ["A PAR - BUR", "A MAR H", "A GAS H", "F MAO H"])

    def dear(orders: Collection[LegalOrder]) -> float:
        return -10.0 * sum(o.kind == OrderKind.SUPPORT for o in orders)

    after = homes.support_off(legal, plan, HOMES, lambda t: t == "BUR", dear, _settler(legal), 7.0)
    assert after == plan


def test_a_move_onto_a_free_unthreatened_home_centre_is_dropped_while_builds_need_it() -> None:
    board = Board.from_json(FRANCE)
    legal = legal_orders(board, "FRANCE")
    plan = _plan(legal, ["A PAR H", "A MAR H", "A GAS - BRE", "F MAO H"])
    settle = _settler(legal)
    after = homes.calm_onto(legal, plan, HOMES, lambda t: t == "BUR", lambda p: False, _flat, settle, 7.0, 1)
    assert after["GAS"].text != "A GAS - BRE"
    assert after["GAS"].text == "A GAS H" or after["GAS"].target not in HOMES
    # not needed: the plan stays
    same = homes.calm_onto(legal, plan, HOMES, lambda t: t == "BUR", lambda p: False, _flat, settle, 7.0, 0)
    assert same == plan
    # threatened: the move onto it stays
    kept = homes.calm_onto(legal, plan, HOMES, lambda t: t == "BRE", lambda p: False, _flat, settle, 7.0, 1)
    assert kept["GAS"].text == "A GAS - BRE"


def test_a_support_from_a_home_centre_is_given_by_a_unit_off_them_and_the_home_unit_moves_off() -> None:
    board = Board.from_json(FRANCE)
    legal = legal_orders(board, "FRANCE")
    plan = _plan(legal, ["A PAR S A GAS - BUR", "A MAR H", "A GAS - BUR", "F MAO H"])
    settle = _settler(legal)
    after = homes.support_swap(
        legal, plan, HOMES, lambda t: t in {"BUR", "PIC"}, set(), _flat, settle, 7.0, 1
    )
    assert after == plan  # no unit off the home centres can give that support
    plan = _plan(legal, ["A MAR S A GAS - BUR", "A PAR H", "A GAS - BUR", "F MAO H"])
    after = homes.support_swap(
        legal, plan, HOMES, lambda t: t in {"BUR", "PIC"}, set(), _flat, settle, 7.0, 1
    )
    assert after == plan  # Paris holds: only a supporting unit on a home centre is swapped


def test_the_support_comes_from_off_the_home_centres_and_the_unit_in_paris_moves_off() -> None:
    board = Board.from_json(
        {**FRANCE, "units": {"FRANCE": ["A PAR", "A BUR", "A GAS", "F MAO"], "GERMANY": ["A MUN", "A RUH"]}}
    )
    legal = legal_orders(board, "FRANCE")
    plan = _plan(legal, ["A PAR S A BUR", "A BUR H", "A GAS H", "F MAO H"])
    after = homes.support_swap(
        legal, plan, HOMES, lambda t: t == "BUR", set(), _flat, _settler(legal), 7.0, 1
    )
    assert {o.text for o in after.values()} == {"A PAR - PIC", "A BUR H", "A GAS S A BUR", "F MAO H"}
    assert (
        homes.support_swap(legal, plan, HOMES, lambda t: t == "BUR", set(), _flat, _settler(legal), 7.0, 0)
        == plan
    )
