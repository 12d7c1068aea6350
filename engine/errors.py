"""The engine's own error types. The parser and validator raise nothing else."""

from __future__ import annotations


class OrderError(ValueError):
    """An order that cannot be used. ``reason`` is a sentence a player understands, ``hint`` how to fix it."""

    def __init__(self, reason: str, hint: str | None = None) -> None:
        super().__init__(reason if hint is None else f"{reason} ({hint})")
        self.reason = reason
        self.hint = hint


class OrderParseError(OrderError):
    """The text could not be read as an order at all."""


class InvalidOrder(OrderError):
    """The order was read but cannot be carried out on this board by this power."""
