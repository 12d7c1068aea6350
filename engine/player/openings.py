"""The hard level's book of openings on the Standard map (issue 43): one well-known opening a power,
played in Spring 1901 instead of the look-ahead's (engine.player.lookahead, behind its switch
``BOOK``, or for the powers :data:`BOOK_POWERS` names). Each is a common opening of the game's
literature, written here as order texts and taken from the legal orders (an opening whose orders
are not all legal is not played)."""

from __future__ import annotations

from engine.board import Board
from engine.legal import LegalOrder, LegalOrders

BOOK_POWERS: tuple[str, ...] = ("GERMANY",)  # these powers play the book's opening even with lookahead.BOOK
# off (against six baselines the book helped Germany alone, the README)
CHOICE: dict[str, str] = {}  # power -> the name of another opening of OTHERS it plays instead of the
# book's or the look-ahead's (empty: none; the README's table has the figures)

STANDARD: dict[str, tuple[str, ...]] = {
    "AUSTRIA": ("A VIE - GAL", "A BUD - SER", "F TRI - ALB"),
    "ENGLAND": ("F LON - NTH", "F EDI - NWG", "A LVP - YOR"),
    "FRANCE": ("F BRE - MAO", "A PAR - BUR", "A MAR - SPA"),
    "GERMANY": ("F KIE - DEN", "A BER - KIE", "A MUN - RUH"),
    "ITALY": ("F NAP - ION", "A ROM - APU", "A VEN H"),
    "RUSSIA": ("A MOS - UKR", "A WAR - GAL", "F SEV - BLA", "F STP/SC - BOT"),
    "TURKEY": ("F ANK - BLA", "A CON - BUL", "A SMY - ARM"),
}


# Other openings, by power and name (some of the literature, some hard's own with a unit changed),
# tried against six baselines (none measured better than the level's own or the book's: the README);
# Russia loses a centre in 1901 with hard's own opening, A MOS-UKR A WAR-GAL F SEV-RUM F STP/SC-BOT,
# to Turkey's supported A ARM-SEV
OTHERS: dict[str, dict[str, tuple[str, ...]]] = {
    "RUSSIA": {
        # the fleet stands Turkey off the Black Sea; the army from Moscow follows into Sevastopol should
        # the fleet get through, else stays in Moscow; Warsaw's army covers Ukraine and Rumania
        "moscow_sev": ("A MOS - SEV", "A WAR - UKR", "F SEV - BLA", "F STP/SC - BOT"),
        # the southern opening with Warsaw's army held at home against Germany's Silesia
        "south_hold": ("A MOS - UKR", "A WAR H", "F SEV - BLA", "F STP/SC - BOT"),
        # the fleet to Rumania, the Moscow army into Sevastopol behind it (stays if the fleet bounces)
        "rumania": ("A MOS - SEV", "A WAR - UKR", "F SEV - RUM", "F STP/SC - BOT"),
        # north: Moscow's army to St Petersburg for Norway or Sweden, the Black Sea stood off
        "north": ("A MOS - STP", "A WAR - UKR", "F SEV - BLA", "F STP/SC - BOT"),
        # hard's own opening with the fleet held in Sevastopol instead of bouncing in Rumania
        "sev_hold": ("A MOS - UKR", "A WAR - GAL", "F SEV H", "F STP/SC - BOT"),
    },
    "AUSTRIA": {
        # Vienna's army to Budapest behind Budapest's to Serbia, against Russia's Galicia
        "budapest": ("A VIE - BUD", "A BUD - SER", "F TRI - ALB"),
        # Vienna's army to Tyrolia, against Italy's Venice and Germany's Munich
        "tyrolia": ("A VIE - TYR", "A BUD - SER", "F TRI - ALB"),
        # hard's own opening with the fleet to the Adriatic
        "adriatic": ("A VIE - TRI", "A BUD - SER", "F TRI - ADR"),
        # hard's own opening with Budapest's army to Rumania instead of Serbia
        "rumania": ("A VIE - TRI", "A BUD - RUM", "F TRI - ALB"),
        # Vienna's army to Galicia, Budapest's to Rumania, against Russia
        "east": ("A VIE - GAL", "A BUD - RUM", "F TRI - ALB"),
    },
    "ENGLAND": {
        # the northern opening: both fleets north, Liverpool's army to Edinburgh behind them
        "northern": ("F LON - NTH", "F EDI - NWG", "A LVP - EDI"),
        # the southern: the fleet to the Channel, Liverpool's army to Wales (a convoy on)
        "wales": ("F LON - ENG", "F EDI - NTH", "A LVP - WAL"),
        # hard's own with Liverpool's army to Yorkshire instead of holding
        "yorkshire": ("F LON - ENG", "F EDI - NTH", "A LVP - YOR"),
    },
    "ITALY": {
        # west: Venice's army to Piedmont, Rome's to Venice behind it, the fleet to the Ionian
        "piedmont": ("F NAP - ION", "A ROM - VEN", "A VEN - PIE"),
        # Venice's army to Trieste, Rome's to Venice behind it
        "trieste": ("F NAP - ION", "A ROM - VEN", "A VEN - TRI"),
        # the fleet to the Tyrrhenian Sea, Rome's army to Apulia, Venice's to Tyrolia
        "tyrrhenian": ("F NAP - TYS", "A ROM - APU", "A VEN - TYR"),
    },
    "GERMANY": {
        # the book's opening with Munich's army to Burgundy instead of the Ruhr
        "burgundy": ("F KIE - DEN", "A BER - KIE", "A MUN - BUR"),
        # eastern: Berlin's army to Prussia, Munich's to Silesia, against Russia's Warsaw
        "east": ("F KIE - DEN", "A BER - PRU", "A MUN - SIL"),
        # the fleet to Holland, Berlin's army to Kiel behind it, Munich's to the Ruhr
        "holland": ("F KIE - HOL", "A BER - KIE", "A MUN - RUH"),
    },
    "TURKEY": {
        # the fleet from Ankara to Constantinople behind the army to Bulgaria, Smyrna's army to Armenia
        "constantinople": ("F ANK - CON", "A CON - BUL", "A SMY - ARM"),
        # hard's own opening with Smyrna's army held at home
        "smyrna_hold": ("F ANK - BLA", "A CON - BUL", "A SMY H"),
    },
}


def book_for(power: str, every: bool) -> bool:
    """Whether ``power`` plays an opening of this module: every power (``every``: lookahead.BOOK), one
    that :data:`BOOK_POWERS` names or one :data:`CHOICE` gives another opening."""
    return every or power in BOOK_POWERS or power in CHOICE


def book_opening(board: Board, power: str, legal: LegalOrders) -> list[LegalOrder] | None:
    """``power``'s opening from the book (or the one of :data:`OTHERS` that :data:`CHOICE` names for it)
    on the Standard map's first phase, or None."""
    if board.variant != "standard":
        return None
    texts = OTHERS.get(power, {}).get(CHOICE[power]) if power in CHOICE else STANDARD.get(power)
    if texts is None:
        return None
    found = [legal.find(t) for t in texts]
    if any(f is None for f in found) or len(found) != len(legal.entries):
        return None
    return [f for f in found if f is not None]
