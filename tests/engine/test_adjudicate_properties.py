"""Properties that hold for any position and any orders, checked on random ones: the adjudicator never
raises, loses no line, gives every unit exactly one outcome and never puts two units in one place."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import adjudicate_json
from engine.mapdata import province_of
from tests.helpers.engine import check_invariants, random_order, random_position
from tests.helpers.profiles import examples


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_random_positions_and_orders(rng: random.Random) -> None:
    units = random_position(rng)
    everyone = [u for us in units.values() for u in us]
    orders = {
        power: [random_order(rng, u, everyone) for u in us for _ in range(rng.choice((0, 1, 1, 2)))]
        for power, us in units.items()
    }
    request = {"phase": rng.choice(["S1901M", "F1901M"]), "units": units, "centers": {}, "orders": orders}
    out = adjudicate_json(request)
    check_invariants(request, out)
    if out["next_phase"] and out["next_phase"].endswith("R"):
        retreats = {
            power: [f"{u} - {rng.choice(info['retreats'] or ['PAR'])}" for u, info in entries.items()]
            for power, entries in out["dislodged"].items()
        }
        after = adjudicate_json(
            {"phase": out["next_phase"], "units": out["units"], "centers": out["centers"],
             "dislodged": out["dislodged"], "orders": retreats}
        )  # fmt: skip
        placed = [province_of(u.split()[1]) for us in after["units"].values() for u in us]
        assert len(set(placed)) == len(placed)
