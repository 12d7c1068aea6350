"""Reading a variant folder the way the engine and the renderer will: our committed JSON only."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.mapdata import DATA_DIR, GameMap, _build_map

ROOT = DATA_DIR.parent
VARIANTS_DIR = DATA_DIR / "variants"

NAMES = ("ancmed", "modern", "youngstown", "1900", "chaos", "fleetrome")


@dataclass(frozen=True)
class VariantData:
    name: str
    variant: dict  # variant.json
    raw_map: dict  # map.json, or data/variants/standard/map.json
    geometry: dict  # geometry.json, or data/variants/standard/geometry.json
    game_map: GameMap  # raw_map read by engine.mapdata's loader


def _read(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def load(name: str) -> VariantData:
    folder = VARIANTS_DIR / name
    variant = _read(folder / "variant.json")
    raw_map = (
        _read(folder / "map.json")
        if variant["map"] == "map.json"
        else _read(DATA_DIR / "variants" / "standard" / "map.json")
    )
    geometry = (
        _read(folder / "geometry.json")
        if variant["geometry"] == "geometry.json"
        else _read(DATA_DIR / "variants" / "standard" / "geometry.json")
    )
    return VariantData(name, variant, raw_map, geometry, _build_map(raw_map))
