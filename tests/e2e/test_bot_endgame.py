"""The end of a game through the real bot and the fake Discord: a draw voted in secret (and a vote from
an eliminated power refused), a short game ending at its last year with the final post (map, table of
centers per year, the game as a GIF, the centers chart), then /history (a phase, the chart in either
palette) and /game export of the finished game."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

from PIL import Image

from engine.variants import get_variant
from harness.bot_helpers import (
    ask,
    bot_messages,
    current_phase,
    deadline_passes,
    edit_board,
    embed_text,
    embeds_titled,
    game_channel_of,
    make_table,
    pings,
    running,
    settle,
    started_game,
)
from harness.fakediscord import FakeDiscord, Message
from render.palette import palette_for
from tests.helpers.e2e import eliminated, print_transcript, ready_all


def assert_final_post(final: Message, game_id: int, map_name: str) -> None:
    names = [map_name, f"game-{game_id}-chart.png", f"game-{game_id}-animation.gif"]
    assert [a.filename for a in final.attachments] == names
    assert final.attachments[0].data.startswith(b"\x89PNG")
    assert final.attachments[1].data.startswith(b"\x89PNG"), "the centers chart"
    assert final.attachments[2].data.startswith(b"GIF89a")
    assert final.embeds[0]["image"]["url"] == f"attachment://{map_name}"


def table_after(fake: FakeDiscord, final: Message) -> str:
    """The message after the final post: the centers table."""
    messages = bot_messages(fake, fake.world.channel(final.channel_id))
    following = messages[messages.index(final) + 1]
    assert following.content.startswith("**Supply centers per year**\n```"), following.content
    return following.content


async def test_a_unanimous_draw_ends_the_game_and_nobody_learns_who_voted_what(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Peace", players=3, press="public")
        channel = await game_channel_of(bot, fake, game_id)
        proposer, other, fallen = (table.player(p) for p in ("FRANCE", "ENGLAND", "RUSSIA"))
        await edit_board(bot, game_id, eliminated(*table.seats[fallen.id]))  # Russia and Italy are gone

        nothing = await ask(fake, other, "draw", "status", channel=table.general)
        assert "nothing is proposed this phase" in nothing.content
        proposed = await ask(fake, proposer, "draw", "propose", channel=table.general)
        assert proposed.ephemeral and "You proposed a draw" in proposed.content
        assert "France yes" in proposed.content and "Turkey yes" in proposed.content
        await settle(bot, fake)
        [opened] = embeds_titled(fake, channel, "a draw is proposed")
        said = embed_text(opened)
        assert "(Austria, England, France, Germany and Turkey)" in said and f"<@{proposer.id}>" not in said

        refused = await ask(fake, fallen, "draw", "vote", channel=table.general, choice="yes")
        assert "have been eliminated" in refused.content and "Nothing was recorded" in refused.content
        status = await ask(fake, other, "draw", "status", channel=table.general)
        assert "- a draw: your votes: none yet" in status.content
        no = await ask(fake, other, "draw", "vote", channel=table.general, choice="no")
        assert "Your vote on a draw: Austria no, England no, Germany no. Nobody else sees it." in no.content
        mine = await ask(fake, proposer, "draw", "status", channel=table.general)
        assert "France yes, Turkey yes" in mine.content and "no" not in mine.content.split("votes:")[1]
        assert (await current_phase(bot, game_id)).status == "open", "one no keeps the game going"
        yes = await ask(fake, other, "draw", "vote", channel=table.general, choice="yes")
        assert "That was the last vote needed" in yes.content
        await settle(bot, fake)

        [final] = embeds_titled(
            fake, channel, "Peace is over: a draw of Austria, England, France, Germany and Turkey"
        )
        assert "The game is drawn by agreement, shared by Austria, England, France, Germany and Turkey." in (
            embed_text(final)
        )
        assert_final_post(final, game_id, "S1901M-final.png")
        assert "start " in table_after(fake, final)
        public = "\n".join(m.text for m in bot_messages(fake, channel))
        for user in (proposer, other):
            assert (
                f"<@{user.id}> voted" not in public and "voted yes" not in public and "voted no" not in public
            )
        status = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=str(game_id))
        assert "Result: a draw shared by Austria, England, France, Germany and Turkey." in status.content
        late = await ask(fake, proposer, "draw", "vote", channel=table.general, choice="no")
        assert "not playing in any running game" in late.content
        assert pings(fake) == []
    if os.environ.get("SHOW_TRANSCRIPT"):
        print_transcript(fake, table)
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_short_game_ends_at_its_last_year_with_the_final_post_history_and_export(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Sprint", players=3, press="public", last_year=1901)
        game = str(game_id)
        channel = await game_channel_of(bot, fake, game_id)
        france = table.player("FRANCE")
        await ask(fake, france, "order", channel=table.general, text="A Mar-Spa; F Bre-MAO")
        await deadline_passes(bot, fake, game_id)
        await ask(fake, france, "order", channel=table.general, text="F MAO-Por")
        await ready_all(fake, table)
        await settle(bot, fake)

        [final] = embeds_titled(fake, channel, "Sprint is over: France wins on centers")
        told = embed_text(final)
        assert "The last year (1901) has been played; the most centers decide." in told
        assert "France wins with 5 centers." in told and "France: 5" in told
        assert_final_post(final, game_id, "F1901M-final.png")
        rows = table_after(fake, final).splitlines()
        assert rows[2] == "Year  Aus Eng Fra Ger Ita Rus Tur"
        assert (
            rows[3] == "start   3   3   3   3   3   4   3" and rows[4] == "1901    3   3   5   3   3   4   3"
        )

        for colorblind in (False, True):  # the chart on demand, each power in its colour of either palette
            asked = await ask(
                fake,
                table.onlooker,
                "history",
                "chart",
                channel=table.general,
                game=game,
                colorblind=colorblind,
            )
            assert "supply centers per year" in asked.content
            [chart] = asked.attachments
            assert chart.filename == f"game-{game_id}-chart{'-colorblind' if colorblind else ''}.png"
            picture = Image.open(io.BytesIO(chart.data)).convert("RGB")
            assert picture.size == (1200, 900)
            pal = palette_for(get_variant("standard"), "colorblind" if colorblind else "default")
            colours = {colour for _, colour in picture.getcolors(1_000_000) or []}
            assert pal.powers["FRANCE"].unit in colours, "France's line and chip in France's colour"
        status = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=game)
        assert "finished" in status.content and "Result: France won." in status.content
        assert f"- France <@{france.id}>: 5 centers, 3 units" in status.content, "the final position"
        past = await ask(
            fake, table.onlooker, "history", "phase", channel=table.general, game=game, phase="S1901M"
        )
        assert "✅ `A MAR - SPA`" in past.content and "bookkeeping" not in past.content
        assert [a.filename for a in past.attachments] == ["S1901M-orders.png"]
        last = await ask(
            fake, table.onlooker, "history", "phase", channel=table.general, game=game, phase="F1901M"
        )
        assert "✅ `F MAO - POR`" in last.content
        exported = await ask(fake, table.onlooker, "game", "export", channel=table.general, game=game)
        assert exported.ephemeral and [a.filename for a in exported.attachments] == [
            f"diplomacy-game-{game_id}.json"
        ]
        data = json.loads(exported.attachments[0].data)
        assert data["game"]["result"]["winner"] == "FRANCE" and data["game"]["status"] == "finished"
        assert [p["name"] for p in data["phases"]] == ["S1901M", "F1901M"]
        assert all("bookkeeping" not in (p["results"] or {}) for p in data["phases"])
        over = await ask(fake, france, "order", channel=table.general, text="A Par H")
        assert "not playing in any running game" in over.content
    if os.environ.get("SHOW_TRANSCRIPT"):
        print_transcript(fake, table)
    assert fake.unknown_calls == [] and fake.internal_errors == []
