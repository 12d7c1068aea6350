"""A welcome's opening map (gm.setup.games.opening_map): the start draws it before it records the
game's channels, so a welcome waits for it while the game is being set up, goes with it once it is
stored, and without it once the game is set up or a minute has passed (gm.delivery.outbox.SETUP_WAIT)."""

from __future__ import annotations

import random
from datetime import timedelta

from db.database import SessionFactory
from db.models import PhaseMap
from gm.clock import utcnow
from gm.delivery.outbox import SETUP_WAIT, deliver_pending
from gm.messages.maps import POSITION_MAP
from gm.setup import games
from tests.gm.conftest import CREATOR, make_game
from tests.helpers.gm import RecordingSender


async def _start(sessions: SessionFactory, minutes_ago: float = 0) -> games.StartResult:
    game = await make_game(sessions, players=7)
    async with sessions.begin() as s:
        now = utcnow() - timedelta(minutes=minutes_ago)
        return await games.start_game(s, game.id, CREATOR, now=now, rng=random.Random(7))


def welcomes(sender: RecordingSender) -> list[tuple[str, ...]]:
    return [tuple(a.filename for a in m.attachments) for m in sender.sent if m.kind == "welcome"]


async def test_a_welcome_waits_for_its_map_while_the_game_is_set_up(sessions: SessionFactory) -> None:
    started = await _start(sessions)
    sender = RecordingSender()
    await deliver_pending(sessions, sender)
    assert welcomes(sender) == [], "the opening map is being drawn: the welcomes wait"
    async with sessions.begin() as s:  # the map drawn (gm.facade.setup), then the channels recorded
        s.add(PhaseMap(phase_id=started.phase.id, kind=POSITION_MAP, png=b"\x89PNG map", created_at=utcnow()))
    await deliver_pending(sessions, sender)
    assert welcomes(sender) == [("S1901M-position.png",)] * 7, "each with the map, before the channels"


async def test_a_welcome_goes_without_its_map_once_the_game_is_set_up(sessions: SessionFactory) -> None:
    started = await _start(sessions)
    async with sessions.begin() as s:  # the map could not be drawn; the start went on
        await games.set_game_channels(s, started.game.id, game_channel_id=4242)
    sender = RecordingSender()
    await deliver_pending(sessions, sender)
    assert welcomes(sender) == [()] * 7


async def test_a_welcome_waits_no_longer_than_a_minute(sessions: SessionFactory) -> None:
    await _start(sessions, minutes_ago=SETUP_WAIT.total_seconds() / 60 + 0.5)  # channels never recorded
    sender = RecordingSender()
    await deliver_pending(sessions, sender)
    assert welcomes(sender) == [()] * 7
