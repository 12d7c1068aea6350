"""How each order's result reads in the public results post."""

from __future__ import annotations

from typing import Any

from cogs.messages.render import orders_lines


def test_default_lines_say_whether_an_order_was_given_and_never_repeat_the_reason() -> None:
    payload: dict[str, Any] = {
        "phase": "F1901M",
        "orders": {
            "FRANCE": [
                {
                    "input": "A Par-Mun",
                    "order": "A PAR - MUN",
                    "status": "invalid",
                    "reason": "A PAR cannot reach Munich (MUN); treated as a hold",
                },
                {"input": None, "order": "A PAR H", "status": "succeeded", "reason": "no valid order: held"},
            ],
            "GERMANY": [
                {"input": None, "order": "A MUN H", "status": "succeeded", "reason": "no order: held"},
                {
                    "input": None,
                    "order": "A KIE H",
                    "status": "failed",
                    "reason": "no order: dislodged by A HOL - KIE (2 vs 1)",
                },
            ],
        },
    }
    lines = orders_lines(payload["phase"], payload["orders"])
    assert "▫️ `A PAR H` (no valid order)" in lines
    assert "▫️ `A MUN H` (no order given)" in lines
    assert "❌ `A KIE H`: no order: dislodged by A HOL - KIE (2 vs 1)" in lines
    assert "⚠️ `A PAR - MUN`: A PAR cannot reach Munich (MUN); treated as a hold (typed: A Par-Mun)" in lines
