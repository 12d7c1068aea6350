"""The hard level's builds by where the next centres are (engine.player.builds: ``TARGETS``, on for
France, Germany and Russia, and ``COMPLEMENT``, on for every power). Their strength and their cost in
self-play: the README's table of switches."""

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
    """The same winter without ``TARGETS`` (nor ``COMPLEMENT``): the normal player's fleet."""
    monkeypatch.setattr(builds, "TARGETS", None)
    monkeypatch.setattr(builds, "COMPLEMENT", None)
    assert _builds(0) == ["F BER B"]


def test_hard_germany_builds_by_its_next_centres_by_default() -> None:
    """``TARGETS`` is on for Germany (among ``TARGETS_POWERS``) at the hard level."""
    assert builds.TARGETS is not None and "GERMANY" in (builds.TARGETS_POWERS or ())
    assert _builds(0) == ["A BER B"]


def test_targets_powers_limits_the_builds_by_targets_to_the_powers_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``TARGETS_POWERS``: only the powers named build by the next centres; Germany, not named,
    builds the normal player's fleet again (without ``COMPLEMENT``)."""
    monkeypatch.setattr(builds, "COMPLEMENT", None)
    monkeypatch.setattr(builds, "TARGETS", 0.5)
    monkeypatch.setattr(builds, "TARGETS_POWERS", ("GERMANY", "RUSSIA"))
    assert _builds(0) == ["A BER B"]
    monkeypatch.setattr(builds, "TARGETS_POWERS", ("RUSSIA",))
    assert _builds(0) == ["F BER B"]


# Winter 1907 (one hard Turkey against six baselines, seed 6): eleven centres, six fleets and two
# armies (in Vienna and Trieste), two builds due in Ankara and Smyrna; Munich, Warsaw and Moscow lie
# inland, Italy's and France's centres on the coast
TURKEY_OF_FLEETS = {
    "phase": "W1907A",
    "units": {
        "AUSTRIA": ["A GAL"],
        "ENGLAND": ["F LON", "F DEN", "A YOR", "F NTH"],
        "FRANCE": ["F BEL", "A BER", "F ENG", "A PIE", "A KIE", "A BOH", "F PIC", "A BUR"],
        "GERMANY": ["F HOL", "A SEV", "A BRE"],
        "ITALY": ["A TUS", "A VEN", "F ALB", "A TYR"],
        "RUSSIA": ["A MOS", "F BAL", "F ARM"],
        "TURKEY": ["F RUM", "A VIE", "F TUN", "F CON", "F BUL/SC", "F BLA", "A TRI", "F GRE"],
    },
    "centers": {
        "ENGLAND": ["DEN", "EDI", "LON", "LVP"],
        "FRANCE": ["BEL", "BER", "KIE", "MAR", "MUN", "POR", "SPA"],
        "GERMANY": ["BRE", "HOL", "PAR", "SEV"],
        "ITALY": ["NAP", "ROM", "VEN"],
        "RUSSIA": ["MOS", "STP", "WAR"],
        "TURKEY": ["ANK", "BUD", "BUL", "CON", "GRE", "RUM", "SER", "SMY", "TRI", "TUN", "VIE"],
    },
}


def _turkey_builds(seed: int) -> list[str]:
    board = Board.from_json(TURKEY_OF_FLEETS)
    return sorted(o.text for o in choose_orders(board, "TURKEY", seed, level="hard"))


@pytest.mark.parametrize("seed", range(4))
def test_hard_turkey_of_fleets_builds_an_army_for_the_centres_its_fleets_cannot_reach(seed: int) -> None:
    """``COMPLEMENT`` (on at the hard level): the army in Smyrna counts the inland centres that few of
    Turkey's units could reach; the build in Ankara stays a fleet."""
    assert builds.COMPLEMENT
    assert _turkey_builds(seed) == ["A SMY B", "F ANK B"]


def test_without_complement_hard_turkey_builds_fleets_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(builds, "COMPLEMENT", None)
    assert _turkey_builds(0) == ["F ANK B", "F SMY B"]


def test_complement_powers_limits_the_complement_to_the_powers_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(builds, "COMPLEMENT_POWERS", ("ENGLAND",))
    assert _turkey_builds(0) == ["F ANK B", "F SMY B"]
    monkeypatch.setattr(builds, "COMPLEMENT_POWERS", ("TURKEY",))
    assert _turkey_builds(0) == ["A SMY B", "F ANK B"]
