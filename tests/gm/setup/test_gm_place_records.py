"""gm.setup.places.record_place: a start records each place it makes at once, and a set-up cut short
reuses exactly those (on SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest

from db.database import SessionFactory
from gm.errors import UnknownGame
from gm.facade.setup import PlaceLog
from gm.messages.places import PlaceKind
from gm.setup import places
from tests.gm.conftest import make_started_game

pytestmark = pytest.mark.both_backends  # an upsert said in each dialect


async def test_recorded_places_are_what_a_later_start_reuses(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    game_id = started.game.id
    async with sessions.begin() as s:
        await places.record_place(s, game_id, PlaceKind.NEGOTIATION, 901)
        await places.record_place(s, game_id, PlaceKind.THREAD, 902, "AUSTRIA|ENGLAND")
    async with sessions.begin() as s:
        await places.record_place(s, game_id, PlaceKind.THREAD, 903, "AUSTRIA|FRANCE")
    async with sessions.begin() as s:  # made again (the first was deleted): the new one replaces it
        await places.record_place(s, game_id, PlaceKind.THREAD, 904, "AUSTRIA|ENGLAND")
    async with sessions.read() as s:
        found = await places.game_places(s, game_id)
    assert found.negotiation_channel_id == 901
    assert found.pair_places == {"AUSTRIA|ENGLAND": 904, "AUSTRIA|FRANCE": 903}
    assert found.made == {
        (PlaceKind.NEGOTIATION, ""): 901,
        (PlaceKind.THREAD, "AUSTRIA|ENGLAND"): 904,
        (PlaceKind.THREAD, "AUSTRIA|FRANCE"): 903,
    }


async def test_a_place_of_no_game_is_refused(sessions: SessionFactory) -> None:
    with pytest.raises(UnknownGame):
        async with sessions.begin() as s:
            await places.record_place(s, 424242, PlaceKind.THREAD, 905, "AUSTRIA|ENGLAND")


async def test_a_starts_places_are_all_recorded_once_written(sessions: SessionFactory) -> None:
    """A start's PlaceLog writes the places as they come, several in one transaction: once written,
    every place made is recorded, a key made again with its last id."""
    started = await make_started_game(sessions)
    game_id = started.game.id
    log = PlaceLog(sessions, game_id)
    await log.record(PlaceKind.NEGOTIATION, 911, "")
    for number, key in enumerate(["AUSTRIA|ENGLAND", "AUSTRIA|FRANCE", "AUSTRIA|ENGLAND"]):
        await log.record(PlaceKind.THREAD, 920 + number, key)
    await log.written()
    async with sessions.read() as s:
        found = await places.game_places(s, game_id)
    assert found.made == {
        (PlaceKind.NEGOTIATION, ""): 911,
        (PlaceKind.THREAD, "AUSTRIA|ENGLAND"): 922,
        (PlaceKind.THREAD, "AUSTRIA|FRANCE"): 921,
    }


async def test_a_place_log_of_no_game_says_so_when_written(sessions: SessionFactory) -> None:
    log = PlaceLog(sessions, 424242)
    await log.record(PlaceKind.THREAD, 930, "AUSTRIA|ENGLAND")
    await log.record(PlaceKind.THREAD, 931, "AUSTRIA|FRANCE")
    with pytest.raises(UnknownGame):
        await log.written()
