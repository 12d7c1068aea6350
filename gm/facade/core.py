"""The base of the facade: what every use case shares, and the machinery it hands its follow-ups to.

:class:`GamemasterCore` is the base of gm.facade.Gamemaster: every use case there opens its session
and owns its transaction (``self._sessions.begin()`` commits it; docs/ARCHITECTURE.md,
"Transactions"), then hands what must follow (deadline jobs, an early close, the final post, the
messages) to the runtime (gm.facade.runtime.Runtime.carry_out), which runs it in the background so
that the adapter answers its user at once. Everything here but ``runtime`` is private: the public
face of the facade is its use cases (tests/test_adapter_imports.py)."""

from __future__ import annotations

import asyncio

from sqlalchemy.exc import IntegrityError
from sqlmodel.ext.asyncio.session import AsyncSession

from db.database import SessionFactory
from gm.clock import Clock, utcnow
from gm.delivery.outbox import OutboxSender
from gm.delivery.pool import run_off_loop
from gm.delivery.shards import EVERYTHING, Ownership
from gm.facade.runtime import Runtime
from gm.follow_ups import Effects
from gm.ordering.current import CurrentOrders
from gm.ordering.returning import returned_in
from gm.phases.closer import PhaseCloser
from gm.phases.worker import position_map_work
from gm.reports.history import MapImage, MapToDraw, find_map, store_map
from gm.setup.games import FormingLimits


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

    def _send_if_returned(self, session: AsyncSession, game_id: int) -> None:
        """A player came back from civil disorder in this (committed) unit of work: the game
        channel's word of it (gm.ordering.returning) goes out now, not at the next delivery."""
        if returned_in(session):
            self._runtime.carry_out(Effects(game_id), f"a player's return in game {game_id}")

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
    ) -> MapImage | None:
        """The map of a phase (default: the current one): its opening position, or with
        ``with_orders`` its orders and their results (closed phases only). None when there is none
        (the orders of a phase closed without maps).

        A game that ended as its last phase closed (a solo, a short game's last year) has no current
        phase: by default it shows the final position, the board after that last phase (the map its
        close stored for the final post, or drawn once now). Read without the write lock; a map never
        drawn (the first phase's opening position) is drawn in the worker processes, with no
        transaction open, and stored. A running fogged game shows ``viewer``'s own view
        (gm.reading.fog)."""
        async with self._sessions.read() as session:
            found = await find_map(session, game_id, phase_name, with_orders=with_orders, viewer=viewer)
        if not isinstance(found, MapToDraw):
            return found
        png = await run_off_loop(self._runtime.executor, position_map_work, found.request)
        try:
            async with self._sessions.begin() as session:
                return store_map(session, found, png)
        except IntegrityError:  # drawn and stored by a concurrent request meanwhile: the same picture
            return MapImage(found.filename, png)
