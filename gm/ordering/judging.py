"""Judging one submitted line for the caller's powers (gm.ordering.submission): the engine reads it for the
board
and each power in turn; it is accepted (canonical text, the order it replaces) or refused with the
engine's reason and hint, or, in an adjustment phase, because the builds or removals due are used up.
"""

from __future__ import annotations

from dataclasses import dataclass

from db.models import PhaseRecord
from engine import Board, Order, OrderError, read_order
from engine.parser import read_line
from gm.messages import payloads as say
from gm.ordering.progress import PhaseState
from gm.ordering.required import counts_toward_builds, counts_toward_removals, order_key


@dataclass(frozen=True, slots=True)
class LineOutcome:
    """One submitted line: accepted (with its canonical text) or refused (with reason and hint)."""

    line: str
    accepted: bool
    power: str | None = None
    order: str | None = None  # canonical text when accepted
    reason: str | None = None  # why it was refused
    hint: str | None = None  # how to fix it
    replaced: str | None = None  # the earlier order it replaced, if any

    def to_json(self) -> dict[str, object]:
        return {
            "line": self.line,
            "accepted": self.accepted,
            "power": self.power,
            "order": self.order,
            "reason": self.reason,
            "hint": self.hint,
            "replaced": self.replaced,
        }


def judge_line(
    line: str,
    state: PhaseState,
    powers: list[str],
    current: dict[str, dict[str, str]],
    phase: PhaseRecord,
) -> tuple[LineOutcome, tuple[str, str] | None]:
    """Read one line for the first of ``powers`` it fits; update ``current`` when accepted."""
    board = state.board
    errors: list[tuple[str, OrderError]] = []
    for p in powers:
        try:
            order = read_order(line, board, p)
        except OrderError as exc:
            errors.append((p, exc))
            continue
        refusal = _count_refusal(order, p, state, current[p])
        if refusal is not None:
            return LineOutcome(line, False, p, None, refusal[0], refusal[1]), None
        key = order_key(order, current[p].keys())
        replaced = current[p].get(key)
        current[p][key] = str(order)
        return LineOutcome(
            line, True, p, str(order), replaced=replaced if replaced != str(order) else None
        ), (p, key)
    p, exc = _most_relevant(line, board, errors)
    return LineOutcome(line, False, p if len(powers) > 1 else powers[0], None, exc.reason, exc.hint), None


def _most_relevant(line: str, board: Board, errors: list[tuple[str, OrderError]]) -> tuple[str, OrderError]:
    """For a player with several powers: the refusal from the power the line is addressed to
    ("France: ..."), else from the power whose unit it names, else the first."""
    if len(errors) > 1:
        try:
            parsed = read_line(line, board.game_map, board.phase.kind)
        except OrderError:
            parsed = None
        if parsed is not None:
            wanted = parsed.power
            if wanted is None and parsed.order.unit is not None:
                wanted = board.owner_at(parsed.order.unit.province)
            for p, exc in errors:
                if p == wanted:
                    return p, exc
    return errors[0]


def _count_refusal(
    order: Order, power: str, state: PhaseState, orders: dict[str, str]
) -> tuple[str, str] | None:
    """In an adjustment phase, refuse a build or removal beyond the number due."""
    if state.board.phase.kind != "A":
        return None
    duty = state.duties[power]
    key = order_key(order, orders.keys())
    others = {k: t for k, t in orders.items() if k != key}
    if counts_toward_builds(order):
        if duty.builds == 0:
            return (
                f"{say.power_name(power)} has no builds this winter",
                "you need more supply centers than units, and a vacant home center you own, to build",
            )
        used = [t for t in others.values() if t == "WAIVE" or t.endswith(" B")]
        if len(used) >= duty.builds:
            return (
                f"{say.power_name(power)} may build {say.plural(duty.builds, 'unit')} and already has "
                f"{len(used)} ordered ({', '.join(used)})",
                "order the same place again to change a build, or clear your orders and start over",
            )
    if counts_toward_removals(order):
        if duty.removals == 0:
            return (
                f"{say.power_name(power)} does not have to remove any unit this winter",
                "write builds or WAIVE",
            )
        used = [t for t in others.values() if t.endswith(" D")]
        if len(used) >= duty.removals:
            return (
                f"{say.power_name(power)} must remove {say.plural(duty.removals, 'unit')} and already has "
                f"{len(used)} ordered ({', '.join(used)})",
                "clear your orders and start over to remove a different unit",
            )
    return None
