"""The 2000 rulebook's diagrams 4 to 32, with the orders as the rulebook prints them and the outcome it
describes. Positions hold the units the orders name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from engine import adjudicate_json
from engine.adjudication import AdjudicationJSON


def play(units: dict[str, list[str]], orders: dict[str, list[str]]) -> AdjudicationJSON:
    return adjudicate_json({"phase": "S1901M", "units": units, "centers": {}, "orders": orders})


def statuses(out: Mapping[str, Any]) -> dict[str, str]:
    return {r["order"]: r["status"] for r in out["orders"] if r["input"] is not None}


def dislodged(out: Mapping[str, Any]) -> set[str]:
    return {u for entries in out["dislodged"].values() for u in entries}


# (diagram, units, orders, orders that succeed, units dislodged); every other order fails. A support
# that is given succeeds even where it cannot help dislodge its own side (diagrams 22, 24, 26).
DIAGRAMS = [
    (4, {"GERMANY": ["A BER"], "RUSSIA": ["A WAR"]},
     {"GERMANY": ["A Ber-Sil"], "RUSSIA": ["A War-Sil"]}, set(), set()),
    (5, {"GERMANY": ["F KIE", "A BER"], "RUSSIA": ["A PRU"]},
     {"GERMANY": ["F Kiel-Ber", "A Ber-Pru"], "RUSSIA": ["A Pru-Holds"]}, {"A PRU H"}, set()),
    (6, {"GERMANY": ["F BER", "A PRU"]},
     {"GERMANY": ["F Ber-Pru", "A Pru-Ber"]}, set(), set()),
    (7, {"ENGLAND": ["A HOL", "F BEL"], "FRANCE": ["F NTH"]},
     {"ENGLAND": ["A Hol-Bel", "F Bel-Nth"], "FRANCE": ["F Nth-Hol"]},
     {"A HOL - BEL", "F BEL - NTH", "F NTH - HOL"}, set()),
    (8, {"FRANCE": ["A MAR", "A GAS"], "GERMANY": ["A BUR"]},
     {"FRANCE": ["A Mar–Bur", "A Gas S A Mar–Bur"], "GERMANY": ["A Bur–Holds"]},
     {"A MAR - BUR", "A GAS S A MAR - BUR"}, {"A BUR"}),
    (9, {"GERMANY": ["A SIL", "F BAL"], "RUSSIA": ["A PRU"]},
     {"GERMANY": ["A Sil–Pru", "F Bal S A Sil–Pru"], "RUSSIA": ["A Pru–Holds"]},
     {"A SIL - PRU", "F BAL S A SIL - PRU"}, {"A PRU"}),
    (10, {"FRANCE": ["F LYO", "F WES"], "ITALY": ["F NAP", "F ROM"]},
     {"FRANCE": ["F GoL-Tyn", "F Wes S F GoL-Tyn"], "ITALY": ["F Nap-Tyn", "F Rom S F Nap-Tyn"]},
     {"F WES S F LYO - TYS", "F ROM S F NAP - TYS"}, set()),
    (11, {"FRANCE": ["F LYO", "F WES"], "ITALY": ["F TYS", "F ROM"]},
     {"FRANCE": ["F GoL-Tyn", "F Wes S F GoL-Tyn"], "ITALY": ["F Tyn-Holds", "F Rom S F Tyn-Holds"]},
     {"F WES S F LYO - TYS", "F TYS H", "F ROM S F TYS"}, set()),
    # 12: the army in Munich, dislodged from Bohemia, still stands off the Russian army in Silesia.
    # Our copy prints "Austria: A Boh-Mun;" with the second order lost; the text says Bohemia
    # dislodges Munich, which takes a supporting unit: A Tyr S A Boh-Mun.
    (12, {"AUSTRIA": ["A BOH", "A TYR"], "GERMANY": ["A MUN", "A BER"], "RUSSIA": ["A WAR", "A PRU"]},
     {"AUSTRIA": ["A Boh-Mun", "A Tyr S A Boh-Mun"], "GERMANY": ["A Mun-Sil", "A Ber S A Mun-Sil"],
      "RUSSIA": ["A War-Sil", "A Pru S A War-Sil"]},
     {"A BOH - MUN", "A TYR S A BOH - MUN", "A BER S A MUN - SIL", "A PRU S A WAR - SIL"}, {"A MUN"}),
    # 13 and 14: a dislodged unit has no effect on the province its attacker came from.
    (13, {"TURKEY": ["A BUL"], "RUSSIA": ["A RUM", "A SER", "A SEV"]},
     {"TURKEY": ["A Bul-Rum"], "RUSSIA": ["A Rum-Bul", "A Ser S A Rum-Bul", "A Sev-Rum"]},
     {"A RUM - BUL", "A SER S A RUM - BUL", "A SEV - RUM"}, {"A BUL"}),
    (14, {"TURKEY": ["A BUL", "F BLA"], "RUSSIA": ["A RUM", "A GRE", "A SER", "A SEV"]},
     {"TURKEY": ["A Bul–Rum", "F Bla S A Bul–Rum"],
      "RUSSIA": ["A Rum–Bul", "A Gre S A Rum–Bul", "A Ser S A Rum–Bul", "A Sev–Rum"]},
     {"F BLA S A BUL - RUM", "A RUM - BUL", "A GRE S A RUM - BUL", "A SER S A RUM - BUL", "A SEV - RUM"},
     {"A BUL"}),
    (15, {"GERMANY": ["A PRU", "A SIL"], "RUSSIA": ["A WAR", "A BOH"]},
     {"GERMANY": ["A Pru–War", "A Sil S A Pru–War"], "RUSSIA": ["A War–Holds", "A Boh–Sil"]},
     {"A WAR H"}, set()),
    (16, {"GERMANY": ["A PRU", "A SIL"], "RUSSIA": ["A WAR"]},
     {"GERMANY": ["A Pru–War", "A Sil S A Pru–War"], "RUSSIA": ["A War–Sil"]},
     {"A PRU - WAR", "A SIL S A PRU - WAR"}, {"A WAR"}),
    (17, {"GERMANY": ["F BER", "A SIL"], "RUSSIA": ["A PRU", "A WAR", "F BAL"]},
     {"GERMANY": ["F Ber–Pru", "A Sil S F Ber–Pru"],
      "RUSSIA": ["A Pru–Sil", "A War S A Pru–Sil", "F Bal–Pru"]},
     {"A PRU - SIL", "A WAR S A PRU - SIL"}, {"A SIL"}),
    (18, {"GERMANY": ["A BER", "A MUN"], "RUSSIA": ["A PRU", "A SIL", "A BOH", "A TYR"]},
     {"GERMANY": ["A Ber-Holds", "A Mun-Sil"],
      "RUSSIA": ["A Pru-Ber", "A Sil S A Pru-Ber", "A Boh-Mun", "A Tyr S A Boh-Mun"]},
     {"A BER H", "A BOH - MUN", "A TYR S A BOH - MUN"}, {"A MUN"}),
    (19, {"ENGLAND": ["A LON", "F NTH"]},
     {"ENGLAND": ["A Lon-Nwy", "F Nth C A Lon-Nwy"]}, {"A LON - NWY", "F NTH C A LON - NWY"}, set()),
    (20, {"ENGLAND": ["A LON", "F ENG", "F MAO"], "FRANCE": ["F WES"]},
     {"ENGLAND": ["A Lon-Tun", "F Eng C A Lon-Tun", "F Mid C A Lon-Tun"],
      "FRANCE": ["F Wes C English A Lon-Tun"]},
     {"A LON - TUN", "F ENG C A LON - TUN", "F MAO C A LON - TUN", "F WES C A LON - TUN"}, set()),
    (21, {"FRANCE": ["A SPA", "F LYO", "F TYS"], "ITALY": ["F ION", "F TUN"]},
     {"FRANCE": ["A Spa-Nap", "F GoL C A Spa-Nap", "F Tyn C A Spa-Nap"],
      "ITALY": ["F Ion-Tyn", "F Tun S F Ion-Tyn"]},
     {"F ION - TYS", "F TUN S F ION - TYS"}, {"F TYS"}),
    (22, {"FRANCE": ["A PAR", "A MAR", "A BUR"]},
     {"FRANCE": ["A Par-Bur", "A Mar S A Par-Bur", "A Bur-Holds"]},
     {"A BUR H", "A MAR S A PAR - BUR"}, set()),
    (23, {"FRANCE": ["A PAR", "A BUR"], "GERMANY": ["A RUH"], "ITALY": ["A MAR"]},
     {"FRANCE": ["A Par-Bur", "A Bur-Mar"], "GERMANY": ["A Ruh S French A Par-Bur"], "ITALY": ["A Mar-Bur"]},
     {"A RUH S A PAR - BUR"}, set()),
    (24, {"GERMANY": ["A RUH", "A MUN"], "FRANCE": ["A PAR", "A BUR"]},
     {"GERMANY": ["A Ruh-Bur", "A Mun-Holds"], "FRANCE": ["A Par S German A Ruh-Bur", "A Bur-Holds"]},
     {"A MUN H", "A BUR H", "A PAR S A RUH - BUR"}, set()),
    (25, {"GERMANY": ["A MUN", "A RUH", "A SIL"], "AUSTRIA": ["A TYR", "A BOH"]},
     {"GERMANY": ["A Mun-Tyr", "A Ruh-Mun", "A Sil-Mun"],
      "AUSTRIA": ["A Tyr-Mun", "A Boh S German A Sil-Mun"]},
     {"A BOH S A SIL - MUN"}, set()),
    # 26: England's self-dislodging attack on Denmark still stands off the Russian one.
    (26, {"ENGLAND": ["F DEN", "F NTH", "F HEL"], "RUSSIA": ["A BER", "F SKA", "F BAL"]},
     {"ENGLAND": ["F Den-Kiel", "F Nth-Den", "F Hel S F Nth-Den"],
      "RUSSIA": ["A Ber-Kiel", "F Ska-Den", "F Bal S F Ska-Den"]},
     {"F HEL S F NTH - DEN", "F BAL S F SKA - DEN"}, set()),
    (27, {"AUSTRIA": ["A SER", "A VIE"], "RUSSIA": ["A GAL"]},
     {"AUSTRIA": ["A Ser-Bud", "A Vie-Bud"], "RUSSIA": ["A Gal S Austrian A Ser-Bud"]},
     {"A SER - BUD", "A GAL S A SER - BUD"}, set()),
    (28, {"ENGLAND": ["A LON", "F NTH"], "FRANCE": ["A BEL", "F ENG"]},
     {"ENGLAND": ["A Lon-Bel", "F Nth C A Lon-Bel"], "FRANCE": ["A Bel-Lon", "F Eng C A Bel-Lon"]},
     {"A LON - BEL", "F NTH C A LON - BEL", "A BEL - LON", "F ENG C A BEL - LON"}, set()),
    (29, {"ENGLAND": ["A LON", "F ENG", "F NTH"], "FRANCE": ["F BRE", "F IRI"]},
     {"ENGLAND": ["A Lon-Bel", "F Eng C A Lon-Bel", "F Nth C A Lon-Bel"],
      "FRANCE": ["F Bre-Eng", "F Iri S F Bre-Eng"]},
     {"A LON - BEL", "F NTH C A LON - BEL", "F BRE - ENG", "F IRI S F BRE - ENG"}, {"F ENG"}),
    # 30: the 2000 rulebook prints Italy's orders garbled ("F Ion-Rom; F Nap S F Tyn-Apu"),
    # but they start from a fleet in the Ionian Sea, and its text has Naples support an attack on the
    # convoying fleet: F Ion-Tyn, F Nap S F Ion-Tyn, as the 2023 rulebook prints them. (Rome's
    # fleet is diagram 31's, where France holds the Ionian.) The same in test_sample_game_orders.py.
    (30, {"FRANCE": ["A TUN", "F TYS"], "ITALY": ["F ION", "F NAP"]},
     {"FRANCE": ["A Tun-Nap", "F Tyn C A Tun-Nap"], "ITALY": ["F Ion-Tyn", "F Nap S F Ion-Tyn"]},
     {"F ION - TYS", "F NAP S F ION - TYS"}, {"F TYS"}),
    (31, {"FRANCE": ["A TUN", "F TYS", "F ION"], "ITALY": ["F ROM", "F NAP"]},
     {"FRANCE": ["A Tun-Nap", "F Tyn C A Tun-Nap", "F Ion C A Tun-Nap"],
      "ITALY": ["F Rom-Tyn", "F Nap S F Rom-Tyn"]},
     set(), set()),
    (32, {"FRANCE": ["A TUN", "F TYS", "F ION", "A APU"], "ITALY": ["F ROM", "F NAP"]},
     {"FRANCE": ["A Tun-Nap", "F Tyn C A Tun-Nap", "F Ion C A Tun-Nap", "A Apu S A Tun-Nap"],
      "ITALY": ["F Rom-Tyn", "F Nap S F Rom-Tyn"]},
     {"A TUN - NAP", "F TYS C A TUN - NAP", "F ION C A TUN - NAP", "A APU S A TUN - NAP"}, {"F NAP"}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("diagram", "units", "orders", "succeed", "gone"), DIAGRAMS, ids=[f"diagram {d[0]}" for d in DIAGRAMS]
)
def test_rulebook_diagram(
    diagram: int,
    units: dict[str, list[str]],
    orders: dict[str, list[str]],
    succeed: set[str],
    gone: set[str],
) -> None:
    out = play(units, orders)
    got = statuses(out)
    assert len(got) == sum(len(v) for v in orders.values()), got
    assert {o for o, s in got.items() if s == "succeeded"} == succeed
    assert "invalid" not in got.values()
    assert dislodged(out) == gone


def test_diagram_31_convoyed_army_still_cuts_support() -> None:
    """Rule 22: with one route open, the army from Tunis cuts Naples' support, so Rome and the
    Tyrrhenian Sea stand off instead of the convoying fleet being dislodged."""
    out = play(
        {"FRANCE": ["A TUN", "F TYS", "F ION"], "ITALY": ["F ROM", "F NAP"]},
        {"FRANCE": ["A Tun-Nap", "F Tyn C A Tun-Nap", "F Ion C A Tun-Nap"],
         "ITALY": ["F Rom-Tyn", "F Nap S F Rom-Tyn"]},
    )  # fmt: skip
    reasons = {r["order"]: r["reason"] for r in out["orders"]}
    assert reasons["F NAP S F ROM - TYS"] == "support cut by A TUN (attacked from TUN)"
    assert reasons["F ROM - TYS"] == "bounced: F TYS held TYS (yours 1, theirs 1)"
    assert reasons["A TUN - NAP"] == "bounced: F NAP held NAP (yours 1, theirs 1)"
