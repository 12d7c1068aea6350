"""A game's name is stored and compared as it looks: NFKC, without zero-width or direction
characters, its spaces single. A name that is nothing but such characters is no name; a name typed
with hidden characters, or in full-width letters, finds the game it looks like."""

from __future__ import annotations

from pathlib import Path

from harness.bot_helpers import ask, game_number, make_table, running
from harness.fakediscord import FakeDiscord


async def test_game_names_are_stored_and_compared_as_they_look(fake: FakeDiscord, tmp_path: Path) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        games = bot.services.gamemaster
        hidden = "Al\u200bpha\u202e \u2066 Club\u2069"
        created = await ask(fake, table.players[0], "game", "create", channel=table.general, name=hidden)
        assert "**#1 Alpha Club**" in created.content, created.content
        game_id = game_number(created.content)
        assert (await games.get_game(game_id)).name == "Alpha Club"

        nothing = await ask(
            fake, table.players[1], "game", "create", channel=table.general, name="\u200b\u200d\u202e"
        )
        assert "The game needs a name" in nothing.content, nothing.content
        assert len(await games.list_games(table.guild.id)) == 1

        for typed, user in (("ＡＬＰＨＡ  club", table.players[1]), ("alpha\u200b club", table.players[2])):
            joined = await ask(fake, user, "game", "join", channel=table.general, game=typed)
            assert f"You joined **#{game_id} Alpha Club**" in joined.content, (typed, joined.content)
        assert len((await games.get_game(game_id)).players) == 3
    assert fake.unknown_calls == [] and fake.internal_errors == []
