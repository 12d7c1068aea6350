"""What the renderer draws for orders: one :class:`OrderMark` per order, with its outcome if known."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import OrderParseError
from engine.mapdata import GameMap, load_map
from engine.orders import Hold, Order
from engine.parser import parse_order
from engine.phase import Phase

SUCCEEDED = "succeeded"
FAILED = "failed"
INVALID = "invalid"
STATUSES = (SUCCEEDED, FAILED, INVALID)


@dataclass(frozen=True, slots=True)
class OrderMark:
    """An order to draw: whose it is, the order, and how it ended.

    ``status`` is None before adjudication (a player's preview of their own orders), else
    'succeeded', 'failed' or 'invalid' as in the engine's results; ``reason`` is the engine's words.
    """

    power: str
    order: Order
    status: str | None = None
    reason: str | None = None

    def __post_init__(self) -> None:
        if self.status is not None and self.status not in STATUSES:
            raise ValueError(f"unknown order status {self.status!r}; expected one of {', '.join(STATUSES)}")

    @property
    def failed(self) -> bool:
        return self.status in (FAILED, INVALID)


def marks_from_results(
    results: Mapping[str, Any] | Iterable[Mapping[str, Any]], game_map: GameMap | None = None
) -> list[OrderMark]:
    """OrderMarks from an adjudication result (``engine.adjudicate_json`` output, or its "orders").

    Each line's canonical text ("order") is read back with the engine's parser; lines with no readable
    order (garbage input, marked invalid) are skipped, since there is nothing on the map to draw, and
    so are the engine's default holds for units nobody ordered (the unit simply stays).
    """
    game_map = game_map or load_map()
    lines = results.get("orders", []) if isinstance(results, Mapping) else results
    phase_kind = None
    if isinstance(results, Mapping) and results.get("phase"):
        try:
            phase_kind = Phase.parse(str(results["phase"])).kind
        except ValueError:
            phase_kind = None
    marks: list[OrderMark] = []
    for line in lines:
        text = line.get("order") or line.get("input")
        if not text:
            continue
        try:
            order = parse_order(str(text), game_map, phase_kind)
        except OrderParseError:
            continue
        if line.get("input") is None and isinstance(order, Hold):
            continue
        status = line.get("status")
        marks.append(
            OrderMark(
                power=str(line.get("power", "")).upper(),
                order=order,
                status=status if status in STATUSES else None,
                reason=line.get("reason"),
            )
        )
    return marks


def marks_from_orders(
    orders: Mapping[str, Iterable[str]], game_map: GameMap | None = None, phase_kind: str | None = None
) -> list[OrderMark]:
    """OrderMarks (no outcome yet) from the request form: power -> order lines in any notation.

    Lines the parser cannot read are skipped: a preview shows what can be drawn.
    """
    game_map = game_map or load_map()
    marks: list[OrderMark] = []
    for power, lines in orders.items():
        for text in lines:
            try:
                order = parse_order(str(text), game_map, phase_kind)
            except OrderParseError:
                continue
            marks.append(OrderMark(power=str(power).upper(), order=order))
    return marks
