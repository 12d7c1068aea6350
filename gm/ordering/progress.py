"""Where a phase stands: who must act, what they have ordered, who is ready, and whether the phase
may close before its deadline.

A phase closes early when every power that has something to order *and* an active player has
- in a movement phase: said it is ready;
- in a retreat or adjustment phase: ordered everything it must (or said it is ready).
Powers in civil disorder, left by their player or held by nobody never block an early close; a
retreat or adjustment phase that concerns only such powers closes at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import CompoundSelect, Select, bindparam, func, literal_column, null, union_all
from sqlalchemy import select as select_columns
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.database import flushed_connection
from db.models import (
    OrderRecord,
    OrderSubmission,
    PhaseRecord,
    Player,
    PlayerStatus,
    PowerAssignment,
    ReadyFlag,
)
from db.prepared import Prepared
from engine import Board
from engine.legal import forget_board
from engine.variants import game_map
from gm.ordering.required import Duty, duties, missing


@dataclass(frozen=True, slots=True)
class PhaseState:
    board: Board
    duties: dict[str, Duty]
    orders: dict[str, dict[str, str]]  # power -> key -> canonical text, in submission order
    inputs: dict[str, dict[str, str]]  # power -> key -> the line as typed
    ready: frozenset[str]
    player_of: dict[str, Player | None]  # power -> its player (None: nobody)
    order_ids: dict[tuple[str, str], int | None] = field(default_factory=dict)  # (power, key) -> row id
    # the submissions (and clears) in the log of the phase by the user named to phase_state (logged_by)
    logged: int | None = None

    def active(self, power: str) -> bool:
        player = self.player_of.get(power)
        return player is not None and player.status == PlayerStatus.ACTIVE

    def missing(self, power: str) -> tuple[str, ...]:
        return missing(self.duties[power], self.orders.get(power, {}))

    def blocking(self) -> list[str]:
        """The powers an early close is waiting for."""
        kind = self.board.phase.kind
        waiting = []
        for power, duty in self.duties.items():
            if not duty.has_work or not self.active(power) or power in self.ready:
                continue
            if kind == "M" or self.missing(power):
                waiting.append(power)
        return waiting

    def can_close_early(self) -> bool:
        if self.board.phase.kind == "M" and not any(
            self.active(p) and d.has_work for p, d in self.duties.items()
        ):
            return False  # nobody is playing: a movement phase waits for its deadline
        return not self.blocking()

    def civil_disorder(self) -> frozenset[str]:
        """Powers whose orders the adjudicator ignores: nobody holds them or their player is gone."""
        return frozenset(p for p in self.duties if not self.active(p))


BOARDS_KEPT = 48
"""Games whose board is kept (:func:`board_of`): one per busy game, so that the engine's answers
remembered per board (engine.legal's legal orders, the convoys' reach) serve every request on it."""
_boards: dict[int, tuple[bytes, Board]] = {}  # game -> (its variant and position's JSON, its board)
_shared: dict[bytes, tuple[Board, int]] = {}  # a position's key -> its board, how many games hold it


def board_of(phase: PhaseRecord, variant: str = "standard") -> Board:
    """The phase's board. The same object for the same position (the board's JSON and the variant),
    whichever request and whichever game reads it: the engine remembers what it worked out for a
    board by identity (a board is never changed once built), and every request reads its phase
    afresh; games at the same position (openings) share their board and so its legal orders. One
    board per game, for the last :data:`BOARDS_KEPT` games read, the least recently read dropped
    first; a game's new position replaces its board, and the engine forgets the old one once no
    game holds it."""
    # orjson: a tenth of the json module's time for the same canonical text (its keys sorted)
    key = variant.encode() + b"\0" + orjson.dumps(phase.board, option=orjson.OPT_SORT_KEYS)
    held = _boards.pop(phase.game_id, None)
    if held is not None and held[0] == key:
        board = held[1]
    else:
        if held is not None:
            _release(held[0])
        elif len(_boards) >= BOARDS_KEPT:
            _release(_boards.pop(next(iter(_boards)))[0])
        shared = _shared.get(key)
        if shared is None:
            board = Board.from_json(phase.board, game_map(variant))
            _shared[key] = (board, 1)
        else:
            board = shared[0]
            _shared[key] = (board, shared[1] + 1)
    _boards[phase.game_id] = (key, board)  # the most recently read last
    return board


DUTIES_KEPT = 64
_duties: dict[int, tuple[Board, tuple[tuple[str, int], ...] | None, dict[str, Duty]]] = {}


def duties_of(board: Board, adjustments: dict[str, int] | None) -> dict[str, Duty]:
    """:func:`gm.ordering.required.duties` of ``board`` (a board of :func:`board_of`, the same object
    for the same position), worked out once per board and adjustments: every write about orders and
    every sheet's menu asked them again (34 units' texts). The same dict each time: nobody changes it."""
    wanted = None if adjustments is None else tuple(sorted(adjustments.items()))
    held = _duties.get(id(board))
    if held is not None and held[0] is board and held[1] == wanted:
        return held[2]
    found = duties(board, adjustments)
    if len(_duties) >= DUTIES_KEPT and id(board) not in _duties:
        del _duties[next(iter(_duties))]  # the one worked out longest ago
    _duties[id(board)] = (board, wanted, found)
    return found


def _release(key: bytes) -> None:
    """One game less holds the position ``key``; the engine forgets its board when none does."""
    board, holders = _shared.pop(key)
    if holders > 1:
        _shared[key] = (board, holders - 1)
    else:
        forget_board(board)


def opening_state(phase: PhaseRecord, variant: str, player_of: dict[str, Player | None]) -> PhaseState:
    """The state of a phase that has just opened, without reading it: no orders and nobody ready yet,
    and the seats ``player_of`` (read for the phase it follows, in the same transaction)."""
    board = board_of(phase, variant)
    return PhaseState(
        board=board,
        duties=duties_of(board, phase.adjustments),
        orders={},
        inputs={},
        ready=frozenset(),
        player_of=dict(player_of),
    )


# The statements, built once (building one costs more than running it); bound at each execution.
_SEATS = (
    select(PowerAssignment.power, Player)
    .join(Player, col(Player.id) == col(PowerAssignment.player_id), isouter=True)
    .where(col(PowerAssignment.game_id) == bindparam("game_id"))
)
# Both in one statement (a statement's work in SQLAlchemy is most of its cost): the orders, in the
# order they were written, then the ready flags (a row with no unit)
_ORDERS: Select[*tuple[Any, ...]] = select_columns(
    literal_column("0").label("kind"),
    col(OrderRecord.id).label("id"),
    col(OrderRecord.power).label("power"),
    col(OrderRecord.unit_key).label("unit_key"),
    col(OrderRecord.text).label("text"),
    col(OrderRecord.input).label("input"),
).where(col(OrderRecord.phase_id) == bindparam("phase_id"))
_READY: Select[*tuple[Any, ...]] = select_columns(
    literal_column("1"),
    col(ReadyFlag.id),
    col(ReadyFlag.power),
    null(),
    null(),
    null(),
).where(col(ReadyFlag.phase_id) == bindparam("phase_id"))
_ORDERS_AND_READY: CompoundSelect = union_all(_ORDERS, _READY).order_by(
    literal_column("kind"), literal_column("id")
)
# The same and, last, how many submissions a user has in the phase's log (a submission's, which keeps
# that log within gm.ordering.submission.SUBMISSIONS_KEPT: it trims it only when it would overflow)
_ORDERS_READY_AND_LOGGED: CompoundSelect = union_all(
    _ORDERS,
    _READY,
    select_columns(
        literal_column("2"), func.count(col(OrderSubmission.id)), null(), null(), null(), null()
    ).where(
        col(OrderSubmission.phase_id) == bindparam("phase_id"),
        col(OrderSubmission.user_id) == bindparam("user_id"),
    ),
).order_by(literal_column("kind"), literal_column("id"))
# run by SQLite's driver itself (db.prepared): the read every write about orders makes first
_READ: Prepared = Prepared(_ORDERS_AND_READY)
_READ_LOGGED: Prepared = Prepared(_ORDERS_READY_AND_LOGGED)


async def seats(session: AsyncSession, game_id: int) -> dict[str, Player | None]:
    """Every power of the game and its player (None: nobody)."""
    held = await session.exec(_SEATS, params={"game_id": game_id})
    return {power: player for power, player in held.all()}


async def phase_state(
    session: AsyncSession,
    phase: PhaseRecord,
    variant: str = "standard",
    *,
    player_of: dict[str, Player | None] | None = None,
    logged_by: int | None = None,
) -> PhaseState:
    """Where ``phase`` stands, read in the session's transaction. ``player_of``: the game's
    :func:`seats`, when the caller has read them already in this transaction; ``logged_by``: a user
    whose submissions in the phase's log are counted in the same statement (``PhaseState.logged``).

    The orders and ready flags are read as plain rows (no ORM objects: nothing here changes them);
    what the session has pending is flushed first, as a query would."""
    board = board_of(phase, variant)
    connection = await flushed_connection(session)
    if logged_by is None:
        rows = await _READ.rows(connection, {"phase_id": phase.id})
    else:
        rows = await _READ_LOGGED.rows(connection, {"phase_id": phase.id, "user_id": logged_by})
    orders: dict[str, dict[str, str]] = {}
    inputs: dict[str, dict[str, str]] = {}
    order_ids: dict[tuple[str, str], int | None] = {}  # (a stored row's id is never None)
    flags = []
    logged = None
    for kind, row_id, power, key, text, typed in rows:
        if kind == 2:
            logged = row_id
            continue
        if kind:
            flags.append(power)
            continue
        orders.setdefault(power, {})[key] = text
        inputs.setdefault(power, {})[key] = typed
        order_ids[(power, key)] = row_id
    ready = frozenset(flags)
    if player_of is None:
        player_of = await seats(session, phase.game_id)
    return PhaseState(
        board=board,
        duties=duties_of(board, phase.adjustments),
        orders=orders,
        inputs=inputs,
        ready=ready,
        player_of=dict(player_of),
        order_ids=order_ids,
        logged=logged,
    )
