"""Absences in play (frozen clocks): a player declares the days they will be away; a deadline inside
the absence of a player who must act moves to after it, once per absence, announced by its dates
only; bad declarations are refused with nothing stored; moderators see and cancel absences."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime

import pytest
from sqlmodel import select

from db.database import SessionFactory
from db.models import AbsenceRecord, PlayerStatus
from gm.actor import Actor
from gm.errors import InvalidSettings, NotAllowed
from gm.phases.closer import PhaseCloser
from gm.settings import GameSettings
from gm.setup import absences, games
from gm.setup.absences import parse_day
from tests.gm.conftest import (
    CREATOR,
    GUILD,
    current_phase,
    make_game,
    messages,
    player_of,
    set_player_status,
)

pytestmark = pytest.mark.both_backends  # on PostgreSQL too: row locks and dates

MONDAY = datetime(2024, 3, 4, 8, 0, tzinfo=UTC)


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


async def started_on_monday(
    sessions: SessionFactory, settings: GameSettings | None = None
) -> games.StartResult:
    game = await make_game(sessions, settings=settings)
    async with sessions.begin() as s:
        return await games.start_game(s, game.id, CREATOR, now=MONDAY, rng=random.Random(5))


async def declare(
    sessions: SessionFactory, user_id: int, first: str, last: str, now: datetime, game_id: int | None = None
) -> absences.AbsenceReport:
    async with sessions.begin() as s:
        return await absences.declare_absence(
            s, guild_id=GUILD, user_id=user_id, first=first, last=last, game_id=game_id, now=now
        )


async def stored(sessions: SessionFactory) -> list[AbsenceRecord]:
    async with sessions() as s:
        return list((await s.exec(select(AbsenceRecord))).all())


def test_days_are_read_as_players_write_them() -> None:
    today = date(2024, 11, 20)
    assert parse_day("2024-12-03", today) == date(2024, 12, 3)
    assert parse_day("tomorrow", today) == date(2024, 11, 21)
    assert parse_day("3 Dec", today) == date(2024, 12, 3)
    assert parse_day("January 5", today) == date(2025, 1, 5)  # the next 5 January
    assert parse_day("5 jan 2026", today) == date(2026, 1, 5)
    with pytest.raises(InvalidSettings, match="'31 Febr' is not a day"):
        parse_day("31 Febr", today)


async def test_a_deadline_inside_an_absence_moves_after_it_once_and_is_announced_by_dates(
    sessions: SessionFactory,
) -> None:
    started = await started_on_monday(sessions)
    assert started.phase.deadline == utc(2024, 3, 5, 8, 0)  # Tuesday 08:00: a 24-hour phase
    france = player_of(started, "FRANCE")
    report = await declare(sessions, france, "2024-03-05", "6 March", now=utc(2024, 3, 4, 9, 0))
    [absence] = report.absences
    assert (absence.first_day, absence.last_day, absence.span) == (
        date(2024, 3, 5),
        date(2024, 3, 6),
        "from 5 to 6 March 2024",
    )
    # back at 00:00 on Thursday 7 March: the phase closes as if it opened then, a day later
    [moved] = report.moved
    assert moved.deadline == utc(2024, 3, 8, 0, 0)
    assert (await current_phase(sessions, started.game.id)).deadline == utc(2024, 3, 8, 0, 0)
    [notice] = await messages(sessions, "deadline_moved")
    assert notice.target_kind == "game_channel"
    assert notice.payload["lines"] == [
        "The deadline moves to Friday 8 March, 00:00 UTC: a player is away from 5 to 6 March 2024."
    ]
    assert str(france) not in str(notice.payload), "the announcement does not say who is away"

    # a moderator closes the phase on Tuesday: the next deadline (Wednesday noon) is in the absence
    # too, but an absence moves one deadline only
    closer = PhaseCloser(sessions, clock=lambda: utc(2024, 3, 5, 12, 0), render_maps=False)
    outcome = await closer.close(started.phase.id)
    assert outcome.next_phase is not None and outcome.next_phase.deadline == utc(2024, 3, 6, 12, 0)
    assert len(await messages(sessions, "deadline_moved")) == 1


async def test_an_absence_declared_ahead_moves_the_deadline_of_the_phase_it_falls_in(
    sessions: SessionFactory,
) -> None:
    started = await started_on_monday(sessions)
    italy = player_of(started, "ITALY")
    report = await declare(sessions, italy, "2024-03-06", "2024-03-06", now=utc(2024, 3, 4, 9, 0))
    assert report.moved == (), "the current deadline (Tuesday) is before the absence"
    closer = PhaseCloser(sessions, clock=lambda: utc(2024, 3, 5, 8, 0), render_maps=False)
    outcome = await closer.close(started.phase.id)
    # Fall 1901 opens Tuesday 08:00, due Wednesday 08:00: inside the absence, so Thursday + 24 hours
    assert outcome.next_phase is not None and outcome.next_phase.deadline == utc(2024, 3, 8, 0, 0)
    kinds = [m.kind for m in await messages(sessions, "phase_results")] + [
        m.kind for m in await messages(sessions, "deadline_moved")
    ]
    assert kinds == ["phase_results", "deadline_moved"]
    [call] = [m for m in await messages(sessions, "phase_opened") if m.payload["phase"] == "F1901M"][:1]
    assert call.payload["deadline"] == "2024-03-08T00:00:00+00:00", "the calls to order give the new deadline"


async def test_the_absence_of_a_player_who_need_not_act_moves_nothing(sessions: SessionFactory) -> None:
    started = await started_on_monday(sessions)
    await set_player_status(sessions, started, "TURKEY", PlayerStatus.CIVIL_DISORDER)
    report = await declare(sessions, player_of(started, "TURKEY"), "2024-03-05", "2024-03-05", now=MONDAY)
    assert report.moved == () and (await current_phase(sessions, started.game.id)).deadline == utc(
        2024, 3, 5, 8
    )
    assert await messages(sessions, "deadline_moved") == []


async def test_absences_in_the_past_too_long_or_not_allowed_are_refused_and_nothing_is_stored(
    sessions: SessionFactory,
) -> None:
    started = await started_on_monday(sessions, GameSettings(absence_days_per_year=5))
    russia = player_of(started, "RUSSIA")
    with pytest.raises(InvalidSettings) as refused:
        await declare(sessions, russia, "2024-03-01", "2024-03-02", now=MONDAY)
    assert "starts in the past (1 March 2024; today is 4 March 2024)" in refused.value.problems[0]
    assert "Nothing was declared" in (refused.value.hint or "")
    with pytest.raises(InvalidSettings) as refused:
        await declare(sessions, russia, "2024-03-10", "2024-03-16", now=MONDAY)
    assert (
        "allows 5 days of absence a year: in 2024 you have 5 left, and this absence takes 7"
        in (refused.value.problems[0])
    )
    with pytest.raises(InvalidSettings, match="ends"):
        await declare(sessions, russia, "2024-03-16", "2024-03-10", now=MONDAY)
    with pytest.raises(NotAllowed, match="You play in no game"):
        await declare(sessions, 4242, "2024-03-10", "2024-03-11", now=MONDAY)
    assert await stored(sessions) == []

    strict = await make_game(
        sessions, name="No leave", players=2, settings=GameSettings(absence_days_per_year=0)
    )
    with pytest.raises(InvalidSettings, match="does not allow absences"):
        await declare(sessions, CREATOR, "2024-03-10", "2024-03-11", now=MONDAY, game_id=strict.id)
    with pytest.raises(InvalidSettings) as refused:  # every game of the creator: one refuses, none is stored
        await declare(sessions, CREATOR, "2024-03-10", "2024-03-11", now=MONDAY)
    assert any(p.startswith("No leave: ") for p in refused.value.problems)
    assert await stored(sessions) == []


async def test_players_list_their_own_absences_and_moderators_who_do_not_play_see_and_cancel_anyones(
    sessions: SessionFactory,
) -> None:
    started = await started_on_monday(sessions)
    game_id = started.game.id
    france, italy = player_of(started, "FRANCE"), player_of(started, "ITALY")
    await declare(sessions, france, "2024-04-01", "2024-04-02", now=MONDAY)
    [theirs] = (await declare(sessions, italy, "2024-04-10", "2024-04-12", now=MONDAY)).absences
    creator = Actor(CREATOR)  # the game's creator moderates it, and plays in it
    assert CREATOR in started.assignments.values()
    judge = Actor(CREATOR + 999, is_server_moderator=True)  # a server moderator who does not play
    async with sessions() as s:
        mine = await absences.list_absences(s, guild_id=GUILD, actor=Actor(france), now=MONDAY)
        seen = await absences.list_absences(
            s, guild_id=GUILD, actor=Actor(france), game_id=game_id, now=MONDAY
        )
        playing = await absences.list_absences(s, guild_id=GUILD, actor=creator, game_id=game_id, now=MONDAY)
        everyone = await absences.list_absences(s, guild_id=GUILD, actor=judge, game_id=game_id, now=MONDAY)
    assert [a.user_id for a in mine] == [france] and [a.user_id for a in seen] == [france]
    assert playing == [], "a creator who plays sees their own absences only (they have none)"
    assert [(a.user_id, a.span) for a in everyone] == [
        (france, "from 1 to 2 April 2024"),
        (italy, "from 10 to 12 April 2024"),
    ]
    refusals = []
    for absence_id in (theirs.id, 9999):  # another's and none: one answer (their numbers are guessable)
        with pytest.raises(absences.UnknownAbsence, match="only the player who declared") as refused:
            async with sessions.begin() as s:
                await absences.cancel_absence(s, guild_id=GUILD, actor=Actor(france), absence_id=absence_id)
        refusals.append(str(refused.value).replace(str(absence_id), "N"))
    assert refusals[0] == refusals[1]
    for moderator_who_plays in (creator, Actor(france, is_server_moderator=True)):
        with pytest.raises(NotAllowed, match="you see and cancel only your own absences there"):
            async with sessions.begin() as s:
                await absences.cancel_absence(
                    s, guild_id=GUILD, actor=moderator_who_plays, absence_id=theirs.id
                )
    async with sessions.begin() as s:
        gone = await absences.cancel_absence(s, guild_id=GUILD, actor=judge, absence_id=theirs.id, now=MONDAY)
    assert gone.cancelled
    async with sessions() as s:
        after = await absences.list_absences(s, guild_id=GUILD, actor=judge, game_id=game_id, now=MONDAY)
    assert [a.user_id for a in after] == [france]
    with pytest.raises(absences.UnknownAbsence):
        async with sessions.begin() as s:
            await absences.cancel_absence(s, guild_id=GUILD, actor=judge, absence_id=theirs.id)
    with pytest.raises(absences.UnknownAbsence):  # another server's absence is not found here
        async with sessions.begin() as s:
            await absences.cancel_absence(
                s, guild_id=GUILD + 1, actor=Actor(france, True), absence_id=theirs.id
            )


async def test_a_cancelled_absence_moves_nothing(sessions: SessionFactory) -> None:
    started = await started_on_monday(sessions)
    italy = player_of(started, "ITALY")
    [absence] = (await declare(sessions, italy, "2024-03-06", "2024-03-06", now=MONDAY)).absences
    async with sessions.begin() as s:
        await absences.cancel_absence(
            s, guild_id=GUILD, actor=Actor(italy), absence_id=absence.id, now=MONDAY
        )
    closer = PhaseCloser(sessions, clock=lambda: utc(2024, 3, 5, 8, 0), render_maps=False)
    outcome = await closer.close(started.phase.id)
    assert outcome.next_phase is not None and outcome.next_phase.deadline == utc(2024, 3, 6, 8, 0)
