"""The built-in player (engine.player): a complete set of legal orders for any power, phase and
variant, the same for the same seed in any process, and play a person would call sensible: no
unit bounces off its own side, attacks are supported, threatened centres are covered, retreats and
builds go where they are worth most. How strong and how fast it is: bench/player.py."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from engine import Board, adjudicate, all_variants, initial_board, legal_orders
from engine.legal import LegalOrder
from engine.mapdata import province_of
from engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
    format_order,
)
from engine.player import choose_orders, random_orders
from engine.player.memory import bounce_streaks, empty_bounces

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = sorted(v.name for v in all_variants() if v.playable())


def board_of(
    phase: str, units: dict[str, list[str]], centers: dict[str, list[str]], **extra: object
) -> Board:
    return Board.from_json({"phase": phase, "units": units, "centers": centers, **extra})


def texts(orders: Sequence[LegalOrder]) -> list[str]:
    return [o.text for o in orders]


def check_complete_and_legal(board: Board, power: str, orders: Sequence[LegalOrder]) -> None:
    """Every order is listed by legal_orders, and they are what the phase asks of the power."""
    legal = legal_orders(board, power)
    for order in orders:
        assert legal.find(order.text) is not None, f"{board.phase} {power}: {order.text} is not legal"
    if legal.reason:  # a neutral power (the 1914 game's Italy): nothing to order
        assert not orders
        return
    kind = board.phase.kind
    if kind == "M":
        ordered = sorted(o.order.unit.location for o in orders if o.order.unit is not None)
        assert ordered == sorted(u.location for u in board.units.get(power, ()))
        assert all(isinstance(o.order, Hold | Move | SupportHold | SupportMove | Convoy) for o in orders)
        # no bouncing off its own units: one mover per province, none into a province one of ours keeps
        moves = [o.order for o in orders if isinstance(o.order, Move)]
        targets = [province_of(m.dest) for m in moves]
        assert len(targets) == len(set(targets)), (
            f"{board.phase} {power}: two moves into one place {texts(orders)}"
        )
        staying = {o.order.unit.province for o in orders if not isinstance(o.order, Move) and o.order.unit}
        assert not staying & set(targets), f"{board.phase} {power}: a move into its own unit {texts(orders)}"
        for m in moves:  # nor a swap by land
            back = next((n for n in moves if n.unit.province == province_of(m.dest)), None)
            assert (
                back is None or province_of(back.dest) != m.unit.province or m.via_convoy or back.via_convoy
            )
    elif kind == "R":
        ordered = sorted(o.order.unit.location for o in orders if o.order.unit is not None)
        assert ordered == sorted(d.unit.location for d in board.dislodged_of(power))
        places = [province_of(o.order.dest) for o in orders if isinstance(o.order, Retreat)]
        assert len(places) == len(set(places)), f"two of {power}'s units retreat to one place"
    else:
        due = legal.due
        builds = [o.order for o in orders if isinstance(o.order, Build)]
        waives = [o.order for o in orders if isinstance(o.order, Waive)]
        removals = [o.order for o in orders if isinstance(o.order, Remove)]
        if due > 0:
            assert len(builds) + len(waives) == due and not removals
            sites = [build.unit.province for build in builds]
            assert len(sites) == len(set(sites))
        elif due < 0:
            assert len(removals) == -due and not builds and not waives
            assert len({removal.unit.province for removal in removals}) == -due
        else:
            assert not orders


def play_and_check(board: Board, years: int, seed: int, mix: float, level: str = "normal") -> int:
    """Play ``years`` years, each power's orders by the built-in player (or, with chance ``mix``
    per power and phase, at random), checking every set of orders and that the adjudicator finds
    none invalid. Returns the number of sets checked."""
    rng = random.Random(seed)
    last = board.phase.year + years
    checked = 0
    while board.phase.year < last:
        orders = {}
        for power in board.game_map.powers:
            if rng.random() < mix:
                orders[power] = [o.order for o in random_orders(board, power, rng)]
                continue
            chosen = choose_orders(board, power, seed, level=level)
            check_complete_and_legal(board, power, chosen)
            checked += 1
            orders[power] = [o.order for o in chosen]
        result = adjudicate(board, orders)
        invalid = [r for r in result.results if r.status == "invalid"]
        assert not invalid, f"{board.phase}: {invalid}"
        if result.next_phase is None:
            break
        board = result.board
    return checked


# --- complete and legal, everywhere --------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_gets_complete_legal_orders_in_every_phase(variant: str) -> None:
    """Games of every variant, the built-in players mixed with random ones (so positions stray
    from the usual), every phase: each set of orders is complete and legal."""
    checked = 0
    for seed in range(2):
        checked += play_and_check(initial_board(variant), years=6, seed=seed, mix=0.3)
    assert checked > 50


@pytest.mark.parametrize("level", ["easy", "hard"])
@pytest.mark.parametrize("variant", ["standard", "chaos", "youngstown"])
def test_the_other_levels_give_complete_legal_orders_too(variant: str, level: str) -> None:
    checked = play_and_check(initial_board(variant), years=3, seed=5, mix=0.3, level=level)
    assert checked > 20


def random_board(rng: random.Random, variant: str, kind: str) -> Board:
    """A random position of ``variant`` in a phase of ``kind``: units on half the provinces for
    random powers, centres owned at random, in a retreat phase dislodged units with random options."""
    gm = initial_board(variant).game_map
    units: dict[str, list[str]] = {}
    occupied = set()
    for code in sorted(gm.provinces):
        prov = gm.provinces[code]
        if rng.random() < 0.5:
            continue
        kinds = (["A"] if prov.is_land else []) + (["F"] if prov.has_coast else [])
        unit_type = rng.choice(kinds)
        location = rng.choice(prov.locations) if unit_type == "F" else code
        units.setdefault(rng.choice(gm.powers), []).append(f"{unit_type} {location}")
        occupied.add(code)
    centers: dict[str, list[str]] = {}
    for centre in sorted(gm.supply_centers):
        if rng.random() < 0.8:
            centers.setdefault(rng.choice(gm.powers), []).append(centre)
    year = initial_board(variant).phase.year + 2
    data: dict[str, object] = {"variant": variant, "units": units, "centers": centers}
    if kind == "M":
        data["phase"] = f"{rng.choice('SF')}{year:04d}M"
    elif kind == "A":
        data["phase"] = f"W{year:04d}A"
    else:
        data["phase"] = f"{rng.choice('SF')}{year:04d}R"
        dislodged: dict[str, dict[str, object]] = {}
        free = [c for c in sorted(gm.provinces) if c not in occupied]
        for _ in range(rng.randrange(1, 5)):
            if not free:
                break
            code = free.pop(rng.randrange(len(free)))
            prov = gm.provinces[code]
            unit_type = "A" if prov.is_land and (not prov.has_coast or rng.random() < 0.5) else "F"
            location = rng.choice(prov.locations) if unit_type == "F" else code
            reach = sorted(gm.neighbours(unit_type, location))
            options = [r for r in reach if province_of(r) not in occupied and rng.random() < 0.6]
            dislodged.setdefault(rng.choice(gm.powers), {})[f"{unit_type} {location}"] = {
                "attacker_from": None,
                "retreats": options,
            }
            occupied.add(code)
        data["dislodged"] = dislodged
    return Board.from_json(data)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("kind", ["M", "R", "A"])
def test_random_positions_of_every_variant_get_complete_legal_orders(variant: str, kind: str) -> None:
    """Positions no game would reach (units anywhere, centres owned by anyone, too many or too few
    units, dislodged units with few or no options): still a complete set of legal orders."""
    rng = random.Random(f"{variant}{kind}")
    for _ in range(6):
        board = random_board(rng, variant, kind)
        orders = {}
        for power in board.game_map.powers:
            chosen = choose_orders(board, power, seed=rng.randrange(100))
            check_complete_and_legal(board, power, chosen)
            orders[power] = [o.order for o in chosen]
        result = adjudicate(board, orders)
        assert not [r for r in result.results if r.status == "invalid"]


# --- the same orders for the same seed -------------------------------------------------------------------

GAME_SCRIPT = """
import json, sys
from engine import adjudicate, initial_board
from engine.player import choose_orders
board = initial_board(sys.argv[1])
seen = []
for _ in range(int(sys.argv[2])):
    orders = {p: choose_orders(board, p, seed=7) for p in board.game_map.powers}
    seen.append({p: [o.text for o in os] for p, os in orders.items()})
    result = adjudicate(board, {p: [o.order for o in os] for p, os in orders.items()})
    if result.next_phase is None:
        break
    board = result.board
print(json.dumps(seen))
"""


def run_game(variant: str, phases: int, hash_seed: str) -> list[dict[str, list[str]]]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    out = subprocess.run(
        [sys.executable, "-c", GAME_SCRIPT, variant, str(phases)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def test_the_same_seed_gives_the_same_orders_in_any_process() -> None:
    """Worker processes differ in their string hashing: the orders must not depend on it."""
    first = run_game("standard", 12, "1")
    assert len(first) == 12
    assert run_game("standard", 12, "2") == first
    assert run_game("standard", 12, "3") == first


def test_the_same_seed_gives_the_same_orders_twice_and_another_seed_may_differ() -> None:
    board = initial_board("standard")
    boards = [board]
    for _ in range(8):
        result = adjudicate(
            board, {p: [o.order for o in choose_orders(board, p)] for p in board.game_map.powers}
        )
        board = result.board
        boards.append(board)
    differ = False
    for b in boards:
        for power in b.game_map.powers:
            once = texts(choose_orders(b, power, seed=3))
            assert texts(choose_orders(b, power, seed=3)) == once
            differ |= texts(choose_orders(b, power, seed=4)) != once
    assert differ  # the seed is used: some choice fell the other way


# --- edge cases --------------------------------------------------------------------------------------------


def test_a_dislodged_unit_with_nowhere_to_go_disbands() -> None:
    board = board_of(
        "F1901R",
        {"TURKEY": ["A BUL", "F BLA"], "RUSSIA": ["A RUM"]},
        {},
        dislodged={"AUSTRIA": {"A SER": {"attacker_from": "BUL", "retreats": []}}},
    )
    orders = choose_orders(board, "AUSTRIA")
    assert texts(orders) == ["A SER D"]
    assert isinstance(orders[0].order, Disband)


def test_two_dislodged_units_never_retreat_to_the_same_place() -> None:
    board = board_of(
        "S1902R",
        {"GERMANY": ["A MUN", "A BER"], "RUSSIA": ["A WAR"]},
        {"AUSTRIA": ["VIE", "BUD", "TRI"]},
        dislodged={
            "AUSTRIA": {
                "A BOH": {"attacker_from": "MUN", "retreats": ["GAL"]},
                "A SIL": {"attacker_from": "BER", "retreats": ["GAL"]},
            }
        },
    )
    orders = texts(choose_orders(board, "AUSTRIA"))
    assert sorted(orders) in (["A BOH D", "A SIL R GAL"], ["A BOH R GAL", "A SIL D"])


def test_a_power_with_no_free_home_centre_builds_nothing_and_one_with_one_builds_one() -> None:
    full = board_of(
        "W1901A",
        {"RUSSIA": ["A MOS", "A WAR", "F SEV", "F STP/SC"]},
        {"RUSSIA": ["MOS", "WAR", "SEV", "STP", "RUM", "SWE"]},
    )
    assert choose_orders(full, "RUSSIA") == ()
    one_free = board_of(
        "W1901A",
        {"RUSSIA": ["A MOS", "A WAR", "F SEV"]},
        {"RUSSIA": ["MOS", "WAR", "SEV", "STP", "RUM", "SWE"]},
    )
    orders = texts(choose_orders(one_free, "RUSSIA"))
    assert orders in (["A STP B"], ["F STP/NC B"], ["F STP/SC B"])


def test_builds_owed_beyond_the_sites_it_wants_are_waived() -> None:
    board = board_of("W1901A", {"FRANCE": []}, {"FRANCE": ["PAR", "BRE", "MAR"]})
    orders = choose_orders(board, "FRANCE")
    assert len(orders) == 3
    assert {province_of(o.order.unit.province) for o in orders if isinstance(o.order, Build)} <= {
        "PAR",
        "BRE",
        "MAR",
    }
    check_complete_and_legal(board, "FRANCE", orders)


def test_a_power_that_must_remove_removes_exactly_that_many_and_keeps_its_guards() -> None:
    board = board_of(
        "W1903A",
        {
            "FRANCE": ["A PAR", "A MAR", "F BRE", "A PIE", "F NAF"],
            "GERMANY": ["A BUR", "A RUH"],
        },
        {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["BER", "MUN", "KIE", "HOL", "BEL"]},
    )
    orders = choose_orders(board, "FRANCE")
    assert len(orders) == 2 and all(isinstance(o.order, Remove) for o in orders)
    removed = {o.order.unit.province for o in orders if isinstance(o.order, Remove)}  # all are, as checked
    assert "PAR" not in removed  # Paris is next to two German armies: its army stays


def test_build_anywhere_builds_in_a_centre_that_is_not_home() -> None:
    """Chaos: Paris's home is taken, but it owns Belgium, which stands empty."""
    board = board_of(
        "W1901A",
        {"PARIS": ["A PAR"], "LONDON": ["F ENG"]},
        {"PARIS": ["PAR", "BEL"], "LONDON": ["LON"]},
        variant="chaos",
    )
    orders = texts(choose_orders(board, "PARIS"))
    assert orders in (["A BEL B"], ["F BEL B"])


def test_a_neutral_power_of_the_1914_game_gets_no_orders() -> None:
    board = initial_board("ww1914")
    assert choose_orders(board, "ITALY") == ()
    assert legal_orders(board, "ITALY").reason


def test_a_power_without_units_orders_nothing_and_an_unknown_power_is_refused() -> None:
    board = board_of("S1905M", {"FRANCE": ["A PAR"]}, {"FRANCE": ["PAR"], "ITALY": ["ROM"]})
    assert choose_orders(board, "ITALY") == ()
    with pytest.raises(ValueError):
        choose_orders(board, "ATLANTIS")


# --- how it plays --------------------------------------------------------------------------------------


def test_it_takes_a_held_centre_with_a_supported_attack() -> None:
    """A unit of a power in civil disorder holds in Belgium; France has two armies next to it."""
    board = board_of(
        "F1903M",
        {"FRANCE": ["A PIC", "A BUR"], "GERMANY": ["A BEL"]},
        {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["BEL", "BER", "MUN", "KIE"]},
    )
    orders = choose_orders(board, "FRANCE", holding={"GERMANY"})
    result = adjudicate(board, {"FRANCE": [o.order for o in orders]}, civil_disorder=["GERMANY"])
    assert result.board.unit_at("BEL") is not None and result.board.owner_at("BEL") == "FRANCE", texts(orders)
    if result.next_phase is not None and result.next_phase.kind == "R":  # Germany's army disbands
        result = adjudicate(result.board, {}, civil_disorder=["GERMANY"])
    assert "BEL" in result.board.centers["FRANCE"]


def test_an_army_crosses_the_sea_in_its_own_fleet() -> None:
    """England's army in Yorkshire has nowhere to go by land; Norway is empty across the North Sea."""
    board = board_of(
        "S1902M",
        {"ENGLAND": ["A YOR", "F NTH"], "RUSSIA": ["A MOS"]},
        {"ENGLAND": ["LON", "EDI", "LVP"], "RUSSIA": ["MOS"]},
    )
    orders = texts(choose_orders(board, "ENGLAND"))
    moves = [o for o in orders if o.startswith("A YOR - ")]
    assert moves and moves[0].endswith(" VIA"), orders
    dest = moves[0].split(" - ")[1].removesuffix(" VIA")
    assert f"F NTH C A YOR - {dest}" in orders


def test_it_covers_an_empty_centre_a_neighbour_could_walk_into() -> None:
    """Fall: a German army in Burgundy could walk into an empty Paris; a French army is next to it."""
    board = board_of(
        "F1902M",
        {"FRANCE": ["A PIC", "F MAO", "A MAR"], "GERMANY": ["A BUR", "A MUN"]},
        {"FRANCE": ["PAR", "BRE", "MAR", "SPA"], "GERMANY": ["BER", "MUN", "KIE"]},
    )
    orders = texts(choose_orders(board, "FRANCE"))
    assert "A PIC - PAR" in orders, orders


def test_it_supports_instead_of_bouncing_its_own_units() -> None:
    """Both French armies want Belgium, empty but contested: one goes, the other supports it."""
    board = board_of(
        "F1901M",
        {"FRANCE": ["A PIC", "A BUR"], "GERMANY": ["A RUH"], "ENGLAND": ["F NTH"]},
        {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["BER", "MUN", "KIE"], "ENGLAND": ["LON"]},
    )
    orders = texts(choose_orders(board, "FRANCE"))
    into_bel = [o for o in orders if o.endswith("- BEL") and " S " not in o]
    assert len(into_bel) == 1, orders
    assert any(" S " in o and o.endswith(f"{into_bel[0].split(' - ')[0]} - BEL") for o in orders), orders


# --- levels and memory ------------------------------------------------------------------------------


def test_an_unknown_level_is_refused_and_each_level_repeats_itself() -> None:
    board = initial_board("standard")
    with pytest.raises(ValueError, match="unknown level 'expert'"):
        choose_orders(board, "FRANCE", level="expert")
    for level in ("easy", "normal", "hard"):
        once = texts(choose_orders(board, "FRANCE", 3, level=level))
        assert texts(choose_orders(board, "FRANCE", 3, level=level)) == once


STALEMATE = {
    "phase": "F1905M",
    "units": {"ITALY": ["F LYO", "A VEN"], "FRANCE": ["F MAR", "A GAS"]},
    "centers": {"ITALY": ["ROM", "NAP", "VEN", "TUN"], "FRANCE": ["PAR", "BRE", "MAR"]},
}


def test_a_move_that_bounced_twice_into_an_empty_province_is_not_made_a_third_time() -> None:
    """Italy's fleet and France's both want an empty Spain; Italy is told its move bounced twice."""
    board = Board.from_json(STALEMATE)
    for level in ("normal", "hard"):
        fresh = texts(choose_orders(board, "ITALY", level=level))
        assert "F LYO - SPA/SC" in fresh, fresh  # what it does when it remembers nothing
        told = texts(choose_orders(board, "ITALY", level=level, bounced={"F LYO - SPA/SC": 2}))
        assert "F LYO - SPA/SC" not in told, told
        check_complete_and_legal(
            board, "ITALY", choose_orders(board, "ITALY", level=level, bounced={"F LYO - SPA/SC": 2})
        )


def test_the_memory_counts_bounces_into_an_empty_province_in_a_row() -> None:
    board = Board.from_json(STALEMATE)
    orders = {"ITALY": ["F LYO - SPA/SC", "A VEN H"], "FRANCE": ["F MAR - SPA/SC", "A GAS - BRE"]}
    result = adjudicate(board, orders)
    lines = [(r.power, format_order(r.order) if r.order else None, r.status) for r in result.results]
    bounced = empty_bounces(board, lines, result.board.occupant)
    assert bounced == {"ITALY": {"F LYO - SPA/SC"}, "FRANCE": {"F MAR - SPA/SC"}}
    assert bounce_streaks([bounced, bounced])["ITALY"] == {"F LYO - SPA/SC": 2}
    assert bounce_streaks([bounced, {}, bounced])["ITALY"] == {"F LYO - SPA/SC": 1}  # not in a row
    # a move that failed into a province someone stands in is no bounce into an empty one
    held = {"ITALY": ["F LYO - MAR", "A VEN H"], "FRANCE": ["F MAR H", "A GAS H"]}
    result = adjudicate(board, held)
    lines = [(r.power, format_order(r.order) if r.order else None, r.status) for r in result.results]
    assert empty_bounces(board, lines, result.board.occupant) == {}


def test_no_circle_of_its_own_units_in_self_play() -> None:
    """Seven normal players, five years: no power ever orders its units round in a circle."""
    board = initial_board("standard")
    while board.phase.year < 1906:
        orders = {p: [o.order for o in choose_orders(board, p, 11)] for p in board.game_map.powers}
        for moves in orders.values():
            step = {m.unit.province: province_of(m.dest) for m in moves if isinstance(m, Move)}
            for start in step:
                prov, seen = step[start], 0
                while prov in step and prov != start and seen < len(step):
                    prov, seen = step[prov], seen + 1
                assert prov != start, f"{board.phase}: a circle {step}"
        board = adjudicate(board, orders).board


CIRCLE = {
    "phase": "F1911M",
    "units": {
        "AUSTRIA": ["A BUD"],
        "ENGLAND": ["F EDI", "A YOR", "F STP/NC"],
        "FRANCE": [
            "F BEL",
            "A RUH",
            "F NWG",
            "F TYS",
            "F NWY",
            "F NTH",
            "F HOL",
            "F ENG",
            "A BUR",
            "A PAR",
            "A UKR",
        ],
        "GERMANY": ["F BAL", "F DEN", "F KIE", "A MUN"],
        "ITALY": ["F GRE", "A TRI", "A VIE", "F ION", "F ALB", "A TYR"],
        "RUSSIA": ["A RUM", "A WAR", "A MOS", "F SWE"],
        "TURKEY": ["F BLA", "A BUL", "A CON", "F AEG"],
    },
    "centers": {
        "AUSTRIA": ["BUD"],
        "ENGLAND": ["EDI", "LVP", "STP"],
        "FRANCE": ["BEL", "BRE", "HOL", "LON", "MAR", "MOS", "NWY", "PAR", "POR", "SPA", "TUN"],
        "GERMANY": ["BER", "DEN", "KIE", "MUN"],
        "ITALY": ["GRE", "NAP", "ROM", "TRI", "VEN", "VIE"],
        "RUSSIA": ["RUM", "SEV", "SWE", "WAR"],
        "TURKEY": ["ANK", "BUL", "CON", "SMY"],
    },
}


def _circle(orders: Sequence[LegalOrder]) -> list[str] | None:
    step = {o.order.unit.province: province_of(o.order.dest) for o in orders if isinstance(o.order, Move)}
    for start in step:
        ring, prov = [start], step[start]
        while prov in step and prov not in ring:
            ring.append(prov)
            prov = step[prov]
        if prov == start:
            return ring
    return None


def test_no_circle_of_its_own_units_that_would_leave_the_position_as_it_was() -> None:
    """Germany's three fleets in Baltic, Denmark and Kiel: the easy player moves them round (BAL -
    DEN, DEN - KIE, KIE - BAL), which leaves the position as it was; the other levels never do."""
    board = Board.from_json(CIRCLE)
    easy = choose_orders(board, "GERMANY", 0, level="easy")
    assert _circle(easy) is not None, texts(easy)  # the fault this position shows
    for level in ("normal", "hard"):
        for seed in range(4):
            orders = choose_orders(board, "GERMANY", seed, level=level)
            assert _circle(orders) is None, (level, seed, texts(orders))
            check_complete_and_legal(board, "GERMANY", orders)


def test_it_does_not_walk_into_an_empty_province_two_armies_of_another_power_could_enter() -> None:
    """Spring 1901: Munich's army could go to Burgundy, which France's armies in Paris and Marseilles
    could enter too (the classic bounce); the easy player goes there, the normal player elsewhere."""
    board = initial_board("standard")
    for seed in range(3):
        easy = texts(choose_orders(board, "GERMANY", seed, level="easy"))
        assert "A MUN - BUR" in easy, easy  # what the discount changes
        normal = texts(choose_orders(board, "GERMANY", seed, level="normal"))
        assert not any(o.startswith("A MUN - ") and o.endswith("BUR") for o in normal), normal
        assert any(o.startswith("A MUN - ") for o in normal), normal  # it still moves


def test_in_chaos_centres_change_hands_where_the_easy_player_freezes() -> None:
    """Chaos, 34 powers of one unit and one home centre each, five years: at the easy level every
    unit keeps to its centre and no centre ever changes hands; at the normal level some do (a lone
    unit now and then leaves its centre to attack a neighbour's)."""

    def captures(level: str) -> int:
        board = initial_board("chaos")
        changed = 0
        while board.phase.year < 1906:
            orders = {
                p: [o.order for o in choose_orders(board, p, 3, level=level)] for p in board.game_map.powers
            }
            after = adjudicate(board, orders).board
            owner = {c: p for p, cs in board.centers.items() for c in cs}
            changed += sum(1 for p, cs in after.centers.items() for c in cs if owner.get(c, p) != p)
            board = after
        return changed

    assert captures("easy") == 0
    assert captures("normal") >= 5


def test_it_turns_on_a_power_close_to_a_solo() -> None:
    """Fall: Germany's army in the Ruhr could take England's empty Holland, or France's Belgium,
    empty too but which France's army in Picardy could enter (it may bounce). With France at 8
    centres it takes Holland; with France at 12, a leader, it goes for Belgium (stop the leader)."""
    france = ["BEL", "PAR", "BRE", "MAR", "SPA", "POR", "TUN", "NAP", "ROM", "VEN", "LON", "LVP"]
    england = ["HOL", "DEN", "NWY", "SWE", "STP", "WAR", "SEV", "MOS", "RUM"]

    def orders(france_centres: int, seed: int) -> list[str]:
        board = board_of(
            "F1910M",
            {"GERMANY": ["A RUH"], "FRANCE": ["A PIC"], "ENGLAND": ["F NWG"]},
            {"GERMANY": ["BER", "KIE", "MUN"], "FRANCE": france[:france_centres], "ENGLAND": england},
        )
        return texts(choose_orders(board, "GERMANY", seed))

    for seed in range(4):
        assert orders(8, seed) == ["A RUH - HOL"], seed
        assert orders(12, seed) == ["A RUH - BEL"], seed


def test_in_a_fall_hard_moves_its_units_off_the_home_centres_where_its_builds_are_due() -> None:
    """Fall: Germany owns six centres and has three units, two of them on Berlin and Munich; no other
    power's unit can reach its home centres this fall. Three builds are coming; at the hard level its
    units leave the home centres free for them (a unit left on one costs a build). Where an enemy
    could walk in, a unit may stay: hard weighs a blocked build as much as a centre lost
    (engine.player.lookahead.BLOCKED)."""
    board = board_of(
        "F1903M",
        {"GERMANY": ["A MUN", "A BER", "F DEN"], "RUSSIA": ["A WAR"], "FRANCE": ["A PAR"]},
        {
            "GERMANY": ["BER", "KIE", "MUN", "DEN", "HOL", "SWE"],
            "RUSSIA": ["WAR", "MOS", "SEV", "STP"],
            "FRANCE": ["PAR", "MAR", "BRE"],
        },
    )
    for seed in range(3):
        orders = choose_orders(board, "GERMANY", seed, level="hard")
        after = adjudicate(board, {"GERMANY": [o.order for o in orders]}).board
        assert after.phase.kind == "A", texts(orders)
        builds = legal_orders(after, "GERMANY")
        assert builds.due == 3, texts(orders)
        free = [h for h in ("BER", "KIE", "MUN") if after.unit_at(h) is None]
        assert len(free) == 3, (seed, texts(orders))
