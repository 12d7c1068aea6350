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

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import OrderRecord, PhaseRecord, Player, PlayerStatus, PowerAssignment, ReadyFlag
from engine import Board
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
    records: dict[tuple[str, str], OrderRecord] = field(default_factory=dict)  # (power, key) -> row

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


def board_of(phase: PhaseRecord, variant: str = "standard") -> Board:
    return Board.from_json(phase.board, game_map(variant))


def opening_state(phase: PhaseRecord, variant: str, player_of: dict[str, Player | None]) -> PhaseState:
    """The state of a phase that has just opened, without reading it: no orders and nobody ready yet,
    and the seats ``player_of`` (read for the phase it follows, in the same transaction)."""
    board = board_of(phase, variant)
    return PhaseState(
        board=board,
        duties=duties(board, phase.adjustments),
        orders={},
        inputs={},
        ready=frozenset(),
        player_of=dict(player_of),
    )


async def phase_state(session: AsyncSession, phase: PhaseRecord, variant: str = "standard") -> PhaseState:
    board = board_of(phase, variant)
    rows = (
        await session.exec(
            select(OrderRecord).where(OrderRecord.phase_id == phase.id).order_by(col(OrderRecord.id))
        )
    ).all()
    orders: dict[str, dict[str, str]] = {}
    inputs: dict[str, dict[str, str]] = {}
    records: dict[tuple[str, str], OrderRecord] = {}
    for row in rows:
        orders.setdefault(row.power, {})[row.unit_key] = row.text
        inputs.setdefault(row.power, {})[row.unit_key] = row.input
        records[(row.power, row.unit_key)] = row
    ready = frozenset(
        (await session.exec(select(ReadyFlag.power).where(ReadyFlag.phase_id == phase.id))).all()
    )
    held = await session.exec(
        select(PowerAssignment.power, Player)
        .join(Player, col(Player.id) == col(PowerAssignment.player_id), isouter=True)
        .where(PowerAssignment.game_id == phase.game_id)
    )
    player_of: dict[str, Player | None] = {power: player for power, player in held.all()}
    return PhaseState(
        board=board,
        duties=duties(board, phase.adjustments),
        orders=orders,
        inputs=inputs,
        ready=ready,
        player_of=player_of,
        records=records,
    )
