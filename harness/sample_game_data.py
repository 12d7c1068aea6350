"""The 2000 rulebook's sample game ("OPENING MOVES IN A SAMPLE GAME"), Spring 1901 to the Winter 1902
adjustments, as data: every order exactly as the rulebook prints it, with what a human reads there.

tests/engine/test_sample_game_orders.py reads each line with the board of its phase,
tests/engine/test_sample_game.py plays :data:`ORDERS` through ``adjudicate_json``, and
harness/sample_game.py (with bench/render.py) draws the phases they make.

Misprints in our copy of the rulebook, and what we do:

* Winter 1901 says "France builds one unit for Portugal 'A Por', but none for Spain". France has
  one build (for Portugal) and builds "F Mar"; "A Por" names the army already in Portugal (Spring
  1902 orders it "A Por-Spa"), so it is no order here.
* Fall 1902 says "the Russian Army there will have to retreat" of Rumania, then "The Russian unit in
  Rumania has no place to retreat": the unit is the fleet ordered "F Rum S A Sev". It is a fleet,
  and it has nowhere to go.
"""

from __future__ import annotations

# (phase, power, the order exactly as printed, what a human reads there)
SAMPLE_GAME = [
    ("S1901M", "AUSTRIA", "A Vie-Tri", "A VIE - TRI"),
    ("S1901M", "AUSTRIA", "A Bud-Gal", "A BUD - GAL"),
    ("S1901M", "AUSTRIA", "F Tri-Alb", "F TRI - ALB"),
    ("S1901M", "ENGLAND", "A Lvp-Yor", "A LVP - YOR"),
    ("S1901M", "ENGLAND", "F Lon-Nth", "F LON - NTH"),
    ("S1901M", "ENGLAND", "F Edi-Nrg", "F EDI - NWG"),
    ("S1901M", "FRANCE", "A Par-Bur", "A PAR - BUR"),
    ("S1901M", "FRANCE", "A Mar-Spa", "A MAR - SPA"),
    ("S1901M", "FRANCE", "F Bre-Pic", "F BRE - PIC"),
    ("S1901M", "GERMANY", "A Ber-Kie", "A BER - KIE"),
    ("S1901M", "GERMANY", "A Mun-Ruh", "A MUN - RUH"),
    ("S1901M", "GERMANY", "F Kie-Den", "F KIE - DEN"),
    ("S1901M", "ITALY", "A Ven-Pie", "A VEN - PIE"),
    ("S1901M", "ITALY", "A Rom-Ven", "A ROM - VEN"),
    ("S1901M", "ITALY", "F Nap-Ion", "F NAP - ION"),
    ("S1901M", "RUSSIA", "A Mos-Ukr", "A MOS - UKR"),
    ("S1901M", "RUSSIA", "A War-Gal", "A WAR - GAL"),
    ("S1901M", "RUSSIA", "F StP-Bot", "F STP/SC - BOT"),
    ("S1901M", "RUSSIA", "F Sev-Bla", "F SEV - BLA"),
    ("S1901M", "TURKEY", "A Con-Bul", "A CON - BUL"),
    ("S1901M", "TURKEY", "A Smy-Con", "A SMY - CON"),
    ("S1901M", "TURKEY", "F Ank-Bla", "F ANK - BLA"),
    ("F1901M", "AUSTRIA", "A Tri Holds", "A TRI H"),
    ("F1901M", "AUSTRIA", "A Bud-Ser", "A BUD - SER"),
    ("F1901M", "AUSTRIA", "F Alb-Gre", "F ALB - GRE"),
    ("F1901M", "ENGLAND", "A Yor-Nwy", "A YOR - NWY"),
    ("F1901M", "ENGLAND", "F Nth C A Yor-Nwy", "F NTH C A YOR - NWY"),
    ("F1901M", "ENGLAND", "F Nrg-Bar", "F NWG - BAR"),
    ("F1901M", "FRANCE", "A Bur-Mar", "A BUR - MAR"),
    ("F1901M", "FRANCE", "A Spa-Port", "A SPA - POR"),
    ("F1901M", "FRANCE", "F Pic-Bel", "F PIC - BEL"),
    ("F1901M", "GERMANY", "A Kie-Hol", "A KIE - HOL"),
    ("F1901M", "GERMANY", "A Ruh-Bel", "A RUH - BEL"),
    ("F1901M", "GERMANY", "F Den Holds", "F DEN H"),
    ("F1901M", "ITALY", "A Ven Holds", "A VEN H"),
    ("F1901M", "ITALY", "A Pie-Mar", "A PIE - MAR"),
    ("F1901M", "ITALY", "F Ion-Tun", "F ION - TUN"),
    ("F1901M", "RUSSIA", "A Ukr S F Sev-Rum", "A UKR S F SEV - RUM"),
    ("F1901M", "RUSSIA", "A War-Gal", "A WAR - GAL"),
    ("F1901M", "RUSSIA", "F Bot-Swe", "F BOT - SWE"),
    ("F1901M", "RUSSIA", "F Sev-Rum", "F SEV - RUM"),
    ("F1901M", "TURKEY", "A Bul-Ser", "A BUL - SER"),
    ("F1901M", "TURKEY", "A Con-Bul", "A CON - BUL"),
    ("F1901M", "TURKEY", "F Ank-Bla", "F ANK - BLA"),
    ("W1901A", "ENGLAND", '"F Edi."', "F EDI B"),
    ("W1901A", "GERMANY", '"F Kie"', "F KIE B"),
    ("W1901A", "GERMANY", '"A Mun."', "A MUN B"),
    ("W1901A", "RUSSIA", '"A StP"', "A STP B"),
    ("W1901A", "RUSSIA", '"A Sev."', "A SEV B"),
    ("W1901A", "TURKEY", '"A Smy."', "A SMY B"),
    ("W1901A", "AUSTRIA", '"A Vie."', "A VIE B"),
    ("W1901A", "ITALY", '"F Nap."', "F NAP B"),
    ("W1901A", "FRANCE", '"F Mar."', "F MAR B"),
    ("S1902M", "AUSTRIA", "A Tri-Bud", "A TRI - BUD"),
    ("S1902M", "AUSTRIA", "A Vie-Bud", "A VIE - BUD"),
    ("S1902M", "AUSTRIA", "A Bud-Ser", "A BUD - SER"),
    ("S1902M", "AUSTRIA", "F Gre Holds", "F GRE H"),
    ("S1902M", "ENGLAND", "A Nwy-StP", "A NWY - STP"),
    ("S1902M", "ENGLAND", "F Nth-Nwy", "F NTH - NWY"),
    ("S1902M", "ENGLAND", "F Bar S A Nwy-StP", "F BAR S A NWY - STP"),
    ("S1902M", "ENGLAND", "F Edi-Nth", "F EDI - NTH"),
    ("S1902M", "FRANCE", "A Bur S F Pic-Bel", "A BUR S F PIC - BEL"),
    ("S1902M", "FRANCE", "A Por-Spa", "A POR - SPA"),
    ("S1902M", "FRANCE", "F Pic-Bel", "F PIC - BEL"),
    ("S1902M", "FRANCE", "F Mar Holds", "F MAR H"),
    ("S1902M", "GERMANY", "A Hol-Bel", "A HOL - BEL"),
    ("S1902M", "GERMANY", "A Ruh S A Hol-Bel", "A RUH S A HOL - BEL"),
    ("S1902M", "GERMANY", "A Mun-Bur", "A MUN - BUR"),
    ("S1902M", "GERMANY", "F Den Holds", "F DEN H"),
    ("S1902M", "GERMANY", "F Kie-Hol", "F KIE - HOL"),
    ("S1902M", "ITALY", "A Ven Holds", "A VEN H"),
    ("S1902M", "ITALY", "A Pie-Mar", "A PIE - MAR"),
    ("S1902M", "ITALY", "F Tun-Wes", "F TUN - WES"),
    ("S1902M", "ITALY", "F Nap-Tyn", "F NAP - TYS"),
    ("S1902M", "RUSSIA", "A Ukr S F Rum", "A UKR S F RUM"),
    ("S1902M", "RUSSIA", "A Gal-Bud", "A GAL - BUD"),
    ("S1902M", "RUSSIA", "A StP-Nwy", "A STP - NWY"),
    ("S1902M", "RUSSIA", "A Sev S F Rum", "A SEV S F RUM"),
    ("S1902M", "RUSSIA", "F Swe S A StP-Nwy", "F SWE S A STP - NWY"),
    ("S1902M", "RUSSIA", "F Rum Holds", "F RUM H"),
    ("S1902M", "TURKEY", "A Bul-Rum", "A BUL - RUM"),
    ("S1902M", "TURKEY", "A Con-Bul", "A CON - BUL"),
    ("S1902M", "TURKEY", "A Smy-Arm", "A SMY - ARM"),
    ("S1902M", "TURKEY", "F Bla S A Bul-Rum", "F BLA S A BUL - RUM"),
    ("F1902M", "AUSTRIA", "A Vie–Gal", "A VIE - GAL"),
    ("F1902M", "AUSTRIA", "A Tri–Bud", "A TRI - BUD"),
    ("F1902M", "AUSTRIA", "A Ser S Turkish A Bul–Rum", "A SER S A BUL - RUM"),
    ("F1902M", "AUSTRIA", "F Gre Holds", "F GRE H"),
    ("F1902M", "ENGLAND", "A Nwy–StP", "A NWY - STP"),
    ("F1902M", "ENGLAND", "F Bar S A Nwy–StP", "F BAR S A NWY - STP"),
    ("F1902M", "ENGLAND", "F Nth–Nwy", "F NTH - NWY"),
    ("F1902M", "ENGLAND", "F Edi–Nth", "F EDI - NTH"),
    ("F1902M", "FRANCE", "A Bur–Bel", "A BUR - BEL"),
    ("F1902M", "FRANCE", "F Pic S A Bur–Bel", "F PIC S A BUR - BEL"),
    ("F1902M", "FRANCE", "A Spa S F Mar", "A SPA S F MAR"),
    ("F1902M", "FRANCE", "F Mar S A Spa", "F MAR S A SPA"),
    ("F1902M", "GERMANY", "A Ruh–Bur", "A RUH - BUR"),
    ("F1902M", "GERMANY", "A Mun S A Ruh–Bur", "A MUN S A RUH - BUR"),
    ("F1902M", "GERMANY", "A Bel S A Ruh–Bur", "A BEL S A RUH - BUR"),
    ("F1902M", "GERMANY", "F Den–Swe", "F DEN - SWE"),
    ("F1902M", "GERMANY", "F Hol S A Bel", "F HOL S A BEL"),
    ("F1902M", "ITALY", "A Ven–Pie", "A VEN - PIE"),
    ("F1902M", "ITALY", "A Pie–Mar", "A PIE - MAR"),
    ("F1902M", "ITALY", "F Wes–NAf", "F WES - NAF"),
    ("F1902M", "ITALY", "F Tyn–GoL", "F TYS - LYO"),
    ("F1902M", "RUSSIA", "A StP–Nwy", "A STP - NWY"),
    ("F1902M", "RUSSIA", "F Swe S StP–Nwy", "F SWE S A STP - NWY"),  # the army's type left out
    ("F1902M", "RUSSIA", "F Rum S A Sev", "F RUM S A SEV"),
    ("F1902M", "RUSSIA", "A Sev S F Rum", "A SEV S F RUM"),
    ("F1902M", "RUSSIA", "A Gal S F Rum", "A GAL S F RUM"),
    ("F1902M", "RUSSIA", "A Ukr S A Sev", "A UKR S A SEV"),
    ("F1902M", "TURKEY", "A Bul–Rum", "A BUL - RUM"),
    ("F1902M", "TURKEY", "A Con–Bul", "A CON - BUL"),
    ("F1902M", "TURKEY", "A Arm–Sev", "A ARM - SEV"),
    ("F1902M", "TURKEY", "F Bla S A Bul–Rum", "F BLA S A BUL - RUM"),
    ("F1902R", "RUSSIA", '"A StP–Mos."', "A STP R MOS"),
    ("F1902R", "FRANCE", '"A Bur–Gas."', "A BUR R GAS"),
    ("W1902A", "GERMANY", '"F Kie."', "F KIE B"),
    ("W1902A", "RUSSIA", '"A Gal."', "A GAL D"),  # "Russia removes 'A Gal.'"
    ("W1902A", "TURKEY", '"F Smy."', "F SMY B"),
    ("W1902A", "AUSTRIA", '"A Tri."', "A TRI B"),
    ("W1902A", "FRANCE", '"A Par."', "A PAR B"),
    ("W1902A", "ENGLAND", '"F Lon."', "F LON B"),
]


def _as_order(phase: str, printed: str) -> str:
    """A printed order as a player would send it: the rulebook quotes retreats and adjustments in its
    prose ('"F Edi."'), without the quotes and the full stop."""
    return printed if phase.endswith("M") else printed.strip('"').removesuffix(".")


def _by_phase() -> dict[str, dict[str, list[str]]]:
    orders: dict[str, dict[str, list[str]]] = {}
    for phase, power, printed, _ in SAMPLE_GAME:
        orders.setdefault(phase, {}).setdefault(power, []).append(_as_order(phase, printed))
    return orders


ORDERS = _by_phase()
"""phase -> power -> its orders, in the rulebook's order: what the engine is given, phase by phase."""
