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

STANDARD: dict[str, tuple[str, ...]] = {
    "AUSTRIA": ("A VIE - GAL", "A BUD - SER", "F TRI - ALB"),
    "ENGLAND": ("F LON - NTH", "F EDI - NWG", "A LVP - YOR"),
    "FRANCE": ("F BRE - MAO", "A PAR - BUR", "A MAR - SPA"),
    "GERMANY": ("F KIE - DEN", "A BER - KIE", "A MUN - RUH"),
    "ITALY": ("F NAP - ION", "A ROM - APU", "A VEN H"),
    "RUSSIA": ("A MOS - UKR", "A WAR - GAL", "F SEV - BLA", "F STP/SC - BOT"),
    "TURKEY": ("F ANK - BLA", "A CON - BUL", "A SMY - ARM"),
}


def book_for(power: str, every: bool) -> bool:
    """Whether ``power`` plays the book's opening: every power (``every``: lookahead.BOOK) or one
    that :data:`BOOK_POWERS` names."""
    return every or power in BOOK_POWERS


def book_opening(board: Board, power: str, legal: LegalOrders) -> list[LegalOrder] | None:
    """``power``'s opening from the book on the Standard map's first phase, or None."""
    if board.variant != "standard":
        return None
    texts = STANDARD.get(power)
    if texts is None:
        return None
    found = [legal.find(t) for t in texts]
    if any(f is None for f in found) or len(found) != len(legal.entries):
        return None
    return [f for f in found if f is not None]
