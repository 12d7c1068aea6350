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

from db.models import Game, PhaseRecord
from engine import Board
from engine.variants import game_map
from gm.delivery.outbox import Target, enqueue
from gm.messages import payloads as say
from gm.messages.maps import ORDERS_MAP, POSITION_MAP, fog_kind
from gm.ordering.progress import PhaseState
from gm.phases import results as outcome
from gm.rules.fog import counts_due, fogged_change, fogged_missed, fogged_orders, seen_in_phase
from gm.settings import FOG_COUNTS, GameSettings, deadline_zone

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


def announce(
    session: Any,
    game: Game,
    phase: PhaseRecord,
    next_phase: PhaseRecord | None,
    state: PhaseState,
    answer: dict[str, Any],
    change: dict[str, Any],
    counts: dict[str, int],
    missed: outcome.Missed,
    game_over: dict[str, Any] | None,
    now: datetime,
) -> None:
    """Queue the public results (game channel), then each power's own (its channel)."""
    settings = GameSettings.from_json(game.settings)
    game_id = game.row_id
    phase_id = phase.row_id
    result = answer["result"]
    maps = answer.get("maps", {})
    played_by_builtin = (answer.get("built_in") or {}).get("played") or []
    next_ref = (next_phase.row_id, next_phase.name, next_phase.deadline) if next_phase else None
    public_counts = settings.fog == FOG_COUNTS and counts_due(phase.name, result.get("next_phase"))
    base = outcome.results_payload(
        game_id=game_id,
        game_name=game.name,
        phase_id=phase_id,
        phase_name=phase.name,
        result={"orders": []},
        change={
            "dislodged": [],
            "captures": [],
            "built": [],
            "removed": [],
            "eliminated": change["eliminated"],
        },
        counts=counts if public_counts else {},
        missed=outcome.Missed((), {}),
        next_phase=next_ref,
        maps=[],
        game_over=game_over,
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
        now=now,
    )
    variant_map = game_map(game.variant)
    before = Board.from_json(phase.board, variant_map)
    after = Board.from_json(answer["next_board"], variant_map)
    for power in fog_powers(state):
        seen = seen_in_phase(before, after, [power])
        orders = fogged_orders(result.get("orders") or [], variant_map, [power], seen)
        mine = fogged_missed(missed.to_json(), [power])
        own = outcome.results_payload(
            game_id=game_id,
            game_name=game.name,
            phase_id=phase_id,
            phase_name=phase.name,
            result={"orders": orders},
            change=fogged_change(change, [power], seen),
            counts=counts if public_counts else {power: counts.get(power, 0)},
            missed=outcome.Missed(tuple(mine["none"]), mine["partial"]),
            next_phase=next_ref,
            maps=[],
            game_over=game_over,
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
                built_in=[p for p in played_by_builtin if p in shown],
                fogged=True,
                changes={},
                centers={},
            ),
            phase_id=phase_id,
            target=Target.power_channel(power),
            key=f"phase_results:{phase_id}:{power}",
            now=now,
        )
