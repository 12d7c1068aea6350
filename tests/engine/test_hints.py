"""Hints that are true: whenever a refusal tells the player to "write" an order, order entry
(engine.enter_order) accepts that order for that power on that board. Checked on random positions,
random orders of every kind, in every kind of phase; plus the cases that used to offer an order the
board refuses (the variants and the winter count: tests/engine/test_entry.py,
tests/gm/ordering/test_gm_entry.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Board, enter_order, load_map
from engine.errors import InvalidOrder, OrderParseError
from tests.helpers.engine import random_order, random_position
from tests.helpers.positions import hinted_orders
from tests.helpers.profiles import examples

GM = load_map("standard")


def refusal(text: str, board: Board, power: str) -> InvalidOrder | None:
    try:
        enter_order(text, board, power)
    except InvalidOrder as exc:
        return exc
    except OrderParseError:
        return None
    return None


def check_hints(board: Board, power: str, text: str) -> int:
    """Assert every order the refusal of ``text`` hints at is accepted; return how many there were."""
    exc = refusal(text, board, power)
    if exc is None or not exc.hint:
        return 0
    hinted = hinted_orders(exc.hint)
    for order in hinted:
        assert refusal(order, board, power) is None, f"{text!r} hints {order!r}: {exc.reason} ({exc.hint})"
        enter_order(order, board, power)  # parses too
    return len(hinted)


def test_the_hint_pattern_finds_the_orders() -> None:
    assert hinted_orders("write F MAO - SPA/NC or F MAO - SPA/SC") == ["F MAO - SPA/NC", "F MAO - SPA/SC"]
    assert hinted_orders("write A MUN - BUR to move it") == ["A MUN - BUR"]
    assert hinted_orders("from there it can reach Spain (north coast): write F GAS - SPA/NC") == [
        "F GAS - SPA/NC"
    ]
    assert hinted_orders("you cannot build this winter (write WAIVE)") == ["WAIVE"]
    assert hinted_orders("write e.g. 'A PAR - BUR'") == []  # an example, no order of this board


@pytest.mark.parametrize(
    ("phase", "units", "power", "text"),
    [
        ("S1901M", {"ENGLAND": ["F LON"]}, "ENGLAND", "F LON - BEL VIA"),  # fleets are not convoyed
        ("S1901M", {"GERMANY": ["F BER"]}, "GERMANY", "F BER - PIE/EC"),  # not a coast problem
        ("S1901M", {"GERMANY": ["A MUN"]}, "GERMANY", "A MUN S A MUN - SPA"),  # its own, unreachable
        ("S1901M", {"GERMANY": ["A MUN"], "FRANCE": ["A SPA"]}, "GERMANY", "A MUN S A SPA - SPA"),
        ("S1901M", {"GERMANY": ["A MUN"]}, "GERMANY", "A MUN R SPA"),  # a retreat in spring
        # a retreat in spring whose move no fleet could carry (it used to hint "write A TRI - STP/NC")
        ("S1901M", {"AUSTRIA": ["A TRI"]}, "AUSTRIA", "A TRI R STP/NC"),
        # builds and a WAIVE from a power that has no build (it used to hint "write WAIVE")
        ("W1901A", {"AUSTRIA": ["A VIE", "A BUD", "F TRI"]}, "AUSTRIA", "A ROM B"),
        ("W1901A", {"AUSTRIA": ["A VIE", "A BUD", "F TRI"]}, "AUSTRIA", "Tri B"),
    ],
)
def test_hints_that_used_to_offer_a_refused_order(phase: str, units: dict, power: str, text: str) -> None:
    board = Board.from_json({"phase": phase, "units": units, "centers": {}})
    exc = refusal(text, board, power)
    assert exc is not None and exc.hint
    check_hints(board, power, text)


def test_an_unreachable_destination_is_said_first() -> None:
    board = Board.from_json({"phase": "S1901M", "units": {"GERMANY": ["F BER"]}, "centers": {}})
    exc = refusal("F BER - PIE/EC", board, "GERMANY")
    assert exc is not None and exc.reason.startswith("F BER cannot reach Piedmont")
    assert "write just PIE" not in (exc.hint or "")


PHASES = ["S1901M", "F1901R", "W1901A"]


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.sampled_from(PHASES))
def test_every_hinted_order_is_accepted(rng: random.Random, phase: str) -> None:
    units = random_position(rng)
    centers: dict[str, list[str]] = {}
    for power, held in units.items():
        centers[power] = sorted({u.split()[1][:3] for u in held} & GM.supply_centers)
    dislodged: dict[str, dict] = {}
    if phase.endswith("R"):  # a few units dislodged, each with the empty neighbours as options
        standing = {u.split()[1][:3] for us in units.values() for u in us}
        for power, held in units.items():
            for unit in held[:1]:
                kind, loc = unit.split()
                options = sorted(o for o in GM.neighbours(kind, loc) if o[:3] not in standing)
                dislodged.setdefault(power, {})[unit] = {"retreats": options}
            units[power] = held[1:]
    board = Board.from_json({"phase": phase, "units": units, "centers": centers, "dislodged": dislodged})
    everyone = [u for us in units.values() for u in us]
    for power, held in units.items():
        for unit in held:
            for text in (
                random_order(rng, unit, everyone or [unit]),
                f"{unit} R {rng.choice(sorted(GM.provinces))}",
            ):
                check_hints(board, power, text)
        for entries in dislodged.get(power, {}):
            check_hints(board, power, f"{entries} R {rng.choice(sorted(GM.provinces))}")
            check_hints(board, power, f"{entries} - {rng.choice(sorted(GM.provinces))} VIA")
        if phase.endswith("A"):
            for code in rng.sample(sorted(GM.supply_centers), 3):
                check_hints(board, power, f"{code} B")
                check_hints(board, power, f"F {code} B")
