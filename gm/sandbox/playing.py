"""Ordering in a sandbox: the sheet's menu for one power, orders typed or picked (judged by the game's
own gate, gm.ordering.judging), an order or a power's orders taken back, and a step back.

The owner orders every power. Orders are kept on the open step (db.models.SandboxPhase.orders) one
per key, as a game keeps them (gm.ordering.required): a later order for a unit replaces the earlier.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Player, PowerAssignment, Sandbox, SandboxPhase
from engine import Board, Phase
from engine.adjudicator.adjustments import adjustment_counts
from engine.legal import legal_orders
from engine.mapdata import province_of
from engine.variants import game_map, read_power
from gm.clock import require_aware, utcnow
from gm.errors import NotAllowed, OrdersClosed
from gm.meant_for import ANY_PHASE, MeantFor
from gm.messages.maps import ending_words
from gm.ordering.judging import judge_line
from gm.ordering.legal import OrderMenu, PowerMenu
from gm.ordering.progress import PhaseState
from gm.ordering.required import duties, missing
from gm.ordering.submission import OrdersView, PowerOrders, order_lines
from gm.reading.info import PhaseInfo
from gm.sandbox.model import PowerProgress, SandboxMenu, SandboxOrders
from gm.sandbox.rows import current_step, info_of, load_sandbox, require_step, steps_of


def board_of(step: SandboxPhase, variant: str) -> Board:
    return Board.from_json(step.board, game_map(variant))


def state_of(step: SandboxPhase, variant: str) -> PhaseState:
    """The step as a game's phase state (nobody plays: the owner orders every power)."""
    board = board_of(step, variant)
    adjustments = step.adjustments
    if adjustments is None and board.phase.kind == "A":  # a winter copied without its counts
        adjustments = adjustment_counts(board)
    return PhaseState(
        board=board,
        duties=duties(board, adjustments),
        orders={p: dict(o) for p, o in (step.orders or {}).items()},
        inputs={},
        ready=frozenset(),
        player_of={},
    )


def menu_of(
    sandbox: Sandbox, steps: list[SandboxPhase], power: str | None = None, prefer: Sequence[str] = ()
) -> SandboxMenu:
    """The sheet's menu of the step the sandbox is at, showing ``power`` (default, or when it has
    nothing to do: the first of ``prefer`` that has, the owner's powers in the game it came from;
    else the first power that has)."""
    step = current_step(steps)
    info = info_of(sandbox, step)
    long_name = Phase.parse(step.name).long_name
    if step.results is not None:  # the last adjudication ended the game
        winner = step.results.get("winner")
        over = ending_words("solo", str(winner)) if winner else "the game is over"
        return SandboxMenu(info, step.row_id, step.name, long_name, step.step, None, None, (), over=over)
    state = state_of(step, sandbox.variant)
    board = state.board
    if power is not None and power not in board.game_map.powers:
        raise NotAllowed(f"There is no power {power[:20]!r} on this map. Nothing was changed.")
    progress: list[PowerProgress] = []
    menus: dict[str, PowerMenu] = {}
    for each in board.game_map.powers:
        duty = state.duties[each]
        legal = legal_orders(board, each)
        if not duty.has_work or legal.reason:
            continue
        orders = state.orders.get(each, {})
        gaps = missing(duty, orders)
        menus[each] = PowerMenu(power=each, legal=legal, orders=dict(orders), missing=gaps)
        entries = len(legal.entries) if legal.due == 0 else abs(legal.due)
        ordered = len(orders) if legal.due else len(legal.entries) - len(gaps)
        progress.append(PowerProgress(each, entries, ordered, gaps, legal.due))
    shown = power if power in menus else next((p for p in prefer if p in menus), next(iter(menus), None))
    chosen = (menus[shown],) if shown is not None else ()
    view = OrdersView(
        game_id=sandbox.row_id,
        game_name=sandbox.title,
        phase=PhaseInfo(
            id=step.row_id,
            game_id=sandbox.row_id,
            ordinal=step.step,
            name=step.name,
            long_name=long_name,
            kind=step.name[-1],
            status="open",
            deadline=None,
        ),
        powers=tuple(PowerOrders(m.power, tuple(m.orders.values()), m.missing, False) for m in chosen),
        game_tag=sandbox.tag,
    )
    owners = {unit.province: p for p, units in board.units.items() for unit in units}
    menu = OrderMenu(view=view, powers=chosen, variant=sandbox.variant, game_tag=sandbox.tag, owners=owners)
    return SandboxMenu(info, step.row_id, step.name, long_name, step.step, shown, menu, tuple(progress))


async def sandbox_menu(
    session: AsyncSession,
    sandbox_id: int,
    owner_id: int,
    *,
    power: str | None = None,
    meant_for: MeantFor[int] = ANY_PHASE,
    touch: bool = True,
    now: datetime | None = None,
) -> SandboxMenu:
    """The sheet of the caller's sandbox (refused for anybody else's, or for a sheet of a step that
    has been adjudicated or stepped back from since). Opening it (``touch``) keeps it 30 more days;
    a tap that only redraws the sheet reads it (``touch`` False: a read session will do)."""
    sandbox = await load_sandbox(session, sandbox_id, owner_id, meant_for=meant_for, for_update=touch)
    steps = await steps_of(session, sandbox.row_id)
    require_step(current_step(steps), meant_for)
    if touch:
        sandbox.used_at = require_aware(now or utcnow())
        await session.flush()
    prefer = await owners_powers(session, sandbox) if power is None else []
    return menu_of(sandbox, steps, power, prefer)


async def owners_powers(session: AsyncSession, sandbox: Sandbox) -> list[str]:
    """The powers the sandbox's owner plays in the game it was made from (none: not a player there),
    which its sheet opens on."""
    if sandbox.source_game_id is None:
        return []
    rows = await session.exec(
        select(PowerAssignment.power)
        .join(Player, col(Player.id) == col(PowerAssignment.player_id))
        .where(PowerAssignment.game_id == sandbox.source_game_id, Player.user_id == sandbox.owner_id)
        .order_by(col(PowerAssignment.power))
    )
    return list(rows.all())


async def open_step(
    session: AsyncSession,
    sandbox_id: int,
    owner_id: int,
    meant_for: MeantFor[int],
) -> tuple[Sandbox, list[SandboxPhase], SandboxPhase]:
    sandbox = await load_sandbox(session, sandbox_id, owner_id, meant_for=meant_for, for_update=True)
    steps = await steps_of(session, sandbox.row_id)
    step = current_step(steps)
    require_step(step, meant_for)
    if step.results is not None:
        raise OrdersClosed(
            "The game in this sandbox is over: no phase takes orders. Nothing was changed.",
            "Step back to try again (the sheet's Step back button).",
        )
    return sandbox, steps, step


async def give_orders(
    session: AsyncSession,
    sandbox_id: int,
    owner_id: int,
    text: str,
    *,
    power: str | None = None,
    meant_for: MeantFor[int] = ANY_PHASE,
    now: datetime | None = None,
) -> SandboxOrders:
    """Judge every line of ``text`` for the power it names or whose unit it orders (``power``: for
    that power only, as a sheet's pick), by the game's gate; store the accepted ones."""
    sandbox, steps, step = await open_step(session, sandbox_id, owner_id, meant_for)
    the_map = game_map(sandbox.variant)
    if power is not None:
        power = _power(sandbox, power)
    lines = order_lines(text, the_map)
    state = state_of(step, sandbox.variant)
    powers = [power] if power is not None else list(the_map.powers)
    current = {p: dict(state.orders.get(p, {})) for p in the_map.powers}
    outcomes = []
    last_power = power
    for line in lines:
        outcome, placed = judge_line(line, state, powers, current)
        outcomes.append(outcome)
        if placed is not None:
            last_power = placed[0]
    step.orders = {p: o for p, o in current.items() if o}
    sandbox.used_at = require_aware(now or utcnow())
    menu = menu_of(sandbox, steps, last_power)
    await session.flush()
    return SandboxOrders(tuple(outcomes), menu)


async def withdraw(
    session: AsyncSession,
    sandbox_id: int,
    owner_id: int,
    power: str,
    key: str | None = None,
    *,
    meant_for: MeantFor[int] = ANY_PHASE,
    now: datetime | None = None,
) -> SandboxMenu:
    """Take back ``power``'s order for one unit or build site (``key``), or all its orders (None).
    Nothing to take back is no error: the sheet shows the order is gone either way."""
    sandbox, steps, step = await open_step(session, sandbox_id, owner_id, meant_for)
    power = _power(sandbox, power)
    orders = {p: dict(o) for p, o in (step.orders or {}).items()}
    if key is None:
        orders.pop(power, None)
    else:
        orders.get(power, {}).pop(province_of(key.strip().upper()), None)
    step.orders = {p: o for p, o in orders.items() if o}
    sandbox.used_at = require_aware(now or utcnow())
    menu = menu_of(sandbox, steps, power)
    await session.flush()
    return menu


def _power(sandbox: Sandbox, text: str) -> str:
    power = read_power(sandbox.variant, text)
    if power not in game_map(sandbox.variant).powers:
        raise NotAllowed(f"There is no power {text[:20]!r} on this map. Nothing was changed.")
    return power


async def step_back(
    session: AsyncSession,
    sandbox_id: int,
    owner_id: int,
    *,
    power: str | None = None,
    meant_for: MeantFor[int] = ANY_PHASE,
    now: datetime | None = None,
) -> SandboxMenu:
    """Back to the step before, with its orders as they were when it was adjudicated, to change
    them and adjudicate again; from a finished game, back to its last phase."""
    sandbox = await load_sandbox(session, sandbox_id, owner_id, meant_for=meant_for, for_update=True)
    steps = await steps_of(session, sandbox.row_id)
    step = current_step(steps)
    require_step(step, meant_for)
    if step.results is None:
        if step.step == 0:
            raise NotAllowed(
                "This is the position the sandbox was made from: there is no step before it. Nothing "
                "was changed.",
                "Adjudicate to move on, or make another sandbox with [[cmd:sandbox new]].",
            )
        await session.delete(step)
        await session.flush()
        steps = steps[:-1]
        step = steps[-1]
    step.results = None
    sandbox.used_at = require_aware(now or utcnow())
    menu = menu_of(sandbox, steps, power)
    await session.flush()
    return menu
