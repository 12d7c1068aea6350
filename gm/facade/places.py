"""A running game's places on the chat server: what the adapter makes or fixes after the start."""

from __future__ import annotations

from gm.facade.core import GamemasterCore
from gm.messages.places import PlaceKind
from gm.setup import places, shields
from gm.setup.shields import Shielder, ShieldReport


class PlaceCases(GamemasterCore):
    async def record_place(self, game_id: int, kind: PlaceKind, place_id: int, key: str = "") -> None:
        """Remember a place the adapter made for a running game (a pair's thread or channel opened for
        a seat's new player), as the start records its places (gm.setup.places.record_place)."""
        async with self.sessions.begin() as session:
            await places.record_place(session, game_id, kind, place_id, key)

    async def shield_running_games(self, shielder: Shielder) -> ShieldReport:
        """Put the players' shields on the games set up before them (gm.setup.shields): at start-up,
        once connected to the chat server; stops between two games when the bot is stopping."""
        return await shields.shield_running_games(
            self.sessions, shielder, ownership=self.ownership, stopping=lambda: self.winding_down
        )
