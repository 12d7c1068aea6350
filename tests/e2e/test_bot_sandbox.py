"""Sandboxes (/sandbox) through the real bot and the fake Discord: one made from a running game, three
powers ordered on its sheet (a pick, a support in two taps, a typed line), an adjudication with its
results map, the board with the orders so far, a step back and another try; every message of it seen
by its owner alone, nothing posted in the game or changed in it; someone else's sandbox refused with
its reason (a forged id); a fourth sandbox replaces the oldest only once confirmed; a member who
leaves the server loses theirs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness.bot_helpers import (
    ask,
    bot_messages,
    current_phase,
    game_channel_of,
    make_table,
    running,
    settle,
    started_game,
)
from harness.fakediscord import FakeDiscord, InteractionHandle, Message, User
from harness.fakediscord.state import InteractionKind, walk_components
from harness.sheet_helpers import Tapper, button_id, offered, shows
from tests.helpers.forging import forged as forge
from tests.helpers.forging import rename
from tests.helpers.limits import within_discords_limits


def is_sandbox_message(fake: FakeDiscord, message: Message) -> bool:
    """A message of the bot's about a sandbox: its sheet (ids ``sb:``/``sbx:``) or words naming one."""
    if message.author_id != fake.world.bot.id:
        return False
    ids = message.custom_ids()
    texts = " ".join(r.text for r in message.revisions)
    return any(c.startswith(("sb:", "sbx:")) for c in ids) or "andbox" in texts


def who_saw(fake: FakeDiscord, message: Message) -> set[int]:
    """Every user who could read the message at any moment (each version, when posted or edited)."""
    seen: set[int] = set()
    for revision in message.revisions:
        seen |= set(revision.audience)
    return seen | set(fake.world.audience(message))


def picker(message: Message) -> str:
    return next(c for c in message.custom_ids() if c.startswith("sb:") and c.endswith(":p"))


async def show_power(fake: FakeDiscord, user: User, sheet: Message, power: str) -> Message:
    return await (await fake.click(user, sheet, picker(sheet), values=[power])).message()


async def press(fake: FakeDiscord, user: User, sheet: Message, action: str) -> InteractionHandle:
    return await fake.click(user, sheet, button_id(sheet, action))


async def results_of(fake: FakeDiscord, handle: InteractionHandle) -> tuple[str, dict[str, bytes]]:
    """The results an Adjudicate press sent under the sheet (one or more messages, the map with the
    last): their text and files."""

    def probe() -> tuple[str, dict[str, bytes]] | None:
        found = [fake.world.messages[i] for i in handle.interaction.followup_ids]
        if not found or not found[-1].files():
            return None
        return "\n".join(m.content for m in found), found[-1].files()

    result: tuple[str, dict[str, bytes]] = await fake.wait_for(probe, what="the sandbox's results")
    return result


async def new_sandbox(
    fake: FakeDiscord, user: User, channel: Any, **options: object
) -> tuple[Message, Message]:
    """``user`` runs /sandbox new: its first answer and the sheet that follows."""
    handle = await fake.slash(user, "sandbox", "new", options=options, channel=channel)
    answer = await handle.message()
    [sheet] = await handle.followups(1)
    return answer, sheet


async def test_a_sandbox_of_a_running_game_ordered_adjudicated_and_stepped_back_seen_by_its_owner_alone(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Friday")
        owner, germany = table.player("FRANCE"), table.player("GERMANY")
        assert (await ask(fake, owner, "order", channel=table.general, text="A Par-Pic")).ephemeral
        assert (await ask(fake, germany, "order", channel=table.general, text="A Mun-Bur")).ephemeral
        channel = await game_channel_of(bot, fake, game_id)
        await settle(bot, fake)
        posted = len(bot_messages(fake, channel))
        before = set(fake.world.messages)

        answer, sheet = await new_sandbox(fake, owner, table.general, game=str(game_id), my_orders=True)
        assert answer.ephemeral and "Sandbox #1 is yours" in answer.content
        assert "Your 1 order of France was copied in (nobody else's)." in answer.content
        within_discords_limits(sheet)
        assert "Sandbox #1 · Spring 1901 Movement" in fake.text_view(sheet)
        assert "only you can see this board" in fake.text_view(sheet)
        taps = Tapper(fake)
        assert shows(sheet, "PAR") == "A PAR → PIC · Picardy", "it opens on the owner's power, not Austria"
        opened = await ask(fake, owner, "sandbox", "open", channel=table.general)
        assert shows(opened, "PAR") == "A PAR → PIC · Picardy", "and so does /sandbox open"

        sheet = await show_power(fake, owner, sheet, "FRANCE")
        assert shows(sheet, "PAR") == "A PAR → PIC · Picardy", "the owner's own order, copied in"
        sheet = await taps.pick(owner, sheet, "PAR", "A PAR - BUR")
        assert "✅ `A PAR - BUR`" in fake.text_view(sheet)
        sheet = await show_power(fake, owner, sheet, "GERMANY")
        assert shows(sheet, "MUN") == "A MUN · Munich: no order yet", "Germany's game order stays secret"
        sheet = await taps.pick(owner, sheet, "MUN", "A MUN - RUH")
        sheet = await show_power(fake, owner, sheet, "ENGLAND")
        sheet = await taps.pick(owner, sheet, "LON", "F LON - NTH")
        support = await taps.pick(owner, sheet, "EDI", "@support")
        assert offered(support, "EDI")["F EDI S F LON - NTH"] == "F LON → NTH (England)"
        sheet = await taps.pick(owner, support, "EDI", "F EDI S F LON - NTH")
        assert shows(sheet, "EDI") == "F EDI supports F LON → NTH (England)"
        handle = await fake.slash(
            owner, "sandbox", "order", options={"text": "A Lvp-Yor; A Mar-Tus"}, channel=table.general
        )
        typed = await handle.message()
        assert "✅ England: `A LVP - YOR`" in typed.content
        assert "❌ France: A Mar-Tus" in typed.content and "LYO" in typed.content, "refused with its reason"
        [sheet] = await handle.followups(1)
        assert "England 3/3 ✓" in fake.text_view(sheet) and "France 3/3 ✓" not in fake.text_view(sheet)

        adjudicated = await press(fake, owner, sheet, "adjudicate")
        sheet = await adjudicated.message()
        results, files = await results_of(fake, adjudicated)
        assert "Sandbox #1 · Fall 1901 Movement" in fake.text_view(sheet)
        assert "Spring 1901 Movement adjudicated" in fake.text_view(sheet)
        assert "Sandbox #1 · Spring 1901 Movement: results" in results
        assert "`A PAR - BUR`" in results and "`A MUN - RUH`" in results
        assert "`F EDI S F LON - NTH`" in results and "`A LVP - YOR`" in results
        [(name, png)] = files.items()
        assert name == "sandbox-1-S1901M-results.png" and png[:4] == b"\x89PNG"
        sheet = await show_power(fake, owner, sheet, "FRANCE")
        assert shows(sheet, "BUR") == "A BUR · Burgundy: no order yet", "the army moved in the sandbox"

        drawn = await press(fake, owner, sheet, "map")
        board = await drawn.message()
        assert "every order given so far" in board.content
        assert list(board.files()) == ["sandbox-1-F1901M-orders.png"] and board.ephemeral

        back = await press(fake, owner, sheet, "back")
        sheet = await back.message()
        assert "Back to Spring 1901 Movement" in fake.text_view(sheet)
        assert shows(sheet, "PAR") == "A PAR → BUR · Burgundy", "its orders as they were"
        sheet = await taps.pick(owner, sheet, "PAR", "A PAR - GAS")
        again = await press(fake, owner, sheet, "adjudicate")
        results, _ = await results_of(fake, again)
        assert "`A PAR - GAS`" in results
        sheet = await show_power(fake, owner, await again.message(), "FRANCE")
        assert shows(sheet, "GAS") == "A GAS · Gascony: no order yet", "the second try's outcome"

        listed = await ask(fake, owner, "sandbox", "list", channel=table.general)
        assert "#1" in listed.content and "Fall 1901 Movement (step 1)" in listed.content
        await settle(bot, fake)

        made = [fake.world.messages[i] for i in sorted(set(fake.world.messages) - before)]
        sandboxed = [m for m in made if is_sandbox_message(fake, m)]
        assert len(sandboxed) >= 6
        for message in sandboxed:
            assert who_saw(fake, message) == {owner.id}, (message.id, fake.text_view(message)[:200])
        for user in [*table.players, table.mod, table.onlooker]:
            if user.id != owner.id:
                assert not any("andbox" in t for t in fake.seen_texts(user)), user.username
        assert len(bot_messages(fake, channel)) == posted, "nothing was posted in the game's channel"
        phase = await current_phase(bot, game_id)
        assert phase.name == "S1901M" and phase.status == "open"
        shown = await ask(fake, owner, "orders", "show", channel=table.general, map=False)
        assert "`A PAR - PIC`" in shown.content and "BUR" not in shown.content, "the game's orders unchanged"
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_someone_elses_sandbox_is_refused_and_a_fourth_replaces_the_oldest_once_confirmed(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Small", players=3, press="public")
        owner, other = table.player("FRANCE"), table.player("ENGLAND")
        _, mine = await new_sandbox(fake, owner, table.general, game=str(game_id))
        _, theirs = await new_sandbox(fake, other, table.general, variant="standard")
        assert "Sandbox #2 · Spring 1901 Movement" in fake.text_view(theirs)

        # the other member's client forges the owner's sandbox (its number and tag) into its own sheet
        box_1, box_2 = mine.custom_ids()[0].split(":")[1], theirs.custom_ids()[0].split(":")[1]
        assert box_1.startswith("1.") and box_2.startswith("2.")
        for custom_id in theirs.custom_ids():
            rename(theirs, custom_id, custom_id.replace(f"sb:{box_2}:", f"sb:{box_1}:", 1))
        adjudicate = next(c for c in theirs.custom_ids() if ":b:adjudicate@" in c)
        [refused] = await (await fake.click(other, theirs, adjudicate)).followups(1)
        assert refused.ephemeral and "You have no sandbox #1" in refused.content
        unit = next(c for c in theirs.custom_ids() if ":u:" in c)
        options = next(x for x in walk_components(theirs.components) if x.get("custom_id") == unit)["options"]
        refused = await (await fake.click(other, theirs, unit, values=[options[0]["value"]])).message()
        assert "You have no sandbox #1" in refused.content and "Nothing was changed" in refused.content
        deleted = await ask(fake, other, "sandbox", "delete", channel=table.general, sandbox="1")
        assert "You have no sandbox #1" in deleted.content
        unknown = await ask(fake, other, "sandbox", "delete", channel=table.general, sandbox="#99")
        assert unknown.content.replace("#99", "#1") == deleted.content, "one answer: numbers are guessable"
        fresh = await ask(fake, owner, "sandbox", "open", channel=table.general)
        assert "Sandbox #1 · Spring 1901 Movement" in fake.text_view(fresh), "the owner's is untouched"

        for variant in ("ancmed", "fleetrome"):
            await new_sandbox(fake, owner, None, variant=variant)  # in direct messages
        asked = await ask(fake, owner, "sandbox", "new", channel=table.general, variant="modern")
        assert "You have 3 sandboxes" in asked.content and "#1" in asked.content
        keep = f"sbx:keep:{owner.id}"
        not_theirs = await forge(
            fake,
            other,
            InteractionKind.MESSAGE_COMPONENT,
            {"custom_id": keep, "component_type": 2},
            source=asked,
        )
        assert "This question was not asked to you here" in not_theirs.content, not_theirs.content
        kept = await (await fake.click(owner, asked, keep)).message()
        assert "Kept" in kept.content
        assert "#1" in (await ask(fake, owner, "sandbox", "list", channel=table.general)).content
        asked = await ask(fake, owner, "sandbox", "new", channel=table.general, variant="modern")
        replace = next(c for c in asked.custom_ids() if c.startswith(f"sbx:new:{owner.id}:1:"))
        confirmed = await fake.click(owner, asked, replace)
        made, sheet = await confirmed.followups(2)
        assert (
            "Sandbox #5 is yours" in made.content
            and "Sandbox #5 · Spring 1995 Movement" in fake.text_view(sheet)
        )
        listed = (await ask(fake, owner, "sandbox", "list", channel=table.general)).content
        assert "**#1**" not in listed and "the start of Modern Diplomacy" in listed, listed

        await fake.remove_member(table.guild, owner)
        await settle(bot, fake)
        left = await bot.services.gamemaster.sandboxes_of(owner.id)
        assert {box.title for box in left} == {
            "the start of Ancient Mediterranean",
            "the start of Fleet Rome",
        }, "those of the server they left are gone; those made in direct messages stay"
        assert len(await bot.services.gamemaster.sandboxes_of(other.id)) == 1
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_retreats_and_builds_on_a_sandboxs_sheet_from_a_variants_start_in_direct_messages(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path):
        owner = table.players[0]
        _, sheet = await new_sandbox(fake, owner, None, variant="standard")
        assert "From the start of Standard" in fake.text_view(sheet) and sheet.ephemeral

        async def typed(orders: str) -> Message:
            handle = await fake.slash(owner, "sandbox", "order", options={"text": orders})
            assert "❌" not in (await handle.message()).content
            [shown] = await handle.followups(1)
            return shown

        async def adjudicated(on: Message) -> Message:
            handle = await press(fake, owner, on, "adjudicate")
            await results_of(fake, handle)
            return await handle.message()

        sheet = await typed("A Par-Bur; F Bre-MAO; A Mun-Ruh; A Ber-Mun; F Kie-Den")
        sheet = await adjudicated(sheet)
        sheet = await typed("F MAO-Spa/nc; A Ruh-Bur; A Mun S A Ruh-Bur")
        sheet = await adjudicated(sheet)
        assert "Sandbox #1 · Fall 1901 Retreats" in fake.text_view(sheet)
        assert shows(sheet, "BUR") == "A BUR · Burgundy (dislodged): no order yet"
        assert "A BUR R PIC" in offered(sheet, "BUR") and "A BUR D" in offered(sheet, "BUR")
        sheet = await Tapper(fake).pick(owner, sheet, "BUR", "A BUR R PIC")
        sheet = await adjudicated(sheet)
        assert "Sandbox #1 · Winter 1901 Adjustments" in fake.text_view(sheet)
        sheet = await show_power(fake, owner, sheet, "FRANCE")
        assert "A PAR B" in offered(sheet, "PAR")
        sheet = await Tapper(fake).pick(owner, sheet, "PAR", "A PAR B")
        assert "✅ `A PAR B`" in fake.text_view(sheet)
        sheet = await show_power(fake, owner, sheet, "GERMANY")
        waived = await (await press(fake, owner, sheet, "waive")).message()
        assert "✅ `WAIVE`" in fake.text_view(waived)
        handle = await press(fake, owner, waived, "adjudicate")
        results, _ = await results_of(fake, handle)
        assert "`A PAR B`" in results and "`WAIVE`" in results
        assert "Sandbox #1 · Spring 1902 Movement" in fake.text_view(await handle.message())
        for message in fake.world.messages.values():
            if is_sandbox_message(fake, message):
                assert who_saw(fake, message) == {owner.id}
    assert fake.unknown_calls == [] and fake.internal_errors == []
