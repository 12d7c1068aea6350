"""Spectators and the private talks after the end: a spectator recorded by earlier versions' /game watch
watches no more once they take a seat, and who may read the private talks once a game is over (its
eliminated players, when the game says so; nobody while it runs)."""

from __future__ import annotations

import pytest

from db.database import SessionFactory
from db.models import Spectator
from gm.moderation import actions as moderation
from gm.moderation.actions import Actor
from gm.settings import GameSettings
from gm.setup import games, places, spectators
from tests.gm.conftest import T0, make_started_game, place, player_of, user

WATCHER = user(90)
JUDGE = Actor(user(41), is_server_moderator=True)


async def with_channel(sessions: SessionFactory, game_id: int) -> None:
    async with sessions.begin() as s:
        await games.set_game_channels(s, game_id, game_channel_id=9000)


async def earlier_spectator(sessions: SessionFactory, game_id: int, user_id: int) -> None:
    """A spectator as earlier versions' /game watch recorded one (the command is gone)."""
    async with sessions() as s:
        s.add(Spectator(game_id=game_id, user_id=user_id, since=T0))
        await s.commit()


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_an_earlier_spectator_who_takes_a_seat_watches_no_more(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    game_id = started.game.id
    await with_channel(sessions, game_id)
    await earlier_spectator(sessions, game_id, WATCHER)
    async with sessions() as s:
        assert await spectators.spectators_of(s, game_id) == [WATCHER]
    async with sessions.begin() as s:
        await moderation.replace_player(s, game_id, JUDGE, power="ITALY", new_user_id=WATCHER, now=T0)
    async with sessions() as s:
        assert await spectators.spectators_of(s, game_id) == []


async def ended_with_italy_eliminated(sessions: SessionFactory, settings: GameSettings) -> games.StartResult:
    started = await make_started_game(sessions, settings=settings)
    await place(
        sessions,
        started.phase.id,
        {
            "phase": "S1901M",
            "units": {"FRANCE": ["A PAR"], "ENGLAND": ["F LON"]},
            "centers": {"FRANCE": ["PAR", "MAR"], "ENGLAND": ["LON"]},
        },
    )
    async with sessions.begin() as s:
        await moderation.end_game(s, started.game.id, JUDGE, now=T0)
    return started


async def test_the_eliminated_may_read_the_talks_after_the_end_when_the_game_says_so(
    sessions: SessionFactory,
) -> None:
    running = await make_started_game(sessions, settings=GameSettings(talks_after_end=True))
    async with sessions() as s:
        assert (await places.game_places(s, running.game.id)).talk_readers == (), "never while it runs"

    opened = await ended_with_italy_eliminated(sessions, GameSettings(talks_after_end=True))
    async with sessions() as s:
        readers = (await places.game_places(s, opened.game.id)).talk_readers
    survivors = {player_of(opened, "FRANCE"), player_of(opened, "ENGLAND")}
    assert set(readers) == set(opened.assignments.values()) - survivors and len(readers) == 5

    private = await ended_with_italy_eliminated(sessions, GameSettings())
    async with sessions() as s:
        assert (await places.game_places(s, private.game.id)).talk_readers == ()
