"""Declaring, listing and cancelling absences (/absence): the days a player will be away.

An absence is declared for one game, or for every game the player plays on the server (forming or
running) when none is named; each game checks it by its own rules (gm.rules.absences.check_absence:
its limit of days a year, its wall clock for "today"), and a refusal by any of them names every
problem and declares nothing. Declared while a phase is under way, an absence covering that phase's
deadline moves it at once (gm.phases.absent), announced in the game channel by its dates only.

Players see and cancel their own absences; the game's creator and the server's moderators see and
cancel anyone's in the games they do not play in (a cancelled absence is kept, marked cancelled, and
moves nothing any more). A moderator or creator who plays in a game is a player there: their own
absences only, as for anyone else (whose absence moves which deadline is a rival's business).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import AbsenceRecord, Game, GameStatus, PhaseStatus, Player, PlayerStatus
from gm.actor import Actor, may_moderate
from gm.clock import require_aware, utcnow
from gm.errors import GameError, InvalidSettings, NotAllowed, UnknownGame
from gm.follow_ups import FollowUps
from gm.game_log import log_event
from gm.phases import absent
from gm.reading.info import PhaseInfo
from gm.reading.lookup import latest_phase, load_game
from gm.rules.absences import MONTHS, Absence, InvalidAbsence, check_absence, span_text, upcoming
from gm.settings import GameSettings

PLAYING = (PlayerStatus.ACTIVE, PlayerStatus.CIVIL_DISORDER)
RUNNING = (GameStatus.FORMING, GameStatus.ACTIVE, GameStatus.PAUSED)


class UnknownAbsence(GameError):
    """No such absence (or not one the caller may see)."""


@dataclass(frozen=True, slots=True)
class AbsenceInfo:
    id: int
    game_id: int
    game_name: str
    user_id: int
    first_day: date
    last_day: date
    used: bool  # it moved a deadline already (it moves none again)
    cancelled: bool = False

    @property
    def span(self) -> str:
        """``from 3 to 7 May 2024``."""
        return span_text(Absence(self.user_id, self.first_day, self.last_day))


@dataclass(frozen=True, slots=True)
class AbsenceReport:
    """What a declaration or cancellation did: the absences, and the follow-ups (deadline jobs of
    phases whose deadline moved now)."""

    absences: tuple[AbsenceInfo, ...]
    moved: tuple[PhaseInfo, ...] = ()
    follow_ups: tuple[FollowUps, ...] = field(default=())


def parse_day(typed: str, today: date) -> date:
    """A day as typed: ``2024-05-03``, ``today``, ``tomorrow``, ``3 May``, ``May 3``, ``3 May 2025``.
    Without a year, the next such day (today included). InvalidSettings when it is no day."""
    words = typed.strip().lower()
    if words in ("today", "now"):
        return today
    if words == "tomorrow":
        return today + timedelta(days=1)
    try:
        return date.fromisoformat(words)
    except ValueError:
        pass
    match = re.fullmatch(
        r"(\d{1,2})\s+([a-z]+)\.?(?:\s+(\d{4}))?|([a-z]+)\.?\s+(\d{1,2})(?:,?\s+(\d{4}))?", words
    )
    if match is not None:
        day, month_word, year = (
            (match[1], match[2], match[3]) if match[1] is not None else (match[5], match[4], match[6])
        )
        month = _month(month_word)
        if month is not None:
            try:
                if year is not None:
                    return date(int(year), month, int(day))
                found = date(today.year, month, int(day))
                return found if found >= today else date(today.year + 1, month, int(day))
            except ValueError:
                pass
    raise InvalidSettings(
        [f"{typed!r} is not a day."], "Write a day as 2025-05-03, 3 May, May 3, today or tomorrow."
    )


def _month(word: str) -> int | None:
    found = [i for i, name in enumerate(MONTHS, 1) if len(word) >= 3 and name.lower().startswith(word)]
    return found[0] if len(found) == 1 else None


async def declare_absence(
    session: AsyncSession,
    *,
    guild_id: int,
    user_id: int,
    first: str,
    last: str,
    game_id: int | None = None,
    now: datetime | None = None,
) -> AbsenceReport:
    """Declare ``user_id`` away from ``first`` to ``last`` (days as typed: :func:`parse_day`, on each
    game's wall clock), in ``game_id`` or in every game they play on ``guild_id``."""
    now = require_aware(now or utcnow())
    games = await _games_of(session, guild_id, user_id, game_id)
    planned = await _plan(session, games, user_id, first, last, now)
    rows = []
    for game, new in planned:
        row = AbsenceRecord(
            game_id=game.row_id,
            user_id=user_id,
            first_day=new.first_day,
            last_day=new.last_day,
            declared_at=now,
        )
        session.add(row)
        rows.append((game, row))
        log_event(
            session,
            game.row_id,
            "absence",
            at=now,
            actor_id=user_id,
            detail={"first_day": new.first_day.isoformat(), "last_day": new.last_day.isoformat()},
        )
    await session.flush()
    moved = [info for game, _ in rows if (info := await _move_deadline(session, game, now)) is not None]
    return AbsenceReport(
        absences=tuple(_info(row, game) for game, row in rows),
        moved=tuple(moved),
        follow_ups=tuple(FollowUps(p.game_id, schedule=(p,)) for p in moved),
    )


async def _plan(
    session: AsyncSession, games: Sequence[Game], user_id: int, first: str, last: str, now: datetime
) -> list[tuple[Game, Absence]]:
    """The absence in each game, checked against the game's rules and the user's other absences;
    refused, nothing declared, naming every problem (and its game when there are several)."""
    problems: list[str] = []
    planned: list[tuple[Game, Absence]] = []
    for game in games:
        settings = GameSettings.from_json(game.settings)
        today = _today(settings, now)
        new = Absence(user_id, parse_day(first, today), parse_day(last, today))
        existing = [absent.absence_of(r) for r in await _absences(session, game.row_id, user_id)]
        try:
            planned.append(
                (
                    game,
                    check_absence(new, existing, today=today, days_per_year=settings.absence_days_per_year),
                )
            )
        except InvalidAbsence as refused:
            where = f"{game.name}: " if len(games) > 1 else ""
            problems += [f"{where}{p}" for p in refused.problems]
    if problems:
        hint = "Nothing was declared. Change the dates"
        hint += ", or name one game with the game option." if len(games) > 1 else "."
        raise InvalidSettings(problems, hint)
    return planned


async def _move_deadline(session: AsyncSession, game: Game, now: datetime) -> PhaseInfo | None:
    """The open phase of a running game whose deadline the new absence moved (announced), if any."""
    if game.status != GameStatus.ACTIVE:
        return None
    phase = await latest_phase(session, game.row_id, for_update=True)
    if phase is None or phase.status != PhaseStatus.OPEN:
        return None
    move = await absent.absence_move(session, game, phase, now=now)
    if move is None:
        return None
    absent.announce_move(session, game, phase, move, now=now)
    return PhaseInfo.of(phase)


async def list_absences(
    session: AsyncSession,
    *,
    guild_id: int,
    actor: Actor,
    game_id: int | None = None,
    now: datetime | None = None,
) -> list[AbsenceInfo]:
    """The absences not over yet: the caller's own on the server, or, with ``game_id``, everyone's in
    that game when the caller may moderate it (else their own there)."""
    now = require_aware(now or utcnow())
    statement = (
        select(AbsenceRecord, Game)
        .join(Game, col(Game.id) == col(AbsenceRecord.game_id))
        .where(Game.guild_id == guild_id, col(AbsenceRecord.cancelled_at).is_(None))
        .order_by(col(AbsenceRecord.first_day), col(AbsenceRecord.id))
    )
    if game_id is not None:
        game = await _game_here(session, guild_id, game_id)
        statement = statement.where(AbsenceRecord.game_id == game.row_id)
        if not await _oversees(session, game, actor):
            statement = statement.where(AbsenceRecord.user_id == actor.user_id)
    else:
        statement = statement.where(AbsenceRecord.user_id == actor.user_id)
    found = []
    for row, game in (await session.exec(statement)).all():
        today = _today(GameSettings.from_json(game.settings), now)
        if upcoming([absent.absence_of(row)], today=today):
            found.append(_info(row, game))
    return found


def _no_absence(absence_id: int) -> UnknownAbsence:
    """The one answer for an absence that does not exist and for one the caller may not cancel (only
    the player who declared it, the game's creator or a moderator may)."""
    return UnknownAbsence(
        f"There is no absence {absence_id} here that you may cancel: only the player who declared an "
        "absence, the game's creator or a moderator can cancel it. Nothing was changed.",
        "[[cmd:absence list]] shows the absences.",
    )


async def cancel_absence(
    session: AsyncSession, *, guild_id: int, actor: Actor, absence_id: int, now: datetime | None = None
) -> AbsenceInfo:
    """Cancel an absence: the caller's own, or anyone's in a game the caller may moderate. A deadline
    it already moved stays where it is."""
    now = require_aware(now or utcnow())
    row = await session.get(AbsenceRecord, absence_id)
    game = await session.get(Game, row.game_id) if row is not None else None
    if row is None or game is None or game.guild_id != guild_id or row.cancelled_at is not None:
        raise _no_absence(absence_id)
    if row.user_id != actor.user_id and not await _oversees(session, game, actor):
        if may_moderate(game, actor):
            raise NotAllowed(
                f"You play in {game.name}, so you see and cancel only your own absences there, as "
                "every player does.",
                "A moderator who does not play in it can cancel another player's. Nothing was changed.",
            )
        raise _no_absence(absence_id)  # the same answer: absence numbers are guessable
    row.cancelled_at, row.cancelled_by = now, actor.user_id
    log_event(
        session,
        game.row_id,
        "absence_cancelled",
        at=now,
        actor_id=actor.user_id,
        detail={"absence": row.id, "user_id": row.user_id},
    )
    return _info(row, game)


# --- helpers ------------------------------------------------------------------------------------


async def _oversees(session: AsyncSession, game: Game, actor: Actor) -> bool:
    """Whether ``actor`` sees and cancels everyone's absences in ``game``: they moderate it (its
    creator, a server moderator) and do not play in it."""
    if not may_moderate(game, actor):
        return False
    seat = (
        await session.exec(
            select(Player.id).where(
                Player.game_id == game.row_id,
                Player.user_id == actor.user_id,
                col(Player.status).not_in((PlayerStatus.LEFT, PlayerStatus.REPLACED)),
            )
        )
    ).first()
    return seat is None


def _today(settings: GameSettings, now: datetime) -> date:
    return now.astimezone(ZoneInfo(settings.zone or "UTC")).date()


def _info(row: AbsenceRecord, game: Game) -> AbsenceInfo:
    return AbsenceInfo(
        id=row.row_id,
        game_id=game.row_id,
        game_name=game.name,
        user_id=row.user_id,
        first_day=row.first_day,
        last_day=row.last_day,
        used=row.used_phase_id is not None,
        cancelled=row.cancelled_at is not None,
    )


async def _absences(session: AsyncSession, game_id: int, user_id: int) -> list[AbsenceRecord]:
    return [r for r in await absent.standing_absences(session, game_id) if r.user_id == user_id]


async def _game_here(session: AsyncSession, guild_id: int, game_id: int) -> Game:
    game = await load_game(session, game_id)
    if game.guild_id != guild_id:
        raise UnknownGame(
            f"There is no game {game_id} on this server.", "See [[cmd:game list]] for the games here."
        )
    return game


async def _games_of(session: AsyncSession, guild_id: int, user_id: int, game_id: int | None) -> list[Game]:
    """The games the absence is for: ``game_id`` (the user must play in it), or every game the user
    plays on the server that is not over."""
    statement = (
        select(Game)
        .join(Player, col(Player.game_id) == col(Game.id))
        .where(
            Game.guild_id == guild_id,
            Player.user_id == user_id,
            col(Player.status).in_(PLAYING),
            col(Game.status).in_(RUNNING),
        )
        .order_by(col(Game.id))
    )
    if game_id is not None:
        await _game_here(session, guild_id, game_id)
        statement = statement.where(Game.id == game_id)
    games = list((await session.exec(statement.with_for_update(of=Game))).all())
    if not games:
        if game_id is not None:
            raise NotAllowed(
                f"You do not play in game {game_id}, or it is over.",
                "Absences are for the games you play in.",
            )
        raise NotAllowed(
            "You play in no game on this server that is not over.", "Absences are for the games you play in."
        )
    return games
