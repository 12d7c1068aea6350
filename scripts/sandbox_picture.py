"""The README's pictures of a sandbox (/sandbox): the real bot against the loopback fake Discord, a
Standard game started, France's player making a sandbox of it, ordering France, Germany and England on
its sheet (the power picker drawn open), then adjudicating; drawn as a phone 390 points wide shows it
(the fake's screenshot, harness/fakediscord/screenshot.py), with the text views printed.

    .venv/bin/python scripts/sandbox_picture.py [--out docs/images]

Writes ``sandbox_sheet.png`` (the sheet with three powers ordered, the power picker open) and
``sandbox_results.png`` (the results map the adjudication sent, as the bot drew it).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pictures_cli import pictures_main

from harness.bot_helpers import a_started_game
from harness.fakediscord import FakeDiscord, Message, User
from harness.sheet_helpers import Tapper, button_id

ORDERS = {
    "FRANCE": [("PAR", "A PAR - BUR"), ("MAR", "A MAR - SPA"), ("BRE", "F BRE - MAO")],
    "GERMANY": [("MUN", "A MUN - RUH"), ("KIE", "F KIE - DEN"), ("BER", "A BER - KIE")],
    "ENGLAND": [("LON", "F LON - NTH"), ("EDI", "F EDI - NWG"), ("LVP", "A LVP - YOR")],
}


def picker(message: Message) -> str:
    return next(c for c in message.custom_ids() if c.startswith("sb:") and c.endswith(":p"))


async def show(fake: FakeDiscord, user: User, sheet: Message, power: str) -> Message:
    return await (await fake.click(user, sheet, picker(sheet), values=[power])).message()


async def make(out: Path) -> None:
    async with a_started_game("Friday", close_workers=1) as (fake, table, _, game_id):
        owner = table.player("FRANCE")
        taps = Tapper(fake)
        made = await fake.slash(
            owner, "sandbox", "new", options={"game": str(game_id)}, channel=table.general
        )
        print(fake.text_view(await made.message()))
        [sheet] = await made.followups(1)
        for power, orders in ORDERS.items():
            sheet = await show(fake, owner, sheet, power)
            for key, order in orders:
                sheet = await taps.pick(owner, sheet, key, order)
        print(fake.text_view(sheet))
        (out / "sandbox_sheet.png").write_bytes(fake.screenshot(sheet, expanded=picker(sheet)))
        adjudicated = await fake.click(owner, sheet, button_id(sheet, "adjudicate"))
        sheet = await adjudicated.message()
        results = await fake.wait_for(
            lambda: next((m for m in adjudicated.messages()[1:] if m.files()), None),
            what="the results with their map",
        )
        print(fake.text_view(sheet))
        print(fake.text_view(results))
        [png] = results.files().values()
        (out / "sandbox_results.png").write_bytes(png)


if __name__ == "__main__":
    pictures_main(__doc__ or "", make)
