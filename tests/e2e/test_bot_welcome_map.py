"""The welcome by direct message (the first phase's call to order) carries the opening map: one
message with the player's words, the map and their order sheet, the map still there after the sheet's
taps redraw it; under the fog of war, the player's own view of it. Read as the player receives it."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from PIL import Image

from harness.bot_helpers import make_table, running, started_game
from harness.fakediscord import FakeDiscord, Message, User
from harness.fakediscord.state import walk_components
from harness.sheet_helpers import Tapper
from tests.render.pixels import STANDARD, fill_at, nearest, quiet_point, rgb_at, to_px


def welcome(fake: FakeDiscord, user: User) -> Message:
    """The player's one welcome: the bot's direct message that says what they play."""
    found = [m for m in fake.dm_messages(user) if m.author_id == fake.world.bot.id and "You play" in m.text]
    assert len(found) == 1, f"{len(found)} welcomes in {user.username}'s DMs"
    return found[0]


def galleries(message: Message) -> list[list[str]]:
    """The pictures each media gallery of a Components V2 message shows, by URL."""
    return [
        [item["media"]["url"] for item in c.get("items", [])]
        for c in walk_components(message.components)
        if c.get("type") == 12
    ]


def picture(message: Message, filename: str) -> Image.Image:
    assert filename in message.files(), f"{filename} not attached: {list(message.files())}"
    return Image.open(io.BytesIO(message.files()[filename])).convert("RGB")


def fill(img: Image.Image, code: str) -> str:
    return fill_at(img, code, img.width)


def veiled(img: Image.Image, code: str) -> bool:
    """Whether the province is under the fog's veil: its fill is no plain land or power colour."""
    colour = rgb_at(img, to_px(quiet_point(code), img.width))
    candidates: dict[str, Any] = {"land": STANDARD.land} | {p: c.fill for p, c in STANDARD.powers.items()}
    best = nearest(colour, candidates)
    return sum(abs(a - b) for a, b in zip(colour, candidates[best], strict=True)) > 40


async def test_the_welcome_is_one_message_with_the_opening_map_above_the_sheet(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        await started_game(fake, bot, table, "Welcomes")
        france = table.player("FRANCE")
        dms = [m for m in fake.dm_messages(france) if m.author_id == fake.world.bot.id]
        call = welcome(fake, france)
        # (the creator was also told the game was full, before it started)
        assert dms[dms.index(call) :] == [call], "words, map and sheet in one message: nothing after it"
        assert [m for m in dms if m.attachments or m.components] == [call], "no other picture or sheet"
        assert "You play France in Welcomes" in fake.text_view(call)
        assert galleries(call) == [["attachment://S1901M-position.png"]], "the map shown in the message"
        img = picture(call, "S1901M-position.png")
        assert img.width == 1600, "the map as the game channel gets it"
        assert (fill(img, "PAR"), fill(img, "MOS"), fill(img, "BEL")) == ("FRANCE", "RUSSIA", "land")
        assert any(":S1901M:" in c for c in call.custom_ids()), "its order sheet under it"

        sheet = await Tapper(fake).pick(france, call, "PAR", "A PAR - BUR")
        assert sheet.id == call.id and "✅ `A PAR - BUR`" in fake.text_view(sheet)
        assert galleries(sheet) == [["attachment://S1901M-position.png"]], "a tap's redraw keeps the map"
        assert "S1901M-position.png" in sheet.files()
        for user in table.players:  # every player's welcome has it
            assert galleries(welcome(fake, user)) == [["attachment://S1901M-position.png"]], user.username
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_under_the_fog_the_welcome_shows_the_players_own_view(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        await started_game(fake, bot, table, "Foggy welcomes", players=7, fog="silent")
        for power, home, far in (("FRANCE", "PAR", "MOS"), ("RUSSIA", "MOS", "PAR")):
            user = table.player(power)
            call = welcome(fake, user)
            name = f"S1901M-pos-{power}.png"
            assert list(call.files()) == [name], "the player's own view, nobody else's"
            assert galleries(call) == [[f"attachment://{name}"]]
            img = picture(call, name)
            assert fill(img, home) == power and not veiled(img, home), "its own home in its colour"
            assert veiled(img, far), f"{far} is far from {power}: under the veil"
    assert fake.unknown_calls == [] and fake.internal_errors == []
