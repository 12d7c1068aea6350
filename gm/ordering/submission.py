"""Order-writing use cases: submit (many lines at once), clear, show my orders, ready / not ready.

Privacy: everything here returns the caller's own orders only. Other powers' orders are public once
their phase has closed (gm.reports.history), never before.

Each submission is judged line by line (gm.ordering.judging, with ``engine.enter_order``: one of the
position's legal orders for the power, and in a winter within the builds or removals due); an accepted
line replaces any earlier order for the same unit, a refused line changes nothing and comes back with
the engine's reason and hint. The whole text is logged in
``order_submission`` with what became of each line, refused lines included.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import Connection, bindparam, delete, func, insert, update
from sqlalchemy import select as select_columns
from sqlalchemy.orm import attributes
from sqlalchemy.orm.util import identity_key
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.database import flushed_connection, without_nul
from db.models import (
    Game,
    GameStatus,
    OrderRecord,
    OrderSubmission,
    PhaseRecord,
    PhaseStatus,
    Player,
    PlayerStatus,
    PowerAssignment,
    ReadyFlag,
)
from db.prepared import Prepared
from engine import split_orders
from engine.mapdata import GameMap
from engine.variants import game_map as map_of
from engine.variants import read_power
from gm.builtin.talks import played_by_it_while_absent, taken_back, tell_seat_talks
from gm.clock import require_aware, utcnow
from gm.errors import NoOrdersGiven, NotAllowed, OrdersClosed
from gm.game_log import log_event
from gm.meant_for import ANY_PHASE, MeantFor
from gm.messages import payloads as say
from gm.ordering.judging import LineOutcome, judge_line
from gm.ordering.progress import PhaseState, phase_state, seats
from gm.ordering.returning import announce_return
from gm.reading.fog import board_for
from gm.reading.info import PhaseInfo
from gm.reading.lookup import (
    ENDED_STATES,
    MAX_ID,
    latest_phase,
    load_game,
    load_player,
    load_player_and_powers,
    not_a_player,
    powers_of,
    require_started,
)
from gm.settings import deadline_zone

MAX_LINES = 100
NEW_PHASE_NOTICE = timedelta(minutes=3)


@dataclass(frozen=True, slots=True)
class PowerOrders:
    """One of the caller's powers: its current orders and what it still has to order."""

    power: str
    orders: tuple[str, ...]
    missing: tuple[str, ...]  # units without orders (``A PAR``), or ``2 builds`` / ``1 removal``
    ready: bool


@dataclass(frozen=True, slots=True)
class OrdersView:
    """The caller's orders in the current phase (what /orders show and every answer end with)."""

    game_id: int
    game_name: str
    phase: PhaseInfo
    powers: tuple[PowerOrders, ...]
    close_now: bool = False  # the phase may close early now: the caller should run the close
    # Lines the player's latest submission in this phase had refused (as typed), to fix in the form
    refused: tuple[str, ...] = ()
    deadline_zone: str | None = None  # the game's deadline time zone, when it has a schedule
    game_tag: str = ""  # the game's random tag: buttons made for this answer carry it (require_same_game)

    @property
    def deadline(self) -> datetime | None:
        return self.phase.deadline


@dataclass(frozen=True, slots=True)
class SubmissionReport:
    """The answer to a submission: each line's fate, then the caller's orders and what is missing.

    ``new_phase_notice``: set when the phase the orders went to opened moments ago (within
    :data:`NEW_PHASE_NOTICE`) as another closed: a player who typed orders for the phase that just
    closed (a late direct message, ``/order text:``) learns that they now count for the new one.
    Nothing typed is refused for it; the adapter shows the sentence above the answer."""

    lines: tuple[LineOutcome, ...]
    view: OrdersView
    new_phase_notice: str | None = None
    # the phase's state after the submission, as written in its transaction (the order menu after it)
    state: PhaseState | None = field(default=None, repr=False, compare=False)
    # The caller's powers that were ready and are no longer: new orders after Ready take it back
    # (as on webDiplomacy), and the answer says so.
    unready: tuple[str, ...] = ()

    @property
    def accepted(self) -> tuple[LineOutcome, ...]:
        return tuple(line for line in self.lines if line.accepted)

    @property
    def refused(self) -> tuple[LineOutcome, ...]:
        return tuple(line for line in self.lines if not line.accepted)


GAMES_HELD = "gm_games_held"
"""session.info: what the process holds of the running games (a :class:`GamesHeld`, gm.ordering.current),
lent to a write so that it need not read the game, its phase and its seats again."""
GAMES_READ = "gm_games_read"
"""session.info: the :class:`OpenGame` s a write read (with the :meth:`GamesHeld.game_stamp` taken before
each read), for the process to hold once the write has committed."""


@dataclass(frozen=True, slots=True)
class OpenGame:
    """A running game as a write about orders reads it: its row, its latest phase and its seats (power
    -> player). Held by the process between transactions (gm.ordering.current): its objects belong to
    no session and are never changed in place; a write that changes one of them (a player back from
    civil disorder, an early close's deadline) reads its own."""

    game: Game
    phase: PhaseRecord
    seats: dict[str, Player | None]


class GamesHeld(Protocol):
    """What the process holds of the running games (gm.ordering.current.CurrentOrders)."""

    def held_game(self, game_id: int) -> OpenGame | None: ...

    def game_stamp(self, game_id: int) -> tuple[int, int]: ...


SUBMISSIONS_KEPT = 50
"""Submissions (and clears) kept per player and phase: the latest ones. A player who sends a thousand
messages in a phase cannot grow the database without bound; what counts is in the orders anyway."""


_OLDER = (
    select(OrderSubmission.id)
    .where(
        col(OrderSubmission.phase_id) == bindparam("phase_id"),
        col(OrderSubmission.user_id) == bindparam("user_id"),
    )
    .order_by(col(OrderSubmission.id).desc())
    .offset(SUBMISSIONS_KEPT)
)
_FORGET_OLDER = delete(OrderSubmission).where(col(OrderSubmission.id).in_(_OLDER.scalar_subquery()))
_LOG = insert(OrderSubmission)
_NEW_FLAGS = insert(ReadyFlag)
_DROP_FLAG = delete(ReadyFlag).where(
    col(ReadyFlag.phase_id) == bindparam("phase_id"), col(ReadyFlag.power) == bindparam("power")
)
_NEW_ORDERS = insert(OrderRecord)
_CHANGED_ORDERS = update(OrderRecord).where(col(OrderRecord.id) == bindparam("row_id"))
# The writes of a submission and of Ready, run by SQLite's driver itself (db.prepared) with the
# parameters' keys given here
_ORDER_KEYS = ("text", "input", "submitted_by", "submitted_at")
_FORGETTING = Prepared(_FORGET_OLDER)
_LOGGING = Prepared(_LOG, ("game_id", "phase_id", "user_id", "action", "text", "outcome", "submitted_at"))
_FLAGGING = Prepared(_NEW_FLAGS, ("phase_id", "power", "user_id", "set_at"))
_UNFLAGGING = Prepared(_DROP_FLAG)
_ORDERING = Prepared(_NEW_ORDERS, ("phase_id", "power", "unit_key", *_ORDER_KEYS))
_REORDERING = Prepared(_CHANGED_ORDERS, ("row_id", *_ORDER_KEYS))


async def _bound_log(session: AsyncSession, phase_id: int, user_id: int) -> None:
    """Forget the player's oldest submissions of the phase beyond :data:`SUBMISSIONS_KEPT` (one
    statement; the submission just added is flushed first, and is never among them)."""
    connection = await flushed_connection(session)
    await _FORGETTING.run(connection, {"phase_id": phase_id, "user_id": user_id})


def withdrawal(
    game_id: int, phase_id: int, user_id: int, outcome: dict[str, Any], now: datetime
) -> OrderSubmission:
    """The submission log's line for orders taken back (``action`` "clear", no text): ``outcome``
    says which (``{"cleared": powers}``, ``{"withdrawn": unit, "powers": powers}``...)."""
    return OrderSubmission(
        game_id=game_id,
        phase_id=phase_id,
        user_id=user_id,
        action="clear",
        text="",
        outcome=[outcome],
        submitted_at=now,
    )


def order_lines(text: str, the_map: GameMap) -> list[str]:
    """The order lines of ``text`` (engine.split_orders), refused whole (NoOrdersGiven) when there
    are none or more than :data:`MAX_LINES`. A game's and a sandbox's orders alike."""
    lines = split_orders(text, the_map)
    if not lines:
        raise NoOrdersGiven(
            "There were no orders in your message.", "Write one order per line, e.g. A Par-Bur or F Bre H."
        )
    if len(lines) > MAX_LINES:
        raise NoOrdersGiven(
            f"That is {len(lines)} lines; at most {MAX_LINES} orders at once.", "Send your orders in parts."
        )
    return lines


def _judge_lines(
    lines: Sequence[str],
    state: PhaseState,
    powers: list[str],
    current: dict[str, dict[str, str]],
    typed: dict[str, dict[str, str]],
) -> tuple[list[LineOutcome], dict[tuple[str, str], None]]:
    """Each line judged in turn against the orders so far (``current`` and ``typed`` updated as lines
    are placed): the outcomes, and the (power, unit) keys changed in the order their lines came (a key
    placed twice counts where it was placed last)."""
    changed: dict[tuple[str, str], None] = {}
    outcomes = []
    for line in lines:
        outcome, placed = judge_line(line, state, powers, current)
        outcomes.append(outcome)
        if placed is not None:
            the_power, key = placed
            typed[the_power][key] = line
            changed.pop(placed, None)
            changed[placed] = None
    return outcomes, changed


async def submit_orders(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    text: str,
    *,
    power: str | None = None,
    meant_for: MeantFor[str] = ANY_PHASE,
    now: datetime | None = None,
) -> SubmissionReport:
    """Judge and store every line of ``text`` for the caller's power(s) in the open phase.

    ``power`` restricts the lines to one of the caller's powers; ``meant_for``'s phase (e.g. the phase a
    modal was opened for) refuses the whole text when the game has moved on since; its tag (an order
    builder's) when the game is not the one the builder was opened for (:func:`require_same_game`).
    """
    now = require_aware(now or utcnow())
    opened = await open_for_submission(session, game_id, user_id, power, meant_for)
    return await submit_opened(session, opened, user_id, text, meant_for=meant_for, now=now)


async def submit_opened(
    session: AsyncSession,
    opened: tuple[Game, Player, list[str], PhaseRecord, dict[str, Player | None] | None],
    user_id: int,
    text: str,
    *,
    meant_for: MeantFor[str],
    now: datetime,
    before: Sequence[dict[str, Any]] = (),
) -> SubmissionReport:
    """:func:`submit_orders` once the game is open (:func:`open_for_submission`); ``before``: rows of
    the submission log to write first, in the same statement (a form's withdrawal)."""
    game, player, powers, phase, player_of = opened
    text = without_nul(text)  # an invisible U+0000 must not cost the line (nor, on PostgreSQL, the write)
    require_same_game(game, meant_for)
    lines = order_lines(text, map_of(game.variant))
    state = await phase_state(session, phase, game.variant, player_of=player_of, logged_by=user_id)
    state = replace(state, board=board_for(game, state.board, powers))  # the fog of war: what they see
    current = {p: dict(state.orders.get(p, {})) for p in powers}
    typed = {p: dict(state.inputs.get(p, {})) for p in powers}
    outcomes, changed = _judge_lines(lines, state, powers, current, typed)
    if player.status == PlayerStatus.CIVIL_DISORDER and any(o.accepted for o in outcomes):
        player.status = PlayerStatus.ACTIVE  # back from civil disorder: their orders count again
        await _returned(session, game, player, now, powers)
    before_orders = state.orders
    altered = {p for p, key in changed if before_orders.get(p, {}).get(key) != current[p][key]}
    unready = tuple(sorted(p for p in altered if p in state.ready))
    new, updated = _changed_rows(session, state, phase, user_id, now, current, typed, changed)
    logged = {
        "game_id": game.row_id,
        "phase_id": phase.row_id,
        "user_id": user_id,
        "action": "submit",
        "text": text,
        "outcome": [o.to_json() for o in outcomes],
        "submitted_at": now,
    }
    log = [*before, logged]
    trim = state.logged is None or state.logged + len(log) > SUBMISSIONS_KEPT
    connection = await flushed_connection(session)
    await connection.run_sync(_write, new, updated, log, unready, trim)
    notice = await _new_phase_notice(session, phase, now) if meant_for.phase is None else None
    after = replace(state, orders={**state.orders, **current}, ready=state.ready - set(unready))
    view = view_of(after, game, phase, powers)
    await _record_close_request(session, phase, view, now)
    return SubmissionReport(
        lines=tuple(outcomes), view=view, new_phase_notice=notice, state=after, unready=unready
    )


async def clear_orders(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    *,
    power: str | None = None,
    meant_for: MeantFor[str] = ANY_PHASE,
    now: datetime | None = None,
) -> OrdersView:
    """Remove all the caller's orders (for one power, or all theirs) in the open phase (``meant_for``'s
    phase and game, when given)."""
    now = require_aware(now or utcnow())
    game, _player, powers, phase = await open_phase_for(session, game_id, user_id, power, meant_for)
    require_same_game(game, meant_for)
    await session.exec(
        delete(OrderRecord).where(col(OrderRecord.phase_id) == phase.id, col(OrderRecord.power).in_(powers))
    )
    session.add(withdrawal(game.row_id, phase.row_id, user_id, {"cleared": powers}, now))
    await _bound_log(session, phase.row_id, user_id)
    view = await _view(session, game, phase, powers)
    await _record_close_request(session, phase, view, now)
    return view


async def my_orders(session: AsyncSession, game_id: int, user_id: int) -> OrdersView:
    """The caller's orders in the current phase, and what is still missing. Only the caller's."""
    game = await load_game(session, game_id)
    require_started(game)
    player = await load_player(session, game, user_id)
    powers = await powers_of(session, game.row_id, player.row_id)
    phase = await latest_phase(session, game.row_id)
    if phase is None:
        raise OrdersClosed(f"{game.name} has no phase yet.")
    view = await _view(session, game, phase, powers)
    latest = (
        await session.exec(
            select(OrderSubmission)
            .where(OrderSubmission.phase_id == phase.id, OrderSubmission.user_id == user_id)
            .order_by(col(OrderSubmission.id).desc())
            .limit(1)
        )
    ).first()
    return _with_refused(view, latest)


def _with_refused(view: OrdersView, latest: OrderSubmission | None) -> OrdersView:
    """``view`` with the lines the player's ``latest`` submission of the phase refused (as typed)."""
    if latest is None or latest.action != "submit":
        return view
    refused = tuple(o["line"] for o in latest.outcome if not o.get("accepted") and o.get("line"))
    return replace(view, refused=refused)


_PLAYERS_AND_POWERS = (
    select(Player, PowerAssignment.power)
    .join(PowerAssignment, col(PowerAssignment.player_id) == col(Player.id), isouter=True)
    .where(col(Player.game_id) == bindparam("game_id"))
    .order_by(col(Player.id), col(PowerAssignment.power))
)
_LATEST_SUBMISSIONS = select(OrderSubmission).where(
    col(OrderSubmission.id).in_(
        select_columns(func.max(OrderSubmission.id))
        .where(col(OrderSubmission.phase_id) == bindparam("phase_id"))
        .group_by(col(OrderSubmission.user_id))
    )
)


async def every_players_orders(session: AsyncSession, game_id: int) -> dict[int, OrdersView]:
    """What :func:`my_orders` gives each player of the game (user id -> their view), read at once:
    the game, its phase, its orders and the latest submissions once for all. Empty for a game that is
    not running (not started, over, or without a phase yet)."""
    game = await session.get(Game, game_id) if 0 < game_id <= MAX_ID else None
    if game is None or game.status == GameStatus.FORMING or game.status in ENDED_STATES:
        return {}
    phase = await latest_phase(session, game.row_id)
    if phase is None:
        return {}
    powers_of_player: dict[int, tuple[Player, list[str]]] = {}
    for player, power in (await session.exec(_PLAYERS_AND_POWERS, params={"game_id": game.row_id})).all():
        _, powers = powers_of_player.setdefault(player.user_id, (player, []))
        if power is not None:
            powers.append(power)
    state = await phase_state(session, phase, game.variant)
    latest = {
        row.user_id: row
        for row in (await session.exec(_LATEST_SUBMISSIONS, params={"phase_id": phase.row_id})).all()
    }
    return {
        user_id: _with_refused(view_of(state, game, phase, powers), latest.get(user_id))
        for user_id, (player, powers) in powers_of_player.items()
        if player.status not in (PlayerStatus.LEFT, PlayerStatus.REPLACED)
    }


async def set_ready(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    *,
    ready: bool = True,
    meant_for: MeantFor[str] = ANY_PHASE,
    now: datetime | None = None,
) -> OrdersView:
    """Mark the caller's powers ready (or not) for the phase to close early. ``close_now`` in the answer
    says that everybody is done and the caller should run the close (gm.facade does)."""
    now = require_aware(now or utcnow())
    # the game's tag first (a sheet's Ready meant for another game that had this number), then as a
    # submission: the game and its phase in one statement, the seats in one, read again by nobody
    game, player, powers, phase, player_of = await open_for_submission(
        session, game_id, user_id, None, meant_for, same_game_first=True
    )
    if ready and player.status == PlayerStatus.CIVIL_DISORDER:
        player.status = PlayerStatus.ACTIVE  # back from civil disorder: a ready player is playing again
        await _returned(session, game, player, now, powers)
    state = await phase_state(session, phase, game.variant, player_of=player_of)
    changed = [p for p in powers if (p in state.ready) != ready]
    if changed:  # the flags written as plain rows, like the orders (nothing here holds them as objects)
        connection = await flushed_connection(session)
        if ready:
            rows = [
                {"phase_id": phase.row_id, "power": p, "user_id": user_id, "set_at": now} for p in changed
            ]
            await _FLAGGING.run(connection, rows)
        else:
            await _UNFLAGGING.run(connection, [{"phase_id": phase.row_id, "power": p} for p in changed])
    flags = state.ready | set(changed) if ready else state.ready - set(changed)
    view = view_of(replace(state, ready=frozenset(flags)), game, phase, powers)
    await _record_close_request(session, phase, view, now)
    return view


async def _record_close_request(
    session: AsyncSession, phase: PhaseRecord, view: OrdersView, now: datetime
) -> None:
    """Everybody is done: the early close is due. Record it durably in the same transaction (the
    deadline becomes now), so that a bot stopped before the close runs it at its next start, whatever
    happens to the background task that runs it now (gm.facade). A phase the process holds
    (:class:`OpenGame`) is not changed in place: the session's own copy is."""
    if view.close_now and phase.deadline is not None and phase.deadline > now:
        if phase not in session:
            own = await session.get(PhaseRecord, phase.row_id)
            assert own is not None  # for mypy: the phase is locked (or the writer is alone)
            phase = own
        phase.deadline = now


async def early_close_due(session: AsyncSession, phase_id: int) -> bool:
    """True when the open phase ``phase_id`` may close now (see gm.ordering.progress)."""
    phase = await session.get(PhaseRecord, phase_id)
    if phase is None or phase.status != PhaseStatus.OPEN or phase.deadline is None:
        return False  # closed, or paused
    game = await session.get(Game, phase.game_id)
    state = await phase_state(session, phase, game.variant if game else "standard")
    return state.can_close_early()


# --- helpers ------------------------------------------------------------------------------------


# the phase before: its name and when it closed (run by SQLite's driver itself, db.prepared)
_PREVIOUS_PHASE = Prepared(
    select_columns(col(PhaseRecord.name), col(PhaseRecord.closed_at)).where(
        col(PhaseRecord.game_id) == bindparam("game_id"), col(PhaseRecord.ordinal) == bindparam("ordinal")
    )
)


async def _new_phase_notice(session: AsyncSession, phase: PhaseRecord, now: datetime) -> str | None:
    """The warning for orders sent just after the previous phase closed (see SubmissionReport)."""
    if phase.ordinal == 0 or now - phase.opened_at >= NEW_PHASE_NOTICE:
        return None
    connection = await flushed_connection(session)
    found = await _PREVIOUS_PHASE.rows(connection, {"game_id": phase.game_id, "ordinal": phase.ordinal - 1})
    previous = found[0] if found else None
    if previous is None or previous[1] is None:
        return None
    name, closed_at = previous
    if name[-1] != phase.name[-1]:
        return None  # retreats and builds cannot be meant for a movement phase, nor the reverse
    ago = say.seconds_text((now - closed_at).total_seconds())
    return (
        f"{say.long_name(name)} closed {ago} ago: these orders are for {say.long_name(phase.name)}. "
        "Check the new position ([[cmd:map]])."
    )


async def _returned(
    session: AsyncSession, game: Game, player: Player, now: datetime, powers: list[str]
) -> None:
    """A player in civil disorder plays again (logged, and told in the game channel, whose posts
    offering the seat close); when the built-in player was playing their seat meanwhile, its private
    talks learn it (gm.builtin.talks). Rare: not on the busy path."""
    log_event(session, game.row_id, "returned", at=now, actor_id=player.user_id, detail={"powers": powers})
    seat = await powers_of(session, game.row_id, player.row_id)
    announce_return(session, game, player.user_id, seat, now)
    if await played_by_it_while_absent(session, game, seat):
        await tell_seat_talks(
            session,
            game,
            seat,
            taken_back(seat, player.user_id, returning=True),
            user_id=player.user_id,
            key=f"returned:{game.id}:{player.user_id}:{now.isoformat()}:talks",
            now=now,
        )


async def open_phase_for(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    power: str | None,
    meant_for: MeantFor[str],
    *,
    lock: bool = True,
    same_game_first: bool = False,
) -> tuple[Game, Player, list[str], PhaseRecord]:
    """The game, the caller, the powers they act for and the open phase (``meant_for``'s phase, when
    given; its tag is :func:`require_same_game`'s), locked against a close (``lock=False``: read only,
    as the order builder's menus are). ``same_game_first``: the tag is checked before anything else
    about the game (else by the caller)."""
    game = await load_game(session, game_id)
    if same_game_first:
        require_same_game(game, meant_for)
    require_started(game)
    player, powers = await load_player_and_powers(session, game, user_id)
    powers = _acting_powers(game, powers, power)
    phase = await latest_phase(session, game.row_id, for_update=lock)
    _require_open(game, phase, meant_for)
    assert phase is not None  # for mypy: _require_open refuses None
    return game, player, powers, phase


_GAME_AND_PHASE = (
    select(Game, PhaseRecord)
    .join(PhaseRecord, col(PhaseRecord.game_id) == col(Game.id))
    .where(col(Game.id) == bindparam("game_id"))
    .order_by(col(PhaseRecord.ordinal).desc())
    .limit(1)
    .with_for_update(of=PhaseRecord, key_share=True)
    .execution_options(populate_existing=True)
)


async def open_for_submission(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    power: str | None,
    meant_for: MeantFor[str],
    *,
    same_game_first: bool = False,
) -> tuple[Game, Player, list[str], PhaseRecord, dict[str, Player | None] | None]:
    """:func:`open_phase_for` (locked), in two statements instead of four: the game with its latest
    phase (that row locked, as :func:`latest_phase` locks it), then the game's seats, the caller's
    among them; and the seats (power -> player), for the phase's state. The same refusals, in the same
    order; a game without a phase, or a caller who holds no power, takes :func:`open_phase_for`.

    When the process lends what it holds of the game (:data:`GAMES_HELD`), none of it is read again
    (on PostgreSQL the phase row is locked and its status checked, one light statement); a caller in
    civil disorder, or a phase that is not open, is read as above. What was read is noted in
    :data:`GAMES_READ`, for the process to hold once the write has committed."""
    holder: GamesHeld | None = session.info.get(GAMES_HELD)
    if holder is not None:
        held = holder.held_game(game_id)
        if held is not None:
            found = await _open_held(session, held, user_id, power, meant_for, same_game_first)
            if found is not None:
                return found
        stamp = holder.game_stamp(game_id)
    row = None
    if 0 < game_id <= MAX_ID:
        row = (await session.exec(_GAME_AND_PHASE, params={"game_id": game_id})).first()
    if row is None:  # no such game, or no phase yet: refused there, in the usual order
        opened = await open_phase_for(
            session, game_id, user_id, power, meant_for, same_game_first=same_game_first
        )
        return (*opened, None)
    game, phase = row
    if same_game_first:
        require_same_game(game, meant_for)
    require_started(game)
    player_of = await seats(session, game.row_id)
    if holder is not None:
        session.info.setdefault(GAMES_READ, []).append((stamp, OpenGame(game, phase, dict(player_of))))
    mine = sorted(p for p, pl in player_of.items() if pl is not None and pl.user_id == user_id)
    if not mine:  # not a player, or one without a power: refused there
        opened = await open_phase_for(
            session, game_id, user_id, power, meant_for, same_game_first=same_game_first
        )
        return (*opened, None)
    player = player_of[mine[0]]
    assert player is not None  # for mypy: a power of ``mine`` has its player
    if player.status in (PlayerStatus.LEFT, PlayerStatus.REPLACED):
        raise not_a_player(game)
    powers = _acting_powers(game, mine, power)
    _require_open(game, phase, meant_for)
    return game, player, powers, phase, player_of


_PHASE_STATUS = (
    select_columns(col(PhaseRecord.status))
    .where(col(PhaseRecord.id) == bindparam("phase_id"))
    .with_for_update(key_share=True)
)


async def _open_held(
    session: AsyncSession,
    held: OpenGame,
    user_id: int,
    power: str | None,
    meant_for: MeantFor[str],
    same_game_first: bool,
) -> tuple[Game, Player, list[str], PhaseRecord, dict[str, Player | None] | None] | None:
    """:func:`open_for_submission` from what the process holds, or None to read it (see there)."""
    game, phase, player_of = held.game, held.phase, held.seats
    mine = sorted(p for p, pl in player_of.items() if pl is not None and pl.user_id == user_id)
    player = player_of[mine[0]] if mine else None
    if player is None or player.status != PlayerStatus.ACTIVE or phase.status != PhaseStatus.OPEN:
        return None
    if not _one_writer(session):  # PostgreSQL: locked against a close, as the read would lock it
        connection = await flushed_connection(session)
        status = (await connection.execute(_PHASE_STATUS, {"phase_id": phase.row_id})).scalar()
        if status != PhaseStatus.OPEN:
            return None
    if same_game_first:
        require_same_game(game, meant_for)
    require_started(game)
    powers = _acting_powers(game, mine, power)
    _require_open(game, phase, meant_for)
    return game, player, powers, phase, player_of


def held_for_reading(
    held: OpenGame, user_id: int, meant_for: MeantFor[str]
) -> tuple[Game, list[str], PhaseRecord, dict[str, Player | None]] | None:
    """:func:`open_phase_for` unlocked (a read's: the game, the caller's powers and the open phase,
    with the seats) from what the process holds, or None to read it: a caller who is not an active
    player of the game, or a phase that is not open (the read gives their refusals). Refused as the
    read refuses when ``meant_for``'s phase is not the open one."""
    game, phase, player_of = held.game, held.phase, held.seats
    mine = sorted(p for p, pl in player_of.items() if pl is not None and pl.user_id == user_id)
    player = player_of[mine[0]] if mine else None
    if player is None or player.status != PlayerStatus.ACTIVE or phase.status != PhaseStatus.OPEN:
        return None
    require_started(game)
    _require_open(game, phase, meant_for)
    return game, mine, phase, player_of


def _one_writer(session: AsyncSession) -> bool:
    """Whether ``session`` writes to SQLite, whose writers go one at a time in this process (db.sqlite):
    what the process holds is what a read would find."""
    bind = session.bind
    return bind is not None and bind.dialect.name == "sqlite"


def _acting_powers(game: Game, powers: list[str], power: str | None) -> list[str]:
    """The caller's powers the text is for: all of them, or ``power`` if it is one of them."""
    if not powers:
        raise NotAllowed(f"You hold no power in {game.name}.", "Only players with a power can order.")
    if power is None:
        return powers
    wanted = read_power(game.variant, power)
    if wanted not in powers:
        raise NotAllowed(
            f"You do not play {say.power_name(wanted)} in {game.name}.",
            f"You play {', '.join(say.power_name(p) for p in powers)}.",
        )
    return [wanted]


def require_same_game(game: Game, meant_for: MeantFor[Any]) -> None:
    """Refuse an order builder's click meant for another game that had this number: a game of another
    database (a fresh start, or an older backup restored, numbers games from 1 again). A builder
    carries its game's tag (a few random characters drawn when the game starts, ``Game.place_tag``),
    and another game's differs. ``meant_for.tag`` None or "": nothing to check (a builder opened before
    tags)."""
    if meant_for.tag and meant_for.tag != (game.place_tag or ""):
        raise OrdersClosed(
            f"These buttons were made for an earlier game that had the number {game.id}; "
            f"{game.name} is another game. Nothing was recorded.",
            "Open a new order sheet with [[cmd:orders sheet]].",
        )


def _require_open(game: Game, phase: PhaseRecord | None, meant_for: MeantFor[str]) -> None:
    """Refuse unless ``phase`` is open for orders (and is ``meant_for``'s phase, when given)."""
    if phase is None:
        raise OrdersClosed(f"{game.name} has no phase open.")
    if meant_for.phase is not None and phase.name != meant_for.phase.strip().upper():
        raise OrdersClosed(
            f"The {say.long_name(meant_for.phase)} orders are closed; {game.name} is now in "
            f"{say.long_name(phase.name)}. Nothing was recorded.",
            "Look at the new position and send orders for the current phase.",
        )
    if phase.status != PhaseStatus.OPEN:
        raise OrdersClosed(
            f"The {say.long_name(phase.name)} orders of {game.name} are closed: the phase is being "
            "adjudicated. Nothing was recorded.",
            "Wait for the results, then send orders for the next phase.",
        )


def _changed_rows(
    session: AsyncSession,
    state: PhaseState,
    phase: PhaseRecord,
    user_id: int,
    now: datetime,
    current: dict[str, dict[str, str]],
    typed: dict[str, dict[str, str]],
    changed: dict[tuple[str, str], None],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The changed orders to write: a new row per unit ordered for the first time, the row read in
    ``state`` updated otherwise (the phase row is locked: nobody changed it since). A row the session
    happens to hold as an object is given the new values, as if it had been written through it."""
    new: list[dict[str, Any]] = []
    updated: list[dict[str, Any]] = []
    for p, key in changed:
        values = {
            "text": current[p][key],
            "input": typed[p][key],
            "submitted_by": user_id,
            "submitted_at": now,
        }
        row_id = state.order_ids.get((p, key))
        if row_id is None:
            new.append({"phase_id": phase.row_id, "power": p, "unit_key": key, **values})
        else:
            updated.append({"row_id": row_id, **values})
            held = session.identity_map.get(identity_key(OrderRecord, row_id))
            for name, value in values.items() if held is not None else ():
                attributes.set_committed_value(held, name, value)
    return new, updated


def _write(
    connection: Connection,
    new: list[dict[str, Any]],
    updated: list[dict[str, Any]],
    logged: list[dict[str, Any]],
    unready: tuple[str, ...] = (),
    trim: bool = True,
) -> None:
    """A submission's writes, at once: the new orders and the replaced ones (one statement each,
    executemany), the submission logged (``logged``: its rows, in order, one statement), and, with
    ``trim`` (the log would hold more than :data:`SUBMISSIONS_KEPT`, or its count is not known), the
    player's oldest submissions of the phase beyond it forgotten (the ones just logged are never
    among them); the ready flags of the powers whose orders changed after Ready (``unready``)
    withdrawn."""
    last = logged[-1]
    if unready:
        _UNFLAGGING.run_sync(connection, [{"phase_id": last["phase_id"], "power": p} for p in unready])
    if new:
        _ORDERING.run_sync(connection, new)
    if updated:
        _REORDERING.run_sync(connection, updated)
    _LOGGING.run_sync(connection, logged if len(logged) > 1 else last)
    if trim:
        _FORGETTING.run_sync(connection, {"phase_id": last["phase_id"], "user_id": last["user_id"]})


async def _view(session: AsyncSession, game: Game, phase: PhaseRecord, powers: list[str]) -> OrdersView:
    return view_of(await phase_state(session, phase, game.variant), game, phase, powers)


def view_of(state: PhaseState, game: Game, phase: PhaseRecord, powers: list[str]) -> OrdersView:
    mine = tuple(
        PowerOrders(
            power=p,
            orders=tuple(state.orders.get(p, {}).values()),
            missing=state.missing(p),
            ready=p in state.ready,
        )
        for p in powers
    )
    return OrdersView(
        game_id=game.row_id,
        game_name=game.name,
        phase=PhaseInfo.of(phase),
        powers=mine,
        # A paused phase (no deadline) never closes early: the clock is stopped until a moderator resumes.
        close_now=phase.status == PhaseStatus.OPEN and phase.deadline is not None and state.can_close_early(),
        deadline_zone=deadline_zone(game),
        game_tag=game.place_tag or "",
    )
