"""Looking things up: games, places, orders, votes, status, history, maps. Nothing here changes the game
(a map drawn for the first time is stored, which is the same picture for everybody)."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from gm.anonymity import veil_data, veil_text
from gm.delivery.outbox import seat_posts, sent_messages_of
from gm.delivery.pool import run_off_loop
from gm.endings import votes
from gm.endings.final_post import chart_work
from gm.endings.votes import ProposalInfo
from gm.errors import UnknownGame
from gm.facade.core import GamemasterCore
from gm.ordering import submission as orders
from gm.ordering.submission import OrdersView
from gm.reading.info import GameInfo
from gm.reading.lookup import RUNNING_STATES
from gm.reports import chart, history, stats, status
from gm.reports.export import export_game
from gm.reports.history import MapImage, PhaseHistory
from gm.reports.stats import ServerBoard
from gm.reports.status import GameStatusView
from gm.rules.leaderboard import UserStats
from gm.settings import GameSettings
from gm.setup import games, places
from gm.setup.places import GamePlaces


class ReadingCases(GamemasterCore):
    async def get_game(self, game_id: int) -> GameInfo:
        """The game (every command that names one asks): held in the process when it can
        (gm.ordering.current), else read."""
        held: GameInfo | None = self._current.game_info(game_id)
        if held is not None:
            return held
        stamp = self._current.game_stamp(game_id)
        async with self._sessions.read() as session:
            info = await games.get_game(session, game_id)
        self._current.fill_game_info(stamp, info)
        return info

    async def game_on_server(
        self, game_id: int, guild_id: int | None, *, pressed_in: int | None = None
    ) -> GameInfo:
        """The game, when it belongs to server ``guild_id``; otherwise the same refusal as for a game
        that does not exist (a server never learns of another server's games).

        ``pressed_in``: the channel of a button posted in the game's channel (an open seat's). A button
        names its game by number only, and another database (a fresh start, a restored backup) may give
        that number to another game: a press from any channel but this game's own is refused."""
        game = await self.get_game(game_id)
        if guild_id != game.guild_id:
            raise UnknownGame(
                f"There is no game {game_id} on this server.", "See [[cmd:game list]] for the games here."
            )
        if pressed_in is not None and game.game_channel_id is not None and pressed_in != game.game_channel_id:
            raise UnknownGame(
                f"This button is from an old post: it does not belong to game #{game.id} {game.name}.",
                "See [[cmd:game list]] for the games here.",
            )
        return game

    async def list_games(self, guild_id: int, *, include_ended: bool = False) -> list[GameInfo]:
        """A server's games (held in the process when it can, as :meth:`games_of_user`)."""
        return await self._listed(
            ("server", guild_id, include_ended),
            lambda session, _stamp: games.list_games(session, guild_id, include_ended=include_ended),
        )

    async def games_of_user(self, user_id: int, *, include_ended: bool = False) -> list[GameInfo]:
        """The games the user plays (those ended too with ``include_ended``). The running ones are held
        in the process when it can (gm.ordering.current): a direct message of orders asks first."""
        if include_ended:
            async with self._sessions.read() as session:
                return await games.games_of_user(session, user_id, include_ended=True)

        async def read(session: AsyncSession, stamp: tuple[int, int]) -> list[GameInfo]:
            return await self._games_read(session, stamp, await games.game_ids_of_user(session, user_id))

        return await self._listed(("user", user_id), read)

    async def _games_read(
        self, session: AsyncSession, stamp: tuple[int, int], game_ids: list[int]
    ) -> list[GameInfo]:
        """The games ``game_ids``, each held in the process when it can (:meth:`get_game`; the seven
        players of a game listing their games read it once), else read in ``session``, begun after
        ``stamp`` (:meth:`lists_stamp`) was taken: each game read is held if nothing changed any game
        since."""
        found = []
        for game_id in game_ids:
            info: GameInfo | None = self._current.game_info(game_id)
            if info is None:
                info = await games.get_game(session, game_id)
                if self._current.lists_stamp() == stamp:  # no game changed: its stamp is as at the read
                    self._current.fill_game_info(self._current.game_stamp(game_id), info)
            found.append(info)
        return found

    async def _listed(
        self,
        key: tuple[Any, ...],
        read: Callable[[AsyncSession, tuple[int, int]], Awaitable[list[GameInfo]]],
    ) -> list[GameInfo]:
        """The games listed under ``key``: held in the process when it can, else ``read`` in a session
        begun after the lists' stamp (given to it) was taken, and held if nothing changed since."""
        held: list[GameInfo] | None = self._current.games_listed(key)
        if held is not None:
            return held
        stamp = self._current.lists_stamp()
        async with self._sessions.read() as session:
            found = await read(session, stamp)
        self._current.fill_games_listed(stamp, key, found)
        return found

    async def players_of_running_games(self) -> list[int]:
        async with self._sessions.read() as session:
            return await games.players_of_running_games(session)

    async def game_of_channel(self, channel_id: int) -> int | None:
        async with self._sessions.read() as session:
            return await places.game_of_channel(session, channel_id)

    async def game_places(self, game_id: int) -> GamePlaces:
        async with self._sessions.read() as session:
            return await places.game_places(session, game_id)

    async def my_orders(self, game_id: int, user_id: int) -> OrdersView:
        """The caller's orders in the current phase: held in the process when it can (the orders form
        opens at once, gm.ordering.current), else read without waiting for a writer."""
        held = self._current.get(game_id, user_id)
        if held is not None:
            return held
        ticket = self._current.ticket(game_id, user_id)
        async with self._sessions.read() as session:
            view = await orders.my_orders(session, game_id, user_id)
        self._current.fill(ticket, view)
        return view

    def orders_held(self, game_id: int, user_id: int) -> OrdersView | None:
        """The caller's orders if the process holds them (no wait at all), else None: the orders form
        opens with them at once; None means :meth:`my_orders` reads them."""
        return self._current.get(game_id, user_id)

    async def open_proposals(self, game_id: int) -> list[ProposalInfo]:
        async with self._sessions.read() as session:
            return await votes.open_proposals(session, game_id)

    async def my_votes(self, game_id: int, user_id: int) -> dict[int, dict[str, str]]:
        async with self._sessions.read() as session:
            return await votes.my_votes(session, game_id, user_id)

    async def game_status(
        self, game_id: int, *, log_limit: int = 25, viewer: int | None = None
    ) -> GameStatusView:
        """/game status; a running anonymous game names only ``viewer``'s own seat (gm.anonymity)."""
        async with self._sessions.read() as session:
            view = await status.game_status(session, game_id, log_limit=log_limit)
        if not (view.game.settings.anonymous and view.game.status in RUNNING_STATES):
            return view
        seats: dict[int, list[str]] = {}
        for row in view.powers:
            if row.user_id is not None:
                seats.setdefault(row.user_id, []).append(row.power)
        players = frozenset(p.user_id for p in view.game.players) | frozenset(seats)
        reader = frozenset({viewer}) if viewer is not None else frozenset()
        return dataclasses.replace(
            view,
            powers=tuple(
                dataclasses.replace(row, user_id=None) if row.user_id != viewer else row
                for row in view.powers
            ),
            moderation=tuple(
                dataclasses.replace(
                    line,
                    actor_id=None if line.actor_id in players and line.actor_id != viewer else line.actor_id,
                    text=veil_text(line.text, seats, reader),
                )
                for line in view.moderation
            ),
        )

    async def server_board(self, guild_id: int) -> ServerBoard:
        """/stats: the server's leaderboard."""
        async with self._sessions.read() as session:
            return await stats.server_board(session, guild_id)

    async def player_stats(self, guild_id: int, user_id: int) -> UserStats | None:
        """/stats user: one player's record on the server (None: never played there)."""
        async with self._sessions.read() as session:
            return await stats.player_stats(session, guild_id, user_id)

    async def players_stats(self, guild_id: int, user_ids: list[int]) -> dict[int, UserStats]:
        async with self._sessions.read() as session:
            return await stats.players_stats(session, guild_id, user_ids)

    async def export_game(self, game_id: int, *, viewer: int | None = None) -> dict[str, Any]:
        """/game export; a running fogged game as ``viewer``'s powers see it (gm.reading.fog); a running
        anonymous game names only ``viewer`` (gm.anonymity)."""
        async with self._sessions.read() as session:
            data = await export_game(session, game_id, viewer=viewer)
        game = data.get("game") or {}
        anonymous = GameSettings.from_json(game.get("settings") or {}).anonymous
        if not (anonymous and game.get("status") in RUNNING_STATES):
            return data
        seats = {p["user_id"]: p["powers"] for p in data.get("players", ()) if p.get("powers")}
        players = frozenset(p["user_id"] for p in data.get("players", ()))
        return dict(veil_data(data, players, seats, viewer))  # its players revealed at the end only

    async def centers_chart(self, game_id: int, *, colorblind: bool = False) -> MapImage:
        """The chart of every power's supply centers year by year (gm.reports.chart), drawn off
        the event loop (the worker processes)."""
        async with self._sessions.read() as session:
            filename, request = await chart.chart_of(session, game_id, colorblind=colorblind)
        return MapImage(filename, await run_off_loop(self._runtime.executor, chart_work, request))

    async def phase_history(
        self, game_id: int, phase_name: str | None = None, *, viewer: int | None = None
    ) -> PhaseHistory:
        """/history; a running fogged game as ``viewer``'s powers see it (gm.reading.fog)."""
        async with self._sessions.read() as session:
            return await history.phase_history(session, game_id, phase_name, viewer=viewer)

    async def seat_posts_of(
        self, game_id: int, powers: Sequence[str], *, before_id: int
    ) -> list[tuple[int, int]]:
        """Where the game channel offered a seat of these powers (to say it is taken now)."""
        async with self._sessions.read() as session:
            return await seat_posts(session, game_id, powers, before_id=before_id)

    async def sent_messages_of(
        self, game_id: int, phase_id: int, kinds: tuple[str, ...], *, before_id: int
    ) -> list[tuple[int, int]]:
        """Where the messages of these kinds about a phase were posted (to mark them void)."""
        async with self._sessions.read() as session:
            return await sent_messages_of(session, game_id, phase_id, kinds, before_id=before_id)
