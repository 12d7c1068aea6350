"""The step-by-step builder's ways in (cogs.ui.builder), which lead to the order sheet now, through the
real bot and the fake Discord: /orders build opens the sheet, on which a power's whole set of orders
in a movement, a retreat and an adjustment phase (every kind the builder gave) is entered by taps
alone and checked against the adjudication; typed and tapped orders mixed; the private preview map;
an old builder's buttons and menus, already posted, answer with the tapper's own sheet (foreign,
another database's, a closed phase's, after a restart) and change nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gm.ordering.drawing import preview_request, preview_title, render_preview
from harness.bot_helpers import (
    ask,
    bot_messages,
    current_phase,
    deadline_passes,
    edit_board,
    game_channel_of,
    make_table,
    running,
    settle,
    started_game,
)
from harness.fakediscord import FakeDiscord, Message, User
from harness.fakediscord.state import InteractionKind
from harness.sheet_helpers import Tapper, offered, shows
from tests.helpers.forging import another_databases, forged, rename

# --- helpers ---------------------------------------------------------------------------------------


async def open_by_build(fake: FakeDiscord, user: User, table: Any) -> Message:
    """``/orders build``: the step-by-step builder's command, which opens the order sheet."""
    sheet = await (await fake.slash(user, "orders", "build", channel=table.general)).message()
    assert sheet.ephemeral and sheet.custom_ids(), fake.text_view(sheet)
    return sheet


def published(fake: FakeDiscord, channel: Any) -> str:
    return "\n".join(
        m.content + "\n" + "\n".join(e.get("description", "") for e in m.embeds)
        for m in bot_messages(fake, channel)
    )


async def units(bot: Any, game_id: int, power: str) -> set[str]:
    """The units ``power`` has at the start of the current phase, after adjudication."""
    return set((await current_phase(bot, game_id)).board["units"].get(power, []))


async def expected_preview(bot: Any, game_id: int, orders: dict[str, list[str]]) -> bytes:
    """The picture the preview must be: the current board with exactly ``orders`` drawn."""
    phase = await current_phase(bot, game_id)
    from engine import Phase

    title = preview_title(Phase.parse(phase.name).long_name, ["FRANCE"])
    png = render_preview(preview_request(phase.board, "standard", orders, title))
    assert png is not None
    return png


# --- the tests ---------------------------------------------------------------------------------------


def crowded_spring(board: dict) -> None:
    """France with a fleet in the Channel and an army in Picardy (a convoy to Wales), and four centers
    more (so it builds in the winter); Germany with an army in the Ruhr (to dislodge France's army)."""
    board["units"]["FRANCE"] = ["F BRE", "A PAR", "A MAR", "A PIC", "F ENG"]
    board["units"]["GERMANY"] = ["F KIE", "A BER", "A MUN", "A RUH"]
    board["centers"]["FRANCE"] = ["BRE", "MAR", "PAR", "BEL", "HOL", "DEN", "SWE"]


async def test_a_power_orders_a_movement_a_retreat_and_an_adjustment_on_the_sheet_of_orders_build(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Every order the step-by-step builder gave (a convoy route, a convoy, a support, a hold, a
    retreat, builds, a waive, a removal), given on the sheet /orders build opens."""
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Taps")
        await edit_board(bot, game_id, crowded_spring)
        france, germany = table.player("FRANCE"), table.player("GERMANY")
        game_channel = await game_channel_of(bot, fake, game_id)
        tapper = Tapper(fake)

        # --- Spring 1901: five orders of five kinds ---------------------------------------------------
        sheet = await open_by_build(fake, france, table)
        assert "A PIC - WAL VIA" in offered(sheet, "PIC"), "a move that needs a convoy, in the unit's menu"
        for key, order in (("PAR", "A PAR - BUR"), ("PIC", "A PIC - WAL VIA"), ("BRE", "F BRE H")):
            sheet = await tapper.pick(france, sheet, key, order)
        sheet = await tapper.pick(france, sheet, "ENG", "@convoy")
        sheet = await tapper.pick(france, sheet, "ENG", "F ENG C A PIC - WAL")
        sheet = await tapper.pick(france, sheet, "MAR", "@support")
        helped = offered(sheet, "MAR")
        assert {"A MAR S A PAR - BUR", "A MAR S A MUN - BUR", "A MAR S A RUH - BUR"} <= set(helped)
        sheet = await tapper.pick(france, sheet, "MAR", "A MAR S A PAR - BUR")
        assert "5 of 5 units ordered. All ordered." in fake.text_view(sheet)

        await deadline_passes(bot, fake, game_id)
        assert (await current_phase(bot, game_id)).name == "F1901M"
        said = published(fake, game_channel)
        for line in ("`A PIC - WAL VIA`", "`F ENG C A PIC - WAL`", "`A PAR - BUR`", "`A MAR S A PAR - BUR`"):
            assert line in said, line
        assert await units(bot, game_id, "FRANCE") == {"F BRE", "A BUR", "A MAR", "A WAL", "F ENG"}

        # --- Fall 1901, typed: Germany dislodges the army in Burgundy --------------------------------
        for user, typed in (
            (france, "A Mar-Spa; F Bre-MAO; A Bur H; A Wal H; F Eng H"),
            (germany, "A Ruh-Bur; A Mun S A Ruh-Bur"),
        ):
            answer = await ask(fake, user, "order", channel=table.general, text=typed)
            assert "refused" not in answer.content, answer.content
        await deadline_passes(bot, fake, game_id)
        assert (await current_phase(bot, game_id)).name == "F1901R"

        # --- the retreat --------------------------------------------------------------------------------
        sheet = await open_by_build(fake, france, table)
        assert {"A BUR R PIC", "A BUR D"} <= set(offered(sheet, "BUR"))
        preview = await tapper.press(france, sheet, "map")
        assert preview.ephemeral and preview.files() == {
            "F1901R-my-orders.png": await expected_preview(bot, game_id, {"FRANCE": []})
        }
        done = await tapper.pick(france, sheet, "BUR", "A BUR R PIC")
        assert "closes now" in fake.text_view(done) and not done.custom_ids()
        await settle(bot, fake)
        assert (await current_phase(bot, game_id)).name == "W1901A"
        assert await units(bot, game_id, "FRANCE") == {"A PIC", "A SPA", "F MAO", "A WAL", "F ENG"}

        # --- Winter 1901: three builds (one waived) for France, a removal for Germany ---------------------
        sheet = await open_by_build(fake, france, table)
        assert set(offered(sheet, "MAR")) >= {"A MAR B", "F MAR B"}
        sheet = await tapper.pick(france, sheet, "MAR", "F MAR B")
        sheet = await tapper.pick(france, sheet, "PAR", "A PAR B")
        preview = await tapper.press(france, sheet, "map")
        assert preview.files() == {
            "W1901A-my-orders.png": await expected_preview(bot, game_id, {"FRANCE": ["F MAR B", "A PAR B"]})
        }
        sheet = await tapper.press(france, sheet, "waive")  # a waive is one tap
        assert "3 of 3 builds chosen" in fake.text_view(sheet) and "1 waived" in fake.text_view(sheet)

        removal = await open_by_build(fake, germany, table)
        done = await tapper.press(germany, removal, "remove", "MUN")
        assert "closes now" in fake.text_view(done)
        await settle(bot, fake)
        assert (await current_phase(bot, game_id)).name == "S1902M"
        assert await units(bot, game_id, "FRANCE") == {
            "A PIC",
            "A SPA",
            "F MAO",
            "A WAL",
            "F ENG",
            "F MAR",
            "A PAR",
        }
        assert await units(bot, game_id, "GERMANY") == {"F KIE", "A BER", "A BUR"}
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_the_preview_map_is_its_authors_alone_and_draws_only_their_orders(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Previews")
        france, germany = table.player("FRANCE"), table.player("GERMANY")
        for user, typed in ((france, "A Par-Bur; F Bre-MAO"), (germany, "A Mun-Bur; F Kie-Den")):
            await ask(fake, user, "order", channel=table.general, text=typed)

        handle = await fake.slash(france, "orders", "show", channel=table.general)
        shown = await handle.message()
        assert handle.interaction.response_type in (4, 5), (
            'answered with the map when it is drawn within 0.1 s, else "thinking..." first'
        )
        assert shown.ephemeral and "`A PAR - BUR`" in shown.content and "`F BRE - MAO`" in shown.content
        mine = await expected_preview(bot, game_id, {"FRANCE": ["A PAR - BUR", "F BRE - MAO"]})
        everyone = await expected_preview(
            bot,
            game_id,
            {"FRANCE": ["A PAR - BUR", "F BRE - MAO"], "GERMANY": ["A MUN - BUR", "F KIE - DEN"]},
        )
        assert shown.files() == {"S1901M-my-orders.png": mine} and mine != everyone
        assert any(c.endswith(":S1901M:open") and c.startswith("sh:") for c in shown.custom_ids()), (
            "Order sheet under the list"
        )
        for other in [u for u in [*table.players, table.mod, table.onlooker] if u is not france]:
            seen = [m for m in fake.visible_messages(other) if any(a.data == mine for a in m.attachments)]
            assert seen == [] and not any("S1901M-my-orders" in t for t in fake.seen_texts(other))

        theirs = await ask(fake, germany, "orders", "show", channel=table.general)
        germany_only = {"GERMANY": ["A MUN - BUR", "F KIE - DEN"]}
        phase = await current_phase(bot, game_id)
        title = preview_title("Spring 1901 Movement", ["GERMANY"])
        assert theirs.files() == {
            "S1901M-my-orders.png": render_preview(
                preview_request(phase.board, "standard", germany_only, title)
            )
        }

        in_dm = await ask(fake, france, "orders", "show")  # by direct message: there, in the DM
        assert fake.world.channel(in_dm.channel_id).is_dm and in_dm.files() == {"S1901M-my-orders.png": mine}
        plain = await ask(fake, france, "orders", "show", channel=table.general, map=False)
        assert plain.files() == {} and "`A PAR - BUR`" in plain.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_typed_and_tapped_orders_mix_and_the_later_one_counts(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Mixed")
        france = table.player("FRANCE")
        await ask(fake, france, "order", channel=table.general, text="A Par H")
        sheet = await open_by_build(fake, france, table)
        assert shows(sheet, "PAR") == "A PAR holds", "a typed order shows on the sheet"
        sheet = await Tapper(fake).pick(france, sheet, "PAR", "A PAR - BUR")
        assert "✅ `A PAR - BUR` (replaces `A PAR H`)" in fake.text_view(sheet)
        typed = await ask(fake, france, "order", channel=table.general, text="A Par-Gas")
        assert "(replaces `A PAR - BUR`)" in typed.content, "a typed order replaces a tapped one"
        again = await open_by_build(fake, france, table)
        assert "GAS" in shows(again, "PAR")
        form = await (await fake.slash(france, "orders", "edit", channel=table.general)).modal()
        assert form.input("orders").get("value") == "A PAR - GAS"
        shown = await ask(fake, france, "orders", "show", channel=table.general, map=False)
        assert "`A PAR - GAS`" in shown.content and "BUR" not in shown.content
        assert (await current_phase(bot, game_id)).name == "S1901M"
    assert fake.unknown_calls == [] and fake.internal_errors == []


def old_builder_ids(game_id: int, tag: str, user: User) -> dict[str, str]:
    """The ids an earlier version's builder put on messages (its opener, a step's button, a menu)."""
    return {
        "open": f"tap:{game_id}:S1901M:open",
        "step": f"tap:{game_id}.{tag}:S1901M:{user.id}:do:PAR:hold",
        "menu": f"tap:{game_id}.{tag}:S1901M:{user.id}:u#0",
    }


async def tap_old(fake: FakeDiscord, user: User, message: Message, old: str, new: str, **kw: Any) -> Message:
    """``user`` taps a component of ``message`` that carries ``new`` (an old builder's id) where the
    message now has ``old``; the answer they get."""
    rename(message, old, new)
    try:
        return await (await fake.click(user, message, new, **kw)).message()
    finally:
        rename(message, new, old)


async def test_the_old_builder_s_ways_in_open_the_sheet_and_change_nothing(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Old menus")
        france, germany = table.player("FRANCE"), table.player("GERMANY")
        sheet = await open_by_build(fake, france, table)
        assert "A PAR · Paris: no order yet" in fake.text_view(sheet)

        # the welcome's sheet in France's direct messages, its ids as an earlier version made them
        [call] = [m for m in fake.dm_messages(france) if any(":b:ready@" in c for c in m.custom_ids())]
        opener = next(c for c in call.custom_ids() if ":b:ready@" in c)
        tag = opener.split(":")[1].split(".")[1]
        old = old_builder_ids(game_id, tag, france)
        for what in ("open", "step"):
            answer = await tap_old(fake, france, call, opener, old[what])
            assert answer.ephemeral and "That order builder is old" in fake.text_view(answer), what
            assert "A PAR · Paris: no order yet" in fake.text_view(answer), "France's own sheet"
        select = next(c for c in sheet.custom_ids() if ":u:PAR@" in c)
        answer = await tap_old(fake, france, sheet, select, old["menu"], values=["A PAR H"])
        assert "That order builder is old" in fake.text_view(answer)

        # someone else's old builder: the tapper's own sheet, nothing of France's
        # (a tap that reaches the bot from another member: Discord shows a DM to its recipient only,
        # but the bot does not rely on it)
        rename(call, opener, old["step"])
        try:
            button = {"custom_id": old["step"], "component_type": 2}
            theirs = await forged(fake, germany, InteractionKind.MESSAGE_COMPONENT, button, source=call)
            refused = await forged(fake, table.mod, InteractionKind.MESSAGE_COMPONENT, button, source=call)
        finally:
            rename(call, old["step"], opener)
        assert "Germany" in fake.text_view(theirs) and "A PAR" not in fake.text_view(theirs)
        assert refused.ephemeral and "You are not playing in Old menus" in refused.content

        # an old builder of another database's game with this number (another tag)
        ours, others = another_databases("tap", game_id, "S1901M", old["step"])
        other = await tap_old(fake, france, call, opener, old["step"].replace(ours, others))
        assert other.ephemeral and "earlier game that had the number" in other.content
        shown = await ask(fake, france, "orders", "show", channel=table.general, map=False)
        assert "**France** has no orders yet" in shown.content, "nothing was recorded"

        # a phase that has closed since: the current phase's sheet
        await deadline_passes(bot, fake, game_id)
        fall = await tap_old(fake, france, call, opener, old["step"])
        assert "That order builder is old" in fake.text_view(fall) and "Fall 1901" in fake.text_view(fall)
    async with running(fake, tmp_path):  # and after a restart
        again = await tap_old(fake, france, call, opener, old["open"])
        assert "That order builder is old" in fake.text_view(again)
    assert fake.unknown_calls == [] and fake.internal_errors == []
