"""What a close (or a sandbox's adjudication) asks the worker, and what the worker answers.

Frozen, typed values of plain data (JSON-like dicts, tuples, bytes): they are pickled across the
process boundary to the worker processes (gm.delivery.pool), so this module imports nothing of the
database or the event loop. gm.phases.worker.close_work turns a :class:`CloseRequest` into a
:class:`CloseAnswer`; gm.phases.requesting builds a game's request, gm.sandbox.adjudicating a
sandbox's, and gm.phases.finishing and gm.sandbox.adjudicating write the answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.player import DEFAULT_LEVEL


@dataclass(frozen=True, slots=True)
class CloseRequest:
    """One phase to adjudicate (and draw).

    ``built_in``: the powers whose orders the built-in player gives now, all of them among
    ``civil_disorder`` until it has (gm.builtin.orders); ``fog``: the powers whose own view of the
    maps is drawn too; ``orders_title``: the orders map's title instead of the phase's name;
    ``position_map`` False: no position map (a sandbox's results)."""

    board: dict[str, Any]  # the phase's board JSON
    orders: Mapping[str, tuple[str, ...]]  # power -> order lines
    map: str = "standard"  # the engine map's name
    variant: str = "standard"
    civil_disorder: tuple[str, ...] = ()
    victory_centers: int | None = None
    last_year: int | None = None
    render: bool = True
    built_in: tuple[str, ...] = ()
    seed: int = 0
    builtin_level: str = DEFAULT_LEVEL
    bounced: Mapping[str, Any] = field(default_factory=dict)  # power -> {move: phases}: the player's memory
    fog: tuple[str, ...] = ()
    fogged: bool = False  # the built-in player sees what its powers see
    orders_title: str | None = None
    position_map: bool = True


@dataclass(frozen=True, slots=True)
class WorkSeconds:
    """How long the work took: wall seconds to adjudicate and to render, and the CPU time of both
    in the worker (on a busy machine the wall times count other processes' turns too)."""

    adjudicate: float = 0.0
    render: float = 0.0
    cpu: float = 0.0

    def as_dict(self) -> dict[str, float]:
        return {"adjudicate": self.adjudicate, "render": self.render, "cpu": self.cpu}


@dataclass(frozen=True, slots=True)
class BuiltInPlay:
    """The powers the built-in player gave orders for, and those it failed for (power -> why)."""

    played: tuple[str, ...] = ()
    failed: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class CloseAnswer:
    """The adjudication (engine JSON out), the next board (JSON) and the maps drawn (kind -> PNG)."""

    result: dict[str, Any]
    next_board: dict[str, Any]
    maps: Mapping[str, bytes] = field(default_factory=dict)
    seconds: WorkSeconds = WorkSeconds()
    built_in: BuiltInPlay = BuiltInPlay()
