"""When a phase opens, each player with something to do is notified once, the way they chose with
/notify (a mention in their power's channel by default, a direct message, or none), with their own
summary and nothing of anyone else's orders."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from harness.bot_helpers import (
    ask,
    bot_messages,
    calls_to_order,
    create_game,
    deadline_passes,
    embed_text,
    game_channel_of,
    join_everyone,
    layout_text,
    make_table,
    place_named,
    running,
    settle,
    start_game,
    started_game,
)
from harness.fakediscord import FakeDiscord
from harness.fakediscord.state import walk_components
from tests.helpers.e2e import SharedGame, a_shared_game


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[SharedGame]:
    """One started three-player game for the tests that each look at another player (France readies by
    DM, England fixes a typo, France and England vote) or at what nobody changes (the start post)."""
    async with a_shared_game(tmp_path_factory.mktemp("shared"), players=3, press="public") as game:
        yield game


on_shared = pytest.mark.asyncio(loop_scope="module")


async def test_each_player_is_called_once_per_phase_as_they_chose(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Calls", players=3, press="public")
        by_dm, silent = table.player("FRANCE"), table.player("ENGLAND")
        chose = await ask(fake, by_dm, "notify", channel=table.general, how="dm")
        assert "direct message" in chose.content
        await ask(fake, silent, "notify", channel=table.general, how="none")
        await ask(fake, by_dm, "order", channel=table.general, text="A Par-Bur")
        before = {m.id for m, _ in calls_to_order(fake)}
        dms_before = {u.id: len(fake.dm_messages(u)) for u in table.players}

        await deadline_passes(bot, fake, game_id)
        await settle(bot, fake)
        calls = [(m, user) for m, user in calls_to_order(fake) if m.id not in before]
        called = sorted(user for _, user in calls)
        others = sorted(u.id for u in table.players if u.id not in (silent.id,))
        assert called == others, (
            "everyone with orders to give, once (whatever powers they hold), not the player who chose none"
        )
        for message, user_id in calls:
            assert "Fall 1901 Movement has begun" in (message.content or layout_text(message))
            text = embed_text(message)
            assert "PAR - BUR" not in text or user_id == by_dm.id, "nobody sees another's orders"
        [dm_call] = [m for m, user in calls if user == by_dm.id]
        assert fake.world.channels[dm_call.channel_id].is_dm, "France chose direct messages"
        assert "sheet below" in embed_text(dm_call) and ":F1901M:" in " ".join(dm_call.custom_ids()), (
            "a call by direct message carries the order sheet"
        )
        for user in table.players:  # one or two private messages a phase, no more
            assert len(fake.dm_messages(user)) - dms_before[user.id] <= 2
        silent_channel = place_named(fake, table.guild, game_id, f"g{game_id}-england")
        quiet = [
            m for m in fake.channel_messages(silent_channel) if "Fall 1901 Movement orders" in embed_text(m)
        ]
        assert len(quiet) == 1 and not quiet[0].content, "posted without a mention"
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_reminders_set_at_creation_and_shown_as_they_will_happen(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path):
        made = await ask(
            fake, table.players[0], "game", "create", channel=table.general, name="Quick", players=3,
            movement_hours=0.5, retreat_hours=0.25, adjustment_hours=0.25, reminders="24, 0.1",
        )  # fmt: skip
        assert "#" in made.content
        status = await ask(fake, table.players[0], "game", "status", channel=table.general, game="Quick")
        assert "**Reminders:** 6 minutes before each deadline" in status.content
        bad = await ask(
            fake, table.players[0], "game", "settings", channel=table.general, game="Quick", reminders="soon"
        )
        assert "Reminders are hours before the deadline" in bad.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_the_join_post_stays_live_and_the_creator_hears_when_it_is_full(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await create_game(fake, table, "Lobby", players=3, press="public")
        [post] = [m for m in fake.channel_messages(table.general) if f"join:{game_id}" in m.custom_ids()]

        def shown() -> tuple[str, bool]:
            [button] = [
                c for c in walk_components(post.components) if c.get("custom_id") == f"join:{game_id}"
            ]
            return embed_text(post), bool(button.get("disabled"))

        assert "Joined (1 of 3)" in shown()[0] and not shown()[1]
        await join_everyone(fake, table, game_id)
        await settle(bot, fake)
        text, disabled = shown()
        assert "Joined (3 of 3)" in text and "Full:" in text and disabled, "no more seats: the button is off"
        await bot.runtime.deliver()
        await fake.flush()
        creator = table.players[0]
        assert any("Lobby is full" in embed_text(m) for m in fake.dm_messages(creator))
        assert not any("is full" in embed_text(m) for u in table.players[1:] for m in fake.dm_messages(u))
        await start_game(fake, bot, table, game_id)
        await settle(bot, fake)
        text, disabled = shown()
        assert "Started: results and maps in <#" in text and disabled
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_right_after_ones_only_game_ended_it_is_the_game_meant(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    from tests.helpers.e2e import end_short_game

    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Brief", players=3, last_year=1901)
        await end_short_game(fake, bot, table, game_id)
        status = await ask(fake, table.players[1], "game", "status", channel=table.general)
        assert f"#{game_id} Brief" in status.content and "finished" in status.content
        shown = await ask(fake, table.players[1], "map", channel=table.general)
        assert shown.attachments and shown.attachments[0].filename.endswith("-final.png")
    assert fake.unknown_calls == [] and fake.internal_errors == []


# The tests on the shared game come one after the other: xdist hands a worker adjacent tests (two at a
# time), and a worker starts the module's game once for those it runs in a row.
@on_shared
async def test_ready_or_done_by_direct_message_is_ready(shared: SharedGame) -> None:
    fake, table, game_id = shared.fake, shared.table, shared.game_id
    france = table.player("FRANCE")
    answer = await (await fake.dm_bot(france, "Done!"))
    assert "You are ready" in answer.content
    status = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=str(game_id))
    assert f"<@{france.id}>: 3 centers, 3 units, no orders sent yet, ready ✅" in status.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


@on_shared
async def test_the_start_post_shows_the_opening_map(shared: SharedGame) -> None:
    fake, bot = shared.fake, shared.bot
    channel = await game_channel_of(bot, fake, shared.game_id)
    [started] = [m for m in bot_messages(fake, channel) if "has started" in embed_text(m)]
    assert [a.filename for a in started.attachments] == ["S1901M-position.png"]
    assert started.attachments[0].data.startswith(b"\x89PNG")
    assert fake.unknown_calls == [] and fake.internal_errors == []


@on_shared
async def test_refused_lines_come_back_in_the_orders_form_to_be_fixed(shared: SharedGame) -> None:
    fake, table = shared.fake, shared.table
    england = table.player("ENGLAND")
    opened = await fake.slash(england, "orders", "edit", channel=table.general)
    await opened.modal()
    answer = await (await fake.submit_modal(england, opened, {"orders": "F Lon-Nth\nF Edi-Nwgq"})).message()
    assert "❌" in answer.content
    again = await (await fake.slash(england, "orders", "edit", channel=table.general)).modal()
    assert again.input("orders")["value"] == "F LON - NTH\nF Edi-Nwgq", "the typo is there to fix"
    fixed = await fake.slash(england, "orders", "edit", channel=table.general)
    await fixed.modal()
    await (await fake.submit_modal(england, fixed, {"orders": "F LON - NTH\nF Edi-Nwg"})).message()
    last = await (await fake.slash(england, "orders", "edit", channel=table.general)).modal()
    assert last.input("orders")["value"] == "F LON - NTH\nF EDI - NWG"
    assert fake.unknown_calls == [] and fake.internal_errors == []


@on_shared
async def test_a_vote_without_kind_asks_which_when_a_draw_and_a_concession_are_open(
    shared: SharedGame,
) -> None:
    fake, table = shared.fake, shared.table
    france, england = table.player("FRANCE"), table.player("ENGLAND")
    conceded = await ask(fake, france, "draw", "propose", channel=table.general, kind="concede", to="ENGLAND")
    assert "concession" in conceded.content
    only = await ask(fake, england, "draw", "vote", channel=table.general, choice="no")
    assert "Several proposals" not in only.content, "one proposal open: that is the one meant"
    await ask(fake, france, "draw", "propose", channel=table.general)
    asked = await ask(fake, england, "draw", "vote", channel=table.general, choice="yes")
    assert "Several proposals are open in Shared: a concession to England and a draw" in asked.content
    assert "kind option" in asked.content
    assert fake.unknown_calls == [] and fake.internal_errors == []
