"""Setting games up: create, join, leave, change the settings, choose how to be called, and start
(draw the powers, have the adapter make the game's places, record them, then run the clock)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError

from db.database import SessionFactory
from gm.delivery.pool import run_off_loop
from gm.errors import GameError, NotAllowed
from gm.facade.core import GamemasterCore
from gm.messages.places import PlaceKind
from gm.phases.worker import position_map_work
from gm.reading.info import GameInfo
from gm.reports.history import opening_views, store_map
from gm.settings import GameSettings
from gm.setup import games, places
from gm.setup.configure import update_settings
from gm.setup.games import StartResult
from gm.setup.places import MadePlaces, PlaceMaker

log = logging.getLogger(__name__)


WRITE_EVERY = 0.05
"""Seconds: how long after a write of a start's places the next one waits, so that the places made
meanwhile go together (:class:`PlaceLog`)."""


class PlaceLog:
    """The gm.setup.places.Recorder a start hands its PlaceMaker: the first place is written at once,
    by a writer running beside the maker (which goes on making places meanwhile), and the places made
    after it at most :data:`WRITE_EVERY` seconds after they were made, those of the same moment in one
    transaction (gm.setup.places.record_places). A start records some thirty places (21 threads in a Standard
    game): one transaction each was a fifth of a start's CPU against the loopback fake Discord. (Against
    Discord, where making a place takes a round trip, most places are still written one by one.)
    :meth:`written` writes what is left at once and waits until every place recorded so far is in the
    database; it raises what a write raised."""

    def __init__(self, sessions: SessionFactory, game_id: int, every: float = WRITE_EVERY) -> None:
        self._sessions = sessions
        self._game_id = game_id
        self._every = every
        self._pending: list[tuple[PlaceKind, int, str]] = []
        self._writer: asyncio.Task[None] | None = None
        self._hurry = asyncio.Event()  # set by written(): no more waiting between writes

    async def record(self, kind: PlaceKind, place_id: int, key: str) -> None:
        self._pending.append((kind, place_id, key))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(
                self._write(self._writer), name=f"recording game {self._game_id}'s places"
            )

    async def _write(self, before: asyncio.Task[None] | None) -> None:
        if before is not None:
            await before  # a failed write fails the ones after it (written() raises it)
        while self._pending:
            batch, self._pending = self._pending, []
            async with self._sessions.begin() as session:
                await places.record_places(session, self._game_id, batch)
            if not self._hurry.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._hurry.wait(), self._every)

    async def written(self) -> None:
        self._hurry.set()
        if self._writer is not None:
            await self._writer


class SetupBusy(GameError):
    """Another start is setting the same game up right now."""


@dataclass(frozen=True, slots=True)
class StartOutcome:
    game: GameInfo  # as it is once set up
    made: MadePlaces | None  # None: its places were made by an earlier start (``already``)
    drawn: bool  # the powers were drawn now (False: an earlier start's set-up was finished)

    @property
    def already(self) -> bool:
        """The game had started and has its places: nothing was done."""
        return self.made is None


@dataclass(frozen=True, slots=True)
class LeaveOutcome:
    before: GameInfo
    after: GameInfo

    @property
    def was_forming(self) -> bool:
        return self.before.status == "forming"


class SetupCases(GamemasterCore):
    async def create_game(
        self,
        *,
        guild_id: int,
        creator_id: int,
        name: str,
        settings: GameSettings | Mapping[str, Any],
        lobby_channel_id: int | None,
        variant: str,
        sees_all: bool = False,
    ) -> GameInfo:
        """``sees_all``: the server can hide no channel from the creator; when its settings refuse such
        members a seat the game is made without them (its players then do not include the creator)."""
        async with self._sessions.begin() as session:
            return await games.create_game(
                session,
                guild_id=guild_id,
                creator_id=creator_id,
                name=name,
                settings=settings,
                lobby_channel_id=lobby_channel_id,
                variant=variant,
                sees_all=sees_all,
                limits=self._forming_limits,
            )

    async def join_game(
        self,
        game_id: int,
        user_id: int,
        *,
        guild_id: int | None,
        from_post: int | None = None,
        sees_all: bool = False,
    ) -> GameInfo:
        """Join from server ``guild_id``: a game of another server is refused as if unknown.
        ``sees_all``: the server can hide no channel from this member (its owner, Administrator):
        refused when the server's settings say so (gm.setup.server).

        ``from_post``: the id of the message whose Join button was pressed. A button names its game by
        number only, so a post left from another database (a fresh start, a restored backup) would
        join whatever game has that number now; a post that is not the game's own Join post is refused.
        """
        where = games.JoinedFrom(guild_id, from_post)  # checked in the join's transaction: no read first
        async with self._sessions.begin() as session:
            return await games.join_game(session, game_id, user_id, sees_all=sees_all, joined_from=where)

    async def leave_game(self, game_id: int, user_id: int) -> LeaveOutcome:
        """Leave; after the start the player's powers hold in civil disorder, the player loses their
        private places (with the announcement), and the phase may now close early."""
        async with self._sessions.read() as session:
            before = await games.get_game(session, game_id)
        async with self._sessions.begin() as session:
            after = await games.leave_game(session, game_id, user_id)
        if before.status != "forming":
            if after.phase is not None:
                self._runtime.spawn(
                    self._runtime.players_changed(after.phase.id), f"after a player left game {game_id}"
                )
            self._runtime.spawn(self._runtime.deliver(), "posting a departure")
        return LeaveOutcome(before, after)

    async def update_settings(
        self, game_id: int, user_id: int, changes: dict[str, Any], *, is_moderator: bool
    ) -> GameInfo:
        async with self._sessions.begin() as session:
            return await update_settings(session, game_id, user_id, changes, is_moderator=is_moderator)

    async def set_notify(self, game_id: int, user_id: int, how: str) -> GameInfo:
        async with self._sessions.begin() as session:
            return await games.set_notify(session, game_id, user_id, how)

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        async with self._sessions.begin() as session:
            await games.set_lobby_message(session, game_id, message_id)

    # --- start ----------------------------------------------------------------------------------

    def _setup_lock(self, game_id: int) -> asyncio.Lock:
        """Held while a start sets the game up (one at a time per game in this process)."""
        return self._setting_up.setdefault(game_id, asyncio.Lock())

    async def start_game(
        self,
        game_id: int,
        user_id: int,
        *,
        is_moderator: bool,
        maker: PlaceMaker,
        sees_all: Sequence[int] = (),
    ) -> StartOutcome:
        """Start a full game: draw the powers (unless an earlier start did), have ``maker`` make or
        complete its places, record them, draw the opening map, and run the clock and the messages.

        Refused while another start of the same game is at work. When the places cannot be made the
        clock runs anyway (the messages wait for the places) and the maker's refusal is raised: a
        later start finishes the set-up with what was recorded. ``sees_all``: the members the server
        can hide no channel from, refused a seat when its settings say so (gm.setup.server)."""
        lock = self._setup_lock(game_id)
        if lock.locked():  # checked and taken with no await in between: one set-up at a time
            game = await self._game(game_id)
            raise SetupBusy(
                f"#{game.id} {game.name} is already being set up: its channels are being made right now.",
                "They appear in a moment; [[cmd:game status]] shows the game channel once it is ready.",
            )
        async with lock:
            return await self._start(game_id, user_id, is_moderator, maker, sees_all)

    async def _start(
        self, game_id: int, user_id: int, is_moderator: bool, maker: PlaceMaker, sees_all: Sequence[int]
    ) -> StartOutcome:
        chosen = await self._game(game_id)  # as it is now, after any earlier start
        if chosen.status != "forming" and chosen.game_channel_id is not None:
            return StartOutcome(chosen, None, drawn=False)
        result: StartResult | None = None
        if chosen.status == "forming":
            async with self._sessions.begin() as session:
                result = await games.start_game(
                    session, game_id, user_id, is_moderator=is_moderator, sees_all=sees_all
                )
                await places.ensure_place_tag(session, game_id)  # in the start's transaction
            started = result.game
        elif not (is_moderator or user_id == chosen.creator_id):
            raise NotAllowed(f"Only the creator of {chosen.name} or a moderator can finish its set-up.")
        else:  # started earlier, but its places could not be made then
            started = chosen
            async with self._sessions.begin() as session:
                await places.ensure_place_tag(session, game_id)
        async with self._sessions.read() as session:
            recorded = await places.game_places(session, game_id)
        record = PlaceLog(self._sessions, game_id)  # each place written as it is made
        try:
            try:
                made = await maker.make_places(started, recorded, record.record)
            finally:  # what was made before a refusal is recorded too: a later start reuses it
                await record.written()
        except GameError:
            if result is not None:
                await self._runtime.game_started(result)  # the clock runs; messages wait for the places
            raise
        try:  # the opening map, drawn now so that the game's first post and the welcomes show it
            await self.phase_map(game_id)
        except NotAllowed:  # the fog of war: no map for everyone (gm.reading.fog), each power's own view
            await self._opening_views(game_id)
        except Exception:
            log.exception("could not draw the opening map of game %s; the start goes on", game_id)
        async with self._sessions.begin() as session:  # the game as it is once set up: the outcome's
            ready = await games.set_game_channels(
                session,
                game_id,
                category_id=made.category_id,
                game_channel_id=made.game_channel_id,
                power_channels=made.power_channels,
            )
            await games.announce_sees_everything(session, game_id, list(made.sees_all))
        await maker.introduce(started)
        if result is not None:
            self._runtime.spawn(self._runtime.game_started(result), f"scheduling game {game_id}")
            self._hold_orders_soon([game_id])  # its first phase opened: the players' orders held
        else:
            self._runtime.spawn(self._runtime.deliver(), f"posting game {game_id}'s waiting messages")
        return StartOutcome(ready, made, drawn=result is not None)

    async def _opening_views(self, game_id: int) -> None:
        """A fogged game's opening position as each power with a player sees it, drawn in the worker
        processes and stored for the start's message in each power's channel (best effort: the
        message goes without the map)."""
        try:
            async with self._sessions.read() as session:
                todo = await opening_views(session, game_id)
            for view in todo:
                png = await run_off_loop(self._runtime.executor, position_map_work, view.request)
                try:
                    async with self._sessions.begin() as session:
                        store_map(session, view, png)
                except IntegrityError:  # a concurrent start stored it: the same picture
                    pass
        except Exception:
            log.exception("could not draw the opening views of game %s; the start goes on", game_id)

    async def _game(self, game_id: int) -> GameInfo:
        async with self._sessions.read() as session:
            return await games.get_game(session, game_id)
