"""A per-member rate limit (ops.limits, at the gateway's door: ops.gate): a member who floods the bot
with interactions or direct messages gets ``MEMBER_BURST`` served, then nothing is done for them until
their bucket refills; they are told once ("slow down, try again in N s"), not once per interaction, and
each one dropped is counted in /metrics. Another member is served as usual meanwhile. The clock of
the limiter is frozen here, so that the counts do not depend on the machine's speed."""

from __future__ import annotations

from pathlib import Path

from harness.bot_helpers import ask, make_table, running, settle
from harness.fakediscord import FakeDiscord

FLOOD = 60


async def test_a_members_flood_is_dropped_before_any_work_told_once_and_counted(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    flooder, other = table.players[0], table.players[1]
    async with running(fake, tmp_path, member_burst=20, member_rate=4) as bot:
        limiter = bot.gate.limiter
        assert limiter is not None
        now = [1000.0]
        limiter.clock = lambda: now[0]

        def limited(kind: str) -> float:
            value = bot.metrics.registry.get_sample_value(
                "diplomacy_member_rate_limited_total", {"kind": kind}
            )
            return value or 0.0

        handles = [await fake.slash(flooder, "game", "list", channel=table.general) for _ in range(FLOOD)]
        await settle(bot, fake)
        answered = [h for h in handles if h.interaction.acknowledged]
        words = ["\n".join(m.content for m in h.messages()) for h in answered]
        told = [w for w in words if w.startswith("Slow down")]
        assert len(answered) == 20 + 1, "the burst, and one answer to the rest"
        assert told == [
            "Slow down: you are sending me more than I take from one member, so I did not act "
            "on that. Try again in 1 s."
        ], told
        assert all(h.messages()[0].ephemeral for h in answered if "Slow down" in h.messages()[0].content)
        assert limited("interaction") == FLOOD - 20

        listed = await ask(fake, other, "game", "list", channel=table.general)
        assert listed.content and "Slow down" not in listed.content, "another member is served"
        more = await fake.slash(flooder, "game", "list", channel=table.general)
        await settle(bot, fake)
        assert not more.interaction.acknowledged, "told once: the next ones in a flood get no answer"
        now[0] += 1.0  # a second later: four more
        again = await ask(fake, flooder, "game", "list", channel=table.general)
        assert "Slow down" not in again.content

        # direct messages (orders come that way): the same bucket per member
        sent = [await fake.dm_bot(other, "hello") for _ in range(24)]
        await settle(bot, fake)
        dm_channel = sent[0].channel
        bot_dms = [m for m in fake.world.channel_messages(dm_channel.id) if m.author_id == fake.world.bot.id]
        unread = [m for m in bot_dms if "I did not read that one" in m.content]
        assert len(unread) == 1 and "Send it again in 1 s" in unread[0].content
        assert limited("message") == 24 - 20  # the other's bucket is full again a second later
    assert fake.unknown_calls == [] and fake.internal_errors == []
