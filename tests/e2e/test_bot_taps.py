"""Quick second taps under a 429 storm (issue 38 E and F), through the real bot and the fake Discord.

All seven players tap at once, each twice in a row on the same unit of the sheet in their call to
order (a hold, then a move, or the other way round), round after round, while Discord answers some of
the interactions and some of the sheets' redraws with 429: the bot waits those out and tries again,
so the first tap's write or redraw may go out after the second's. Every unit keeps the order of the
last tap (the one stored, the one the results will use), and every sheet ends showing it: a redraw
held back by a 429 never lands over a later tap's.

The same for a game's Join post while six players press Join at once and its first edit is held back
by a 429: it ends showing all seven.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sqlmodel import col, select

from cogs.shared.ordered import Edits
from db.models import OrderRecord
from harness.bot_helpers import (
    POWERS,
    create_game,
    current_phase,
    make_table,
    running,
    settle,
    started_game,
)
from harness.fakediscord import FakeDiscord, Message, User
from harness.sheet_helpers import sheet_select
from tests.e2e.test_bot_sheet import SPRING, dm_sheet

ROUNDS = 3
STORM = 4  # interactions answered 429, and sheet redraws answered 429, in each round
WAIT = 0.4  # seconds Discord asks the bot to wait


async def redraws_sent(edits: Edits, sheet_ids: Iterable[int], timeout: float = 60) -> None:
    """Wait until no redraw of the sheets is going out. Polled: the redraw's end is the bot's, not a
    change in the fake Discord, so the fake's wait_for would only look again at its next event."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while any(edits.busy(s) for s in sheet_ids):
        assert loop.time() < end, f"a redraw still going out after {timeout} s"
        await asyncio.sleep(0.02)


def hold_of(move: str) -> str:
    return move.split(" - ")[0] + " H"


def chosen(message: Message, key: str) -> list[str]:
    return [o["value"] for o in sheet_select(message, key).get("options", []) if o.get("default")]


async def double_tap(fake: FakeDiscord, user: User, sheet_id: int, key: str, first: str, last: str) -> None:
    """Two taps on unit ``key``'s menu of the sheet as it is now, the second before the first is
    answered."""
    sheet = fake.world.messages[sheet_id]
    custom_id = sheet_select(sheet, key)["custom_id"]
    taps = [await fake.click(user, sheet, custom_id, values=[value]) for value in (first, last)]
    await asyncio.gather(*(tap.response() for tap in taps))


async def test_the_last_of_quick_taps_is_stored_and_shown_through_a_429_storm(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Storm")
        players = {power: table.player(power) for power in POWERS}
        sheets = {power: dm_sheet(fake, players[power], "S1901M").id for power in POWERS}
        expected: dict[tuple[str, str], str] = {}  # (power, unit) -> the last tap's order
        taps = 0
        for round_ in range(ROUNDS):
            fake.inject_fault("POST /interactions/*/callback", 429, retry_after=WAIT, times=STORM)
            fake.inject_fault("PATCH /webhooks/*/messages/@original", 429, retry_after=WAIT, times=STORM)
            doubles: list[Any] = []
            for power in POWERS:
                units = SPRING[power]
                key, move = units[round_ % len(units)]
                first, last = (hold_of(move), move) if round_ % 2 == 0 else (move, hold_of(move))
                expected[(power, key)] = last
                doubles.append(double_tap(fake, players[power], sheets[power], key, first, last))
            await asyncio.gather(*doubles)
            taps += 2 * len(doubles)
            await settle(bot, fake)
            await redraws_sent(bot.services.edits, sheets.values())
        assert [f.pattern for f in fake.faults.pending()] == [], "every 429 was met"
        phase = await current_phase(bot, game_id)
        async with bot.runtime.sessions.read() as session:
            stored = {
                (o.power, o.unit_key): o.text
                for o in (
                    await session.exec(select(OrderRecord).where(col(OrderRecord.phase_id) == phase.id))
                ).all()
            }
        wrong_stored = {
            (power, key): (stored.get((power, key.split("/")[0])), last)
            for (power, key), last in expected.items()
            if stored.get((power, key.split("/")[0])) != last
        }
        assert wrong_stored == {}, f"stored (got, the last tap) after {taps} taps: {wrong_stored}"
        shown = {(power, key): chosen(fake.world.messages[sheets[power]], key) for power, key in expected}
        wrong_shown = {unit: (shown[unit], last) for unit, last in expected.items() if shown[unit] != [last]}
        assert wrong_shown == {}, f"shown (got, the last tap) after {taps} taps: {wrong_shown}"
        print(f"{taps} taps; {bot.services.edits.dropped} redraws dropped for a later one")
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_join_post_held_back_by_a_429_ends_showing_every_player(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await create_game(fake, table, "Crowd")
        post = next(m for m in fake.channel_messages(table.general) if f"join:{game_id}" in m.custom_ids())
        assert "Joined (1 of 7)" in post.embeds[0]["description"]
        edits = f"PATCH /channels/{table.general.id}/messages/{post.id}"
        fake.inject_fault(edits, 429, retry_after=2 * WAIT)  # the first edit waits, then goes out late
        fake.slow_down(edits, 4 * WAIT)  # and Discord is slow with it then
        joins = [await fake.click(user, post, f"join:{game_id}") for user in table.players[1:]]
        for join in joins:
            assert "You joined" in (await join.message()).content
        await settle(bot, fake)
        await fake.wait_for(lambda: not bot.services.posts.busy(post.id) or None, what="the post's edits")
        assert fake.faults.pending() == [], "the 429 and the slow answer were met"
        shown = fake.world.messages[post.id].embeds[0]["description"]
        assert "Joined (7 of 7)" in shown, shown
    assert fake.unknown_calls == [] and fake.internal_errors == []
