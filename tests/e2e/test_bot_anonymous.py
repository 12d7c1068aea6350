"""An anonymous Standard game played to its end on the fake Discord (a short game: its last year is
1901), its players talking with /press. Every member's every view is read: before the final post,
nothing a player could read (messages in each version, the names of the places they read, who else
reads those places or is a member of their threads, who wrote what they read) named another power's
player; the relays reached the other power as the sender's power's words, inert; the final post then
revealed the players."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from bot import DiplomacyBot
from gm.clock import utcnow
from harness.bot_helpers import (
    Table,
    ask,
    bot_messages,
    create_game,
    current_phase,
    deadline_passes,
    embeds_titled,
    game_channel_of,
    join_everyone,
    make_table,
    place_named,
    running,
    settle,
    started_game,
)
from harness.fakediscord import Channel, DMHandle, FakeDiscord, Message, User
from harness.fakediscord.backend import UploadedFile
from tests.helpers.e2e import mod
from tests.helpers.modes import leaks, names_of

SPRING = {
    "ENGLAND": "F Lon-Nth; F Edi-Nwg; A Lvp-Yor",
    "FRANCE": "A Par-Bur; A Mar-Pie; F Bre-Mao",
    "GERMANY": "A Mun-Ruh; F Kie-Den; A Ber-Kie",
}


async def test_an_anonymous_game_names_no_player_to_another_until_the_end(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Masks", players=7, anonymous=True, last_year=1901)
        game = str(game_id)
        channel = await game_channel_of(bot, fake, game_id)
        assert not [c for c in fake.world.guild_channels(table.guild.id, threads=True) if c.is_thread]
        france, germany = table.player("FRANCE"), table.player("GERMANY")

        said = f"Bur is yours if you keep out of Bel, <@{france.id}> @everyone **bold**"
        answer = await ask(
            fake, france, "press", channel=table.general, game=game, to="Germany", message=said
        )
        assert "carried to Germany's channel as France's" in answer.content, answer.content
        shout = await ask(
            fake, germany, "press", channel=table.general, game=game, to="everyone", message="Peace!"
        )
        assert "carried to the game channel as Germany's" in shout.content, shout.content
        await settle(bot, fake)
        [relay] = [
            m
            for m in bot_messages(fake, place_named(fake, table.guild, game_id, f"g{game_id}-germany"))
            if m.text.startswith("**France** to **Germany**:")
        ]
        assert (
            "Bur is yours" in relay.text
            and f"<@{france.id}>" not in relay.text
            and "@everyone" not in relay.text
        )
        [copy] = [
            m
            for m in bot_messages(fake, place_named(fake, table.guild, game_id, f"g{game_id}-france"))
            if m.text.startswith("**France** to **Germany**:")
        ]
        assert copy.text == relay.text
        assert fake.world.audience(relay) >= {germany.id, table.mod.id}  # moderators read the relays
        assert france.id not in fake.world.audience(relay) and germany.id not in fake.world.audience(copy)
        assert [m for m in bot_messages(fake, channel) if m.text.startswith("**Germany** to **everyone**:")]
        wrong = await ask(fake, france, "press", channel=table.general, game=game, to="France", message="me")
        assert "You play France" in wrong.content and "another power" in wrong.content

        exports = {}
        for reader in [*table.players, table.onlooker]:
            status = await ask(fake, reader, "game", "status", channel=table.general, game=game)
            assert "France" in status.content and "Germany" in status.content, status.content
            export = await ask(fake, reader, "game", "export", channel=table.general, game=game)
            exports[reader.id] = json.loads(export.attachments[0].data)
        mine = [p for p in exports[france.id]["players"] if p["user_id"] is not None]
        assert [p["powers"] for p in mine] == [["FRANCE"]] and mine[0]["user_id"] == france.id
        assert {p: u for p, u in exports[france.id]["powers"].items() if u} == {"FRANCE": france.id}
        assert not [p for p in exports[table.onlooker.id]["players"] if p["user_id"] is not None]

        # France's seat goes to a member who did not play: nobody else learns who, the old player leaves it
        newcomer = table.onlooker
        told = await mod(fake, table.mod, table, "replace", power="FRANCE", player=newcomer, game=game)
        assert "FRANCE" in told.content.upper(), told.content
        await settle(bot, fake)
        france_channel = place_named(fake, table.guild, game_id, f"g{game_id}-france")
        assert fake.world.can_view(newcomer.id, france_channel)
        assert not fake.world.can_view(france.id, france_channel)
        [public] = [m.text for m in bot_messages(fake, channel) if "now plays France" in m.text]
        assert "France's player now plays France, replacing a player" in public, public
        table.players = [newcomer if u is france else u for u in table.players]
        table.seats[newcomer.id] = table.seats.pop(france.id)
        gone = france

        for power, orders in SPRING.items():
            done = await ask(
                fake, table.player(power), "order", channel=table.general, game=game, text=orders
            )
            assert "✅" in done.content, (power, done.content)
        while (await current_phase(bot, game_id)).status == "open":
            await deadline_passes(bot, fake, game_id)
        await settle(bot, fake)

        [final] = embeds_titled(fake, channel, "Masks is over")
        end = final.timestamp
        members = [*table.players, gone]
        for reader in members:
            for other in table.players:  # in the files too
                exported = json.dumps(exports[reader.id])
                assert other.id == reader.id or str(other.id) not in exported, (
                    reader.username,
                    other.username,
                )
            assert leaks(fake, table, members, reader, end) == [], "\n".join(
                leaks(fake, table, members, reader, end)
            )
        for reader in table.players:  # the calls to order came by direct message, not as mentions
            dm = fake.world.dm_channel(reader.id)
            assert dm is not None and any("has begun" in m.text for m in fake.world.channel_messages(dm.id))
        assert "The players are revealed" in final.text
        assert all(f"<@{u.id}>" in final.text for u in table.players), final.text
        assert f"France: <@{newcomer.id}>" in final.text
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_an_edit_or_a_deletion_of_a_typed_relay_reaches_its_copies_even_after_a_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Whispers", players=7, anonymous=True)
        france, germany = table.player("FRANCE"), table.player("GERMANY")
        germany_channel = place_named(fake, table.guild, game_id, f"g{game_id}-germany")
        france_channel = place_named(fake, table.guild, game_id, f"g{game_id}-france")
        dm = fake.backend.open_dm(france)
        picture = b"\x89PNG plans for Burgundy"
        posted = fake.backend.post_message(
            dm,
            france.id,
            {"content": "to Germany: Bur stays empty <@everyone>"},
            [UploadedFile("files[0]", "plans.png", picture)],
        )
        await fake.flush()
        sent = DMHandle(fake, france, dm, posted)
        answer = await sent
        assert "Carried to Germany's channel as France's" in answer.text, answer.text
        said = await fake.say(
            france, france_channel, f"<@{fake.world.bot.id}> to everyone: Peace in our time"
        )
        await settle(bot, fake)

        def relays(channel: Channel, head: str) -> list[Message]:
            return [m for m in bot_messages(fake, channel) if m.text.startswith(head) and not m.deleted]

        [relay] = relays(germany_channel, "**France** to **Germany**:")
        [copy] = relays(france_channel, "**France** to **Germany**:")
        assert "Bur stays empty" in relay.text and "@everyone" not in relay.text
        for carried in (relay, copy):  # the file itself, posted anew (an attachment's address expires)
            assert [(a.filename, a.data) for a in carried.attachments] == [("plans.png", picture)]
            assert "/attachments/" not in carried.text
        game_channel = await game_channel_of(bot, fake, game_id)
        [public] = relays(game_channel, "**France** to **everyone**:")
        assert not relays(france_channel, "**France** to **everyone**:")  # the original is there already

        fake.backend.edit_message(sent.sent, {"content": "to Germany: Bur is yours, Bel is mine"})
        await fake.flush()
        await settle(bot, fake)
        for posted in (relay, copy):
            assert "Bur is yours, Bel is mine" in posted.text and "(edited)" in posted.text, posted.text
            assert "stays empty" not in posted.text and len(posted.attachments) == 1
        assert germany.id in fake.world.audience(relay) and france.id not in fake.world.audience(relay)

    async with running(fake, tmp_path) as bot:  # the relay's copies are remembered in the database
        fake.backend.edit_message(said, {"content": f"<@{fake.world.bot.id}> to everyone: War!"})
        await fake.flush()
        await settle(bot, fake)
        assert "War!" in public.text and "Peace" not in public.text
        fake.backend.delete_message(sent.sent)
        await fake.flush()
        await settle(bot, fake)
        assert relay.deleted and copy.deleted and not public.deleted
        assert not relays(germany_channel, "**France** to **Germany**:")
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_player_with_closed_dms_is_called_in_their_channel_which_keeps_no_name(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        france = table.players[0]
        await fake.set_dms_open(france, False)
        game_id = await started_game(fake, bot, table, "Closed", players=7, anonymous=True)
        await settle(bot, fake)
        power = table.seats[france.id][0].lower()
        channel = place_named(fake, table.guild, game_id, f"g{game_id}-{power}")
        mentions = [
            m for m in bot_messages(fake, channel) if any(f"<@{france.id}>" in r.text for r in m.revisions)
        ]
        assert mentions, "called by a mention in their channel (their DMs are closed)"
        orders = await fake.dm_bot(france, "A XXX H")  # answered in their channel too
        await settle(bot, fake)
        assert orders.sent and any(
            "got the orders you sent me" in m.text for m in bot_messages(fake, channel)
        )
        named = [m.text for m in fake.channel_messages(channel) if f"<@{france.id}>" in m.text]
        assert named == [], "what a later player of the seat reads names nobody"
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_forming_anonymous_game_s_status_names_only_the_asker(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path):
        game_id = await create_game(fake, table, "Veiled", anonymous=True)
        await join_everyone(fake, table, game_id)
        first, second = table.players[0], table.players[1]
        status = await ask(fake, first, "game", "status", channel=table.general, game=str(game_id))
        assert f"<@{first.id}>" in status.content and f"<@{second.id}>" not in status.content, status.content
        assert "6 other players, not named" in status.content
        outside = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=str(game_id))
        assert not [u for u in table.players if str(u.id) in outside.content], outside.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def _france_talks(fake: FakeDiscord, bot: DiplomacyBot, table: Table, game_id: int) -> Channel:
    """France's player writes in their channel (a note, a talk mentioning the bot), Germany talks to
    France: France's channel."""
    france, germany = table.player("FRANCE"), table.player("GERMANY")
    old = place_named(fake, table.guild, game_id, f"g{game_id}-france")
    await fake.say(france, old, "Note to self: Germany lies")
    await fake.say(france, old, f"<@{fake.world.bot.id}> to Germany: Bur is yours, <@{france.id}> promises")
    await ask(
        fake,
        germany,
        "press",
        channel=table.general,
        game=str(game_id),
        to="France",
        message="Deal, Bel is mine",
    )
    await settle(bot, fake)
    return old


async def _replace_france(fake: FakeDiscord, table: Table, game_id: int) -> User:
    """A moderator gives France's seat to the onlooker, who is returned."""
    told = await mod(
        fake, table.mod, table, "replace", power="FRANCE", player=table.onlooker, game=str(game_id)
    )
    assert "FRANCE" in told.content.upper(), told.content
    return table.onlooker


def _fresh_channel(
    fake: FakeDiscord, table: Table, game_id: int, old: Channel, gone: User, newcomer: User
) -> Channel:
    """France's new channel, once checked: the newcomer reads it, with the old one's words and nobody
    named, and their welcome points to it; the old player reads neither; the moderators keep the old one."""
    new = place_named(fake, table.guild, game_id, f"g{game_id}-france")
    assert new.id != old.id and old.name.endswith("-france-old"), (new.name, old.name)
    assert fake.world.can_view(newcomer.id, new) and not fake.world.can_view(newcomer.id, old)
    assert not fake.world.can_view(gone.id, new) and not fake.world.can_view(gone.id, old)
    assert fake.world.can_view(table.mod.id, old)
    [carried] = [m for m in bot_messages(fake, new) if m.attachments]
    transcript = carried.attachments[0].data.decode()
    assert "Note to self: Germany lies" in transcript and "Bur is yours, a player promises" in transcript
    assert "Deal, Bel is mine" in transcript and "France's player (before)" in transcript
    assert not [n for n in names_of(gone) if n in transcript], transcript
    assert [m for m in fake.world.channel_messages(new.id) if m.author_id != fake.world.bot.id] == []
    welcome = [m for m in fake.dm_messages(newcomer) if "You play France" in m.text]
    assert welcome and f"<#{new.id}>" in welcome[-1].text, [m.text for m in welcome]
    return new


async def test_an_anonymous_power_s_new_player_gets_a_fresh_channel_naming_nobody(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Seats", players=7, anonymous=True)
        gone = table.player("FRANCE")
        old = await _france_talks(fake, bot, table, game_id)
        newcomer = await _replace_france(fake, table, game_id)
        await settle(bot, fake)
        new = _fresh_channel(fake, table, game_id, old, gone, newcomer)
        germany = table.player("GERMANY")
        await ask(
            fake, germany, "press", channel=table.general, game=str(game_id), to="France", message="Welcome"
        )
        await fake.say(newcomer, new, "my own notes")
        await settle(bot, fake)
        assert [m for m in bot_messages(fake, new) if "Welcome" in m.text]  # the power's channel now
        assert not [m for m in fake.world.channel_messages(old.id) if "Welcome" in m.text]
        members = [*[newcomer if u is gone else u for u in table.players], gone]
        found = leaks(fake, table, members, newcomer, utcnow())
        assert found == [], "\n".join(found)
        assert not [m for m in fake.world.channel_messages(new.id) if gone.id in fake.world.audience(m)]
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_restart_in_the_middle_of_a_fresh_channel_finishes_it(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    # The stop below runs out of time on the held call: one second of it, not the default 30.
    async with running(fake, tmp_path, shutdown_timeout=1) as bot:
        game_id = await started_game(fake, bot, table, "Again", players=7, anonymous=True)
        gone = table.player("FRANCE")
        old = await _france_talks(fake, bot, table, game_id)
        held = fake.hold("GET /channels/*/messages")  # the new channel made, its transcript not yet
        newcomer = await _replace_france(fake, table, game_id)
        await asyncio.wait_for(held.reached.wait(), 60)
        assert old.name.endswith("-france-old")  # cut short after the old channel closed
        assert not [
            m for m in fake.world.messages.values() if m.attachments and "before" in m.attachments[0].filename
        ]
    held.release()
    async with running(fake, tmp_path) as bot:
        await settle(bot, fake)
        new = _fresh_channel(fake, table, game_id, old, gone, newcomer)
        prefix = new.name.removesuffix("-france")
        made = sorted(
            c.name for c in fake.guild_channels(table.guild) if c.name.startswith(f"{prefix}-france")
        )
        assert made == sorted([new.name, old.name])  # none made twice
    assert fake.unknown_calls == [] and fake.internal_errors == []
