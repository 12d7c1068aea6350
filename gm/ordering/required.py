"""What each power has to order in a phase, and what it still lacks.

- movement: an order for every unit;
- retreats: an order for every dislodged unit that has somewhere to go;
- adjustments: as many builds (or WAIVEs) or removals as the adjudication said are due.

Orders are kept one per *key*: the unit's province (so ``F STP/NC`` and ``F STP/SC`` are the same
unit), the province of a build site, or ``WAIVE:n`` for the n-th waived build.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine import Board, Order, Waive

WAIVE_PREFIX = "WAIVE:"


@dataclass(frozen=True, slots=True)
class Duty:
    power: str
    kind: str  # M, R or A
    units: tuple[str, ...] = ()  # M: the power's units; R: its dislodged units that can retreat
    builds: int = 0  # A: builds due
    removals: int = 0  # A: removals due

    @property
    def has_work(self) -> bool:
        return bool(self.units or self.builds or self.removals)


def duties(board: Board, adjustments: Mapping[str, int] | None = None) -> dict[str, Duty]:
    """Every power's duty in the phase ``board`` is at (powers with nothing to do included)."""
    kind = board.phase.kind
    out: dict[str, Duty] = {}
    for power in board.game_map.powers:
        if kind == "M":
            out[power] = Duty(power, kind, units=tuple(str(u) for u in board.units.get(power, ())))
        elif kind == "R":
            movable = tuple(str(d.unit) for d in board.dislodged_of(power) if d.retreats)
            out[power] = Duty(power, kind, units=movable)
        else:
            due = int((adjustments or {}).get(power, 0))
            out[power] = Duty(power, kind, builds=max(due, 0), removals=max(-due, 0))
    return out


def order_key(order: Order, keys_taken: Iterable[str] = ()) -> str:
    """The key an order is stored under; a WAIVE takes the next free ``WAIVE:n``."""
    if isinstance(order, Waive) or order.unit is None:
        taken = set(keys_taken)
        n = 1
        while f"{WAIVE_PREFIX}{n}" in taken:
            n += 1
        return f"{WAIVE_PREFIX}{n}"
    return order.unit.province


def unit_key(unit_text: str) -> str:
    """``F STP/NC`` -> ``STP``."""
    location = unit_text.split()[-1]
    return location.split("/")[0]


def missing(duty: Duty, ordered: Mapping[str, str]) -> tuple[str, ...]:
    """What the power still has to order, as short phrases: units (``A PAR``) or ``2 builds``.

    ``ordered`` maps each order key to the canonical order text.
    """
    if duty.kind in ("M", "R"):
        return tuple(u for u in duty.units if unit_key(u) not in ordered)
    texts = list(ordered.values())
    if duty.builds:
        left = duty.builds - sum(1 for t in texts if t == "WAIVE" or t.endswith(" B"))
        return (f"{left} build" + ("s" if left != 1 else ""),) if left > 0 else ()
    if duty.removals:
        left = duty.removals - sum(1 for t in texts if t.endswith(" D"))
        return (f"{left} removal" + ("s" if left != 1 else ""),) if left > 0 else ()
    return ()
