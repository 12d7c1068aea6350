"""Anonymous games: the words of a message name a power's player only to that player (gm.anonymity)."""

from __future__ import annotations

import pytest

from db.database import SessionFactory
from gm.anonymity import requester_of, veil_payload, veil_text
from gm.delivery.outbox import Target, enqueue
from gm.errors import NotAllowed
from gm.messages.kinds import Message, TakeOverRequest
from gm.settings import GameSettings
from tests.gm.conftest import T0, make_started_game

SEATS = {11: ["FRANCE"], 12: ["ENGLAND", "ITALY"]}


def test_a_reference_to_a_player_becomes_their_powers_and_a_stranger_a_player() -> None:
    text = "[[user:12]] takes over France, replacing [[user:99]]; [[user:11]] watches."
    assert veil_text(text, SEATS) == (
        "England and Italy's player takes over France, replacing a player; France's player watches."
    )


def test_the_reader_still_reads_their_own_mention() -> None:
    assert (
        veil_text("[[user:11]] and [[user:12]]", SEATS, frozenset({11}))
        == "[[user:11]] and England and Italy's player"
    )


def test_a_payload_veils_its_title_lines_and_fields_and_drops_named_ids() -> None:
    payload = {
        "title": "[[user:11]] left",
        "lines": ["France: [[user:11]]"],
        "fields": [{"name": "Who", "value": "[[user:12]]", "inline": False}],
        "user_ids": [11, 12],
        "phase": "S1901M",
    }
    veiled = veil_payload(payload, SEATS)
    assert "[[user:" not in str(veiled)
    assert veiled["user_ids"] == [] and veiled["phase"] == "S1901M"
    assert veiled["fields"][0]["value"] == "England and Italy's player"


async def test_a_take_over_request_s_asker_is_read_from_the_request_of_that_game_only(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions, settings=GameSettings(anonymous=True))
    game_id = started.game.id
    async with sessions.begin() as s:
        asked = enqueue(
            s,
            TakeOverRequest(game_id=game_id, title="asks", power="FRANCE", powers=["FRANCE"], user_id=4242),
            target=Target.game_channel(),
            key="request",
            now=T0,
        )
        other = enqueue(
            s, Message(game_id=game_id, title="a notice"), target=Target.game_channel(), key="n", now=T0
        )
    async with sessions.read() as s:
        assert await requester_of(s, game_id, int(asked.id or 0)) == 4242
        for wrong_game, row in ((game_id + 1, asked), (game_id, other)):
            with pytest.raises(NotAllowed, match="no such request"):
                await requester_of(s, wrong_game, int(row.id or 0))
