"""Judging one submitted line for the caller's powers (gm.ordering.submission): the engine's order entry
(:func:`engine.enter_order`) judges it for the board and each power in turn; it is accepted (canonical
text, the order it replaces) or refused with the engine's reason and hint: not one of the position's
legal orders, or, in an adjustment phase, beyond the builds or removals due.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Board, OrderError, enter_order
from engine.parser import read_line
from gm.ordering.progress import PhaseState
from gm.ordering.required import order_key


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
) -> tuple[LineOutcome, tuple[str, str] | None]:
    """Read one line for the first of ``powers`` it fits; update ``current`` when accepted.

    The gate is the engine's (:func:`engine.enter_order`): the line is taken only if it is one of the
    position's legal orders, the ones the order builder lists, and in an adjustment phase only while
    the power has builds or removals left, counting its ``current`` orders."""
    board = state.board
    winter = board.phase.kind == "A"
    errors: list[tuple[str, OrderError]] = []
    for p in powers:
        try:
            order = enter_order(line, board, p, current[p].values() if winter else ())
        except OrderError as exc:
            errors.append((p, exc))
            continue
        key = order_key(order, current[p].keys())
        replaced = current[p].get(key)
        current[p][key] = str(order)
        return LineOutcome(
            line, True, p, str(order), replaced=replaced if replaced != str(order) else None
        ), (p, key)
    p, error = _most_relevant(line, board, errors)
    return LineOutcome(line, False, p if len(powers) > 1 else powers[0], None, error.reason, error.hint), None


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
