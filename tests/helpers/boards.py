"""Random boards for property tests."""

from __future__ import annotations

import random

from engine.mapdata import GameMap


def random_units(gm: GameMap, rng: random.Random, share: float = 0.5) -> dict[str, list[str]]:
    units: dict[str, list[str]] = {}
    for code, prov in sorted(gm.provinces.items()):
        if rng.random() > share:
            continue
        kinds = (["A"] if prov.is_land else []) + (["F"] if prov.has_coast else [])
        kind = rng.choice(kinds)
        loc = rng.choice(prov.locations) if kind == "F" else code
        units.setdefault(rng.choice(gm.powers), []).append(f"{kind} {loc}")
    return units
