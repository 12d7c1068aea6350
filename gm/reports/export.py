"""A whole game as JSON-serialisable data (/game export): settings, players and powers, every phase
with its board, orders and results, and the game log.

Nothing private: the phase still open is exported with its board only (its orders are secret until
it closes), votes are never exported (only the proposals' outcome), and closed phases carry what
their results already made public. Internal bookkeeping (row ids kept for rollbacks) is left out.
While the game runs its log is the one the game channel told (gm.reading.public_log: no name behind
an absence or a grace extension, no moderator's private detail); once it is over the export carries
the whole log, and says so (``log_scope``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game, GameLogEntry, PhaseRecord, Player, PowerAssignment, Proposal
from engine.variants import get_variant
from gm.reading.fog import board_view, fog_viewer, results_view
from gm.reading.lookup import ENDED_STATES, game_phases, load_game, power_assignments
from gm.reading.public_log import full_log, public_log
from gm.reports.history import shown_results

FORMAT = "diplomacy-gm-export/1"
LOG_SCOPES = {
    "public": "what the game channel has told: the game is not over",
    "full": "the whole game log, names behind absences and grace extensions included: the game is over",
}


async def export_game(session: AsyncSession, game_id: int, *, viewer: int | None = None) -> dict[str, Any]:
    """The game as JSON data; a running fogged game as ``viewer``'s powers see it (gm.reading.fog:
    refused to a member who plays none of them), and says so (``fog_view``)."""
    game = await load_game(session, game_id)
    powers = await fog_viewer(session, game, viewer)
    players = (
        await session.exec(select(Player).where(Player.game_id == game.id).order_by(col(Player.id)))
    ).all()
    assignments = await power_assignments(session, game.row_id)
    phases = await game_phases(session, game.row_id)
    proposals = (
        await session.exec(select(Proposal).where(Proposal.game_id == game.id).order_by(col(Proposal.id)))
    ).all()
    log = (
        await session.exec(
            select(GameLogEntry).where(GameLogEntry.game_id == game.id).order_by(col(GameLogEntry.id))
        )
    ).all()
    user_of = {p.id: p.user_id for p in players}
    phase_name = {p.id: p.name for p in phases}
    scope = "full" if game.status in ENDED_STATES else "public"
    return {
        "format": FORMAT,
        "game": _game(game),
        "players": [_player(p, assignments) for p in players],
        "powers": {a.power: user_of.get(a.player_id) if a.player_id else None for a in assignments},
        "phases": [_phase(p, game.variant, powers) for p in phases],
        "proposals": [_proposal(p, phase_name) for p in proposals],
        **({"fog_view": list(powers)} if powers is not None else {}),
        "log_scope": scope,
        "log_scope_note": LOG_SCOPES[scope],
        "log": full_log(log) if scope == "full" else public_log(log),
    }


def _game(game: Game) -> dict[str, Any]:
    return {
        "id": game.id,
        "name": game.name,
        "variant": game.variant,
        "variant_title": get_variant(game.variant).title,
        "status": str(game.status),
        "creator_id": game.creator_id,
        "settings": game.settings,
        "created_at": _time(game.created_at),
        "started_at": _time(game.started_at),
        "finished_at": _time(game.finished_at),
        "result": game.result,
    }


def _player(player: Player, assignments: Sequence[PowerAssignment]) -> dict[str, Any]:
    return {
        "user_id": player.user_id,
        "status": str(player.status),
        "powers": [a.power for a in assignments if a.player_id == player.id],
        "joined_at": _time(player.joined_at),
        "left_at": _time(player.left_at),
        "missed_phases": player.missed_phases,
    }


def _proposal(proposal: Proposal, phase_name: dict[int | None, str]) -> dict[str, Any]:
    return {
        "phase": phase_name.get(proposal.phase_id),
        "kind": proposal.kind,
        "beneficiary": proposal.beneficiary or None,
        "status": str(proposal.status),
        "opened_at": _time(proposal.opened_at),
        "decided_at": _time(proposal.decided_at),
    }


def _phase(phase: PhaseRecord, variant: str, powers: tuple[str, ...] | None) -> dict[str, Any]:
    results = shown_results(phase)
    board = phase.board
    if powers is not None:  # the fog of war: what the viewer's powers saw
        board = board_view(phase.board, variant, powers)[0]
        results = results_view(results, phase.board, variant, powers) if results is not None else None
    return {
        "name": phase.name,
        "ordinal": phase.ordinal,
        "status": str(phase.status),
        "board": board,
        "adjustments": phase.adjustments,
        "opened_at": _time(phase.opened_at),
        "deadline": _time(phase.deadline),
        "closed_at": _time(phase.closed_at),
        "close_reason": phase.close_reason,
        "results": results,  # every order line with its outcome; None while the phase is open
    }


def _time(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None
