"""The hard level's fall score with ``BUILDS_MADE`` (engine.player.lookahead): the builds we could make
gain, instead of each build our own units block costing ``BLOCKED``, so that a capture never scores
less than a centre, a unit moving off a home centre where a build is due gains the build, and a unit
of ours dislodged gains nothing. Its figures: the README's built-in player."""

from __future__ import annotations

import pytest

from engine import Board, adjudicate
from engine.player import lookahead
from engine.player.values import values

# Fall 1905: France's three home centres held by its own units, an army in Gascony next to an empty
# Spain; no other power near
FRANCE_FULL = {
    "phase": "F1905M",
    "units": {
        "FRANCE": ["A PAR", "F BRE", "A MAR", "A GAS"],
        "RUSSIA": ["A MOS"],
    },
    "centers": {
        "FRANCE": ["PAR", "BRE", "MAR", "POR"],
        "RUSSIA": ["MOS"],
    },
}


def _gain(data: dict[str, object], better: list[str], worse: list[str], power: str = "FRANCE") -> float:
    """How much more the fall score gives ``power`` after ``better`` than after ``worse`` (the
    other powers hold), less the difference of where the units stand."""
    board = Board.from_json(data)
    view = values(board, power, ())
    scores = []
    for orders in (better, worse):
        after = adjudicate(board, {power: orders}).board
        place = sum(lookahead.UNIT_PLACE * view.of(u.type, u.province) for u in after.units.get(power, ()))
        scores.append(lookahead._score(board, after, power, view, ()) - place)
    return scores[0] - scores[1]


CAPTURE = ["A GAS - SPA", "A PAR H", "F BRE H", "A MAR H"]
HOLD = ["A GAS H", "A PAR H", "F BRE H", "A MAR H"]


def test_a_capture_with_every_home_centre_blocked_costs_a_blocked_build_without_builds_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Today's score: taking Spain adds a build due that France's own units block, so it gains a
    centre less ``BLOCKED`` (nothing at 14, a loss at 30: hard then holds rather than captures)."""
    assert lookahead.BUILDS_MADE is None
    assert _gain(FRANCE_FULL, CAPTURE, HOLD) == pytest.approx(lookahead.CENTRE - lookahead.BLOCKED)
    monkeypatch.setattr(lookahead, "BLOCKED", 30.0)
    assert _gain(FRANCE_FULL, CAPTURE, HOLD) < 0


@pytest.mark.parametrize("weight", [1.0, 2.0])
def test_with_builds_made_a_capture_is_worth_a_centre_when_the_homes_are_blocked(
    monkeypatch: pytest.MonkeyPatch, weight: float
) -> None:
    monkeypatch.setattr(lookahead, "BUILDS_MADE", weight)
    assert _gain(FRANCE_FULL, CAPTURE, HOLD) == pytest.approx(lookahead.CENTRE)


@pytest.mark.parametrize("weight", [1.0, 2.0])
def test_with_builds_made_freeing_a_home_where_a_build_is_due_gains_the_build(
    monkeypatch: pytest.MonkeyPatch, weight: float
) -> None:
    """France takes Spain with the army from Marseilles: a centre, and Marseilles free for its build;
    with Gascony's army taking it instead, Marseilles stays blocked."""
    monkeypatch.setattr(lookahead, "BUILDS_MADE", weight)
    board = Board.from_json(FRANCE_FULL)
    off = ["A MAR - SPA", "A PAR H", "F BRE H", "A GAS H"]
    assert _gain(FRANCE_FULL, off, CAPTURE) == pytest.approx(weight * lookahead.CENTRE)
    after = adjudicate(board, {"FRANCE": off}).board
    assert lookahead._builds_made(board, after, "FRANCE", 5) == 1


# Fall 1905: France's army in Burgundy attacked with support by Germany; Marseilles empty; France owns
# as many centres as it has units
FRANCE_ATTACKED = {
    "phase": "F1905M",
    "units": {
        "FRANCE": ["A PAR", "F BRE", "A BUR"],
        "GERMANY": ["A MUN", "A RUH"],
    },
    "centers": {
        "FRANCE": ["PAR", "BRE", "MAR"],
        "GERMANY": ["MUN", "BER", "KIE"],
    },
}


@pytest.mark.parametrize("weight", [1.0, 2.0])
def test_with_builds_made_a_unit_of_ours_dislodged_gains_no_build(
    monkeypatch: pytest.MonkeyPatch, weight: float
) -> None:
    """The builds due are counted against our units before the phase: Burgundy's army dislodged does
    not make a build due into empty Marseilles; it costs ``LOST_UNIT``."""
    monkeypatch.setattr(lookahead, "BUILDS_MADE", weight)
    board = Board.from_json(FRANCE_ATTACKED)
    view = values(board, "FRANCE", ())
    french = ["A PAR H", "F BRE H", "A BUR H"]
    hit = adjudicate(board, {"FRANCE": french, "GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]}).board
    quiet = adjudicate(board, {"FRANCE": french, "GERMANY": ["A MUN H", "A RUH H"]}).board
    assert hit.dislodged.get("FRANCE")
    assert lookahead._builds_made(board, hit, "FRANCE", 3) == 0
    place = lookahead.UNIT_PLACE * view.of("A", "BUR")
    kept = lookahead._score(board, quiet, "FRANCE", view, ())
    lost = lookahead._score(board, hit, "FRANCE", view, ())
    assert kept - lost == pytest.approx(lookahead.LOST_UNIT + place)
