"""Built-in players through the real bot and the fake Discord: one person against six built-in players
from /game create to the final post, a friend taking over one of their seats, and a seat moving from
a person to the built-in player (a moderator's /mod builtin, a player who leaves) and back to a
person (the Take over button, a player who sends orders again)."""

from __future__ import annotations

from pathlib import Path

from harness.bot_helpers import (
    ask,
    bot_messages,
    current_phase,
    deadline_passes,
    embed_text,
    embeds_titled,
    game_channel_of,
    leaves_game,
    make_table,
    place_named,
    running,
    settle,
    started_game,
)
from harness.fakediscord import FakeDiscord
from harness.fakediscord.state import Channel, Message, User, walk_components
from tests.helpers.e2e import started_against_built_in_players

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


async def press(fake: FakeDiscord, user: User, message: Message, custom_id: str) -> str:
    return (await (await fake.click(user, message, custom_id)).message()).content


def orders_posts(fake: FakeDiscord, channel: Channel) -> list[str]:
    """The texts of the results' order lists in the game channel, oldest first."""
    return [
        m.content for m in bot_messages(fake, channel) if (m.content or "").startswith("**Orders and results")
    ]


async def test_one_person_plays_a_whole_game_against_six_built_in_players(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=1)
    [me] = table.players
    async with running(fake, tmp_path) as bot:
        game_id, mine, channel, post = await started_against_built_in_players(
            fake, bot, table, "Practice", last_year=1902
        )
        robots = [p for p in POWERS if p != mine]

        told = embed_text(post)
        assert f"{mine.title()}: <@{me.id}>" in told
        assert all(f"{p.title()}: built-in player" in told for p in robots)
        assert len([c for c in post.custom_ids() if c.startswith(f"seat:{game_id}:")]) == 6  # Take over
        assert "with each other power" not in told and "so there are no private talks in this game" in told
        robot_channel = place_named(fake, table.guild, game_id, f"g{game_id}-{robots[0].lower()}")
        assert not fake.can_view(me, robot_channel)
        intro = bot_messages(fake, robot_channel)[0].content
        assert "the built-in player gives its orders" in intro
        assert not [c for c in fake.guild_channels(table.guild) if c.is_thread], (
            "nobody to talk to in private"
        )

        status = await ask(fake, me, "game", "status", channel=table.general, game=str(game_id))
        assert f"- {robots[0].title()}: " in status.content
        assert status.content.count("played by the built-in player (normal), ready ✅") == 6
        listed = await ask(fake, me, "game", "list", channel=table.general)
        assert "built-in players (normal): " in listed.content, listed.content

        # the person says ready at every phase; the built-in players never keep anyone waiting
        for _ in range(12):
            phase = await current_phase(bot, game_id)
            if phase.status != "open":
                break
            await ask(fake, me, "ready", channel=table.general, game=str(game_id))
            await settle(bot, fake)
        finals = embeds_titled(fake, channel, "Practice is over")
        assert finals, [embed_text(m)[:80] for m in bot_messages(fake, channel)]
        final = embed_text(finals[0])
        assert "The built-in player played " in final and " to the end; " in final
        said = next(line for line in final.splitlines() if "The built-in player" in line)
        assert all(said.count(p.title()) == 1 for p in robots), f"each power named once: {said}"
        assert "the server's records credit their results to no one" in final

        results = orders_posts(fake, channel)
        assert len(results) >= 4  # the four phases of 1901 and 1902 at least
        assert all(f"**{p.title()}** (built-in player)" in results[0] for p in robots)
        assert f"**{mine.title()}** (built-in player)" not in results[0]
        assert "invalid" not in " ".join(results)

        stats = await ask(fake, me, "stats", channel=table.general)
        assert "1 with built-in players" in stats.content and f"<@{me.id}>" in stats.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_friend_takes_over_a_seat_the_built_in_player_had_from_the_start(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=2)
    me, friend = table.players
    async with running(fake, tmp_path) as bot:
        game_id, mine, channel, post = await started_against_built_in_players(fake, bot, table, "Later")
        robot = next(p for p in POWERS if p != mine)
        seat = f"seat:{game_id}:{robot}"
        taken = await press(fake, friend, post, seat)
        assert taken.startswith(f"You now play {robot.title()}"), taken
        await settle(bot, fake)
        said = [embed_text(m) for m in bot_messages(fake, channel)]
        assert any(
            f"<@{friend.id}> takes over {robot.title()}, replacing the built-in player." in t for t in said
        )
        private = place_named(fake, table.guild, game_id, f"g{game_id}-{robot.lower()}")
        assert fake.can_view(friend, private)
        marked = fake.world.message(channel.id, post.id)  # the start's post offered the seat
        assert f"<@{friend.id}> now plays {robot.title()}; that seat is no longer open" in embed_text(marked)
        offered = {
            c["custom_id"]: bool(c.get("disabled"))
            for c in walk_components(marked.components)
            if "custom_id" in c
        }
        assert offered[seat] and not any(d for c, d in offered.items() if c.startswith("seat:") and c != seat)
        status = await ask(fake, me, "game", "status", channel=table.general, game=str(game_id))
        assert f"- {robot.title()} <@{friend.id}>: " in status.content
        assert status.content.count("played by the built-in player") == 5

        # the friend now owes orders: the phase waits for them as for any player
        await ask(fake, me, "ready", channel=table.general, game=str(game_id))
        await settle(bot, fake)
        assert (await current_phase(bot, game_id)).name == "S1901M"
        await ask(fake, friend, "ready", channel=table.general, game=str(game_id))
        await settle(bot, fake)
        assert (await current_phase(bot, game_id)).name == "F1901M"
        [results] = orders_posts(fake, channel)
        assert f"**{robot.title()}** (built-in player)" not in results
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_seat_goes_from_a_person_to_the_built_in_player_and_back(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Both ways", absent_seats="built_in")
        game = str(game_id)
        channel = await game_channel_of(bot, fake, game_id)
        england, italy = table.player("ENGLAND"), table.player("ITALY")

        # person -> built-in player: a moderator who does not play gives England's seat to it
        given = await ask(
            fake, table.mod, "mod", "builtin", channel=table.general, power="England", state="on", game=game
        )
        assert "gave England to the built-in player" in given.content, given.content
        await settle(bot, fake)
        [offer] = embeds_titled(fake, channel, "The built-in player plays England")
        assert f"seat:{game_id}:ENGLAND" in offer.custom_ids()
        assert any(
            "the built-in player plays England for you" in embed_text(m) for m in fake.dm_messages(england)
        )
        # ... and a player who leaves: the game's setting gives Italy to it too
        await leaves_game(fake, italy, table.general, int(game))
        await settle(bot, fake)
        assert any(
            "The built-in player plays Italy from now on" in embed_text(m)
            for m in bot_messages(fake, channel)
        )
        status = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=game)
        assert status.content.count("played by the built-in player") == 2

        for user in table.players:
            if user not in (england, italy):
                await ask(fake, user, "ready", channel=table.general, game=game)
        await settle(bot, fake)  # everyone else ready: the built-in seats do not hold the phase up
        assert (await current_phase(bot, game_id)).name == "F1901M"
        [spring] = orders_posts(fake, channel)
        assert "**England** (built-in player)" in spring and "**Italy** (built-in player)" in spring

        # built-in player -> person: a member takes England over, and England's player is out
        taken = await press(fake, table.onlooker, offer, f"seat:{game_id}:ENGLAND")
        assert taken.startswith("You now play England"), taken
        await settle(bot, fake)
        private = place_named(fake, table.guild, game_id, f"g{game_id}-england")
        assert fake.can_view(table.onlooker, private) and not fake.can_view(england, private)
        # ... and Italy's player? They left: the seat stays the built-in player's until someone takes it
        await deadline_passes(bot, fake, game_id)
        fall = orders_posts(fake, channel)[-1]
        assert "**England** (built-in player)" not in fall and "**Italy** (built-in player)" in fall
        status = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=game)
        assert f"England <@{table.onlooker.id}>" in status.content
        assert status.content.count("played by the built-in player") == 1
        log = status.content[status.content.index("Moderation") :]
        assert "gave England to the built-in player" in log
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_player_in_civil_disorder_comes_back_from_the_built_in_player_by_sending_orders(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(
            fake, bot, table, "Return", absent_seats="built_in", civil_disorder_after=1
        )
        game = str(game_id)
        channel = await game_channel_of(bot, fake, game_id)
        france = table.player("FRANCE")
        for user in table.players:
            if user is not france:
                await ask(fake, user, "ready", channel=table.general, game=game)
        await deadline_passes(bot, fake, game_id)  # France sent nothing: civil disorder, built-in player
        said = " ".join(embed_text(m) for m in bot_messages(fake, channel))
        assert "France: the built-in player gives their orders from now on" in said
        for user in table.players:
            if user is not france:
                await ask(fake, user, "ready", channel=table.general, game=game)
        await settle(bot, fake)
        assert (await current_phase(bot, game_id)).name != "F1901M", "France did not hold the phase up"
        assert "**France** (built-in player)" in orders_posts(fake, channel)[-1]

        phase = await current_phase(bot, game_id)
        while not phase.name.endswith("M"):  # a winter France may have nothing to do in
            await deadline_passes(bot, fake, game_id)
            phase = await current_phase(bot, game_id)
        unit = phase.board["units"]["FRANCE"][0]
        back = await ask(fake, france, "order", channel=table.general, game=game, text=f"{unit} H")
        assert "✅" in back.content, back.content
        await deadline_passes(bot, fake, game_id)
        last = orders_posts(fake, channel)[-1]
        assert "**France** (built-in player)" not in last and f"`{unit} H`" in last
    assert fake.unknown_calls == [] and fake.internal_errors == []
