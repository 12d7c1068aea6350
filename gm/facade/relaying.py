"""The relayed talks of anonymous games (``/press``, gm.relaying)."""

from __future__ import annotations

from collections.abc import Sequence

from gm.facade.core import GamemasterCore
from gm.relaying import Relayed, is_relayed, relay_posts, relay_press, revise_press


class RelayCases(GamemasterCore):
    async def relay_press(
        self,
        game_id: int,
        user_id: int,
        to: str,
        text: str,
        *,
        links: Sequence[str] = (),
        key: str,
        copy: bool = True,
    ) -> Relayed:
        """Carry ``text`` from the user's powers to ``to`` (a power or everyone), posted at once."""
        async with self._sessions.begin() as session:
            relayed = await relay_press(session, game_id, user_id, to, text, links=links, key=key, copy=copy)
        self._runtime.spawn(self._runtime.deliver(), f"relaying talk in game {game_id}")
        return relayed

    async def revise_press(
        self, message_id: int, *, user_id: int | None, text: str | None, version: str
    ) -> Relayed | None:
        """Carry an edit (``text``) or a deletion (``text`` None) of a typed relay's original to its
        copies (gm.relaying.revise_press); None when ``message_id`` was no relay (asked with a read:
        the bot hears every edit and deletion on its servers, and writes only for a relay's)."""
        async with self._sessions.read() as session:
            if not await is_relayed(session, message_id):
                return None
        async with self._sessions.begin() as session:
            relayed = await revise_press(session, message_id, user_id=user_id, text=text, version=version)
        if relayed is not None:
            self._runtime.spawn(self._runtime.deliver(), "carrying a relay's edit")
        return relayed

    async def relay_posts(self, key: str) -> list[tuple[int, int]]:
        """What the relay queued as ``key`` became on the chat server (gm.relaying.relay_posts)."""
        async with self._sessions.read() as session:
            return await relay_posts(session, key)
