"""Hostile or unlucky input answered clearly, never "Something went wrong": another server's game
numbers (never said to exist), game options that are no game number, hours that are no number of
hours, a replacement who is not on the server."""

from __future__ import annotations

from pathlib import Path

from harness.bot_helpers import ask, create_game, make_table, running, started_game
from harness.fakediscord import FakeDiscord
from tests.helpers.e2e import mod

CRASH = "Something went wrong"


async def test_another_servers_game_is_unknown_here(fake: FakeDiscord, tmp_path: Path) -> None:
    ours = await make_table(fake)
    theirs = await make_table(fake)
    async with running(fake, tmp_path):
        secret = await create_game(fake, ours, "Secret League")
        stranger = theirs.players[0]
        for path, options in (
            (("game", "join"), {}),
            (("game", "start"), {}),
            (("game", "settings"), {}),
            (("game", "settings"), {"players": 5}),
        ):
            told = await ask(fake, stranger, *path, channel=theirs.general, game=str(secret), **options)
            assert f"There is no game {secret} on this server" in told.content, (path, told.content)
            assert "Secret League" not in told.content and "another server" not in told.content
        assert len(ours.players) and not any("Secret" in m.content for m in fake.dm_messages(stranger))
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_game_options_and_numbers_that_are_no_answer_are_refused_clearly(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake)
    alice = table.players[0]
    async with running(fake, tmp_path):
        game_id = await create_game(fake, table, "Numbers")
        for option in ("1" * 30, "²", "#99999999999999999999", "-1"):
            for path in (("game", "status"), ("game", "join"), ("game", "settings"), ("game", "start")):
                told = await ask(fake, alice, *path, channel=table.general, game=option)
                assert CRASH not in told.content, (path, option)
                assert "no game" in told.content.lower(), (path, option, told.content)
        for hours in (1.7976931348623157e308, 1e300, -1e300, -1.7976931348623157e308):  # JSON has no NaN
            told = await ask(
                fake,
                alice,
                "game",
                "settings",
                channel=table.general,
                game=str(game_id),
                movement_hours=hours,
            )
            assert CRASH not in told.content and "hours must be a number of hours" in told.content
            assert "For example 24" in told.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_replacement_who_is_not_on_the_server_and_absurd_extensions_are_explained(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    outsider = await fake.create_user("outsider")  # on Discord, not on this server
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Guarded", players=3, press="public")
        told = await mod(
            fake, table.mod, table, "replace", power="FRANCE", player=outsider, game=str(game_id)
        )
        assert CRASH not in told.content and "not a member of this server" in told.content
        for hours in (1.7976931348623157e308, 1e300, -1e300):  # JSON has no NaN nor infinity
            told = await mod(fake, table.mod, table, "extend", hours=hours, game=str(game_id))
            assert CRASH not in told.content and "must be a number of hours" in told.content
        huge = await mod(fake, table.mod, table, "extend", minutes=2**53, game=str(game_id))
        assert CRASH not in huge.content and "extended by 1 minute to 14 days" in huge.content
    assert fake.unknown_calls == [] and fake.internal_errors == []
