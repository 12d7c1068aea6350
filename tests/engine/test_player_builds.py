"""The hard level's builds by where the next centres are (engine.player.builds, switch ``TARGETS``,
off by default). Their strength and their cost in self-play: the README's table of switches."""

from __future__ import annotations

import pytest

from engine import Board
from engine.player import builds, choose_orders

# Winter 1906 (one hard Germany against six baselines, seed 3): one build due, in Berlin only (its one
# free home centre), with Russia's army in Silesia and Warsaw, Moscow and Paris to take by land
GERMANY_BUILDS = {
    "phase": "W1906A",
    "units": {
        "AUSTRIA": ["A TYR", "F NAP", "A SER", "A BUD"],
        "ENGLAND": ["F SWE", "A YOR", "F LON", "F NTH"],
        "FRANCE": ["F ENG", "A PAR", "A BUR"],
        "GERMANY": ["F HOL", "A KIE", "A MUN", "A BEL"],
        "ITALY": ["F GRE", "A VEN", "F ION", "A PIE"],
        "RUSSIA": ["A SIL", "A UKR", "A RUM", "F NWY", "F DEN", "A ALB", "F SKA"],
        "TURKEY": ["A BUL", "A ARM", "F AEG", "F SEV", "F CON"],
    },
    "centers": {
        "AUSTRIA": ["BUD", "NAP", "SER", "TRI", "VIE"],
        "ENGLAND": ["EDI", "LON", "LVP", "SWE"],
        "FRANCE": ["BRE", "MAR", "PAR"],
        "GERMANY": ["BEL", "BER", "HOL", "KIE", "MUN"],
        "ITALY": ["GRE", "ROM", "TUN", "VEN"],
        "RUSSIA": ["DEN", "MOS", "NWY", "RUM", "STP", "WAR"],
        "TURKEY": ["ANK", "BUL", "CON", "SEV", "SMY"],
    },
}


def _builds(seed: int) -> list[str]:
    return [o.text for o in choose_orders(Board.from_json(GERMANY_BUILDS), "GERMANY", seed, level="hard")]


@pytest.mark.parametrize("seed", range(4))
def test_with_targets_hard_germany_builds_an_army_where_its_next_centres_are_on_land(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(builds, "TARGETS", 0.5)
    assert _builds(seed) == ["A BER B"]


def test_without_targets_hard_germany_builds_a_fleet_in_berlin(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same winter without ``TARGETS``: the normal player's fleet."""
    monkeypatch.setattr(builds, "TARGETS", None)
    assert _builds(0) == ["F BER B"]


def test_hard_germany_builds_by_its_next_centres_by_default() -> None:
    """``TARGETS`` is on for Germany (among ``TARGETS_POWERS``) at the hard level."""
    assert builds.TARGETS is not None and "GERMANY" in (builds.TARGETS_POWERS or ())
    assert _builds(0) == ["A BER B"]


def test_targets_powers_limits_the_builds_by_targets_to_the_powers_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``TARGETS_POWERS``: only the powers named build by the next centres; Germany, not named,
    builds the normal player's fleet again."""
    monkeypatch.setattr(builds, "TARGETS", 0.5)
    monkeypatch.setattr(builds, "TARGETS_POWERS", ("GERMANY", "RUSSIA"))
    assert _builds(0) == ["A BER B"]
    monkeypatch.setattr(builds, "TARGETS_POWERS", ("RUSSIA",))
    assert _builds(0) == ["F BER B"]
