"""The built-in player in a game (gm.builtin): seats filled at the start, seats whose player is gone,
a moderator's /mod builtin, a person taking the seat back, a failure of the player, and the records."""

from __future__ import annotations

import logging
import random
from collections.abc import Collection
from typing import Any

import pytest
from sqlmodel import select

from db.database import SessionFactory
from db.models import PhaseRecord, PowerAssignment
from engine import Board, LegalOrder
from gm.actor import Actor
from gm.errors import WrongGameState, WrongPlayerCount
from gm.moderation import builtin, takeover
from gm.ordering import submission as orders
from gm.reports.stats import player_stats, server_board
from gm.reports.status import game_status
from gm.settings import GameSettings
from gm.setup import games
from tests.gm.conftest import (
    CREATOR,
    GUILD,
    T0,
    close,
    current_phase,
    make_closer,
    make_game,
    make_started_game,
    messages,
    player_of,
    player_row,
    submit,
    user,
)

MODERATOR = Actor(99, is_server_moderator=True)  # a server moderator who does not play


async def start_alone(sessions: SessionFactory, **settings: Any) -> games.StartResult:
    """A seven-power game its creator starts alone: six seats go to the built-in player."""
    game = await make_game(sessions, players=1, settings=GameSettings(fill_seats=True, **settings))
    async with sessions.begin() as s:
        return await games.start_game(s, game.id, CREATOR, now=T0, rng=random.Random(3))


async def results_of(sessions: SessionFactory, phase_id: int) -> dict:
    async with sessions() as s:
        phase = await s.get(PhaseRecord, phase_id)
        assert phase is not None and phase.results is not None
        return phase.results


def lines_of(results: dict, power: str) -> list[dict]:
    return [o for o in results["orders"] if o["power"] == power]


async def flags(sessions: SessionFactory, game_id: int) -> dict[str, bool | None]:
    async with sessions() as s:
        rows = (await s.exec(select(PowerAssignment).where(PowerAssignment.game_id == game_id))).all()
        return {a.power: a.built_in for a in rows}


# --- seats filled at the start ------------------------------------------------------------------------


async def test_one_player_starts_a_seven_power_game_against_six_built_in_players(
    sessions: SessionFactory,
) -> None:
    started = await start_alone(sessions)
    mine = [p for p, u in started.assignments.items() if u == CREATOR]
    robots = sorted(p for p, u in started.assignments.items() if u is None)
    assert len(mine) == 1 and len(robots) == 6
    assert {p: f for p, f in (await flags(sessions, started.game.id)).items() if f} == dict.fromkeys(
        robots, True
    )
    (post,) = await messages(sessions, "game_started")
    assert f"{mine[0].title()}: [[user:{CREATOR}]]" in post.payload["lines"]
    assert sum(line.endswith(": built-in player") for line in post.payload["lines"]) == 6
    assert sorted(post.payload["built_in"]) == robots
    # only the person is welcomed and called to order; the built-in seats are ready at once
    assert [m.target_user_id for m in await messages(sessions, "welcome")] == [CREATOR]
    async with sessions() as s:
        view = await game_status(s, started.game.id)
    states = {p.power: (p.state, p.ready) for p in view.powers}
    assert all(states[p] == ("built_in", True) for p in robots)
    assert states[mine[0]] == ("playing", False)

    # the person says ready: the phase may close, and the built-in player orders all six powers
    async with sessions.begin() as s:
        answer = await orders.set_ready(s, started.game.id, CREATOR, now=T0)
    assert answer.close_now
    outcome = await close(sessions, started.game.id)
    results = await results_of(sessions, outcome.phase_id)
    assert sorted(results["built_in"]) == robots
    for power in robots:
        lines = lines_of(results, power)
        assert lines and all(line["input"] and line["status"] != "invalid" for line in lines), lines
    assert results["missed"] == {"none": [], "partial": {}}
    assert await messages(sessions, "civil_disorder") == []


async def test_without_fill_seats_a_game_short_of_players_is_refused_saying_how(
    sessions: SessionFactory,
) -> None:
    game = await make_game(sessions, players=2)
    with pytest.raises(WrongPlayerCount) as refused:
        async with sessions.begin() as s:
            await games.start_game(s, game.id, CREATOR, now=T0)
    assert "Wait for 5 more" in (refused.value.hint or "") and "fill_seats:True" in (refused.value.hint or "")


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_a_filled_game_plays_to_its_end_and_says_so_in_the_final_post_and_the_records(
    sessions: SessionFactory,
) -> None:
    started = await start_alone(sessions, last_year=1901)
    for _ in range(8):
        async with sessions.begin() as s:
            phase = await current_phase(sessions, started.game.id)
            if phase.status != "open":
                break
            await orders.set_ready(s, started.game.id, CREATOR, now=T0)
        outcome = await close(sessions, started.game.id)
        if outcome.game_over:
            break
    assert outcome.game_over
    (final,) = await messages(sessions, "game_over")
    result = final.payload["result"]
    robots = sorted(p for p, u in started.assignments.items() if u is None)
    assert result["built_in"] == robots and result["built_in_end"] == robots
    assert any("built-in player played" in line for line in final.payload["lines"])
    async with sessions() as s:
        board = await server_board(s, GUILD)
    assert board.finished_games == 1 and board.built_in_games == 1
    assert [row.stats.user_id for row in board.rows] == [CREATOR]  # no built-in player in the leaderboard
    async with sessions() as s:
        stats = await player_stats(s, GUILD, CREATOR)
    assert stats is not None and stats.games == 1 and stats.with_built_in == 1


# --- seats whose player is gone -----------------------------------------------------------------------


async def test_with_absent_seats_built_in_a_player_in_civil_disorder_is_played_until_they_come_back(
    sessions: SessionFactory,
) -> None:
    settings = GameSettings(civil_disorder_after=1, absent_seats="built_in")
    started = await make_started_game(sessions, settings=settings)
    italy = player_of(started, "ITALY")
    for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "RUSSIA", "TURKEY"):
        async with sessions.begin() as s:  # only Italy misses
            await orders.set_ready(s, started.game.id, player_of(started, power), now=T0)
    await close(sessions, started.game.id)  # Italy misses Spring 1901: civil disorder (setting 1)
    (alert, *_) = [m for m in await messages(sessions, "civil_disorder") if m.target_kind == "game_channel"]
    assert any("built-in player gives their orders" in line for line in alert.payload["lines"])
    assert alert.payload["open_seats"] == [["ITALY"]]  # a person may still take the seat
    (dm,) = [m for m in await messages(sessions, "civil_disorder") if m.target_user_id == italy]
    assert "the built-in player gives your orders" in " ".join(dm.payload["lines"])

    outcome = await close(sessions, started.game.id)  # Fall 1901: the built-in player orders Italy
    results = await results_of(sessions, outcome.phase_id)
    assert results["built_in"] == ["ITALY"]
    assert all(line["input"] for line in lines_of(results, "ITALY"))
    row = await player_row(sessions, started.game.id, italy)
    assert row.status == "civil_disorder" and row.missed_phases == 1  # the phases it played are not theirs

    # Italy's player comes back by sending orders: the built-in player steps aside at once
    phase = await current_phase(sessions, started.game.id)
    while not phase.name.endswith("M"):  # (a winter: everybody else is absent, it closes as it is)
        await close(sessions, started.game.id)
        phase = await current_phase(sessions, started.game.id)
    units = phase.board["units"]["ITALY"]
    await submit(sessions, started, "ITALY", f"{units[0]} H")
    assert (await player_row(sessions, started.game.id, italy)).status == "active"
    outcome = await close(sessions, started.game.id)
    results = await results_of(sessions, outcome.phase_id)
    assert "ITALY" not in results["built_in"]  # (the others, absent since, are the built-in player's now)
    assert lines_of(results, "ITALY")[0]["order"] == f"{units[0]} H"


async def test_a_player_who_leaves_is_replaced_by_the_built_in_player_when_the_game_says_so(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions, settings=GameSettings(absent_seats="built_in"))
    async with sessions.begin() as s:
        await games.leave_game(s, started.game.id, player_of(started, "TURKEY"), now=T0)
    (left,) = await messages(sessions, "player_left")
    [line] = left.payload["lines"]
    assert line.startswith(
        "The built-in player plays Turkey from now on, until a new player takes the seat: any member of "
        "this server who does not play in the game may take it now with the Take over button."
    ), line
    outcome = await close(sessions, started.game.id)
    assert (await results_of(sessions, outcome.phase_id))["built_in"] == ["TURKEY"]


# --- /mod builtin and taking the seat back -------------------------------------------------------------


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_a_moderator_gives_a_seat_to_the_built_in_player_and_a_person_takes_it_back(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    game_id = started.game.id
    england = player_of(started, "ENGLAND")
    async with sessions.begin() as s:
        result = await builtin.set_built_in(s, game_id, MODERATOR, power="england", on=True, now=T0)
    assert result.details == {"powers": ["ENGLAND"], "user_id": england}
    assert (await player_row(sessions, game_id, england)).status == "civil_disorder"
    said = await messages(sessions, "civil_disorder")
    (public,) = [m for m in said if m.target_kind == "game_channel"]
    assert public.payload["title"] == "The built-in player plays England"
    assert public.payload["open_seats"] == [["ENGLAND"]]
    assert [m.target_user_id for m in said if m.target_kind == "user"] == [england]
    with pytest.raises(WrongGameState, match="already plays England"):
        async with sessions.begin() as s:
            await builtin.set_built_in(s, game_id, MODERATOR, power="ENGLAND", on=True, now=T0)
    outcome = await close(sessions, game_id)
    assert (await results_of(sessions, outcome.phase_id))["built_in"] == ["ENGLAND"]

    # a member who does not play takes the seat: it is theirs at once, the built-in player stops
    newcomer = user(50)
    async with sessions.begin() as s:
        taken = await takeover.take_over(s, game_id, newcomer, "ENGLAND", now=T0)
    assert taken.action == "replace"
    assert (await flags(sessions, game_id))["ENGLAND"] is None
    phase = await current_phase(sessions, game_id)
    async with sessions() as s:
        view = await game_status(s, game_id)
    (england_now,) = [p for p in view.powers if p.power == "ENGLAND"]
    assert england_now.user_id == newcomer and england_now.state == "playing"
    outcome = await close(sessions, game_id)
    assert (await results_of(sessions, outcome.phase_id))["built_in"] == []
    assert phase.id == outcome.phase_id


async def test_a_moderator_takes_the_seat_from_the_built_in_player_and_it_holds_again(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions, settings=GameSettings(absent_seats="built_in"))
    game_id = started.game.id
    async with sessions.begin() as s:
        await games.leave_game(s, game_id, player_of(started, "GERMANY"), now=T0)
    async with sessions.begin() as s:
        result = await builtin.set_built_in(s, game_id, MODERATOR, power="GERMANY", on=False, now=T0)
    assert "hold" in result.message
    assert (await flags(sessions, game_id))["GERMANY"] is False
    outcome = await close(sessions, game_id)
    results = await results_of(sessions, outcome.phase_id)
    assert results["built_in"] == []
    assert all(line["input"] is None for line in lines_of(results, "GERMANY"))  # its units held
    with pytest.raises(WrongGameState, match="does not play Germany"):
        async with sessions.begin() as s:
            await builtin.set_built_in(s, game_id, MODERATOR, power="GERMANY", on=False, now=T0)


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_a_seat_filled_at_the_start_can_be_taken_over_by_a_person(sessions: SessionFactory) -> None:
    started = await start_alone(sessions)
    game_id = started.game.id
    robot = sorted(p for p, u in started.assignments.items() if u is None)[0]
    async with sessions() as s:
        game = await s.get(games.Game, game_id)
        assert game is not None
        seats = await takeover.open_seats(s, game)
    assert [robot] in seats and len(seats) == 6
    friend = user(60)
    async with sessions.begin() as s:
        taken = await takeover.take_over(s, game_id, friend, robot.lower(), now=T0)
    replacement = taken.details["replacement"]
    assert replacement.old_user_id is None and replacement.new_user_id == friend
    (replaced,) = await messages(sessions, "replaced")
    assert replaced.payload["title"].endswith("replacing the built-in player.")
    assert await messages(sessions, "replaced_you") == []  # nobody to tell
    welcomes = [m.target_user_id for m in await messages(sessions, "welcome")]
    assert friend in welcomes
    assert (await flags(sessions, game_id))[robot] is None
    async with sessions() as s:
        view = await game_status(s, game_id)
    (now,) = [p for p in view.powers if p.power == robot]
    assert now.user_id == friend and now.state == "playing"
    assert any("replacing the built-in player" in line.text for line in view.moderation)


# --- a failure of the player ------------------------------------------------------------------------


async def test_a_failure_of_the_built_in_player_leaves_that_power_in_civil_disorder_with_a_log_line(
    sessions: SessionFactory, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    started = await start_alone(sessions)
    robots = sorted(p for p, u in started.assignments.items() if u is None)
    broken = robots[0]
    from gm.builtin import orders as builtin_orders

    real = builtin_orders.choose_orders

    def flaky(
        board: Board, power: str, seed: int = 0, holding: Collection[str] = frozenset(), **kwargs: Any
    ) -> tuple[LegalOrder, ...]:
        if power == broken:
            raise RuntimeError("the player broke")
        return real(board, power, seed, holding, **kwargs)

    monkeypatch.setattr(builtin_orders, "choose_orders", flaky)
    with caplog.at_level(logging.WARNING, logger="gm.phases.closer"):
        outcome = await make_closer(sessions).close(started.phase.id, reason="deadline")
    assert outcome.closed and outcome.next_phase is not None  # the phase closed all the same
    results = await results_of(sessions, outcome.phase_id)
    assert broken not in results["built_in"] and sorted(results["built_in"]) == robots[1:]
    assert all(line["input"] is None for line in lines_of(results, broken))  # it held
    (warning,) = [r for r in caplog.records if "built-in player failed" in r.getMessage()]
    assert broken in warning.getMessage() and "the player broke" in warning.getMessage()


def test_the_final_post_says_which_seats_the_built_in_player_played_and_to_what_end() -> None:
    from gm.endings.ending import built_in_lines

    assert built_in_lines({"built_in": [], "built_in_end": []}) == []
    assert built_in_lines({"built_in": ["ITALY"], "built_in_end": ["ITALY"]}) == [
        "The built-in player played Italy to the end; the server's records credit their results to no one."
    ]
    [same] = built_in_lines({"built_in": ["ITALY", "ENGLAND"], "built_in_end": ["ENGLAND", "ITALY"]})
    assert same.startswith("The built-in player played Italy and England to the end"), "never named twice"
    [both] = built_in_lines({"built_in": ["ENGLAND", "ITALY"], "built_in_end": ["ITALY"]})
    assert both.startswith("The built-in player took part: it played England and Italy, and Italy to the end")
    [back] = built_in_lines({"built_in": ["ENGLAND"], "built_in_end": []})
    assert "for a while" in back and "credit" not in back


def test_who_the_built_in_player_plays_for() -> None:
    from gm.builtin.seats import plays

    # an active player always plays their own seat, whatever the flag
    assert not plays(True, "active", "built_in") and not plays(None, "active", "built_in")
    # a seat nobody holds: only when it was given to the built-in player (filled, or a moderator's on)
    assert plays(True, None, "hold") and not plays(None, None, "built_in")
    # a player gone or in civil disorder: the game's setting, unless a moderator said otherwise
    assert plays(None, "civil_disorder", "built_in") and plays(None, "left", "built_in")
    assert not plays(None, "civil_disorder", "hold") and not plays(False, "left", "built_in")
    assert plays(True, "civil_disorder", "hold")
    assert not plays(True, "eliminated", "built_in")
