"""/press in gm (gm.relaying): who may write to whom in an anonymous game, by its press setting, and
every refusal says what to do instead; nothing is queued on a refusal."""

from __future__ import annotations

import pytest
from sqlmodel import select

from db.database import SessionFactory
from db.models import OutboxEntry
from gm.errors import GameError
from gm.moderation.replacement import replace_player
from gm.relaying import relay_press, revise_press
from gm.settings import GameSettings
from tests.gm.conftest import T0, make_started_game, player_of
from tests.helpers.gm import MOD


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


async def revisions(sessions: SessionFactory) -> list[tuple[str | None, str, bool]]:
    async with sessions.read() as s:
        rows = (await s.exec(select(OutboxEntry).where(OutboxEntry.kind == "relayed_press_revised"))).all()
    return [(r.target_power, r.payload["text"], r.payload["deleted"]) for r in rows]


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_an_edit_of_a_typed_relay_reaches_each_copy_once_and_a_deletion_too(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions, settings=GameSettings(anonymous=True))
    game_id, france = started.game.id, player_of(started, "FRANCE")
    async with sessions.begin() as s:
        await relay_press(s, game_id, france, "Germany", "Bur stays empty", key="77", now=T0)
    for _ in range(2):  # the same edit told twice (a gateway resend) is carried once
        async with sessions.begin() as s:
            await revise_press(s, 77, user_id=france, text="to Germany: Bur is yours", version="t1", now=T0)
    async with sessions.begin() as s:  # an edit that changes nothing the copies say (an embed came)
        await revise_press(s, 77, user_id=france, text="to Germany: Bur is yours", version="t2", now=T0)
    async with sessions.begin() as s:
        await revise_press(s, 77, user_id=None, text=None, version="0", now=T0)
    async with sessions.begin() as s:  # no relay: nothing to do
        assert await revise_press(s, 78, user_id=france, text="hi", version="t1", now=T0) is None
    assert await revisions(sessions) == [
        ("GERMANY", "Bur is yours", False),
        ("FRANCE", "Bur is yours", False),
        ("GERMANY", "Bur is yours", True),
        ("FRANCE", "Bur is yours", True),
    ]


async def test_an_edit_from_a_player_no_longer_holding_the_power_is_refused(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, settings=GameSettings(anonymous=True))
    game_id, france = started.game.id, player_of(started, "FRANCE")
    async with sessions.begin() as s:
        await relay_press(s, game_id, france, "Germany", "Bur stays empty", key="77", now=T0)
    async with sessions.begin() as s:
        await replace_player(s, game_id, MOD, power="FRANCE", new_user_id=515151, now=T0)
    with pytest.raises(GameError, match="not carried"):
        async with sessions.begin() as s:
            await revise_press(s, 77, user_id=france, text="to Germany: war", version="t1", now=T0)
    with pytest.raises(GameError, match="nothing to carry"):
        async with sessions.begin() as s:
            await revise_press(s, 77, user_id=515151, text="to Germany:  ", version="t1", now=T0)
    assert await revisions(sessions) == []
