"""Random positions and orders for the engine's property tests, and the invariants every adjudication
keeps."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine import load_map
from engine.mapdata import province_of

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


def check_invariants(request: dict[str, Any], out: Mapping[str, Any]) -> None:
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
