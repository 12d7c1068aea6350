"""Scores of finished games, each system on hand-computed examples, and their sums as properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.endings import ending
from gm.errors import InvalidSettings
from gm.rules.scoring import (
    CENTER_COUNT,
    DRAW_SIZE,
    SUM_OF_SQUARES,
    FinalResult,
    check_system,
    outcome_of,
    score,
    score_text,
)
from tests.helpers.profiles import examples

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def centers(**counts: int) -> dict[str, int]:
    return {p: counts.get(p.lower(), 0) for p in POWERS}


def alive(table: dict[str, int], *extra: str) -> frozenset[str]:
    return frozenset(p for p, n in table.items() if n) | frozenset(extra)


SOLO_TABLE = centers(france=18, england=6, germany=5, russia=3, turkey=2)
SOLO = FinalResult("solo", SOLO_TABLE, alive(SOLO_TABLE), winner="FRANCE")
DRAW_TABLE = centers(england=10, france=8, russia=6, turkey=4)
DRAW = FinalResult("draw", DRAW_TABLE, alive(DRAW_TABLE), shared=("ENGLAND", "FRANCE", "RUSSIA", "TURKEY"))


def rounded(scores: dict[str, float]) -> dict[str, float]:
    return {p: round(s, 2) for p, s in scores.items() if s}


# Draw-size.


def test_draw_size_solo_takes_all() -> None:
    assert rounded(score(SOLO, DRAW_SIZE)) == {"FRANCE": 100.0}
    assert score(SOLO) == score(SOLO, DRAW_SIZE)  # the default system


def test_draw_size_splits_a_draw_equally_whatever_the_centers() -> None:
    assert rounded(score(DRAW, DRAW_SIZE)) == {"ENGLAND": 25, "FRANCE": 25, "RUSSIA": 25, "TURKEY": 25}
    three_way = FinalResult(
        "draw", centers(england=12, france=11, italy=11), shared=("ENGLAND", "FRANCE", "ITALY")
    )
    assert rounded(score(three_way, DRAW_SIZE)) == {"ENGLAND": 33.33, "FRANCE": 33.33, "ITALY": 33.33}


def test_draw_size_short_game_follows_the_announced_leaders() -> None:
    table = centers(england=9, france=9, germany=7, russia=5)
    tied = FinalResult("last_year", table, alive(table), shared=("ENGLAND", "FRANCE"))
    assert rounded(score(tied, DRAW_SIZE)) == {"ENGLAND": 50, "FRANCE": 50}
    lead = FinalResult("last_year", centers(england=10, france=9, germany=7), winner="ENGLAND")
    assert rounded(score(lead, DRAW_SIZE)) == {"ENGLAND": 100}


def test_draw_size_moderator_end_is_shared_by_the_survivors() -> None:
    table = centers(austria=3, germany=4, russia=5)
    ended = FinalResult("moderator", table, alive(table))
    assert rounded(score(ended, DRAW_SIZE)) == {"AUSTRIA": 33.33, "GERMANY": 33.33, "RUSSIA": 33.33}


def test_draw_size_concession_is_a_win() -> None:
    conceded = FinalResult("concession", centers(turkey=15, russia=10), winner="TURKEY")
    assert rounded(score(conceded, DRAW_SIZE)) == {"TURKEY": 100}


# Sum-of-Squares.


def test_sum_of_squares_draw_by_hand() -> None:
    # 10² + 8² + 6² + 4² = 100 + 64 + 36 + 16 = 216
    assert rounded(score(DRAW, SUM_OF_SQUARES)) == {
        "ENGLAND": 46.30,  # 100 * 100 / 216
        "FRANCE": 29.63,  # 100 * 64 / 216
        "RUSSIA": 16.67,  # 100 * 36 / 216
        "TURKEY": 7.41,  # 100 * 16 / 216
    }


def test_sum_of_squares_counts_every_power_not_only_the_draw() -> None:
    table = centers(england=12, france=12, germany=2)
    draw = FinalResult("draw", table, alive(table), shared=("ENGLAND", "FRANCE"))
    # 144 + 144 + 4 = 292: Germany is outside the draw but holds centers.
    assert rounded(score(draw, SUM_OF_SQUARES)) == {"ENGLAND": 49.32, "FRANCE": 49.32, "GERMANY": 1.37}


def test_sum_of_squares_solo_and_concession_take_all() -> None:
    assert rounded(score(SOLO, SUM_OF_SQUARES)) == {"FRANCE": 100}
    conceded = FinalResult("concession", centers(turkey=15, russia=10), winner="TURKEY")
    assert rounded(score(conceded, SUM_OF_SQUARES)) == {"TURKEY": 100}


def test_sum_of_squares_short_game_leader_is_not_a_solo() -> None:
    lead = FinalResult("last_year", centers(england=10, france=5, germany=5), winner="ENGLAND")
    assert rounded(score(lead, SUM_OF_SQUARES)) == {"ENGLAND": 66.67, "FRANCE": 16.67, "GERMANY": 16.67}


def test_sum_of_squares_with_no_centers_left_shares_among_survivors() -> None:
    empty = FinalResult("moderator", centers(), frozenset({"ITALY", "TURKEY"}))
    assert rounded(score(empty, SUM_OF_SQUARES)) == {"ITALY": 50, "TURKEY": 50}


# Center count.


def test_center_count_scores_the_centers_held() -> None:
    assert rounded(score(DRAW, CENTER_COUNT)) == {"ENGLAND": 10, "FRANCE": 8, "RUSSIA": 6, "TURKEY": 4}


def test_center_count_solo_takes_every_center_of_the_map() -> None:
    assert rounded(score(SOLO, CENTER_COUNT, map_centers=34)) == {"FRANCE": 34}
    assert rounded(score(SOLO, CENTER_COUNT)) == {"FRANCE": 34}  # the held ones: 18 + 6 + 5 + 3 + 2


# Outcomes, the stored result, systems, texts.


def test_outcomes_of_each_kind() -> None:
    assert [outcome_of(SOLO, p) for p in ("FRANCE", "ENGLAND", "AUSTRIA")] == [
        "solo",
        "survived",
        "eliminated",
    ]
    assert [outcome_of(DRAW, p) for p in ("ENGLAND", "TURKEY", "ITALY")] == ["draw", "draw", "eliminated"]
    table = centers(england=9, france=9, germany=7)
    tied = FinalResult("last_year", table, alive(table), shared=("ENGLAND", "FRANCE"))
    assert [outcome_of(tied, p) for p in ("ENGLAND", "GERMANY")] == ["draw", "survived"]
    ended = FinalResult("moderator", table, alive(table))
    assert outcome_of(ended, "ENGLAND") == "survived"


def test_from_the_result_gm_ending_stores() -> None:
    board = {
        "centers": {"FRANCE": ["PAR"] * 18, "ENGLAND": ["LON"] * 6, "RUSSIA": ["MOS"] * 3},
        "units": {"FRANCE": ["A PAR"], "ENGLAND": ["F LON"], "GERMANY": ["A KIE"]},
    }
    stored = ending.make_result("solo", board, POWERS, phase_name="F1905M", winner="FRANCE")
    result = FinalResult.from_result(stored)
    assert result.winner == "FRANCE"
    assert result.survivors == {"FRANCE", "ENGLAND", "RUSSIA", "GERMANY"}
    assert rounded(score(result, SUM_OF_SQUARES)) == {"FRANCE": 100}
    assert outcome_of(result, "GERMANY") == "survived"
    short = FinalResult.from_result(ending.make_result("last_year", board, POWERS, phase_name="F1905M"))
    assert short.winners() == ("FRANCE",)


def test_bad_results_and_systems_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown way"):
        FinalResult("abandoned", centers())
    with pytest.raises(ValueError, match="needs a winner"):
        FinalResult("solo", centers())
    with pytest.raises(ValueError, match="unknown scoring system"):
        score(DRAW, "elo")


def test_check_system_reads_what_users_type() -> None:
    assert check_system("Sum-of-Squares") == SUM_OF_SQUARES
    assert check_system("dss") == DRAW_SIZE
    assert check_system(" center count ") == CENTER_COUNT
    with pytest.raises(InvalidSettings) as refused:
        check_system("elo")
    assert "draw-size (draw_size)" in refused.value.message and "'elo'" in refused.value.message


def test_score_text() -> None:
    assert [score_text(v) for v in (100.0, 100 / 3, 12.5, 0.0, 7.0)] == ["100", "33.33", "12.5", "0", "7"]


# Properties.

tables = st.fixed_dictionaries({p: st.integers(0, 18) for p in POWERS})


@st.composite
def results(draw: st.DrawFn) -> FinalResult:
    table = draw(tables)
    holding = sorted(p for p, n in table.items() if n)
    survivors = frozenset(holding) | draw(st.frozensets(st.sampled_from(POWERS), max_size=2))
    kind = draw(st.sampled_from(["solo", "concession", "draw", "last_year", "moderator"]))
    if kind in ("solo", "concession"):
        return FinalResult(kind, table, survivors, winner=draw(st.sampled_from(POWERS)))
    if kind == "moderator":
        return FinalResult(kind, table, survivors | {POWERS[0]})
    shared = draw(st.lists(st.sampled_from(POWERS), min_size=1, max_size=7, unique=True))
    if kind == "last_year" and len(shared) == 1:
        return FinalResult(kind, table, survivors, winner=shared[0])
    return FinalResult(kind, table, survivors, shared=tuple(shared))


@settings(max_examples=examples(400), deadline=None)
@given(result=results(), system=st.sampled_from([DRAW_SIZE, SUM_OF_SQUARES]))
def test_draw_size_and_sum_of_squares_add_up_to_100(result: FinalResult, system: str) -> None:
    scores = score(result, system)
    assert set(scores) == set(POWERS)
    assert sum(scores.values()) == pytest.approx(100)
    assert all(0 <= s <= 100 for s in scores.values())


@settings(max_examples=examples(200), deadline=None)
@given(result=results())
def test_more_centers_never_score_less_under_sum_of_squares(result: FinalResult) -> None:
    scores = score(result, SUM_OF_SQUARES)
    if result.kind not in ("solo", "concession") and sum(result.centers.values()) > 0:
        for a in POWERS:
            for b in POWERS:
                if result.centers[a] > result.centers[b]:
                    assert scores[a] > scores[b]
