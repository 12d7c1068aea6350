"""A moderation command acts on the game as it was when the moderator sent it (issue 38 D): Discord's
interaction id carries the time the command was made, and the fake stamps it so (``slash(sent_at=)``:
made a moment ago, reaching the bot only now). Two moderators act on one phase a moment apart; the
second command reaches the bot once the first has moved the game on. /mod close, /mod extend and
/mod rollback made before the current phase opened are refused at once, with no question to
confirm, and change nothing; made afresh, they act on the phase open now."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from bot import DiplomacyBot
from db.models import PhaseRecord
from gm.clock import utcnow
from harness.bot_helpers import (
    Table,
    current_phase,
    deadline_passes,
    make_table,
    running,
    settle,
    started_game,
)
from harness.fakediscord import FakeDiscord, Message, User
from tests.helpers.e2e import click_and_read, mod


async def second_moderator(fake: FakeDiscord, table: Table) -> User:
    other = await fake.create_user("mod2")
    await fake.add_member(table.guild, other, table.moderators)
    return other


async def sent_earlier(
    fake: FakeDiscord, table: Table, user: User, path: str, sent_at: datetime, **options: object
) -> Message:
    """``user`` made ``/mod path`` at ``sent_at``; it reaches the bot only now."""
    handle = await fake.slash(user, "mod", path, options=options, channel=table.general, sent_at=sent_at)
    reply = await handle.message()
    assert reply.ephemeral, reply.content
    return reply


async def just_opened(bot: DiplomacyBot, game_id: int) -> PhaseRecord:
    """The open phase opened just now: a command made a moment before it reaches the bot within
    Discord's 3 seconds to answer it, however long the test took to get here."""
    phase = await current_phase(bot, game_id)
    async with bot.runtime.sessions() as session:
        record = await session.get(PhaseRecord, phase.id)
        assert record is not None
        record.opened_at = utcnow()
        await session.commit()
    return await current_phase(bot, game_id)


async def aged(bot: DiplomacyBot, game_id: int, minutes: int = 5) -> PhaseRecord:
    """The open phase opened ``minutes`` ago (no question about a phase that has just opened)."""
    phase = await current_phase(bot, game_id)
    async with bot.runtime.sessions() as session:
        record = await session.get(PhaseRecord, phase.id)
        assert record is not None
        record.opened_at = utcnow() - timedelta(minutes=minutes)
        await session.commit()
    return await current_phase(bot, game_id)


async def test_two_moderators_close_one_phase_a_moment_apart_and_the_next_is_never_offered(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    other = await second_moderator(fake, table)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Race", players=3, press="public")
        game = str(game_id)
        spring = await aged(bot, game_id)
        first = await mod(fake, table.mod, table, "close", game=game)
        assert first.content.startswith("Done: Spring 1901 Movement is being closed now")
        await settle(bot, fake)
        fall = await just_opened(bot, game_id)
        assert (fall.name, fall.status) == ("F1901M", "open")
        # the other moderator pressed /mod close while Spring was still open on their screen
        late = await sent_earlier(
            fake, table, other, "close", fall.opened_at - timedelta(milliseconds=300), game=game
        )
        assert "Spring 1901 Movement was already closed" in late.content, late.content
        assert "Fall 1901 Movement has just opened in Race and was not touched" in late.content
        assert late.custom_ids() == [], "no question to confirm"
        await settle(bot, fake)
        still = await current_phase(bot, game_id)
        assert (still.id, still.status, still.close_reason) == (fall.id, "open", None)
        async with bot.runtime.sessions.read() as session:
            closed = await session.get(PhaseRecord, spring.id)
            await session.commit()
        assert closed is not None and closed.status == "closed"
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_an_extend_sent_before_the_phase_closed_does_not_extend_the_next(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Later", players=3, press="public")
        game = str(game_id)
        await deadline_passes(bot, fake, game_id)
        fall = await just_opened(bot, game_id)
        assert fall.name == "F1901M" and fall.deadline is not None
        # asked for more time for Spring a moment before its deadline; it reached the bot after
        late = await sent_earlier(
            fake, table, table.mod, "extend", fall.opened_at - timedelta(seconds=1), hours=12, game=game
        )
        assert (
            "Later has moved on since you asked (it is now at Fall 1901 Movement); nothing was changed"
            in late.content
        ), late.content
        assert "Run /mod extend again if Fall 1901 Movement needs more time" in late.content
        assert late.custom_ids() == []
        assert (await current_phase(bot, game_id)).deadline == fall.deadline, "Fall's deadline untouched"
        fresh = await mod(fake, table.mod, table, "extend", hours=12, game=game)
        assert fresh.content.startswith("Done: The Fall 1901 Movement deadline is extended by 12 hours")
        assert (await current_phase(bot, game_id)).deadline == fall.deadline + timedelta(hours=12)
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_rollback_sent_before_the_game_moved_on_is_refused_without_a_question(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    other = await second_moderator(fake, table)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Undo", players=3, press="public")
        game = str(game_id)
        await deadline_passes(bot, fake, game_id)
        fall = await current_phase(bot, game_id)
        await deadline_passes(bot, fake, game_id)
        after_fall = await just_opened(bot, game_id)
        assert after_fall.ordinal == 2
        # made while Fall was open (to undo Spring's results), reaching the bot once Fall has
        # closed: it would undo Fall's results, which the moderator had not seen
        early = await sent_earlier(
            fake, table, table.mod, "rollback", after_fall.opened_at - timedelta(seconds=1), game=game
        )
        assert "Undo has moved on since you asked (it is now at " in early.content, early.content
        assert early.custom_ids() == [], "no question to confirm"

        asked = await mod(fake, table.mod, table, "rollback", game=game)
        assert "back to **Fall 1901 Movement**" in asked.content
        done = await click_and_read(fake, table.mod, asked, asked.custom_ids()[0])
        assert "is back at Fall 1901 Movement" in done
        await settle(bot, fake)
        back = await just_opened(bot, game_id)
        assert (back.id, back.status) == (fall.id, "open")
        # the other moderator asked for the same rollback a moment before it was done: it would
        # roll the game back once more, to Spring
        twice = await sent_earlier(
            fake, table, other, "rollback", back.opened_at - timedelta(milliseconds=500), game=game
        )
        assert "Undo has moved on since you asked (it is now at Fall 1901 Movement)" in twice.content
        assert twice.custom_ids() == [], "no question to confirm"
        assert (await current_phase(bot, game_id)).id == fall.id
    assert fake.unknown_calls == [] and fake.internal_errors == []
