"""The message kinds register themselves under the names the outbox stores, and the rows an earlier
version stored (outbox_rows_v1.json, written by the outbox before the kinds registered themselves)
read back as the same typed messages, on SQLite and PostgreSQL."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from db.database import SessionFactory
from db.models import OutboxEntry, OutboxTarget
from gm.delivery.outbox import OutboxMessage, Target, enqueue
from gm.messages import kinds
from gm.messages.effects import (
    ArchivePlaces,
    MarkSeatsTaken,
    MoveAccess,
    ReopenPlaces,
    ReviseRelay,
    ShieldPlayer,
    VoidPosts,
)
from gm.messages.kinds import KINDS, Message, read_message
from tests.gm.conftest import T0, make_game
from tests.helpers.messages import examples

pytestmark = pytest.mark.both_backends  # on PostgreSQL too: JSON rows read back

ROWS: list[dict[str, Any]] = json.loads((Path(__file__).parent / "outbox_rows_v1.json").read_text())


def plain(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples as lists), to compare a message read back with one built."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def same(read: Message, built: Message) -> None:
    assert type(read) is type(built)
    assert plain(dataclasses.asdict(read)) == plain(dataclasses.asdict(built))


def test_every_kind_is_registered_under_its_name_and_the_names_are_those_stored() -> None:
    concrete = {cls for cls in vars(kinds).values() if isinstance(cls, type) and issubclass(cls, Message)}
    families = {kinds.CallToOrder, kinds.SeatOffer}
    assert set(KINDS.values()) == concrete - families
    assert all(KINDS[cls.kind] is cls for cls in concrete - families)
    # the names are data in every database: the same as before the kinds registered themselves
    assert sorted(KINDS) == sorted(row["kind"] for row in ROWS[: len(examples())])


def test_a_kind_without_a_name_or_with_a_taken_one_is_refused_at_once() -> None:
    with pytest.raises(TypeError, match="needs its kind's name"):

        class Nameless(Message):  # pragma: no cover - refused while the class is made
            pass

    with pytest.raises(TypeError, match="Welcome's already"):

        class Twin(Message, kind="welcome"):  # pragma: no cover
            pass

    assert KINDS["welcome"] is kinds.Welcome


@pytest.mark.parametrize(
    "row,built", list(zip(ROWS, examples(), strict=False)), ids=[m.kind for m in examples()]
)
def test_a_stored_row_reads_as_the_message_written_and_is_written_the_same(
    row: dict[str, Any], built: Message
) -> None:
    read = read_message(row["kind"], row["payload"])
    same(read, built)
    assert built.kind == row["kind"]
    assert json.loads(json.dumps(built.to_payload())) == row["payload"]  # as the JSON column keeps it


def test_rows_of_older_shapes_read_with_defaults_for_what_they_lack() -> None:
    older = {row["kind"]: row["payload"] for row in ROWS[len(examples()) :]}
    replaced = read_message("replaced", older["replaced"])
    assert isinstance(replaced, kinds.Replaced)
    assert (replaced.powers, replaced.old_user_id, replaced.new_user_id) == (["FRANCE"], 42, 43)
    assert (replaced.action, replaced.alert_moderators, replaced.deadline_zone) == ("replace", False, None)
    rolled = read_message("rollback", older["rollback"])
    assert isinstance(rolled, kinds.RolledBack) and rolled.voided_phase is None
    assert rolled.deadline is not None and rolled.deadline.isoformat() == "2024-03-02T18:00:00+00:00"
    over = read_message("game_over", older["game_over"])
    assert isinstance(over, kinds.GameOver) and over.result["winner"] == "FRANCE"
    assert (over.pictures_failed, over.powers) == (False, ())
    left = read_message("player_left", older["player_left"])
    assert isinstance(left, kinds.PlayerLeft) and (left.open_seats, left.take_over) == ((), None)
    unknown = read_message("something_newer", older["something_newer"])
    assert type(unknown) is Message
    assert unknown.lines == ("still readable",)


def test_what_the_chat_server_must_change_is_on_the_message() -> None:
    """A seat changing hands moves access before it is said, a rollback voids and reopens, the end
    archives, a relay's edit edits its posts; the rest change nothing (as read back from stored rows)."""
    by_kind = {row["kind"]: read_message(row["kind"], row["payload"]) for row in ROWS[: len(examples())]}
    effects = {kind: tuple(message.effects) for kind, message in by_kind.items() if message.effects}
    assert effects == {
        "player_left": (MoveAccess(("FRANCE",), evict=42),),
        "power_joined": (MoveAccess(("ITALY",), admit=42),),
        "replaced": (
            MoveAccess(("FRANCE",), admit=43, evict=42, open_talks=True, fresh=True),
            MarkSeatsTaken(("FRANCE",), 43),
        ),
        "player_returned": (MarkSeatsTaken(("FRANCE",), 43, returning=True),),
        "rollback": (VoidPosts(("phase_results", "game_over")), ReopenPlaces()),
        "game_over": (ArchivePlaces(),),
        "role_gained": (ShieldPlayer(42),),
        "relayed_press_revised": (ReviseRelay("press:77", deleted=True),),
    }
    assert [e.after_posting for e in effects["replaced"]] == [False, True]
    assert not any(e.after_posting for e in effects["rollback"])
    # a replacement that names no seat has none to mark taken
    assert kinds.Replaced(game_id=1, title="t").effects == (MoveAccess((), open_talks=True, fresh=True),)


async def test_an_old_row_in_the_database_reads_as_the_same_typed_message(sessions: SessionFactory) -> None:
    """The rows as an earlier version wrote them into the outbox table (kind and JSON payload, no
    code of this version involved) come out of the database as the messages they were."""
    async with sessions() as s:
        for number, row in enumerate(ROWS):
            s.add(
                OutboxEntry(
                    game_id=None,
                    kind=row["kind"],
                    target_kind=OutboxTarget.USER,
                    target_user_id=42,
                    payload=row["payload"],
                    dedup_key=f"old:{number}",
                    created_at=T0,
                    next_attempt_at=T0,
                )
            )
        await s.commit()
    async with sessions.read() as s:
        stored = (await s.exec(select(OutboxEntry).order_by(OutboxEntry.id))).all()  # type: ignore[arg-type]
    assert len(stored) == len(ROWS)
    for entry, built in zip(stored, examples(), strict=False):
        message = OutboxMessage(
            id=entry.row_id,
            nonce="n",
            kind=entry.kind,
            game_id=None,
            target_kind=entry.target_kind,
            channel_id=None,
            user_id=42,
            payload=entry.payload,
        )
        same(message.content, built)


async def test_a_message_queued_now_is_stored_as_before(sessions: SessionFactory) -> None:
    game = await make_game(sessions, players=1)
    async with sessions() as s:
        for number, built in enumerate(examples()):
            here = dataclasses.replace(built, game_id=game.id)
            enqueue(s, here, target=Target.user(42), key=f"new:{number}", now=T0)
        await s.commit()
    async with sessions.read() as s:
        stored = (await s.exec(select(OutboxEntry).order_by(OutboxEntry.id))).all()  # type: ignore[arg-type]
    expected = [
        (row["kind"], {**row["payload"], "game": {"id": game.id, "name": "Friday *game*"}}) for row in ROWS
    ]
    assert [(e.kind, e.game_id, e.payload) for e in stored] == [
        (kind, game.id, payload) for kind, payload in expected[: len(examples())]
    ]
