"""Every component id the bot registers is read defensively: each registered DynamicItem template is
fed ids a modified client could send (tests/helpers/id_fuzz.py draws them from the template itself:
huge numbers, text where numbers go, other members' ids, other games and sandboxes, closed phases),
copied onto the messages a member can tap (their order sheet in direct messages, their sandbox's
private sheet, a game's public Join post). Each gets its own answer, a refusal in words (never
"Something went wrong"), privately; nothing changes (the games, the sandboxes, the messages); no
error is logged and /admin status has no last error."""

from __future__ import annotations

import asyncio
import logging
import random
import re
import typing
from pathlib import Path
from typing import Any

import discord
import pytest

from harness.bot_helpers import ask, create_game, make_table, running, settle, start_game
from harness.fakediscord import FakeDiscord, InteractionHandle, Message, Permission
from harness.fakediscord.state import InteractionKind, walk_components
from tests.helpers.forging import rename
from tests.helpers.id_fuzz import HUGE, NUMBERS, WORDS, sample

PER_CARRIER = 10  # ids per template and message
CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7
BUTTON, SELECT = 2, 3


def kind_of(item: type[Any]) -> int:
    """Whether a DynamicItem class wraps a button or a select (its generic argument)."""
    for base in getattr(item, "__orig_bases__", ()):
        for arg in typing.get_args(base):
            origin = typing.get_origin(arg) or arg
            if isinstance(origin, type) and issubclass(origin, discord.ui.Select):
                return SELECT
            if isinstance(origin, type) and issubclass(origin, discord.ui.Button):
                return BUTTON
    raise AssertionError(f"{item.__name__}: neither a button nor a select")


def first_of(message: Message, kind: int) -> str | None:
    return next(
        (
            c["custom_id"]
            for c in walk_components(message.components)
            if c.get("type") == kind and c.get("custom_id")
        ),
        None,
    )


def snapshot(message: Message) -> tuple[str, str, str]:
    return message.content, repr(message.embeds), repr(message.components)


async def answer_to(fake: FakeDiscord, handle: InteractionHandle) -> tuple[str, bool]:
    """The words the member got for a tap, and whether only they saw them; fails on an edit of the
    message tapped (an update) or on no answer."""
    interaction, world = handle.interaction, fake.world

    def probe() -> tuple[str, bool] | None:
        kind = interaction.response_type
        if kind == UPDATE_MESSAGE:
            return ("(the message tapped was edited)", False)
        found = [world.messages[i] for i in interaction.followup_ids]
        if kind in (CHANNEL_MESSAGE, DEFERRED_MESSAGE):
            original = world.messages.get(interaction.original_message_id or 0)
            if original is not None and not original.loading:
                found.insert(0, original)
        if not found:
            return None
        return "\n".join(fake.text_view(m) for m in found), all(m.ephemeral for m in found)

    result: tuple[str, bool] = await fake.wait_for(probe, what=f"an answer to {interaction.description}")
    return result


async def test_every_registered_component_template_answers_forged_values_and_changes_nothing(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    table = await make_table(fake, players=3)
    attacker, victim = table.players[0], table.players[1]
    async with running(fake, tmp_path) as bot:
        games = bot.services.gamemaster
        game_a = await create_game(fake, table, "Fuzzed", players=3, press="public")
        for user in table.players[1:]:
            await ask(fake, user, "game", "join", channel=table.general, game=str(game_a))
        await start_game(fake, bot, table, game_a)
        game_b = await create_game(fake, table, "Forming", players=3)  # the attacker's, joined
        [join_post] = [m for m in fake.channel_messages(table.general) if f"join:{game_b}" in m.custom_ids()]
        theirs = await ask(fake, victim, "sandbox", "new", channel=table.general, game=str(game_a))
        mine_handle = await fake.slash(
            attacker, "sandbox", "new", options={"game": str(game_a)}, channel=table.general
        )
        await mine_handle.message()
        [my_sheet] = await mine_handle.followups(1)
        await settle(bot, fake)
        [their_box] = await games.sandboxes_of(victim.id)
        [my_box] = await games.sandboxes_of(attacker.id)
        assert theirs.content and my_box.id != their_box.id
        [welcome] = [m for m in fake.dm_messages(attacker) if any(":b:ready" in c for c in m.custom_ids())]
        phase = (await games.get_game(game_a)).phase
        assert phase is not None
        phase_id = phase.id

        before = {
            "a": repr(await games.get_game(game_a)),
            "b": repr(await games.get_game(game_b)),
            "orders": [repr(await games.my_orders(game_a, u.id)) for u in table.players],
            "boxes": repr([await games.sandboxes_of(u.id) for u in (attacker, victim)]),
            "messages": [snapshot(m) for m in (join_post, welcome, my_sheet)],
        }
        rng = random.Random(39)
        others = [str(victim.id), str(table.players[2].id), str(table.mod.id), str(table.onlooker.id)]
        pools: dict[str, list[str]] = {
            "game_id": [str(game_a), str(game_b), "999", HUGE, *NUMBERS],
            "game": [str(game_a), str(game_b), "-", "999"],
            "user_id": [*others, "0", HUGE],
            "owner": [*others, "0", HUGE],
            "phase": ["S1900M", "F1901M", "F1901R", "W1901A", "S2999M"],  # closed, or never opened
            "phase_id": [str(phase_id + 1), str(phase_id - 1), "0", HUGE],
            "sandbox_id": [str(their_box.id), str(my_box.id), "999", HUGE],
            "oldest": [str(their_box.id), str(my_box.id), "999"],
            "tag": [their_box.tag, "zzzz", "0"],  # never the attacker's own sandbox's tag
            "box_tag": [their_box.tag, "zzzz", "0"],
            "power": ["FRANCE", "ENGLAND", "RUSSIA", "XYZ", "-"],
            "key": list(WORDS),
            "arg": [*list(WORDS), "abc", "99999", "-1"],
            "rest": [*list(WORDS), "PAR:hold", "PAR:teleport", "k:PAR", "t:PAR:move", "c:PAR:support:BUR"],
            "token": ["-", "0", "deadbeef"],
            "page": ["0", "1", "2", "99", "100", HUGE],
            "part": ["0", "1", "3", "99", HUGE],
            "variant": ["standard", "nonesuch", "-"],
        }
        carriers = [welcome, my_sheet, join_post]
        registered: dict[re.Pattern[str], type[Any]] = dict(bot._connection._view_store._dynamic_items)
        fuzzed: dict[str, int] = {}
        failures: list[str] = []
        for pattern, item in registered.items():
            kind = kind_of(item)
            for carrier in carriers:
                old = first_of(carrier, kind)
                if old is None:
                    continue
                for _ in range(PER_CARRIER):
                    custom_id = sample(pattern.pattern, rng, pools)
                    if len(custom_id) > 100:
                        continue  # Discord refuses a longer id before it reaches the bot
                    data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
                    if kind == SELECT:
                        data["values"] = [rng.choice(["PAR", "A PAR H", "@none", "zzz", "FRANCE", "-", ""])]
                    rename(carrier, old, custom_id)
                    try:
                        handle = await fake._interact(
                            InteractionKind.MESSAGE_COMPONENT,
                            attacker,
                            fake.world.channels[carrier.channel_id],
                            data,
                            f"{attacker.username} sending {custom_id!r}",
                            source=carrier,
                            source_revisions=len(carrier.revisions),
                        )
                        words, private = await answer_to(fake, handle)
                    finally:
                        rename(carrier, custom_id, old)
                    fuzzed[item.__name__] = fuzzed.get(item.__name__, 0) + 1
                    if "went wrong" in words or not private or not words.strip():
                        failures.append(f"{custom_id!r} on {carrier.id}: {words!r} (private: {private})")
            await asyncio.sleep(0)
        assert failures == [], "\n".join(failures)
        assert set(fuzzed) == {item.__name__ for item in registered.values()}, "every template fed"
        assert len(registered) >= 14  # every item registered (a sheet's serve games and sandboxes alike)

        # The hostile review's own: a malformed value on one's own sheets, and one's own Keep and
        # Replace (and a confirmation) copied onto the public Join post.
        ready = next(c for c in welcome.custom_ids() if c.endswith(":b:ready@0"))
        sandbox_button = next(c for c in my_sheet.custom_ids() if ":b:" in c)
        own = [
            (welcome, ready, ready.replace(":b:ready@0", ":b:page:abc@0"), "not one of mine"),
            (welcome, ready, ready.replace(":b:ready@0", ":b:page@99999999"), "not one of mine"),
            (my_sheet, sandbox_button, re.sub(r":b:.*$", ":b:page:abc@0", sandbox_button), "not one of mine"),
            (join_post, f"join:{game_b}", f"sbx:keep:{attacker.id}", "not asked to you here"),
            (
                join_post,
                f"join:{game_b}",
                f"sbx:new:{attacker.id}:{my_box.id}:-:-:standard:0",
                "not asked to you here",
            ),
            (join_post, f"join:{game_b}", f"mod:cancel:{game_a}:{phase_id}:-", "not asked to you here"),
            (join_post, f"join:{game_b}", f"leave:{game_a}:{attacker.id}:stay", "not asked to you here"),
        ]
        for carrier, old, custom_id, expected in own:
            rename(carrier, old, custom_id)
            try:
                handle = await fake._interact(
                    InteractionKind.MESSAGE_COMPONENT,
                    attacker,
                    fake.world.channels[carrier.channel_id],
                    {"custom_id": custom_id, "component_type": BUTTON},
                    f"{attacker.username} sending {custom_id!r}",
                    source=carrier,
                    source_revisions=len(carrier.revisions),
                )
                words, private = await answer_to(fake, handle)
            finally:
                rename(carrier, custom_id, old)
            assert expected in words and private, (custom_id, words)

        await settle(bot, fake)
        after = {
            "a": repr(await games.get_game(game_a)),
            "b": repr(await games.get_game(game_b)),
            "orders": [repr(await games.my_orders(game_a, u.id)) for u in table.players],
            "boxes": repr([await games.sandboxes_of(u.id) for u in (attacker, victim)]),
            "messages": [snapshot(m) for m in (join_post, welcome, my_sheet)],
        }
        for what in before:
            assert after[what] == before[what], what
        assert bot.facts.last_error.message is None, bot.facts.last_error.message
        admins = await fake.create_role(table.guild, "Admins", Permission.ADMINISTRATOR)
        await fake.add_member(table.guild, fake.app_owner, admins)
        status = await ask(fake, fake.app_owner, "admin", "status", channel=table.general)
        assert "Last error logged: none since the start" in status.content, status.content
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]
    assert fake.unknown_calls == [] and fake.internal_errors == []
