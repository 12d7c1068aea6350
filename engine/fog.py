"""Fog of war: what one power sees of a board and of a phase's results. Pure functions.

The rule (the one DiplomacyGM and vDiplomacy's ClassicFog describe): a power sees every province
where it has a unit (a dislodged one included) or owns a supply center, and every province adjacent
to one of those. "Adjacent" is geographic: the two provinces share a border by land or by sea,
whatever the unit standing there and whichever coast a fleet is on (a fleet on ``STP/NC`` sees what
St. Petersburg borders on either coast, ``BOT`` included). A province it sees shows its unit, its
center's owner and the orders that name it; the rest of the board is hidden.

- :func:`visible_provinces` (board, power) -> the provinces it sees;
- :func:`fog_board`: the board as that power sees it (units, dislodged units and centers in those
  provinces only);
- :func:`fog_result`: a phase's result (``Adjudication.to_json()``) as that power sees it: its own
  orders, the others' orders that name a province it sees (the unit, or where it goes, supports or
  convoys), the next board's units, centers and dislodgements in what it sees, its own adjustments.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

from engine.board import Board
from engine.mapdata import GameMap, province_of

_BORDERS: dict[int, tuple[GameMap, dict[str, frozenset[str]]]] = {}  # id(map) -> (map, its borders)


def _borders(game_map: GameMap) -> dict[str, frozenset[str]]:
    """province -> the provinces it shares a border with, by land or by sea (any coast); worked out
    once per map (maps are loaded once and shared, and are not hashable)."""
    hit = _BORDERS.get(id(game_map))
    if hit is not None and hit[0] is game_map:
        return hit[1]
    out: dict[str, set[str]] = {code: set() for code in game_map.provinces}
    for src, dests in game_map.army_adjacency.items():
        out[src].update(dests)
    for loc, reach in game_map.fleet_reach.items():
        out[province_of(loc)].update(reach)
    for code, near in out.items():  # adjacency is symmetric on every map; make it so whatever the data
        for other in near:
            out.setdefault(other, set()).add(code)
    borders = {code: frozenset(near - {code}) for code, near in out.items()}
    _BORDERS[id(game_map)] = (game_map, borders)
    return borders


def neighbours(game_map: GameMap, province: str) -> frozenset[str]:
    """The provinces sharing a border with ``province`` (a location's coast is ignored)."""
    return _borders(game_map).get(province_of(province), frozenset())


def vantage_points(board: Board, power: str) -> frozenset[str]:
    """Where ``power`` stands: the provinces of its units (dislodged ones too) and its centers."""
    here = {unit.province for unit in board.units.get(power, ())}
    here.update(d.unit.province for d in board.dislodged.get(power, ()))
    here.update(board.centers.get(power, ()))
    return frozenset(here)


def visible_provinces(board: Board, power: str) -> frozenset[str]:
    """The provinces ``power`` sees on ``board``: its vantage points and every province adjacent to
    one (see the module docstring). A power with nothing on the board sees nothing."""
    borders = _borders(board.game_map)
    seen = set(vantage_points(board, power))
    for province in tuple(seen):
        seen.update(borders.get(province, ()))
    return frozenset(seen)


def fog_board(board: Board, power: str, seen: Collection[str] | None = None) -> Board:
    """``board`` as ``power`` sees it: only the units, dislodged units and centers in ``seen``
    (default :func:`visible_provinces`). The phase, variant and map are the board's."""
    if seen is None:
        seen = visible_provinces(board, power)
    units = {p: tuple(u for u in us if u.province in seen) for p, us in board.units.items()}
    centers = {p: frozenset(c for c in cs if c in seen) for p, cs in board.centers.items()}
    dislodged = {p: tuple(d for d in ds if d.unit.province in seen) for p, ds in board.dislodged.items()}
    return Board(
        game_map=board.game_map,
        phase=board.phase,
        units={p: us for p, us in units.items() if us},
        centers={p: cs for p, cs in centers.items() if cs},
        dislodged={p: ds for p, ds in dislodged.items() if ds},
        variant=board.variant,
    )


def named_provinces(game_map: GameMap, text: str | None) -> frozenset[str]:
    """The provinces an order's canonical text names (``A PAR S A MAR - BUR`` -> PAR, MAR, BUR)."""
    if not text:
        return frozenset()
    locations = game_map.locations
    return frozenset(province_of(word) for word in text.split() if word in locations)


def order_seen(game_map: GameMap, line: Mapping[str, Any], power: str, seen: Collection[str]) -> bool:
    """Whether ``power`` sees one result line (``{"power", "order", ...}``): its own lines always; a
    rival's when the order was read and names a province in ``seen``."""
    if line.get("power") == power:
        return True
    return any(p in seen for p in named_provinces(game_map, line.get("order")))


def fog_result(
    result: Mapping[str, Any], game_map: GameMap, power: str, seen: Collection[str]
) -> dict[str, Any]:
    """A phase's result (the engine's JSON) as ``power`` sees it, ``seen`` being the provinces it sees
    (gm passes those seen at the phase's start and after it). The orders it sees (:func:`order_seen`);
    the next board's units, centers and dislodgements in ``seen``; its own adjustments; the winner and
    the phases as they are (the end of a game is no secret)."""
    out = dict(result)
    out["orders"] = [line for line in result.get("orders") or () if order_seen(game_map, line, power, seen)]
    out["units"] = _in_seen(result.get("units") or {}, seen, lambda text: text.split()[-1])
    out["centers"] = _in_seen(result.get("centers") or {}, seen, lambda code: code)
    out["dislodged"] = {
        p: kept
        for p, entries in sorted((result.get("dislodged") or {}).items())
        if (kept := {u: e for u, e in entries.items() if province_of(u.split()[-1]) in seen})
    }
    out["adjustments"] = {p: n for p, n in (result.get("adjustments") or {}).items() if p == power}
    return out


def _in_seen(
    by_power: Mapping[str, Iterable[str]], seen: Collection[str], where: Callable[[str], str]
) -> dict[str, list[str]]:
    kept = {p: [item for item in items if province_of(where(item)) in seen] for p, items in by_power.items()}
    return {p: items for p, items in kept.items() if items}
