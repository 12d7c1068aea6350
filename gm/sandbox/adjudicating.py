"""Adjudicating a sandbox's open step, as a game's close does it: the request read in one short
transaction, the engine and the maps in the worker processes (gm.phases.worker.close_work, run by the
facade with gm.delivery.pool.run_off_loop), the result and the next step written in another.

Nobody is in civil disorder in a sandbox: a power without orders is simply one whose units have
none, and the engine applies the rules for missing orders (units hold, dislodged units without a
retreat order disband, builds not ordered are not made, removals not ordered follow the civil-disorder
rule). The variant's own victory target ends the sandbox's game as it would a real one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import SandboxPhase
from engine import Phase
from engine.variants import get_variant
from gm.clock import require_aware, utcnow
from gm.errors import OrdersClosed
from gm.meant_for import ANY_PHASE, MeantFor
from gm.messages.maps import ORDERS_MAP
from gm.phases.contract import CloseAnswer, CloseRequest
from gm.phases.results import changes
from gm.sandbox.model import SandboxResults
from gm.sandbox.playing import menu_of, open_step
from gm.sandbox.rows import current_step, load_sandbox, steps_of


@dataclass(frozen=True, slots=True)
class SandboxRequest:
    """The work of a sandbox's open step, and which step and orders it was (checked by :func:`record`)."""

    work: CloseRequest
    step_id: int
    orders_given: dict[str, dict[str, str]]


async def request_for(
    session: AsyncSession,
    sandbox_id: int,
    owner_id: int,
    *,
    meant_for: MeantFor[int] = ANY_PHASE,
    render: bool = True,
) -> SandboxRequest:
    """What gm.phases.worker.close_work adjudicates (and draws) for the open step."""
    sandbox, _steps, step = await open_step(session, sandbox_id, owner_id, meant_for)
    played = get_variant(sandbox.variant)
    orders = {p: dict(o) for p, o in (step.orders or {}).items() if o}
    work = CloseRequest(
        variant=sandbox.variant,
        map=played.map_name,
        board=step.board,
        orders={p: tuple(o.values()) for p, o in orders.items()},
        victory_centers=played.victory_centers,
        render=render,
        orders_title=f"Sandbox #{sandbox.row_id} · {Phase.parse(step.name).long_name}",
        position_map=False,
    )
    return SandboxRequest(work=work, step_id=step.row_id, orders_given=orders)


async def record(
    session: AsyncSession,
    sandbox_id: int,
    owner_id: int,
    request: SandboxRequest,
    answer: CloseAnswer,
    *,
    power: str | None = None,
    now: datetime | None = None,
) -> SandboxResults:
    """Write the adjudication of :func:`request_for`'s step and open the next one; refused when the
    step was adjudicated, stepped back from, or its orders changed meanwhile (nothing is written)."""
    sandbox = await load_sandbox(session, sandbox_id, owner_id, for_update=True)
    steps = await steps_of(session, sandbox.row_id)
    step = current_step(steps)
    if step.id != request.step_id or step.results is not None:
        raise OrdersClosed(
            "This step was adjudicated or stepped back from while it was being adjudicated: nothing "
            "was changed.",
            "Open the sandbox's sheet again with [[cmd:sandbox open]].",
        )
    if {p: o for p, o in (step.orders or {}).items() if o} != request.orders_given:
        raise OrdersClosed(
            "Orders changed while the step was being adjudicated: nothing was changed.",
            "Adjudicate again to use the orders as they are now.",
        )
    result, after = answer.result, answer.next_board
    change = changes(step.board, result, after)
    step.results = {**result, "board_after": after, "changes": change}
    next_name = result.get("next_phase")
    if next_name and not result.get("winner"):
        kind = Phase.parse(next_name).kind
        nxt = SandboxPhase(
            sandbox_id=sandbox.row_id,
            step=step.step + 1,
            name=next_name,
            board=after,
            adjustments=(result.get("adjustments") or None) if kind == "A" else None,
            orders={},
        )
        session.add(nxt)
        await session.flush()
        steps.append(nxt)
    sandbox.used_at = require_aware(now or utcnow())
    menu = menu_of(sandbox, steps, power)
    await session.flush()
    return SandboxResults(
        phase_name=step.name,
        long_name=Phase.parse(step.name).long_name,
        result=result,
        changes=change,
        png=answer.maps.get(ORDERS_MAP),
        menu=menu,
    )
