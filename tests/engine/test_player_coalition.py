"""The hard level's defence against a big leader (engine.player.coalition): while one stands, its
predicted reply is the hard level's own plan for it. Its effect on self-play solos:
bench/player_sanity.py (the README's table of switches)."""

from __future__ import annotations

import pytest

from engine import Board, adjudicate
from engine.player import choose_orders, coalition, lookahead

# France (12 centres) has Burgundy and Ruhr beside Germany's army in Munich: the hard France attacks
# Munich with a support, which the normal player's prediction of France does not foresee
MUNICH = {
    "phase": "F1910M",
    "units": {
        "FRANCE": ["A BUR", "A RUH", "F NTH", "F ENG", "A PIC", "F MAO", "A GAS", "F HEL"],
        "GERMANY": ["A MUN", "A TYR", "A BER", "F BAL"],
        "ITALY": ["F NAP", "A ROM"],
    },
    "centers": {
        "FRANCE": ["PAR", "BRE", "MAR", "BEL", "HOL", "SPA", "POR", "LON", "LVP", "EDI", "NWY", "DEN"],
        "GERMANY": ["BER", "KIE", "MUN", "SWE"],
        "ITALY": ["VEN", "ROM", "NAP"],
    },
}


def test_big_leader_needs_its_centres_a_margin_and_the_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    board = Board.from_json(MUNICH)
    monkeypatch.setattr(coalition, "AT", None)
    assert coalition.big_leader(board, "GERMANY", ()) is None  # off
    monkeypatch.setattr(coalition, "AT", 12)
    assert coalition.big_leader(board, "GERMANY", ()) == "FRANCE"
    assert coalition.big_leader(board, "FRANCE", ()) is None  # not against itself
    assert coalition.big_leader(board, "GERMANY", ("FRANCE",)) is None  # nor one in civil disorder
    monkeypatch.setattr(coalition, "RATIO", 3.5)  # 12 < 3.5 x Germany's 4
    assert coalition.big_leader(board, "ITALY", ()) is None
    monkeypatch.setattr(coalition, "AT", 13)
    monkeypatch.setattr(coalition, "RATIO", 0.0)
    assert coalition.big_leader(board, "GERMANY", ()) is None


@pytest.mark.parametrize("seed", [0, 1, 2, 5])
def test_hard_germany_foresees_the_hard_leaders_attack_on_munich(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board.from_json(MUNICH)
    monkeypatch.setattr(lookahead, "TRUCE_SCORE", None)  # the truce, the other defence against a leader
    # a lost unit weighed as before 2026-11-30 night: at the default 5, seed 5's Germany trades Munich's
    # army for Trieste (four centres after the fall either way)
    monkeypatch.setattr(lookahead, "LOST_UNIT", 9.0)
    monkeypatch.setattr(coalition, "AT", None)  # off
    france = [o.order for o in choose_orders(board, "FRANCE", seed, level="hard")]
    before = [o.order for o in choose_orders(board, "GERMANY", seed, level="hard")]
    lost = adjudicate(board, {"FRANCE": france, "GERMANY": before})
    assert len(lost.board.dislodged.get("GERMANY", ())) == 1  # without: Munich's army dislodged
    monkeypatch.setattr(coalition, "AT", 12)
    after = [o.order for o in choose_orders(board, "GERMANY", seed, level="hard")]
    monkeypatch.setattr(coalition, "AT", 10)  # the default: France's 12 make it a big leader too
    assert [o.order for o in choose_orders(board, "GERMANY", seed, level="hard")] == after
    kept = adjudicate(board, {"FRANCE": france, "GERMANY": after})
    assert not kept.board.dislodged.get("GERMANY")


def test_a_big_leaders_gains_cost_what_stop_says(monkeypatch: pytest.MonkeyPatch) -> None:
    board = Board.from_json(MUNICH)
    france = ["A BUR - MUN", "A RUH S A BUR - MUN"]
    after = adjudicate(board, {"FRANCE": france, "GERMANY": ["A MUN H"]}).board
    assert after.occupant["MUN"][0] == "FRANCE"
    monkeypatch.setattr(coalition, "STOP", 0.0)
    assert coalition.gains(board, after, "FRANCE", 0.8) == 0.0  # off
    monkeypatch.setattr(coalition, "STOP", 1.0)  # the default
    assert coalition.gains(board, after, "FRANCE", 0.8) == 1.0  # Munich, France's after this fall
    monkeypatch.setattr(coalition, "STOP", 2.0)  # harder: each centre it gains costs us two
    assert coalition.gains(board, after, "FRANCE", 0.8) == 2.0
    monkeypatch.setattr(coalition, "STOP", 1.0)
    spring = Board.from_json({**MUNICH, "phase": "S1911M"})
    after = adjudicate(spring, {"FRANCE": france, "GERMANY": ["A MUN H"]}).board
    assert coalition.gains(spring, after, "FRANCE", 0.8) == pytest.approx(0.8)  # stood on in a spring


def test_a_harder_stop_keeps_the_leader_from_any_centre(monkeypatch: pytest.MonkeyPatch) -> None:
    # seed 0: France's hard plan attacks Munich with a support; at STOP=1.0 Germany's army leaves Munich
    # for Kiel and France walks in, at STOP=2.0 A TYR moves in with a support and France bounces
    board = Board.from_json(MUNICH)
    france = [o.order for o in choose_orders(board, "FRANCE", 0, level="hard")]
    italy = [o.order for o in choose_orders(board, "ITALY", 0, level="hard")]
    gained = {}
    for stop in (1.0, 2.0):
        monkeypatch.setattr(coalition, "STOP", stop)
        germany = [o.order for o in choose_orders(board, "GERMANY", 0, level="hard")]
        after = adjudicate(board, {"FRANCE": france, "GERMANY": germany, "ITALY": italy}).board
        gained[stop] = coalition.gains(board, after, "FRANCE", 0.8) / stop
    assert gained == {1.0: 1.0, 2.0: 0.0}


def test_near_stop_weighs_a_leader_close_to_a_solo_more(monkeypatch: pytest.MonkeyPatch) -> None:
    """With NEAR_AT=12 NEAR_STOP=3.0 France's gains, at 12 centres, cost three times; with NEAR_AT=13
    (France too small for it) STOP's once."""
    board = Board.from_json(MUNICH)
    orders = {"FRANCE": ["A BUR - MUN", "A RUH S A BUR - MUN"], "GERMANY": ["A MUN H"]}
    after = adjudicate(board, orders).board
    monkeypatch.setattr(coalition, "NEAR_STOP", 3.0)
    monkeypatch.setattr(coalition, "NEAR_AT", None)  # the default: off
    assert coalition.gains(board, after, "FRANCE", 0.8) == 1.0
    monkeypatch.setattr(coalition, "NEAR_AT", 12)
    assert coalition.gains(board, after, "FRANCE", 0.8) == 3.0
    monkeypatch.setattr(coalition, "NEAR_AT", 13)
    assert coalition.gains(board, after, "FRANCE", 0.8) == 1.0
