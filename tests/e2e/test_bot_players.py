"""Players' everyday use: several games at once, leaving, looking at maps and history, and a bot that
restarts in the middle of it all."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot import DiplomacyBot
from db.models import PhaseRecord
from gm.clock import utcnow
from gm.setup.games import get_game
from harness.bot_helpers import (
    Table,
    ask,
    bot_messages,
    create_game,
    current_phase,
    deadline_passes,
    join_everyone,
    make_table,
    place_named,
    running,
    settle,
    start_game,
    started_game,
)
from harness.fakediscord import FakeDiscord


async def test_a_player_in_two_games_says_which(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        first = await started_game(fake, bot, table, "First")
        second_id = await create_game(fake, table, "Second")
        await join_everyone(fake, table, second_id)
        await start_game(fake, bot, table, second_id)
        player = table.players[3]
        unsure = await ask(fake, player, "order", channel=table.general, text="A Par H")
        assert f"#{first} First" in unsure.content and f"#{second_id} Second" in unsure.content
        assert "game option" in unsure.content
        choices = await (
            await fake.autocomplete(
                player, "order", focused="game", options={"text": "x"}, channel=table.general
            )
        ).choices()
        assert [c["value"] for c in choices] == [str(first), str(second_id)]
        assert choices[1]["name"] == f"#{second_id} Second (Spring 1901 Movement)"
        assert [
            c["value"]
            for c in await (
                await fake.autocomplete(
                    player, "order", focused="game", options={"game": "sec"}, channel=table.general
                )
            ).choices()
        ] == [str(second_id)]

        dm = (await (await fake.dm_bot(player, "A Vie H"))).content
        assert "cannot tell which one" in dm and "Nothing was recorded" in dm and f"game: {first}" in dm
        mine = await ask(fake, player, "orders", "show", channel=None, game=str(second_id))
        assert "has no orders yet" in mine.content and f"#{second_id} Second" in mine.content

        # In a game's own channel the game is implied.
        power = (await _powers(bot, first))[player.id]
        own = place_named(fake, table.guild, first, f"g{first}-{power.lower()}")
        implied = await ask(fake, player, "orders", "show", channel=own)
        assert f"#{first} First" in implied.content
        listed = await ask(fake, player, "game", "list", channel=None)
        assert "Your games:" in listed.content and "Second" in listed.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_leaving_before_and_after_the_start(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        forming = await create_game(fake, table, "Forming")
        leaver = table.players[5]
        await ask(fake, leaver, "game", "join", channel=table.general, game=str(forming))
        left = await ask(fake, leaver, "game", "leave", channel=table.general, game=str(forming))
        assert left.content.startswith("You left")
        status = await ask(fake, table.players[0], "game", "status", channel=table.general, game=str(forming))
        assert f"<@{leaver.id}>" not in status.content and "Players (1 of 7)" in status.content

        game_id = await started_game(fake, bot, table, "Running")
        power = table.power_of[leaver.id]
        private = place_named(fake, table.guild, game_id, f"g{game_id}-{power.lower()}")
        threads = [
            c for c in fake.guild_channels(table.guild) if c.is_thread and power.capitalize() in c.name
        ]
        assert fake.can_view(leaver, private) and all(fake.can_view(leaver, t) for t in threads)
        careful = await ask(fake, leaver, "game", "leave", channel=table.general, game=str(game_id))
        assert "civil disorder" in careful.content and "Leave the game?" in careful.content
        assert "any member of this server who does not play in the game may take it" in careful.content
        stay = await (await fake.click(leaver, careful, f"leave:{game_id}:{leaver.id}:stay")).message()
        assert stay.content == "You stay in the game: nothing was changed." and not stay.custom_ids()
        assert fake.can_view(leaver, private)
        careful = await ask(fake, leaver, "game", "leave", channel=table.general, game=str(game_id))
        gone = await (await fake.click(leaver, careful, f"leave:{game_id}:{leaver.id}:go")).message()
        assert gone.content.startswith("You left") and not gone.custom_ids(), "one tap, done once"
        await settle(bot, fake)
        assert not fake.can_view(leaver, private)
        assert not any(fake.can_view(leaver, t) for t in threads)
        game_channel = place_named(fake, table.guild, game_id, f"g{game_id}-running")
        assert any("the player has left" in m.text for m in bot_messages(fake, game_channel))
        refused = await ask(fake, leaver, "order", channel=table.general, text="A Par H")
        assert "not playing in any running game" in refused.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_maps_and_history_show_only_what_is_public(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table)
        france = table.player("FRANCE")
        await ask(fake, france, "order", channel=table.general, text="A Par-Bur")
        await ask(fake, france, "ready", channel=table.general)
        status = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=str(game_id))
        assert f"France <@{france.id}>: 3 centers, 3 units, some units ordered, ready ✅" in status.content
        assert "Germany" in status.content and "no orders sent yet" in status.content
        await ask(fake, france, "order", channel=table.general, text="A Mar H\nF Bre H")
        status = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=str(game_id))
        # new orders after Ready take the Ready back (issue 42)
        assert f"France <@{france.id}>: 3 centers, 3 units, all units ordered\n" in status.content
        assert "PAR" not in status.content, "whether France is done is public; what it ordered is not"
        now = await ask(fake, table.onlooker, "map", channel=table.general, game=str(game_id))
        assert now.ephemeral and [a.filename for a in now.attachments] == ["S1901M-position.png"]
        assert now.attachments[0].data.startswith(b"\x89PNG")
        secret = await ask(fake, table.onlooker, "history", "phase", channel=table.general, game=str(game_id))
        assert "is still open: its orders stay secret until it closes" in secret.content
        assert "PAR - BUR" not in secret.content
        early = await ask(
            fake, table.onlooker, "map", channel=table.general, game=str(game_id), phase="S1901M", orders=True
        )
        assert "secret until the phase closes" in early.content and not early.attachments

        await deadline_passes(bot, fake, game_id)
        past = await ask(fake, table.onlooker, "history", "phase", channel=table.general, game=str(game_id))
        assert "Spring 1901 Movement" in past.content and "✅ `A PAR - BUR`" in past.content
        assert [a.filename for a in past.attachments] == ["S1901M-orders.png"]
        drawn = await ask(fake, table.onlooker, "map", channel=table.general, game=str(game_id), orders=True)
        assert [a.filename for a in drawn.attachments] == ["S1901M-orders.png"]
        phases = await (
            await fake.autocomplete(
                table.onlooker,
                "history",
                "phase",
                focused="phase",
                options={"game": str(game_id)},
                channel=table.general,
            )
        ).choices()
        assert [c["value"] for c in phases] == ["F1901M", "S1901M"]
        wrong = await ask(
            fake, table.onlooker, "history", "phase", channel=table.general, game=str(game_id), phase="S1999M"
        )
        assert "has no phase 'S1999M'" in wrong.content and "S1901M, F1901M" in wrong.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_buttons_forms_and_deadlines_survive_a_restart(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await create_game(fake, table, "Durable")
    [announcement] = [m for m in bot_messages(fake, table.general) if m.custom_ids() == [f"join:{game_id}"]]
    async with running(fake, tmp_path) as bot:
        joined = await (await fake.click(table.players[1], announcement, f"join:{game_id}")).message()
        assert "You joined" in joined.content and "2 of 7" in joined.content
        await join_everyone_else(fake, table, game_id)
        await start_game(fake, bot, table, game_id)
        germany = table.player("GERMANY")
        opened = await fake.slash(germany, "orders", "edit", channel=table.general)
        await opened.modal()
    async with running(fake, tmp_path) as bot:
        answer = await (await fake.submit_modal(germany, opened, {"orders": "A Mun-Ruh"})).message()
        assert "✅ `A MUN - RUH`" in answer.content
        phase = await current_phase(bot, game_id)
    # The deadline passes while the bot is offline; at start-up it closes the phase and posts.
    async with bot.runtime.sessions() as session:
        record = await session.get(PhaseRecord, phase.id)
        assert record is not None
        record.deadline = utcnow() - timedelta(minutes=1)
        await session.commit()
    async with running(fake, tmp_path, close_workers=1) as bot:  # a worker process, as in production
        await settle(bot, fake)
        assert (await current_phase(bot, game_id)).name == "F1901M"
        game_channel = place_named(fake, table.guild, game_id, f"g{game_id}-durable")
        results = [
            m for m in bot_messages(fake, game_channel) if m.embeds and "results" in m.embeds[0]["title"]
        ]
        assert len(results) == 1
        assert "✅ `A MUN - RUH`" in "\n".join(m.content for m in bot_messages(fake, game_channel))
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def join_everyone_else(fake: FakeDiscord, table: Table, game_id: int) -> None:
    for user in table.players[2:]:
        reply = await ask(fake, user, "game", "join", channel=table.general, game=str(game_id))
        assert "You joined" in reply.content


async def _powers(bot: DiplomacyBot, game_id: int) -> dict[int, str]:
    async with bot.runtime.sessions() as session:
        game = await get_game(session, game_id)
    return {user: power for power, user in game.powers.items() if user is not None}


async def test_a_join_post_left_from_another_database_does_not_join_the_game_that_has_its_number_now(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A fresh database (or a restored backup) numbers its games from 1 again: the Join post of the
    old game #1 stays in the channel, and its button must not join the new game #1."""
    table = await make_table(fake)
    async with running(fake, tmp_path, database_url=f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"):
        old_id = await create_game(fake, table, "Old times")
    [old_post] = [m for m in bot_messages(fake, table.general) if m.custom_ids() == [f"join:{old_id}"]]
    async with running(fake, tmp_path, database_url=f"sqlite+aiosqlite:///{tmp_path / 'new.db'}") as bot:
        new_id = await create_game(fake, table, "New times")
        assert new_id == old_id, "the new database numbers its games from 1 again"
        refused = await (await fake.click(table.players[1], old_post, f"join:{old_id}")).message()
        assert "This Join button is from an old post" in refused.content and "/game list" in refused.content
        assert refused.ephemeral
        game = await bot.services.gamemaster.get_game(new_id)
        assert [p.user_id for p in game.players] == [table.players[0].id], "nobody joined by the old post"
        [new_post] = [
            m
            for m in bot_messages(fake, table.general)
            if m.custom_ids() == [f"join:{new_id}"] and m != old_post
        ]
        joined = await (await fake.click(table.players[1], new_post, f"join:{new_id}")).message()
        assert "You joined **#1 New times**" in joined.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_history_offers_phases_by_their_names(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Named", players=3, press="public")
        await deadline_passes(bot, fake, game_id)  # Spring 1901 closes: Fall 1901 is open
        await deadline_passes(bot, fake, game_id)  # and Fall 1901: Winter or Spring 1902 next
        user = table.players[0]
        fall = await (
            await fake.autocomplete(
                user, "history", "phase", focused="phase", options={"phase": "Fall"}, channel=table.general
            )
        ).choices()
        assert fall and all("Fall" in c["name"] for c in fall)
        assert {"name": "Fall 1901 Movement (F1901M)", "value": "F1901M"} in fall
        by_code = await (
            await fake.autocomplete(
                user, "history", "phase", focused="phase", options={"phase": "s1901"}, channel=table.general
            )
        ).choices()
        assert by_code == [{"name": "Spring 1901 Movement (S1901M)", "value": "S1901M"}]
        picked = await ask(
            fake, user, "history", "phase", channel=table.general, phase=fall[-1]["value"], game=str(game_id)
        )
        assert "Fall 1901 Movement" in picked.content
    assert fake.unknown_calls == [] and fake.internal_errors == []
