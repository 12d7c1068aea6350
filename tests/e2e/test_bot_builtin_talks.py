"""Built-in players and private talks, through the real bot and the fake Discord.

- A person who takes over a seat the built-in player held from the start gets its private talks with
  every other person (threads, or pair channels), as the start makes them: read by the pair only, a
  moderator who plays included among the others (who saw each line is the fake's permission
  arithmetic); when Discord's thread limit is reached, the newcomer is told why instead.
- A seat that goes from a person to the built-in player, and back, says so in each of its pair
  places: who saw each line is checked.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot import DiplomacyBot
from harness.bot_helpers import (
    ask,
    bot_messages,
    create_game,
    current_phase,
    embeds_titled,
    game_channel_of,
    leaves_game,
    make_table,
    place_named,
    running,
    settle,
    started_game,
)
from harness.fakediscord import Channel, FakeDiscord, Message, User
from tests.helpers.e2e import started_against_built_in_players
from tests.helpers.places import names_in, places, seats_of, who_saw

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


async def take_over(
    fake: FakeDiscord, bot: DiplomacyBot, user: User, post: Message, game_id: int, power: str
) -> None:
    taken = await (await fake.click(user, post, f"seat:{game_id}:{power}")).message()
    assert taken.content.startswith(f"You now play {power.title()}"), taken.content
    await settle(bot, fake)


def pair_users(talk: Channel, seats: dict[str, int | None]) -> set[int]:
    return {u for p, u in seats.items() if p in names_in(talk.name) and u is not None}


@pytest.mark.parametrize("press", ["threads", "channels"])
async def test_a_person_who_takes_over_a_seat_filled_at_the_start_gets_its_private_talks(
    fake: FakeDiscord, tmp_path: Path, press: str
) -> None:
    table = await make_table(fake, players=2)
    me, friend = table.players
    owner = fake.world.users[table.guild.owner_id]
    judge = await fake.create_user("judge")  # a moderator who plays nowhere
    await fake.add_member(table.guild, judge, table.moderators)
    async with running(fake, tmp_path) as bot:
        game_id, mine, _, post = await started_against_built_in_players(
            fake, bot, table, "Later", press=press
        )
        robots = [p for p in POWERS if p != mine]
        assert places(fake, table, game_id)[1] == [], "one person: nobody to talk with"

        # a server moderator plays: they could read the talks, so another moderator approves
        asked = await (await fake.click(table.mod, post, f"seat:{game_id}:{robots[0]}")).message()
        assert "another moderator decides" in asked.content, asked.content
        await settle(bot, fake)
        approve = f"seat-ok:{game_id}:{robots[0]}:{table.mod.id}"
        channel = await game_channel_of(bot, fake, game_id)
        [request] = [m for m in bot_messages(fake, channel) if approve in m.custom_ids()]
        approved = await (await fake.click(judge, request, approve)).message()
        assert "Done" in approved.content, approved.content
        await settle(bot, fake)
        _, talks = places(fake, table, game_id)
        assert len(talks) == 1
        await take_over(fake, bot, friend, post, game_id, robots[1])
        seats = await seats_of(bot, game_id)
        _, talks = places(fake, table, game_id)
        assert len(talks) == 3, [t.name for t in talks]  # one per pair of the three people
        user_of = {u.id: u for u in (me, friend, table.mod)}
        for talk in talks:
            pair = pair_users(talk, seats)
            assert len(pair) == 2, talk.name
            intro = bot_messages(fake, talk)[0].content
            assert intro.startswith("Private talks between") and all(f"<@{u}>" in intro for u in pair), intro
            author = user_of[min(pair)]
            saw = await who_saw(fake, author, talk, f"between us in {talk.name}")
            assert saw - {fake.world.bot.id, owner.id, judge.id} == pair, talk.name  # the pair only
            assert judge.id in saw, "a moderator who does not play reads every talk, as at the start"
            for user in (me, friend, table.mod):
                assert fake.can_view(user, talk) == (user.id in pair), (user.username, talk.name)
        rival = next(t for t in talks if table.mod.id not in pair_users(t, seats))
        if press == "threads":
            assert table.mod.id not in rival.thread_members
        friend_channel = place_named(fake, table.guild, game_id, f"g{game_id}-{robots[1].lower()}")
        assert fake.can_view(friend, friend_channel) and not fake.can_view(table.mod, friend_channel)
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_when_discord_has_no_room_for_the_threads_the_newcomer_is_told(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    me, other, friend = table.players
    async with running(fake, tmp_path) as bot:
        game_id = await create_game(fake, table, "Crowded", fill_seats=True)
        await ask(fake, other, "game", "join", channel=table.general, game=str(game_id))
        await ask(fake, me, "game", "start", channel=table.general, game=str(game_id))
        await settle(bot, fake)
        seats = await seats_of(bot, game_id)
        robot = next(p for p, u in seats.items() if u is None)
        channel = await game_channel_of(bot, fake, game_id)
        [post] = embeds_titled(fake, channel, "Crowded has started")
        active = [c for c in fake.guild_channels(table.guild) if c.is_thread and not c.archived]
        fake.world.limits.active_threads = len(active)  # the server is full of threads

        await take_over(fake, bot, friend, post, game_id, robot)
        said = [m.content for m in bot_messages(fake, channel)] + [
            " ".join(e.get("description", "") for e in m.embeds) for m in bot_messages(fake, channel)
        ]
        assert any(f"<@{friend.id}> takes over {robot.title()}" in t for t in said), "the seat is theirs"
        own = place_named(fake, table.guild, game_id, f"g{game_id}-{robot.lower()}")
        [note] = [m for m in bot_messages(fake, own) if "could not open your private talks" in m.content]
        assert f"<@{friend.id}>" in note.content and "active threads" in note.content, note.content
        assert set(note.revisions[0].audience) - {fake.world.bot.id, table.guild.owner_id, table.mod.id} == {
            friend.id
        }
        _, talks = places(fake, table, game_id)
        assert all(friend.id not in pair_users(t, seats) for t in talks)
    assert fake.unknown_calls == [] and fake.internal_errors == []


def lines_in(fake: FakeDiscord, talk: Channel, words: str) -> list:
    return [m for m in bot_messages(fake, talk) if words in (m.content or "")]


async def test_a_seats_talks_say_when_the_built_in_player_takes_it_and_when_a_person_takes_it_back(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    bot_id, owner, mod = fake.world.bot.id, table.guild.owner_id, table.mod.id  # mod plays nowhere here
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Seats", absent_seats="built_in")
        game = str(game_id)
        seats = await seats_of(bot, game_id)
        _, talks = places(fake, table, game_id)
        italy, england = table.player("ITALY"), table.player("ENGLAND")
        italy_talks = [t for t in talks if "ITALY" in names_in(t.name)]
        assert len(italy_talks) == 6

        # Italy's player leaves: the built-in player plays Italy, nobody reads on Italy's side
        await leaves_game(fake, italy, table.general, int(game))
        await settle(bot, fake)
        for talk in italy_talks:
            [line] = lines_in(fake, talk, "Italy is now played by the built-in player")
            assert "Nobody reads this on Italy's side any more" in line.content
            other = pair_users(talk, seats) - {italy.id}
            assert set(line.revisions[0].audience) == other | {bot_id, owner, mod}, talk.name
        others = [t for t in talks if t not in italy_talks]
        assert not any(lines_in(fake, t, "built-in player") for t in others), "other seats' talks: nothing"

        # the onlooker takes Italy over: each of its talks says so, and the onlooker reads it
        channel = await game_channel_of(bot, fake, game_id)
        [offer] = [m for m in bot_messages(fake, channel) if f"seat:{game_id}:ITALY" in m.custom_ids()]
        await take_over(fake, bot, table.onlooker, offer, game_id, "ITALY")
        for talk in italy_talks:
            [line] = lines_in(fake, talk, "now plays Italy, taking the seat over from the built-in player")
            assert line.content.startswith(f"<@{table.onlooker.id}>")
            other = pair_users(talk, seats) - {italy.id}
            assert set(line.revisions[0].audience) == other | {table.onlooker.id, bot_id, owner, mod}
            assert italy.id not in set(line.revisions[0].audience)

        # a moderator gives England to the built-in player: its player is away but still reads
        given = await ask(
            fake, table.mod, "mod", "builtin", channel=table.general, power="England", state="on", game=game
        )
        assert "gave England to the built-in player" in given.content, given.content
        await settle(bot, fake)
        england_talks = [t for t in talks if "ENGLAND" in names_in(t.name)]
        for talk in england_talks:
            [line] = lines_in(fake, talk, "England is now played by the built-in player while")
            assert (
                f"<@{england.id}> is away" in line.content
                and "can still read this and take the seat back by sending orders" in line.content
            )
            assert england.id in set(line.revisions[0].audience)
        # ... and England's player comes back by sending orders
        phase = await current_phase(bot, game_id)
        unit = phase.board["units"]["ENGLAND"][0]
        back = await ask(fake, england, "order", channel=table.general, game=game, text=f"{unit} H")
        assert "✅" in back.content, back.content
        await settle(bot, fake)
        for talk in england_talks:
            [line] = lines_in(fake, talk, "plays England again")
            assert line.content == f"<@{england.id}> plays England again: the built-in player no longer does."
            assert set(line.revisions[0].audience) >= pair_users(talk, await seats_of(bot, game_id))
        assert not re.search(
            r"\[\[|\]\]", " ".join(m.content or "" for t in talks for m in bot_messages(fake, t))
        )
    assert fake.unknown_calls == [] and fake.internal_errors == []
