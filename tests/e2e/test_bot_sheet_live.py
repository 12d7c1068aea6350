"""The order sheet in a direct message kept up to date (cogs.ui.sheet_live): orders changed another
way (/order, a private sheet, orders sent by direct message, Ready) show on it within about 10 s, a burst
of changes costs one edit, a tap on it costs no edit more, and no player's sheet shows another's
orders or moves when another player orders."""

from __future__ import annotations

from pathlib import Path

from harness.bot_helpers import ask, deadline_passes, make_table, running, started_game
from harness.fakediscord import FakeDiscord, Message, User
from harness.fakediscord.state import walk_components
from harness.sheet_helpers import Tapper, shows


def dm_sheet(fake: FakeDiscord, user: User, phase: str) -> Message:
    found = [m for m in fake.dm_messages(user) if any(f":{phase}:{user.id}:" in c for c in m.custom_ids())]
    assert len(found) == 1, f"{len(found)} sheets for {phase} in {user.username}'s DMs"
    return found[0]


def pictures(message: Message) -> list[str]:
    """The pictures the message's media galleries show, by URL."""
    galleries = [c for c in walk_components(message.components) if c.get("type") == 12]
    return [item["media"]["url"] for c in galleries for item in c.get("items", [])]


async def edited(fake: FakeDiscord, message: Message, past: int, what: str) -> int:
    """Wait until ``message`` has more than ``past`` revisions; how many it has."""
    return int(
        await fake.wait_for(
            lambda: len(message.revisions) if len(message.revisions) > past else None, what=what
        )
    )


async def test_a_dm_sheet_shows_orders_given_elsewhere_in_one_edit_per_burst(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Live")
        live = bot.live_sheets
        france, germany = table.player("FRANCE"), table.player("GERMANY")
        sheet, theirs = dm_sheet(fake, france, "S1901M"), dm_sheet(fake, germany, "S1901M")
        assert "within about 10 seconds" in fake.text_view(sheet)
        live.delay = 0.5  # the wait made short here (10 s in play)
        assert "0 of 3 units ordered" in fake.text_view(sheet)
        germany_seen = len(theirs.revisions)

        # /order in the server: the DM sheet shows it, in one edit
        past = len(sheet.revisions)
        await ask(fake, france, "order", channel=table.general, text="A Par-Bur")
        now = await edited(fake, sheet, past, "France's DM sheet redrawn after /order")
        await live.idle()
        assert len(sheet.revisions) == now == past + 1
        assert "BUR" in shows(sheet, "PAR")
        assert "1 of 3 units ordered" in fake.text_view(sheet)
        assert pictures(sheet) == ["attachment://S1901M-position.png"], "the welcome's map kept"

        # a burst within the wait: a private sheet's pick, orders by direct message and Ready, drawn
        # by one edit (the wait made long here, then cut short, so that the burst is within it)
        live.delay = 600.0
        past = len(sheet.revisions)
        private = await (await fake.slash(france, "orders", "sheet", channel=table.general)).message()
        await Tapper(fake).pick(france, private, "MAR", "A MAR - SPA")
        handle = await fake.dm_bot(france, "F Bre-MAO")
        await handle.replies(1)
        await ask(fake, france, "ready", channel=table.general)
        assert len(sheet.revisions) == past, "not before the wait is over"
        await live.flush()
        await fake.flush()
        assert len(sheet.revisions) == past + 1, "three changes, one edit"
        text = fake.text_view(sheet)
        assert "3 of 3 units ordered" in text and "You are ready" in text
        assert "SPA" in shows(sheet, "MAR") and "MAO" in shows(sheet, "BRE")
        assert "You play France in Live" in text, "the call's words stay above the sheet"
        assert pictures(sheet) == ["attachment://S1901M-position.png"] and sheet.files(), "and its map"

        # a tap on the DM sheet itself draws it once: no refresh after it
        live.delay = 0.5
        past = len(sheet.revisions)
        await Tapper(fake).pick(france, sheet, "PAR", "A PAR - PIC")
        await live.idle()
        assert len(sheet.revisions) == past + 1 and "PIC" in shows(sheet, "PAR")

        # nothing of France's reaches Germany's sheet, which moves only for Germany's own orders
        assert len(theirs.revisions) == germany_seen and "A PAR" not in fake.text_view(theirs)
        await ask(fake, germany, "order", channel=table.general, text="A Mun-Ruh")
        await edited(fake, theirs, germany_seen, "Germany's DM sheet redrawn after its /order")
        await live.idle()
        assert "RUH" in shows(theirs, "MUN") and "PIC" not in fake.text_view(theirs)
        assert "MUN" not in fake.text_view(sheet) and "RUH" not in fake.text_view(sheet)

        # the phase closed: an order for the next one leaves the old sheet as it was (taps refused)
        await deadline_passes(bot, fake, game_id)
        past = len(sheet.revisions)
        answer = await ask(fake, france, "order", channel=table.general, text="A Pic-Bel")
        assert "Fall 1901" in answer.content
        await live.idle()
        assert len(sheet.revisions) == past and "Spring 1901" in fake.text_view(sheet)
    assert fake.unknown_calls == [] and fake.internal_errors == []
