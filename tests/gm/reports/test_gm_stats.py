"""Scores in the final post and the server's memory: each game scored by its own system (hand-computed
examples), stored with its result; /stats ranks the players and /stats user: shows a record with its
reliability counters, kept as phases close, players fall into civil disorder and are replaced."""

from __future__ import annotations

import pytest

from db.database import SessionFactory
from gm.moderation import actions as moderation
from gm.moderation.actions import Actor
from gm.reports import stats
from gm.settings import GameSettings
from gm.setup import games
from tests.gm.conftest import (
    GUILD,
    T0,
    close,
    france_one_move_from_a_solo,
    game_row,
    make_started_game,
    messages,
    place,
    player_of,
    player_row,
    submit,
    user,
)

JUDGE = Actor(user(41), is_server_moderator=True)  # a server moderator who does not play
OUTSIDER = user(77)


async def test_a_solo_scores_100_for_the_winner_under_draw_size(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await france_one_move_from_a_solo(sessions, started)
    await close(sessions, started.game.id)
    result = (await game_row(sessions, started.game.id)).result
    assert result is not None and result["scoring"] == "draw_size"
    assert result["scores"]["FRANCE"] == 100
    assert sum(result["scores"].values()) == 100 and len(result["scores"]) == 7
    [post] = await messages(sessions, "game_over")
    assert "Scores (draw-size): France 100; every other power 0." in post.payload["lines"]
    assert post.payload["result"]["scores"]["FRANCE"] == 100


async def test_a_short_game_scored_by_sum_of_squares(sessions: SessionFactory) -> None:
    started = await make_started_game(
        sessions, settings=GameSettings(last_year=1901, scoring="sum_of_squares")
    )
    await place(
        sessions,
        started.phase.id,
        {
            "phase": "F1901M",
            "units": {"FRANCE": ["A PAR"], "ENGLAND": ["F LON"], "ITALY": ["A ROM"]},
            "centers": {
                "FRANCE": ["PAR", "MAR", "BRE", "SPA", "POR", "BEL"],
                "ENGLAND": ["LON", "LVP", "EDI"],
                "ITALY": ["ROM", "VEN", "NAP"],
            },
        },
    )
    await close(sessions, started.game.id)
    result = (await game_row(sessions, started.game.id)).result
    assert result is not None and result["kind"] == "last_year" and result["winner"] == "FRANCE"
    # 6², 3² and 3² of 36 + 9 + 9 = 54: 66.67, 16.67 and 16.67; the powers without centers 0
    assert result["scores"]["FRANCE"] == pytest.approx(100 * 36 / 54, abs=1e-3)
    assert result["scores"]["ENGLAND"] == result["scores"]["ITALY"] == pytest.approx(100 * 9 / 54, abs=1e-3)
    assert result["scores"]["GERMANY"] == 0
    [post] = await messages(sessions, "game_over")
    assert (
        "Scores (Sum-of-Squares): France 66.67, England 16.67, Italy 16.67; every other power 0."
        in (post.payload["lines"])
    )


async def test_center_count_gives_a_solo_winner_every_center_of_the_map(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, settings=GameSettings(scoring="center_count"))
    await france_one_move_from_a_solo(sessions, started)
    await close(sessions, started.game.id)
    result = (await game_row(sessions, started.game.id)).result
    assert result is not None
    assert result["scores"]["FRANCE"] == 34 and result["scores"]["ITALY"] == 0


async def test_the_leaderboard_ranks_by_average_score_and_records_reliability(
    sessions: SessionFactory,
) -> None:
    solo = await make_started_game(sessions)
    await france_one_move_from_a_solo(sessions, solo)  # France orders; Italy, with a unit, sends nothing
    await close(sessions, solo.game.id)
    winner, idle = player_of(solo, "FRANCE"), player_of(solo, "ITALY")
    assert (await player_row(sessions, solo.game.id, winner)).ordered_phases == 1
    assert (await player_row(sessions, solo.game.id, idle)).missed_phases == 1

    async with sessions() as s:
        board = await stats.server_board(s, GUILD)
    assert board.finished_games == 1 and board.systems == ("draw_size",)
    first, *others = board.rows
    assert (first.rank, first.stats.user_id, first.stats.average_score) == (1, winner, 100)
    assert first.stats.solos == 1 and first.stats.reliability == 100
    assert len(others) == 6 and {r.rank for r in others} == {2}, "the six others share second place"
    async with sessions() as s:
        record = await stats.player_stats(s, GUILD, idle)
    assert record is not None and (record.games, record.eliminations, record.survivals) == (1, 0, 1)
    assert (record.ordered, record.missed, record.reliability) == (0, 1, 0)
    async with sessions() as s:
        assert await stats.player_stats(s, GUILD, OUTSIDER) is None
        assert await stats.player_stats(s, GUILD + 1, winner) is None, "another server's memory is its own"


async def test_civil_disorder_and_replacement_count_in_a_running_game_without_a_result(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions, players=7)
    game_id = started.game.id
    italy = player_of(started, "ITALY")
    await submit(sessions, started, "FRANCE", "A Par-Bur")
    await close(sessions, game_id)  # France ordered; the others missed Spring 1901
    async with sessions.begin() as s:
        await moderation.set_civil_disorder(s, game_id, JUDGE, power="ITALY", on=True, now=T0)
    async with sessions.begin() as s:
        await moderation.replace_player(s, game_id, JUDGE, power="ITALY", new_user_id=OUTSIDER, now=T0)
    turkey = player_of(started, "TURKEY")
    async with sessions.begin() as s:
        await games.leave_game(s, game_id, turkey, now=T0)

    async with sessions() as s:
        record = await stats.player_stats(s, GUILD, italy)
        left = await stats.player_stats(s, GUILD, turkey)
        france = await stats.player_stats(s, GUILD, player_of(started, "FRANCE"))
    assert record is not None and record.games == 0, "a running game has no result yet"
    assert (record.missed, record.civil_disorders, record.replaced) == (1, 1, 1)
    assert record.reliability == 0
    assert left is not None and (left.civil_disorders, left.replaced) == (1, 0)
    assert france is not None and (france.ordered, france.missed, france.reliability) == (1, 0, 100)
    async with sessions() as s:
        assert (await stats.server_board(s, GUILD)).rows == (), "no finished game: nobody ranked"
