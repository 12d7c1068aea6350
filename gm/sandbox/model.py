"""What the sandbox use cases return (plain data, no database rows), and their refusals."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from gm.errors import GameError
from gm.ordering.judging import LineOutcome
from gm.ordering.legal import OrderMenu

MAX_SANDBOXES = 3
"""Sandboxes a member may keep; making a fourth replaces the one used longest ago, once confirmed."""

KEPT_FOR = timedelta(days=30)
"""A sandbox nobody has used for this long is deleted by the sweep (gm.sandbox.making.sweep)."""


@dataclass(frozen=True, slots=True)
class SandboxInfo:
    id: int
    tag: str  # random: ids carry it, so a sheet left from another database's sandbox is refused
    owner_id: int
    guild_id: int | None
    variant: str
    title: str  # where it came from: "game #3 Friday at Spring 1903 Movement", "the start of Standard"
    source_game_id: int | None
    source_phase: str | None
    created_at: datetime
    used_at: datetime
    phase: str  # the phase it is at now (the open step's, or the last one's when its game is over)
    step: int  # how many adjudications from the position it was made from

    @property
    def expires_at(self) -> datetime:
        """When the sweep deletes it, unless it is used before."""
        return self.used_at + KEPT_FOR


@dataclass(frozen=True, slots=True)
class PowerProgress:
    """One power of a sandbox phase: how far its orders are (for the power picker)."""

    power: str
    entries: int  # units, dislodged units or build sites it may order; removals or builds due
    ordered: int
    missing: tuple[str, ...]
    due: int = 0  # builds (+) or removals (-) in an adjustment phase


@dataclass(frozen=True, slots=True)
class SandboxMenu:
    """A sandbox as its sheet shows it: the phase it is at, one power's legal and current orders
    (``menu``, as a game's sheet has them), and every power with something to do (``powers``).

    ``over`` is set when the last adjudication ended the game (a solo): no phase is open then, and
    ``menu`` is None; stepping back reopens the last phase."""

    sandbox: SandboxInfo
    phase_id: int  # the step's row: ids carry it, so a sheet of a step since adjudicated is refused
    phase_name: str
    long_name: str
    step: int
    power: str | None
    menu: OrderMenu | None
    powers: tuple[PowerProgress, ...]
    over: str | None = None

    @property
    def can_step_back(self) -> bool:
        return self.step > 0 or self.over is not None


@dataclass(frozen=True, slots=True)
class SandboxOrders:
    """The answer to orders given in a sandbox (typed, or picked on its sheet): each line's fate, and
    the sheet after them."""

    lines: tuple[LineOutcome, ...]
    menu: SandboxMenu


@dataclass(frozen=True, slots=True)
class SandboxResults:
    """An adjudication in a sandbox: the phase adjudicated, the engine's result (every order with its
    outcome), what changed (gm.phases.results.changes), the results map, and the sheet after it."""

    phase_name: str
    long_name: str
    result: dict[str, Any]
    changes: dict[str, Any]
    png: bytes | None
    menu: SandboxMenu


class UnknownSandbox(GameError):
    """No such sandbox (deleted, never made, or a sheet from another database)."""


class SandboxLimit(GameError):
    """The member has :data:`MAX_SANDBOXES` already: a new one replaces ``oldest`` once confirmed.
    ``phase`` is the source phase the request named, as its code (for the confirmation to ask again)."""

    def __init__(self, message: str, hint: str | None, oldest: SandboxInfo, phase: str | None = None) -> None:
        super().__init__(message, hint)
        self.oldest = oldest
        self.phase = phase
