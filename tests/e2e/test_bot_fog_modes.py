"""The fog of war beyond Standard, and with anonymous powers, played to their ends on the fake Discord
(short games: a moderator ends them after their first phase). For every member, everything they
could read or got before the final post is checked: no line showed a unit none of whose provinces
their powers saw (the onlooker none at all), no full map reached anybody, and, in the anonymous game,
nothing named another power's player (tests/helpers/modes.py)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot import DiplomacyBot
from engine import load_map
from harness.bot_helpers import (
    Table,
    ask,
    bot_messages,
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
from tests.helpers.e2e import click_and_read, mod
from tests.helpers.modes import FULL_MAP, boards_of, files_before, fog_leaks, leaks, some_moves, views


async def play_then_end(
    fake: FakeDiscord, bot: DiplomacyBot, table: Table, game_id: int, variant: str
) -> None:
    """The first phase, every unit moving where it first may; then a moderator ends the game (one
    close and the final post: these games are the suite's slowest kind)."""
    board, _ = (await boards_of(bot, game_id, variant))[-1]
    for power, orders in some_moves(board, sorted(board.units)).items():
        answer = await ask(
            fake, table.player(power), "order", channel=table.general, game=str(game_id), text=orders
        )
        assert "✅" in answer.content, (power, answer.content)
    await deadline_passes(bot, fake, game_id)
    ending = await mod(fake, table.mod, table, "end", game=str(game_id))
    assert (await click_and_read(fake, table.mod, ending, ending.custom_ids()[0])).startswith("Done:")
    await settle(bot, fake)


async def test_a_fogged_game_of_the_ancient_mediterranean_shows_each_member_only_their_view(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=5)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(
            fake, bot, table, "Mare", variant="ancmed", players=5, fog="silent", last_year=1
        )
        await settle(bot, fake)
        powers = sorted(p for seats in table.seats.values() for p in seats)
        for power in powers:  # each its own view of the opening, in its channel
            own = bot_messages(fake, place_named(fake, table.guild, game_id, f"g{game_id}-{power.lower()}"))
            assert [a.filename for m in own for a in m.attachments] == [f"S0001M-pos-{power}.png"], power
        rome = table.player("ROME")
        opening = await ask(fake, rome, "map", channel=table.general, game=str(game_id))
        assert [a.filename for a in opening.attachments] == ["S0001M-pos-ROME.png"]

        await play_then_end(fake, bot, table, game_id, "ancmed")
        channel = await game_channel_of(bot, fake, game_id)
        [final] = embeds_titled(fake, channel, "Mare is over")
        end = final.timestamp
        assert "The fog of war lifts" in final.text
        assert any(FULL_MAP.search(a.filename) for a in final.attachments), "the final post shows it all"
        seen = await views(bot, game_id, table, "ancmed")
        assert all(seen[u.id] < set(load_map("ancmed").provinces) for u in table.players), "nobody saw all"
        problems = fog_leaks(fake, table, seen, end, set(load_map("ancmed").provinces))
        assert problems == [], "\n".join(problems)
        blind = {u.id: set[str]() for u in table.players}  # the check reads their units and orders
        assert len(fog_leaks(fake, table, blind, end, set(load_map("ancmed").provinces))) > len(powers)
        got = {name for user in table.players for name in files_before(fake, user, end)}
        assert {f"S0001M-orders-{p}.png" for p in powers} <= got, "each player's own results map"
        assert not any(FULL_MAP.search(n) for n in files_before(fake, table.mod, end))
        public = [m for m in bot_messages(fake, channel) if m.timestamp < end]
        assert public and not any("Centers each power holds now" in m.text for m in public), "silent"
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_an_anonymous_fogged_game_names_nobody_and_shows_each_only_their_view(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(
            fake, bot, table, "Night", players=7, anonymous=True, fog="counts", last_year=1901
        )
        game = str(game_id)
        france, germany = table.player("FRANCE"), table.player("GERMANY")
        carried = await ask(
            fake, france, "press", channel=table.general, game=game, to="Germany", message="Shall we talk?"
        )
        assert "carried to Germany's channel as France's" in carried.content, carried.content
        typed = await (await fake.dm_bot(germany, "to everyone: Germany wants peace")).reply()
        assert "Carried to the game channel as Germany's" in typed.text, typed.text

        await play_then_end(fake, bot, table, game_id, "standard")
        channel = await game_channel_of(bot, fake, game_id)
        [final] = embeds_titled(fake, channel, "Night is over")
        end = final.timestamp
        assert "The players are revealed" in final.text and "The fog of war lifts" in final.text
        assert [m for m in bot_messages(fake, channel) if m.text.startswith("**Germany** to **everyone**:")]
        for reader in [*table.players, table.onlooker]:
            named = leaks(fake, table, table.players, reader, end)
            assert named == [], "\n".join(named)
            assert leaks(fake, table, table.players, reader, end + timedelta(seconds=1)), "the reveal"
        seen = await views(bot, game_id, table)
        problems = fog_leaks(fake, table, seen, end, set(load_map("standard").provinces))
        assert problems == [], "\n".join(problems)
        blind = {u.id: set[str]() for u in table.players}
        assert len(fog_leaks(fake, table, blind, end, set(load_map("standard").provinces))) > 7
        public = [m for m in bot_messages(fake, channel) if m.timestamp < end]
        assert any("Played under the fog of war" in m.text for m in public)
    assert fake.unknown_calls == [] and fake.internal_errors == []
