"""A server's own settings: only its admins change them; with ``admins_may_play`` off, a member no
channel can be hidden from is refused a seat (join, take-over, replacement), anyone else is not; and the
game's public records leave out what the game channel never told."""

from __future__ import annotations

from datetime import timedelta

import pytest

from db.database import SessionFactory
from db.models import GameLogEntry
from gm.errors import InvalidSettings, NotAllowed
from gm.reading.public_log import public_entry
from gm.setup import games, server
from tests.gm.conftest import GUILD, T0, user


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_only_admins_change_the_servers_settings_and_they_refuse_unhidden_players(
    sessions: SessionFactory,
) -> None:
    async with sessions() as s:
        assert (await server.server_settings(s, GUILD)).admins_may_play
        with pytest.raises(NotAllowed, match="Only the server's admins"):
            await server.change_server_settings(s, GUILD, user(1), {"admins_may_play": False}, is_admin=False)
    async with sessions() as s:
        with pytest.raises(InvalidSettings, match="no server setting colour"):
            await server.change_server_settings(s, GUILD, user(1), {"colour": "red"}, is_admin=True)
    async with sessions.begin() as s:
        changed = await server.change_server_settings(
            s, GUILD, user(1), {"admins_may_play": False}, is_admin=True, now=T0
        )
    assert not changed.admins_may_play
    async with sessions.begin() as s:
        assert not (await server.server_settings(s, GUILD)).admins_may_play
        assert (await server.server_settings(s, GUILD + 1)).admins_may_play, "another server's own"
        game = await games.create_game(s, guild_id=GUILD, creator_id=user(0), name="Closed", now=T0)
    async with sessions() as s:
        with pytest.raises(NotAllowed, match="can read every channel of this server"):
            await games.join_game(s, game.id, user(2), sees_all=True, now=T0)
    async with sessions.begin() as s:
        joined = await games.join_game(s, game.id, user(3), now=T0)
    assert [p.user_id for p in joined.players] == [user(0), user(3)]


def entry(action: str, actor: int | None, **detail: object) -> GameLogEntry:
    return GameLogEntry(game_id=1, at=T0 + timedelta(minutes=1), actor_id=actor, action=action, detail=detail)


def test_the_public_log_keeps_of_each_entry_what_its_announcement_told() -> None:
    assert public_entry(entry("absence", user(1), first_day="2024-03-02", last_day="2024-03-03")) is None
    assert public_entry(entry("watch", user(2))) is None
    assert public_entry(entry("mod_take_over_declined", user(3), user_id=user(4), powers=["FRANCE"])) is None
    assert public_entry(entry("something_new", user(3), secret=1)) is None, "unknown: private"
    grace = public_entry(entry("grace", None, phase="S1901M", before="a", after="b", user_ids=[user(5)]))
    assert grace is not None and grace["detail"] == {"phase": "S1901M", "before": "a", "after": "b"}
    moved = public_entry(entry("absence_move", None, phase="S1901M", before="a", after="b", absences=[3]))
    assert moved is not None and "absences" not in moved["detail"] and moved["actor_id"] is None
    close = public_entry(entry("mod_close", user(6), phase="S1901M", **{"as": "server moderator"}))
    assert close is not None and close["actor_id"] == user(6), "a moderator's action names them, as announced"
