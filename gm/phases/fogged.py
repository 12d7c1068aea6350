"""A closed phase's results under the fog of war (the game's ``fog`` setting, gm.rules.fog).

Each power's player gets its results privately, in the power's channel: its own maps (the orders map
and the next position as it sees them, drawn by gm.phases.worker.fog_maps), the orders it saw with
their results, what changed in what it saw, its own missed orders. The game channel gets what every
power may know: that the phase was played, who was eliminated, and with the ``counts`` setting each
power's center count when centers have changed hands (after the fall, and at the end); with
``silent``, no count. The full maps are stored as usual: the final post reveals the whole game.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from engine import Board
from engine.variants import game_map
from gm.delivery.outbox import Target, enqueue
from gm.messages import payloads as say
from gm.messages.maps import ORDERS_MAP, POSITION_MAP, fog_kind
from gm.ordering.progress import PhaseState
from gm.phases import results as outcome
from gm.phases.results import ClosedPhase
from gm.rules.fog import counts_due, fogged_change, fogged_missed, fogged_orders, seen_in_phase
from gm.settings import FOG_COUNTS, deadline_zone

PUBLIC_LINE = "Played under the fog of war: each player finds what they could see in their own channel."


def fog_powers(state: PhaseState) -> list[str]:
    """The powers whose players get their own results: those with a player (whatever their status:
    a replacement reads the channel later) and something on the board at the phase's start."""
    board = state.board
    return [
        power
        for power in board.game_map.powers
        if state.player_of.get(power) is not None
        and (board.units.get(power) or board.centers.get(power) or board.dislodged.get(power))
    ]


def announce(session: Any, closed: ClosedPhase) -> None:
    """Queue the public results (game channel), then each power's own (its channel)."""
    public_counts = closed.settings.fog == FOG_COUNTS and counts_due(
        closed.phase.name, closed.result.get("next_phase")
    )
    _public_results(session, closed, public_counts)
    variant_map = game_map(closed.game.variant)
    before = Board.from_json(closed.phase.board, variant_map)
    after = Board.from_json(closed.answer.next_board, variant_map)
    for power in fog_powers(closed.state):
        _own_results(session, closed, power, seen_in_phase(before, after, [power]), public_counts)


def _next_ref(closed: ClosedPhase) -> tuple[int, str, datetime | None] | None:
    nxt = closed.next_phase
    return (nxt.row_id, nxt.name, nxt.deadline) if nxt else None


def _public_results(session: Any, closed: ClosedPhase, public_counts: bool) -> None:
    """What every power may know, in the game channel: the phase was played, who was eliminated,
    and (``counts``, when due) each power's center count."""
    game, phase_id = closed.game, closed.phase.row_id
    base = outcome.results_payload(
        game_id=game.row_id,
        game_name=game.name,
        phase_id=phase_id,
        phase_name=closed.phase.name,
        result={"orders": []},
        change={
            "dislodged": [],
            "captures": [],
            "built": [],
            "removed": [],
            "eliminated": closed.change["eliminated"],
        },
        counts=closed.counts if public_counts else {},
        missed=outcome.Missed((), {}),
        next_phase=_next_ref(closed),
        maps=[],
        game_over=closed.game_over,
    )
    lines = [PUBLIC_LINE, *(line for line in base.lines if line != "Nothing changed hands.")]
    if public_counts:
        lines.append("Centers each power holds now:")
    enqueue(
        session,
        replace(base, lines=lines, deadline_zone=deadline_zone(game), fogged=True, changes={}, centers={}),
        phase_id=phase_id,
        target=Target.game_channel(),
        key=f"phase_results:{phase_id}",
        now=closed.now,
    )


def _own_results(
    session: Any, closed: ClosedPhase, power: str, seen: frozenset[str], public_counts: bool
) -> None:
    """One power's results as it saw them (``seen``: the provinces it saw during the phase), in its
    channel: its orders and misses, its maps."""
    game, phase, next_phase = closed.game, closed.phase, closed.next_phase
    phase_id, maps, counts = phase.row_id, closed.answer.maps, closed.counts
    variant_map = game_map(game.variant)
    orders = fogged_orders(closed.result.get("orders") or [], variant_map, [power], seen)
    mine = fogged_missed(closed.missed.to_json(), [power])
    own = outcome.results_payload(
        game_id=game.row_id,
        game_name=game.name,
        phase_id=phase_id,
        phase_name=phase.name,
        result={"orders": orders},
        change=fogged_change(closed.change, [power], seen),
        counts=counts if public_counts else {power: counts.get(power, 0)},
        missed=outcome.Missed(tuple(mine["none"]), mine["partial"]),
        next_phase=_next_ref(closed),
        maps=[],
        game_over=closed.game_over,
    )
    refs = []
    if fog_kind(ORDERS_MAP, power) in maps:
        refs.append(say.map_ref(phase_id, phase.name, fog_kind(ORDERS_MAP, power)))
    if next_phase is not None and fog_kind(POSITION_MAP, power) in maps:
        refs.append(say.map_ref(next_phase.row_id, next_phase.name, fog_kind(POSITION_MAP, power)))
    shown = {line.get("power") for line in orders}
    enqueue(
        session,
        replace(
            own,
            title=f"{game.name}: {say.long_name(phase.name)} results, {say.power_name(power)}'s view",
            maps=refs,
            deadline_zone=deadline_zone(game),
            built_in=[p for p in closed.answer.built_in.played if p in shown],
            fogged=True,
            changes={},
            centers={},
        ),
        phase_id=phase_id,
        target=Target.power_channel(power),
        key=f"phase_results:{phase_id}:{power}",
        now=closed.now,
    )
