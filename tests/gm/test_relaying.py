"""/press in gm (gm.relaying): who may write to whom in an anonymous game, by its press setting, and
every refusal says what to do instead; nothing is queued on a refusal."""

from __future__ import annotations

import pytest
from sqlmodel import select

from db.database import SessionFactory
from db.models import OutboxEntry
from gm.errors import GameError
from gm.relaying import relay_press
from gm.settings import GameSettings
from tests.gm.conftest import T0, make_started_game, player_of


async def relay(sessions: SessionFactory, game_id: int, user_id: int, to: str, text: str = "hi") -> str:
    async with sessions.begin() as s:
        return (await relay_press(s, game_id, user_id, to, text, key=f"{user_id}:{to}", now=T0)).to


async def queued(sessions: SessionFactory) -> list[tuple[str | None, str | None]]:
    async with sessions.read() as s:
        rows = (await s.exec(select(OutboxEntry).where(OutboxEntry.kind == "relayed_press"))).all()
    return [(str(r.target_kind), r.target_power) for r in rows]


async def test_a_player_writes_to_a_power_by_its_name_and_to_everyone(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, settings=GameSettings(anonymous=True))
    france = player_of(started, "FRANCE")
    assert await relay(sessions, started.game.id, france, "germany") == "GERMANY"
    assert await relay(sessions, started.game.id, france, "Everyone") == "everyone"
    assert await queued(sessions) == [
        ("power_channel", "GERMANY"),
        ("power_channel", "FRANCE"),
        ("game_channel", None),
        ("power_channel", "FRANCE"),
    ]


@pytest.mark.parametrize(
    "settings,to,words",
    [
        ({"anonymous": False}, "Germany", "relays the talks of anonymous games only"),
        ({"anonymous": True, "press": "none"}, "everyone", "without press"),
        ({"anonymous": True, "press": "public"}, "Germany", "to:everyone"),
        ({"anonymous": True}, "France", "another power"),
        ({"anonymous": True}, "Atlantis", "Write to one of"),
    ],
)
async def test_a_relay_that_cannot_go_is_refused_with_what_to_do(
    sessions: SessionFactory, settings: dict[str, object], to: str, words: str
) -> None:
    started = await make_started_game(sessions, settings=GameSettings(**settings))
    with pytest.raises(GameError) as refused:
        await relay(sessions, started.game.id, player_of(started, "FRANCE"), to)
    assert words in str(refused.value)
    assert await queued(sessions) == []


async def test_someone_who_does_not_play_cannot_write(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, settings=GameSettings(anonymous=True))
    with pytest.raises(GameError, match="not playing"):
        await relay(sessions, started.game.id, 424242, "Germany")
