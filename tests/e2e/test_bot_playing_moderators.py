"""Nobody who holds a power reads a rival's place, whatever their roles: a server moderator who plays
(whose role shows every private channel and, with Manage Threads, every private thread) sees their own
places only while they hold a seat: from the start, after a take-over, until they leave or the game
ends (the talks stay private then too). Who saw each line a rival wrote is Discord's own arithmetic
(the fake's: role overwrites, then member overwrites; the owner and Administrator pass everything).
A member from whom nothing can be hidden is told so when joining, the game channel says so at the
start, and a server's admins may refuse them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness.bot_helpers import (
    ask,
    bot_messages,
    embed_text,
    game_channel_of,
    leaves_game,
    make_table,
    running,
    settle,
    start_game,
)
from harness.fakediscord import FakeDiscord, Permission, UserActionError
from tests.helpers.e2e import click_and_read, mod
from tests.helpers.places import game_with, names_in, places, seats_of, who_saw


@pytest.mark.parametrize("press", ["threads", "channels"])
async def test_a_moderator_who_plays_reads_no_rivals_place_until_the_seat_is_given_up(
    fake: FakeDiscord, tmp_path: Path, press: str
) -> None:
    table = await make_table(fake)
    owner = fake.world.users[table.guild.owner_id]
    judge = await fake.create_user("judge")  # a moderator who plays nowhere
    await fake.add_member(table.guild, judge, table.moderators)
    async with running(fake, tmp_path) as bot:
        playing = [*table.players[:6], table.mod]  # the moderator plays; players[6] does not
        game_id = await game_with(fake, bot, table, playing, press=press)
        seats = await seats_of(bot, game_id)
        user_of = {u.id: u for u in [*playing, judge, owner]}
        mine = {p for p, u in seats.items() if u == table.mod.id}
        power_channels, talks = places(fake, table, game_id)
        assert len(power_channels) == 7 and len(talks) == 21

        for power, channel in sorted(power_channels.items()):
            holder = seats[power]
            author = user_of[holder] if holder is not None else owner
            saw = await who_saw(fake, author, channel, f"{power} thinks aloud")
            if power in mine:
                assert table.mod.id in saw, "their own channel"
            else:
                assert table.mod.id not in saw, f"the playing moderator read {power}'s channel"
                assert saw - {fake.world.bot.id, owner.id, judge.id} == ({holder} if holder else set()), power
        for talk in talks:
            pair = {p for p in seats if p in names_in(talk.name)}
            author = user_of[next(held for p in sorted(pair) if (held := seats[p]) is not None)]
            saw = await who_saw(fake, author, talk, f"secret of {talk.name}")
            if pair & mine:
                assert table.mod.id in saw, f"their own talk {talk.name}"
            else:
                assert table.mod.id not in saw, f"the playing moderator read {talk.name}"
            assert judge.id in saw and owner.id in saw, "a moderator who does not play reads everything"
            assert saw - {fake.world.bot.id, owner.id, judge.id} == {seats[p] for p in pair}, talk.name
        if press == "threads":
            assert all(table.mod.id not in t.thread_members for t in talks if not mine & names_in(t.name))

        # The moderator leaves their seat: until the game ends they read none of its private places,
        # as any player who left. Another moderator, who had joined one rival thread and could read
        # every talk, may take the seat over only once a third moderator approves (not themselves);
        # the game channel says they could read the talks before; they get the shields (and leave
        # that thread).
        rival_talk = next(t for t in talks if not mine & names_in(t.name))
        if press == "threads":
            await fake.add_thread_member(rival_talk, judge)
        gone = await leaves_game(fake, table.mod, table.general, game_id)
        assert gone.startswith("You left")
        await settle(bot, fake)
        assert not any(fake.can_view(table.mod, c) for c in [*power_channels.values(), *talks])
        channel = await game_channel_of(bot, fake, game_id)
        seat = f"seat:{game_id}:{sorted(mine)[0]}"
        [offer] = [m for m in bot_messages(fake, channel) if seat in m.custom_ids()]
        asked = await (await fake.click(judge, offer, seat)).message()
        assert "another moderator decides" in asked.content, asked.content
        await settle(bot, fake)
        approve = f"seat-ok:{game_id}:{sorted(mine)[0]}:{judge.id}"
        [request] = [m for m in bot_messages(fake, channel) if approve in m.custom_ids()]
        assert f"<@{judge.id}> is a moderator: they could read this game's private channels" in embed_text(
            request
        )
        assert fake.can_view(judge, power_channels[sorted(mine)[0]]), "no seat yet"
        power = sorted(mine)[0]
        given = await mod(fake, judge, table, "replace", game=str(game_id), power=power, player=judge)
        assert "another moderator must give you a seat" in given.content, given.content
        itself = await (await fake.click(judge, request, approve)).message()
        assert "another moderator must approve it" in itself.content, itself.content
        approved = await (await fake.click(owner, request, approve)).message()
        assert "Done" in approved.content, approved.content
        await settle(bot, fake)
        told = [
            embed_text(m) for m in bot_messages(fake, channel) if f"<@{judge.id}> now plays" in embed_text(m)
        ]
        assert any("could read this game's private channels and talks before" in t for t in told), told
        for power, channel_ in power_channels.items():
            assert fake.can_view(judge, channel_) == (power in mine), power
        for talk in talks:
            assert fake.can_view(judge, talk) == bool(mine & names_in(talk.name)), talk.name
        assert judge.id not in rival_talk.thread_members, "no membership of a rival's thread"

        # The game ends: the power channels are a moderator's to read again, the talks stay private.
        asked = await mod(fake, table.mod, table, "end", game=str(game_id), reason="time")
        assert (await click_and_read(fake, table.mod, asked, asked.custom_ids()[0])).startswith("Done:")
        await settle(bot, fake)
        assert all(fake.can_view(judge, c) for c in power_channels.values())
        assert all(fake.can_view(table.mod, c) for c in power_channels.values()), "the one who left too"
        assert not any(fake.can_view(table.mod, t) for t in talks)
        for talk in talks:
            assert fake.can_view(judge, talk) == bool(mine & names_in(talk.name)), talk.name
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_member_no_channel_can_be_hidden_from_is_told_so_and_may_be_refused(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    admins = await fake.create_role(table.guild, "Admins", Permission.ADMINISTRATOR)
    admin = await fake.create_user("admin")
    await fake.add_member(table.guild, admin, admins)
    owner = fake.world.users[table.guild.owner_id]
    async with running(fake, tmp_path) as bot:
        created = await ask(
            fake,
            table.players[0],
            "game",
            "create",
            channel=table.general,
            name="Open book",
            players=3,
            press="public",
        )
        game_id = int(created.content.split("#")[1].split()[0])
        joined = await ask(fake, admin, "game", "join", channel=table.general, game=str(game_id))
        assert "You joined" in joined.content
        assert "you can read every channel of this game" in joined.content
        assert "The game channel will say so at the start" in joined.content
        plain = await ask(fake, table.players[1], "game", "join", channel=table.general, game=str(game_id))
        assert "You joined" in plain.content and "every channel" not in plain.content
        await start_game(fake, bot, table, game_id)
        channel = await game_channel_of(bot, fake, game_id)
        [note] = [m for m in bot_messages(fake, channel) if "a note on privacy" in embed_text(m)]
        assert f"<@{admin.id}> could read every channel of this game" in embed_text(note)
        assert f"<@{table.players[1].id}>" not in embed_text(note)

        with pytest.raises(UserActionError):  # the command is for the server's admins
            await fake.slash(
                table.mod, "server", "settings", options={"admins_may_play": False}, channel=table.general
            )
        shown = await ask(fake, owner, "server", "settings", channel=table.general)
        assert "admins_may_play:True" in shown.content
        refused_now = await ask(
            fake, owner, "server", "settings", channel=table.general, admins_may_play=False
        )
        assert refused_now.content.startswith("Done.") and "may not join" in refused_now.content

        second = await ask(
            fake, table.players[0], "game", "create", channel=table.general, name="Closed book", players=3
        )
        other = int(second.content.split("#")[1].split()[0])
        for who in (admin, owner):
            told = await ask(fake, who, "game", "join", channel=table.general, game=str(other))
            assert "can read every channel of this server" in told.content, told.content
            assert "do not let such members play" in told.content and "nothing was changed" in told.content
        fine = await ask(fake, table.players[1], "game", "join", channel=table.general, game=str(other))
        assert "You joined" in fine.content
        status = await bot.services.gamemaster.get_game(other)
        assert {p.user_id for p in status.players} == {table.players[0].id, table.players[1].id}
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_moderator_or_creator_who_plays_sees_and_cancels_their_own_absences_only(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        creator, rival = table.players[0], table.players[1]
        game_id = await game_with(fake, bot, table, [creator, rival, table.mod], press="public")
        game = str(game_id)
        away = await ask(
            fake, rival, "absence", "add", channel=table.general, **{"from": "today", "to": "tomorrow"}
        )
        assert "You declared your absence" in away.content
        listed = await ask(fake, rival, "absence", "list", channel=table.general)
        number = re.search(r"`#(\d+)`", listed.content)
        assert number is not None, listed.content
        mine = await ask(
            fake, table.mod, "absence", "add", channel=table.general, **{"from": "tomorrow", "to": "tomorrow"}
        )
        assert "You declared your absence" in mine.content

        for who in (creator, table.mod):  # the game's creator, a server moderator: both play
            seen = await ask(fake, who, "absence", "list", channel=table.general, game=game)
            assert f"<@{rival.id}>" not in seen.content, "a rival's absence"
            assert "you see your own absences there, as every player does" in seen.content
            refused = await ask(fake, who, "absence", "cancel", channel=table.general, absence=number[1])
            assert "you see and cancel only your own absences there" in refused.content
            assert "Nothing was changed" in refused.content
        own = await ask(fake, table.mod, "absence", "list", channel=table.general, game=game)
        assert f"<@{table.mod.id}>" in own.content

        judge = await fake.create_user("judge")  # a moderator who does not play sees and cancels all
        await fake.add_member(table.guild, judge, table.moderators)
        everyone = await ask(fake, judge, "absence", "list", channel=table.general, game=game)
        assert "Absences in this game:" in everyone.content
        assert f"<@{rival.id}>" in everyone.content and f"<@{table.mod.id}>" in everyone.content
        done = await ask(fake, judge, "absence", "cancel", channel=table.general, absence=number[1])
        assert done.content.startswith("Cancelled:"), done.content
    assert fake.unknown_calls == [] and fake.internal_errors == []
