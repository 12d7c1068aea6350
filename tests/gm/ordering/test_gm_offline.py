"""Direct messages handled once (gm.ordering.offline): each player's latest handled message is a
compare-and-set, set in the transaction that records the message's orders."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import col, select

from db.database import SessionFactory
from db.models import OrderSubmission
from gm.facade import Gamemaster
from gm.ordering.offline import AlreadyRead, PhaseMovedOn, direct_reads, mark_read
from tests.gm.conftest import T0, make_started_game, player_of
from tests.helpers.gm import RecordingSender

pytestmark = pytest.mark.both_backends  # on PostgreSQL too: an upsert


async def submitted(sessions: SessionFactory, user_id: int) -> list[str]:
    async with sessions.read() as s:
        rows = (
            await s.exec(
                select(OrderSubmission.text)
                .where(col(OrderSubmission.user_id) == user_id)
                .order_by(col(OrderSubmission.id))
            )
        ).all()
        await s.commit()
    return list(rows)


async def test_a_message_is_marked_once_and_never_behind_a_later_one(sessions: SessionFactory) -> None:
    async with sessions.read() as s:
        before = await direct_reads(s, [7])
    assert before.last == {}, "no message handled yet"
    async with sessions.begin() as s:
        await mark_read(s, 7, 100)
    for again in (100, 99):
        async with sessions() as s:
            with pytest.raises(AlreadyRead):
                await mark_read(s, 7, again)
    async with sessions.begin() as s:
        await mark_read(s, 7, 101)
        await mark_read(s, 8, 50)  # another player's own
    async with sessions.read() as s:
        reads = await direct_reads(s, [7, 8, 9])
    assert reads.last == {7: 101, 8: 50}
    assert reads.began == before.began, "when the records began (the migration)"


async def test_orders_sent_while_offline_are_recorded_with_their_mark_and_only_once(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    france = player_of(started, "FRANCE")
    gm = Gamemaster(sessions, RecordingSender(), workers=0, render_maps=False)
    sent = T0 + timedelta(minutes=1)
    report = await gm.submit_missed_orders(started.game.id, france, "A Par-Bur", sent_at=sent, message_id=500)
    assert "A PAR - BUR" in report.view.powers[0].orders
    with pytest.raises(AlreadyRead):  # read again after a crash: not recorded twice
        await gm.submit_missed_orders(started.game.id, france, "A Par-Bur", sent_at=sent, message_id=500)
    assert await submitted(sessions, france) == ["A Par-Bur"]
    with pytest.raises(PhaseMovedOn):  # sent before the phase opened: refused, and not marked
        await gm.submit_missed_orders(
            started.game.id, france, "A Mar-Spa", sent_at=T0 - timedelta(minutes=1), message_id=501
        )
    assert await gm.mark_direct_message_read(france, 501), "the refusal left the mark as it was"
    assert not await gm.mark_direct_message_read(france, 501)
    with pytest.raises(AlreadyRead):  # live orders in a message already handled
        await gm.submit_orders(started.game.id, france, "A Mar-Spa", message_id=501)
    assert await submitted(sessions, france) == ["A Par-Bur"]
    await gm.submit_orders(started.game.id, france, "A Mar-Spa", message_id=502)
    assert await submitted(sessions, france) == ["A Par-Bur", "A Mar-Spa"]
    await gm.runtime.shutdown()
