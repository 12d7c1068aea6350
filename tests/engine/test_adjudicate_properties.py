"""Properties that hold for any position and any orders, checked on random ones: the adjudicator never
raises, loses no line, gives every unit exactly one outcome and never puts two units in one place."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import adjudicate_json, load_map
from engine.mapdata import province_of
from tests.helpers.profiles import examples

GM = load_map("standard")
GARBAGE = ["", "   ", "hold everything", "A XYZ - PAR", "F - -", "S S S", "WAIVE", "A PAR B", "💥", "A" * 400]


def random_position(rng: random.Random) -> dict[str, list[str]]:
    """Units on about half the board, each type where it can stand, for random powers."""
    units: dict[str, list[str]] = {}
    for code, prov in GM.provinces.items():
        if rng.random() < 0.5:
            continue
        kinds = (["A"] if prov.is_land else []) + (["F"] if prov.has_coast else [])
        kind = rng.choice(kinds)
        loc = rng.choice(prov.locations) if kind == "F" else code
        units.setdefault(rng.choice(GM.powers), []).append(f"{kind} {loc}")
    return units


def random_order(rng: random.Random, unit: str, everyone: list[str]) -> str:
    kind, loc = unit.split()
    near = sorted(GM.neighbours(kind, loc))
    other = rng.choice(everyone)
    far = rng.choice(sorted(GM.provinces))
    choice = rng.randrange(8)
    if choice == 0 or not near:
        return f"{unit} H"
    if choice in (1, 2):
        return f"{unit} - {rng.choice(near)}"
    if choice == 3:
        return f"{unit} - {far}" + (" VIA" if rng.random() < 0.5 else "")
    if choice == 4:
        return f"{unit} S {other}"
    if choice == 5:
        return f"{unit} S {other} - {province_of(rng.choice(near))}"
    if choice == 6:
        return f"{unit} C {other} - {far}"
    return rng.choice(GARBAGE)


def check_invariants(request: dict[str, Any], out: dict[str, Any]) -> None:
    # every non-blank input line is reported, in order, under its power
    for power, given_lines in request["orders"].items():
        reported = [r["input"] for r in out["orders"] if r["power"] == power and r["input"] is not None]
        assert reported == [t.strip() for t in given_lines if t.strip()]
    for r in out["orders"]:
        assert r["status"] in ("succeeded", "failed", "invalid") and r["reason"]
    # every unit has exactly one line that counts (an order that was not invalid, or a default)
    counted = [r for r in out["orders"] if r["status"] != "invalid"]
    subjects = sorted(province_of(r["order"].split()[1]) for r in counted)
    before = sorted(province_of(u.split()[1]) for us in request["units"].values() for u in us)
    assert subjects == before
    # units are conserved: every unit is on the board afterwards or dislodged
    after = [province_of(u.split()[1]) for us in out["units"].values() for u in us]
    gone = [u for entries in out["dislodged"].values() for u in entries]
    assert len(after) + len(gone) == len(before)
    assert len(set(after)) == len(after), "two units in one province"
    # a retreat goes only to an empty province, never back where the attack came from over land
    for entries in out["dislodged"].values():
        for info in entries.values():
            for loc in info["retreats"]:
                assert province_of(loc) not in after


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
