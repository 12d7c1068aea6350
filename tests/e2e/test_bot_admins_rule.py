"""A server whose admins say that members who can read every channel may not play (``/server settings
admins_may_play:False``) gives such a member no seat by any way: a game they create is made without
them (and they are told), a start is refused while a player given Administrator after joining is in
it, a built-in seat is not handed to them. A player given the moderators' role or Administrator while
seated is announced in the game channel, and the moderators' role shows them no rival's place."""

from __future__ import annotations

from pathlib import Path

from harness.bot_helpers import (
    ask,
    bot_messages,
    embed_text,
    game_channel_of,
    make_table,
    running,
    settle,
    start_game,
)
from harness.fakediscord import FakeDiscord, Permission
from tests.helpers.places import places, seats_of


async def test_members_who_read_everything_get_no_seat_by_any_way_when_the_server_says_so(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=4)
    admins = await fake.create_role(table.guild, "Admins", Permission.ADMINISTRATOR)
    admin = await fake.create_user("admin")
    await fake.add_member(table.guild, admin, admins)
    owner = fake.world.users[table.guild.owner_id]
    async with running(fake, tmp_path) as bot:
        games = bot.services.gamemaster
        refused = await ask(fake, owner, "server", "settings", channel=table.general, admins_may_play=False)
        assert refused.content.startswith("Done."), refused.content

        # /game create: the game is made, without its creator in it, and the creator is told why
        created = await ask(
            fake, admin, "game", "create", channel=table.general, name="Admins table", players=3
        )
        assert "without a seat in it" in created.content, created.content
        assert "do not let such members play" in created.content and "joined it" not in created.content
        admins_game = int(created.content.split("#")[1].split()[0])
        assert (await games.get_game(admins_game)).players == ()
        joined = await ask(
            fake, table.players[3], "game", "join", channel=table.general, game=str(admins_game)
        )
        assert "You joined" in joined.content, "the others may join it"

        # the start: a player given Administrator after joining keeps the game from starting
        made = await ask(
            fake, table.players[0], "game", "create", channel=table.general, name="Late admin", players=3
        )
        game_id = int(made.content.split("#")[1].split()[0])
        for user in table.players[1:3]:
            joined = await ask(fake, user, "game", "join", channel=table.general, game=str(game_id))
            assert "You joined" in joined.content, joined.content
        promoted = table.players[2]
        await fake.set_roles(table.guild, promoted, admins)
        started = await ask(fake, table.players[0], "game", "start", channel=table.general, game=str(game_id))
        assert f"<@{promoted.id}> can read every channel of this server" in started.content, started.content
        assert "Nothing was changed" in started.content
        assert (await games.get_game(game_id)).status == "forming"
        await fake.set_roles(table.guild, promoted)  # Administrator taken back: the game starts
        await start_game(fake, bot, table, game_id)
        assert (await games.get_game(game_id)).status == "active"

        # /mod replace of a seat the built-in player holds
        robot_game = await ask(
            fake,
            table.players[3],
            "game",
            "create",
            channel=table.general,
            name="Robots",
            players=3,
            fill_seats=True,
            press="public",
        )
        robots = int(robot_game.content.split("#")[1].split()[0])
        await ask(fake, table.players[3], "game", "start", channel=table.general, game=str(robots))
        await settle(bot, fake)
        seats = await seats_of(bot, robots)
        robot_power = next(p for p, u in sorted(seats.items()) if u is None)
        told = await ask(
            fake,
            table.mod,
            "mod",
            "replace",
            channel=table.general,
            game=str(robots),
            power=robot_power,
            player=admin,
        )
        assert "do not let such members play" in told.content, told.content
        assert (await seats_of(bot, robots))[robot_power] is None
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_seated_player_given_a_moderators_role_or_administrator_is_announced_and_stays_shielded(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    admins = await fake.create_role(table.guild, "Admins", Permission.ADMINISTRATOR)
    async with running(fake, tmp_path) as bot:
        made = await ask(
            fake, table.players[0], "game", "create", channel=table.general, name="Promotions", players=3
        )
        game_id = int(made.content.split("#")[1].split()[0])
        for user in table.players[1:]:
            await ask(fake, user, "game", "join", channel=table.general, game=str(game_id))
        await start_game(fake, bot, table, game_id)
        seats = await seats_of(bot, game_id)
        power_channels, talks = places(fake, table, game_id)
        channel = await game_channel_of(bot, fake, game_id)

        moderator, admin = table.players[1], table.players[2]
        await fake.set_roles(table.guild, moderator, table.moderators)
        await fake.set_roles(table.guild, table.onlooker, table.moderators)  # plays nowhere: nothing said
        await settle(bot, fake)
        notes = [embed_text(m) for m in bot_messages(fake, channel) if "a note on privacy" in embed_text(m)]
        assert len(notes) == 1, notes
        assert f"<@{moderator.id}>, who plays in this game, was given the moderators' role" in notes[0]
        assert "the rivals' places stay hidden from them" in notes[0]
        for power, place in power_channels.items():
            assert fake.can_view(moderator, place) == (seats[power] == moderator.id), power
            assert fake.can_view(table.onlooker, place), "a moderator who does not play reads it"
        for talk in talks:
            assert moderator.id not in talk.thread_members or any(
                seats[p] == moderator.id for p in power_channels if p.lower() in talk.name.lower()
            )

        await fake.set_roles(table.guild, admin, admins)
        await settle(bot, fake)
        notes = [embed_text(m) for m in bot_messages(fake, channel) if "a note on privacy" in embed_text(m)]
        assert len(notes) == 2, notes
        assert f"<@{admin.id}>, who plays in this game, can now read every channel" in notes[1]
        assert "do not let" not in notes[1], "this server lets them play"
    assert fake.unknown_calls == [] and fake.internal_errors == []
