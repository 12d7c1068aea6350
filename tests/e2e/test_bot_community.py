"""The community's clock and memory through the real bot and the fake Discord: a game whose phases
close at 21:00 Berlin time and never on a weekend, as players set it up and read it."""

from __future__ import annotations

import re
from pathlib import Path
from zoneinfo import ZoneInfo

from tests.e2e.bot_helpers import (
    ask,
    create_game,
    current_phase,
    deadline_passes,
    embed_text,
    embeds_titled,
    game_channel_of,
    join_everyone,
    make_table,
    running,
    start_game,
)
from tests.e2e.fakediscord import FakeDiscord

WEEKDAY_AT_21_BERLIN = re.compile(r"(Monday|Tuesday|Wednesday|Thursday|Friday) \d+ \w+, 21:00 Europe/Berlin")


async def test_a_game_at_21_berlin_without_weekends_is_set_up_and_shown_so(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=2)
    async with running(fake, tmp_path) as bot:
        creator = table.players[0]
        refused = await ask(
            fake, creator, "game", "create", channel=table.general, name="Typo", time_zone="Europe/Berln"
        )
        assert "did you mean Europe/Berlin" in refused.content, refused.content
        listed = await ask(fake, creator, "game", "list", channel=table.general)
        assert "Typo" not in listed.content, "a refused game is not created"

        choices = await (
            await fake.autocomplete(
                creator, "game", "create", focused="time_zone", options={"time_zone": "berl"}
            )
        ).choices()
        assert [c["value"] for c in choices][:1] == ["Europe/Berlin"]

        game_id = await create_game(
            fake,
            table,
            "Evenings",
            players=2,
            deadline_at="21:00",
            time_zone="europe/berlin",
            skip_days="sat,sun",
        )
        shown = await ask(fake, creator, "game", "settings", channel=table.general, game=str(game_id))
        assert "**Deadlines:** 21:00 Europe/Berlin, every day except Saturday and Sunday" in shown.content

        changed = await ask(
            fake, creator, "game", "settings", channel=table.general, game=str(game_id), every_days=2
        )
        assert "21:00 Europe/Berlin, every 2 days except Saturday and Sunday, which are not counted" in (
            changed.content
        ), changed.content
        back = await ask(
            fake, creator, "game", "settings", channel=table.general, game=str(game_id), every_days=1
        )
        assert "every day except Saturday and Sunday" in back.content

        await join_everyone(fake, table, game_id)
        await start_game(fake, bot, table, game_id)
        status = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=str(game_id))
        [now_line] = [line for line in status.content.splitlines() if line.startswith("Now:")]
        assert WEEKDAY_AT_21_BERLIN.search(now_line), now_line
        welcomes = [
            m
            for m in fake.visible_messages(table.players[1])
            if "You play" in (m.embeds or [{}])[0].get("title", "")
        ]
        assert welcomes and WEEKDAY_AT_21_BERLIN.search(embed_text(welcomes[0])), embed_text(welcomes[0])

        await deadline_passes(bot, fake, game_id)
        channel = await game_channel_of(bot, fake, game_id)
        [results] = embeds_titled(fake, channel, "Movement results")
        assert WEEKDAY_AT_21_BERLIN.search(embed_text(results)), embed_text(results)
        phase = await current_phase(bot, game_id)
        assert phase.deadline is not None
        local = phase.deadline.astimezone(ZoneInfo("Europe/Berlin"))
        assert (local.hour, local.minute) == (21, 0) and local.weekday() < 5
    assert fake.unknown_calls == [] and fake.internal_errors == []
