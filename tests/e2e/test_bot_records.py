"""The game's records tell no more than its game channel did while it runs: /game export, /game status
and /history of a running game with an absence, a grace extension and a declined take-over name nobody
behind them; once the game is over the export carries the whole log, and says so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from harness.bot_helpers import (
    Table,
    ask,
    bot_messages,
    current_phase,
    deadline_passes,
    embed_text,
    game_channel_of,
    leaves_game,
    make_table,
    running,
    settle,
    started_game,
)
from harness.fakediscord import FakeDiscord, Message
from tests.helpers.e2e import click_and_read, mod

PRIVATE_ACTIONS = ("absence", "absence_cancelled", "watch", "unwatch", "mod_take_over_declined")


async def export(fake: FakeDiscord, table: Table, game_id: int) -> tuple[Message, dict[str, Any]]:
    answer = await ask(fake, table.onlooker, "game", "export", channel=table.general, game=str(game_id))
    return answer, json.loads(answer.attachments[0].data)


def entries(data: dict[str, Any], action: str) -> list[dict[str, Any]]:
    return [e for e in data["log"] if e["action"] == action]


async def test_a_running_games_records_name_nobody_behind_an_absence_a_grace_or_a_declined_seat(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(
            fake,
            bot,
            table,
            "Records",
            players=3,
            press="public",
            grace=1,
            grace_hours=12,
            take_over="approval",
        )
        away, forgetful = table.players[1], table.players[2]
        declared = await ask(
            fake, away, "absence", "add", channel=table.general, **{"from": "today", "to": "tomorrow"}
        )
        assert "You declared your absence" in declared.content
        await ask(fake, table.players[0], "ready", channel=table.general)
        await deadline_passes(bot, fake, game_id)  # the moved deadline: away and forgetful sent nothing
        assert (await current_phase(bot, game_id)).name == "S1901M", "a grace extension, not a close"
        await deadline_passes(bot, fake, game_id)
        assert (await current_phase(bot, game_id)).name == "F1901M"
        gone = await leaves_game(fake, forgetful, table.general, game_id)
        assert gone.startswith("You left")
        await settle(bot, fake)
        channel = await game_channel_of(bot, fake, game_id)
        seat = next(c for m in bot_messages(fake, channel) for c in m.custom_ids() if c.startswith("seat:"))
        [offer] = [m for m in bot_messages(fake, channel) if seat in m.custom_ids()]
        asker = await fake.create_user("asker")
        await fake.add_member(table.guild, asker)
        await (await fake.click(asker, offer, seat)).message()
        await settle(bot, fake)
        decline = next(
            c for m in bot_messages(fake, channel) for c in m.custom_ids() if c.startswith("seat-no:")
        )
        [request] = [m for m in bot_messages(fake, channel) if decline in m.custom_ids()]
        declined = await (await fake.click(table.mod, request, decline)).message()
        assert declined.content.startswith("Done:"), declined.content
        await settle(bot, fake)
        told = "\n".join(
            embed_text(m) for m in bot_messages(fake, channel) if "deadline" in embed_text(m).split("\n")[0]
        )
        assert "grace extension" in told and "a player is away" in told
        assert f"<@{away.id}>" not in told and f"<@{forgetful.id}>" not in told

        answer, data = await export(fake, table, game_id)
        assert "nobody's name behind an absence or a grace extension" in answer.content
        assert data["log_scope"] == "public"
        assert not [e for e in data["log"] if e["action"] in PRIVATE_ACTIONS]
        [moved] = entries(data, "absence_move")
        [grace] = entries(data, "grace")
        for entry in (moved, grace):
            assert entry["actor_id"] is None and set(entry["detail"]) == {"phase", "before", "after"}, entry
        assert str(away.id) not in json.dumps([moved, grace]) and str(forgetful.id) not in json.dumps(grace)
        [left] = entries(data, "left")
        assert left["actor_id"] == forgetful.id, "the departure was announced (its seat is offered)"
        assert str(asker.id) not in json.dumps(data["log"]), (
            "the declined request was told to its author alone"
        )

        status = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=str(game_id))
        assert "take_over_declined" not in status.content and f"<@{asker.id}>" not in status.content
        assert "absence" not in status.content.lower().replace("absences:", "")
        past = await ask(
            fake, table.onlooker, "history", "phase", channel=table.general, game=str(game_id), phase="S1901M"
        )
        assert "(no order given)" in past.content, "who ordered nothing is public once the phase closed"
        assert f"<@{away.id}>" not in past.content and "grace" not in past.content.lower()

        asked = await mod(fake, table.mod, table, "end", game=str(game_id), reason="records")
        assert (await click_and_read(fake, table.mod, asked, asked.custom_ids()[0])).startswith("Done:")
        await settle(bot, fake)
        answer, data = await export(fake, table, game_id)
        assert (
            data["log_scope"] == "full" and "The game is over, so the log is the whole log" in answer.content
        )
        [declared_entry] = entries(data, "absence")
        assert declared_entry["actor_id"] == away.id
        [grace] = entries(data, "grace")
        assert set(grace["detail"]["user_ids"]) == {away.id, forgetful.id}
        assert entries(data, "mod_take_over_declined")[0]["detail"]["user_id"] == asker.id
    assert fake.unknown_calls == [] and fake.internal_errors == []
