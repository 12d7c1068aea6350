"""The move resolver ends with every decision settled: none left as a guess, nothing owed.

A decision that read a guess stays provisional only while that guess is open; once the cycle it
belongs to is settled, so is it. Checked on every DATC case and on random positions full of
convoys and supports, where cycles abound (DATC 6.F.20, 6.G.15 and 6.G.18 once ended with a
decision still marked as a guess).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine import adjudicate_json, load_map
from engine.adjudicator import movement
from tests.engine.datc.cases import load_cases

GM = load_map("standard")
SEAS = sorted(p for p in GM.provinces if GM.is_sea(p))
COASTS = sorted(p for p in GM.provinces if GM.is_coastal(p))


@pytest.fixture
def resolvers(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[movement.MovementResolver]]:
    """Every MovementResolver that resolves a phase while the test runs."""
    seen: list[movement.MovementResolver] = []
    original = movement.MovementResolver.resolve_all

    def resolve_all(self: movement.MovementResolver) -> None:
        original(self)
        seen.append(self)

    monkeypatch.setattr(movement.MovementResolver, "resolve_all", resolve_all)
    yield seen


def unsettled(resolver: movement.MovementResolver) -> list[str]:
    return [str(resolver.orders[i]) for i in resolver.unsettled()]


def test_every_decision_of_every_datc_case_is_settled(resolvers: list[movement.MovementResolver]) -> None:
    left = {}
    for case in load_cases():
        request: dict[str, Any] = case.request()
        for step in case.steps:
            request["orders"] = step.orders
            out = adjudicate_json(request)
            retreats = out["dislodged"] if (out["next_phase"] or "").endswith("R") else {}
            request = {**out, "phase": out["next_phase"], "dislodged": retreats}
        for resolver in resolvers:
            if unsettled(resolver):
                left[case.id] = unsettled(resolver)
        resolvers.clear()
    assert left == {}


LAND = sorted(p for p in GM.provinces if not GM.is_sea(p))
TRIANGLES = sorted(
    {tuple(sorted((a, b, c))) for a in LAND for b in GM.army_adjacency[a] for c in GM.army_adjacency[b]
     if c in GM.army_adjacency[a] and len({a, b, c}) == 3}
)  # fmt: skip


def rings(rng: random.Random) -> dict[str, Any]:
    """Rings of three armies moving round (each move waits on the next: a cycle), with attacks and
    supports into the ring from units listed first, so that those open the decisions and the rings
    are settled inside them."""
    taken: set[str] = set()
    units: dict[str, list[str]] = {GM.powers[0]: []}
    orders: dict[str, list[str]] = {GM.powers[0]: []}
    ring_moves = []
    for triangle in rng.sample(TRIANGLES, 12):
        if taken.intersection(triangle):
            continue
        taken.update(triangle)
        a, b, c = rng.sample(triangle, 3)
        for src, dst in ((a, b), (b, c), (c, a)):
            power = rng.choice(GM.powers[1:])
            units.setdefault(power, []).append(f"A {src}")
            orders.setdefault(power, []).append(f"A {src} - {dst}")
            ring_moves.append((src, dst))
    outsider = GM.powers[0]
    for src, dst in ring_moves:
        for near in sorted(GM.army_adjacency[dst] - taken):
            if rng.random() < 0.6:
                continue
            taken.add(near)
            units[outsider].append(f"A {near}")
            orders[outsider].append(
                rng.choice([f"A {near} - {dst}", f"A {near} S A {src} - {dst}", f"A {near} H"])
            )
    return {"phase": "S1901M", "units": units, "centers": {}, "orders": orders}


def convoy_heavy(rng: random.Random) -> dict[str, Any]:
    """Fleets in most seas, armies on most coasts: convoys, convoyed attacks and supports of them."""
    units: dict[str, list[str]] = {}
    for sea in rng.sample(SEAS, 14):
        units.setdefault(rng.choice(GM.powers), []).append(f"F {sea}")
    for coast in rng.sample(COASTS, 22):
        units.setdefault(rng.choice(GM.powers), []).append(f"A {coast}")
    moves: list[tuple[str, str]] = []
    orders: dict[str, list[str]] = {}
    for power, us in units.items():
        for unit in us:
            kind, here = unit.split()
            if kind == "A" and rng.random() < 0.6:
                dest = rng.choice(sorted(GM.army_adjacency[here]) + COASTS[:: rng.randint(3, 9)])
                moves.append((here, dest))
                text = f"{unit} - {dest}" + (" VIA" if rng.random() < 0.2 else "")
            elif kind == "F" and moves and rng.random() < 0.7:
                src, dest = rng.choice(moves)
                text = f"{unit} C A {src} - {dest}"
            elif moves and rng.random() < 0.7:
                src, dest = rng.choice(moves)
                text = f"{unit} S {src} - {dest}"
            else:
                text = f"{unit} - {rng.choice(sorted(GM.neighbours(kind, here)))}"
                moves.append((here, text.split()[-1]))
            orders.setdefault(power, []).append(text)
    return {"phase": "S1901M", "units": units, "centers": {}, "orders": orders}


@pytest.mark.parametrize("positions", [rings, convoy_heavy])
def test_every_decision_is_settled_on_random_positions(
    resolvers: list[movement.MovementResolver], positions: Any
) -> None:
    rng = random.Random(20)
    left = []
    for n in range(400):
        adjudicate_json(positions(rng))
        if unsettled(resolvers[-1]):
            left.append((n, unsettled(resolvers[-1])))
    assert left == []
