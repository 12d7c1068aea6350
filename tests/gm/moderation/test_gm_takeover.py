"""Open seats through gm: the announcement offers them, a member who does not play takes one over (or
asks, when the game wants a moderator's approval), and every refusal leaves the game as it was."""

from __future__ import annotations

import re

import pytest
from sqlmodel import col, select

from db.database import SessionFactory
from db.models import GameLogEntry, OrderRecord, Player, PowerAssignment
from gm.errors import AlreadyJoined, NotAllowed, UnknownGame, WrongGameState
from gm.facade import Gamemaster
from gm.moderation import takeover
from gm.moderation.actions import Actor, set_civil_disorder
from gm.reports.status import game_status
from gm.settings import GameSettings
from gm.setup.games import leave_game, set_game_channels
from tests.gm.conftest import (
    CREATOR,
    T0,
    make_started_game,
    messages,
    player_of,
    player_row,
    submit,
    user,
)
from tests.helpers.gm import MOD, RecordingSender, snapshot

NEWCOMER = user(50)
OTHER = user(51)


async def seat_holder(sessions: SessionFactory, game_id: int, power: str) -> int | None:
    async with sessions() as s:
        holder = (
            await s.exec(
                select(Player.user_id)
                .join(PowerAssignment, col(PowerAssignment.player_id) == col(Player.id))
                .where(PowerAssignment.game_id == game_id, PowerAssignment.power == power)
            )
        ).first()
        await s.commit()
    return holder


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_a_player_who_leaves_opens_a_seat_that_a_newcomer_takes_over_with_its_orders(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    game_id = started.game.id
    italy = player_of(started, "ITALY")
    await submit(sessions, started, "ITALY", "A VEN - TYR")
    async with sessions.begin() as s:
        await leave_game(s, game_id, italy, now=T0)
    [left] = [m for m in await messages(sessions, "player_left") if m.target_kind == "game_channel"]
    assert left.payload["open_seats"] == [["ITALY"]] and left.payload["take_over"] == "open"

    async with sessions.begin() as s:
        result = await takeover.take_over(s, game_id, NEWCOMER, "italy", now=T0)
    assert result.action == "replace"
    assert result.details["replacement"].powers == ("ITALY",)
    assert await seat_holder(sessions, game_id, "ITALY") == NEWCOMER
    async with sessions() as s:
        kept = (await s.exec(select(OrderRecord).where(OrderRecord.power == "ITALY"))).all()
    assert [o.text for o in kept] == ["A VEN - TYR"], "the orders given stay with the seat"
    [welcome] = [m for m in await messages(sessions, "welcome") if m.target_user_id == NEWCOMER]
    assert "You took over Italy" in welcome.payload["lines"][0]
    [announced] = await messages(sessions, "replaced")
    assert f"[[user:{NEWCOMER}]] takes over Italy, replacing [[user:{italy}]]" in announced.payload["title"]
    async with sessions() as s:
        view = await game_status(s, game_id)
    assert any("took over Italy" in line.text for line in view.moderation)
    async with sessions() as s:
        [entry] = (await s.exec(select(GameLogEntry).where(GameLogEntry.action == "mod_replace"))).all()
    assert entry.actor_id == NEWCOMER and entry.detail["as"] == "player taking over an open seat"

    before = await snapshot(sessions, game_id)
    with pytest.raises(
        WrongGameState, match=re.escape(f"Italy is played by [[user:{NEWCOMER}]]: the seat is not open")
    ):
        async with sessions.begin() as s:
            await takeover.take_over(s, game_id, OTHER, "ITALY", now=T0)
    assert await snapshot(sessions, game_id) == before


async def test_a_seat_in_civil_disorder_is_open_and_a_player_of_the_game_may_not_take_it(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    game_id = started.game.id
    async with sessions.begin() as s:
        await set_civil_disorder(s, game_id, MOD, power="TURKEY", on=True, now=T0)
    [said] = [m for m in await messages(sessions, "civil_disorder") if m.target_kind == "game_channel"]
    assert said.payload["open_seats"] == [["TURKEY"]]
    before = await snapshot(sessions, game_id)
    with pytest.raises(AlreadyJoined, match="You play France"):
        async with sessions.begin() as s:
            await takeover.take_over(s, game_id, player_of(started, "FRANCE"), "TURKEY", now=T0)
    with pytest.raises(AlreadyJoined, match="You play Turkey"):  # coming back is by sending orders
        async with sessions.begin() as s:
            await takeover.take_over(s, game_id, player_of(started, "TURKEY"), "TURKEY", now=T0)
    with pytest.raises(WrongGameState, match="not open"):
        async with sessions.begin() as s:
            await takeover.take_over(s, game_id, NEWCOMER, "FRANCE", now=T0)
    assert await snapshot(sessions, game_id) == before
    async with sessions.begin() as s:
        await takeover.take_over(s, game_id, NEWCOMER, "TURKEY", now=T0)
    assert await seat_holder(sessions, game_id, "TURKEY") == NEWCOMER
    assert (await player_row(sessions, game_id, NEWCOMER)).status == "active"


async def test_with_approval_a_request_waits_for_a_moderator_who_does_not_play(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions, settings=GameSettings(take_over="approval"))
    game_id = started.game.id
    async with sessions.begin() as s:
        await leave_game(s, game_id, player_of(started, "ENGLAND"), now=T0)
    before = await snapshot(sessions, game_id)
    async with sessions.begin() as s:
        asked = await takeover.take_over(s, game_id, NEWCOMER, "ENGLAND", now=T0)
    async with sessions.begin() as s:
        again = await takeover.take_over(s, game_id, NEWCOMER, "ENGLAND", now=T0)
    assert asked.action == again.action == "take_over_request"
    [request] = await messages(sessions, "take_over_request")
    assert request.payload["user_id"] == NEWCOMER and request.payload["power"] == "ENGLAND"
    assert request.payload["alert_moderators"] is True, "asked once, the moderators called once"
    assert await snapshot(sessions, game_id) == before, "nothing changes until a moderator approves"

    with pytest.raises(NotAllowed):  # a player is no moderator
        async with sessions.begin() as s:
            france = Actor(player_of(started, "FRANCE"))
            await takeover.approve_take_over(s, game_id, france, "ENGLAND", NEWCOMER)
    with pytest.raises(NotAllowed, match="You play"):  # the creator plays here: not the judge
        async with sessions.begin() as s:
            await takeover.approve_take_over(s, game_id, Actor(CREATOR), "ENGLAND", NEWCOMER)
    assert await snapshot(sessions, game_id) == before
    async with sessions.begin() as s:
        approved = await takeover.approve_take_over(s, game_id, MOD, "ENGLAND", NEWCOMER, now=T0)
    assert approved.action == "replace" and await seat_holder(sessions, game_id, "ENGLAND") == NEWCOMER
    [welcome] = [m for m in await messages(sessions, "welcome") if m.target_user_id == NEWCOMER]
    assert "approved your request" in welcome.payload["lines"][0]


async def test_a_declined_request_is_told_to_its_author_and_changes_no_seat(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, settings=GameSettings(take_over="approval"))
    game_id = started.game.id
    async with sessions.begin() as s:
        await leave_game(s, game_id, player_of(started, "ENGLAND"), now=T0)
    async with sessions.begin() as s:
        await takeover.take_over(s, game_id, NEWCOMER, "ENGLAND", now=T0)
    async with sessions.begin() as s:
        await takeover.decline_take_over(s, game_id, MOD, "ENGLAND", NEWCOMER, now=T0)
    [told] = await messages(sessions, "take_over_declined")
    assert told.target_user_id == NEWCOMER and "declined" in told.payload["title"]
    assert await seat_holder(sessions, game_id, "ENGLAND") == player_of(started, "ENGLAND")


async def test_when_taking_over_is_off_no_seat_is_offered_and_only_a_moderator_replaces(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions, settings=GameSettings(take_over="off"))
    game_id = started.game.id
    async with sessions.begin() as s:
        await leave_game(s, game_id, player_of(started, "ITALY"), now=T0)
    [left] = [m for m in await messages(sessions, "player_left") if m.target_kind == "game_channel"]
    assert not left.payload.get("open_seats"), "no Take over button when taking over is off"
    with pytest.raises(NotAllowed, match="only a moderator"):
        async with sessions.begin() as s:
            await takeover.take_over(s, game_id, NEWCOMER, "ITALY", now=T0)


def test_the_setting_is_checked() -> None:
    from gm.errors import InvalidSettings

    with pytest.raises(InvalidSettings, match="Taking over an open seat"):
        GameSettings.for_variant("standard", {"take_over": "sometimes"})
    assert GameSettings.for_variant("standard", {"take_over": " Approval "}).take_over == "approval"


async def test_an_open_seat_button_pressed_outside_the_game_s_channel_is_refused(
    sessions: SessionFactory,
) -> None:
    """A button names its game by number only; another database may give that number to another game.
    An open seat's button lives in its game's channel: from any other channel it is an old post's."""
    started = await make_started_game(sessions)
    game_id = started.game.id
    async with sessions.begin() as s:
        await set_game_channels(s, game_id, game_channel_id=4242)
    gm = Gamemaster(sessions, RecordingSender(), workers=0, render_maps=False)
    try:
        guild = (await gm.get_game(game_id)).guild_id
        with pytest.raises(UnknownGame, match="This button is from an old post"):
            await gm.game_on_server(game_id, guild, pressed_in=999)
        assert (await gm.game_on_server(game_id, guild, pressed_in=4242)).id == game_id
        assert (await gm.game_on_server(game_id, guild)).id == game_id  # a command, not a button
    finally:
        await gm.runtime.shutdown()
