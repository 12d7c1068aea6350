"""Direct messages sent while the bot was offline (issue 38 A, B): read at the next start from the
last message of the player's the bot handled, whatever the bot posted to them since, each handled
exactly once.

At start-up the outbox may send a player a direct message (a reminder fallen due while the bot was
down) before or after the catch-up reads that player's messages: the fake holds one of the two until
the other is done, so both orders are played. Either way the orders sent while offline are recorded
once, in the phase they were written for, and answered once; a third start answers nothing more.
With two processes (shard 0 and shard 1) started together on PostgreSQL, one answer.
"""

from __future__ import annotations

import asyncio
import logging
import re
import signal
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from sqlmodel import col, select

from bot import DiplomacyBot
from cogs.commands.direct import MISSED_WHILE_OFFLINE, NOT_READ_YET, RECORDED_LATE, RECORDED_WHILE_OFFLINE
from cogs.shared.base import Services
from db.database import make_engine, make_session_factory
from db.models import DirectMessageRead, OrderSubmission, PhaseRecord
from gm.clock import utcnow
from gm.facade import Gamemaster
from harness.bot_helpers import current_phase, make_table, running, settle, started_game
from harness.fakediscord import FakeDiscord, Message, User, fake_discord
from harness.processes import bot_process

pytestmark = pytest.mark.waits  # processes or real time: spread through the run (tests/conftest.py)

SHARDS = 2
NAMES = {0: "alpha", 1: "beta"}


def bot_dms(fake: FakeDiscord, user: User) -> list[Message]:
    return [m for m in fake.dm_messages(user) if m.author_id == fake.world.bot.id]


def from_outbox(nonce: object) -> bool:
    """The outbox posts each part with the nonce ``<row's nonce>.<part>`` (discord.py's own: digits)."""
    return isinstance(nonce, str) and "." in nonce


def offline_answers(fake: FakeDiscord, user: User) -> list[Message]:
    return [m for m in bot_dms(fake, user) if "I was offline" in m.content]


async def reminder_falls_due_at_start(bot: DiplomacyBot, game_id: int) -> None:
    """The open phase opened two days ago and closes in half an hour: the reminders before its
    deadline fell due while the bot was down, so the next start sends the latest at once (a direct
    message to each player who owes orders)."""
    phase = await current_phase(bot, game_id)
    async with bot.runtime.sessions() as session:
        record = await session.get(PhaseRecord, phase.id)
        assert record is not None
        record.opened_at = utcnow() - timedelta(days=2)
        record.deadline = utcnow() + timedelta(minutes=30)
        await session.commit()


async def submissions(bot: DiplomacyBot, user_id: int, text: str) -> int:
    async with bot.runtime.sessions.read() as session:
        rows = (
            await session.exec(
                select(OrderSubmission).where(
                    col(OrderSubmission.user_id) == user_id, col(OrderSubmission.text) == text
                )
            )
        ).all()
        await session.commit()
    return len(rows)


@pytest.mark.parametrize("first", ["reminder", "catch-up"])
async def test_orders_sent_while_offline_count_once_whether_a_start_up_dm_comes_before_the_catch_up_or_after(
    fake: FakeDiscord, tmp_path: Path, first: str
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Offline", players=3, press="public")
        france = table.player("FRANCE")
        live = await fake.dm_bot(france, "A Par-Bur")  # read and answered while online
        await live
        await reminder_falls_due_at_start(bot, game_id)
    dm = fake.backend.open_dm(france)
    offline = fake.backend.post_message(dm, france.id, {"content": "A Mar-Spa"})  # the bot is down
    before = {m.id for m in bot_dms(fake, france)}

    def outbox_post(body: Any) -> bool:  # the reminder
        return isinstance(body, dict) and from_outbox(body.get("nonce"))

    if first == "reminder":  # the catch-up's read of France's messages waits for the reminder
        held = fake.hold(f"GET /channels/{dm.id}/messages")
    else:  # the reminder waits until the catch-up has read France's messages
        held = fake.hold(f"POST /channels/{dm.id}/messages", when=outbox_post)

    def reminded() -> bool | None:
        return (
            True if any(from_outbox(m.nonce) for m in bot_dms(fake, france) if m.id not in before) else None
        )

    since = len(fake.rest_log)  # the first start's catch-up may have read France's messages too

    def history_read() -> bool | None:
        calls = [
            c for c in fake.rest_log[since:] if c.method == "GET" and c.path == f"/channels/{dm.id}/messages"
        ]
        return True if any(c.status == 200 for c in calls) else None

    async with running(fake, tmp_path) as bot:
        await asyncio.wait_for(held.reached.wait(), 30)
        if first == "reminder":
            await fake.wait_for(reminded, what="the reminder to France")
            assert not history_read()
        else:
            await fake.wait_for(history_read, what="the catch-up's read of France's messages")
            assert not reminded()
        held.release()
        await settle(bot, fake)
        new = [m for m in bot_dms(fake, france) if m.id not in before]
        reminders = [m for m in new if from_outbox(m.nonce)]
        answers = offline_answers(fake, france)
        assert len(reminders) == 1, [(m.content, m.embeds) for m in new]
        assert len(answers) == 1, [m.content for m in answers]
        answer = answers[0]
        assert answer.content.startswith(RECORDED_WHILE_OFFLINE) and "A MAR - SPA" in answer.content
        assert int((answer.message_reference or {}).get("message_id", 0)) == offline.id
        assert MISSED_WHILE_OFFLINE not in answer.content
        view = await bot.services.gamemaster.my_orders(game_id, france.id)
        assert {"A PAR - BUR", "A MAR - SPA"} <= set(view.powers[0].orders), "both orders count"
        assert await submissions(bot, france.id, "A Mar-Spa") == 1, "recorded once"
        assert await submissions(bot, france.id, "A Par-Bur") == 1, "the live message was not read again"
        assert not any(offline_answers(fake, p) for p in table.players if p is not france)
    async with running(fake, tmp_path) as bot:  # a third start: nothing new to answer
        await settle(bot, fake)
        assert len(offline_answers(fake, france)) == 1
        assert await submissions(bot, france.id, "A Mar-Spa") == 1
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_messages_sent_while_offline_are_read_past_every_bot_message_and_answered_in_order(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Two messages sent while the bot was down, with a message of the bot's between them (the
    catch-up never stops at one): both recorded, in the order written; one sent after the phase's
    deadline had passed is answered that it was not read."""
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Twice", players=3, press="public")
        france, england = table.player("FRANCE"), table.player("ENGLAND")
        await (await fake.dm_bot(england, "help"))  # read while online: never answered again
    dm = fake.backend.open_dm(france)
    fake.backend.post_message(dm, france.id, {"content": "A Mar-Spa\nF Bre-MAO"})
    fake.backend.post_message(dm, fake.world.bot.id, {"content": "(a message of the bot's)"})
    fake.backend.post_message(dm, france.id, {"content": "A Mar-Bur"})
    async with running(fake, tmp_path) as bot:
        await settle(bot, fake)
        answers = [m.content for m in offline_answers(fake, france)]
        assert len(answers) == 2 and all(a.startswith(RECORDED_WHILE_OFFLINE) for a in answers), answers
        view = await bot.services.gamemaster.my_orders(game_id, france.id)
        assert {"A MAR - BUR", "F BRE - MAO"} <= set(view.powers[0].orders), "the later order replaced"
        assert "A MAR - SPA" not in view.powers[0].orders
        assert offline_answers(fake, england) == [], "the help asked while online was answered then"
        async with bot.runtime.sessions() as session:
            phase = await session.get(PhaseRecord, (await current_phase(bot, game_id)).id)
            assert phase is not None
            phase.deadline = utcnow() - timedelta(seconds=1)  # passes while the bot is down
            await session.commit()
    fake.backend.post_message(dm, france.id, {"content": "A Bur-Mun"})
    async with running(fake, tmp_path) as bot:
        await settle(bot, fake)
        answers = [m.content for m in offline_answers(fake, france)]
        assert answers[2:] == [MISSED_WHILE_OFFLINE], answers
        assert await submissions(bot, france.id, "A Bur-Mun") == 0
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_after_the_upgrade_a_message_answered_before_it_is_not_read_again(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A player with no message handled since the records began (migration 0016): the bot's answers
    from before then still count, as the bot read messages before it kept the records."""
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Upgrade", players=3, press="public")
        france = table.player("FRANCE")
    dm = fake.backend.open_dm(france)
    fake.backend.post_message(dm, france.id, {"content": "A Par-Pic"})  # read by the version before
    fake.backend.post_message(dm, fake.world.bot.id, {"content": "(its answer)"})
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    try:
        async with make_session_factory(engine)() as session:
            began = await session.get(DirectMessageRead, 0)
            assert began is not None
            began.read_at = utcnow()  # the upgrade
            await session.commit()
    finally:
        await engine.dispose()
    fake.backend.post_message(dm, france.id, {"content": "A Mar-Spa"})  # after it, while down
    async with running(fake, tmp_path) as bot:
        await settle(bot, fake)
        answers = [m.content for m in offline_answers(fake, france)]
        assert len(answers) == 1 and "A MAR - SPA" in answers[0], answers
        assert await submissions(bot, france.id, "A Par-Pic") == 0
        assert await submissions(bot, france.id, "A Mar-Spa") == 1
        view = await bot.services.gamemaster.my_orders(game_id, france.id)
        assert "A PAR - PIC" not in view.powers[0].orders
    assert fake.unknown_calls == [] and fake.internal_errors == []


def bot_env(fake: FakeDiscord, url: str, shard: int) -> dict[str, str]:
    return {
        "DISCORD_TOKEN": fake.token,
        "DATABASE_URL": url,
        "SHARD_COUNT": str(SHARDS),
        "SHARD_IDS": str(shard),
        "PROCESS_NAME": NAMES[shard],
        "CLOSE_WORKERS": "0",
        "FAKE_DISCORD_CLIENT": NAMES[shard],
    }


async def test_two_processes_started_together_answer_a_message_sent_while_offline_once(
    tmp_path: Path, postgres_url: str
) -> None:
    """Shard 0's process reads the direct messages (Discord sends it those); shard 1's leaves them."""
    async with fake_discord(ack_deadline=None, reply_timeout=60) as fake:
        table = await make_table(fake, 3, name="Club", shard=(1, SHARDS))
        async with running(fake, tmp_path, database_url=postgres_url) as bot:  # one process sets up
            game_id = await started_game(fake, bot, table, "Pair", players=3, press="public")
        france = table.player("FRANCE")
        offline = fake.backend.post_message(fake.backend.open_dm(france), france.id, {"content": "A Mar-Spa"})
        cwd = tmp_path / "run"
        cwd.mkdir()
        async with (
            bot_process(cwd, fake_url=fake.base_url, **bot_env(fake, postgres_url, 0)) as alpha,
            bot_process(cwd, fake_url=fake.base_url, **bot_env(fake, postgres_url, 1)) as beta,
        ):
            caught_up = await alpha.line_with("direct messages sent while offline: read", timeout=60)
            assert re.search(r"read \d+ players' messages, answered 1 \(1 messages with orders", caught_up)
            await beta.line_with("direct messages go to shard 0's process: no catch-up of them here")
            await beta.line_with("ready: connected")
            await fake.flush()
            for process in (alpha, beta):
                code, _ = await process.stopped_by(signal.SIGTERM)
                assert code == 0, process.output[-3000:]
        answers = offline_answers(fake, france)
        assert len(answers) == 1 and answers[0].content.startswith(RECORDED_WHILE_OFFLINE), answers
        assert int((answers[0].message_reference or {}).get("message_id", 0)) == offline.id
        engine = make_engine(postgres_url)
        try:
            async with make_session_factory(engine).read() as session:
                rows = (
                    await session.exec(
                        select(OrderSubmission).where(
                            col(OrderSubmission.game_id) == game_id, col(OrderSubmission.user_id) == france.id
                        )
                    )
                ).all()
                await session.commit()
        finally:
            await engine.dispose()
        assert [r.text for r in rows] == ["A Mar-Spa"], "recorded once"
        assert "Traceback" not in alpha.output + beta.output
    assert fake.unknown_calls == [] and fake.internal_errors == []


ORDERS = {  # three orders of each power's, one per message
    "AUSTRIA": ("A Vie-Gal", "F Tri-Alb", "A Bud-Ser"),
    "ENGLAND": ("F Lon-Nth", "A Lvp-Yor", "F Edi-Nwg"),
    "FRANCE": ("A Par-Bur", "F Bre-MAO", "A Mar-Spa"),
    "GERMANY": ("A Ber-Kie", "F Kie-Den", "A Mun-Ruh"),
    "ITALY": ("A Rom-Apu", "F Nap-ION", "A Ven-Tyr"),
    "RUSSIA": ("A Mos-Ukr", "F Sev-BLA", "A War-Gal"),
    "TURKEY": ("A Con-Bul", "F Ank-BLA", "A Smy-Arm"),
}


def failing(monkeypatch: pytest.MonkeyPatch, use_case: str, times: int) -> list[int]:
    """The gamemaster's ``use_case`` fails as with the database away: its first ``times`` calls (for the
    first player it is called for, if it takes one). The list returned gets that player's id (0: none)."""
    original = getattr(Gamemaster, use_case)
    failed: list[int] = []

    async def flaky(self: Gamemaster, *args: Any, **kwargs: Any) -> Any:
        user_id = int(args[1]) if len(args) > 1 else 0  # submit_missed_orders(game_id, user_id, ...)
        if len(failed) < times and (not failed or failed[0] == user_id):
            failed.append(user_id)
            raise OperationalError("SELECT ...", {}, ConnectionRefusedError("the database went away"))
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(Gamemaster, use_case, flaky)
    return failed


def answers_to(fake: FakeDiscord, user: User, message: Message) -> list[str]:
    """The bot's replies to ``message``."""
    replies = [
        m for m in bot_dms(fake, user) if int((m.message_reference or {}).get("message_id", 0)) == message.id
    ]
    return [m.content for m in replies]


def shown(order: str) -> str:
    """How an answer shows an order: "A Par-Bur" is "A PAR - BUR"."""
    return order.upper().replace("-", " - ")


@pytest.mark.parametrize(
    ("use_case", "times"),
    [("players_of_running_games", 1), ("submit_missed_orders", 1), ("submit_missed_orders", 2)],
    ids=["listing", "recording", "recording-twice"],
)
async def test_a_catch_up_that_fails_loses_no_message_sent_while_offline(
    fake: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    use_case: str,
    times: int,
) -> None:
    """The start-up catch-up fails (the database away a moment) as it lists whose messages to read,
    or as it records a player's orders: logged with its traceback. A player it has not caught up who
    writes again has their message sent while offline read first, then the new one; if that fails too,
    the new one is answered that it was not read, and read in order with the next. The next start
    answers the rest; each message is recorded and answered once."""
    caplog.set_level(logging.INFO)
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        await started_game(fake, bot, table, "Flaky", players=3, press="public")
    orders = {p.id: ORDERS[table.power_of[p.id]] for p in table.players}
    sent = {
        p.id: fake.backend.post_message(fake.backend.open_dm(p), p.id, {"content": orders[p.id][0]})
        for p in table.players
    }
    failed = failing(monkeypatch, use_case, times)
    monkeypatch.setattr(Services, "retry_after", (3600.0, 3600.0))  # no retry but the player's messages
    async with running(fake, tmp_path) as bot:
        await settle(bot, fake)
        assert failed, "the catch-up met the fault"
        assert any(r.exc_info for r in caplog.records if "sent while offline" in r.getMessage())
        unanswered = [p for p in table.players if not answers_to(fake, p, sent[p.id])]
        writer = next(p for p in unanswered if failed[0] in (0, p.id))  # 0: the listing failed
        if use_case == "players_of_running_games":
            assert len(unanswered) == 3, "none answered before listed"
        second = await fake.dm_bot(writer, orders[writer.id][1])
        await settle(bot, fake)
        third = None
        if times == 2:  # its player's catch-up failed again: not read, and not lost
            assert answers_to(fake, writer, second.sent) == [NOT_READ_YET]
            assert answers_to(fake, writer, sent[writer.id]) == []
            third = await fake.dm_bot(writer, orders[writer.id][2])
            await settle(bot, fake)
            late = answers_to(fake, writer, second.sent)
            assert len(late) == 2 and late[1].startswith(RECORDED_LATE), late
        told = answers_to(fake, writer, sent[writer.id])
        assert len(told) == 1 and told[0].startswith(RECORDED_WHILE_OFFLINE), told
        newest = third or second
        after = [m for m in bot_dms(fake, writer) if m.id > newest.sent.id]
        assert after and after[0].content == told[0], "the message sent while offline is answered first"
        assert any(shown(newest.sent.content) in m.content for m in after[1:]), [m.content for m in after]
    async with running(fake, tmp_path) as bot:  # the next start: the players not caught up
        await settle(bot, fake)
        for player in table.players:
            told = answers_to(fake, player, sent[player.id])
            assert len(told) == 1 and told[0].startswith(RECORDED_WHILE_OFFLINE), (player.id, told)
            assert await submissions(bot, player.id, orders[player.id][0]) == 1
        for text in orders[writer.id][1 : (3 if times == 2 else 2)]:
            assert await submissions(bot, writer.id, text) == 1, text
    assert fake.unknown_calls == [] and fake.internal_errors == []


@pytest.mark.parametrize("fault", ["players_of_running_games", "submit_missed_orders", "discord"])
async def test_a_catch_up_that_failed_is_tried_again_and_answers_the_players_who_wrote_nothing_since(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: str
) -> None:
    """Players who write nothing after a failed catch-up (the database away a moment, or Discord
    refusing to read a player's messages) are not left to the next start: the catch-up is tried again
    (here after 0.2 s, not a minute) and answers each message sent while offline, once."""
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        await started_game(fake, bot, table, "Again", players=3, press="public")
    sent = {
        p.id: fake.backend.post_message(
            fake.backend.open_dm(p), p.id, {"content": ORDERS[table.power_of[p.id]][0]}
        )
        for p in table.players
    }
    monkeypatch.setattr(Services, "retry_after", (0.2, 0.2))
    if fault == "discord":
        refused = fake.inject_fault("GET /channels/*/messages", 403, message="Missing Access", code=50001)
    else:
        failed = failing(monkeypatch, fault, 1)

    def everyone_told() -> bool | None:
        return True if all(answers_to(fake, p, sent[p.id]) for p in table.players) else None

    async with running(fake, tmp_path) as bot:
        await fake.wait_for(everyone_told, what="every message sent while offline answered")
        await settle(bot, fake)
        assert refused.remaining == 0 if fault == "discord" else failed, "the catch-up met the fault"
        for player in table.players:
            told = answers_to(fake, player, sent[player.id])
            assert len(told) == 1 and told[0].startswith(RECORDED_WHILE_OFFLINE), (player.id, told)
            assert await submissions(bot, player.id, ORDERS[table.power_of[player.id]][0]) == 1
    assert fake.unknown_calls == [] and fake.internal_errors == []
