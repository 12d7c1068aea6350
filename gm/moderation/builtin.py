"""/mod builtin: a moderator gives a seat to the built-in player, or takes it back.

On: the built-in player gives the seat's orders from the phase's close on (every power of the seat);
an active player is put in civil disorder first, as /mod disorder would (they come back by sending
orders). A person who takes the seat (the Take over button, /mod replace) plays it at once.
Off: the built-in player stops; the seat holds in the rulebook's civil disorder (a neutral power:
its units hold), whatever the game's ``absent_seats`` setting.
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game, PhaseRecord, Player, PlayerStatus, PowerAssignment
from engine.variants import game_map, read_power
from gm.actor import Actor
from gm.builtin import talks
from gm.builtin.seats import LABEL, built_in_powers, robot_seat
from gm.builtin.talks import tell_seat_talks
from gm.clock import require_aware, utcnow
from gm.delivery.outbox import Target, enqueue
from gm.errors import WrongGameState
from gm.messages import payloads as say
from gm.messages.kinds import CivilDisorder
from gm.moderation.shared import (
    ModerationResult,
    action_result,
    announce_action,
    log_action,
    running_game,
    with_follow_ups,
)
from gm.reading.lookup import powers_of
from gm.settings import seat_offer
from gm.setup.places import GONE


async def set_built_in(
    session: AsyncSession, game_id: int, actor: Actor, *, power: str, on: bool, now: datetime | None = None
) -> ModerationResult:
    """Give the seat holding ``power`` to the built-in player (``on``), or take it back."""
    now = require_aware(now or utcnow())
    game, phase = await running_game(session, game_id, actor, "builtin")
    player, powers = await _seat(session, game, power)
    await _check_change(session, game, powers, on)
    rows = (
        await session.exec(
            select(PowerAssignment).where(
                PowerAssignment.game_id == game.id, col(PowerAssignment.power).in_(powers)
            )
        )
    ).all()
    for row in rows:
        row.built_in = on
    was_active = player is not None and player.status == PlayerStatus.ACTIVE
    if on and player is not None and was_active:
        player.status = PlayerStatus.CIVIL_DISORDER  # as /mod disorder: they come back by sending orders
        player.civil_disorders += 1
    user_id = player.user_id if player is not None else None
    log = await log_action(session, game, actor, now, "builtin", powers=powers, on=on, user_id=user_id)
    await session.flush()
    if player is not None:  # a person's seat has private talks: they learn who plays it now
        holds = user_id if player.status not in GONE else None
        await tell_seat_talks(
            session,
            game,
            powers,
            talks.taken_by_it(powers, absent=holds) if on else talks.stopped(powers, absent=holds),
            user_id=None,
            key=f"builtin:{game.id}:{log.id}:talks",
            now=now,
            phase_id=phase.id,
        )
    if on:
        text = _announce_given(session, game, phase, powers, user_id, was_active, log.row_id, now)
    else:
        text = f"A moderator took {say.powers_text(powers)} from the {LABEL}: " + (
            "its units hold in civil disorder until its player comes back or a person takes the seat."
            if user_id is not None
            else "its units hold."
        )
        announce_action(session, game, phase, "builtin", text, [], now, log)
    result = action_result(game, "builtin", text, phase, details={"powers": powers, "user_id": user_id})
    return with_follow_ups(result, check_early_close=phase.id)


async def _seat(session: AsyncSession, game: Game, power: str) -> tuple[Player | None, list[str]]:
    """The player holding ``power`` (None: nobody, the built-in player's seat) and every power of
    that seat; refused for a power the variant does not have or one eliminated."""
    wanted = read_power(game.variant, power)
    if wanted not in game_map(game.variant).powers:
        raise WrongGameState(
            f"There is no power called {power!r} in {game.name}.",
            f"The powers are {say.powers_text(game_map(game.variant).powers)}.",
        )
    assignment = (
        await session.exec(
            select(PowerAssignment).where(PowerAssignment.game_id == game.id, PowerAssignment.power == wanted)
        )
    ).one()
    player = await session.get(Player, assignment.player_id) if assignment.player_id is not None else None
    if player is not None and player.status == PlayerStatus.ELIMINATED:
        raise WrongGameState(f"{say.power_name(wanted)} is eliminated.", "Nothing to play there.")
    if player is not None:
        return player, await powers_of(session, game.row_id, player.row_id)
    return None, await robot_seat(session, game, wanted) or [wanted]


async def _check_change(session: AsyncSession, game: Game, powers: list[str], on: bool) -> None:
    """Refused when the built-in player already plays the seat (``on``), or does not (off)."""
    playing = await built_in_powers(session, game)
    names = say.powers_text(powers)
    if on and set(powers) <= playing:
        raise WrongGameState(f"The {LABEL} already plays {names}.", "Nothing to change.")
    if not on and not set(powers) & playing:
        raise WrongGameState(
            f"The {LABEL} does not play {names}.",
            "Use [[cmd:mod builtin]] with state on to give it the seat.",
        )


def _announce_given(
    session: AsyncSession,
    game: Game,
    phase: PhaseRecord,
    powers: list[str],
    user_id: int | None,
    was_active: bool,
    log_id: int,
    now: datetime,
) -> str:
    """The seat given to the built-in player, in the game channel, and to its player if they were
    playing; returns the moderator's answer."""
    names = say.powers_text(powers)
    whose = f"[[user:{user_id}]]'s seat, " if user_id is not None else ""
    enqueue(
        session,
        CivilDisorder(
            game_id=game.row_id,
            game_name=game.name,
            title=f"The {LABEL} plays {names}",
            lines=[
                f"A moderator gave {whose}{names}, to the {LABEL}: it gives the orders from this "
                "phase on, is always ready and writes to no one.",
                "The seat goes back to a person as soon as one takes it over"
                + (" or its player sends orders." if user_id is not None else "."),
            ],
            phase=phase.name,
            powers=powers,
            user_id=user_id,
            players=[{"user_id": user_id, "powers": powers}] if user_id is not None else [],
            **seat_offer(game, [powers]),
        ),
        phase_id=phase.id,
        target=Target.game_channel(),
        key=f"builtin:{game.id}:{log_id}",
        now=now,
    )
    if user_id is not None and was_active:
        enqueue(
            session,
            CivilDisorder(
                game_id=game.row_id,
                game_name=game.name,
                title=f"{game.name}: the {LABEL} plays {names} for you",
                lines=[
                    f"A moderator of {game.name} gave {names} to the {LABEL}; it gives your orders "
                    "until you are back.",
                    "To play again, send orders for the current phase or use [[cmd:ready]].",
                ],
                powers=powers,
            ),
            phase_id=phase.id,
            target=Target.user(user_id),
            key=f"builtin:{game.id}:{log_id}:dm:{user_id}",
            now=now,
        )
    return f"A moderator gave {names} to the {LABEL}."
