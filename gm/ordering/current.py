"""The players' current orders, held in the process: what ``/orders edit`` opens at once.

Discord gives a form 3 seconds to open and it cannot be deferred, so the form's content must not wait
for the database when many players act at once (the reads queue for a connection, the event loop is
busy). :class:`CurrentOrders` keeps each player's :class:`~gm.ordering.submission.OrdersView` of the
current phase, as the last read or the player's own last change left it:

- a read (gm.facade's ``my_orders``) fills it when it misses;
- every change of a player's own orders in this process (a typed, tapped or form submission, a
  clear) puts the view the change computed in its own transaction (write-through), so that the form
  opened next shows it;
- any other committed change that may alter what a player sees (a close, a moderator's action, a
  seat taken over, a deadline moved, civil disorder) drops the game's views: the session events
  below see every write of the game's rows, phases, players, powers, orders and ready flags made
  through this process's sessions (by object, or an ORM UPDATE/DELETE statement: then every view).

Tickets keep a slow read or write from putting back a view older than a change committed meanwhile:
a view is kept only if nothing changed the game (or that player's orders) since its ticket was taken.

Correct only while this process makes every write: with several processes on one database (shards) a
sibling's write would not be seen, so the cache is off there and every form reads (a read session:
it never waits behind a writer). gm.facade turns it on for a process that owns every shard.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from dataclasses import dataclass, replace
from itertools import chain
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import ORMExecuteState, Session
from sqlalchemy.orm.session import SessionTransaction

from db.models import Game, OrderRecord, OrderSubmission, PhaseRecord, Player, PowerAssignment, ReadyFlag
from gm.ordering.submission import GAMES_HELD, GAMES_READ, OpenGame, OrdersView, SubmissionReport

EVERY_GAME = -1  # in a session's pending changes: a change whose game is not known
PENDING = "current_orders_pending"  # session.info: the games changed by the transaction under way
OWN = "current_orders_own"  # session.info: (game, user) whose own orders this session writes
WATCHED = (Game, PhaseRecord, Player, PowerAssignment, OrderRecord, ReadyFlag, OrderSubmission)
OWN_ROWS = (OrderRecord, ReadyFlag, OrderSubmission)  # a player's own orders, flags and log
GAMES_OPEN_KEPT = 64  # games held for the next write about orders (a few KiB each): the busiest


@dataclass(frozen=True, slots=True)
class Ticket:
    """What had changed when a read or a write began (see :class:`CurrentOrders`)."""

    game_id: int
    user_id: int
    stamp: tuple[int, int, int]


class CurrentOrders:
    """``(game, player) -> OrdersView`` of the current phase (see the module docstring)."""

    def __init__(self, engine: Engine | None, *, enabled: bool) -> None:
        """``engine``: the synchronous engine under the write sessions, whose commits are watched."""
        self.enabled = enabled and engine is not None
        self._views: dict[tuple[int, int], OrdersView] = {}
        # (game, player) -> their order menu (gm.ordering.legal.OrderMenu), held and dropped with the view
        self._menus: dict[tuple[int, int], Any] = {}
        # game -> what a read says of it (gm.reading.info.GameInfo), dropped with the game's views
        self._infos: dict[int, Any] = {}
        # game -> its row, latest phase and seats as a write about orders read them (lent to the next
        # such write: gm.ordering.submission.OpenGame), dropped with the game's views
        self._open: dict[int, OpenGame] = {}
        # ("user", id) -> the games they play, ("server", id, ended too) -> the server's games (lists of
        # GameInfo), dropped at any change of any game
        self._lists: dict[tuple[Any, ...], list[Any]] = {}
        self._changes = 0  # changes of any game so far
        self._everything = 0  # bumped by a change whose game is not known
        self._games: dict[int, int] = {}  # game -> changes to the game as a whole
        self._players: dict[tuple[int, int], int] = {}  # (game, user) -> changes of their own orders
        self._own: dict[int, int] = {}  # game -> changes of its players' own orders (any player)
        self._phase_game: dict[int, int] = {}  # phase -> game, for the phases of the views held
        self.hits = self.misses = 0
        if self.enabled and engine is not None:
            _watching[engine] = self

    def watch(self, engine: Engine) -> None:
        """Watch the commits of another engine on the same database (SQLite's urgent writers')."""
        if self.enabled:
            _watching[engine] = self

    # --- reading ------------------------------------------------------------------------------

    def get(self, game_id: int, user_id: int) -> OrdersView | None:
        """The player's view held here, or None (then read it, with a :meth:`ticket` taken first)."""
        view = self._views.get((game_id, user_id)) if self.enabled else None
        if view is None:
            self.misses += 1
        else:
            self.hits += 1
        return view

    def menu(self, game_id: int, user_id: int) -> Any:
        """The player's order menu held here (gm.ordering.legal.OrderMenu), or None (then read it,
        with a :meth:`ticket` taken first, and :meth:`fill_menu`)."""
        return self._menus.get((game_id, user_id)) if self.enabled else None

    def fill_menu(self, ticket: Ticket, menu: Any) -> None:
        """Keep ``menu``, read since ``ticket``, unless something changed meanwhile."""
        if self.enabled and self._still(ticket):
            self._menus[ticket.game_id, ticket.user_id] = menu
            if menu.view.phase.id is not None:
                self._phase_game[menu.view.phase.id] = menu.view.game_id

    def game_info(self, game_id: int) -> Any:
        """What a read says of the game (gm.reading.info.GameInfo) held here, or None (then read it,
        with a :meth:`game_stamp` taken first, and :meth:`fill_game_info`). Its players, seats and
        phase are rows whose every change drops it; the players' orders are not part of it."""
        return self._infos.get(game_id) if self.enabled else None

    def game_stamp(self, game_id: int) -> tuple[int, int]:
        return (self._everything, self._games.get(game_id, 0))

    def held_game(self, game_id: int) -> OpenGame | None:
        """The game as the last write about orders read it, while nothing changed it since."""
        return self._open.get(game_id) if self.enabled else None

    def lend(self, session: Any) -> None:
        """Lend what is held of the games to ``session``'s writes about orders, and have them note
        what they read (gm.ordering.submission.open_for_submission); :meth:`keep_read` after the
        commit."""
        if self.enabled:
            session.info[GAMES_HELD] = self
            session.info.pop(GAMES_READ, None)

    def keep_read(self, session: Any) -> None:
        """Hold what ``session``'s committed writes read of their games (see :meth:`lend`), unless
        something changed the game since it was read (its own commit included: a player back from
        civil disorder, an early close's deadline)."""
        for stamp, opened in session.info.pop(GAMES_READ, ()):
            if self.enabled and self.game_stamp(opened.game.row_id) == stamp:
                self._open.pop(opened.game.row_id, None)
                if len(self._open) >= GAMES_OPEN_KEPT:
                    del self._open[next(iter(self._open))]  # the one written least recently
                self._open[opened.game.row_id] = opened

    def fill_game_info(self, stamp: tuple[int, int], info: Any) -> None:
        if self.enabled and self.game_stamp(info.id) == stamp:
            self._infos[info.id] = info

    def games_listed(self, key: tuple[Any, ...]) -> list[Any] | None:
        """A list of games (GameInfo) held here: ``("user", id)`` the games a user plays,
        ``("server", id, ended)`` a server's; or None (then read it, with a :meth:`lists_stamp` taken
        first, and :meth:`fill_games_listed`)."""
        found = self._lists.get(key) if self.enabled else None
        return None if found is None else list(found)

    def lists_stamp(self) -> tuple[int, int]:
        return (self._everything, self._changes)

    def fill_games_listed(self, stamp: tuple[int, int], key: tuple[Any, ...], infos: list[Any]) -> None:
        if self.enabled and self.lists_stamp() == stamp:
            self._lists[key] = list(infos)

    def ticket(self, game_id: int, user_id: int) -> Ticket:
        """Take before reading or writing the player's orders."""
        key = (game_id, user_id)
        return Ticket(
            game_id, user_id, (self._everything, self._games.get(game_id, 0), self._players.get(key, 0))
        )

    def every_player_stamp(self, game_id: int) -> tuple[int, int, int]:
        """Take before reading every player's orders of the game (:meth:`fill_every_player`)."""
        return (self._everything, self._games.get(game_id, 0), self._own.get(game_id, 0))

    def fill_every_player(
        self, stamp: tuple[int, int, int], game_id: int, views: dict[int, OrdersView]
    ) -> None:
        """Keep every player's view of the game (user -> view), read since ``stamp``, unless
        anything changed the game or any player's orders meanwhile: the first form of a phase opens
        without a read."""
        if self.enabled and self.every_player_stamp(game_id) == stamp:
            for user_id, view in views.items():
                self._keep(Ticket(game_id, user_id, stamp), view)

    def fill(self, ticket: Ticket, view: OrdersView) -> None:
        """Keep ``view``, read since ``ticket``, unless something changed meanwhile."""
        if self.enabled and self._still(ticket):
            self._keep(ticket, view)

    def wrote(self, ticket: Ticket, view: OrdersView | None, menu: Any = None) -> None:
        """The player changed their own orders since ``ticket`` (committed): keep ``view``, computed in
        that transaction, unless something else changed meanwhile; None: the change's view is not
        the whole of what a read gives (a ready flag), the player's view is dropped. ``menu``: their
        order menu read after the commit (and before this call), kept on the same terms."""
        if not self.enabled:
            return
        key = (ticket.game_id, ticket.user_id)
        fresh = self._still(ticket)
        self._players[key] = self._players.get(key, 0) + 1
        self._own[ticket.game_id] = self._own.get(ticket.game_id, 0) + 1
        self._views.pop(key, None)
        self._menus.pop(key, None)
        if fresh and view is not None:
            self._keep(self.ticket(*key), view)
        if fresh and menu is not None:
            self._menus[key] = menu

    @staticmethod
    def after_submission(report: SubmissionReport) -> OrdersView:
        """The view a read would give after ``report``'s submission: with the lines it refused, to fix
        in the form (gm.ordering.submission.my_orders reads them from the submission's log)."""
        refused = tuple(line.line for line in report.lines if not line.accepted and line.line)
        return replace(report.view, refused=refused)

    # --- changes seen in the sessions ---------------------------------------------------------

    def changed(self, games: Iterable[int]) -> None:
        """Drop the views of ``games`` (:data:`EVERY_GAME`: of every game)."""
        self._changes += 1
        self._lists.clear()
        for game_id in games:
            if game_id == EVERY_GAME:
                self._everything += 1
                self._views.clear()
                self._menus.clear()
                self._infos.clear()
                self._open.clear()
                self._phase_game.clear()
                return
            self._games[game_id] = self._games.get(game_id, 0) + 1
            self._infos.pop(game_id, None)
            self._open.pop(game_id, None)
            for key in [k for k in self._views if k[0] == game_id]:
                del self._views[key]
            for key in [k for k in self._menus if k[0] == game_id]:
                del self._menus[key]

    def game_of_phase(self, phase_id: int) -> int | None:
        return self._phase_game.get(phase_id)

    def _still(self, ticket: Ticket) -> bool:
        return self.ticket(ticket.game_id, ticket.user_id).stamp == ticket.stamp

    def _keep(self, ticket: Ticket, view: OrdersView) -> None:
        self._views[ticket.game_id, ticket.user_id] = view
        if view.phase.id is not None:
            self._phase_game[view.phase.id] = view.game_id


def own_orders(session: Any, game_id: int, user_id: int) -> None:
    """Mark ``session`` (an AsyncSession or a Session) as writing the orders of that player only: its
    writes of orders, ready flags and the submission log are that player's own, which the caller
    puts in the cache itself (:meth:`CurrentOrders.wrote`)."""
    session.info[OWN] = (game_id, user_id)


# --- the session events: one set for the process, each engine's cache found by the session's bind ---

_watching: weakref.WeakKeyDictionary[Engine, CurrentOrders] = weakref.WeakKeyDictionary()


def _cache_of(session: Session) -> CurrentOrders | None:
    bind = session.bind
    return _watching.get(bind) if isinstance(bind, Engine) else None


def _pending(session: Session) -> set[int]:
    found: set[int] = session.info.setdefault(PENDING, set())
    return found


@event.listens_for(Session, "after_flush")
def _after_flush(session: Session, _context: Any) -> None:
    cache = _cache_of(session)
    if cache is None:
        return
    own = session.info.get(OWN)
    for row in chain(session.new, session.dirty, session.deleted):
        if not isinstance(row, WATCHED) or (own is not None and isinstance(row, OWN_ROWS)):
            continue
        if isinstance(row, Game):
            game = row.id
        elif isinstance(row, OrderRecord | ReadyFlag):
            game = cache.game_of_phase(row.phase_id)
        else:
            game = row.game_id
        _pending(session).add(EVERY_GAME if game is None else game)


@event.listens_for(Session, "do_orm_execute")
def _on_statement(state: ORMExecuteState) -> None:
    if state.is_select or _cache_of(state.session) is None:
        return
    mapper = state.bind_mapper
    entity = mapper.class_ if mapper is not None else None
    if entity not in WATCHED:
        return
    if state.session.info.get(OWN) is not None and entity in OWN_ROWS:
        return
    if entity is PhaseRecord and _sets_only(state.statement, UNSEEN_PHASE_COLUMNS):
        return  # a closer renewing its claims (every few seconds while games close): nothing held changes
    _pending(state.session).add(EVERY_GAME)  # an UPDATE or DELETE statement: which rows is not known


UNSEEN_PHASE_COLUMNS = frozenset({"adjudication_started_at"})
"""Columns of a phase that nothing held here shows (the lease of a close's claim)."""


def _sets_only(statement: Any, columns: frozenset[str]) -> bool:
    """Whether ``statement`` is an UPDATE that sets some of ``columns`` and nothing else."""
    values = getattr(statement, "_values", None) if statement.is_dml and statement.is_update else None
    if not values:
        return False
    return {getattr(key, "key", key) for key in values} <= columns


@event.listens_for(Session, "after_commit")
def _after_commit(session: Session) -> None:
    games = session.info.pop(PENDING, None)
    cache = _cache_of(session)
    if games and cache is not None:
        cache.changed(sorted(games))


@event.listens_for(Session, "after_soft_rollback")
def _after_rollback(session: Session, _previous: SessionTransaction) -> None:
    session.info.pop(PENDING, None)
