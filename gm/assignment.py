"""Who plays which power: the seats for a number of players, and the random draw.

A *seat* is the set of powers one player holds. With as many players as powers, every power is a seat.
For the Standard map the rulebook's "alternative rules for six to two players" give the seats for fewer
players (six and five: Italy, then Germany too, are left to nobody and their units hold; four and three:
players hold several powers). The two-player game is a different scenario (1914 start, Italy neutral,
24 centers to win) and is not offered here.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from random import Random

from engine import GameMap

_STANDARD_SEATS: dict[int, tuple[tuple[str, ...], ...]] = {
    6: (("AUSTRIA",), ("ENGLAND",), ("FRANCE",), ("GERMANY",), ("RUSSIA",), ("TURKEY",)),
    5: (("AUSTRIA",), ("ENGLAND",), ("FRANCE",), ("RUSSIA",), ("TURKEY",)),
    4: (("ENGLAND",), ("AUSTRIA", "FRANCE"), ("GERMANY", "TURKEY"), ("ITALY", "RUSSIA")),
    3: (("ENGLAND", "GERMANY", "AUSTRIA"), ("RUSSIA", "ITALY"), ("FRANCE", "TURKEY")),
}


def seats_for(game_map: GameMap, players: int) -> tuple[tuple[str, ...], ...]:
    """The seats for ``players`` players; KeyError when the map is not played by that many."""
    if players == len(game_map.powers):
        return tuple((power,) for power in game_map.powers)
    if game_map.name == "standard" and players in _STANDARD_SEATS:
        return _STANDARD_SEATS[players]
    raise KeyError(players)


def supported_player_counts(game_map: GameMap) -> tuple[int, ...]:
    counts = {len(game_map.powers)}
    if game_map.name == "standard":
        counts |= set(_STANDARD_SEATS)
    return tuple(sorted(counts))


def draw_seats(
    user_ids: Sequence[int], seats: Sequence[tuple[str, ...]], rng: Random | None = None
) -> dict[int, tuple[str, ...]]:
    """Give each user one seat at random. ``secrets.SystemRandom`` unless a test passes its own."""
    if len(user_ids) != len(seats):
        raise ValueError(f"{len(user_ids)} players for {len(seats)} seats")
    shuffled = list(seats)
    (rng or secrets.SystemRandom()).shuffle(shuffled)
    return dict(zip(user_ids, shuffled, strict=True))
