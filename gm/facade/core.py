"""The base of the facade: what every use case shares, and the machinery it hands its follow-ups to.

:class:`GamemasterCore` is the base of gm.facade.Gamemaster: every use case there opens its session
and owns its transaction (``self._sessions.begin()`` commits it; docs/ARCHITECTURE.md,
"Transactions"), then hands what must follow (deadline jobs, an early close, the final post, the
messages) to the runtime (gm.facade.runtime.Runtime.follow_up), which runs it in the background so
that the adapter answers its user at once. Everything here but ``runtime`` is private: the public
face of the facade is its use cases (tests/test_adapter_imports.py)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from contextlib import nullcontext
from dataclasses import replace
from typing import TypeVar, cast

from sqlalchemy.exc import IntegrityError
from sqlmodel.ext.asyncio.session import AsyncSession

from db.database import SessionFactory
from db.lean import NeedsSession
from gm.clock import Clock, utcnow
from gm.delivery.lanes import urgent_writes
from gm.delivery.outbox import OutboxSender
from gm.delivery.pool import run_off_loop
from gm.delivery.shards import EVERYTHING, Ownership
from gm.facade.runtime import Runtime
from gm.follow_ups import FollowUps
from gm.meant_for import ANY_PHASE, MeantFor
from gm.ordering import legal
from gm.ordering.current import CurrentOrders, Ticket, own_orders
from gm.ordering.legal import OrderMenu
from gm.ordering.offline import mark_read
from gm.ordering.progress import PhaseState
from gm.ordering.returning import returned_in
from gm.ordering.submission import OrdersView, every_players_orders
from gm.phases.closer import PhaseCloser
from gm.phases.worker import position_map_work
from gm.reports.history import MapImage, MapToDraw, find_map, store_map
from gm.setup import games
from gm.setup.games import FormingLimits

log = logging.getLogger(__name__)
T = TypeVar("T")


class GamemasterCore:
    def __init__(
        self,
        session_factory: SessionFactory,
        sender: OutboxSender | None = None,
        *,
        workers: int = 2,
        render_maps: bool = True,
        clock: Clock = utcnow,
        closer: PhaseCloser | None = None,
        forming_limits: FormingLimits | None = None,
        ownership: Ownership = EVERYTHING,
        process_name: str | None = None,
    ) -> None:
        """``workers``: processes for adjudication and rendering (0: a thread, in-process);
        ``forming_limits``: games waiting for players per creator and per server (None: no limit);
        ``ownership``: the shards whose games this process looks after when the bot runs as several
        processes (gm.delivery.shards; default: all of them), ``process_name`` its stable name (the
        outbox claims carry it; default: derived from the shards)."""
        self._sessions = session_factory
        self._render_maps = render_maps
        self._ownership = ownership
        self._forming_limits = forming_limits
        self._clock = clock
        self._setting_up: dict[int, asyncio.Lock] = {}  # game id -> held while a start sets it up
        self._runtime = Runtime(
            session_factory,
            sender,
            workers=workers,
            render_maps=render_maps,
            clock=clock,
            closer=closer,
            ownership=ownership,
            process_name=process_name,
        )
        # the players' current orders, for the orders form: held only where every write is this
        # process's (gm.ordering.current)
        bind = getattr(session_factory, "kw", {}).get("bind")
        self._current = CurrentOrders(getattr(bind, "sync_engine", None), enabled=ownership.owns_all)
        urgent = getattr(bind, "urgent", None)  # SQLite's urgent writers' engine (db.database): watched too
        if urgent is not None:
            self._current.watch(urgent.sync_engine)
        if self._current.enabled:
            self._runtime.phases_opened = self._hold_orders_soon

    def _hold_orders_soon(self, game_ids: Sequence[int] | None) -> None:
        """In the background, :meth:`_hold_orders` of ``game_ids`` (None: every running game), where
        the process holds orders (gm.ordering.current) and is not stopping."""
        if not self._current.enabled or self._runtime.winding_down:
            return
        what = "every running game" if game_ids is None else f"game {', '.join(map(str, game_ids))}"
        self._runtime.spawn(self._hold_orders(game_ids), f"holding the players' orders of {what}")

    async def _hold_orders(self, game_ids: Sequence[int] | None) -> None:
        """Read every player's current orders of each game (one read a game, one game after the
        other) into what the process holds (gm.ordering.current): the first orders form of a phase
        opens without a database read, when everybody acts at once near its deadline."""
        every = game_ids is None
        if game_ids is None:
            async with self._sessions.read() as session:
                game_ids = await games.running_game_ids(session)
        for game_id in game_ids:
            if self._runtime.winding_down:  # a stop began: the rest is left
                return
            stamp = self._current.every_player_stamp(game_id)
            async with self._sessions.read() as session:
                views = await every_players_orders(session, game_id)
            self._current.fill_every_player(stamp, game_id, views)
        if every and game_ids:
            log.info(
                "held the players' orders of every running game (%d)",
                len(game_ids),
                extra={"event": "orders_held", "games": len(game_ids)},
            )

    async def _write_own_orders(
        self,
        game_id: int,
        user_id: int,
        write: Callable[[AsyncSession], Awaitable[T]],
        *,
        message_id: int | None = None,
        lean: bool = True,
    ) -> T:
        """``write(session)`` in a transaction changing ``user_id``'s own orders in ``game_id`` (their
        orders, ready flags and log: gm.ordering.current.own_orders), what the process holds of the
        game lent to it; once committed, what it read is kept and a player's return announced.
        ``message_id``: the direct message they came in, written before other writers and marked
        handled in the same transaction.

        A game the process holds is written in a lean unit (db.lean: SQLite's driver alone, the same
        writer turns and durability) when one is free; what needs a session there (a player back
        from civil disorder, an early close's deadline...) rolls it back and runs ``write`` again in
        a session, as every write of a game not held does (``lean`` False: ``write`` needs one)."""
        with urgent_writes() if message_id is not None else nullcontext():
            held = self._current.held_game(game_id) is not None
            unit = await self._sessions.lean() if held and lean else None
            if unit is not None:
                try:
                    async with unit as unit_session:
                        session = cast(AsyncSession, unit_session)  # (what a hot write uses of one: db.lean)
                        done = await self._own_orders(session, game_id, user_id, write, message_id)
                except NeedsSession:
                    pass  # nothing committed: again in a session
                else:
                    self._current.keep_read(session)
                    self._send_if_returned(session, game_id)
                    return done
            async with self._sessions.begin() as session:
                done = await self._own_orders(session, game_id, user_id, write, message_id)
        self._current.keep_read(session)
        self._send_if_returned(session, game_id)
        return done

    async def _own_orders(
        self,
        session: AsyncSession,
        game_id: int,
        user_id: int,
        write: Callable[[AsyncSession], Awaitable[T]],
        message_id: int | None,
    ) -> T:
        own_orders(session, game_id, user_id)
        self._current.lend(session)
        if message_id is not None:
            await mark_read(session, user_id, message_id)
        return await write(session)

    def _send_if_returned(self, session: AsyncSession, game_id: int) -> None:
        """A player came back from civil disorder in this (committed) unit of work: the game
        channel's word of it (gm.ordering.returning) goes out now, not at the next delivery."""
        if returned_in(session):
            self._runtime.follow_up(FollowUps(game_id), f"a player's return in game {game_id}")

    async def _after_order_change(
        self,
        ticket: Ticket,
        view: OrdersView,
        *,
        kept: OrdersView | None,
        held: OrderMenu | None = None,
        state: PhaseState | None = None,
        same_orders: bool = False,
        menu_wanted: bool = False,
        meant_for: MeantFor[str] = ANY_PHASE,
    ) -> OrderMenu | None:
        """The one step after a change of a player's own orders has committed (typed, tapped, a form, a
        sheet's button, ready), whatever the way in:

        1. with ``menu_wanted`` (a sheet is drawn again), the player's order menu after the change:
           None when the change let the phase close now; the menu ``held`` before it with the change's
           view when it changed no order (``same_orders``: Ready); from ``state``, the phase as the
           change wrote it, when the powers are those of ``held``; otherwise read, without the lock.
           Without it, the same when the runtime's ``menu_watched`` says a sheet shown elsewhere will
           be drawn again (a direct message's) and no read is needed (else that redraw reads it);
        2. the order cache (gm.ordering.current) keeps ``kept`` (the view a read would give; None: drop
           it) and that menu, unless something else changed meanwhile;
        3. the early close in the background when everybody is done;
        4. the runtime's ``on_orders_changed`` is told (the adapter redraws the player's sheets shown
           elsewhere: a direct message's)."""
        menu: OrderMenu | None = None
        powers = [p.power for p in view.powers]
        same_powers = held is not None and not held.fogged and [p.power for p in held.powers] == powers
        watched = menu_wanted or self._runtime.menu_watched(ticket.game_id, ticket.user_id)
        if not watched or view.close_now:
            pass
        elif held is not None and same_powers and same_orders:
            menu = replace(held, view=view)  # nothing to read
        elif held is not None and same_powers and state is not None:
            menu = legal.menu_of(state, view, powers, held.variant)  # as the change wrote it
        elif menu_wanted:  # read once the change is committed, without the write lock
            async with self._sessions.read() as session:
                menu = await legal.order_menu(
                    session,
                    ticket.game_id,
                    ticket.user_id,
                    meant_for=replace(meant_for, phase=view.phase.name),
                    held=self._current.held_game(ticket.game_id),
                )
        self._current.wrote(ticket, kept, menu)
        if view.close_now:
            self._runtime.spawn(self._runtime.orders_changed(view), f"early close of phase {view.phase.id}")
        self._runtime.told_orders_changed(ticket.game_id, ticket.user_id, view.phase.name)
        return menu

    @property
    def runtime(self) -> Runtime:
        """The machinery (start, stop, closes, deliveries, background work): for the composition root
        (bot.py), the harness and the tests; never an adapter's."""
        return self._runtime

    async def phase_map(
        self,
        game_id: int,
        phase_name: str | None = None,
        *,
        with_orders: bool = False,
        viewer: int | None = None,
        seat: str | None = None,
    ) -> MapImage | None:
        """The map of a phase (default: the current one): its opening position, or with
        ``with_orders`` its orders and their results (closed phases only). None when there is none
        (the orders of a phase closed without maps).

        A game that ended as its last phase closed (a solo, a short game's last year) has no current
        phase: by default it shows the final position, the board after that last phase (the map its
        close stored for the final post, or drawn once now). Read without the write lock; a map never
        drawn (the first phase's opening position) is drawn in the worker processes, with no
        transaction open, and stored. A running fogged game shows ``viewer``'s own view
        (gm.reading.fog); with ``seat`` (a power), the view a newcomer to its seat gets."""
        async with self._sessions.read() as session:
            found = await find_map(
                session, game_id, phase_name, with_orders=with_orders, viewer=viewer, seat=seat
            )
        if not isinstance(found, MapToDraw):
            return found
        png = await run_off_loop(self._runtime.executor, position_map_work, found.request)
        if not found.store:
            return MapImage(found.filename, png)
        try:
            async with self._sessions.begin() as session:
                return store_map(session, found, png)
        except IntegrityError:  # drawn and stored by a concurrent request meanwhile: the same picture
            return MapImage(found.filename, png)
