"""An open seat anyone can take: when a player leaves (or falls into civil disorder) the game channel
offers "Take over"; a member who does not play gets the seat with its channels, a player of the game
or a latecomer is refused, and with approval a moderator who does not play decides."""

from __future__ import annotations

from pathlib import Path

from harness.bot_helpers import (
    Table,
    ask,
    bot_messages,
    deadline_passes,
    embed_text,
    game_channel_of,
    make_table,
    place_named,
    running,
    settle,
    started_game,
)
from harness.fakediscord import FakeDiscord
from harness.fakediscord.state import Message, User, walk_components


async def leave(fake: FakeDiscord, table: Table, power: str, game_id: int) -> User:
    leaver = table.player(power)
    asked = await ask(fake, leaver, "game", "leave", channel=table.general, game=str(game_id))
    gone = await (await fake.click(leaver, asked, f"leave:{game_id}:{leaver.id}:go")).message()
    assert gone.content.startswith("You left")
    return leaver


async def press(fake: FakeDiscord, user: User, message: Message, custom_id: str) -> str:
    return (await (await fake.click(user, message, custom_id)).message()).content


def disabled(message: Message, custom_id: str) -> bool:
    [button] = [c for c in walk_components(message.components) if c.get("custom_id") == custom_id]
    return bool(button.get("disabled"))


async def test_a_member_takes_over_the_seat_of_a_player_who_left(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Seats")
        leaver = await leave(fake, table, "ITALY", game_id)
        await settle(bot, fake)
        channel = await game_channel_of(bot, fake, game_id)
        seat = f"seat:{game_id}:ITALY"
        [offer] = [m for m in bot_messages(fake, channel) if seat in m.custom_ids()]
        assert "the player has left" in embed_text(offer)
        assert (
            "Italy holds in civil disorder until a new player takes the seat: any member of this server who "
            "does not play in the game may take it now with the Take over button." in embed_text(offer)
        )
        assert "moderator finds a replacement" not in embed_text(offer)
        assert not disabled(offer, seat)

        player = table.player("FRANCE")
        refused = await press(fake, player, offer, seat)
        assert "You play France" in refused and "cannot take a second seat" in refused
        back = await press(fake, leaver, offer, seat)
        assert "You play Italy" in back, "the player who left is refused too"

        newcomer = table.onlooker
        taken = await press(fake, newcomer, offer, seat)
        assert taken.startswith("You now play Italy")
        await settle(bot, fake)
        private = place_named(fake, table.guild, game_id, f"g{game_id}-italy")
        assert fake.can_view(newcomer, private) and not fake.can_view(leaver, private)
        threads = [c for c in fake.guild_channels(table.guild) if c.is_thread and "Italy" in c.name]
        assert threads and all(fake.can_view(newcomer, t) for t in threads)
        after = fake.world.message(channel.id, offer.id)
        assert disabled(after, seat), "off once the seat is taken"
        assert f"Seat taken: <@{newcomer.id}> now plays Italy; that seat is no longer open." in embed_text(
            after
        ).replace("**", ""), "the post says what happened"
        said = [embed_text(m) for m in bot_messages(fake, channel)]
        assert any(f"<@{newcomer.id}> takes over Italy, replacing <@{leaver.id}>" in t for t in said)
        welcome = [m for m in fake.dm_messages(newcomer) if "You play Italy" in embed_text(m)]
        assert welcome and "You took over Italy" in embed_text(welcome[0])

        mine = await ask(fake, newcomer, "order", channel=table.general, text="A Ven H")
        assert "A VEN HOLD" in mine.content or "A VEN H" in mine.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_with_approval_a_moderator_who_does_not_play_decides(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Approved", take_over="approval")
        leaver = await leave(fake, table, "ENGLAND", game_id)
        await settle(bot, fake)
        channel = await game_channel_of(bot, fake, game_id)
        seat = f"seat:{game_id}:ENGLAND"
        [offer] = [m for m in bot_messages(fake, channel) if seat in m.custom_ids()]
        newcomer = table.onlooker
        asked = await press(fake, newcomer, offer, seat)
        assert "a moderator will approve or decline it" in asked
        await settle(bot, fake)
        approve = f"seat-ok:{game_id}:ENGLAND:{newcomer.id}"
        [request] = [m for m in bot_messages(fake, channel) if approve in m.custom_ids()]
        assert f"<@{newcomer.id}> asks to take over England" in embed_text(request)
        private = place_named(fake, table.guild, game_id, f"g{game_id}-england")
        assert not fake.can_view(newcomer, private), "nothing changes before a moderator approves"

        creator = table.players[0]  # created the game and plays in it: not its judge
        if creator is not leaver:
            refused = await press(fake, creator, request, approve)
            assert "You play" in refused and "Nothing was changed" in refused
        stranger = next(p for p in table.players[1:] if p is not leaver)
        assert "Only the creator" in await press(fake, stranger, request, approve)
        assert not fake.can_view(newcomer, private)

        done = await press(fake, table.mod, request, approve)
        assert done.startswith("Done:")
        await settle(bot, fake)
        assert fake.can_view(newcomer, private) and not fake.can_view(leaver, private)
        assert disabled(fake.world.message(channel.id, request.id), approve)
        welcome = [m for m in fake.dm_messages(newcomer) if "You play England" in embed_text(m)]
        assert welcome and "approved your request" in embed_text(welcome[0])
        marked = fake.world.message(channel.id, offer.id)
        assert "a moderator who does not play approves" in embed_text(offer)
        assert f"<@{newcomer.id}> now plays England; that seat is no longer open" in embed_text(marked)
        assert disabled(marked, seat)
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_player_back_from_civil_disorder_closes_the_seat_offer_and_the_channel_is_told(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(
            fake, bot, table, "Back", players=3, press="public", civil_disorder_after=1
        )
        channel = await game_channel_of(bot, fake, game_id)
        absent = table.players[2]
        seat = table.seats[absent.id]
        for user in table.players[:2]:
            await ask(fake, user, "ready", channel=table.general)
        await deadline_passes(bot, fake, game_id)
        button = f"seat:{game_id}:{seat[0]}"
        [offer] = [m for m in bot_messages(fake, channel) if button in m.custom_ids()]
        assert "in civil disorder" in embed_text(offer) and not disabled(offer, button)
        assert "in the last movement phase." in embed_text(offer), 'not "for 1 movement phases"'

        answer = await ask(fake, absent, "ready", channel=table.general)
        assert "You are ready" in answer.content
        await settle(bot, fake)
        named = [p.capitalize() for p in sorted(seat)]
        names = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
        back = f"<@{absent.id}> is back and plays {names} again"

        def told() -> str | None:
            said = [embed_text(m) for m in bot_messages(fake, channel)]
            return next((t for t in said if back in t), None)

        assert "the seat is no longer open" in await fake.wait_for(told, what="the player's return")
        after = await fake.wait_for(
            lambda: m if disabled(m := fake.world.message(channel.id, offer.id), button) else None,
            what="the offer's button off",
        )
        assert f"Player back: <@{absent.id}> plays {names} again; that seat is no longer open." in embed_text(
            after
        ).replace("**", "")
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_in_an_anonymous_game_the_request_s_buttons_name_the_request_not_who_asked(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Masked", take_over="approval", anonymous=True)
        leaver = await leave(fake, table, "ENGLAND", game_id)
        await settle(bot, fake)
        channel = await game_channel_of(bot, fake, game_id)
        seat = f"seat:{game_id}:ENGLAND"
        [offer] = [m for m in bot_messages(fake, channel) if seat in m.custom_ids()]
        newcomer = table.onlooker
        assert "a moderator will approve or decline it" in await press(fake, newcomer, offer, seat)
        await settle(bot, fake)
        [request] = [
            m for m in bot_messages(fake, channel) if any(c.startswith("seat-ok:") for c in m.custom_ids())
        ]
        [approve] = [c for c in request.custom_ids() if c.startswith("seat-ok:")]
        assert str(newcomer.id) not in approve and str(newcomer.id) not in fake.text_view(request)
        assert str(newcomer.id) not in " ".join(request.custom_ids()) + embed_text(request)

        done = await press(fake, table.mod, request, approve)
        assert done.startswith("Done:"), done
        await settle(bot, fake)
        private = place_named(fake, table.guild, game_id, f"g{game_id}-england")
        assert fake.can_view(newcomer, private) and not fake.can_view(leaver, private)
        marked = fake.world.message(channel.id, offer.id)
        assert str(newcomer.id) not in embed_text(marked) + " ".join(marked.custom_ids())
    assert fake.unknown_calls == [] and fake.internal_errors == []
