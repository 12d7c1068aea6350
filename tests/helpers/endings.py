"""A judge and a game with its channel, for the endings' tests."""

from __future__ import annotations

from db.database import SessionFactory
from gm.moderation.actions import Actor
from gm.setup.games import set_game_channels
from tests.gm.conftest import (
    user,
)

JUDGE = Actor(user(41), is_server_moderator=True)  # a server moderator who does not play


async def with_channel(sessions: SessionFactory, game_id: int) -> None:
    async with sessions.begin() as s:
        await set_game_channels(s, game_id, game_channel_id=9000)
