"""The order sheet (cogs.ui.sheet) through the real bot and the fake Discord: a Standard game's first
year played by all seven powers through their sheets, counting every tap and every message; the
sheet's answers, its second menus and whose unit they name; retreats and removals; stale, foreign
and other-database taps; a restart; a power too large for one message."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from harness.bot_helpers import (
    Table,
    ask,
    bot_messages,
    current_phase,
    deadline_passes,
    edit_board,
    game_channel_of,
    make_table,
    place_named,
    running,
    settle,
    started_game,
)
from harness.fakediscord import FakeDiscord, Message, User
from harness.fakediscord.state import InteractionKind
from harness.sheet_helpers import Tapper, button_id, button_label, offered, sheet_select, shows
from tests.helpers.forging import another_databases, forged, retag
from tests.helpers.limits import within_discords_limits

READY = "Ready"
SPRING = {  # power -> (unit, order) picked on its sheet; None: "Hold the rest"
    "AUSTRIA": [("VIE", "A VIE - GAL"), ("BUD", "A BUD - SER"), ("TRI", "F TRI - ALB")],
    "ENGLAND": [("LON", "F LON - NTH"), ("EDI", "F EDI - NWG"), ("LVP", "A LVP - YOR")],
    "FRANCE": [("PAR", "A PAR - BUR"), ("MAR", "A MAR - SPA"), ("BRE", "F BRE - MAO")],
    "GERMANY": [("KIE", "F KIE - DEN"), ("BER", "A BER - KIE")],  # A MUN supports (below)
    "ITALY": [("ROM", "A ROM - APU")],  # then "Hold the rest"
    "RUSSIA": [
        ("WAR", "A WAR - UKR"),
        ("SEV", "F SEV - BLA"),
        ("STP/SC", "F STP/SC - BOT"),
        ("MOS", "A MOS - STP"),
    ],
    "TURKEY": [("CON", "A CON - BUL"), ("SMY", "A SMY - ARM"), ("ANK", "F ANK - CON")],
}


def dm_sheet(fake: FakeDiscord, user: User, phase: str) -> Message:
    """The call to order in ``user``'s direct messages that carries their sheet for ``phase``."""
    found = [m for m in fake.dm_messages(user) if any(f":{phase}:{user.id}:" in c for c in m.custom_ids())]
    assert len(found) == 1, f"{len(found)} sheets for {phase} in {user.username}'s DMs"
    return found[0]


def call_in_channel(fake: FakeDiscord, table: Table, game_id: int, power: str, phase: str) -> Message:
    channel = place_named(fake, table.guild, game_id, f"g{game_id}-{power.lower()}")
    found = [
        m for m in bot_messages(fake, channel) if any(c.endswith(f":{phase}:open") for c in m.custom_ids())
    ]
    assert len(found) == 1, f"{len(found)} calls to order for {phase} in {power}'s channel"
    return found[0]


def bot_messages_to(fake: FakeDiscord, user: User) -> int:
    """How many messages of the bot's the player can see (their DMs, their channels, ephemerals)."""
    return len([m for m in fake.visible_messages(user) if m.author_id == fake.world.bot.id])


async def test_a_year_of_seven_powers_by_sheets_in_the_promised_taps(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Sheets")
        tapper = Tapper(fake)
        france, germany, italy = table.player("FRANCE"), table.player("GERMANY"), table.player("ITALY")

        # --- Spring 1901: the welcome by DM is the call to order and carries the sheet -------------
        seen_before = {u.id: bot_messages_to(fake, u) for u in table.players}
        sheet = dm_sheet(fake, france, "S1901M")
        within_discords_limits(sheet)
        assert "You play France in Sheets" in fake.text_view(sheet), "the call's words above the sheet"
        assert shows(sheet, "PAR") == "A PAR · Paris: no order yet"
        assert set(offered(sheet, "PAR")) == {
            "A PAR H",
            "A PAR - BRE",
            "A PAR - BUR",
            "A PAR - GAS",
            "A PAR - PIC",
            "@support",
        }
        for key, order in SPRING["FRANCE"]:
            sheet = await tapper.pick(france, sheet, key, order)
            assert f"✅ `{order}`" in fake.text_view(sheet)
        assert shows(
            sheet, "PAR"
        ) == "A PAR → BUR · Burgundy" and "3 of 3 units ordered. All ordered." in fake.text_view(sheet)
        sheet = await tapper.press(france, sheet, "ready")
        assert "✓ You are ready." in fake.text_view(sheet) and button_label(sheet, "unready").startswith(
            "✓ Ready"
        )
        assert tapper.taps[france.id] == 4, "three moves and Ready, from the call to order itself"
        assert bot_messages_to(fake, france) == seen_before[france.id], "taps edit the sheet: no new message"

        # Germany: a support in two taps, naming whose unit it helps
        sheet = dm_sheet(fake, germany, "S1901M")
        for key, order in SPRING["GERMANY"]:
            sheet = await tapper.pick(germany, sheet, key, order)
        before = tapper.taps[germany.id]
        second = await tapper.pick(germany, sheet, "MUN", "@support")
        assert sheet_select(second, "MUN")["placeholder"].startswith("A MUN supports whom?")
        assert offered(second, "MUN")["A MUN S A PAR - BUR"] == "A PAR → BUR (France)"
        assert offered(second, "MUN")["A MUN S A BER"] == "A BER holds (Germany)"
        sheet = await tapper.pick(germany, second, "MUN", "A MUN S A PAR - BUR")
        assert tapper.taps[germany.id] - before == 2, "a support in two taps"
        assert shows(sheet, "MUN") == "A MUN supports A PAR → BUR (France)"
        sheet = await tapper.press(germany, sheet, "ready")

        # Italy: one move, then "Hold the rest"
        sheet = dm_sheet(fake, italy, "S1901M")
        sheet = await tapper.pick(italy, sheet, "ROM", "A ROM - APU")
        sheet = await tapper.press(italy, sheet, "hold")
        assert "✅ `A VEN H`" in fake.text_view(sheet) and "✅ `F NAP H`" in fake.text_view(sheet)
        assert sheet_select(sheet, "NAP").get("options") and shows(sheet, "NAP") == "F NAP holds"
        sheet = await tapper.press(italy, sheet, "ready")
        assert tapper.taps[italy.id] == 3

        last = None
        for power in ("AUSTRIA", "ENGLAND", "RUSSIA", "TURKEY"):
            user = table.player(power)
            sheet = dm_sheet(fake, user, "S1901M")
            for key, order in SPRING[power]:
                sheet = await tapper.pick(user, sheet, key, order)
            last = await tapper.press(user, sheet, "ready")
            assert tapper.taps[user.id] == len(SPRING[power]) + 1
        assert last is not None and "Everybody is done: Spring 1901 Movement closes now." in fake.text_view(
            last
        )
        assert not last.custom_ids(), "the last sheet's controls go as the phase closes"
        await settle(bot, fake)
        assert (await current_phase(bot, game_id)).name == "F1901M"
        board = (await current_phase(bot, game_id)).board
        assert set(board["units"]["FRANCE"]) == {"A BUR", "A SPA", "F MAO"}, "France's three moves stood"

        # --- Fall 1901: the call in the power's channel: Order sheet, three orders, Ready -------------
        fall = Tapper(fake)
        call = call_in_channel(fake, table, game_id, "FRANCE", "F1901M")
        assert button_id(call, "open") and button_id(call, "ready:1"), "Order sheet and Ready under the call"
        sheet = await fall.press(france, call, "open")
        assert sheet.ephemeral and sheet.id != call.id
        for key, order in (("MAO", "F MAO - POR"), ("SPA", "A SPA H"), ("BUR", "A BUR H")):
            sheet = await fall.pick(france, sheet, key, order)
        sheet = await fall.press(france, sheet, "ready")
        assert fall.taps[france.id] == 5, "Order sheet, three orders, Ready"
        for power in ("AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
            user = table.player(power)
            sheet = await fall.press(user, call_in_channel(fake, table, game_id, power, "F1901M"), "open")
            sheet = await fall.press(user, sheet, "hold")
            sheet = await fall.press(user, sheet, "ready")
        await settle(bot, fake)
        assert (await current_phase(bot, game_id)).name == "W1901A"

        # --- Winter 1901: two builds and Ready in four taps; a waive in one ---------------------------
        winter = Tapper(fake)
        sheet = await winter.press(france, call_in_channel(fake, table, game_id, "FRANCE", "W1901A"), "open")
        assert set(offered(sheet, "BRE")) == {"A BRE B", "F BRE B"}
        assert offered(sheet, "BRE")["F BRE B"] == "Build a fleet in Brest (F BRE)"
        sheet = await winter.pick(france, sheet, "BRE", "F BRE B")
        sheet = await winter.pick(france, sheet, "PAR", "A PAR B")
        assert "2 of 2 builds chosen (`F BRE B`, `A PAR B`). All ordered." in fake.text_view(sheet)
        assert shows(sheet, "MAR") == "Marseilles (MAR): no build"
        sheet = await winter.press(france, sheet, "ready")
        assert winter.taps[france.id] == 4, "Order sheet, two builds, Ready"
        for power in ("AUSTRIA", "GERMANY", "TURKEY"):  # each took a center: a build, waived here
            user = table.player(power)
            sheet = await winter.press(user, call_in_channel(fake, table, game_id, power, "W1901A"), "open")
            sheet = await winter.press(user, sheet, "waive")
            assert winter.taps[user.id] == 2
        await settle(bot, fake)
        assert (await current_phase(bot, game_id)).name == "S1902M"
        board = (await current_phase(bot, game_id)).board
        assert set(board["units"]["FRANCE"]) == {"A BUR", "A SPA", "F POR", "F BRE", "A PAR"}
        said = "\n".join(m.text for m in bot_messages(fake, await game_channel_of(bot, fake, game_id)))
        assert "A MUN S A PAR - BUR" in said and "WAIVE" in said
    assert fake.unknown_calls == [] and fake.internal_errors == []


def crowded_fall(board: dict) -> None:
    """Germany about to dislodge France's army in Burgundy (a retreat follows), and France with more
    units than centers after it (a removal follows)."""
    board["phase"] = "F1901M"
    board["units"]["FRANCE"] = ["A BUR", "A PAR", "F BRE", "A MAR", "A PIC", "A GAS"]
    board["units"]["GERMANY"] = ["A MUN", "A RUH", "F KIE"]


async def test_a_retreat_and_a_removal_on_the_sheet(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Retreats")
        await edit_board(bot, game_id, crowded_fall)
        france, germany = table.player("FRANCE"), table.player("GERMANY")
        await ask(fake, germany, "order", channel=table.general, text="A Ruh-Bur; A Mun S A Ruh-Bur")
        await ask(
            fake, france, "order", channel=table.general, text="A Bur H; A Par H; F Bre H; A Mar H; A Pic H"
        )
        await deadline_passes(bot, fake, game_id)
        assert (await current_phase(bot, game_id)).name == "F1901R"
        tapper = Tapper(fake)
        sheet = await tapper.press(france, call_in_channel(fake, table, game_id, "FRANCE", "F1901R"), "open")
        assert shows(sheet, "BUR") == "A BUR · Burgundy (dislodged): no order yet"
        assert set(offered(sheet, "BUR")) == {"A BUR R BEL", "A BUR D"}
        assert offered(sheet, "BUR")["A BUR D"] == "A BUR disbands"
        done = await tapper.pick(france, sheet, "BUR", "A BUR D")
        assert "Everybody is done: Fall 1901 Retreats closes now." in fake.text_view(done)
        await settle(bot, fake)
        assert (await current_phase(bot, game_id)).name == "W1901A"

        sheet = await tapper.press(france, call_in_channel(fake, table, game_id, "FRANCE", "W1901A"), "open")
        assert "0 of 2 removals chosen." in fake.text_view(sheet)
        assert "Tap the units to remove." in fake.text_view(sheet)
        assert button_label(sheet, "remove", "MAR") == "Remove A MAR"
        sheet = await tapper.press(france, sheet, "remove", "MAR")
        assert button_label(sheet, "keep", "MAR") == "✓ Removing A MAR", "shown as chosen"
        assert "1 of 2 removals chosen." in fake.text_view(sheet)
        sheet = await tapper.press(france, sheet, "keep", "MAR")  # taken back in one tap
        assert "0 of 2 removals chosen." in fake.text_view(sheet)
        sheet = await tapper.press(france, sheet, "remove", "PAR")
        done = await tapper.press(france, sheet, "remove", "GAS")
        assert "✅ `A GAS D`" in fake.text_view(done) and "closes now" in fake.text_view(done)
        await settle(bot, fake)
        assert set((await current_phase(bot, game_id)).board["units"]["FRANCE"]) == {
            "F BRE",
            "A MAR",
            "A PIC",
        }
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_ready_where_a_player_acts(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Ready")
        assert game_id
        france, england = table.player("FRANCE"), table.player("ENGLAND")

        partial = await ask(fake, france, "order", channel=table.general, text="A Par-Bur")
        assert "All ordered" not in partial.content and not partial.custom_ids()
        done = await ask(fake, france, "order", channel=table.general, text="A Mar-Spa; F Bre-MAO")
        assert "**All ordered.** Tap **Ready**" in done.content
        ready = await (await fake.click(france, done, button_id(done, "ready:1"))).message()
        assert ready.ephemeral and "You are ready." in ready.content
        undo = await (await fake.click(france, ready, button_id(ready, "ready:0"))).message()
        assert "You are no longer ready" in undo.content

        shown = await ask(fake, france, "orders", "show", channel=table.general, map=False)
        assert button_id(shown, "open") and button_id(shown, "ready:1")
        sheet = await (await fake.click(france, shown, button_id(shown, "open"))).message()
        assert "3 of 3 units ordered. All ordered." in fake.text_view(sheet)

        handle = await fake.dm_bot(england, "F Lon-NTH\nF Edi-NWG\nA Lvp-Yor")
        [answer] = await handle.replies(1)
        assert "**All ordered.**" in answer.content and button_id(answer, "ready:1")
        pressed = await (await fake.click(england, answer, button_id(answer, "ready:1"))).message()
        assert "You are ready." in pressed.content
        view = await ask(fake, england, "orders", "show", channel=table.general, map=False)
        assert "England is ready." in view.content

        moderator_tap = (
            await (
                await fake.click(table.mod, answer if False else shown, button_id(shown, "ready:1"))
            ).message()
            if False
            else None
        )
        assert moderator_tap is None
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_ready_says_what_holds_and_a_new_order_after_ready_takes_it_back_with_a_word(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        await started_game(fake, bot, table, "Unready")
        germany = table.player("GERMANY")
        ready = await ask(fake, germany, "ready", channel=table.general)
        assert "You are ready." in ready.content
        holding = next(line for line in ready.content.splitlines() if "will hold" in line)
        assert all(unit in holding for unit in ("A BER", "A MUN", "F KIE")), holding

        changed = await ask(fake, germany, "order", channel=table.general, text="A Mun-Ruh")
        assert "Germany is no longer ready" in changed.content and "Ready again" in changed.content
        shown = await ask(fake, germany, "orders", "show", channel=table.general, map=False)
        assert "Germany is ready." not in shown.content

        again = await ask(fake, germany, "ready", channel=table.general)
        holding = next(line for line in again.content.splitlines() if "will hold" in line)
        assert "A MUN" not in holding and "A BER" in holding and "F KIE" in holding
        same = await ask(fake, germany, "order", channel=table.general, text="A Mun-Ruh")
        assert "no longer ready" not in same.content, "the same order again changes nothing"
        shown = await ask(fake, germany, "orders", "show", channel=table.general, map=False)
        assert "Germany is ready." in shown.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_stale_foreign_and_other_database_taps_change_nothing(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Refusals")
        france, germany = table.player("FRANCE"), table.player("GERMANY")
        sheet = dm_sheet(fake, france, "S1901M")
        select = sheet_select(sheet, "PAR")["custom_id"]

        refused = await forged(
            fake,
            germany,
            InteractionKind.MESSAGE_COMPONENT,
            {"custom_id": select, "component_type": 3, "values": ["A PAR - BUR"]},
            source=sheet,
        )
        assert refused.ephemeral and "belongs to another player" in refused.content
        shown = await ask(fake, france, "orders", "show", channel=table.general, map=False)
        assert "**France** has no orders yet" in shown.content

        ours, theirs = another_databases("sh", game_id, "S1901M", select)
        retag(sheet, ours, theirs)
        other = await (
            await fake.click(france, sheet, select.replace(ours, theirs), values=["A PAR - BUR"])
        ).message()
        assert other.ephemeral and "earlier game that had the number" in other.content
        retag(sheet, theirs, ours)
        shown = await ask(fake, france, "orders", "show", channel=table.general, map=False)
        assert "**France** has no orders yet" in shown.content

        await deadline_passes(bot, fake, game_id)
        before = len(sheet.revisions)
        late = await (await fake.click(france, sheet, select, values=["A PAR - BUR"])).message()
        assert late.ephemeral and "Spring 1901 Movement orders are closed" in late.content
        assert "/orders sheet" in late.content and len(sheet.revisions) == before
        late = await (await fake.click(france, sheet, button_id(sheet, "ready"))).message()
        assert "orders are closed" in late.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_sheet_keeps_working_after_a_restart(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        await started_game(fake, bot, table, "Restarts")
        france = table.player("FRANCE")
        sheet = await Tapper(fake).pick(france, dm_sheet(fake, france, "S1901M"), "MAR", "@support")
    async with running(fake, tmp_path):
        sheet = await Tapper(fake).pick(france, sheet, "MAR", "A MAR S A PAR - BUR")
        assert "✅ `A MAR S A PAR - BUR`" in fake.text_view(sheet)
        assert "You play France in Restarts" in fake.text_view(sheet), "the call's words stay above it"
    assert fake.unknown_calls == [] and fake.internal_errors == []


def seventeen_units(board: dict) -> None:
    """France one center short of a solo, with seventeen units, in the last Spring."""
    board["units"] = {
        "FRANCE": [
            "A PAR",
            "A MAR",
            "F BRE",
            "A BUR",
            "A GAS",
            "A PIC",
            "A BEL",
            "A HOL",
            "A RUH",
            "A MUN",
            "A KIE",
            "A BER",
            "F NTH",
            "F ENG",
            "F MAO",
            "F WES",
            "A SPA",
        ],
        "GERMANY": ["A SIL"],
    }


async def test_a_power_too_large_for_one_message_is_paged(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Pages")
        await edit_board(bot, game_id, seventeen_units)
        france = table.player("FRANCE")
        tapper = Tapper(fake)
        first = await (await fake.slash(france, "orders", "sheet", channel=table.general)).message()
        within_discords_limits(first)
        text = fake.text_view(first)
        assert "Page 1 of 2" in text and button_label(first, "page") == "◀ Previous"
        keys = {c.split(":u:")[1].split("@")[0] for c in first.custom_ids() if ":u:" in c}
        second = await tapper.press(france, first, "page", "1")
        within_discords_limits(second)
        more = {c.split(":u:")[1].split("@")[0] for c in second.custom_ids() if ":u:" in c}
        assert len(keys) + len(more) == 17 and not keys & more
        key = sorted(more)[0]
        hold = next(v for v in offered(second, key) if v.endswith(" H"))
        after = await tapper.pick(france, second, key, hold)
        assert "Page 2 of 2" in fake.text_view(after), "the sheet stays on its page"
        held = await tapper.press(france, after, "hold")
        assert "17 of 17 units ordered. All ordered." in fake.text_view(held)
        png = fake.screenshot(held)
        assert Image.open(io.BytesIO(png)).width == 780
    assert fake.unknown_calls == [] and fake.internal_errors == []
