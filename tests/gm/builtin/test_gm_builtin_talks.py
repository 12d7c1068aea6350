"""A seat's private talks learn who plays it (gm.builtin.talks): one line for each of the seat's pair
places, queued with the change, when the built-in player takes the seat from a person (civil disorder
at a close, a moderator's /mod disorder or /mod builtin) and when a person plays it again (a vote, a
moderator); nothing for a seat the built-in player does not play."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from db.database import SessionFactory
from db.models import OutboxEntry, OutboxTarget
from gm.actor import Actor
from gm.endings import votes
from gm.messages.places import PlaceKind, pair_key
from gm.moderation import actions, builtin
from gm.settings import GameSettings
from gm.setup.games import StartResult
from gm.setup.places import record_place
from tests.gm.conftest import close, current_phase, make_started_game, messages, player_of, submit

MODERATOR = Actor(99, is_server_moderator=True)
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


async def with_threads(sessions: SessionFactory, **settings: Any) -> StartResult:
    """A seven-player game whose 21 pair threads are recorded (ids 7000 + n)."""
    started = await make_started_game(sessions, settings=GameSettings(**settings))
    for n, (a, b) in enumerate(itertools.combinations(POWERS, 2)):
        async with sessions.begin() as s:
            await record_place(s, started.game.id, PlaceKind.THREAD, 7000 + n, pair_key((a,), (b,)))
    return started


def places_of(power: str) -> set[int]:
    return {7000 + n for n, pair in enumerate(itertools.combinations(POWERS, 2)) if power in pair}


async def lines(sessions: SessionFactory) -> list[OutboxEntry]:
    return await messages(sessions, "seat_played_by")


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_civil_disorder_at_a_close_tells_the_seats_talks_and_a_vote_brings_the_player_back(
    sessions: SessionFactory,
) -> None:
    started = await with_threads(sessions, absent_seats="built_in", civil_disorder_after=1)
    board = (await current_phase(sessions, started.game.id)).board
    for power in POWERS:
        if power != "FRANCE":
            await submit(sessions, started, power, f"{board['units'][power][0]} H")
    await close(sessions, started.game.id)

    told = await lines(sessions)
    assert {m.target_place_id for m in told} == places_of("FRANCE") and len(told) == 6
    assert all(m.target_kind == OutboxTarget.PLACE for m in told)
    france = player_of(started, "FRANCE")
    assert told[0].payload["lines"] == [
        f"France is now played by the built-in player while [[user:{france}]] is away. The built-in "
        f"player reads nothing here and writes to no one; [[user:{france}]] can still read this and "
        "take the seat back by sending orders."
    ]

    async with sessions.begin() as s:  # another player proposes a draw; France's player votes: back
        await votes.propose(s, started.game.id, player_of(started, "ENGLAND"), "draw")
    async with sessions.begin() as s:
        await votes.cast_vote(s, started.game.id, france, yes=False)
    back = (await lines(sessions))[6:]
    assert {m.target_place_id for m in back} == places_of("FRANCE")
    assert back[0].payload["lines"] == [
        f"[[user:{france}]] plays France again: the built-in player no longer does."
    ]


async def test_a_moderators_disorder_and_builtin_tell_the_talks_when_the_built_in_player_plays(
    sessions: SessionFactory,
) -> None:
    started = await with_threads(sessions, absent_seats="built_in")
    game_id, italy = started.game.id, player_of(started, "ITALY")
    async with sessions.begin() as s:
        await actions.set_civil_disorder(s, game_id, MODERATOR, power="Italy", on=True)
    (announced,) = [m for m in await messages(sessions, "civil_disorder") if m.target_kind == "game_channel"]
    assert any("the built-in player gives their orders" in line for line in announced.payload["lines"])
    async with sessions.begin() as s:
        await actions.set_civil_disorder(s, game_id, MODERATOR, power="Italy", on=False)
    told = [m.payload["lines"][0] for m in await lines(sessions)]
    assert len(told) == 12  # six places, twice
    assert all(
        t.startswith(f"Italy is now played by the built-in player while [[user:{italy}]]") for t in told[:6]
    )
    assert set(told[6:]) == {f"[[user:{italy}]] plays Italy again: the built-in player no longer does."}

    async with sessions.begin() as s:
        await builtin.set_built_in(s, game_id, MODERATOR, power="Italy", on=True)
    async with sessions.begin() as s:
        await builtin.set_built_in(s, game_id, MODERATOR, power="Italy", on=False)
    later = [m.payload["lines"][0] for m in (await lines(sessions))[12:]]
    assert len(later) == 12
    assert later[0].startswith(f"Italy is now played by the built-in player while [[user:{italy}]] is away")
    assert later[6] == (
        f"The built-in player no longer plays Italy: its units hold until [[user:{italy}]] comes back or a "
        "person takes the seat over."
    )


async def test_without_the_built_in_player_a_seat_in_civil_disorder_tells_the_talks_nothing(
    sessions: SessionFactory,
) -> None:
    started = await with_threads(sessions)  # absent_seats: hold (the rulebook's civil disorder)
    async with sessions.begin() as s:
        await actions.set_civil_disorder(s, started.game.id, MODERATOR, power="Italy", on=True)
    async with sessions.begin() as s:
        await actions.set_civil_disorder(s, started.game.id, MODERATOR, power="Italy", on=False)
    assert await lines(sessions) == []
