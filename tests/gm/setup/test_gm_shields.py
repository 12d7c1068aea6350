"""The shields' repair (gm.setup.shields): the games running before issue 27's shields get them once,
each marked when its adapter is done, so that the next start does nothing; what could not be done
waits for the next start; only this process's servers; the work stops between games on a stop."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from sqlalchemy import update
from sqlmodel import col, select

from db.database import SessionFactory
from db.models import Game, GameStatus
from gm.delivery.outbox import Pace
from gm.delivery.shards import Ownership, shard_of
from gm.setup.places import GamePlaces
from gm.setup.shields import ShieldWork, shield_running_games
from tests.gm.conftest import make_game, make_started_game

pytestmark = pytest.mark.both_backends  # on PostgreSQL too: the shard filter in SQL, a migration's marks

QUICK = Pace(1000.0, 1000.0)


class Recorder:
    """A Shielder that records the games it was given; ``answers`` per game id (default: done)."""

    def __init__(self, answers: dict[int, ShieldWork | Exception | None] | None = None) -> None:
        self.answers = answers or {}
        self.seen: list[int] = []

    async def shield_places(
        self, places: GamePlaces, pace: Callable[[], Awaitable[None]]
    ) -> ShieldWork | None:
        self.seen.append(places.game_id)
        await pace()
        answer = self.answers.get(places.game_id, ShieldWork(requests=3))
        if isinstance(answer, Exception):
            raise answer
        return answer


async def old_game(sessions: SessionFactory, *, status: str = GameStatus.ACTIVE, channel: bool = True) -> int:
    """A started game as migration 0014 marks one running before the shields."""
    started = await make_started_game(sessions, players=3)
    async with sessions() as s:
        await s.exec(
            update(Game)
            .where(col(Game.id) == started.game.id)
            .values(
                places_shielded=False,
                status=status,
                game_channel_id=9000 + started.game.id if channel else None,
            )
        )
        await s.commit()
    return started.game.id


async def marked(sessions: SessionFactory) -> dict[int, bool]:
    async with sessions() as s:
        games = (await s.exec(select(Game))).all()
        await s.commit()
    return {g.row_id: g.places_shielded for g in games}


async def test_each_old_running_game_is_shielded_once_and_marked(sessions: SessionFactory) -> None:
    running = await old_game(sessions)
    paused = await old_game(sessions, status=GameStatus.PAUSED)
    ended = await old_game(sessions, status=GameStatus.FINISHED)  # archived at its end: nothing to do
    half_set_up = await old_game(sessions, channel=False)  # its start's re-run puts the shields on
    forming = (await make_game(sessions, players=2)).id  # new: shields from its start
    shielder = Recorder()

    report = await shield_running_games(sessions, shielder, pace=QUICK)

    assert sorted(shielder.seen) == [running, paused]
    assert report.shielded == 4 and report.requests == 6 and report.unfinished == 0
    state = await marked(sessions)
    assert all(state.values()) and set(state) == {running, paused, ended, half_set_up, forming}
    again = Recorder()
    report = await shield_running_games(sessions, again, pace=QUICK)
    assert again.seen == [] and report.shielded == 0 and report.requests == 0


async def test_what_the_adapter_could_not_finish_waits_for_the_next_start(sessions: SessionFactory) -> None:
    refused, away, broken, fine = [await old_game(sessions) for _ in range(4)]
    shielder = Recorder({refused: ShieldWork(requests=5, failed=1), away: None, broken: RuntimeError("boom")})

    report = await shield_running_games(sessions, shielder, pace=QUICK)

    assert sorted(shielder.seen) == sorted([refused, away, broken, fine]), "one failure stops no other game"
    assert report.shielded == 1 and report.unfinished == 3
    state = await marked(sessions)
    assert state[fine] and not state[refused] and not state[away] and not state[broken]
    retry = Recorder()
    await shield_running_games(sessions, retry, pace=QUICK)
    assert sorted(retry.seen) == sorted([refused, away, broken])
    assert all((await marked(sessions)).values())


async def test_a_process_shields_its_own_servers_games_only(sessions: SessionFactory) -> None:
    ours, theirs = await old_game(sessions), await old_game(sessions)
    mine = Ownership(2, frozenset({0}))
    for game_id, shard in ((ours, 0), (theirs, 1)):
        guild = next(g << 22 for g in range(1, 50) if shard_of(g << 22, 2) == shard)
        async with sessions() as s:
            await s.exec(update(Game).where(col(Game.id) == game_id).values(guild_id=guild))
            await s.commit()
    shielder = Recorder()

    await shield_running_games(sessions, shielder, ownership=mine, pace=QUICK)

    assert shielder.seen == [ours]
    assert not (await marked(sessions))[theirs], "the sibling process does that one"


async def test_a_stop_ends_the_work_between_two_games(sessions: SessionFactory) -> None:
    first, second, third = [await old_game(sessions) for _ in range(3)]
    shielder = Recorder()

    report = await shield_running_games(
        sessions, shielder, stopping=lambda: len(shielder.seen) >= 1, at_once=1, pace=QUICK
    )

    assert shielder.seen == [first]
    assert report.shielded == 1 and report.unfinished == 2
    state = await marked(sessions)
    assert state[first] and not state[second] and not state[third]
