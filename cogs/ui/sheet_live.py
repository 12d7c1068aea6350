"""Order sheets in direct messages kept up to date (issue 42, point 9).

A call to order by direct message carries the player's order sheet (cogs.messages.sender). When the
player's orders change another way (another sheet, /order, orders sent by direct message, the orders
form, Ready elsewhere), gm's one after-order-change step tells the runtime's ``on_orders_changed``
(gm.facade.core), and :class:`LiveSheets` redraws that sheet from the player's order menu, the
player's alone, into their own direct message: nothing of it reaches anyone else. The menu is the one
the change computed from what it wrote (gm keeps it for a player :meth:`LiveSheets.watching` names),
so a redraw reads nothing unless something else changed the game meanwhile.

- Which message: the last sheet of each (game, player) sent or tapped in a direct message by this
  process (the sender records the call it posts, a tap records the sheet it lands on). A sheet of
  another phase than the change's is left as it is (its taps are refused), as is one this process
  never saw (after a restart, until the sheet is tapped again).
- How often: a change waits :data:`REFRESH_DELAY` before its redraw, and the changes meanwhile are
  drawn by that same edit; a tap on the sheet redraws it itself, so a change the tap's own drawing
  shows (or one under way while the player taps there) costs no edit. The edits of a message go one
  at a time with the taps' (cogs.shared.ordered.Edits), never over a later tap's drawing, and at
  most :data:`AT_ONCE` redraws are under way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from cogs.shared.ordered import Edits
from cogs.shared.pictures import Pictures, pictures_of
from cogs.shared.replies import edit_view
from cogs.ui.sheet import Sheet
from cogs.ui.sheet_draw import draw
from gm.facade import Gamemaster
from gm.public import GameError, MeantFor

log = logging.getLogger(__name__)

REFRESH_DELAY = 10.0  # seconds a change waits for others before the sheet is drawn again: at 1 s a
# busy server drew each sheet twice (bench/load.py paced: first answers p95 56 -> 274 ms, 9.7 -> 16.5 ms CPU)
KEPT = 20_000  # direct-message sheets remembered (the oldest forgotten first)
AT_ONCE = 4  # redraws under way at most (the others wait their turn: taps come first)


@dataclass(frozen=True, slots=True)
class Words:
    """A call to order's words above a sheet (a box of texts and pictures and its colour, or a lone
    text), kept to draw them again."""

    texts: tuple[str | Pictures, ...]
    colour: Any = None
    boxed: bool = True


def words_above(components: Sequence[Any], message: discord.Message | None = None) -> tuple[Words, ...]:
    """The words of ``components`` (a message's, or the layout's items it was sent with): each
    container's texts and pictures (a welcome's opening map) and each lone text, in order.
    ``message`` names the attachments a received message's pictures show."""
    found: list[Words] = []
    for component in components:
        content = getattr(component, "content", None)
        children = getattr(component, "children", None)
        if isinstance(content, str) and children is None:
            found.append(Words((content,), boxed=False))
        elif children is not None and hasattr(component, "accent_colour"):
            parts: list[str | Pictures] = []
            for child in children:
                text = getattr(child, "content", None)
                if isinstance(text, str):
                    parts.append(text)
                elif isinstance(child, discord.ui.MediaGallery | discord.components.MediaGalleryComponent):
                    parts.append(pictures_of(child, message))
            if parts:
                found.append(Words(tuple(parts), component.accent_colour))
    return tuple(found)


def items_of(words: Sequence[Words]) -> list[discord.ui.Item[Any]]:
    """The layout items that draw ``words`` again."""
    items: list[discord.ui.Item[Any]] = []
    for part in words:
        if not part.boxed:
            items.append(discord.ui.TextDisplay(str(part.texts[0])))
            continue
        box: discord.ui.Container[Any] = discord.ui.Container(accent_colour=part.colour)
        for content in part.texts:
            shown = content.gallery() if isinstance(content, Pictures) else discord.ui.TextDisplay(content)
            box.add_item(shown)
        items.append(box)
    return items


@dataclass
class DmSheet:
    """A sheet in a player's direct messages, and when it was last drawn (monotonic seconds)."""

    channel_id: int
    message_id: int
    sheet: Sheet
    words: tuple[Words, ...]
    drawn: float
    changed: float = 0.0  # the last change of the player's orders it must show
    taps: int = 0  # taps on it under way (each draws it again)


class LiveSheets:
    """The direct-message sheets of this process's players, redrawn when their orders change."""

    def __init__(
        self, client: discord.Client, gamemaster: Gamemaster, edits: Edits, *, delay: float = REFRESH_DELAY
    ) -> None:
        self.client = client
        self.gamemaster = gamemaster
        self.edits = edits
        self.delay = delay
        self.refreshed = 0  # edits made (for the logs and the tests)
        self._sheets: dict[tuple[int, int], DmSheet] = {}
        self._tasks: dict[tuple[int, int], asyncio.Task[None]] = {}
        self._now = asyncio.Event()  # set: the refreshes waiting go out at once (:meth:`flush`)
        self._turns = asyncio.Semaphore(AT_ONCE)

    # --- what is shown where -----------------------------------------------------------------------

    def shown(
        self, channel_id: int, message_id: int, sheet: Sheet, words: Sequence[Words], at: float
    ) -> None:
        """``sheet`` is drawn (as of ``at``) on the direct message ``message_id``, under ``words``."""
        key = (sheet.game_id, sheet.user_id)
        entry = self._sheets.get(key)
        if entry is not None and entry.message_id == message_id:
            entry.drawn = max(entry.drawn, at)
            entry.sheet, entry.words = sheet, tuple(words)
            return
        self._sheets.pop(key, None)
        self._sheets[key] = DmSheet(channel_id, message_id, sheet, tuple(words), at, taps=0)
        while len(self._sheets) > KEPT:
            self._sheets.pop(next(iter(self._sheets)))

    @contextlib.contextmanager
    def tapping(self, message: discord.Message | None, sheet: Sheet) -> Iterator[None]:
        """A tap on ``sheet`` drawn on ``message``: while it is handled no refresh of that message goes
        out (the tap draws it again, with its own change and those before); a sheet in a direct
        message is recorded."""
        if message is None or message.guild is not None or message.flags.ephemeral:
            yield
            return
        self.shown(message.channel.id, message.id, sheet, words_above(message.components[:-1], message), 0.0)
        entry = self._sheets[(sheet.game_id, sheet.user_id)]
        entry.taps += 1
        try:
            yield
        finally:
            entry.taps -= 1
            entry.drawn = max(entry.drawn, time.monotonic())

    def watching(self, game_id: int, user_id: int) -> bool:
        """Whether the player has a sheet here that a change of their orders draws again (gm keeps
        the menu the change computed for it: the redraw reads nothing)."""
        return (game_id, user_id) in self._sheets

    # --- changes -----------------------------------------------------------------------------------

    def changed(self, game_id: int, user_id: int, phase: str) -> None:
        """gm's word that the player's orders changed (the runtime's ``on_orders_changed``)."""
        key = (game_id, user_id)
        entry = self._sheets.get(key)
        if entry is None or entry.sheet.phase != phase:
            return
        entry.changed = time.monotonic()
        if key not in self._tasks:
            task = asyncio.create_task(self._refresh(key), name=f"refresh the DM sheet of {key}")
            self._tasks[key] = task

    async def _refresh(self, key: tuple[int, int]) -> None:
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._now.wait(), self.delay)
        finally:
            self._tasks.pop(key, None)  # a change from here on asks for another edit
        try:
            async with self._turns:
                await self._redraw(key)
        except Exception:
            log.exception("could not refresh the DM sheet of %s", key)

    async def _redraw(self, key: tuple[int, int]) -> None:
        entry = self._sheets.get(key)
        if entry is None or entry.taps or entry.drawn >= entry.changed:
            return
        began = time.monotonic()
        sheet = entry.sheet
        try:
            menu = await self.gamemaster.order_menu(
                sheet.game_id, sheet.user_id, meant_for=MeantFor(sheet.phase, sheet.tag or None)
            )
        except GameError as exc:  # the phase closed, the player left: the sheet stays as it was
            log.info("DM sheet %s not refreshed: %s", entry.message_id, exc)
            self._sheets.pop(key, None)
            return
        layout = draw(menu, sheet, leading=items_of(entry.words), live=True)

        async def edit() -> None:
            if entry.taps or entry.drawn >= began:  # a tap drew it meanwhile
                return
            await edit_view(self.client, entry.channel_id, entry.message_id, layout)
            entry.drawn = max(entry.drawn, began)
            self.refreshed += 1

        try:
            await self.edits.show(entry.message_id, self.edits.last(entry.message_id), edit)
        except discord.HTTPException as exc:
            log.info("DM sheet %s not refreshed: %s", entry.message_id, exc)

    async def flush(self) -> None:
        """Make the refreshes asked for so far now, without their wait, and wait for them (tests)."""
        self._now.set()
        try:
            await self.idle()
        finally:
            self._now.clear()

    async def idle(self) -> None:
        """Wait for the refreshes asked for so far (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def abandon(self) -> None:
        """Drop the refreshes not made yet (a stop: they are only pictures of the orders)."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=1.0)


__all__ = ["REFRESH_DELAY", "DmSheet", "LiveSheets", "Words", "items_of", "words_above"]
