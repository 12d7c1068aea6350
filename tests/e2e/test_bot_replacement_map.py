"""A newcomer's welcome to a seat (a moderator's replacement) carries the current position's map, as
the start's welcome carries the opening one: one message, their words and the map; under the fog of
war, their power's own view. Read as the newcomer receives it."""

from __future__ import annotations

from pathlib import Path

from harness.bot_helpers import (
    ask,
    game_channel_of,
    make_table,
    moderator_closes,
    running,
    settle,
    started_game,
)
from harness.fakediscord import FakeDiscord, Message, User
from tests.e2e.test_bot_welcome_map import fill, galleries, picture, veiled
from tests.helpers.e2e import mod


def seat_welcome(fake: FakeDiscord, user: User) -> Message:
    """The newcomer's one welcome: the bot's direct message that says what they play now."""
    found = [m for m in fake.dm_messages(user) if m.author_id == fake.world.bot.id and "You play" in m.text]
    assert len(found) == 1, f"{len(found)} welcomes in {user.username}'s DMs"
    return found[0]


async def replaced_after_spring(fake: FakeDiscord, tmp_path: Path, name: str, **options: object) -> Message:
    """France moves to Burgundy in Spring 1901; in the Fall a moderator gives France to an onlooker:
    the onlooker's welcome."""
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, name, **options)
        france = table.player("FRANCE")
        answer = await ask(fake, france, "order", channel=table.general, text="A Par-Bur")
        assert "✅" in answer.content
        channel = await game_channel_of(bot, fake, game_id)
        await moderator_closes(fake, table.mod, channel, game_id)
        await settle(bot, fake)
        done = await mod(
            fake, table.mod, table, "replace", power="FRANCE", player=table.onlooker, game=str(game_id)
        )
        assert f"<@{table.onlooker.id}> now plays France" in done.content
        await settle(bot, fake)
        call = seat_welcome(fake, table.onlooker)
        dms = [m for m in fake.dm_messages(table.onlooker) if m.author_id == fake.world.bot.id]
        assert [m for m in dms if m.attachments] == [call], "the map in the welcome, no other message"
        assert "You play France in" in fake.text_view(call) and "Fall 1901" in fake.text_view(call)
    assert fake.unknown_calls == [] and fake.internal_errors == []
    return call


async def test_a_replacements_welcome_shows_the_current_position(fake: FakeDiscord, tmp_path: Path) -> None:
    call = await replaced_after_spring(fake, tmp_path, "Handed over")
    assert galleries(call) == [["attachment://F1901M-position.png"]], "the Fall's position, in the message"
    img = picture(call, "F1901M-position.png")
    assert img.width == 1600, "the map as the game channel gets it"
    assert (fill(img, "PAR"), fill(img, "MOS"), fill(img, "BEL")) == ("FRANCE", "RUSSIA", "land")


async def test_under_the_fog_a_replacements_welcome_shows_the_seats_own_view(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    call = await replaced_after_spring(fake, tmp_path, "Foggy handover", players=7, fog="silent")
    name = "F1901M-pos-FRANCE.png"
    assert list(call.files()) == [name], "France's own view, nobody else's"
    assert galleries(call) == [[f"attachment://{name}"]]
    img = picture(call, name)
    assert fill(img, "PAR") == "FRANCE" and not veiled(img, "BUR"), "France's army in Burgundy sees it"
    assert veiled(img, "MOS"), "Moscow is far from France: under the veil"
