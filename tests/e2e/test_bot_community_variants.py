"""A community variant through the real bot and the fake Discord: Modern Diplomacy's ten players from
``/game create variant:modern`` to the results of the first phase, with the places Discord allows for
ten (a private channel per power, a private thread per pair of players), the welcome naming the
variant's powers and the map of the variant posted with the results. Also what /game create offers and
says for the biggest variant, Chaos (34 players: press in the game channel only)."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

from PIL import Image

from cogs.commands.game import VARIANT_CHOICES
from engine.variants import VARIANTS_DIR, get_variant
from harness.bot_helpers import (
    ask,
    bot_messages,
    current_phase,
    deadline_passes,
    embed_text,
    embeds_titled,
    game_channel_of,
    make_table,
    place_name,
    running,
    started_game,
    viewers,
)
from harness.fakediscord import ChannelType, FakeDiscord
from render.compose import picture_width
from tests.helpers.e2e import print_transcript

MODERN = get_variant("modern").game_map().powers


def test_game_create_offers_every_playable_variant_with_its_players() -> None:
    offered = {c.value: c.name for c in VARIANT_CHOICES}
    assert len(VARIANT_CHOICES) <= 25
    folders = {p.name for p in VARIANTS_DIR.iterdir() if (p / "variant.json").is_file()}
    from_folders = {name for name in offered if (VARIANTS_DIR / name / "variant.json").is_file()}
    assert from_folders == folders  # every folder (variants that tests register in code left aside)
    assert all(get_variant(name).playable() for name in folders)
    assert offered["modern"] == "Modern Diplomacy (10 players)"
    assert offered["chaos"] == "Chaos (34 players)"
    assert offered["standard"] == "Standard (3 to 7 players)"


async def test_modern_from_game_create_to_the_first_results(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake, players=10)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Modern", variant="modern")
        created = [m for m in fake.ephemeral_messages(table.players[0]) if "You created" in m.content]
        assert "(1 of 10 players)" in created[-1].content
        assert "Modern Diplomacy, 33 centers to win" in created[-1].content
        assert sorted(p for seat in table.seats.values() for p in seat) == sorted(MODERN)
        assert all(len(seat) == 1 for seat in table.seats.values())

        # one private channel per power, one private thread per pair of players: 45
        channels = {place_name(game_id, c.name): c for c in fake.guild_channels(table.guild)}
        for power in MODERN:
            channel = channels[f"g{game_id}-{power.lower()}"]
            assert viewers(fake, channel, [*table.players, table.onlooker]) == {table.player(power).username}
        threads = [c for c in fake.guild_channels(table.guild) if c.type == ChannelType.PRIVATE_THREAD]
        assert len(threads) == 45
        assert "Poland – Ukraine" in {t.name for t in threads}

        # Spring 1995: Marseilles and Milan bounce in Piedmont; Poland and Ukraine order by name
        france, italy = table.player("FRANCE"), table.player("ITALY")
        answer = await ask(fake, france, "order", channel=table.general, text="A Mar-Pie; A Lyo - Swi")
        assert (
            "✅ `A MAR - PIE`" in answer.content
            and "France still without orders: A PAR, F BOR." in answer.content
        )
        answer = await ask(fake, italy, "order", channel=table.general, text="A Mil-Pie")
        assert "✅" in answer.content and "A MIL - PIE" in answer.content
        poland = table.player("POLAND")
        answer = await ask(fake, poland, "order", channel=table.general, text="Poland: A War - Lit")
        assert "✅" in answer.content and "A WAR - LIT" in answer.content
        refused = await ask(fake, poland, "order", channel=table.general, text="Ukraine: A Kie - Pod")
        assert "❌" in refused.content and "you play POLAND" in refused.content

        await deadline_passes(bot, fake, game_id)
        assert (await current_phase(bot, game_id)).name == "F1995M"
        game_channel = await game_channel_of(bot, fake, game_id)
        [results] = embeds_titled(fake, game_channel, "Spring 1995 Movement results")
        assert results.embeds[0]["image"]["url"] == "attachment://S1995M-orders.png"
        pictures = {a.filename: a.data for a in results.attachments}
        assert set(pictures) == {"S1995M-orders.png", "F1995M-position.png"}
        with Image.open(io.BytesIO(pictures["F1995M-position.png"])) as img:
            assert img.width == picture_width("modern")  # the variant's own map, at its own width
        published = "\n".join(m.content for m in bot_messages(fake, game_channel))
        for line in ("❌ `A MAR - PIE`", "❌ `A MIL - PIE`", "✅ `A WAR - LIT`"):
            assert line in published, line
        told = embed_text(results)
        assert "No orders from Britain, Egypt, Germany, Russia, Spain, Turkey, Ukraine." in told
        assert "Poland left F GDA, A KRA without orders." in told and "Poland: 3" in told
    if os.environ.get("SHOW_TRANSCRIPT"):
        print_transcript(fake, table)
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_chaos_is_created_with_public_press_and_threads_are_refused(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=1)
    async with running(fake, tmp_path):
        created = await ask(
            fake, table.players[0], "game", "create", channel=table.general, name="C", variant="chaos"
        )
        assert "You created" in created.content and "(1 of 34 players)" in created.content
        status = await ask(fake, table.players[0], "game", "status", channel=table.general)
        assert "**Press:** public press only" in status.content and "Players (1 of 34)" in status.content
        refused = await ask(
            fake,
            table.players[0],
            "game",
            "create",
            channel=table.general,
            name="D",
            variant="chaos",
            press="threads",
        )
        assert "You created" not in refused.content
        assert "up to 10 players" in refused.content and "press public" in refused.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_the_ancient_mediterraneans_welcome_shows_its_own_orders(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=5)
    async with running(fake, tmp_path) as bot:
        await started_game(fake, bot, table, "Ancient", variant="ancmed", players=5)
        rome = table.player("ROME")
        [welcome] = [m for m in fake.dm_messages(rome) if "You play Rome" in embed_text(m)]
        told = embed_text(welcome)
        examples = re.findall(r"`([AF] [A-Z]{3} [^`]*)`", told)
        assert examples and not any("PAR" in e or "Par" in e for e in examples), told
        assert all(e.split()[1] in ("ROM", "NEA", "RAV") for e in examples), "Rome's own units"
        assert "A Par-Bur" not in told and "F Bre-MAO" not in told
        assert any(":u:ROM@" in c for c in welcome.custom_ids()), "Rome's sheet under the welcome"
        answer = await (await fake.dm_bot(rome, "help")).reply()
        assert "A Par" not in answer.content and re.search(r"`[AF] (ROM|NEA|RAV) ", answer.content)
    assert fake.unknown_calls == [] and fake.internal_errors == []
