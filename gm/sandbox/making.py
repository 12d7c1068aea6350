"""Making, listing and deleting sandboxes, and the sweeps that delete them (30 days unused, their
owner gone from the server).

Privacy of the source: a sandbox made from a game holds what the game's channel has shown, the board
at the start of the phase asked for (a past phase, or the open one: positions are public), and no
orders, except, at the owner's choice (``my_orders``), the owner's own current orders in the open
phase. Nobody else's order of an open phase is ever read. The game must be one the caller may look
at: on the server they ask from, or one they play in (as /map has it). A running fogged game gives its
players their own view only and refuses everyone else (gm.reading.fog).
"""

from __future__ import annotations

import secrets
import string
from datetime import datetime
from typing import Any

from sqlalchemy import delete, text
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import (
    Game,
    GameStatus,
    OrderRecord,
    PhaseRecord,
    PhaseStatus,
    Player,
    PlayerStatus,
    PowerAssignment,
    Sandbox,
    SandboxPhase,
)
from engine import Board, initial_board
from engine.adjudicator.adjustments import adjustment_counts
from engine.variants import UnknownVariant, all_variants, get_variant
from gm.clock import require_aware, utcnow
from gm.errors import GameNotStarted, NotAllowed, UnknownGame
from gm.meant_for import ANY_PHASE, MeantFor
from gm.messages import words as say
from gm.reading.fog import board_view, fog_viewer
from gm.reading.lookup import game_phases, load_game
from gm.reports.history import find_phase
from gm.sandbox.model import KEPT_FOR, MAX_SANDBOXES, SandboxInfo, SandboxLimit
from gm.sandbox.rows import current_step, info_of, load_sandbox, steps_of

TAG_LENGTH = 6


async def new_sandbox(
    session: AsyncSession,
    owner_id: int,
    *,
    guild_id: int | None,
    game_id: int | None = None,
    phase: str | None = None,
    variant: str | None = None,
    my_orders: bool = False,
    replace: int | None = None,
    now: datetime | None = None,
) -> tuple[SandboxInfo, list[str]]:
    """A new sandbox for ``owner_id``: from ``game_id`` at ``phase`` (default: its latest), or from
    ``variant``'s start. Returns it and notes for the answer (what was or was not copied).

    A member with :data:`MAX_SANDBOXES` sandboxes is refused with :class:`SandboxLimit` naming the one
    used longest ago; asking again with ``replace`` set to that one's id deletes it first."""
    now = require_aware(now or utcnow())
    if (game_id is None) == (variant is None):
        raise NotAllowed(
            "A sandbox starts from a game's position or from a variant's start: name one of the two.",
            "[[cmd:sandbox new]] game:3 (and phase:S1902M for a past phase), or variant:standard.",
        )
    notes: list[str] = []
    if game_id is not None:
        source = await _from_game(session, owner_id, guild_id, game_id, phase, my_orders, notes)
    else:
        source = _from_variant(str(variant), guild_id)
        if phase or my_orders:
            notes.append(
                "A variant's start has no past phases and no orders: phase and my_orders are ignored."
            )
    await _make_room(session, owner_id, replace, source.get("phase"))
    sandbox = Sandbox(
        owner_id=owner_id,
        guild_id=source["guild_id"],
        tag="".join(secrets.choice(string.ascii_lowercase + string.digits) for _ in range(TAG_LENGTH)),
        variant=source["variant"],
        title=source["title"][:200],
        source_game_id=source.get("game_id"),
        source_phase=source.get("phase"),
        created_at=now,
        used_at=now,
    )
    session.add(sandbox)
    await session.flush()
    step = SandboxPhase(
        sandbox_id=sandbox.row_id,
        step=0,
        name=source["board"]["phase"],
        board=source["board"],
        adjustments=source["adjustments"],
        orders=source["orders"],
    )
    session.add(step)
    await session.flush()
    info = info_of(sandbox, step)
    await session.flush()
    return info, notes


async def _from_game(
    session: AsyncSession,
    owner_id: int,
    guild_id: int | None,
    game_id: int,
    phase_name: str | None,
    my_orders: bool,
    notes: list[str],
) -> dict[str, Any]:
    game = await load_game(session, game_id)
    plays = (
        await session.exec(select(Player).where(Player.game_id == game.id, Player.user_id == owner_id))
    ).first()
    if game.guild_id != guild_id and plays is None:  # as /map: a game of this server, or one's own
        raise UnknownGame(
            f"There is no game {game_id} on this server.", "Use [[cmd:game list]] to see the games here."
        )
    if game.status == GameStatus.FORMING:
        raise GameNotStarted(
            f"{game.name} has not started, so it has no position yet.",
            "Start from a variant instead: [[cmd:sandbox new]] variant:standard.",
        )
    phases = await game_phases(session, game.row_id)
    if not phases:
        raise GameNotStarted(f"{game.name} has no position yet.")
    chosen = find_phase(phases, phase_name, game.name)
    current = chosen.id == phases[-1].id and chosen.status != PhaseStatus.CLOSED
    orders: dict[str, dict[str, str]] = {}
    if my_orders:
        orders = await _own_orders(session, game, chosen, owner_id, plays, current, notes)
    board = dict(chosen.board)
    powers = await fog_viewer(session, game, owner_id)
    if powers is not None:  # the fog of war: the position as the owner's powers see it
        board = board_view(chosen.board, game.variant, powers)[0]
        notes.append(
            f"{game.name} is played under the fog of war: this sandbox holds only what your powers see."
        )
    return {
        "guild_id": game.guild_id,
        "variant": game.variant,
        "title": f"game #{game.id} {game.name} at {say.long_name(chosen.name)}",
        "game_id": game.id,
        "phase": chosen.name,
        "board": board,
        "adjustments": chosen.adjustments if chosen.name.endswith("A") else None,
        "orders": orders,
    }


async def _own_orders(
    session: AsyncSession,
    game: Game,
    phase: PhaseRecord,
    owner_id: int,
    plays: Player | None,
    current: bool,
    notes: list[str],
) -> dict[str, dict[str, str]]:
    """The owner's own orders in the open phase: those of the powers they hold, nobody else's."""
    if not current:
        notes.append(
            f"Only the current phase's orders can be copied, and {say.long_name(phase.name)} is over: "
            "no orders were copied (its orders are in [[cmd:history]])."
        )
        return {}
    if plays is None or plays.status in (PlayerStatus.LEFT, PlayerStatus.REPLACED):
        notes.append(f"You hold no power in {game.name}, so you have no orders to copy.")
        return {}
    powers = (
        await session.exec(
            select(PowerAssignment.power).where(
                PowerAssignment.game_id == game.id, PowerAssignment.player_id == plays.id
            )
        )
    ).all()
    rows = (
        await session.exec(
            select(OrderRecord)
            .where(OrderRecord.phase_id == phase.id, col(OrderRecord.power).in_(list(powers)))
            .order_by(col(OrderRecord.id))
        )
    ).all()
    orders: dict[str, dict[str, str]] = {}
    for row in rows:
        orders.setdefault(row.power, {})[row.unit_key] = row.text
    count = sum(len(o) for o in orders.values())
    verb = "was" if count == 1 else "were"
    notes.append(
        f"Your {say.plural(count, 'order')} of {say.powers_text(sorted(powers))} {verb} copied in "
        "(nobody else's)."
        if count
        else "You had no orders yet in this phase: none were copied."
    )
    return orders


def _from_variant(name: str, guild_id: int | None) -> dict[str, Any]:
    try:
        variant = get_variant(name)
    except UnknownVariant:
        names = ", ".join(v.name for v in all_variants())
        raise UnknownGame(f"I know no variant {name[:40]!r}.", f"The variants: {names}.") from None
    if not variant.playable():
        raise NotAllowed(
            f"{variant.title} needs rules the engine does not have yet: "
            f"{', '.join(variant.unsupported_rules())}.",
            "Pick another variant.",
        )
    board: Board = initial_board(variant.name)
    adjustments = (adjustment_counts(board) or None) if board.phase.kind == "A" else None
    return {
        "guild_id": guild_id,
        "variant": variant.name,
        "title": f"the start of {variant.title}",
        "board": dict(board.to_json()),
        "adjustments": adjustments,
        "orders": {},
    }


SANDBOX_LOCK_SPACE = 0x73616E64  # "sand": PostgreSQL advisory locks of the sandbox limit, per owner


async def _one_at_a_time(session: AsyncSession, owner_id: int) -> None:
    """Serialise a member's new sandboxes until the transaction ends, so that two made at once cannot
    both see room for one more. SQLite's writing sessions are serial already (BEGIN IMMEDIATE);
    PostgreSQL's are not (READ COMMITTED) and have no row to lock for "this member's sandboxes": a
    transaction-level advisory lock on (the sandboxes' space, the member) does it."""
    bind = session.bind
    if bind is not None and bind.dialect.name == "postgresql":
        connection = await session.connection()
        await connection.execute(
            text("SELECT pg_advisory_xact_lock(:space, :member)"),
            {"space": SANDBOX_LOCK_SPACE, "member": owner_id % 2_147_483_647},
        )


async def _make_room(session: AsyncSession, owner_id: int, replace: int | None, phase: str | None) -> None:
    """Refuse a member's fourth sandbox, unless ``replace`` names the one used longest ago (the
    confirmation): then that one is deleted."""
    await _one_at_a_time(session, owner_id)
    mine = (
        await session.exec(
            select(Sandbox)
            .where(Sandbox.owner_id == owner_id)
            .order_by(col(Sandbox.used_at), col(Sandbox.id))
        )
    ).all()
    if len(mine) < MAX_SANDBOXES:
        return
    oldest = mine[0]
    if replace is not None and replace == oldest.id and len(mine) == MAX_SANDBOXES:
        await _delete(session, [oldest.row_id])
        return
    steps = await steps_of(session, oldest.row_id)
    info = info_of(oldest, current_step(steps))
    raise SandboxLimit(
        f"You have {len(mine)} sandboxes, the most one may keep. A new one replaces the one you used "
        f"longest ago: #{oldest.id}, from {oldest.title}.",
        "Confirm below, or delete another with [[cmd:sandbox delete]] first.",
        oldest=info,
        phase=phase,
    )


async def sandboxes_of(session: AsyncSession, owner_id: int) -> list[SandboxInfo]:
    """The caller's sandboxes, the most recently used first."""
    mine = (
        await session.exec(
            select(Sandbox).where(Sandbox.owner_id == owner_id).order_by(col(Sandbox.used_at).desc())
        )
    ).all()
    found = []
    for sandbox in mine:
        found.append(info_of(sandbox, current_step(await steps_of(session, sandbox.row_id))))
    return found


async def delete_sandbox(
    session: AsyncSession, sandbox_id: int, owner_id: int, *, meant_for: MeantFor[int] = ANY_PHASE
) -> SandboxInfo:
    """Delete one of the caller's sandboxes (refused for anybody else's, or for another sandbox than
    ``meant_for``'s tag: whatever its step, a sheet's delete is for the whole sandbox)."""
    sandbox = await load_sandbox(session, sandbox_id, owner_id, meant_for=meant_for, for_update=True)
    info = info_of(sandbox, current_step(await steps_of(session, sandbox.row_id)))
    await _delete(session, [sandbox.row_id])
    await session.flush()
    return info


async def member_left(session: AsyncSession, guild_id: int, user_id: int) -> int:
    """A member left the server (or was removed): their sandboxes of its games go. Returns how many."""
    ids = (
        await session.exec(
            select(Sandbox.id).where(Sandbox.owner_id == user_id, Sandbox.guild_id == guild_id)
        )
    ).all()
    await _delete(session, [i for i in ids if i is not None])
    await session.flush()
    return len(ids)


async def sweep(session: AsyncSession, *, now: datetime | None = None) -> int:
    """Delete the sandboxes nobody has used for :data:`KEPT_FOR`. Returns how many."""
    now = require_aware(now or utcnow())
    ids = (await session.exec(select(Sandbox.id).where(col(Sandbox.used_at) < now - KEPT_FOR))).all()
    await _delete(session, [i for i in ids if i is not None])
    await session.flush()
    return len(ids)


async def _delete(session: AsyncSession, ids: list[int]) -> None:
    if not ids:
        return
    await session.exec(delete(SandboxPhase).where(col(SandboxPhase.sandbox_id).in_(ids)))
    await session.exec(delete(Sandbox).where(col(Sandbox.id).in_(ids)))


def variant_names() -> list[tuple[str, str]]:
    """(name, title) of every variant a sandbox may start from."""
    return [(v.name, v.title) for v in all_variants() if v.playable()]
