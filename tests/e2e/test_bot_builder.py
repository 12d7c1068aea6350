"""Orders by tap (cogs.ui.builder) through the real bot and the fake Discord: a power's whole set of
orders in a movement, a retreat and an adjustment phase entered by taps alone and checked against the
adjudication; typed and tapped orders mixed; the private preview map; stale, foreign and restarted
builders."""

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
    place_named,
    running,
    settle,
    started_game,
)
from harness.fakediscord import FakeDiscord, Message, User
from harness.fakediscord.state import InteractionKind, walk_components
from tests.helpers.builder_offers import offered
from tests.helpers.builder_taps import open_builder, pick, retag
from tests.helpers.forging import another_databases, forged

# --- tapping, as a player does -----------------------------------------------------------------------


def labels(message: Message) -> list[str]:
    """The labels of the message's buttons and select options, in order."""
    found = []
    for component in walk_components(message.components):
        if component.get("label"):
            found.append(component["label"])
        found += [option["label"] for option in component.get("options", [])]
    return found


async def press(fake: FakeDiscord, user: User, message: Message, ending: str) -> Message:
    """``user`` presses the button whose custom_id ends with ``ending``; the answer they see."""
    [custom_id] = [c for c in message.custom_ids() if c.endswith(ending)]
    return await (await fake.click(user, message, custom_id)).message()


async def tap(
    fake: FakeDiscord,
    user: User,
    builder: Message,
    unit: str,
    kind: str,
    target: str | None = None,
    helped: str | None = None,
) -> Message:
    """One order by taps: the unit, what it does, where, and whom it helps (the last two when the
    builder asks). Returns the builder once the order is in (back at the units)."""
    message = await pick(fake, user, builder, unit)
    kinds = [c for c in message.custom_ids() if c.endswith((f":go:t:{unit}:{kind}", f":do:{unit}:{kind}"))]
    if kinds:
        message = await (await fake.click(user, message, kinds[0])).message()
    if target is not None:
        message = await pick(fake, user, message, target)
    if helped is not None:
        message = await pick(fake, user, message, helped)
    return message


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


async def test_a_power_orders_a_movement_a_retreat_and_an_adjustment_by_taps_alone(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Taps")
        await edit_board(bot, game_id, crowded_spring)
        france, germany = table.player("FRANCE"), table.player("GERMANY")
        game_channel = await game_channel_of(bot, fake, game_id)

        # --- Spring 1901: five orders of five kinds, each in a few taps ------------------------------
        builder = await open_builder(fake, france, table)
        assert {"A PAR · Paris", "F ENG · English Channel", "A PIC · Picardy"} <= set(labels(builder))
        assert "`A PAR` ➜ no order yet" in builder.content
        kinds = await pick(fake, france, builder, "PAR")
        assert [label for label in labels(kinds)][:3] == ["Hold", "Move…", "Support…"]
        assert "**A PAR** (Paris), no order yet. What does it do?" in kinds.content
        moves = await press(fake, france, kinds, ":go:t:PAR:move")
        assert set(offered(moves)) == {"BRE", "BUR", "GAS", "PIC"}, "Paris's neighbours, and no more"
        builder = await pick(fake, france, moves, "BUR")
        assert "✅ `A PAR - BUR`" in builder.content
        assert "France still without orders: F BRE, A MAR, A PIC, F ENG." in builder.content
        assert "`A PAR` ➜ `A PAR - BUR`" in builder.content and "PIC" in offered(builder), "back at the units"

        moves = await tap(fake, france, builder, "PIC", "move")
        assert "WAL · Wales, by convoy" in labels(moves) and "BUR · Burgundy" in labels(moves)
        builder = await pick(fake, france, moves, "WAL")
        assert "✅ `A PIC - WAL VIA`" in builder.content
        builder = await tap(fake, france, builder, "ENG", "convoy", "WAL")
        assert "✅ `F ENG C A PIC - WAL`" in builder.content
        supports = await tap(fake, france, builder, "MAR", "support", "BUR")
        assert "which unit does it help?" in supports.content
        assert {"A MAR S A PAR - BUR", "A MAR S A MUN - BUR", "A MAR S A RUH - BUR"} <= set(offered(supports))
        assert {"A MAR S A PAR - BUR (France)", "A MAR S A MUN - BUR (Germany)"} <= set(labels(supports))
        builder = await pick(fake, france, supports, "A MAR S A PAR - BUR")
        assert "✅ `A MAR S A PAR - BUR`" in builder.content
        builder = await tap(fake, france, builder, "BRE", "hold")
        assert "✅ `F BRE H`" in builder.content and "France has orders for everything." in builder.content

        await deadline_passes(bot, fake, game_id)
        assert (await current_phase(bot, game_id)).name == "F1901M"
        said = published(fake, game_channel)
        for line in (
            "✅ `A PIC - WAL VIA`",
            "✅ `F ENG C A PIC - WAL`",
            "✅ `A PAR - BUR`",
            "✅ `A MAR S A PAR - BUR`",
        ):
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

        # --- the retreat ------------------------------------------------------------------------------
        builder = await open_builder(fake, france, table)
        assert builder.ephemeral and "`A BUR (dislodged)` ➜ no order yet" in builder.content
        retreat = await pick(fake, france, builder, "BUR")
        assert labels(retreat)[:2] == ["Retreat…", "Disband"]
        places = await press(fake, france, retreat, ":go:t:BUR:retreat")
        assert set(offered(places)) == {"BEL", "GAS", "MAR", "PAR", "PIC"}
        preview = await press(fake, france, places, ":map")
        assert preview.ephemeral and preview.files() == {
            "F1901R-my-orders.png": await expected_preview(bot, game_id, {"FRANCE": []})
        }
        done = await pick(fake, france, places, "PIC")
        assert "✅ `A BUR R PIC`" in done.content
        assert "Everybody has ordered: the phase closes now" in done.content and not done.custom_ids()
        await settle(bot, fake)
        assert (await current_phase(bot, game_id)).name == "W1901A"
        assert await units(bot, game_id, "FRANCE") == {"A PIC", "A SPA", "F MAO", "A WAL", "F ENG"}

        # --- Winter 1901: three builds (one waived) for France, a removal for Germany -----------------
        builder = await open_builder(fake, france, table)
        assert "France may build 3 units" in builder.content
        assert set(offered(builder)) == {"BRE", "MAR", "PAR", "*FRANCE"}
        sites = await pick(fake, france, builder, "MAR")
        assert set(offered(sites)) == {"A MAR", "F MAR"}, "a build site goes straight to what to build"
        builder = await pick(fake, france, sites, "F MAR")
        assert "✅ `F MAR B`" in builder.content
        builder = await tap(fake, france, builder, "PAR", "build", "A PAR")
        assert "✅ `A PAR B`" in builder.content
        preview = await press(fake, france, builder, ":map")
        assert preview.files() == {
            "W1901A-my-orders.png": await expected_preview(bot, game_id, {"FRANCE": ["F MAR B", "A PAR B"]})
        }
        builder = await pick(fake, france, builder, "*FRANCE")  # a waive is one tap
        assert "✅ `WAIVE`" in builder.content and "France has orders for everything." in builder.content
        assert "`WAIVE` ➜ 1 build waived" in builder.content, "the waive shows among the orders"
        assert "build site BRE" not in builder.content and "Pick a unit" not in builder.content

        removal = await open_builder(fake, germany, table)
        assert "Germany must remove 1 unit" in removal.content
        assert set(offered(removal)) == {"BER", "BUR", "KIE", "MUN"}
        done = await tap(fake, germany, removal, "MUN", "remove")
        assert "✅ `A MUN D`" in done.content and "the phase closes now" in done.content
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
        assert handle.interaction.response_type == 5, (
            "deferred first: the map is drawn after the answer began"
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
        builder = await open_builder(fake, france, table)
        assert "`A PAR` ➜ `A PAR H`" in builder.content, "a typed order shows in the builder"
        builder = await tap(fake, france, builder, "PAR", "move", "BUR")
        assert "✅ `A PAR - BUR` (replaces `A PAR H`)" in builder.content
        typed = await ask(fake, france, "order", channel=table.general, text="A Par-Gas")
        assert "(replaces `A PAR - BUR`)" in typed.content, "a typed order replaces a tapped one"
        kinds = await pick(fake, france, builder, "PAR")
        assert "now `A PAR - GAS`" in kinds.content
        form = await (await fake.slash(france, "orders", "edit", channel=table.general)).modal()
        assert form.input("orders").get("value") == "A PAR - GAS"
        shown = await ask(fake, france, "orders", "show", channel=table.general, map=False)
        assert "`A PAR - GAS`" in shown.content and "BUR" not in shown.content
        assert (await current_phase(bot, game_id)).name == "S1901M"
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_stale_and_foreign_clicks_are_refused_and_change_nothing(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Refusals")
        france = table.player("FRANCE")
        builder = await open_builder(fake, france, table)
        assert builder.ephemeral and "`A PAR` ➜ no order yet" in builder.content
        kinds = await pick(fake, france, builder, "PAR")

        # a click that reaches the bot on France's builder from another player (Discord shows an
        # ephemeral message to its recipient only, but the bot does not rely on it)
        other = table.player("GERMANY")
        hold = next(c for c in kinds.custom_ids() if c.endswith(":do:PAR:hold"))
        answer = await forged(
            fake,
            other,
            InteractionKind.MESSAGE_COMPONENT,
            {"custom_id": hold, "component_type": 2},
            source=kinds,
        )
        assert answer.ephemeral and answer.id != kinds.id
        assert "belongs to another player" in answer.content and "Nothing was changed" in answer.content
        shown = await ask(fake, france, "orders", "show", channel=table.general, map=False)
        assert "**France** has no orders yet" in shown.content

        # a builder left from another database (a fresh start, an older backup): the same game
        # number, phase and player, and another game's tag
        ours, theirs = another_databases("tap", game_id, "S1901M", hold)
        retag(kinds, ours, theirs)
        for ending in (":do:PAR:hold", ":map"):
            answer = await press(fake, france, kinds, ending)
            assert answer.ephemeral and "earlier game that had the number" in answer.content
            assert "Nothing was recorded" in answer.content and not answer.attachments
        retag(kinds, theirs, ours)
        shown = await ask(fake, france, "orders", "show", channel=table.general, map=False)
        assert "**France** has no orders yet" in shown.content

        # stale: the phase closes under the open builders
        second = await open_builder(fake, france, table)
        await deadline_passes(bot, fake, game_id)
        assert (await current_phase(bot, game_id)).name == "F1901M"
        before = len(kinds.revisions)
        late = await press(fake, france, kinds, ":do:PAR:hold")
        assert late.ephemeral and late.id != kinds.id
        assert (
            "The Spring 1901 Movement orders are closed" in late.content and "/orders build" in late.content
        )
        assert len(kinds.revisions) == before, "the stale builder is left as it was"
        late = await press(fake, france, kinds, ":go:t:PAR:move")
        assert "orders are closed" in late.content
        late = await pick(fake, france, second, "MAR")
        assert "orders are closed" in late.content and "MAR" in offered(second)
        shown = await ask(fake, france, "orders", "show", channel=table.general, map=False)
        assert "**France** has no orders yet" in shown.content and "Fall 1901" in shown.content

        # someone else: the moderator reads France's channel, and taps "Order sheet" under its call
        channel = place_named(fake, table.guild, game_id, f"g{game_id}-france")
        [call] = [
            m for m in bot_messages(fake, channel) if any(c.endswith(":F1901M:open") for c in m.custom_ids())
        ]
        fall = next(c for c in call.custom_ids() if c.endswith(":F1901M:open"))
        refused = await (await fake.click(table.mod, call, fall)).message()
        assert refused.ephemeral and "You are not playing in Refusals" in refused.content
        mine = await (await fake.click(france, call, fall)).message()
        assert mine.ephemeral and "Fall 1901 Movement" in fake.text_view(mine)
        assert "A PAR · Paris: no order yet" in fake.text_view(mine)
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_builder_keeps_working_after_a_restart(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        await started_game(fake, bot, table, "Restarts")
        france = table.player("FRANCE")
        kinds = await pick(fake, france, await open_builder(fake, france, table), "MAR")
    async with running(fake, tmp_path):
        moves = await press(fake, france, kinds, ":go:t:MAR:move")
        builder = await pick(fake, france, moves, "PIE")
        assert "✅ `A MAR - PIE`" in builder.content
    assert fake.unknown_calls == [] and fake.internal_errors == []
