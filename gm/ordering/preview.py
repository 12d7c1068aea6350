"""A player's private preview: the current phase's map with their own orders drawn on it.

Only the caller's powers' orders go into the picture, never anybody else's (the board itself - units,
centers, the retreat options of dislodged units - is public; under the fog of war, only what the
caller's powers see, gm.reading.fog). :func:`preview_of` gathers plain data in
the session; the facade draws it off the event loop with gm.ordering.drawing.render_preview.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game, PhaseRecord
from gm.errors import OrdersClosed
from gm.meant_for import ANY_PHASE, MeantFor
from gm.messages import words as say
from gm.ordering.drawing import preview_request, preview_title
from gm.ordering.progress import phase_state
from gm.ordering.submission import OrdersView, require_same_game, view_of
from gm.reading.fog import board_view, fog_on
from gm.reading.lookup import latest_phase, load_game, load_player_and_powers, require_started


@dataclass(frozen=True, slots=True)
class OrdersPreview:
    """The caller's orders (what /orders show lists) and their map. ``png`` is None when no renderer
    is installed; ``drawn`` is what the map shows: power -> order texts, the caller's powers only."""

    view: OrdersView
    filename: str
    drawn: Mapping[str, tuple[str, ...]]
    png: bytes | None = None


async def preview_of(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    *,
    meant_for: MeantFor[str] = ANY_PHASE,
) -> tuple[OrdersView, dict[str, Any]]:
    """The caller's orders in the current phase and the request to draw them (theirs only).

    The current phase may be open or being adjudicated (its orders are frozen then, and still only
    the caller's own); ``meant_for``'s phase refuses a builder's request from a phase that has passed,
    its tag one from another game that had this number (submission.require_same_game)."""
    game = await load_game(session, game_id)
    require_started(game)
    require_same_game(game, meant_for)
    _player, powers = await load_player_and_powers(session, game, user_id)
    phase = await latest_phase(session, game.row_id)
    if phase is None:
        raise OrdersClosed(f"{game.name} has no phase yet.")
    if meant_for.phase is not None and phase.name != meant_for.phase.strip().upper():
        raise OrdersClosed(
            f"The {say.long_name(meant_for.phase)} orders are closed; {game.name} is now in "
            f"{say.long_name(phase.name)}.",
            "Use [[cmd:orders show]] or [[cmd:orders sheet]] for the current phase.",
        )
    state = await phase_state(session, phase, game.variant)
    return preview_from(game, phase, view_of(state, game, phase, powers))


def preview_from(game: Game, phase: PhaseRecord, view: OrdersView) -> tuple[OrdersView, dict[str, Any]]:
    """:func:`preview_of`'s answer from the caller's ``view`` of ``phase`` (their orders, as a read in
    the same transaction as the game and the phase would give them, or as the process holds them)."""
    mine = {p.power: p.orders for p in view.powers}
    powers = list(mine)
    title = preview_title(view.phase.long_name, powers)
    if not fog_on(game):
        return view, preview_request(phase.board, game.variant, mine, title)
    board, seen = board_view(phase.board, game.variant, powers)  # the fog of war: the caller's view
    return view, {**preview_request(board, game.variant, mine, title), "fog": seen, "viewer": powers[0]}
