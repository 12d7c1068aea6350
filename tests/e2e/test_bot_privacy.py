"""Where order text may go: players whose direct messages are closed get what was meant for their DMs
in their power channel, which the moderators read too, so nothing there shows orders before the close;
orders written in one's own power channel (with a mention of the bot) are read and answered with counts
only; and a game is visible only on its own server (or, in DMs, to its players)."""

from __future__ import annotations

from pathlib import Path

from harness.bot_helpers import (
    Table,
    ask,
    bot_messages,
    current_phase,
    deadline_passes,
    make_table,
    place_named,
    running,
    settle,
    started_game,
)
from harness.fakediscord import Channel, FakeDiscord, Message, User
from tests.helpers.e2e import click_and_read, mod


def bot_texts_seen_by(fake: FakeDiscord, user: User) -> str:
    """Every text of the bot's that ``user`` could read at some moment."""
    texts = []
    for message in fake.world.messages.values():
        if message.author_id == fake.world.bot.id:
            texts += [r.text for r in message.revisions if user.id in r.audience]
    return "\n".join(texts)


def private_channel(fake: FakeDiscord, table: Table, game_id: int, power: str) -> Channel:
    return place_named(fake, table.guild, game_id, f"g{game_id}-{power.lower()}")


async def test_a_replacement_with_closed_dms_gets_no_orders_where_moderators_read(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    newcomer = table.onlooker
    await fake.set_dms_open(newcomer, False)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Handover", players=3, press="public")
        old = table.player("FRANCE")
        answer = await ask(fake, old, "order", channel=table.general, text="A Par-Pic; F Ank-Bla")
        assert answer.content.count("✅") == 2
        done = await mod(
            fake, table.mod, table, "replace", power="FRANCE", player=newcomer, game=str(game_id)
        )
        assert done.content.startswith("Done:")
        await settle(bot, fake)

        channel = private_channel(fake, table, game_id, "FRANCE")
        [welcome] = [
            m for m in bot_messages(fake, channel) if m.embeds and "You play" in m.embeds[0]["title"]
        ]
        told = welcome.embeds[0]["description"]
        assert "Orders so far: 1 (`/orders show` lists them, to you alone)" in told
        assert "reply to me here" not in told and "a mention of me" in told, "says how to order from there"
        for secret in ("A PAR - PIC", "F ANK - BLA", "Par-Pic", "Ank-Bla"):
            assert secret not in bot_texts_seen_by(fake, table.mod), secret
        shown = await ask(fake, newcomer, "orders", "show", channel=table.general)
        assert "`A PAR - PIC`" in shown.content and shown.ephemeral, "the newcomer sees them, privately"
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_orders_voided_by_a_rollback_are_not_shown_where_moderators_read(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Undo", players=3, press="public")
        france = table.player("FRANCE")
        await fake.set_dms_open(france, False)
        await deadline_passes(bot, fake, game_id)
        await ask(fake, france, "order", channel=table.general, text="A Par-Pic")
        asked = await mod(fake, table.mod, table, "rollback", game=str(game_id))
        assert (await click_and_read(fake, table.mod, asked, asked.custom_ids()[0])).startswith("Done:")
        await settle(bot, fake)

        channel = private_channel(fake, table, game_id, "FRANCE")
        [voided] = [m for m in bot_messages(fake, channel) if m.embeds and "voided" in m.embeds[0]["title"]]
        assert "the 1 order line you had sent" in voided.embeds[0]["description"]
        assert "Par-Pic" not in bot_texts_seen_by(fake, table.mod)
        assert (await current_phase(bot, game_id)).name == "S1901M"
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_orders_in_ones_own_channel_are_read_and_answered_with_counts_only(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table)
        france = table.player("FRANCE")
        channel = private_channel(fake, table, game_id, "FRANCE")
        intro = bot_messages(fake, channel)[0].content
        assert "a message that mentions me" in intro

        before = len(bot_messages(fake, channel))
        await fake.say(france, channel, f"{fake.world.bot.mention} A Par-Bur\nF Bre-MAO\nA Mar-Mun")
        answer = await fake.wait_for(
            lambda: next((m for m in bot_messages(fake, channel)[before:] if "got it" in m.content), None),
            what="the answer in France's channel",
        )
        assert "2 of 3 lines accepted, 1 refused (line 3)." in answer.content
        assert "France still has 1 unit without orders." in answer.content
        assert "Each line's answer is in our direct messages" in answer.content
        for secret in ("PAR - BUR", "BRE - MAO", "Par-Bur", "Mar-Mun", "MAR"):
            assert secret not in answer.content, secret
        assert any("✅ `A PAR - BUR`" in m.content for m in fake.dm_messages(france)), "the details by DM"
        shown = await ask(fake, france, "orders", "show", channel=table.general)
        assert "`A PAR - BUR`" in shown.content and "`F BRE - MAO`" in shown.content

        await fake.set_dms_open(france, False)
        before = len(bot_messages(fake, channel))
        await fake.say(france, channel, f"{fake.world.bot.mention} A Mar H")
        answer = await fake.wait_for(
            lambda: next((m for m in bot_messages(fake, channel)[before:] if "got it" in m.content), None),
            what="the second answer in France's channel",
        )
        assert "France has orders for everything." in answer.content and "`/orders show`" in answer.content
        assert "MAR" not in answer.content

        england = table.player("ENGLAND")  # in someone else's channel (a moderator) or a thread: refused
        await fake.say(table.mod, channel, f"{fake.world.bot.mention} A Par H")
        thread = next(c for c in fake.guild_channels(table.guild) if c.is_thread and "England" in c.name)
        await fake.say(england, thread, f"{fake.world.bot.mention} F Lon-ENG")
        await settle(bot, fake)
        for place in (channel, thread):
            [refusal] = [m for m in bot_messages(fake, place) if "I do not read orders here" in m.content]
            assert "everyone here can see" not in refusal.content and "other players" in refusal.content
        shown = await ask(fake, england, "orders", "show", channel=table.general)
        assert "has no orders yet" in shown.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_orders_by_dm_from_closed_dms_are_acknowledged_in_the_private_channel(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table)
        austria = table.player("AUSTRIA")
        await fake.set_dms_open(austria, False)
        await fake.dm_bot(austria, "A Vie-Gal\nA Bud-Ser")
        channel = private_channel(fake, table, game_id, "AUSTRIA")
        notice: Message = await fake.wait_for(
            lambda: next((m for m in bot_messages(fake, channel) if "I got the orders" in m.content), None),
            what="the notice that the DM's orders arrived",
        )
        assert notice.content.startswith(f"<@{austria.id}>, I got the orders you sent me by direct message")
        assert "2 of 2 lines accepted." in notice.content and "Austria still has 1 unit" in notice.content
        assert "VIE" not in notice.content and "Vie-Gal" not in notice.content
        shown = await ask(fake, austria, "orders", "show", channel=table.general)
        assert "`A VIE - GAL`" in shown.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_game_is_seen_only_from_its_server_or_by_its_players(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    other = await fake.create_guild("Other Club")
    stranger = await fake.create_user("stranger")
    await fake.add_member(other, stranger)
    await fake.add_member(other, table.players[1])
    lobby = await fake.create_channel(other, "lobby")
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Home", players=3, press="public")
        await deadline_passes(bot, fake, game_id)
        game = str(game_id)
        for path, options in (
            (("game", "status"), {}),
            (("game", "export"), {}),
            (("map",), {}),
            (("history", "phase"), {"phase": "S1901M"}),
        ):
            elsewhere = await ask(fake, stranger, *path, channel=lobby, game=game, **options)
            assert f"There is no game {game} on this server" in elsewhere.content, path
            assert elsewhere.attachments == [] and "Home" not in elsewhere.content, path
            in_dm = await ask(fake, stranger, *path, channel=None, game=game, **options)
            assert f"You play in no game {game}" in in_dm.content, path
        here = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=game)
        assert "**#1 Home**" in here.content, "anyone on the game's server may look"
        player = table.players[1]
        for place in (lobby, None):  # a player may look at their own game from anywhere
            mine = await ask(fake, player, "game", "status", channel=place, game=game)
            assert "**#1 Home**" in mine.content
    assert fake.unknown_calls == [] and fake.internal_errors == []
