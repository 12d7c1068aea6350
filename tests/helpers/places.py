"""A game's private places on the fake Discord, and who saw a line posted in them."""

from __future__ import annotations

from bot import DiplomacyBot
from harness.bot_helpers import (
    Table,
    ask,
    start_game,
)
from harness.fakediscord import Channel, FakeDiscord, User


async def game_with(
    fake: FakeDiscord, bot: DiplomacyBot, table: Table, players: list[User], **options: object
) -> int:
    """A game created by ``players[0]`` and joined by the others (by /game join), started."""
    created = await ask(
        fake, players[0], "game", "create", channel=table.general, name="Table talk", **options
    )
    game_id = int(created.content.split("#")[1].split()[0])
    for user in players[1:]:
        joined = await ask(fake, user, "game", "join", channel=table.general, game=str(game_id))
        assert "You joined" in joined.content, joined.content
    await start_game(fake, bot, table, game_id)
    return game_id


async def seats_of(bot: DiplomacyBot, game_id: int) -> dict[str, int | None]:
    return dict((await bot.services.gamemaster.get_game(game_id)).powers)


def places(fake: FakeDiscord, table: Table, game_id: int) -> tuple[dict[str, Channel], list[Channel]]:
    """The game's power channels by power, and its talks (pair threads or pair channels)."""
    everything = fake.guild_channels(table.guild)
    prefix = f"g{game_id}-"
    powers = {
        c.name.split("-")[-1].upper(): c
        for c in everything
        if not c.is_thread
        and c.name.startswith(prefix)
        and (c.topic or "").endswith("only its player, the moderators and the bot.")
    }
    talks = [
        c
        for c in everything
        if c.name.startswith(prefix) and (c.topic or "").startswith("Private talks between")
    ]
    negotiation = [
        c
        for c in everything
        if not c.is_thread and c.name.startswith(prefix) and c.name.endswith("-negotiation")
    ]
    talks += [c for c in everything if c.is_thread and negotiation and c.parent_id == negotiation[0].id]
    return powers, talks


def names_in(name: str) -> set[str]:
    return {
        w.upper()
        for w in name.replace("–", " ").replace("/", " ").replace("-", " ").replace("_", " ").split()
    }


async def who_saw(fake: FakeDiscord, author: User, place: Channel, text: str) -> set[int]:
    """Everyone who could read ``text`` when ``author`` posted it in ``place``."""
    message = await fake.say(author, place, text)
    return set(message.revisions[0].audience)
