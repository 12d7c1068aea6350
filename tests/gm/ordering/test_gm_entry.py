"""Every tick and every hint tells the truth, at gm's gate (gm.ordering.judging.judge_line, which every
way to order goes through: DM, form, /order, a mention, the order builder).

On random positions of every variant in every kind of phase, with some winter orders given already:
a line accepted is one of the position's legal orders (what the order builder lists), every listed
order is accepted by its text, every refused line has a reason and a hint, and every order a hint
tells the player to write is accepted when sent next, with the same orders given. Then the issue's
own example through the whole submission: a move no fleet can carry is refused, not ticked."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from db.database import SessionFactory
from engine import Board
from engine.adjudicator.adjustments import adjustment_counts
from engine.legal import legal_orders
from gm.ordering.judging import LineOutcome, judge_line
from gm.ordering.progress import PhaseState
from gm.ordering.required import duties, order_key
from tests.gm.conftest import make_started_game, place, submit
from tests.helpers.positions import KINDS, VARIANTS, hinted_orders, random_board, typed_lines


def state_of(board: Board, power: str, given: dict[str, str]) -> PhaseState:
    return PhaseState(
        board=board,
        duties=duties(board, adjustment_counts(board)),
        orders={power: dict(given)},
        inputs={},
        ready=frozenset(),
        player_of={},
    )


def judge(line: str, board: Board, power: str, given: dict[str, str]) -> LineOutcome:
    """The line judged for ``power`` with ``given`` orders (left unchanged)."""
    outcome, _ = judge_line(line, state_of(board, power, given), [power], {power: dict(given)})
    return outcome


def some_orders(board: Board, power: str, rng: random.Random) -> dict[str, str]:
    """In a winter, a few of the power's legal orders given already, so that the count bites."""
    given: dict[str, str] = {}
    legal = list(legal_orders(board, power))
    if board.phase.kind != "A" or not legal:
        return given
    for item in rng.sample(legal, min(len(legal), rng.randint(1, 3))):
        outcome = judge(item.text, board, power, given)
        if outcome.accepted and outcome.order is not None:
            given[order_key(item.order, given.keys())] = outcome.order
    return given


def check_position(board: Board, rng: random.Random, lines: int) -> tuple[int, int]:
    accepted = hinted = 0
    for power in board.game_map.powers:
        legal = legal_orders(board, power)
        given = some_orders(board, power, rng) if rng.random() < 0.7 else {}
        for line in typed_lines(board, power, rng, lines):
            outcome = judge(line, board, power, given)
            if outcome.accepted:
                accepted += 1
                assert legal.find(outcome.order or "") is not None, (
                    f"{line!r} ticked as {outcome.order}: not legal"
                )
                continue
            assert outcome.reason and outcome.hint, line
            for text in hinted_orders(outcome.hint):
                hinted += 1
                again = judge(text, board, power, given)
                assert again.accepted, (
                    f"{line!r}: {outcome.reason} ({outcome.hint}); {text!r}: {again.reason}"
                )
        if legal.reason is None:
            for item in legal:
                assert judge(item.text, board, power, {}).order == item.text, item.text
    return accepted, hinted


SEEDS = st.integers(0, 2**32 - 1)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.sampled_from(VARIANTS), st.sampled_from(KINDS))
def test_ticks_and_hints_are_true_on_random_positions(seed: int, variant: str, kind: str) -> None:
    rng = random.Random(seed)
    check_position(random_board(variant, kind, rng), rng, 12)


def test_every_winter_hint_is_accepted_with_the_orders_given() -> None:
    """A fixed sweep of winters of every variant, where the count of builds and removals matters."""
    rng = random.Random(26)
    accepted = hinted = 0
    for variant in VARIANTS:
        for _ in range(6):
            got = check_position(random_board(variant, "A", rng), rng, 15)
            accepted += got[0]
            hinted += got[1]
    assert accepted > 100 and hinted > 20


def test_a_power_without_builds_is_not_told_to_waive() -> None:
    board = Board.from_json(
        {
            "phase": "W1901A",
            "units": {"ENGLAND": ["F EDI", "F LON", "A LVP"], "FRANCE": ["A PAR"]},
            "centers": {"ENGLAND": ["EDI", "LON", "LVP"], "FRANCE": ["PAR", "BRE", "MAR"]},
        }
    )
    for line in ("WAIVE", "A Edi B", "Edi B", "F Nwy B"):
        outcome = judge(line, board, "ENGLAND", {})
        assert not outcome.accepted and outcome.reason == "England has no builds this winter", line
        assert "WAIVE" not in (outcome.hint or "") and not hinted_orders(outcome.hint)


async def test_a_move_no_fleet_can_carry_is_refused_not_ticked(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    report = await submit(sessions, started, "FRANCE", "A Mar-Tus\nA Par-Bur")
    mar, par = report.lines
    assert not mar.accepted and mar.order is None
    assert mar.reason == "no fleet can carry A MAR to TUS: it would need a fleet in LYO"
    assert mar.hint == "A MAR can move to BUR, GAS, PIE, SPA"
    assert par.accepted and par.order == "A PAR - BUR"
    assert report.view.powers[0].orders == ("A PAR - BUR",)
    assert "A MAR" in report.view.powers[0].missing


async def test_a_retreat_line_in_spring_is_not_answered_with_an_impossible_move(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    board = {"phase": "S1902M", "units": {"AUSTRIA": ["A TRI", "A VIE"]}, "centers": {}}
    await place(sessions, started.phase.id, board)
    report = await submit(sessions, started, "AUSTRIA", "A Tri R StP/nc")
    (line,) = report.lines
    assert not line.accepted and "is a retreat" in (line.reason or "")
    assert line.hint == "units retreat only when dislodged"  # not "write A TRI - STP/NC": no fleet carries it
