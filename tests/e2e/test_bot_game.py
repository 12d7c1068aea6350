"""A whole seven-player game through the real bot and the fake Discord: created, joined and started
with slash commands and the Join button; orders by form, by /order and by direct message; a deadline
that closes the phase; results and maps posted; a retreat and a build phase; and what each user could
see along the way."""

from __future__ import annotations

import os
from pathlib import Path

from harness.bot_helpers import (
    POWERS,
    Table,
    bot_messages,
    create_game,
    current_phase,
    deadline_passes,
    join_everyone,
    make_table,
    pings,
    place_name,
    running,
    settle,
    start_game,
    viewers,
)
from harness.fakediscord import ChannelType, FakeDiscord, Permission, User
from tests.helpers.e2e import print_transcript


def everyone_but(table: Table, author: User) -> list[User]:
    return [u for u in [*table.players, table.mod, table.onlooker] if u.id != author.id]


def assert_private(fake: FakeDiscord, table: Table, written: dict[str, list[str]]) -> None:
    """No text of a power's orders has reached anybody but the player who wrote it."""
    for power, snippets in written.items():
        author = table.player(power)
        for other in everyone_but(table, author):
            seen = "\n".join(fake.seen_texts(other))
            leaked = [s for s in snippets if s in seen]
            assert not leaked, f"{other.username} saw {power}'s orders {leaked}"


async def test_a_seven_player_game_from_creation_to_the_second_year(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await create_game(fake, table, "Friday **night** @everyone", movement_hours=48)
        announcement = bot_messages(fake, table.general)[-1]
        assert announcement.embeds[0]["title"].startswith("New Diplomacy game")
        assert "\\*\\*night\\*\\*" in announcement.embeds[0]["title"]  # shown as typed, not bold

        await join_everyone(fake, table, game_id)
        refused = await (
            await fake.slash(
                table.players[3], "game", "start", options={"game": str(game_id)}, channel=table.general
            )
        ).message()
        assert refused.ephemeral and "Only the creator" in refused.content
        started = await start_game(fake, bot, table, game_id)
        assert started.ephemeral and "has started" in started.content
        assert sorted(table.power_of.values()) == sorted(POWERS), "every player learns their power by DM"

        # --- the game's places and who can see them ------------------------------------------
        channels = {place_name(game_id, c.name): c for c in fake.guild_channels(table.guild)}
        game_channel = channels[f"g{game_id}-friday-night-everyone"]
        assert viewers(fake, game_channel, [table.onlooker]) == {"onlooker"}
        for power in POWERS:
            channel = channels[f"g{game_id}-{power.lower()}"]
            assert viewers(fake, channel, [*table.players, table.mod, table.onlooker]) == {
                table.player(power).username,
                "mod",
            }
            assert channel.overwrites[fake.world.bot.id].allow & Permission.VIEW_CHANNEL
        threads = [c for c in fake.guild_channels(table.guild) if c.type == ChannelType.PRIVATE_THREAD]
        assert len(threads) == 21
        for thread in threads:
            a, b = (name.strip().upper() for name in thread.name.split("–"))
            assert viewers(fake, thread, [*table.players, table.onlooker]) == {
                table.player(a).username,
                table.player(b).username,
            }

        # --- Spring 1901: orders by form, by /order, by DM; the deadline closes the phase ----------
        france, germany, austria = table.player("FRANCE"), table.player("GERMANY"), table.player("AUSTRIA")
        opened = await fake.slash(france, "orders", "edit", channel=table.general)
        form = await opened.modal()
        assert form.input("orders").get("value") in (None, "")
        answer = await (
            await fake.submit_modal(france, opened, {"orders": "A Paris - Burgundy\nA Mar-Spa\nF Bre-MAO"})
        ).message()
        assert answer.ephemeral
        assert "✅ `A PAR - BUR`" in answer.content and "France has orders for everything" in answer.content
        reopened = await (await fake.slash(france, "orders", "edit", channel=table.general)).modal()
        assert reopened.input("orders")["value"] == "A PAR - BUR\nA MAR - SPA\nF BRE - MAO"

        answer = await (
            await fake.slash(
                germany, "order", options={"text": "A Mun-Ruh; A Ber-Mun; F Kie-Den"}, channel=table.general
            )
        ).message()
        assert answer.ephemeral and answer.content.count("✅") == 3

        reply = await fake.dm_bot(austria, "A Vie-Gal\nA Bud-Ser\nF Tri-Alb\nA Ven-Tyr")
        text = (await reply).content
        assert "3 of 4 lines accepted, 1 refused" in text
        assert "❌ A Ven-Tyr: A VEN is not yours" in text
        assert_private(
            fake,
            table,
            {
                "FRANCE": ["A Paris - Burgundy", "A PAR - BUR", "F BRE - MAO"],
                "GERMANY": ["A Mun-Ruh", "A MUN - RUH", "F KIE - DEN"],
                "AUSTRIA": ["A Vie-Gal", "A VIE - GAL", "F TRI - ALB"],
            },
        )
        await deadline_passes(bot, fake, game_id)
        assert (await current_phase(bot, game_id)).name == "F1901M"
        results = [
            m
            for m in bot_messages(fake, game_channel)
            if m.embeds and "Spring 1901 Movement results" in m.embeds[0]["title"]
        ]
        assert len(results) == 1 and results[0].embeds[0]["image"]["url"] == "attachment://S1901M-orders.png"
        assert {a.filename for a in results[0].attachments} == {"S1901M-orders.png", "F1901M-position.png"}
        assert all(a.data.startswith(b"\x89PNG") for a in results[0].attachments)
        published = "\n".join(m.content for m in bot_messages(fake, game_channel))
        for order in (
            "✅ `A PAR - BUR`",
            "✅ `A MUN - RUH`",
            "✅ `A VIE - GAL`",
            "`A ROM H` (no order given)",
        ):
            assert order in published, order

        # --- Fall 1901: everybody ready closes early; France is dislodged -----------------------
        for user, orders in (
            (france, "A Bur H\nA Spa H\nF MAO-Por"),
            (germany, "A Ruh-Bur, A Mun S A Ruh-Bur, F Den H"),
        ):
            answer = await (
                await fake.slash(user, "order", options={"text": orders}, channel=table.general)
            ).message()
            assert answer.content.count("✅") == 3, answer.content
        for user in table.players:
            ready = await (await fake.slash(user, "ready", channel=table.general)).message()
            assert ready.ephemeral and "You are ready" in ready.content
        await settle(bot, fake)
        assert (await current_phase(bot, game_id)).name == "F1901R"
        fall = [
            m
            for m in bot_messages(fake, game_channel)
            if m.embeds and "Fall 1901 Movement results" in m.embeds[0]["title"]
        ]
        assert (
            "France's A BUR was dislodged by the attack from RUH; "
            "it may retreat to BEL, GAS, MAR, PAR or PIC." in fall[0].embeds[0]["description"]
        )
        # centers change hands after the retreats: said, and counted as the units stand (as the map does)
        assert (
            "Centers change hands after the retreats; as the units stand, Austria takes SER; "
            "France takes POR and SPA; "
            "Germany takes DEN." in fall[0].embeds[0]["description"]
        ), fall[0].embeds[0]["description"]
        counts = {f["name"]: f["value"] for f in fall[0].embeds[0]["fields"]}
        assert (counts["Austria"], counts["France"], counts["Germany"], counts["Italy"]) == (
            "4",
            "5",
            "4",
            "3",
        )
        # the results post is everyone's: strengths as "1 against 2", never "yours" and "theirs"
        posted = "\n".join(m.content for m in bot_messages(fake, game_channel))
        assert "`A BUR H`: dislodged by A RUH - BUR (1 against 2)" in posted, posted
        assert not any(word in posted for word in ("yours", "theirs", "your own"))

        # --- the retreat, by DM: France is the only one to act, so the phase closes at once ----------
        text = (await (await fake.dm_bot(france, "A Bur R Pic"))).content
        assert "✅ `A BUR R PIC`" in text
        await settle(bot, fake)
        assert (await current_phase(bot, game_id)).name == "W1901A"

        # --- winter builds: by /order, by form, by DM ---------------------------------------------
        answer = await (
            await fake.slash(france, "order", options={"text": "F Bre B; A Mar B"}, channel=table.general)
        ).message()
        assert answer.content.count("✅") == 2, answer.content
        opened = await fake.slash(germany, "orders", "edit", channel=table.general)
        assert "1 build" in (await opened.modal()).input("orders").get("placeholder", "")
        await (await fake.submit_modal(germany, opened, {"orders": "Build A Ber"})).message()
        assert "✅ `A VIE B`" in (await (await fake.dm_bot(austria, "A Vie B"))).content
        await settle(bot, fake)
        assert (await current_phase(bot, game_id)).name == "S1902M"
        winter = [
            m
            for m in bot_messages(fake, game_channel)
            if m.embeds and "Winter 1901 Adjustments results" in m.embeds[0]["title"]
        ]
        assert "France builds F BRE." in winter[0].embeds[0]["description"]

        if os.environ.get("SHOW_TRANSCRIPT"):
            print_transcript(fake, table)
        assert pings(fake) == [], "no message may notify anyone"
    assert fake.unknown_calls == [] and fake.internal_errors == []
