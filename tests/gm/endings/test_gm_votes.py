"""Draws and concessions by secret, unanimous vote of the surviving powers."""

from __future__ import annotations

import asyncio
import json

import pytest

from db.database import SessionFactory
from gm.endings import votes
from gm.errors import GameError, NoOpenVote, NotAPlayer, NotAVoter, VoteAlreadyOpen
from gm.reports.status import game_status
from gm.settings import GameSettings
from gm.setup import games
from tests.gm.conftest import (
    T0,
    close,
    current_phase,
    game_row,
    make_closer,
    make_started_game,
    messages,
    place,
    player_of,
    player_row,
    set_player_status,
    user,
)

THREE_LEFT = {
    "phase": "S1905M",
    "units": {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN"], "ITALY": ["A ROM"]},
    "centers": {"FRANCE": ["PAR", "MAR"], "GERMANY": ["MUN"], "ITALY": ["ROM"], "RUSSIA": ["MOS"]},
}  # Russia survives on a center alone; Austria, England and Turkey are gone


async def three_left(sessions: SessionFactory) -> tuple:
    started = await make_started_game(sessions)
    await place(sessions, started.phase.id, THREE_LEFT)
    return started, started.game.id


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_a_unanimous_draw_ends_the_game_shared_by_the_survivors(sessions: SessionFactory) -> None:
    started, game_id = await three_left(sessions)
    async with sessions.begin() as s:
        opened = await votes.propose(s, game_id, player_of(started, "FRANCE"), "draw", now=T0)
    assert not opened.passed and opened.my_votes == {"FRANCE": "yes"}
    (notice,) = await messages(sessions, "vote_opened")
    assert notice.payload["voters"] == ["FRANCE", "GERMANY", "ITALY", "RUSSIA"]
    assert str(player_of(started, "FRANCE")) not in json.dumps(notice.payload)  # who proposed is secret
    for power in ("GERMANY", "ITALY"):
        async with sessions.begin() as s:
            report = await votes.cast_vote(s, game_id, player_of(started, power), yes=True, now=T0)
        assert not report.passed
    assert (await game_row(sessions, game_id)).status == "active"
    async with sessions.begin() as s:
        last = await votes.cast_vote(s, game_id, player_of(started, "RUSSIA"), yes=True, now=T0)
    assert last.passed and last.follow_ups.game_ended
    game = await game_row(sessions, game_id)
    assert game.status == "finished" and game.result is not None
    assert game.result["kind"] == "draw" and game.result["shared"] == ["FRANCE", "GERMANY", "ITALY", "RUSSIA"]
    (post,) = await messages(sessions, "game_over")
    assert (
        post.payload["lines"][0]
        == "The game is drawn by agreement, shared by France, Germany, Italy and Russia."
    )
    late = await make_closer(sessions).close(started.phase.id)  # a deadline job firing late does nothing
    assert not late.closed and (await current_phase(sessions, game_id)).results is None


async def test_one_no_keeps_the_game_going_and_the_vote_lapses_at_the_close(sessions: SessionFactory) -> None:
    started, game_id = await three_left(sessions)
    async with sessions.begin() as s:
        await votes.propose(s, game_id, player_of(started, "FRANCE"), "draw", now=T0)
    for power, yes in (("GERMANY", True), ("ITALY", False), ("RUSSIA", True)):
        async with sessions.begin() as s:
            report = await votes.cast_vote(s, game_id, player_of(started, power), yes=yes, now=T0)
        assert not report.passed
    async with sessions.begin() as s:  # Italy changes its mind: a later vote replaces the earlier
        report = await votes.cast_vote(s, game_id, player_of(started, "ITALY"), yes=False, now=T0)
    assert report.my_votes == {"ITALY": "no"}
    await close(sessions, game_id)
    (lapsed,) = await messages(sessions, "vote_result")
    assert lapsed.payload["title"] == "Test game: a draw did not pass" and lapsed.payload["passed"] is False
    assert "ITALY" not in json.dumps(lapsed.payload)  # nobody learns who said no
    async with sessions() as s:  # votes reset with the new phase: nothing open to vote on
        with pytest.raises(NoOpenVote, match="Nobody has proposed a draw"):
            await votes.cast_vote(s, game_id, player_of(started, "ITALY"), yes=True, now=T0)
        assert await votes.open_proposals(s, game_id) == []
    assert (await game_row(sessions, game_id)).status == "active"


async def test_a_concession_makes_the_named_power_the_winner(sessions: SessionFactory) -> None:
    started, game_id = await three_left(sessions)
    async with sessions.begin() as s:
        await votes.propose(s, game_id, player_of(started, "GERMANY"), "concede", to="france", now=T0)
    async with sessions() as s:
        with pytest.raises(VoteAlreadyOpen, match="A concession to France is already proposed"):
            await votes.propose(s, game_id, player_of(started, "ITALY"), "concede", to="France", now=T0)
    for power in ("FRANCE", "ITALY", "RUSSIA"):
        async with sessions.begin() as s:
            report = await votes.cast_vote(
                s, game_id, player_of(started, power), kind="concede", to="France", yes=True, now=T0
            )
    assert report.passed
    game = await game_row(sessions, game_id)
    assert game.result is not None and (game.result["kind"], game.result["winner"]) == (
        "concession",
        "FRANCE",
    )


async def test_eliminated_powers_and_outsiders_may_not_vote_and_nothing_changes(
    sessions: SessionFactory,
) -> None:
    started, game_id = await three_left(sessions)
    async with sessions() as s:
        with pytest.raises(
            NotAVoter, match="Austria has been eliminated from Test game; eliminated powers do not"
        ):
            await votes.propose(s, game_id, player_of(started, "AUSTRIA"), "draw", now=T0)
        with pytest.raises(NotAPlayer):
            await votes.propose(s, game_id, user(77), "draw", now=T0)
        with pytest.raises(NotAVoter, match="cannot be conceded to"):
            await votes.propose(s, game_id, player_of(started, "FRANCE"), "concede", to="England", now=T0)
    async with sessions.begin() as s:
        await votes.propose(s, game_id, player_of(started, "FRANCE"), "draw", now=T0)
    async with sessions() as s:
        with pytest.raises(NotAVoter, match="eliminated"):
            await votes.cast_vote(s, game_id, player_of(started, "TURKEY"), yes=False, now=T0)
    for power in ("GERMANY", "ITALY", "RUSSIA"):  # the eliminated powers' refusals counted for nothing
        async with sessions.begin() as s:
            report = await votes.cast_vote(s, game_id, player_of(started, power), yes=True, now=T0)
    assert report.passed
    game = await game_row(sessions, game_id)
    assert game.result is not None and game.result["shared"] == ["FRANCE", "GERMANY", "ITALY", "RUSSIA"]


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_a_player_with_several_powers_votes_for_each(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, players=3, settings=GameSettings(players=3))
    seat = player_of(started, "FRANCE")  # France and Turkey
    async with sessions.begin() as s:
        report = await votes.propose(s, started.game.id, seat, "draw", now=T0)
    assert report.my_votes == {"FRANCE": "yes", "TURKEY": "yes"}
    async with sessions.begin() as s:
        report = await votes.cast_vote(s, started.game.id, seat, yes=False, power="turkey", now=T0)
    assert report.my_votes == {"TURKEY": "no"}
    async with sessions() as s:
        mine = await votes.my_votes(s, started.game.id, seat)
    assert mine == {report.proposal.id: {"FRANCE": "yes", "TURKEY": "no"}}


async def test_votes_are_secret_in_the_status_and_bring_a_player_back(sessions: SessionFactory) -> None:
    started, game_id = await three_left(sessions)
    await set_player_status(sessions, started, "ITALY", "civil_disorder")
    async with sessions.begin() as s:
        await votes.propose(s, game_id, player_of(started, "FRANCE"), "draw", now=T0)
    async with sessions.begin() as s:
        await votes.cast_vote(s, game_id, player_of(started, "ITALY"), yes=False, now=T0)
    assert (await player_row(sessions, game_id, player_of(started, "ITALY"))).status == "active"
    async with sessions() as s:
        status = await game_status(s, game_id)
    (vote,) = status.votes
    assert (vote.kind, vote.beneficiary, vote.status) == ("draw", None, "open")
    assert "yes" not in repr(status) and "'no'" not in repr(status)
    phase = await current_phase(sessions, game_id)
    assert phase.status == "open"


async def test_a_last_vote_racing_the_deadline_either_ends_the_game_or_lapses_never_both(
    sessions: SessionFactory,
) -> None:
    started, game_id = await three_left(sessions)
    async with sessions.begin() as s:
        await votes.propose(s, game_id, player_of(started, "FRANCE"), "draw", now=T0)
    for power in ("GERMANY", "ITALY"):
        async with sessions.begin() as s:
            await votes.cast_vote(s, game_id, player_of(started, power), yes=True, now=T0)

    async def last_vote() -> object:
        async with sessions.begin() as s:
            try:
                return await votes.cast_vote(s, game_id, player_of(started, "RUSSIA"), yes=True, now=T0)
            except GameError as refused:  # the phase closed first
                return refused

    closing, voted = await asyncio.gather(make_closer(sessions).close(started.phase.id), last_vote())
    game = await game_row(sessions, game_id)
    phase = await current_phase(sessions, game_id)
    if closing.closed:  # the close won: the vote lapsed and was refused, the game goes on
        assert isinstance(voted, GameError) and game.status == "active" and phase.name == "F1905M"
        assert len(await messages(sessions, "vote_result")) == 1
    else:  # the vote won: the game is drawn and the phase was never adjudicated
        assert getattr(voted, "passed", False) and game.status == "finished"
        assert phase.id == started.phase.id and phase.status == "open" and phase.results is None


async def test_absent_players_do_not_vote_but_their_powers_share_the_draw(sessions: SessionFactory) -> None:
    """Italy's player is in civil disorder and Russia's has left: neither blocks the draw, and both
    powers, still on the board, share it (the rulebook's draw includes every survivor)."""
    started, game_id = await three_left(sessions)
    await set_player_status(sessions, started, "ITALY", "civil_disorder")
    async with sessions.begin() as s:
        await games.leave_game(s, game_id, player_of(started, "RUSSIA"), now=T0)
    async with sessions.begin() as s:
        opened = await votes.propose(s, game_id, player_of(started, "FRANCE"), "draw", now=T0)
    assert not opened.passed
    (notice,) = await messages(sessions, "vote_opened")
    assert notice.payload["voters"] == ["FRANCE", "GERMANY"]
    async with sessions.begin() as s:
        last = await votes.cast_vote(s, game_id, player_of(started, "GERMANY"), yes=True, now=T0)
    assert last.passed
    result = (await game_row(sessions, game_id)).result
    assert result is not None and result["shared"] == ["FRANCE", "GERMANY", "ITALY", "RUSSIA"]
    assert (await player_row(sessions, game_id, player_of(started, "ITALY"))).status == "civil_disorder"


async def test_a_concession_needs_only_the_players_present(sessions: SessionFactory) -> None:
    started, game_id = await three_left(sessions)
    async with sessions.begin() as s:
        await games.leave_game(s, game_id, player_of(started, "RUSSIA"), now=T0)
    async with sessions() as s:
        with pytest.raises(NotAVoter, match="Russia cannot be conceded to"):
            await votes.propose(s, game_id, player_of(started, "FRANCE"), "concede", to="Russia", now=T0)
    async with sessions.begin() as s:
        await votes.propose(s, game_id, player_of(started, "GERMANY"), "concede", to="France", now=T0)
    for power in ("ITALY", "FRANCE"):  # Russia's player is gone: not awaited
        async with sessions.begin() as s:
            report = await votes.cast_vote(
                s, game_id, player_of(started, power), kind="concede", to="France", yes=True, now=T0
            )
    assert report.passed
    result = (await game_row(sessions, game_id)).result
    assert result is not None and (result["kind"], result["winner"]) == ("concession", "FRANCE")
