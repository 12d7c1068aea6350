"""Step 2's input: what a claimed phase asks the worker (gm.phases.contract.CloseRequest), read in
one short read-only transaction so that no lock is held while the worker runs."""

from __future__ import annotations

from typing import Any

from sqlmodel import col, select

from db.database import SessionFactory
from db.models import Game, PhaseRecord, PhaseStatus
from engine.variants import get_variant
from gm.builtin import orders as builtin_orders
from gm.builtin import seats as builtin_seats
from gm.ordering.progress import phase_state
from gm.phases import fogged as fog
from gm.phases.contract import CloseRequest
from gm.settings import GameSettings

MEMORY_PHASES = (
    8  # the latest phases whose bounces the built-in player remembers (about three movement phases)
)


async def read_request(sessions: SessionFactory, phase_id: int, *, render: bool) -> CloseRequest | None:
    """The request of ``phase_id`` if it is ``adjudicating`` (claimed), else None."""
    async with sessions.read() as session:
        phase = await session.get(PhaseRecord, phase_id)
        if phase is None or phase.status != PhaseStatus.ADJUDICATING:
            return None
        game = await session.get(Game, phase.game_id)
        assert game is not None
        state = await phase_state(session, phase, game.variant)
        built_in = await builtin_seats.built_in_powers(session, game)
        history = await _history(session, game, phase) if built_in and phase.name.endswith("M") else []
    played = get_variant(game.variant)
    settings = GameSettings.from_json(game.settings)
    disorder = state.civil_disorder()
    return CloseRequest(
        variant=game.variant,
        map=played.map_name,
        board=phase.board,
        orders={p: tuple(texts.values()) for p, texts in state.orders.items() if texts},
        civil_disorder=tuple(sorted(disorder)),
        # the built-in player's powers (inactive, so among those above until it gives their orders)
        built_in=tuple(sorted(built_in & disorder)),
        seed=game.row_id,
        builtin_level=settings.builtin_level,
        # what the built-in player remembers: its moves that bounced into empty provinces lately
        bounced=builtin_orders.bounce_memory(history, game.variant) if history else {},
        victory_centers=played.victory_centers,
        last_year=settings.last_year,
        render=render,
        fog=tuple(fog.fog_powers(state)) if settings.fogged else (),  # each one's own view, drawn too
        fogged=settings.fogged,
    )


async def _history(
    session: Any, game: Game, phase: PhaseRecord
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The boards and results of the latest movement phases before ``phase`` (oldest first)."""
    earlier = await session.exec(
        select(PhaseRecord)
        .where(col(PhaseRecord.game_id) == game.id, col(PhaseRecord.ordinal) < phase.ordinal)
        .order_by(col(PhaseRecord.ordinal).desc())
        .limit(MEMORY_PHASES)
    )
    return [(p.board, p.results) for p in reversed(earlier.all()) if p.results and p.name.endswith("M")]
