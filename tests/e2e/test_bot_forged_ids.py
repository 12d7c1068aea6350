"""Every interaction answers, also one the bot cannot read: a button or menu whose id was forged or left
by an earlier version of the bot (a sheet's button of an unknown kind, one missing its value or
taking none, numbers no id has, an id no item of the bot's takes, an id that is not on its
message), and a form with an unknown phase in its id, without its orders field, or of no kind the
bot makes. Each is refused with
the reason, nothing is recorded, and nothing is logged as an error."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import pytest

from harness.bot_helpers import Table, ask, make_table, running, settle, started_game
from harness.fakediscord import FakeDiscord, Message, User
from harness.fakediscord.state import InteractionKind
from tests.helpers.forging import forged as forge
from tests.helpers.forging import rename

STALE_BUTTON = "This button is not one of mine or is out of date: nothing was recorded."
STALE_FORM = "This form is not one of mine or is out of date: nothing was recorded."
HUGE = "99999999999999999999"


async def click_as(fake: FakeDiscord, user: User, message: Message, old: str, new: str, **kw: Any) -> str:
    rename(message, old, new)
    try:
        answer = await (await fake.click(user, message, new, **kw)).message()
    finally:
        rename(message, new, old)
    assert answer.ephemeral, answer.content
    return answer.content


async def forged(
    fake: FakeDiscord,
    user: User,
    table: Table,
    kind: InteractionKind,
    data: dict[str, Any],
    source: Message | None = None,
) -> str:
    """An interaction built by hand (a modified client), not through the Discord client's checks."""
    answer = await forge(fake, user, kind, data, source=source, channel=table.general)
    assert answer.ephemeral, answer.content
    return answer.content


def form(custom_id: str, orders: str | None) -> dict[str, Any]:
    fields = [{"type": 4, "custom_id": "orders", "value": orders}] if orders is not None else []
    return {"custom_id": custom_id, "components": [{"type": 1, "components": fields}]}


async def test_forged_and_outdated_ids_and_forms_are_refused_with_an_answer_and_change_nothing(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Forgeries", players=3, press="public")
        france = table.player("FRANCE")
        # the welcome's order sheet (in the DM): its buttons and menus, forged
        [(welcome, ready)] = [
            (m, c) for m in fake.dm_messages(france) for c in m.custom_ids() if ":b:ready" in c
        ]
        base = ready.removesuffix("b:ready@0")
        for bad in (
            base + "b:teleport@0",  # a button of an unknown kind
            base + "b:page@0",  # a page button missing its page
            base + "b:ready:PAR@0",  # Ready takes nothing
            base + "b:adjudicate@0",  # a sandbox's button on a game's sheet
            base + "s:PAR:support@0",  # a second menu missing its part
            f"sh:{HUGE}:S1901M:{france.id}:b:hold@0",  # numbers no id has
            f"sh:{game_id}:S1901M:{HUGE}:b:map@0",
            f"tap:{HUGE}:S1901M:open",  # an old builder's, naming no game an id can
            "poll:12:yes",  # an id no item of this bot takes
        ):
            told = await click_as(fake, france, welcome, ready, bad)
            assert told.startswith(STALE_BUTTON) and "Run the command again" in told, (bad, told)
        select = next(c for c in welcome.custom_ids() if ":u:PAR@" in c)
        told = await click_as(
            fake, france, welcome, select, select.replace(":u:", ":u:PAR:"), values=["A PAR H"]
        )
        assert told.startswith(STALE_BUTTON), told

        told = await click_as(fake, france, welcome, ready, re.sub(r"^sh:\d+", f"sh:{HUGE}", ready))
        assert told.startswith(STALE_BUTTON), told
        told = await forged(  # an id one of the bot's items reads, but not on the message it names
            fake,
            france,
            table,
            InteractionKind.MESSAGE_COMPONENT,
            {"custom_id": f"join:{game_id}", "component_type": 2},
            source=welcome,
        )
        assert told.startswith(STALE_BUTTON), told

        for custom_id, orders in (
            (f"orders:{game_id}:X1901Q", "A Par-Bur"),  # an unknown phase in its id
            (f"orders:{game_id}:S1901M", None),  # no orders field: not an empty sheet
            (f"orders:{HUGE}:S1901M", "A Par-Bur"),
            ("feedback:1", "hello"),
        ):
            told = await forged(fake, france, table, InteractionKind.MODAL_SUBMIT, form(custom_id, orders))
            assert told.startswith(STALE_FORM), (custom_id, told)
        told = await forged(
            fake, france, table, InteractionKind.MODAL_SUBMIT, form(f"orders:{game_id}:S1999M", "A Par-Bur")
        )
        assert "The Spring 1999 Movement orders are closed" in told, "a phase that is not this one: gm says"

        await settle(bot, fake)
        shown = await ask(fake, france, "orders", "show", channel=table.general, map=False)
        assert "**France** has no orders yet" in shown.content, "nothing was recorded"
        game = await bot.services.gamemaster.get_game(game_id)
        assert len(game.players) == 3 and game.phase is not None and game.phase.name == "S1901M"
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]
    assert sum("refused" in r.getMessage() for r in caplog.records) >= 14
    assert fake.unknown_calls == [] and fake.internal_errors == []
