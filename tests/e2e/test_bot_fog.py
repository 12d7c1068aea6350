"""A Standard game under the fog of war, played to its end on the fake Discord (a short game: its last
year is 1901). Every member's every view is read: before the final post, no line anybody could read
named only units or orders outside their powers' view (a spectator saw none at all), and no full map
reached anybody; each player got their own results and maps in their channel, /map and /history
gave them their view and refused a spectator; the final post then revealed the whole game.

Moderators who do not play read every power's channel (README, "Privacy"), so they are checked for
the full maps only."""

from __future__ import annotations

import re
from pathlib import Path

from engine import load_map
from harness.bot_helpers import (
    POWERS,
    Table,
    ask,
    bot_messages,
    current_phase,
    deadline_passes,
    embeds_titled,
    game_channel_of,
    make_table,
    place_named,
    running,
    settle,
    started_game,
)
from harness.fakediscord import FakeDiscord
from tests.helpers.modes import FULL_MAP, files_before, seen_before, views

SPRING = {
    "AUSTRIA": "A Vie-Gal; A Bud-Ser; F Tri-Alb",
    "ENGLAND": "F Lon-Nth; F Edi-Nwg; A Lvp-Yor",
    "FRANCE": "A Par-Bur; A Mar-Pie; F Bre-Mao",
    "GERMANY": "A Mun-Bur; F Kie-Den; A Ber-Kie",
    "ITALY": "A Ven-Tyr; A Rom-Apu; F Nap-Ion",
    "RUSSIA": "A War-Gal; F Sev-Bla; A Mos-Ukr; F Stp/sc-Bot",
    "TURKEY": "F Ank-Bla; A Con-Bul; A Smy-Arm",
}
FALL = {
    "FRANCE": "F Mao-Por; A Pie-Ven",
    "ENGLAND": "F Nth-Nwy",
    "GERMANY": "F Den-Swe",
    "ITALY": "A Tyr-Mun",
}
PROVINCES = set(load_map("standard").provinces)
UNIT = re.compile(r"\b[AF] ([A-Z]{3})(?:/[NSEW]C)?\b")


def named(line: str) -> set[str]:
    """The provinces of the units a line names (``A PAR``, ``F STP/SC``)."""
    return {p for p in UNIT.findall(line) if p in PROVINCES}


def places(line: str) -> set[str]:
    """Every province a line names (a unit's, where it goes, supports or convoys)."""
    return {p for p in re.findall(r"\b[A-Z]{3}\b", line) if p in PROVINCES}


async def play(fake: FakeDiscord, table: Table, orders: dict[str, str]) -> None:
    for power, text in orders.items():
        answer = await ask(fake, table.player(power), "order", channel=table.general, text=text)
        assert "✅" in answer.content, (power, answer.content)


async def test_a_fogged_game_shows_each_member_only_their_view_until_the_end(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(
            fake, bot, table, "Fog", players=7, press="public", fog="counts", last_year=1901
        )
        game = str(game_id)
        channel = await game_channel_of(bot, fake, game_id)
        france = table.player("FRANCE")
        opening = await ask(fake, france, "map", channel=table.general, game=game)
        assert [a.filename for a in opening.attachments] == ["S1901M-pos-FRANCE.png"]
        await settle(bot, fake)
        for power in POWERS:  # each player's own view of the opening, in their channel
            own = bot_messages(fake, place_named(fake, table.guild, game_id, f"g{game_id}-{power.lower()}"))
            assert [a.filename for m in own for a in m.attachments] == [f"S1901M-pos-{power}.png"], power
        refused = await ask(fake, table.onlooker, "map", channel=table.general, game=game)
        assert "fog of war" in refused.content and not refused.attachments

        await play(fake, table, SPRING)
        await deadline_passes(bot, fake, game_id)
        mine = bot_messages(fake, place_named(fake, table.guild, game_id, f"g{game_id}-france"))
        [results] = [m for m in mine if m.embeds and "results, France's view" in m.embeds[0].get("title", "")]
        assert [a.filename for a in results.attachments] == [
            "S1901M-orders-FRANCE.png",
            "F1901M-pos-FRANCE.png",
        ]
        told = "\n".join(m.text for m in mine[mine.index(results) :])  # the orders follow the embed
        assert "Orders and results you could see" in told
        assert "A MUN - BUR" in told and "A WAR - GAL" not in told  # Munich's move: to Burgundy, in sight
        past = await ask(fake, france, "history", "phase", channel=table.general, game=game, phase="S1901M")
        assert "`A PAR - BUR`" in past.content and "A WAR" not in past.content
        assert [a.filename for a in past.attachments] == ["S1901M-orders-FRANCE.png"]
        nosy = await ask(
            fake, table.onlooker, "history", "phase", channel=table.general, game=game, phase="S1901M"
        )
        assert "fog of war" in nosy.content

        await play(fake, table, FALL)
        while (await current_phase(bot, game_id)).status == "open":
            await deadline_passes(bot, fake, game_id)
        await settle(bot, fake)

        [final] = embeds_titled(fake, channel, "Fog is over")
        end = final.timestamp
        assert {a.filename for a in final.attachments} >= {f"game-{game_id}-animation.gif"}
        assert any(FULL_MAP.search(a.filename) for a in final.attachments), "the final post shows it all"
        assert "The fog of war lifts" in final.text
        seen = await views(bot, game_id, table)
        for user in table.players:
            for text in seen_before(fake, user, end):
                for line in text.splitlines():
                    # a unit or an order: its unit or where it goes (supports, convoys) was in sight
                    assert not named(line) or places(line) & seen[user.id], (table.seats[user.id], line)
            for name in files_before(fake, user, end):
                assert not FULL_MAP.search(name), (table.seats[user.id], name)
                assert any(name.endswith(f"-{p}.png") for p in table.seats[user.id]), name
        for text in seen_before(fake, table.onlooker, end):
            assert not any(named(line) for line in text.splitlines()), text
        assert files_before(fake, table.onlooker, end) == []
        assert not any(FULL_MAP.search(n) for n in files_before(fake, table.mod, end))
        public = [m for m in bot_messages(fake, channel) if m.timestamp < end and "results" in m.text]
        assert public and all(not m.attachments and not named(m.text) for m in public)
        assert any("Centers each power holds now" in m.text for m in public), "the counts after the fall"

        after = await ask(
            fake, table.onlooker, "history", "phase", channel=table.general, game=game, phase="S1901M"
        )
        assert "`A WAR - GAL`" in after.content and [a.filename for a in after.attachments] == [
            "S1901M-orders.png"
        ]
        assert set(POWERS) == {p for seats in table.seats.values() for p in seats}
    assert fake.unknown_calls == [] and fake.internal_errors == []
