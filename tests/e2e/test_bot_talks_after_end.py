"""The private talks after the end (the ``talks_after_end`` setting): a short game's eliminated player
reads every private thread once the game is over, read-only, and loses the others' threads again when
a rollback makes the game run again."""

from __future__ import annotations

from pathlib import Path

from harness.bot_helpers import edit_board, make_table, running, settle, started_game
from harness.fakediscord import FakeDiscord, Permission
from tests.helpers.e2e import click_and_read, eliminated, end_short_game, mod, places_of


async def test_the_eliminated_read_the_talks_after_the_end_until_a_rollback(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(
            fake, bot, table, "Open book", players=3, last_year=1901, talks_after_end=True
        )
        threads = places_of(fake, table.guild, game_id)[2]
        fallen = table.player("RUSSIA")
        others = [u for u in table.players if u.id != fallen.id]
        theirs = next(t for t in threads if all(fake.can_view(u, t) for u in others))
        mine = [t for t in threads if fake.can_view(fallen, t)]
        assert len(mine) == 2 and not fake.can_view(fallen, theirs)
        await fake.say(others[0], theirs, "Between us: Russia is finished.")
        await edit_board(bot, game_id, eliminated(*table.seats[fallen.id]))

        await end_short_game(fake, bot, table, game_id)
        assert all(t.archived and t.locked for t in threads)
        assert fake.can_view(fallen, theirs), "eliminated: the others' talk is readable after the end"
        assert "Between us: Russia is finished." in fake.seen_texts(fallen)
        assert not fake.permissions(fallen, theirs) & Permission.SEND_MESSAGES_IN_THREADS
        survivor_blind = [t for t in threads if not fake.can_view(others[0], t)]
        assert survivor_blind, "survivors are no readers: a thread without them stays closed to them"
        assert not fake.can_view(table.onlooker, theirs)

        asked = await mod(fake, table.mod, table, "rollback", game=str(game_id))
        assert (await click_and_read(fake, table.mod, asked, asked.custom_ids()[0])).startswith("Done:")
        await settle(bot, fake)
        assert not fake.can_view(fallen, theirs), "the game runs again: the talks are private again"
        assert all(fake.can_view(fallen, t) for t in mine), "their own talks stay theirs"
    assert fake.unknown_calls == [] and fake.internal_errors == []
