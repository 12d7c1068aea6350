"""The relayed talks of anonymous games (``/press``, gm.relaying)."""

from __future__ import annotations

from collections.abc import Sequence

from gm.facade.core import GamemasterCore
from gm.relaying import Relayed, relay_press


class RelayCases(GamemasterCore):
    async def relay_press(
        self, game_id: int, user_id: int, to: str, text: str, *, links: Sequence[str] = (), key: str
    ) -> Relayed:
        """Carry ``text`` from the user's powers to ``to`` (a power or everyone), posted at once."""
        async with self._sessions.begin() as session:
            relayed = await relay_press(session, game_id, user_id, to, text, links=links, key=key)
        self._runtime.spawn(self._runtime.deliver(), f"relaying talk in game {game_id}")
        return relayed
