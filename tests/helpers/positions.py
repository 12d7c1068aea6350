"""Random positions of every variant in every kind of phase, the lines a player might type there, and
the orders a hint tells the player to write.

Shared by the property tests of order entry (tests/engine/test_entry.py, tests/gm/ordering/test_gm_entry.py)
and bench/entry_truth.py. Units are placed with tests/engine/test_rule_switches.random_units; a
board is sparse or crowded at random (few fleets at sea: convoys that no chain could carry; many:
long chains), supply centers go mostly to the power standing on them, a retreat phase dislodges a
few units with the empty places beside them as options, and a winter has powers that build, remove
or have nothing to do.
"""

from __future__ import annotations

import random
import re

from engine import Board, all_variants, initial_board
from engine.mapdata import province_of
from engine.rules import build_sites
from tests.helpers.boards import random_units

VARIANTS = tuple(v.name for v in all_variants())
KINDS = ("M", "R", "A")
GARBAGE = ("", "hold everything", "A XYZ - PAR", "F - -", "S S S", "💥", "A" * 300)

_ORDER = r"(?:WAIVE|[AF] [A-Z]{3}(?:/[NESW]C)?[^,;()]*?)"
_WRITE = re.compile(rf"\bwrite ({_ORDER}(?: or {_ORDER})*)(?= to |[,;()]|$)")


def hinted_orders(hint: str | None) -> list[str]:
    """The concrete orders a hint tells the player to write ("write A PAR - BUR or A PAR - PIC to
    move", "write WAIVE"); an example ("write e.g. 'A PAR - BUR'") or a pattern ("F BRE S ...") is
    none."""
    found: list[str] = []
    for match in _WRITE.finditer(hint or ""):
        found.extend(part.strip() for part in match[1].split(" or "))
    return [text for text in found if "..." not in text]


def random_board(variant: str, kind: str, rng: random.Random) -> Board:
    """A random position of ``variant`` in a phase of ``kind`` (M, R or A), in the variant's first
    years (ww1914: Italy closed in 1914, open after)."""
    start = initial_board(variant)
    gm = start.game_map
    year = start.phase.year + rng.choice((0, 0, 1, 2))
    season = "W" if kind == "A" else rng.choice("SF")
    units = random_units(gm, rng, share=rng.choice((0.15, 0.3, 0.5)))
    owner = {province_of(u.split()[1]): p for p, us in units.items() for u in us}
    centers: dict[str, list[str]] = {}
    for sc in sorted(gm.supply_centers):
        roll = rng.random()
        holder = owner.get(sc) if roll < 0.6 else rng.choice(gm.powers) if roll < 0.85 else None
        if holder is not None:
            centers.setdefault(holder, []).append(sc)
    dislodged: dict[str, dict[str, dict[str, object]]] = {}
    if kind == "R":
        closed = Board.from_json({"variant": variant, "phase": f"{season}{year:04d}M"}).closed
        for power, held in units.items():
            for text in list(held):
                if rng.random() > 0.2:
                    continue
                held.remove(text)
                unit_type, loc = text.split()
                near = sorted(gm.neighbours(unit_type, loc))
                attacker = province_of(rng.choice(near)) if near and rng.random() < 0.8 else None
                taken = {province_of(u.split()[1]) for us in units.values() for u in us}
                options = [
                    o
                    for o in near
                    if province_of(o) not in taken
                    and province_of(o) != attacker
                    and province_of(o) not in closed
                ]
                dislodged.setdefault(power, {})[text] = {"attacker_from": attacker, "retreats": options}
    return Board.from_json(
        {
            "variant": variant,
            "phase": f"{season}{year:04d}{kind}",
            "units": units,
            "centers": centers,
            "dislodged": dislodged,
        }
    )


# The kinds of line (below) each phase's lines are mostly drawn from: its own kinds of order.
_PICKS = {"M": (0, 1, 2, 3, 4, 5, 6, 7, 8, 14), "R": (1, 2, 9, 9, 10, 14), "A": (10, 11, 12, 13)}


def typed_lines(board: Board, power: str, rng: random.Random, count: int) -> list[str]:
    """``count`` lines ``power`` might type on ``board``: orders of every kind, for its own units and
    others', to places near and far, with types and coasts left out or wrong, a few in the wrong
    phase's form, and some garbage."""
    gm = board.game_map
    provinces = sorted(gm.provinces)
    coastal = [p for p in provinces if gm.is_coastal(p)]
    locations = sorted(gm.locations)
    everyone = [u.text for _, u in board.all_units()] + [
        d.unit.text for ds in board.dislodged.values() for d in ds
    ]
    mine = [u.text for u in board.units.get(power, ())] + [d.unit.text for d in board.dislodged_of(power)]
    centers = sorted(gm.supply_centers)
    homes = build_sites(board, power) if board.phase.kind == "A" else ()
    out = []
    for _ in range(count):
        unit = rng.choice(mine) if mine and rng.random() < 0.85 else rng.choice(everyone or ["A PAR"])
        unit_type, loc = unit.split()
        near = sorted(gm.neighbours(unit_type, loc)) or locations
        other = rng.choice(everyone or [unit])
        other_near = sorted(gm.neighbours(*other.split())) or locations
        site = rng.choice(homes) if homes and rng.random() < 0.6 else rng.choice(centers)
        pick = rng.choice(_PICKS[board.phase.kind]) if rng.random() < 0.8 else rng.randrange(16)
        if pick == 0:
            out.append(f"{unit} H")
        elif pick in (1, 2):
            out.append(f"{unit} - {rng.choice(near)}")
        elif pick == 3:
            out.append(f"{unit} - {rng.choice(coastal)}" + (" VIA" if rng.random() < 0.4 else ""))
        elif pick == 4:
            out.append(f"{loc} - {rng.choice(locations)}")  # the type left out, anywhere
        elif pick == 5:
            out.append(f"{unit} S {other}")
        elif pick in (6, 7):
            dest = rng.choice(other_near) if rng.random() < 0.6 else rng.choice(coastal)
            out.append(f"{unit} S {other} - {province_of(dest) if rng.random() < 0.7 else dest}")
        elif pick == 8:
            out.append(f"{unit} C {other} - {rng.choice(coastal)}")
        elif pick == 9:
            out.append(f"{unit} R {rng.choice(near if rng.random() < 0.7 else locations)}")
        elif pick == 10:
            out.append(f"{unit} D")
        elif pick == 11:
            out.append(rng.choice((f"A {site} B", f"F {site} B", f"{site} B", f"Build {site}")))
        elif pick == 12:
            fleet_at = rng.choice(gm.provinces[site].locations)
            out.append(f"F {fleet_at} B")
        elif pick == 13:
            out.append(rng.choice(("WAIVE", f"{unit}", f"remove {unit}")))
        elif pick == 14:
            out.append(f"{unit} - {rng.choice(locations)} VIA")
        else:
            out.append(rng.choice(GARBAGE))
    return out
