"""A running game's places on the chat server: what the adapter makes or fixes after the start."""

from __future__ import annotations

from gm.facade.core import GamemasterCore
from gm.messages.places import PlaceKind
from gm.setup import places


class PlaceCases(GamemasterCore):
    async def record_place(self, game_id: int, kind: PlaceKind, place_id: int, key: str = "") -> None:
        """Remember a place the adapter made for a running game (a pair's thread or channel opened for
        a seat's new player), as the start records its places (gm.setup.places.record_place)."""
        async with self._sessions.begin() as session:
            await places.record_place(session, game_id, kind, place_id, key)

    async def set_power_channel(self, game_id: int, power: str, channel_id: int) -> None:
        """The power's private channel is ``channel_id`` from now on (gm.setup.places.set_power_channel)."""
        async with self._sessions.begin() as session:
            await places.set_power_channel(session, game_id, power, channel_id)
