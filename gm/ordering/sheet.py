"""The order sheet's use cases beyond a single order: what "Hold the rest", "Clear", "Ready" and a
build or removal taken back do, for one player in the open phase.

A sheet (the adapter's one message with every unit and its menu of legal orders, gm.ordering.legal)
sends each chosen order through gm.ordering.submission.submit_orders like a typed line. The actions
here go through the same paths too: "Hold the rest" submits a hold for every unit still without an
order, "Clear" is clear_orders, "Ready" is set_ready, each for the phase and the game (its random
tag) the sheet was made for, so a sheet left from a closed phase or from another database's game
changes nothing. Taking one order back (a build site that should stay empty, a unit that should not
be removed after all) withdraws that order alone, logged like a clear.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import OrderRecord
from engine.mapdata import province_of
from gm.clock import require_aware, utcnow
from gm.errors import NoOrdersGiven, NotAllowed
from gm.meant_for import MeantFor
from gm.ordering import submission
from gm.ordering.progress import phase_state
from gm.ordering.submission import (
    OrdersView,
    SubmissionReport,
    open_phase_for,
    require_same_game,
    submit_orders,
    view_of,
    withdrawal,
)
from gm.reading.lookup import load_game


@dataclass(frozen=True, slots=True)
class SheetChange:
    """What an action on the sheet did: the caller's orders after it, and the submission's report
    when orders were submitted (its lines are answered like typed ones)."""

    view: OrdersView
    report: SubmissionReport | None = None


async def _same_game(session: AsyncSession, game_id: int, meant_for: MeantFor[str]) -> None:
    if meant_for.tag:
        require_same_game(await load_game(session, game_id), meant_for)


async def hold_the_rest(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    *,
    meant_for: MeantFor[str],
    now: datetime | None = None,
) -> SheetChange:
    """A hold for every unit of the caller's powers that has no order yet, in a movement phase:
    submitted as typed holds (``A PAR H``), so they are judged, stored and logged like any order."""
    game, _player, powers, phase = await open_phase_for(
        session, game_id, user_id, None, meant_for, same_game_first=True
    )
    if not phase.name.endswith("M"):
        raise NotAllowed(
            "Holding is for movement phases: a unit without an order in a retreat is disbanded, and "
            "in an adjustment phase there is nothing to hold.",
            "Pick each order in its menu.",
        )
    state = await phase_state(session, phase, game.variant)
    holds = [f"{unit} H" for power in powers for unit in state.missing(power)]
    if not holds:
        raise NoOrdersGiven("Every unit has an order already: there is nothing left to hold.")
    report = await submit_orders(
        session,
        game_id,
        user_id,
        "\n".join(holds),
        meant_for=meant_for,
        now=now,
    )
    return SheetChange(view=report.view, report=report)


async def withdraw_order(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    key: str,
    *,
    meant_for: MeantFor[str],
    now: datetime | None = None,
) -> SheetChange:
    """Take back the caller's order for one unit or build site (``key``: its location or province).
    Nothing to take back is no error: the sheet shows the order is gone either way."""
    now = require_aware(now or utcnow())
    game, _player, powers, phase = await open_phase_for(
        session, game_id, user_id, None, meant_for, same_game_first=True
    )
    unit_key = province_of(key.strip().upper())
    removed = await session.exec(
        delete(OrderRecord).where(
            col(OrderRecord.phase_id) == phase.id,
            col(OrderRecord.power).in_(powers),
            col(OrderRecord.unit_key) == unit_key,
        )
    )
    if removed.rowcount:
        session.add(
            withdrawal(game.row_id, phase.row_id, user_id, {"withdrawn": unit_key, "powers": powers}, now)
        )
    state = await phase_state(session, phase, game.variant)
    view = view_of(state, game, phase, powers)
    return SheetChange(view=view)


async def clear(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    *,
    meant_for: MeantFor[str],
) -> SheetChange:
    """Withdraw every order of the caller's in the phase (gm.ordering.submission.clear_orders)."""
    await _same_game(session, game_id, meant_for)
    view = await submission.clear_orders(session, game_id, user_id, meant_for=meant_for)
    return SheetChange(view=view)


async def set_ready(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    *,
    ready: bool,
    meant_for: MeantFor[str],
) -> SheetChange:
    """Say the caller is done (or not) for the phase (gm.ordering.submission.set_ready: the game's tag
    checked first, as :func:`_same_game` does)."""
    view = await submission.set_ready(session, game_id, user_id, ready=ready, meant_for=meant_for)
    return SheetChange(view=view)
