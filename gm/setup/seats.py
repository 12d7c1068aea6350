"""Who plays which power: the seats for a number of players, and the random draw.

A *seat* is the set of powers one player holds. The seats for each number of players are the
variant's (engine.variants): with as many players as powers every power is a seat; the rulebook's
"alternate way to play" leaves some powers to nobody (six and five players) or gives a player several
(four and three players).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from random import Random

from engine import GameMap
from engine.variants import get_variant


def seats_for(game_map: GameMap, players: int, variant: str | None = None) -> tuple[tuple[str, ...], ...]:
    """The seats for ``players`` players; KeyError when the variant is not played by that many."""
    return get_variant(variant or game_map.name).seats_for(players)


def draw_seats(
    user_ids: Sequence[int], seats: Sequence[tuple[str, ...]], rng: Random | None = None
) -> dict[int, tuple[str, ...]]:
    """Give each user one seat at random. ``secrets.SystemRandom`` unless a test passes its own."""
    if len(user_ids) != len(seats):
        raise ValueError(f"{len(user_ids)} players for {len(seats)} seats")
    shuffled = list(seats)
    (rng or secrets.SystemRandom()).shuffle(shuffled)
    return dict(zip(user_ids, shuffled, strict=True))
