"""Replacing a player (/mod replace): the seat holding a power, with every power its player holds,
goes to someone else, who inherits the powers' orders, private channels and negotiation spaces.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import (
    Game,
    GameLogEntry,
    OrderRecord,
    PhaseRecord,
    Player,
    PlayerStatus,
    PowerAssignment,
    Proposal,
    ProposalStatus,
    ReadyFlag,
    Spectator,
    Vote,
)
from engine.variants import read_power
from gm.actor import Actor
from gm.builtin.seats import LABEL as BUILT_IN_LABEL
from gm.builtin.seats import built_in_powers, robot_seat
from gm.builtin.talks import taken_back, tell_seat_talks
from gm.clock import require_aware, utcnow
from gm.delivery.outbox import Target, enqueue
from gm.errors import AlreadyJoined, NotAllowed
from gm.messages import payloads as say
from gm.messages.kinds import ReplacedYou, Welcome
from gm.messages.maps import POSITION_MAP, fog_kind
from gm.moderation.shared import (
    ModerationResult,
    action_result,
    announce_action,
    log_action,
    running_game,
    seat_of,
)
from gm.ordering.examples import examples_for_board
from gm.settings import GameSettings, deadline_zone
from gm.setup.server import check_may_play


@dataclass(frozen=True, slots=True)
class Replacement:
    old_user_id: int | None  # None: the seat was the built-in player's, with nobody holding it
    new_user_id: int
    powers: tuple[str, ...]
    channels: dict[str, int | None]  # power -> its private channel: give the new player access


async def replace_player(
    session: AsyncSession,
    game_id: int,
    actor: Actor,
    *,
    power: str,
    new_user_id: int,
    sees_all: bool = False,
    reads_places: bool = False,
    now: datetime | None = None,
) -> ModerationResult:
    """Give the seat holding ``power`` (every power its player holds) to ``new_user_id``.
    ``sees_all``: no channel can be hidden from the newcomer (gm.setup.server); ``reads_places``: the
    newcomer could read the game's private places without playing it (a moderator): the game channel
    is told, and a moderator cannot give the seat to themselves (another must).

    The new player inherits the powers' current orders (kept as they are), their private channels and
    negotiation spaces (the adapter grants access from ``details["replacement"]``); the powers' ready
    flags and votes in the open phase are cleared, since they were the old player's. The old player is
    marked replaced. Refused when the new player already plays in the game."""
    now = require_aware(now or utcnow())
    game, phase = await running_game(session, game_id, actor, "replace")
    if new_user_id == actor.user_id and reads_places:
        raise NotAllowed(
            f"You could read {game.name}'s private channels and talks as a moderator: another "
            "moderator must give you a seat in it.",
            "Ask them to run [[cmd:mod replace]]; nothing was changed.",
        )
    robot = await robot_seat(session, game, read_power(game.variant, power))
    if robot is not None:  # nobody holds it: the built-in player plays it
        old, powers = None, robot
    else:
        _, old, powers = await seat_of(session, game, power, include_gone=True)
    return await hand_over_seat(
        session,
        game,
        phase,
        actor,
        old,
        powers,
        new_user_id,
        now=now,
        sees_all=sees_all,
        read_before=reads_places,
    )


SEES_ALL_LINE = (
    "[[user:{user}]] could read every channel of this game, the other powers' channels and private "
    "talks included (the server's owner or an administrator): I cannot hide a channel from them."
)
READ_BEFORE_LINE = (
    "[[user:{user}]] is a moderator: they could read this game's private channels and talks before "
    "taking a seat in it. From now on they read only their own places."
)
SEAT_HANDED = {
    "moderator": "A moderator gave you {names}, replacing the previous player.",
    "take_over": "You took over {names}, whose player had left or fallen into civil disorder.",
    "approved": "A moderator approved your request: you took over {names}.",
}


@dataclass(frozen=True, slots=True)
class Handover:
    """One seat changing hands: what the steps of :func:`hand_over_seat` share."""

    game: Game
    phase: PhaseRecord
    powers: list[str]
    old_user_id: int | None  # None: the built-in player's seat
    new_user_id: int
    how: str  # a key of SEAT_HANDED
    now: datetime

    @property
    def names(self) -> str:
        return say.powers_text(self.powers)


async def hand_over_seat(
    session: AsyncSession,
    game: Game,
    phase: PhaseRecord,
    actor: Actor,
    old: Player | None,
    powers: list[str],
    new_user_id: int,
    *,
    now: datetime,
    how: str = "moderator",
    sees_all: bool = False,
    read_before: bool = False,
) -> ModerationResult:
    """The seat of ``old`` (its ``powers``; None: a seat nobody holds, played by the built-in player)
    goes to ``new_user_id``: the whole replacement, logged and announced, after the caller checked
    that ``actor`` may do it. ``how`` (a key of :data:`SEAT_HANDED`) says in the newcomer's welcome
    how the seat came to them. The built-in player stops playing it at once. ``sees_all``: no
    channel can be hidden from the newcomer: refused when the server says so, else announced;
    ``read_before``: the newcomer could read the game's private places before (a moderator): announced."""
    await check_may_play(session, game.guild_id, new_user_id, sees_all=sees_all)
    old_user_id = old.user_id if old is not None else None
    if new_user_id == old_user_id:
        raise AlreadyJoined(
            f"[[user:{new_user_id}]] already plays {say.powers_text(powers)}.", "Pick someone else."
        )
    seat = Handover(game, phase, powers, old_user_id, new_user_id, how, now)
    newcomer = await _seat_newcomer(session, seat)
    it_played = bool(set(powers) & await built_in_powers(session, game))  # before the seat is a person's
    channels = await _move_powers(session, seat, old, newcomer)
    replacement = Replacement(old_user_id, new_user_id, tuple(powers), channels)
    log = await log_action(
        session,
        game,
        actor,
        now,
        "replace",
        powers=powers,
        old_user_id=old_user_id,
        new_user_id=new_user_id,
        how=how,
        capacity="player taking over an open seat" if how == "take_over" else None,
    )
    await session.flush()
    text = _announce_handover(session, seat, log, sees_all=sees_all, read_before=read_before)
    if it_played:  # after the announcement, which lets the newcomer into the seat's places
        await tell_seat_talks(
            session,
            game,
            powers,
            taken_back(powers, new_user_id, returning=False),
            user_id=new_user_id,
            key=f"replace:{game.id}:{log.id}:talks",
            now=now,
            phase_id=phase.id,
        )
    await _welcome(session, seat, log.row_id)
    if old_user_id is not None:  # else nobody to tell: the built-in player's seat
        _tell_replaced(session, seat, old_user_id, log.row_id)
    return action_result(game, "replace", text, phase, details={"replacement": replacement})


async def _seat_newcomer(session: AsyncSession, seat: Handover) -> Player:
    """The newcomer's player row: a new one, or their old one in this game brought back (they had
    left or been replaced, and hold nothing); refused when they play in the game. A spectator who
    takes the seat watches no more: they play."""
    game, new_user_id, now = seat.game, seat.new_user_id, seat.now
    existing = (
        await session.exec(select(Player).where(Player.game_id == game.id, Player.user_id == new_user_id))
    ).first()
    if existing is not None:
        held = (
            await session.exec(select(PowerAssignment.power).where(PowerAssignment.player_id == existing.id))
        ).all()
        if existing.status not in (PlayerStatus.LEFT, PlayerStatus.REPLACED) or held:
            what = f"plays {say.powers_text(sorted(held))}" if held else "is in the game"
            raise AlreadyJoined(
                f"[[user:{new_user_id}]] already {what} in {game.name}; a player cannot take a second seat.",
                "Pick someone who is not playing in this game.",
            )
        existing.status = PlayerStatus.ACTIVE
        existing.joined_at, existing.left_at = now, None
        existing.missed_phases = existing.missed_in_a_row = 0
        newcomer = existing
    else:
        newcomer = Player(game_id=game.row_id, user_id=new_user_id, joined_at=now)
        session.add(newcomer)
    await session.flush()
    await session.exec(
        update(Spectator)
        .where(
            col(Spectator.game_id) == game.row_id,
            col(Spectator.user_id) == new_user_id,
            col(Spectator.stopped_at).is_(None),
        )
        .values(stopped_at=now)
    )
    return newcomer


async def _move_powers(
    session: AsyncSession, seat: Handover, old: Player | None, newcomer: Player
) -> dict[str, int | None]:
    """The powers go to ``newcomer``; ``old`` is marked replaced; the powers' ready flags and votes
    in the open phase, the old player's, are cleared. Returns each power's private channel."""
    game, phase, powers = seat.game, seat.phase, seat.powers
    assignments = (
        await session.exec(
            select(PowerAssignment).where(
                PowerAssignment.game_id == game.id, col(PowerAssignment.power).in_(powers)
            )
        )
    ).all()
    for a in assignments:
        a.player_id = newcomer.id
        a.built_in = None  # a person plays it now; should they go, the game's setting decides again
    if old is not None and old.status not in (PlayerStatus.LEFT, PlayerStatus.REPLACED):
        old.times_replaced += 1  # a seat lost (one who left has a civil disorder counted already)
        old.status = PlayerStatus.REPLACED
        old.left_at = seat.now
    await session.exec(
        delete(ReadyFlag).where(col(ReadyFlag.phase_id) == phase.id, col(ReadyFlag.power).in_(powers))
    )
    open_ids = select(Proposal.id).where(
        Proposal.phase_id == phase.id, Proposal.status == ProposalStatus.OPEN
    )
    await session.exec(delete(Vote).where(col(Vote.proposal_id).in_(open_ids), col(Vote.power).in_(powers)))
    return {a.power: a.channel_id for a in assignments}


def _announce_handover(
    session: AsyncSession, seat: Handover, log: GameLogEntry, *, sees_all: bool, read_before: bool
) -> str:
    """The game channel's announcement (the adapter lets the newcomer into the seat's places from
    it); returns its text, the moderator's answer too."""
    new_user_id, old_user_id = seat.new_user_id, seat.old_user_id
    verb = "takes over" if seat.how == "take_over" else "now plays"
    previous = f"[[user:{old_user_id}]]" if old_user_id is not None else f"the {BUILT_IN_LABEL}"
    text = f"[[user:{new_user_id}]] {verb} {seat.names}, replacing {previous}."
    announce_action(
        session,
        seat.game,
        seat.phase,
        "replace",
        text,
        [SEES_ALL_LINE.format(user=new_user_id)] * sees_all
        + [READ_BEFORE_LINE.format(user=new_user_id)] * read_before,
        seat.now,
        log,
        kind="replaced",
        powers=seat.powers,
        old_user_id=old_user_id,
        new_user_id=new_user_id,
    )
    return text


def _welcome_line(seat: Handover) -> str:
    names = seat.names
    if seat.old_user_id is not None:
        return SEAT_HANDED.get(seat.how, SEAT_HANDED["moderator"]).format(names=names)
    if seat.how == "take_over":
        return f"You took over {names} from the {BUILT_IN_LABEL}."
    return f"You now play {names}, which the {BUILT_IN_LABEL} played until now."


async def _welcome(session: AsyncSession, seat: Handover, log_id: int) -> None:
    """The newcomer's welcome by DM: their powers, units, centers and the orders already given."""
    game, phase, powers, names = seat.game, seat.phase, seat.powers, seat.names
    board = phase.board
    given = (
        await session.exec(
            select(OrderRecord)
            .where(OrderRecord.phase_id == phase.id, col(OrderRecord.power).in_(powers))
            .order_by(col(OrderRecord.id))
        )
    ).all()
    enqueue(
        session,
        Welcome(
            game_id=game.row_id,
            game_name=game.name,
            title=f"You play {names} in {game.name}",
            lines=[
                _welcome_line(seat),
                "The orders already given for this phase are kept; see them with [[cmd:orders show]].",
            ],
            phase=phase.name,
            deadline=phase.deadline,
            deadline_zone=deadline_zone(game),
            powers=powers,
            units={p: list(board.get("units", {}).get(p, [])) for p in powers},
            centers={p: sorted(board.get("centers", {}).get(p, [])) for p in powers},  # owned now
            orders={p: [o.text for o in given if o.power == p] for p in powers},  # now theirs to see
            replacement=True,
            variant=game.variant,
            examples=examples_for_board(board, game.variant, powers),
            maps=[say.map_ref(phase.row_id, phase.name, _seat_map(game, powers))],  # if drawn
        ),
        phase_id=phase.id,
        target=Target.user(seat.new_user_id),
        key=f"welcome:{game.id}:{seat.new_user_id}:mod{log_id}",
        now=seat.now,
    )


def _tell_replaced(session: AsyncSession, seat: Handover, old_user_id: int, log_id: int) -> None:
    game = seat.game
    enqueue(
        session,
        ReplacedYou(
            game_id=game.row_id,
            game_name=game.name,
            title=f"You no longer play {seat.names} in {game.name}",
            lines=[
                "A moderator gave your powers to another player. Thank you for playing."
                if seat.how == "moderator"
                else "Another player took over your powers. Thank you for playing."
            ],
            powers=seat.powers,
        ),
        phase_id=seat.phase.id,
        target=Target.user(old_user_id),
        key=f"replaced_you:{game.id}:{old_user_id}:mod{log_id}",
        now=seat.now,
    )


def _seat_map(game: Game, powers: list[str]) -> str:
    """The map a newcomer's welcome carries: the current position (under the fog of war, the seat's
    first power's view, gm.reports.history.seat_view_power; drawn before the hand-over by the facade)."""
    fogged = GameSettings.from_json(game.settings).fogged
    return fog_kind(POSITION_MAP, min(powers)) if fogged else POSITION_MAP
