"""The README's pictures of the order sheet: the real bot against the loopback fake Discord, a
Standard game started, France's sheet opened with /orders sheet, two orders picked and the support
menu open; drawn as a phone 390 points wide shows it (the fake's
screenshot, harness/fakediscord/screenshot.py), with the text view printed.

    .venv/bin/python scripts/sheet_picture.py [--out docs/images]

Writes ``order_sheet.png`` (the sheet from /orders sheet with two orders, the support menu open) and
``order_sheet_in_dm.png`` (the welcome by direct message, the first phase's call to order, with the
sheet under its words); prints the sheet as text once all is ordered and Ready pressed.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pictures_cli import pictures_main

from harness.bot_helpers import a_started_game
from harness.fakediscord import FakeDiscord, Message, User
from harness.sheet_helpers import Tapper, sheet_select


def sheet_of(fake: FakeDiscord, user: User) -> Message:
    return next(m for m in fake.dm_messages(user) if any(":u:" in c for c in m.custom_ids()))


async def make(out: Path) -> None:
    async with a_started_game("Friday") as (fake, table, _, _):
        france = table.player("FRANCE")
        taps = Tapper(fake)
        opened = await fake.slash(france, "orders", "sheet", channel=table.general)
        sheet = await taps.pick(france, await opened.message(), "PAR", "A PAR - BUR")
        sheet = await taps.pick(france, sheet, "BRE", "F BRE - MAO")
        support = await taps.pick(france, sheet, "MAR", "@support")
        menu = sheet_select(support, "MAR")["custom_id"]
        (out / "order_sheet.png").write_bytes(fake.screenshot(support, expanded=menu))
        print(fake.text_view(support))
        done = await taps.pick(france, support, "MAR", "A MAR S A PAR - BUR")
        done = await taps.press(france, done, "ready")
        print(fake.text_view(done))
        call = sheet_of(fake, france)
        (out / "order_sheet_in_dm.png").write_bytes(fake.screenshot(call))
        print(f"{taps.taps[france.id]} taps after /orders sheet")


if __name__ == "__main__":
    pictures_main(__doc__ or "", make)
