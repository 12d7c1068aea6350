"""Direct messages of orders that come together (a deadline's burst) are written together on SQLite
(gm.facade.playing: one transaction, each message in a savepoint of its own): each player's orders
are recorded and answered as if alone, each message marked handled with them, and one refused leaves
the others written."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import event

from db.database import SessionFactory
from db.lean import LeanSession, LeanUnit
from gm.errors import GameError, OrdersClosed
from gm.facade import Gamemaster
from gm.ordering import submission as orders
from gm.ordering.offline import AlreadyRead
from gm.ordering.submission import SubmissionReport
from gm.setup import games
from tests.gm.conftest import make_started_game, player_of
from tests.helpers.gm import RecordingSender

ORDERS = {
    "FRANCE": "A Par-Bur\nF Bre-MAO",
    "GERMANY": "A Ber-Kie\nA Mun-Ruh",
    "ITALY": "A Ven-Tyr\nF Nap-ION",
    "AUSTRIA": "A Vie-Gal",
    "ENGLAND": "F Lon-ENG",
    "RUSSIA": "A Mos-Ukr",
    "TURKEY": "F Ank-BLA",
}


@pytest.fixture
async def gm(sessions: SessionFactory) -> AsyncIterator[Gamemaster]:
    gamemaster = Gamemaster(sessions, RecordingSender(), workers=0, render_maps=False)
    yield gamemaster
    await gamemaster.runtime.idle()


@pytest.fixture
async def started(sessions: SessionFactory) -> games.StartResult:
    return await make_started_game(sessions, players=7)


async def stored(sessions: SessionFactory, started: games.StartResult, power: str) -> tuple[str, ...]:
    async with sessions.read() as session:
        view = await orders.my_orders(session, started.game.id, player_of(started, power))
    return view.powers[0].orders


@pytest.mark.both_backends
async def test_seven_direct_messages_at_once_are_each_recorded_and_answered(
    gm: Gamemaster, sessions: SessionFactory, started: games.StartResult
) -> None:
    game = started.game.id
    reports = await asyncio.gather(
        *(
            gm.submit_orders(game, player_of(started, power), text, message_id=1000 + number)
            for number, (power, text) in enumerate(ORDERS.items())
        )
    )
    for (power, text), report in zip(ORDERS.items(), reports, strict=True):
        assert isinstance(report, SubmissionReport)
        assert [line.accepted for line in report.lines] == [True] * len(text.splitlines()), power
        assert [p.power for p in report.view.powers] == [power]  # each answer is the player's own
        assert len(await stored(sessions, started, power)) == len(text.splitlines())
        assert gm.orders_held(game, player_of(started, power)) == report.view  # the form shows them
    again = gm.submit_orders(game, player_of(started, "FRANCE"), "A Par-Pic", message_id=1000)
    with pytest.raises(AlreadyRead):  # marked handled with its orders: a second reading records nothing
        await again
    assert await stored(sessions, started, "FRANCE") == ("A PAR - BUR", "F BRE - MAO")


async def test_one_refused_message_in_a_batch_leaves_the_others_written(
    gm: Gamemaster, sessions: SessionFactory, started: games.StartResult, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = started.game.id
    france, germany, italy = (player_of(started, p) for p in ("FRANCE", "GERMANY", "ITALY"))
    await gm.submit_orders(game, germany, "A Ber-Kie", message_id=50)
    begun: list[str] = []

    def count(_conn: object) -> None:
        begun.append("BEGIN IMMEDIATE")

    lean_begin = LeanUnit.__aenter__

    async def counted(unit: LeanUnit) -> LeanSession:  # a lean unit's transaction (db.lean) counts too
        count(unit)
        return await lean_begin(unit)

    monkeypatch.setattr(LeanUnit, "__aenter__", counted)

    # SQLite: the urgent writers' engine, whose transactions batch what waits; PostgreSQL writes
    # the messages side by side (no batch: nothing to count)
    urgent = getattr(sessions.kw["bind"], "urgent", None)
    engine = urgent.sync_engine if urgent is not None else None
    if engine is not None:
        event.listen(engine, "begin", count)  # each transaction begun
    try:
        outcomes = await asyncio.gather(
            gm.submit_orders(game, france, ORDERS["FRANCE"], message_id=60),
            gm.submit_orders(game, germany, "A Mun-Ruh", message_id=40),  # older than one handled
            gm.submit_orders(game, 999_999, "A Rom-Ven", message_id=70),  # no player of this game
            gm.submit_orders(game, italy, ORDERS["ITALY"], message_id=80),
            return_exceptions=True,
        )
    finally:
        if engine is not None:
            event.remove(engine, "begin", count)
    assert isinstance(outcomes[0], SubmissionReport) and isinstance(outcomes[3], SubmissionReport)
    assert isinstance(outcomes[1], AlreadyRead)
    assert isinstance(outcomes[2], GameError) and not isinstance(outcomes[2], OrdersClosed | AlreadyRead)
    # SQLite: the first alone (no batch under way), the three that came meanwhile together
    assert engine is None or len(begun) == 2
    assert await stored(sessions, started, "FRANCE") == ("A PAR - BUR", "F BRE - MAO")
    assert await stored(sessions, started, "GERMANY") == ("A BER - KIE",)  # the old message: nothing
    assert len(await stored(sessions, started, "ITALY")) == 2
