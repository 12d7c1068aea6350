"""A seat's private talks are told who plays it, when the built-in player takes it over from a person
and when a person takes it back.

A player's rivals talk to a seat in its pair threads or pair channels; once the built-in player plays
it, nobody answers there (it writes to no one), and once its player has left, nobody on that side
reads either. So each of the seat's pair places gets one line, queued with the change that caused
it (one outbox message per place, gm.delivery.outbox.Target.place):

- the built-in player takes the seat (a player who left, fell into civil disorder or was put there
  by a moderator, with the game's ``absent_seats`` setting ``built_in``; a moderator's /mod builtin);
- it stops (/mod builtin off: the seat holds in civil disorder);
- a person plays it again (its player back by sending orders, saying ready or voting; a moderator
  taking them out of civil disorder; a replacement or a take-over).

A seat the built-in player held from the start has no pair places: the places made when a person
takes it over (cogs.places.talks) get their own first message instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game, GamePlace, PlayerStatus, PowerAssignment
from gm.builtin.seats import LABEL, plays
from gm.delivery.outbox import Target, enqueue
from gm.messages import payloads as say
from gm.messages.kinds import SeatPlayedBy
from gm.messages.places import PlaceKind, key_powers
from gm.settings import GameSettings


async def seat_places(session: AsyncSession, game_id: int, powers: Sequence[str]) -> list[int]:
    """The ids of the recorded pair places (threads, pair channels) that name one of ``powers``."""
    rows = await session.exec(
        select(GamePlace.discord_id, GamePlace.key).where(
            GamePlace.game_id == game_id, col(GamePlace.kind).in_((PlaceKind.THREAD, PlaceKind.PAIR_CHANNEL))
        )
    )
    return sorted(place for place, key in rows.all() if key_powers(key) & set(powers))


async def tell_seat_talks(
    session: AsyncSession,
    game: Game,
    powers: Sequence[str],
    line: str,
    *,
    user_id: int | None,
    key: str,
    now: datetime,
    phase_id: int | None = None,
) -> int:
    """Queue ``line`` for each pair place of the seat holding ``powers``; how many."""
    places = await seat_places(session, game.row_id, powers)
    for place_id in places:
        enqueue(
            session,
            SeatPlayedBy(
                game_id=game.row_id,
                game_name=game.name,
                title=f"{say.powers_text(powers)}: who plays it now",
                lines=[line],
                powers=list(powers),
                user_id=user_id,
            ),
            target=Target.place(place_id),
            key=f"{key}:{place_id}",
            now=now,
            phase_id=phase_id,
        )
    return len(places)


async def played_by_it_while_absent(session: AsyncSession, game: Game, powers: Sequence[str]) -> bool:
    """Whether the built-in player plays ``powers`` while their player is in civil disorder (the
    player's status before they come back)."""
    flags = await session.exec(
        select(PowerAssignment.built_in).where(
            PowerAssignment.game_id == game.row_id, col(PowerAssignment.power).in_(list(powers))
        )
    )
    absent_seats = GameSettings.from_json(game.settings).absent_seats
    return any(plays(flag, PlayerStatus.CIVIL_DISORDER, absent_seats) for flag in flags.all())


def _is(powers: Sequence[str]) -> str:
    return "is" if len(powers) == 1 else "are"


def taken_by_it(powers: Sequence[str], *, absent: int | None) -> str:
    """The built-in player plays the seat now. ``absent``: its player, who still holds it (civil
    disorder) and may read this; None: nobody holds it any more (they left, or were replaced)."""
    names = say.powers_text(powers)
    if absent is None:
        return (
            f"{names} {_is(powers)} now played by the {LABEL}. Nobody reads this on {names}'s side any "
            f"more, and the {LABEL} writes to no one; a person who takes the seat over reads it from then on."
        )
    return (
        f"{names} {_is(powers)} now played by the {LABEL} while [[user:{absent}]] is away. The {LABEL} "
        f"reads nothing here and writes to no one; [[user:{absent}]] can still read this and take the "
        "seat back by sending orders."
    )


def stopped(powers: Sequence[str], *, absent: int | None) -> str:
    """The built-in player stops playing the seat (a moderator's /mod builtin off)."""
    names = say.powers_text(powers)
    back = f"[[user:{absent}]] comes back or " if absent is not None else ""
    return f"The {LABEL} no longer plays {names}: its units hold until {back}a person takes the seat over."


def taken_back(powers: Sequence[str], user_id: int, *, returning: bool) -> str:
    """A person plays the seat again: its own player back (``returning``), or a newcomer."""
    names = say.powers_text(powers)
    if returning:
        return f"[[user:{user_id}]] plays {names} again: the {LABEL} no longer does."
    return (
        f"[[user:{user_id}]] now plays {names}, taking the seat over from the {LABEL}, and reads this "
        "from now on."
    )
