"""Posting through Discord's failures: closed DMs fall back to the player's private channel, rate
limits and server errors are retried, a deleted channel is given up on without holding up the rest."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from sqlmodel import col, select

from bot import DiplomacyBot
from cogs.commands.direct import MISSED_WHILE_OFFLINE
from db.models import OutboxEntry
from gm.clock import utcnow
from gm.delivery.outbox import Target, deliver_pending, enqueue
from gm.messages.kinds import Message as Notice
from gm.messages.kinds import PhaseResults
from gm.ordering.reminders import queue_reminders
from gm.reading.lookup import latest_phase
from harness.bot_helpers import (
    ask,
    bot_messages,
    current_phase,
    deadline_passes,
    embed_text,
    game_channel_of,
    guild_channel,
    make_table,
    pings,
    place_named,
    running,
    settle,
    started_game,
)
from harness.fakediscord import Channel, FakeDiscord, Message, Permission

pytestmark = pytest.mark.waits  # processes or real time: spread through the run (tests/conftest.py)


def results_posts(fake: FakeDiscord, channel: Channel, phase: str) -> list[Message]:
    return [m for m in bot_messages(fake, channel) if m.embeds and f"{phase} results" in m.embeds[0]["title"]]


async def test_closed_dms_fall_back_to_the_private_channel(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake)
    shy = table.players[2]
    await fake.set_dms_open(shy, False)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table)
        power = table.power_of[shy.id]
        private = place_named(fake, table.guild, game_id, f"g{game_id}-{power.lower()}")
        posted = bot_messages(fake, private)
        at = next(i for i, m in enumerate(posted) if "direct messages are closed" in m.content)
        note, welcome = posted[at : at + 2]
        assert note.content.startswith(f"<@{shy.id}>, your direct messages are closed to me")
        assert welcome.embeds[0]["title"].startswith(f"You play {power.capitalize()} in")
        assert fake.dm_messages(shy) == []
        assert [(m.id, [u["id"] for u in mentions["mentions"]]) for m, mentions in pings(fake)] == [
            (note.id, [str(shy.id)])
        ], "the fallback notifies that player and nobody else"

        # Reminders: the players who still owe orders, by DM; the shy one in their channel.
        ordered = table.player("ENGLAND") if power != "ENGLAND" else table.player("FRANCE")
        await ask(fake, ordered, "order", channel=table.general, text=_all_orders(table.power_of[ordered.id]))
        phase = await current_phase(bot, game_id)
        async with bot.runtime.sessions.begin() as session:
            reminded = await queue_reminders(session, phase.row_id, 1.0)
        await settle(bot, fake)
        assert sorted(reminded) == sorted(u.id for u in table.players if u.id != ordered.id)
        assert not any("orders are due soon" in m.text for m in fake.dm_messages(ordered))
        others = [u for u in table.players if u.id not in (ordered.id, shy.id)]
        assert all(any("orders are due soon" in m.text for m in fake.dm_messages(u)) for u in others)
        assert any("orders are due soon" in m.text for m in bot_messages(fake, private))
    assert fake.unknown_calls == [] and fake.internal_errors == []


def _all_orders(power: str) -> str:
    return {"ENGLAND": "F Lon H; F Edi H; A Lvp H", "FRANCE": "A Par H; A Mar H; F Bre H"}[power]


async def test_rate_limits_and_server_errors_are_retried_and_posted_once(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table)
        game_channel = await game_channel_of(bot, fake, game_id)
        fake.inject_fault(f"POST /channels/{game_channel.id}/messages", 429, retry_after=0.05)
        await deadline_passes(bot, fake, game_id)
        assert len(results_posts(fake, game_channel, "Spring 1901 Movement")) == 1  # discord.py waited

        fake.inject_fault(f"POST /channels/{game_channel.id}/messages", 503)
        await deadline_passes(bot, fake, game_id)
        assert results_posts(fake, game_channel, "Fall 1901 Movement") == []
        sender = bot.runtime.sender
        assert sender is not None
        later = await deliver_pending(
            bot.runtime.sessions, sender, clock=lambda: utcnow() + timedelta(minutes=5)
        )
        await fake.flush()
        assert later.sent >= 2 and later.failed == 0
        assert len(results_posts(fake, game_channel, "Fall 1901 Movement")) == 1
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_channel_closed_to_the_bot_waits_and_a_deleted_one_is_given_up(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table)
        game_channel = await game_channel_of(bot, fake, game_id)
        await fake.set_overwrite(game_channel, fake.world.bot, deny=Permission.VIEW_CHANNEL)
        france_channel = place_named(fake, table.guild, game_id, f"g{game_id}-france")
        await guild_channel(bot, france_channel).delete()  # an admin tidies up too eagerly
        await deadline_passes(bot, fake, game_id)
        assert results_posts(fake, game_channel, "Spring 1901 Movement") == []
        italy = place_named(fake, table.guild, game_id, f"g{game_id}-italy")
        assert any("Fall 1901 Movement orders" in m.text for m in bot_messages(fake, italy))

        await fake.set_overwrite(game_channel, fake.world.bot, allow=Permission.VIEW_CHANNEL)
        sender = bot.runtime.sender
        assert sender is not None
        later = lambda: utcnow() + timedelta(minutes=5)  # noqa: E731
        await deliver_pending(bot.runtime.sessions, sender, clock=later)
        await fake.flush()
        assert len(results_posts(fake, game_channel, "Spring 1901 Movement")) == 1
        async with bot.runtime.sessions() as session:
            failed = (
                await session.exec(select(OutboxEntry).where(col(OutboxEntry.failed_at).is_not(None)))
            ).all()
        assert [(e.kind, e.target_power) for e in failed] == [("phase_opened", "FRANCE")]
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_long_post_that_fails_at_its_third_part_is_completed_without_repeats(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Long", players=3, press="public")
        channel = await game_channel_of(bot, fake, game_id)
        await _long_results(bot, game_id, "long-results")
        before = len(bot_messages(fake, channel))
        fake.inject_fault(f"POST /channels/{channel.id}/messages", 503, after=2)
        await bot.runtime.deliver()
        assert len(bot_messages(fake, channel)) == before + 2, "parts 1 and 2 went out, part 3 failed"
        sender = bot.runtime.sender
        assert sender is not None
        report = await deliver_pending(
            bot.runtime.sessions, sender, clock=lambda: utcnow() + timedelta(minutes=5)
        )
        await fake.flush()
        assert report.sent == 1 and report.failed == 0
        posted = bot_messages(fake, channel)[before:]
        assert len(posted) == 3, "each part once, in order"
        assert posted[0].embeds and posted[1].content.startswith(
            "**Orders and results, Spring 1901 Movement**"
        )
        async with bot.runtime.sessions() as session:
            row = (
                await session.exec(select(OutboxEntry).where(OutboxEntry.dedup_key == "long-results"))
            ).one()
        assert row.sent_messages == [[channel.id, m.id] for m in posted]
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def _long_results(bot: DiplomacyBot, game_id: int, key: str) -> None:
    entry = {"status": "failed", "order": "A PAR - BUR", "input": "A Par-Bur", "reason": "bounced " * 6}
    async with bot.runtime.sessions() as session:
        enqueue(
            session,
            PhaseResults(
                game_id=game_id,
                title="Long: Spring 1901 Movement results",
                phase="S1901M",
                orders={"FRANCE": [entry] * 40},
            ),
            target=Target.game_channel(),
            key=key,
            now=utcnow(),
        )
        await session.commit()


async def test_parts_posted_before_a_long_failure_are_never_posted_again(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Past Discord's nonce window only our own record stops a repeat: each part is recorded the
    moment it is posted, and a lost "sent" mark is found in the channel before posting again."""
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Long", players=3, press="public")
        channel = await game_channel_of(bot, fake, game_id)
        fake.world.limits.nonce_window_seconds = 0  # Discord forgot every nonce: the retry is late
        await _long_results(bot, game_id, "part-by-part")
        before = len(bot_messages(fake, channel))
        fake.inject_fault(f"POST /channels/{channel.id}/messages", 503, after=2)
        await bot.runtime.deliver()
        sender = bot.runtime.sender
        assert sender is not None
        later = lambda: utcnow() + timedelta(minutes=10)  # noqa: E731
        report = await deliver_pending(bot.runtime.sessions, sender, clock=later)
        await fake.flush()
        assert report.sent == 1
        assert len(bot_messages(fake, channel)) == before + 3, "each part once, although the nonces expired"

        # Discord took a whole post, but the mark "sent" was lost (a crash): found in the channel.
        await _long_results(bot, game_id, "mark-lost")
        await bot.runtime.deliver()
        posted = len(bot_messages(fake, channel))
        async with bot.runtime.sessions() as session:
            row = (await session.exec(select(OutboxEntry).where(OutboxEntry.dedup_key == "mark-lost"))).one()
            row.sent_at, row.sent_messages, row.attempts = None, None, 1
            row.created_at = utcnow() - timedelta(minutes=10)
            await session.commit()
        await deliver_pending(bot.runtime.sessions, sender, clock=later)
        await fake.flush()
        assert len(bot_messages(fake, channel)) == posted, "nothing posted twice"
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_long_rate_limit_on_one_channel_does_not_hold_up_another_game(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        first = await started_game(fake, bot, table, "Slow", players=3, press="public")
        second = await started_game(fake, bot, table, "Fast", players=3, press="public")
        slow = await game_channel_of(bot, fake, first)
        fast = await game_channel_of(bot, fake, second)
        fake.inject_fault(f"POST /channels/{slow.id}/messages", 429, retry_after=150)
        async with bot.runtime.sessions() as session:
            for game_id in (first, second):
                enqueue(
                    session,
                    Notice(game_id=game_id, title=f"News of game {game_id}"),
                    target=Target.game_channel(),
                    key=f"news:{game_id}",
                    now=utcnow(),
                )
            await session.commit()
        await bot.runtime.deliver()
        await fake.flush()
        assert any("News of game" in embed_text(m) for m in bot_messages(fake, fast))
        # the delivery is over and the slow game's news still waits: nobody waited out the 150 s
        assert not any("News of game" in embed_text(m) for m in bot_messages(fake, slow))
        sender = bot.runtime.sender
        assert sender is not None
        later = lambda: utcnow() + timedelta(minutes=5)  # noqa: E731
        await deliver_pending(bot.runtime.sessions, sender, clock=later)
        await fake.flush()
        assert len([m for m in bot_messages(fake, slow) if "News of game" in embed_text(m)]) == 1
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_slow_channel_holds_up_its_own_game_only_and_each_channel_keeps_its_order(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Games are delivered side by side: while Discord takes half a second for each post in one
    game's channel, the other game's posts go out at once; each channel gets its posts in the order
    they were written, each exactly once."""
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        first = await started_game(fake, bot, table, "Slow", players=3, press="public")
        second = await started_game(fake, bot, table, "Fast", players=3, press="public")
        slow = await game_channel_of(bot, fake, first)
        fast = await game_channel_of(bot, fake, second)
        fake.slow_down(f"POST /channels/{slow.id}/messages", 0.5, times=3)
        async with bot.runtime.sessions() as session:
            for number in range(3):  # written interleaved, as two closes at one deadline write them
                for game_id in (first, second):
                    enqueue(
                        session,
                        Notice(game_id=game_id, title=f"News {number} of game {game_id}"),
                        target=Target.game_channel(),
                        key=f"news:{game_id}:{number}",
                        now=utcnow(),
                    )
            await session.commit()
        await bot.runtime.deliver()
        await fake.flush()

        def news(channel: Channel, game_id: int) -> list[Message]:
            return [m for m in bot_messages(fake, channel) if f"of game {game_id}" in embed_text(m)]

        slow_news, fast_news = news(slow, first), news(fast, second)
        assert [embed_text(m).split()[1] for m in slow_news] == ["0", "1", "2"]
        assert [embed_text(m).split()[1] for m in fast_news] == ["0", "1", "2"]
        assert fast_news[-1].timestamp < slow_news[1].timestamp, "the fast game did not wait for the slow one"
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_orders_sent_by_dm_while_the_bot_was_offline_are_recorded_if_their_phase_is_open(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Orders sent while the bot was down, their phase still open: recorded and answered at the next
    start like any submission. Sent after the deadline passed: not recorded, and the player is asked
    to send them again. Either is said once."""
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Offline", players=3, press="public")
        france = table.player("FRANCE")
        answered = await fake.dm_bot(france, "A Par-Bur")  # read and answered while online
        await answered
    channel = fake.backend.open_dm(france)
    fake.backend.post_message(channel, france.id, {"content": "A Mar-Spa"})  # the bot is down
    england = table.player("ENGLAND")
    async with running(fake, tmp_path) as bot:
        await settle(bot, fake)
        answers = [
            m.content for m in fake.dm_messages(france) if "I was offline when you sent me" in m.content
        ]
        assert len(answers) == 1 and "A MAR - SPA" in answers[0], answers
        assert "send your orders again" not in answers[0].lower()
        view = await bot.services.gamemaster.my_orders(game_id, france.id)
        assert {"A PAR - BUR", "A MAR - SPA"} <= set(view.powers[0].orders), "both orders count"
        assert not any(
            "I was offline" in m.content
            for p in table.players
            for m in fake.dm_messages(p)
            if p is not france
        )
        deadline = utcnow() - timedelta(seconds=1)  # the deadline passes while the bot is down
        async with bot.runtime.sessions() as session:
            phase = await latest_phase(session, game_id)
            assert phase is not None
            phase.deadline = deadline
            await session.commit()
    late = fake.backend.open_dm(england)
    fake.backend.post_message(late, england.id, {"content": "F Lon-NTH"})  # after the deadline
    async with running(fake, tmp_path) as bot:
        await settle(bot, fake)
        told = [m.content for m in fake.dm_messages(england) if "I was offline" in m.content]
        assert told == [MISSED_WHILE_OFFLINE], told
        assert len([m for m in fake.dm_messages(france) if "I was offline" in m.content]) == 1
    assert fake.unknown_calls == [] and fake.internal_errors == []


class Killed(BaseException):
    """The bot process dies (nothing after this point runs, no handler catches it)."""


async def test_a_post_discord_took_just_before_a_crash_is_not_repeated_by_a_late_restart(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed right after Discord accepted the first part of the results, before the bot recorded it;
    back ten minutes later, when Discord no longer knows the nonce: the part is found, not reposted."""
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Crash", players=3, press="public")
        channel = await game_channel_of(bot, fake, game_id)
        before = len(bot_messages(fake, channel))
        await _long_results(bot, game_id, "cut-short")

        async def dies(*_: object) -> None:
            raise Killed

        with monkeypatch.context() as patch:
            patch.setattr("gm.delivery.outbox._record_part", dies)
            with pytest.raises(Killed):
                await bot.runtime.deliver()
        await fake.flush()
        assert len(bot_messages(fake, channel)) == before + 1, "Discord took part 1"
    fake.forget_nonces()
    async with bot.runtime.sessions() as session:
        row = (await session.exec(select(OutboxEntry).where(OutboxEntry.dedup_key == "cut-short"))).one()
        row.created_at -= timedelta(minutes=10)
        await session.commit()
    monkeypatch.setattr("gm.delivery.outbox.INSTANCE", "0new0000")  # the next start is another process
    async with running(fake, tmp_path) as bot:
        await settle(bot, fake)
        posted = bot_messages(fake, channel)[before:]
        assert len(posted) == 3, "each of the three parts once"
        assert posted[1].content.startswith("**Orders and results, Spring 1901 Movement**")
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_short_rate_limit_on_one_channel_does_not_hold_up_another_game(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """discord.py waits out a 429 shorter than 30 s inline; when the outbox sent one message at a time
    every game's messages waited for it (2.1 s, 10.05 s, 29.1 s for retry_after 2, 10, 29 s). Games are
    delivered in lanes of their own now: only the rate-limited channel's game waits."""
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        first = await started_game(fake, bot, table, "Slow", players=3, press="public")
        second = await started_game(fake, bot, table, "Fast", players=3, press="public")
        slow = await game_channel_of(bot, fake, first)
        fast = await game_channel_of(bot, fake, second)
        fake.inject_fault(f"POST /channels/{slow.id}/messages", 429, retry_after=3.0)
        async with bot.runtime.sessions() as session:
            for game_id in (first, second):  # the slow game's news is older: it goes first
                enqueue(
                    session,
                    Notice(game_id=game_id, title=f"News of game {game_id}"),
                    target=Target.game_channel(),
                    key=f"news:{game_id}",
                    now=utcnow(),
                )
            await session.commit()
        await bot.runtime.deliver()

        def news(channel: Channel) -> list[Message] | None:
            return [m for m in bot_messages(fake, channel) if "News of game" in embed_text(m)] or None

        first_news = await fake.wait_for(
            lambda: news(slow), what="the slow game's news, after its 429", timeout=30
        )
        second_news = await fake.wait_for(lambda: news(fast), what="the other game's news")
        assert len(first_news) == 1 and len(second_news) == 1
        # queued second, posted first: it did not wait out the other channel's 3 s
        assert second_news[0].id < first_news[0].id, "the other game waited out the 429"
    assert fake.unknown_calls == [] and fake.internal_errors == []
