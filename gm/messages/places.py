"""The kinds of place a game has on its chat server (db.models.GamePlace.kind), and how the place of a
pair of seats is keyed. Plain data below every folder that addresses a place: gm.setup.places records
and looks them up, gm.builtin.talks writes to a seat's pair places, the adapters make them."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum


class PlaceKind(StrEnum):
    """The kinds of place set-up makes and records (gm.setup.places.record_place)."""

    CATEGORY = "category"
    GAME_CHANNEL = "game_channel"
    POWER_CHANNEL = "power_channel"  # key: the power
    NEGOTIATION = "negotiation"  # the channel holding the pair threads (threads press)
    PAIR_CHANNEL = "pair_channel"  # a pair of seats' channel (channels press); key: the pair
    THREAD = "thread"  # a pair of seats' private thread (threads press); key: the pair
    # An anonymous game's seat changed hands (cogs.places.fresh): the power's new channel, and the one it
    # had before (kept for the moderators); key: ``POWER:n``, n the announcement's outbox row.
    SEAT_CHANNEL = "seat_channel"
    FORMER_CHANNEL = "former_channel"


def pair_key(a: Sequence[str], b: Sequence[str]) -> str:
    """``AUSTRIA/FRANCE|ENGLAND``: how the place of a pair of seats (each seat the powers one player
    holds) is recorded (gm.setup.places.record_place)."""
    return f"{'/'.join(a)}|{'/'.join(b)}"


def key_powers(key: str) -> set[str]:
    """The powers a recorded pair key names."""
    return {p for part in key.split("|") for p in part.split("/") if p}
