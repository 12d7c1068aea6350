"""The hard level's search beyond one unit at a time (engine.player.refine): the next best
candidate plans bettered too (``TOP``), two units changed together (``PAIRS``), the defences
against the worst reply's captures (``REPLAN``), and the units blocking a build tried again
(``FREE_HOMES``). All off by default; their figures: the README's table "Tried for hard's goals
not met"."""

from __future__ import annotations

from collections.abc import Collection

import pytest

from engine import Board, adjudicate, legal_orders
from engine.legal import LegalOrder
from engine.player import choose_orders, lookahead, refine
from engine.player.values import values
from tests.engine.test_player_lookahead import RUSSIA_FALL_1901

# Spring 1902, France of four units (from a game against six baselines, seed 3)
FRANCE_SPRING_1902 = {
    "variant": "standard",
    "phase": "S1902M",
    "units": {
        "AUSTRIA": ["A VIE", "A SER", "F GRE", "A TRI"],
        "ENGLAND": ["F LON", "F NTH", "A YOR"],
        "FRANCE": ["F ENG", "A BUR", "A MUN", "A MAR"],
        "GERMANY": ["F DEN", "A SIL", "A TYR"],
        "ITALY": ["F ION", "A ROM", "A VEN"],
        "RUSSIA": ["A BUD", "A MOS", "F SEV", "F BOT", "A WAR"],
        "TURKEY": ["F BLA", "A RUM", "A ARM", "F CON"],
    },
    "centers": {
        "AUSTRIA": ["GRE", "SER", "TRI", "VIE"],
        "ENGLAND": ["EDI", "LON", "LVP"],
        "FRANCE": ["BRE", "MAR", "MUN", "PAR"],
        "GERMANY": ["BER", "DEN", "KIE"],
        "ITALY": ["NAP", "ROM", "VEN"],
        "RUSSIA": ["BUD", "MOS", "SEV", "STP", "WAR"],
        "TURKEY": ["ANK", "CON", "RUM", "SMY"],
    },
}


def _plan(board: Board, power: str, seed: int) -> list[str]:
    orders = choose_orders(board, power, seed, level="hard")
    legal = legal_orders(board, power)
    assert all(legal.find(o.text) is not None for o in orders)
    return sorted(o.text for o in orders)


def test_top_betters_the_next_best_candidates_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``TOP=3`` the second or third candidate, bettered, scores best: France moves on Berlin
    and Ruhr instead of Kiel and back into Munich."""
    board = Board.from_json(FRANCE_SPRING_1902)
    monkeypatch.setattr(refine, "TOP", 1)  # one candidate bettered (hard's default is TOP=9)
    alone = _plan(board, "FRANCE", 7)
    assert "A MUN - KIE" in alone and "A BUR - MUN" in alone
    monkeypatch.setattr(refine, "TOP", 3)
    assert _plan(board, "FRANCE", 7) == ["A BUR - RUH", "A MAR - SPA", "A MUN - BER", "F ENG - BEL"]


def test_replan_defends_sevastopol_against_the_backed_reply(monkeypatch: pytest.MonkeyPatch) -> None:
    """Russia's fall 1901: Turkey's A ARM, supported by F BLA, would take Sevastopol. With
    ``REPLAN`` and the backed reply weighed fully, Sevastopol holds with the support of A UKR and
    A GAL moves on Rumania instead (three units changed)."""
    board = Board.from_json(RUSSIA_FALL_1901)
    assert "F SEV S A UKR - RUM" in _plan(board, "RUSSIA", 0)
    monkeypatch.setattr(refine, "REPLAN", 16)
    monkeypatch.setattr(refine, "REPLAN_BACKED", 1.0)
    assert _plan(board, "RUSSIA", 0) == ["A GAL - RUM", "A UKR S F SEV", "F BOT - SWE", "F SEV H"]


def test_free_homes_moves_a_unit_off_a_home_centre_where_it_blocks_a_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fall: Germany's army in Holland takes Belgium while its units hold Berlin, Kiel and Munich,
    blocking the build due. With FREE_HOMES one of them moves off (judged by the look-ahead's score,
    which weighs the blocked build), so a home centre is left free; off, the plan is kept."""
    board = Board.from_json(
        {
            "phase": "F1905M",
            "units": {"GERMANY": ["A BER", "A MUN", "F KIE", "A HOL"], "FRANCE": ["A PAR"]},
            "centers": {"GERMANY": ["BER", "KIE", "MUN", "HOL"], "FRANCE": ["PAR"]},
        }
    )
    legal = legal_orders(board, "GERMANY")
    plan = [legal.find(t) for t in ("A BER H", "A MUN H", "F KIE H", "A HOL - BEL")]
    assert None not in plan
    orders = [o for o in plan if o is not None]
    view = values(board, "GERMANY", ())

    def judge(chosen: Collection[LegalOrder]) -> float:
        mine = [o.order for o in chosen]
        after = adjudicate(board, {"GERMANY": mine}).board
        return lookahead._score(board, after, "GERMANY", view, ())

    assert refine.free_homes(board, "GERMANY", legal, orders, judge, [{}], (), {}, view) == orders  # off
    monkeypatch.setattr(refine, "FREE_HOMES", 40)
    freed = refine.free_homes(board, "GERMANY", legal, orders, judge, [{}], (), {}, view)
    assert judge(freed) > judge(orders)
    after = adjudicate(board, {"GERMANY": [o.order for o in freed]}).board
    assert lookahead._builds_blocked(board, after, "GERMANY", 5) == 0
