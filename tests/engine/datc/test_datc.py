"""Every DATC v3.0 test case (chapter 6, sections A to J), run through ``adjudicate_json``, and
cases in the same form for the variants' rule switches (``V*.datc``: engine.rules).

The cases live in ``*.datc`` files next to this module (format in ``cases.py``). Each asserts the
outcome the DATC states for the options we chose (docs/RULES.md), or, for a variant's rule, the
outcome its rule (as engine.rules reads it) gives, worked out by hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from engine import adjudicate_json
from tests.engine.datc.cases import Case, load_cases

CASES = load_cases()


def test_every_chapter_6_case_is_here() -> None:
    ids = {c.id for c in CASES}
    per_section = {"A": 12, "B": 15, "C": 9, "D": 34, "E": 15, "F": 25, "G": 20, "H": 16, "I": 7, "J": 11}
    for section, count in per_section.items():
        for k in range(1, count + 1):
            assert any(i == f"6.{section}.{k}" or i.startswith(f"6.{section}.{k}/") for i in ids), (
                f"6.{section}.{k} missing"
            )
    assert len(ids) == len(CASES), "duplicate case ids"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_datc(case: Case) -> None:
    request = case.request()
    for n, step in enumerate(case.steps):
        request["orders"] = step.orders
        out = adjudicate_json(request)
        where = f"{case.id} ({case.source}) step {n + 1}"
        rows = out["orders"]
        for order, statuses in step.statuses:
            got = [r["status"] for r in rows if r["order"] == order]
            assert got == statuses, f"{where}: {order}: {got} != {statuses}\n{_table(rows)}"
        for power, units in step.units.items():
            got = sorted(out["units"].get(power, []))
            assert got == sorted(units), f"{where}: units of {power}: {got}\n{_table(rows)}"
        dislodged = {u: info for ds in out["dislodged"].values() for u, info in ds.items()}
        if step.dislodged is not None:
            assert sorted(dislodged) == sorted(step.dislodged), f"{where}: dislodged\n{_table(rows)}"
        for unit, options in step.retreats.items():
            assert unit in dislodged, f"{where}: {unit} not dislodged\n{_table(rows)}"
            assert sorted(dislodged[unit]["retreats"]) == sorted(options), f"{where}: retreats of {unit}"
        if step.next_phase is not None:
            assert out["next_phase"] == step.next_phase, f"{where}: next phase"
        if step.adjustments is not None:
            assert out["adjustments"] == step.adjustments, f"{where}: adjustments"
        for row in rows:
            assert row["reason"], f"{where}: a line without a reason: {row}"
        request = {
            "variant": case.variant,
            "phase": out["next_phase"],
            "units": out["units"],
            "centers": out["centers"],
            "dislodged": out["dislodged"] if (out["next_phase"] or "").endswith("R") else {},
        }


def _table(rows: Sequence[Mapping[str, Any]]) -> str:
    return "\n".join(f"  {r['power']:8} {r['order']!s:24} {r['status']:9} {r['reason']}" for r in rows)
