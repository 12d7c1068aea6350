"""Reading a phase's orders: every line kept, every line judged, one order per unit chosen.

Lines may be text in any notation the parser reads, or Order objects. Each goes through the
parser and :func:`engine.validation.validate_order`, then through the phase's own board-level
check. A line that fails is kept with status ``invalid`` and its reason; nothing a player typed
is dropped except blank lines.

When several valid lines concern one unit (or one build site), the last one counts and the
earlier ones are reported as replaced (docs/ARCHITECTURE.md, "One phase in JSON": the same rule as
editing orders in the bot).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass

from engine.adjudicator import explain
from engine.board import Board
from engine.errors import OrderError
from engine.mapdata import coast_of, province_of
from engine.orders import Order, SupportMove
from engine.parser import parse_order, split_orders
from engine.validation import read_order, validate_order

INVALID = explain.INVALID
# power -> its order lines: a list (text in any notation, or Order objects), or one text to split;
# None means no orders. (Anything else is the players' business: it comes back as an invalid line.)
OrderLines = Mapping[str, Iterable[str | Order] | str | None]


@dataclass(slots=True)
class Line:
    """One order line and, once judged, its status and reason."""

    power: str
    input: str | None  # the text as given (trimmed), None for an Order object or a default line
    order: Order | None  # what it was read as; None if unreadable
    status: str = ""
    reason: str = ""


def order_key(power: str, order: Order) -> tuple[str, str] | None:
    """What a later order replaces: the unit's province, or the build site; WAIVE replaces nothing."""
    unit = order.unit
    if unit is None:
        return None
    return (power, unit.province)


def read_orders(
    board: Board,
    orders: OrderLines,
    check: Callable[[Order, str], Order],
    civil_disorder: Collection[str] = frozenset(),
) -> tuple[list[Line], dict[tuple[str, str], Line]]:
    """All lines in input order, and the chosen line per key (see :func:`order_key`)."""
    game_map = board.game_map
    powers = game_map.powers
    kind = board.phase.kind
    lines: list[Line] = []
    chosen: dict[tuple[str, str], Line] = {}
    for raw_power, given in orders.items():
        power = str(raw_power).strip().upper()
        if given is None:  # a power with no orders
            continue
        items: Iterable[object]
        if isinstance(given, str):
            items = split_orders(given)
        elif isinstance(given, list | tuple):
            items = given
        else:
            items = [given]
        refusal = None
        if power not in powers:
            refusal = explain.unknown_power(str(raw_power), powers)
        elif power in civil_disorder:
            refusal = explain.in_civil_disorder(power)
        for item in items:
            if type(item) is str:
                text = item.strip()
                if not text:
                    continue
                line = Line(power, text, None)
            elif isinstance(item, Order):
                line = Line(power, None, item)
            else:
                text = _shown(item)
                line = Line(power, text, None, INVALID, explain.not_text(text))
                lines.append(line)
                continue
            lines.append(line)
            if refusal is not None:
                line.status, line.reason = INVALID, refusal
                continue
            try:
                if line.order is None:
                    order = read_order(text, board, power)
                    if type(order) is SupportMove and game_map.provinces[order.dest].coasts:
                        order = _keep_support_coast(order, parse_order(text, game_map, kind))
                else:
                    order = _keep_support_coast(validate_order(line.order, board, power), line.order)
                line.order = order
                order = line.order = check(order, power)
            except OrderError as exc:
                line.status, line.reason = INVALID, explain.with_hint(exc.reason, exc.hint)
                if line.order is None:
                    line.order = _readable(line.input, board, kind)
                continue
            unit = order.unit
            if unit is None:  # WAIVE
                continue
            key = (power, unit.province)
            earlier = chosen.get(key)
            if earlier is not None:
                earlier.status, earlier.reason = INVALID, explain.replaced(order)
            chosen[key] = line
    return lines, chosen


def _shown(item: object) -> str:
    """A non-text order item as the line to report: its JSON, or what it is when that cannot be
    written (an integer of thousands of digits)."""
    try:
        return json.dumps(item, default=str)[:200]
    except (ValueError, RecursionError):
        return f"<a {type(item).__name__} that cannot be shown>"


def _keep_support_coast(validated: Order, given: Order) -> Order:
    """Put back the coast a support names (validation drops it), so a support to the wrong coast
    is void (DATC 6.B.9) while one without a coast supports either (6.B.7, 6.B.15)."""
    if (
        isinstance(validated, SupportMove)
        and isinstance(given, SupportMove)
        and coast_of(given.dest) is not None
        and province_of(given.dest) == validated.dest
    ):
        return SupportMove(validated.unit, validated.supported, given.dest)
    return validated


def _readable(text: str | None, board: Board, kind: str) -> Order | None:
    """What an invalid line was read as, for the report; None when it cannot be read at all."""
    if text is None:
        return None
    try:
        return parse_order(text, board.game_map, kind)
    except OrderError:
        return None
