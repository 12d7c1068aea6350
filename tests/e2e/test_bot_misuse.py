"""Bad input and hostile use: every one gets a clear answer, nothing crashes, nothing leaks, nobody is
pinged by what a user typed."""

from __future__ import annotations

from pathlib import Path

from harness.bot_helpers import (
    ask,
    bot_messages,
    create_game,
    current_phase,
    deadline_passes,
    game_number,
    join_everyone,
    make_table,
    pings,
    place_named,
    running,
    settle,
    started_game,
    whole_answer,
)
from harness.fakediscord import FakeDiscord, Permission


async def test_commands_in_the_wrong_place_or_by_the_wrong_person_are_explained(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    alice, bob = table.players[0], table.players[1]
    async with running(fake, tmp_path):
        in_dm = await ask(fake, alice, "game", "create", name="From my DMs")
        assert "works in a server channel, not in direct messages" in in_dm.content
        nothing = await ask(fake, alice, "order", channel=table.general, text="A Par-Bur")
        assert nothing.ephemeral and "You are not playing in any running game" in nothing.content
        assert "not playing in any running game" in (await (await fake.dm_bot(bob, "A Par-Bur"))).content

        game_id = await create_game(fake, table, "Tuesday")
        again = await ask(fake, alice, "game", "join", channel=table.general, game=str(game_id))
        assert "You are already in Tuesday" in again.content
        early = await ask(fake, alice, "game", "start", channel=table.general)
        assert "is set up for 7 players and has 1" in early.content and "Wait for 6 more" in early.content
        meddling = await ask(
            fake, bob, "game", "settings", channel=table.general, game=str(game_id), players=5
        )
        assert "Only the creator of Tuesday or a moderator" in meddling.content
        moderated = await ask(
            fake, table.mod, "game", "settings", channel=table.general, game=str(game_id), players=5
        )
        assert "**Players:** 5" in moderated.content
        too_fast = await ask(fake, alice, "game", "settings", channel=table.general, movement_hours=0.05)
        assert "Movement phases must last from 10 minutes to 14 days, not 3 minutes" in too_fast.content
        assert "Nothing was changed" in too_fast.content
        await fake.say(bob, table.general, f"{fake.world.bot.mention} A Par-Bur, F Bre-MAO")
        warning = await fake.wait_for(
            lambda: next(
                (m for m in bot_messages(fake, table.general) if "do not read orders" in m.content), None
            ),
            what="the bot's answer to a public mention",
        )
        assert "Par-Bur" not in warning.content and "direct message" in warning.content
        unknown = await ask(fake, alice, "game", "status", channel=table.general, game="#999")
        assert "There is no game number 999" in unknown.content
        for reply in (in_dm, nothing, again, early, meddling, moderated, too_fast, unknown):
            assert reply.ephemeral or reply.channel_id != table.general.id
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_names_with_markdown_and_mentions_never_format_or_ping(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        name = "@everyone __<@&123>__ `x` @here"
        game_id = await started_game(fake, bot, table, name)
        listed = await ask(fake, table.onlooker, "game", "list", channel=table.general)
        assert f"#{game_id} @\u200beveryone \\_\\_<@&123>\\_\\_ \\`x\\` @\u200bhere" in listed.content
        await fake.dm_bot(table.player("ITALY"), "@everyone A Ven-Tyr **now**")
        await fake.slash(
            table.player("FRANCE"), "order", options={"text": "<@&123> hello @here"}, channel=table.general
        )
        await deadline_passes(bot, fake, game_id)
        assert pings(fake) == []
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_4000_character_paste_is_answered_line_by_line(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        await started_game(fake, bot, table)
        france = table.player("FRANCE")
        good = ["Fleet Brest moves to Mid-Atlantic Ocean", "Army Marseilles supports Army Paris to Burgundy"]
        lines: list[str] = []
        while sum(len(x) + 1 for x in lines) < 3900:
            n = len(lines)
            lines.append(good[n % 2] if n % 5 else f"Army Nowhere {n} marches on to the capital")
        paste = "\n".join(lines)[:4000]
        assert 3900 <= len(paste) <= 4000 and len(lines) <= 100
        opened = await fake.slash(france, "orders", "edit", channel=table.general)
        await opened.modal()
        handle = await fake.submit_modal(france, opened, {"orders": paste})
        answer = await whole_answer(fake, handle)
        parts = handle.messages()
        assert len(parts) > 1 and all(len(p.content) <= 2000 and p.ephemeral for p in parts)
        refused = [line for line in lines if "Nowhere" in line]
        assert answer.count("✅") + answer.count("❌") == len(lines)
        assert all(f"{line}: Unknown place or word 'nowhere'" in answer for line in refused)
        assert f"{len(lines) - len(refused)} of {len(lines)} lines accepted, {len(refused)} refused" in answer
        shown = await ask(fake, france, "orders", "show", channel=table.general)
        assert "`F BRE - MAO`" in shown.content and "`A MAR S A PAR - BUR`" in shown.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_form_from_a_closed_phase_is_refused_and_nothing_is_recorded(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table)
        germany = table.player("GERMANY")
        opened = await fake.slash(germany, "orders", "edit", channel=table.general)
        await opened.modal()
        await deadline_passes(bot, fake, game_id)
        late = await (await fake.submit_modal(germany, opened, {"orders": "A Mun-Ruh"})).message()
        assert late.ephemeral
        assert (
            "The Spring 1901 Movement orders are closed" in late.content
            and "Nothing was recorded" in late.content
        )
        shown = await ask(fake, germany, "orders", "show", channel=table.general)
        assert "**Germany** has no orders yet" in shown.content and "Fall 1901 Movement" in shown.content
        assert (await current_phase(bot, game_id)).name == "F1901M"
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_start_discord_refuses_is_explained_and_can_be_finished(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await create_game(fake, table, "Stubborn")
        await join_everyone(fake, table, game_id)
        before = {c.id for c in fake.guild_channels(table.guild)}
        fake.inject_fault("POST /channels/*/threads", 403, code=50013, message="Missing Permissions")
        refused = await (
            await fake.slash(
                table.players[0], "game", "start", options={"game": str(game_id)}, channel=table.general
            )
        ).message(timeout=30)
        assert "Discord refused to create the channels of Stubborn" in refused.content
        assert "run /game start again to finish" in refused.content
        await settle(bot, fake)
        assert {c.id for c in fake.guild_channels(table.guild)} == before, "half-made channels are removed"
        assert (await current_phase(bot, game_id)).name == "S1901M"  # the game runs; its clock too

        finished = await (
            await fake.slash(
                table.players[0], "game", "start", options={"game": str(game_id)}, channel=table.general
            )
        ).message(timeout=30)
        assert "has started" in finished.content
        await settle(bot, fake)
        game_channel = place_named(fake, table.guild, game_id, f"g{game_id}-stubborn")
        assert any("has started" in m.text for m in bot_messages(fake, game_channel))
        assert len([c for c in fake.guild_channels(table.guild) if c.is_thread]) == 21
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_bot_without_manage_channels_says_so_before_starting(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    guild = await fake.create_guild(
        "Strict", bot_permissions=Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES
    )
    general = await fake.create_channel(guild, "general")
    users = [await fake.create_user(f"p{i}") for i in range(3)]
    for user in users:
        await fake.add_member(guild, user)
    async with running(fake, tmp_path) as bot:
        reply = await ask(fake, users[0], "game", "create", channel=general, name="Small", players=3)
        game_id = game_number(reply.content)
        for user in users[1:]:
            await ask(fake, user, "game", "join", channel=general, game=str(game_id))
        refused = await ask(fake, users[0], "game", "start", channel=general, game=str(game_id))
        assert "my role lacks Manage Channels" in refused.content and "Manage Roles" in refused.content
        status = await ask(fake, users[0], "game", "status", channel=general, game=str(game_id))
        assert "waiting for players" in status.content, "nothing was started"
        assert bot.services is not None
    assert fake.unknown_calls == [] and fake.internal_errors == []
