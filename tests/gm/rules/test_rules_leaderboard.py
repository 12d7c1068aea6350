"""The server leaderboard and a user's record: outcomes, average scores, reliability, ranking."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.rules.leaderboard import (
    GameRecord,
    PlayerRecord,
    badge,
    leaderboard,
    reliability,
    user_stats,
)
from gm.rules.scoring import SUM_OF_SQUARES, FinalResult
from tests.helpers.profiles import examples

ANN, BEN, CLEO, DAN, EVE = 1, 2, 3, 4, 5


def table(**counts: int) -> dict[str, int]:
    powers = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
    return {p: counts.get(p.lower(), 0) for p in powers}


def alive(centers: dict[str, int]) -> frozenset[str]:
    return frozenset(p for p, n in centers.items() if n)


SOLO_CENTERS = table(france=18, england=8, germany=8)
DRAW_CENTERS = table(england=12, france=12, germany=2)

# Game 1: Ann (France) soloes; Ben (England) survives; Cleo (Germany) survives; Dan (Italy) was out.
GAME_1 = GameRecord(
    1,
    FinalResult("solo", SOLO_CENTERS, alive(SOLO_CENTERS), winner="FRANCE"),
    (
        PlayerRecord(ANN, ("FRANCE",), ordered=20),
        PlayerRecord(BEN, ("ENGLAND",), ordered=18, missed=2),
        PlayerRecord(CLEO, ("GERMANY",), ordered=20),
        PlayerRecord(DAN, ("ITALY",), ordered=10),
    ),
)
# Game 2: a draw, shared (as every draw) by all the survivors: Ben (England), Ann (France) and Cleo
# (Germany); Eve fell into civil disorder with Italy and was replaced.
GAME_2 = GameRecord(
    2,
    FinalResult("draw", DRAW_CENTERS, alive(DRAW_CENTERS), shared=("ENGLAND", "FRANCE", "GERMANY")),
    (
        PlayerRecord(BEN, ("ENGLAND",), ordered=15),
        PlayerRecord(ANN, ("FRANCE",), ordered=15),
        PlayerRecord(CLEO, ("GERMANY",), ordered=12, missed=3),
        PlayerRecord(EVE, (), ordered=2, missed=3, civil_disorders=1, replaced=1),  # left Italy early
    ),
)


def test_a_user_s_record_over_two_games() -> None:
    stats = user_stats([GAME_1, GAME_2])
    ann, ben, cleo = stats[ANN], stats[BEN], stats[CLEO]
    assert (ann.games, ann.solos, ann.draws, ann.survivals) == (2, 1, 1, 0)
    assert ann.average_score == pytest.approx((100 + 100 / 3) / 2)
    assert (ben.games, ben.solos, ben.draws, ben.survivals) == (2, 0, 1, 1)
    assert ben.average_score == pytest.approx((0 + 100 / 3) / 2)
    assert cleo.draws == 1 and cleo.survivals == 1
    assert stats[DAN].eliminations == 1 and stats[DAN].average_score == 0


def test_a_player_who_left_counts_the_game_at_zero_and_loses_reliability() -> None:
    eve = user_stats([GAME_1, GAME_2])[EVE]
    assert (eve.games, eve.left, eve.average_score) == (1, 1, 0.0)
    # 2 ordered / (2 + 3 missed + 5 x (1 civil disorder + 1 replaced)) = 2 / 15
    assert eve.reliability == pytest.approx(100 * 2 / 15)


def test_reliability_by_hand() -> None:
    assert reliability(18, 2, 0, 0) == pytest.approx(90)
    assert reliability(10, 0, 1, 0) == pytest.approx(100 * 10 / 15)
    assert reliability(0, 0, 0, 0) is None
    ben = user_stats([GAME_1, GAME_2])[BEN]
    assert ben.reliability == pytest.approx(100 * 33 / 35)  # 18 + 15 ordered, 2 missed


def test_the_leaderboard_ranks_by_average_score() -> None:
    rows = leaderboard([GAME_1, GAME_2])
    assert [(r.rank, r.stats.user_id) for r in rows] == [(1, ANN), (2, BEN), (2, CLEO), (4, DAN), (4, EVE)]


def test_ties_on_average_show_more_games_first() -> None:
    one_draw = GameRecord(
        3,
        FinalResult("draw", DRAW_CENTERS, alive(DRAW_CENTERS), shared=("ENGLAND", "FRANCE", "GERMANY")),
        (PlayerRecord(DAN, ("ENGLAND",)), PlayerRecord(EVE, ("FRANCE",)), PlayerRecord(ANN, ("GERMANY",))),
    )
    rows = leaderboard([one_draw, GAME_2])
    # Ann, Ben, Cleo, Dan all average 33.33; Ann has 2 games; Eve has 1 draw + 1 left = 16.67.
    assert [(r.rank, r.stats.user_id) for r in rows] == [(1, ANN), (1, BEN), (1, CLEO), (1, DAN), (5, EVE)]


def test_min_games_and_limit() -> None:
    rows = leaderboard([GAME_1, GAME_2], min_games=2)
    assert [r.stats.user_id for r in rows] == [ANN, BEN, CLEO]
    assert [r.stats.user_id for r in leaderboard([GAME_1, GAME_2], limit=2)] == [ANN, BEN]


def test_one_system_for_every_game_when_asked() -> None:
    stats = user_stats([GAME_2], system=SUM_OF_SQUARES)
    # 144 + 144 + 4 = 292
    assert stats[ANN].average_score == pytest.approx(100 * 144 / 292)
    assert stats[CLEO].average_score == pytest.approx(100 * 4 / 292)


def test_stored_scores_are_used_unless_a_system_is_asked() -> None:
    stored = GameRecord(
        GAME_2.game_id, GAME_2.result, GAME_2.players, scores={"ENGLAND": 70.0, "FRANCE": 30.0}
    )
    assert user_stats([stored])[BEN].average_score == 70.0
    assert user_stats([stored], system="draw_size")[BEN].average_score == pytest.approx(100 / 3)


def test_a_player_of_several_powers_scores_their_sum_and_best_outcome() -> None:
    centers = table(england=10, france=8, germany=6, russia=10)
    game = GameRecord(
        7,
        FinalResult("draw", centers, alive(centers), shared=("ENGLAND", "RUSSIA")),
        (PlayerRecord(ANN, ("ENGLAND", "FRANCE")), PlayerRecord(BEN, ("RUSSIA", "GERMANY"))),
    )
    stats = user_stats([game], system=SUM_OF_SQUARES)
    # 100 + 64 + 36 + 100 = 300
    assert stats[ANN].average_score == pytest.approx(100 * 164 / 300)
    assert stats[ANN].draws == 1 and stats[ANN].survivals == 0


def test_a_running_game_counts_for_reliability_only() -> None:
    running = GameRecord(9, None, (PlayerRecord(ANN, ("FRANCE",), ordered=3, missed=1),))
    ann = user_stats([GAME_1, running])[ANN]
    assert ann.games == 1
    assert ann.reliability == pytest.approx(100 * 23 / 24)
    assert leaderboard([running]) == []


def test_a_game_given_twice_counts_once() -> None:
    assert user_stats([GAME_1, GAME_1])[BEN] == user_stats([GAME_1])[BEN]


def test_badge_beside_a_name() -> None:
    stats = user_stats([GAME_1, GAME_2])
    assert badge(stats[ANN]) == "2 games, 1 solo, 1 draw, 100% reliable"
    assert badge(stats[BEN]) == "2 games, 1 draw, 94% reliable"
    assert badge(None) == "first game"


players = st.lists(
    st.builds(
        PlayerRecord,
        user_id=st.integers(1, 6),
        powers=st.lists(st.sampled_from(sorted(DRAW_CENTERS)), max_size=2, unique=True).map(tuple),
        ordered=st.integers(0, 30),
        missed=st.integers(0, 5),
        civil_disorders=st.integers(0, 1),
        replaced=st.integers(0, 1),
    ),
    max_size=7,
)


@settings(max_examples=examples(200), deadline=None)
@given(
    games=st.lists(st.tuples(st.sampled_from([GAME_1.result, GAME_2.result, None]), players), max_size=8),
    min_games=st.integers(0, 3),
)
def test_leaderboard_rows_are_ordered_and_bounded(
    games: list[tuple[FinalResult | None, list[PlayerRecord]]], min_games: int
) -> None:
    records = [GameRecord(i, result, tuple(ps)) for i, (result, ps) in enumerate(games)]
    rows = leaderboard(records, min_games=min_games)
    # ranked by the average as the leaderboard compares it: 100/3 reached by different sums is one tie
    averages = [round(r.stats.average_score, 6) for r in rows]
    assert averages == sorted(averages, reverse=True)
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    assert all(r.stats.games >= max(1, min_games) for r in rows)
    for row in rows:
        stats = row.stats
        assert stats.solos + stats.draws + stats.survivals + stats.eliminations + stats.left == stats.games
        assert 0 <= stats.average_score <= 100
        assert stats.reliability is None or 0 <= stats.reliability <= 100
