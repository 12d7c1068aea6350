"""Absent players at a close: missed-orders counters, civil disorder after too many missed movement
phases, and players whose powers are all gone.

Civil disorder is a state of the *player* (every power they hold): their orders are ignored and the
adjudicator treats their powers as the rulebook says (units hold and do not support each other,
dislodged units are disbanded, no builds, removals by distance; engine.adjudicate's ``civil_disorder``).
A player comes back by sending orders, saying they are ready, or voting (gm.ordering.submission,
gm.endings.votes), or a
moderator takes them out of it (gm.moderation.actions).

Everything a close changes here is written down in a :class:`Bookkeeping`, stored with the phase's
results, so that a rollback (gm.moderation.rollback) can undo exactly that and nothing a moderator did since.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game, Player, PlayerStatus, PowerAssignment
from engine.variants import get_variant
from gm.builtin import seats as builtin_seats
from gm.builtin import talks as builtin_talks
from gm.delivery.outbox import Target, enqueue
from gm.endings import ending
from gm.game_log import log_event
from gm.messages import payloads as say
from gm.messages.kinds import CivilDisorder
from gm.ordering.progress import PhaseState
from gm.phases.results import Missed
from gm.settings import GameSettings, seat_offer, seat_words

PRESENT = (PlayerStatus.ACTIVE, PlayerStatus.CIVIL_DISORDER)


@dataclass(slots=True)
class Bookkeeping:
    """What a close changed on players and power assignments, before and after (for a rollback)."""

    players: dict[str, dict[str, Any]] = field(default_factory=dict)  # player id -> {"before", "after"}
    assignments: dict[str, dict[str, Any]] = field(default_factory=dict)  # power -> {"before", "after"}

    def note_player(self, player: Player, before: dict[str, Any]) -> None:
        after = player_fields(player)
        if after != before:
            self.players[str(player.id)] = {"before": before, "after": after}

    def note_assignment(self, power: str, before: int | None, after: int | None) -> None:
        if before != after:
            self.assignments[power] = {"before": before, "after": after}

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "assignments": self.assignments}


def player_fields(player: Player) -> dict[str, Any]:
    return {
        "status": str(player.status),
        "missed_phases": player.missed_phases,
        "missed_in_a_row": player.missed_in_a_row,
        "ordered_phases": player.ordered_phases,
        "civil_disorders": player.civil_disorders,
    }


async def count_missed(
    session: AsyncSession,
    game_id: int,
    state: PhaseState,
    missed: Missed,
    *,
    civil_disorder_after: int,
    book: Bookkeeping,
) -> list[tuple[Player, list[str]]]:
    """Update the missed-orders counters (and the phases ordered, for /stats); return the players who
    fall into civil disorder now, each with their powers.

    A player missed the phase when none of their powers that had to act sent anything; acting for any
    of them resets the run. Only movement phases count toward civil disorder."""
    movement = state.board.phase.kind == "M"
    acted = {p for p, d in state.duties.items() if d.has_work and state.active(p)} - set(missed.none)
    players = (await session.exec(select(Player).where(Player.game_id == game_id))).all()
    fallen = []
    for player in players:
        if player.status != PlayerStatus.ACTIVE:
            continue
        before = player_fields(player)
        mine = sorted(p for p, pl in state.player_of.items() if pl is not None and pl.id == player.id)
        if set(mine) & set(missed.none) and not set(mine) & acted:
            player.missed_phases += 1
            if movement:
                player.missed_in_a_row += 1
                if 0 < civil_disorder_after <= player.missed_in_a_row:
                    player.status = PlayerStatus.CIVIL_DISORDER
                    player.civil_disorders += 1
                    fallen.append((player, mine))
        elif set(mine) & acted:
            player.missed_in_a_row = 0
            player.ordered_phases += 1
        book.note_player(player, before)
    return fallen


async def eliminate(
    session: AsyncSession, game_id: int, board_after: dict[str, Any], book: Bookkeeping
) -> list[tuple[Player, list[str]]]:
    """Mark players whose every power has lost all units and centers; return them with their powers."""
    rows = (
        await session.exec(
            select(PowerAssignment, Player)
            .join(Player, col(Player.id) == col(PowerAssignment.player_id))
            .where(PowerAssignment.game_id == game_id)
        )
    ).all()
    held: dict[int | None, tuple[Player, list[str]]] = {}
    for assignment, player in rows:
        held.setdefault(player.id, (player, []))[1].append(assignment.power)
    alive = set(ending.survivors(board_after, [a.power for a, _ in rows]))
    out = []
    for player, powers in held.values():
        if player.status in PRESENT and not set(powers) & alive:
            before = player_fields(player)
            player.status = PlayerStatus.ELIMINATED
            book.note_player(player, before)
            out.append((player, sorted(powers)))
    return out


@dataclass(frozen=True, slots=True)
class Fallen:
    """A player who falls into civil disorder, and why, for the game channel and for the player."""

    user_id: int
    powers: list[str]
    why: str  # for the game channel (names the player)
    why_you: str  # for the player's direct message


def missed_runs(after: int) -> str:
    """``in the last movement phase``, ``for 3 movement phases in a row``: the run that puts a player
    in civil disorder."""
    return "in the last movement phase" if after == 1 else f"for {after} movement phases in a row"


async def announce_missed_runs(
    session: AsyncSession,
    game: Game,
    fallen: Sequence[tuple[Player, list[str]]],
    *,
    after: int,
    phase_id: int,
    now: datetime,
) -> None:
    """At a close: the players who fell into civil disorder for missing ``after`` movement phases in
    a row, in one announcement (one moderator alert), in the order of the variant's powers; and, for
    the seats the built-in player takes over, their rivals learn it where they talk to them."""
    powers = get_variant(game.variant).game_map().powers
    robot = await builtin_seats.built_in_powers(session, game) if fallen else frozenset()
    announce_civil_disorder(
        session,
        game,
        [
            Fallen(
                user_id=player.user_id,
                powers=mine,
                why=f"[[user:{player.user_id}]] sent no orders for {say.powers_text(mine)} "
                f"{missed_runs(after)}.",
                why_you=f"You sent no orders for {say.powers_text(mine)} {missed_runs(after)}.",
            )
            for player, mine in sorted(fallen, key=lambda fell: powers.index(fell[1][0]))
        ],
        key=f"civil_disorder:{phase_id}",
        now=now,
        phase_id=phase_id,
        built_in=bool(fallen) and all(p in robot for _, mine in fallen for p in mine),
    )
    for player, mine in fallen:
        if set(mine) <= robot:
            await builtin_talks.tell_seat_talks(
                session,
                game,
                mine,
                builtin_talks.taken_by_it(mine, absent=player.user_id),
                user_id=None,
                key=f"civil_disorder:{phase_id}:{player.id}:talks",
                now=now,
                phase_id=phase_id,
            )


def announce_civil_disorder(
    session: AsyncSession,
    game: Game,
    fallen: Sequence[Fallen],
    *,
    key: str,
    now: datetime,
    phase_id: int | None = None,
    actor_id: int | None = None,
    alert_moderators: bool = True,
    built_in: bool = False,
) -> None:
    """Tell the game channel, in one message, that these players' powers are in civil disorder;
    alert the moderators once (unless a moderator did it); tell each player by direct message (they
    may not read the channel, and sending orders brings them back); log it. ``built_in``: the
    built-in player plays those powers from now on (the game's ``absent_seats`` setting)."""
    if not fallen:
        return
    _tell_the_game(session, game, fallen, key=key, now=now, phase_id=phase_id,
                   alert_moderators=alert_moderators, built_in=built_in)  # fmt: skip
    until_you = (
        "Until you are back, the built-in player gives your orders."
        if built_in
        else "Until you are back, your units hold and do not support each other, and nothing is built."
    )
    for one in fallen:
        mine = say.powers_text(one.powers)
        enqueue(
            session,
            CivilDisorder(
                game_id=game.row_id,
                game_name=game.name,
                title=f"{game.name}: {mine} {'is' if len(one.powers) == 1 else 'are'} in civil disorder",
                lines=[
                    one.why_you,
                    until_you,
                    "To play again, send orders for the current phase or use [[cmd:ready]]. If you cannot go "
                    "on, tell a moderator: they can give your powers to someone else.",
                ],
                powers=one.powers,
            ),
            phase_id=phase_id,
            target=Target.user(one.user_id),
            key=f"{key}:dm:{one.user_id}",
            now=now,
        )
        if actor_id is None:  # a moderator's action is logged by gm.moderation.actions
            log_event(
                session,
                game.row_id,
                "civil_disorder",
                at=now,
                detail={"powers": one.powers, "user_id": one.user_id, "why": one.why},
            )


def _tell_the_game(
    session: AsyncSession,
    game: Game,
    fallen: Sequence[Fallen],
    *,
    key: str,
    now: datetime,
    phase_id: int | None,
    alert_moderators: bool,
    built_in: bool,
) -> None:
    """One message in the game channel for everyone fallen (it alerts the moderators, once)."""
    powers = [p for one in fallen for p in one.powers]
    names = say.powers_text(powers)
    verb = "is" if len(powers) == 1 else "are"
    meaning = (
        f"{names}: the built-in player gives their orders from now on, until a player comes back or "
        "a person takes the seat."
        if built_in
        else f"{names}: units hold and do not support each other, dislodged units are disbanded, "
        "nothing is built, and removals follow the civil-disorder rule."
    )
    enqueue(
        session,
        CivilDisorder(
            game_id=game.row_id,
            game_name=game.name,
            title=f"{names} {verb} in civil disorder",
            lines=[
                *(one.why for one in fallen),
                meaning,
                seat_words(GameSettings.from_json(game.settings).take_over, names, left=False),
            ],
            powers=powers,
            user_id=fallen[0].user_id if len(fallen) == 1 else None,
            players=[{"user_id": one.user_id, "powers": one.powers} for one in fallen],
            alert_moderators=alert_moderators,
            **seat_offer(game, [one.powers for one in fallen]),
        ),
        phase_id=phase_id,
        target=Target.game_channel(),
        key=key,
        now=now,
    )
