"""Open seats: a power whose player left the game or fell into civil disorder may be taken over by a
member of the server who does not play in the game, without waiting for a moderator's /mod replace.

The game's ``take_over`` setting decides how (gm.settings.TAKE_OVER_MODES):

- ``open``: the first such member who asks gets the seat at once (every power of that player);
- ``approval``: asking posts a request in the game channel; a moderator who does not play in the game
  approves it (the replacement is then theirs, as with /mod replace) or declines it;
- ``off``: only /mod replace fills a seat; the game channel offers no button.

A member who could read the game's private places without playing it (a moderator: ``reads_places``)
always asks, whatever the mode, and another moderator decides; the game channel is told, in the
request and in the announcement, that this player could read the talks before.

The replacement itself is gm.moderation.replacement's: the newcomer inherits the orders, channels and
negotiation spaces; the old player loses them.
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game, GameStatus, PhaseRecord, PhaseStatus, Player, PlayerStatus, PowerAssignment
from engine.variants import read_power
from gm.actor import Actor
from gm.builtin.seats import built_in_powers, robot_seat
from gm.clock import require_aware, utcnow
from gm.delivery.outbox import Target, enqueue, existing_keys
from gm.errors import AlreadyJoined, GameNotStarted, GameOver, NotAllowed, WrongGameState
from gm.messages import payloads as say
from gm.messages.kinds import TakeOverDeclined, TakeOverRequest
from gm.moderation.replacement import READ_BEFORE_LINE, hand_over_seat
from gm.moderation.shared import (
    ModerationResult,
    action_result,
    log_action,
    phase_busy,
    running_game,
    seat_of,
)
from gm.reading.lookup import ENDED_STATES, latest_phase, load_game
from gm.settings import GameSettings
from gm.setup.server import check_may_play

OPEN_STATES = (PlayerStatus.LEFT, PlayerStatus.CIVIL_DISORDER)
"""A seat whose player is in one of these states may be taken over."""


def take_over_mode(game: Game) -> str:
    return GameSettings.from_json(game.settings or {}).take_over


async def take_over(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    power: str,
    *,
    sees_all: bool = False,
    reads_places: bool = False,
    now: datetime | None = None,
) -> ModerationResult:
    """``user_id`` asks for the open seat holding ``power``; ``reads_places``: they could read the
    game's private places without playing (a moderator): they ask whatever the mode.

    Returns the replacement (action ``replace``) when the game lets anyone take an open seat, or the
    request waiting for a moderator (action ``take_over_request``) when it asks for approval. Refused
    when the game is not running, the seat is not open, taking over is off, or the user already plays
    in the game."""
    now = require_aware(now or utcnow())
    game, phase = await _running(session, game_id)
    mode = take_over_mode(game)
    if mode == "off":
        raise NotAllowed(
            f"In {game.name} only a moderator fills an open seat.",
            "Ask a moderator to give it to you with [[cmd:mod replace]].",
        )
    await _not_playing(session, game, user_id)
    await check_may_play(session, game.guild_id, user_id, sees_all=sees_all)
    wanted, old, powers = await open_seat(session, game, power)
    if mode == "approval" or reads_places:
        return await _request(session, game, phase, user_id, wanted, powers, now, reads_places=reads_places)
    return await hand_over_seat(
        session,
        game,
        phase,
        Actor(user_id),
        old,
        powers,
        user_id,
        now=now,
        how="take_over",
        sees_all=sees_all,
    )


async def approve_take_over(
    session: AsyncSession,
    game_id: int,
    actor: Actor,
    power: str,
    user_id: int,
    *,
    sees_all: bool = False,
    reads_places: bool = False,
    now: datetime | None = None,
) -> ModerationResult:
    """A moderator (one who does not play in the game, and not the member who asked) gives the open
    seat to the member who asked."""
    now = require_aware(now or utcnow())
    game, phase = await running_game(session, game_id, actor, "replace")
    if actor.user_id == user_id:
        raise NotAllowed(
            "You asked for this seat: another moderator must approve it.", "Nothing was changed."
        )
    _, old, powers = await open_seat(session, game, power)
    return await hand_over_seat(
        session,
        game,
        phase,
        actor,
        old,
        powers,
        user_id,
        now=now,
        how="approved",
        sees_all=sees_all,
        read_before=reads_places,
    )


async def decline_take_over(
    session: AsyncSession,
    game_id: int,
    actor: Actor,
    power: str,
    user_id: int,
    *,
    now: datetime | None = None,
) -> ModerationResult:
    """A moderator declines a request; the member who asked is told by direct message."""
    now = require_aware(now or utcnow())
    game, phase = await running_game(session, game_id, actor, "replace")
    wanted, _, powers = await open_seat(session, game, power)
    log = await log_action(session, game, actor, now, "take_over_declined", powers=powers, user_id=user_id)
    names = say.powers_text(powers)
    enqueue(
        session,
        TakeOverDeclined(
            game_id=game.row_id,
            game_name=game.name,
            title=f"{game.name}: your request to take over {names} was declined",
            lines=["A moderator declined it. You can ask them why, or join another game."],
            powers=powers,
        ),
        phase_id=phase.id,
        target=Target.user(user_id),
        key=f"take_over_declined:{game.id}:{wanted}:{user_id}:{log.id}",
        now=now,
    )
    return action_result(game, "take_over_declined", f"Declined the request to take over {names}.", phase)


async def open_seat(session: AsyncSession, game: Game, power: str) -> tuple[str, Player | None, list[str]]:
    """The power, its player (who left or is in civil disorder; None: a seat nobody holds that the
    built-in player plays) and every power of that seat; refused when the seat is played (taken over
    already, say) or belongs to nobody."""
    wanted = read_power(game.variant, power)
    robot = await robot_seat(session, game, wanted)
    if robot is not None:
        return wanted, None, robot
    wanted, player, powers = await seat_of(session, game, power, include_gone=True)
    if player.status not in OPEN_STATES:
        raise WrongGameState(
            f"{say.powers_text(powers)} is played by [[user:{player.user_id}]]: the seat is not open.",
            "A seat opens when its player leaves or falls into civil disorder.",
        )
    return wanted, player, powers


async def open_seats(session: AsyncSession, game: Game) -> list[list[str]]:
    """Every open seat of a running game, as the powers each holds (for /game status): those whose
    player left or fell into civil disorder, and those nobody holds that the built-in player plays."""
    robots: list[list[str]] = []
    for power in sorted(await built_in_powers(session, game)):
        if not any(power in seat for seat in robots) and (seat := await robot_seat(session, game, power)):
            robots.append(seat)
    rows = (
        await session.exec(
            select(PowerAssignment.power, Player)
            .join(Player, col(Player.id) == col(PowerAssignment.player_id))
            .where(PowerAssignment.game_id == game.id)
            .order_by(PowerAssignment.power)
        )
    ).all()
    seats: dict[int, list[str]] = {}
    for power, player in rows:
        if player.status in OPEN_STATES:
            seats.setdefault(player.row_id, []).append(power)
    return list(seats.values()) + robots


async def _running(session: AsyncSession, game_id: int) -> tuple[Game, PhaseRecord]:
    game = await load_game(session, game_id, for_update=True)
    if game.status == GameStatus.FORMING:
        raise GameNotStarted(f"{game.name} has not started yet.", "Join it with [[cmd:game join]] instead.")
    if game.status in ENDED_STATES:
        raise GameOver(f"{game.name} is over; there is no seat to take.")
    phase = await latest_phase(session, game.row_id, for_update=True)
    if phase is None or phase.status != PhaseStatus.OPEN:
        raise phase_busy(game)
    return game, phase


async def _not_playing(session: AsyncSession, game: Game, user_id: int) -> None:
    held = (
        await session.exec(
            select(PowerAssignment.power)
            .join(Player, col(Player.id) == col(PowerAssignment.player_id))
            .where(PowerAssignment.game_id == game.id, Player.user_id == user_id)
            .order_by(PowerAssignment.power)
        )
    ).all()
    if held:
        raise AlreadyJoined(
            f"You play {say.powers_text(list(held))} in {game.name}; a player cannot take a second seat.",
            "Send orders for your own powers; if you left or fell into civil disorder, sending orders "
            "or [[cmd:ready]] brings you back.",
        )


async def _request(
    session: AsyncSession,
    game: Game,
    phase: PhaseRecord,
    user_id: int,
    power: str,
    powers: list[str],
    now: datetime,
    *,
    reads_places: bool = False,
) -> ModerationResult:
    names = say.powers_text(powers)
    key = f"take_over_request:{game.id}:{power}:{user_id}:{phase.id}"
    message = f"You asked to take over {names}; a moderator will approve or decline it."
    if reads_places:
        message = (
            f"As a moderator you could read {game.name}'s private channels and talks without playing "
            f"it, so another moderator decides: you asked to take over {names}, and a moderator will "
            "approve or decline it."
        )
    if await existing_keys(session, [key]):
        return action_result(game, "take_over_request", message + " (asked already)", phase)
    enqueue(
        session,
        TakeOverRequest(
            game_id=game.row_id,
            game_name=game.name,
            title=f"A member asks to take over {names}",
            lines=[
                f"[[user:{user_id}]] asks to take over {names}.",
                *([READ_BEFORE_LINE.format(user=user_id)] if reads_places else []),
                f"A moderator who does not play in {game.name} may approve or decline below; "
                "approving gives them the seat, its orders and its private channels.",
            ],
            phase=phase.name,
            powers=powers,
            power=power,
            user_id=user_id,
            alert_moderators=True,
        ),
        phase_id=phase.id,
        target=Target.game_channel(),
        key=key,
        now=now,
    )
    return action_result(game, "take_over_request", message, phase)
