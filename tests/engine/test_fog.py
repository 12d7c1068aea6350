"""Fog of war (engine.fog): what a power sees of a board and of a phase's results, on every variant.

Every variant is played for a few years with random legal orders, and at every board each power's
view is checked against the rule: it sees its units' and centers' provinces and their neighbours
(by land or sea, from any coast), so every unit that could move into one of its provinces, and
nothing two provinces away."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine import Board, adjudicate, initial_board
from engine.adjudication import Adjudication
from engine.fog import fog_board, fog_result, named_provinces, neighbours, visible_provinces
from engine.mapdata import GameMap
from engine.player.random_player import random_orders
from engine.variants import VARIANTS


def played(variant: str, phases: int = 14, seed: int = 7) -> Iterator[tuple[Board, Adjudication]]:
    """Boards of a game of ``variant`` played with random legal orders, each with its adjudication."""
    rng = random.Random(seed)
    board = initial_board(variant)
    for _ in range(phases):
        orders = {p: [o.text for o in random_orders(board, p, rng)] for p in board.game_map.powers}
        out = adjudicate(board, orders)
        yield board, out
        if out.next_phase is None:
            return
        board = out.board


def reach(game_map: GameMap, location: str, unit_type: str) -> set[str]:
    """The provinces a unit of ``unit_type`` at ``location`` may move into by itself."""
    if unit_type == "A":
        return set(game_map.army_adjacency.get(location, ()))
    return set(game_map.fleet_reach.get(location, ()))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_power_sees_its_places_their_neighbours_and_nothing_further(variant: str) -> None:
    boards = 0
    for board, _ in played(variant):
        boards += 1
        game_map = board.game_map
        for power in game_map.powers:
            seen = visible_provinces(board, power)
            mine = {u.province for u in board.units.get(power, ())} | set(board.centers.get(power, ()))
            mine |= {d.unit.province for d in board.dislodged.get(power, ())}
            assert mine <= seen
            # every unit that could walk or sail into one of the power's provinces is in sight
            for rival, unit in board.all_units():
                if reach(game_map, unit.location, unit.type or "A") & mine:
                    assert unit.province in seen, (variant, str(board.phase), power, rival, unit)
            # and nothing it sees is further than one border from where it stands
            for province in seen - mine:
                assert neighbours(game_map, province) & mine, (variant, power, province)
            if not mine:
                assert seen == frozenset()
            view = fog_board(board, power)
            assert view.units.get(power, ()) == board.units.get(power, ())
            assert view.centers.get(power, frozenset()) == board.centers.get(power, frozenset())
            for _, unit in view.all_units():
                assert unit.province in seen
            assert all(d.unit.province in seen for ds in view.dislodged.values() for d in ds)
            assert all(c in seen for cs in view.centers.values() for c in cs)
            hidden = [u for _, u in board.all_units() if u.province not in seen]
            assert len(view.all_units()) + len(hidden) == len(board.all_units())
    assert boards >= 5


def test_france_at_the_start_of_a_standard_game_sees_its_three_centers_and_their_borders() -> None:
    board = initial_board("standard")
    assert visible_provinces(board, "FRANCE") == {
        *("PAR", "MAR", "BRE"),
        *("PIC", "BUR", "GAS", "PIE", "SPA", "LYO", "ENG", "MAO"),
    }
    view = fog_board(board, "FRANCE")
    assert set(view.units) == {"FRANCE"}  # no rival unit stands next to France in 1901
    assert set(view.centers) == {"FRANCE"}


def test_a_fleet_on_one_coast_sees_what_its_province_borders_on_the_other() -> None:
    board = Board.from_json(
        {"phase": "S1902M", "units": {"RUSSIA": ["F STP/SC"], "ENGLAND": ["F BAR"], "GERMANY": ["A SIL"]}}
    )
    seen = visible_provinces(board, "RUSSIA")
    assert {"STP", "BOT", "FIN", "LVN", "NWY", "BAR", "MOS"} == seen  # BAR and NWY lie on the north coast
    assert [str(u) for _, u in fog_board(board, "RUSSIA").all_units()] == ["F STP/SC", "F BAR"]
    spain = Board.from_json({"phase": "S1902M", "units": {"FRANCE": ["F SPA/NC"]}})
    assert {"LYO", "WES", "MAR", "MAO", "POR", "GAS"} <= visible_provinces(spain, "FRANCE")


def test_a_dislodged_unit_still_sees_from_where_it_stood() -> None:
    board = Board.from_json(
        {
            "phase": "F1901R",
            "units": {"GERMANY": ["A BUR"]},
            "dislodged": {"FRANCE": {"A BUR": {"attacker_from": "MUN", "retreats": ["PAR", "PIC"]}}},
        }
    )
    seen = visible_provinces(board, "FRANCE")
    assert {"BUR", "MUN", "RUH", "BEL", "PAR", "PIC"} <= seen
    assert [str(u) for _, u in fog_board(board, "FRANCE").all_units()] == ["A BUR"]


def test_a_result_shows_the_powers_own_orders_and_the_others_that_name_what_it_sees() -> None:
    board = Board.from_json(
        {
            "phase": "F1901M",
            "units": {
                "FRANCE": ["A PAR", "F BRE"],
                "GERMANY": ["A MUN", "A RUH", "F KIE"],
                "RUSSIA": ["A WAR"],
            },
            "centers": {"FRANCE": ["PAR", "BRE"], "GERMANY": ["MUN", "KIE"], "RUSSIA": ["WAR"]},
        }
    )
    orders = {
        "FRANCE": ["A PAR - BUR", "F BRE - MAO"],
        "GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR", "F KIE - DEN"],
        "RUSSIA": ["A WAR - PRU"],
    }
    out = adjudicate(board, orders)
    seen = visible_provinces(board, "FRANCE") | visible_provinces(out.board, "FRANCE")
    view = fog_result(out.to_json(), board.game_map, "FRANCE", seen)
    shown = {(line["power"], line["order"]) for line in view["orders"]}
    assert ("FRANCE", "A PAR - BUR") in shown and ("FRANCE", "F BRE - MAO") in shown
    assert ("GERMANY", "A MUN - BUR") in shown  # its target, Burgundy, is in sight
    assert ("GERMANY", "A RUH S A MUN - BUR") in shown
    assert not any(power == "RUSSIA" for power, _ in shown)
    assert ("GERMANY", "F KIE - DEN") not in shown
    assert "RUSSIA" not in view["units"] and "F DEN" not in view["units"].get("GERMANY", [])
    assert "RUSSIA" not in view["centers"]
    assert named_provinces(board.game_map, "F NTH C A LON - NWY") == {"NTH", "LON", "NWY"}
    assert named_provinces(board.game_map, "F STP/NC B") == {"STP"}
    assert named_provinces(board.game_map, None) == frozenset()


def test_a_result_keeps_only_the_powers_own_adjustments() -> None:
    for board, out in played("standard", phases=8, seed=3):
        result = out.to_json()
        if result["adjustments"]:
            for power in board.game_map.powers:
                seen = visible_provinces(board, power) | visible_provinces(out.board, power)
                view = fog_result(result, board.game_map, power, seen)
                assert set(view["adjustments"]) <= {power}
                assert view["adjustments"].get(power) == result["adjustments"].get(power)
            return
    pytest.fail("no winter with adjustments in the game played")
