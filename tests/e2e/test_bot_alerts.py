"""Calling the moderators so that someone is actually notified: Discord notifies a role mention only if
the role is mentionable or the author may mention every role, so a role that cannot be mentioned is
replaced by its members and the game's creator, named one by one; a missing role leaves the creator.
/game start tells the starter what to fix."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from bot import DiplomacyBot
from db.models import OutboxEntry
from gm.clock import utcnow
from gm.delivery import outbox
from gm.delivery.outbox import Target, enqueue
from gm.messages.kinds import CivilDisorder
from harness.bot_helpers import (
    Table,
    ask,
    create_game,
    current_phase,
    deadline_passes,
    embed_text,
    game_channel_of,
    join_everyone,
    make_table,
    pings,
    running,
    settle,
    start_game,
)
from harness.fakediscord import FakeDiscord, Message
from tests.helpers.e2e import everyone_but_ready


async def absent_player_alert(fake: FakeDiscord, bot: DiplomacyBot, table: Table, game_id: int) -> Message:
    """Two movement phases without orders from one player: the moderators' call that follows."""
    absent = table.players[2]
    for _ in range(2):
        await everyone_but_ready(fake, table, absent)
        await deadline_passes(bot, fake, game_id)
    [(call, _)] = pings(fake)
    return call


async def start_small(fake: FakeDiscord, bot: DiplomacyBot, table: Table) -> tuple[int, str]:
    game_id = await create_game(fake, table, "Absent", players=3, press="public", civil_disorder_after=2)
    await join_everyone(fake, table, game_id)
    reply = await start_game(fake, bot, table, game_id)
    return game_id, reply.content


async def test_a_role_that_cannot_be_mentioned_is_called_by_its_members_names(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3, mentionable=False)
    second_mod = await fake.create_user("second-mod")
    await fake.add_member(table.guild, second_mod, table.moderators)
    async with running(fake, tmp_path) as bot:
        game_id, started = await start_small(fake, bot, table)
        assert "cannot be @mentioned" in started and "Allow anyone to @mention this role" in started
        call = await absent_player_alert(fake, bot, table, game_id)
        creator = table.players[0]
        called = {creator.id, table.mod.id, second_mod.id}
        assert call.content.endswith("a moderator is needed here.")
        [(_, mentioned)] = pings(fake)
        assert {int(u["id"]) for u in mentioned["mentions"]} == called, "exactly them, by name"
        assert mentioned["mention_roles"] == [] and f"<@&{table.moderators.id}>" not in call.content

        await fake.set_role_mentionable(table.guild, table.moderators, True)
        another = await create_game(fake, table, "Called", players=3, press="public")
        await join_everyone(fake, table, another)
        reply = await start_game(fake, bot, table, another)
        assert "Note:" not in reply.content, "nothing to fix once the role may be mentioned"
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_without_the_moderator_role_the_creator_is_called_and_told_at_the_start(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path, moderator_role="Umpires") as bot:
        game_id, started = await start_small(fake, bot, table)
        assert "this server has no role named **Umpires**" in started
        await absent_player_alert(fake, bot, table, game_id)
        [(call, mentioned)] = pings(fake)
        assert [int(u["id"]) for u in mentioned["mentions"]] == [table.players[0].id]
        assert call.content == f"<@{table.players[0].id}>: a moderator is needed here."
        await settle(bot, fake)
        assert (await current_phase(bot, game_id)).name == "S1902M"
        status = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=str(game_id))
        assert "in civil disorder" in status.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_an_alert_sent_as_the_bot_starts_calls_the_moderators_once_before_it(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Messages waiting at start-up go out before the gateway has described the server: an alert sent
    then must still call the moderators (and its parts must be the same at every attempt, or a retry
    after a crash repeats or loses one)."""
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id, _ = await start_small(fake, bot, table)
        channel = await game_channel_of(bot, fake, game_id)
    async with bot.runtime.sessions() as session:  # queued while the bot is down
        enqueue(
            session,
            CivilDisorder(game_id=game_id, title="A player fell into civil disorder", alert_moderators=True),
            target=Target.game_channel(),
            key="alert-at-start",
            now=utcnow(),
        )
        await session.commit()
    async with running(fake, tmp_path) as bot:
        await settle(bot, fake)
        posted = [m for m in fake.channel_messages(channel) if m.author_id == fake.world.bot.id]
        alert = [i for i, m in enumerate(posted) if "civil disorder" in embed_text(m)]
        assert len(alert) == 1, "the alert, once"
        call = posted[alert[0] - 1]
        assert f"<@&{table.moderators.id}>" in call.content, "the moderators are called right before it"
        assert sum(f"<@&{table.moderators.id}>" in (m.content or "") for m in posted) == 1
    assert fake.unknown_calls == [] and fake.internal_errors == []


class Killed(BaseException):
    """The bot process dies (nothing after this point runs)."""


async def test_after_a_late_restart_a_second_alert_still_calls_the_moderators(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two alerts in a row; the bot dies once the first is sent, before it reached the second, and
    comes back after Discord's nonce window. Looking for the second's call among the channel's
    messages must not take the first alert's call, which says the same words, for it."""
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id, _ = await start_small(fake, bot, table)
        channel = await game_channel_of(bot, fake, game_id)
        await settle(bot, fake)
        async with bot.runtime.sessions() as session:
            for n in (1, 2):
                enqueue(
                    session,
                    CivilDisorder(game_id=game_id, title=f"Alert number {n}", alert_moderators=True),
                    target=Target.game_channel(),
                    key=f"alert-{n}",
                    now=utcnow(),
                )
            await session.commit()
        record_part = outbox._record_part

        async def dies_once_sent(*args: Any) -> None:
            await record_part(*args)
            finish = args[2]  # the record of its last part marks a message sent (gm.delivery.outbox)
            if finish is not None and finish.done:
                raise Killed

        with monkeypatch.context() as patch:
            patch.setattr("gm.delivery.outbox._record_part", dies_once_sent)
            with pytest.raises(Killed):
                await bot.runtime.deliver()
    fake.forget_nonces()
    async with bot.runtime.sessions() as session:  # ten minutes later
        for row in (await session.exec(select(OutboxEntry).where(OutboxEntry.dedup_key == "alert-2"))).all():
            row.created_at -= timedelta(minutes=10)
        await session.commit()
    monkeypatch.setattr("gm.delivery.outbox.INSTANCE", "0new0000")  # the next start is another process
    async with running(fake, tmp_path) as bot:
        await settle(bot, fake)
        posted = [m for m in fake.channel_messages(channel) if m.author_id == fake.world.bot.id]
        role = f"<@&{table.moderators.id}>"
        order = [
            "call" if role in (m.content or "") else embed_text(m).split("\n")[0]
            for m in posted
            if role in (m.content or "") or "Alert number" in embed_text(m)
        ]
        assert order == ["call", "Alert number 1", "call", "Alert number 2"]
    assert fake.unknown_calls == [] and fake.internal_errors == []
