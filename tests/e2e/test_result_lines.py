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


def test_the_public_lines_name_the_power_where_the_engine_tells_the_owner() -> None:
    orders = {
        "FRANCE": [
            {
                "input": "A Gas-Bur",
                "order": "A GAS - BUR",
                "status": "failed",
                "reason": "bounced: your own A BUR held BUR",
            },
            {
                "input": "A Mun H",
                "order": "A MUN H",
                "status": "invalid",
                "reason": "A MUN is not yours: it belongs to GERMANY (your units: A BUR, A GAS)",
            },
        ],
        "RUSSIA": [
            {
                "input": "A War-Gal",
                "order": "A WAR - GAL",
                "status": "failed",
                "reason": "bounced: A VIE - GAL had equal strength (yours 1, theirs 1)",
            }
        ],
    }
    lines = orders_lines("S1901M", orders)
    assert "❌ `A GAS - BUR`: bounced: France's own A BUR held BUR" in lines
    assert any(
        "A MUN is not France's: it belongs to GERMANY (France's units: A BUR, A GAS)" in x for x in lines
    )
    assert "❌ `A WAR - GAL`: bounced: A VIE - GAL had equal strength (1 against 1)" in lines
