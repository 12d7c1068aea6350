"""The order of work in a burst (gm.delivery.lanes): the answers people wait for (an interaction's first
answer, a direct message's reply) before the work after them, and among the answers waiting for a
slot, the form first and the others in the order they came, a player's own never overtaken."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import text

from db.database import Sessions, admit_sessions_with, make_engine, make_session_factory
from db.sqlite import urgent_writes
from gm.delivery import lanes


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


@pytest.fixture
async def turns() -> lanes.Turns:
    return lanes.turns()


def fill_the_slots(turns: lanes.Turns, kind: int = lanes.ANSWER) -> list[lanes.Owed]:
    """Every slot of ``kind`` held by an answer still owed."""
    held = [turns.owe(kind, ("held", kind, n)) for n in range(lanes.SLOTS)]
    for owed in held:
        turns.admit(owed, lambda: None)
    return held


async def test_a_form_opens_without_waiting_for_the_other_interactions_slots_unless_behind_its_players_own(
    turns: lanes.Turns,
) -> None:
    held = fill_the_slots(turns)
    served: list[str] = []
    for name, rank, player in (
        ("tap of 1", lanes.IN_TURN, 1),
        ("order of 2", lanes.IN_TURN, 2),
        ("form of 3", lanes.FIRST, 3),
        ("form of 1", lanes.FIRST, 1),  # behind their own tap: in turn, as it is
        ("show of 4", lanes.IN_TURN, 4),
    ):
        turns.admit(turns.owe(lanes.ANSWER, name), functools.partial(served.append, name), rank, player)
    await settle()
    assert served == ["form of 3"]  # every other interaction's slot taken: the form opens all the same
    for owed in held:
        turns.pay(owed.key)  # each answer sent frees its slot for the next one
    turns.pay("form of 3")
    await settle()
    assert served == ["form of 3", "tap of 1", "order of 2", "form of 1", "show of 4"]


async def test_the_forms_wait_only_for_the_forms_before_them(turns: lanes.Turns) -> None:
    forms = [turns.owe(lanes.ANSWER, ("form", n)) for n in range(lanes.FORM_SLOTS)]
    for owed in forms:
        turns.admit(owed, lambda: None, lanes.FIRST)
    served: list[str] = []
    turns.admit(turns.owe(lanes.ANSWER, "form"), functools.partial(served.append, "form"), lanes.FIRST)
    await settle()
    assert served == []  # the forms' slots are all taken
    turns.on_its_way(forms[0].key)
    await settle()
    assert served == ["form"]


async def test_while_a_form_is_owed_nothing_else_starts_then_everything_in_the_order_it_came(
    turns: lanes.Turns,
) -> None:
    """In a burst the form's handler and its call to Discord each waited for a round of the loop
    full of the others' first steps, started with it: now they start once the forms are answered."""
    served: list[str] = []
    form = turns.owe(lanes.ANSWER, "form")
    turns.admit(form, functools.partial(served.append, "form"), lanes.FIRST, 1)
    turns.admit(turns.owe(lanes.ANSWER, "tap"), functools.partial(served.append, "tap"), lanes.IN_TURN, 2)
    turns.behind_forms(functools.partial(served.append, "direct message 1"))
    reply = turns.owe(lanes.REPLY, "a reply")
    turns.admit(reply, functools.partial(served.append, "reply's slot"))
    turns.behind_forms(functools.partial(served.append, "direct message 2"))
    await settle()
    assert served == ["form"]  # every slot free: the others wait all the same
    turns.on_its_way(form.key)  # being sent: still owed
    await settle()
    assert served == ["form"]
    turns.pay(form.key)
    turns.behind_forms(functools.partial(served.append, "direct message 3"))  # before the others start
    await settle()
    assert served == [
        "form",
        "tap",
        "reply's slot",
        "direct message 1",
        "direct message 2",
        "direct message 3",
    ]
    turns.behind_forms(functools.partial(served.append, "direct message 4"))
    assert served[-1] == "direct message 4"  # no form owed: at once


async def test_the_others_wait_for_every_form_owed(turns: lanes.Turns) -> None:
    served: list[str] = []
    forms = [turns.owe(lanes.ANSWER, ("form", n)) for n in range(2)]
    for owed in forms:
        turns.admit(owed, lambda: None, lanes.FIRST)
    turns.admit(turns.owe(lanes.ANSWER, "tap"), functools.partial(served.append, "tap"))
    turns.behind_forms(functools.partial(served.append, "direct message"))
    turns.pay(forms[0].key)
    await settle()
    assert served == []
    turns.pay(forms[1].key)
    await settle()
    assert served == ["tap", "direct message"]


async def test_a_form_whose_answer_does_not_go_out_holds_the_others_back_no_longer_than_its_time(
    turns: lanes.Turns, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lanes, "FORMS_AHEAD", 0.05)
    served: list[str] = []
    form = turns.owe(lanes.ANSWER, "form never answered")
    turns.admit(form, lambda: None, lanes.FIRST)
    turns.admit(turns.owe(lanes.ANSWER, "tap"), functools.partial(served.append, "tap"))
    turns.behind_forms(functools.partial(served.append, "direct message"))
    await settle()
    assert served == []
    await asyncio.sleep(0.1)
    assert served == ["tap", "direct message"] and not form.paid


async def test_forms_owed_one_after_another_hold_the_others_back_no_longer_than_the_forms_hold(
    turns: lanes.Turns, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lanes, "FORMS_AHEAD", 60.0)  # none of these forms is done in this test
    monkeypatch.setattr(lanes, "FORMS_HOLD", 0.5)
    served: list[str] = []
    turns.admit(turns.owe(lanes.ANSWER, "form 0"), lambda: None, lanes.FIRST)
    turns.admit(turns.owe(lanes.ANSWER, "tap"), functools.partial(served.append, "tap"))
    turns.behind_forms(functools.partial(served.append, "direct message"))
    await settle()
    assert served == []  # held back by the form
    turns.admit(turns.owe(lanes.ANSWER, "form 1"), lambda: None, lanes.FIRST)
    await asyncio.sleep(0.8)
    assert served == ["tap", "direct message"]  # the forms' hold is up though both are still owed
    turns.admit(turns.owe(lanes.ANSWER, "form 2"), lambda: None, lanes.FIRST)
    turns.admit(turns.owe(lanes.ANSWER, "another tap"), functools.partial(served.append, "another tap"))
    await settle()
    assert served[-1] == "another tap"  # a new form owed in the same stretch holds nothing back


async def test_a_stretch_of_forms_right_after_one_that_held_the_others_back_holds_nothing_back(
    turns: lanes.Turns,
) -> None:
    """Forms read one by one through a burst began stretch after stretch, each holding the others
    back: after a stretch's hold, as long a time follows in which a new form holds nothing back."""
    served: list[str] = []
    first = turns.owe(lanes.ANSWER, "form 0")
    turns.admit(first, lambda: None, lanes.FIRST)
    turns.admit(turns.owe(lanes.ANSWER, "tap"), functools.partial(served.append, "tap"))
    await asyncio.sleep(0.1)
    assert served == []  # held back by the form
    turns.pay(first.key)
    await settle()
    assert served == ["tap"]
    turns.admit(turns.owe(lanes.ANSWER, "form 1"), lambda: None, lanes.FIRST)
    turns.admit(turns.owe(lanes.ANSWER, "another tap"), functools.partial(served.append, "another tap"))
    turns.behind_forms(functools.partial(served.append, "direct message"))
    await settle()
    assert served == ["tap", "another tap", "direct message"]  # right after a hold: nothing held back
    turns.pay("form 1")
    await asyncio.sleep(0.5)  # longer than the last hold
    turns.admit(turns.owe(lanes.ANSWER, "form 2"), lambda: None, lanes.FIRST)
    turns.admit(turns.owe(lanes.ANSWER, "a third tap"), functools.partial(served.append, "a third tap"))
    await settle()
    assert served[-1] == "direct message"  # long after it: the form holds the others back again


async def test_a_slot_is_given_back_when_its_answer_is_on_its_way(turns: lanes.Turns) -> None:
    held = fill_the_slots(turns)
    served: list[str] = []
    turns.admit(turns.owe(lanes.ANSWER, "next"), lambda: served.append("next"))
    turns.on_its_way(held[0].key)
    await settle()
    assert served == ["next"]
    assert turns.owed(lanes.ANSWER) == lanes.SLOTS + 1  # sent, not yet answered: still owed


async def test_the_work_after_the_answers_waits_while_one_is_owed(turns: lanes.Turns) -> None:
    done: list[str] = []
    owed = turns.owe(lanes.ANSWER, "a form")

    async def after() -> None:
        await lanes.turn()  # e.g. a followup's call to Discord, a redraw's read
        done.append("after")

    async def answer() -> None:
        with lanes.working_for(owed):
            await lanes.turn()  # the answer's own read goes on
            done.append("answer's read")

    waiting = asyncio.create_task(after())
    await asyncio.create_task(answer())
    await settle()
    assert done == ["answer's read"]
    turns.pay(owed.key)
    await waiting
    assert done == ["answer's read", "after"]


async def test_the_work_after_the_answers_waits_only_for_the_answers_owed_when_it_came(
    turns: lanes.Turns,
) -> None:
    """Under a steady load answers keep coming: the work after them waits for the ones owed before
    it, not for the later ones (it would wait for ever)."""
    before = turns.owe(lanes.ANSWER, "before")
    done: list[str] = []

    async def after() -> None:
        await lanes.turn()
        done.append("after")

    waiting = asyncio.create_task(after())
    await settle()
    later = turns.owe(lanes.ANSWER, "later")
    turns.pay(before.key)
    await waiting
    assert done == ["after"] and not later.paid


async def test_the_work_after_the_answers_waits_no_longer_than_its_patience(
    turns: lanes.Turns, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lanes, "PATIENCE", 0.05)
    turns.owe(lanes.ANSWER, "never answered")
    await lanes.turn()  # goes on: an answer owed forever holds nothing back
    await lanes.turn()  # and the same task does not wait again
    assert turns.waited == 1


async def test_a_direct_messages_reply_waits_for_its_slot_then_never_again(turns: lanes.Turns) -> None:
    fill_the_slots(turns)  # the interactions' slots: not the replies'
    held = fill_the_slots(turns, lanes.REPLY)
    reply = turns.owe(lanes.REPLY, "a direct message")
    steps: list[str] = []

    async def handle() -> None:
        with lanes.working_for(reply):
            await lanes.turn()
            steps.append("read")
            await lanes.turn()
            steps.append("write")

    handling = asyncio.create_task(handle())
    await settle()
    assert steps == []
    turns.pay(held[0].key)
    await handling
    assert steps == ["read", "write"]


async def test_a_reply_waiting_on_a_batch_written_for_it_gives_its_slot_to_the_next(
    turns: lanes.Turns,
) -> None:
    held = fill_the_slots(turns, lanes.REPLY)
    served: list[str] = []
    turns.admit(turns.owe(lanes.REPLY, "next"), functools.partial(served.append, "next"))
    with lanes.working_for(held[0]):
        lanes.step_aside()  # its orders wait in the batch another task writes
    await settle()
    assert served == ["next"] and not held[0].paid


@pytest.fixture
async def sessions(database_url: str) -> AsyncIterator[Sessions]:
    """On SQLite and on PostgreSQL."""
    engine = make_engine(database_url)
    made = make_session_factory(engine)
    async with made.begin() as s:
        await (await s.connection()).execute(text("CREATE TABLE written (n INTEGER, who TEXT)"))
    lanes.install()
    try:
        yield made
    finally:
        admit_sessions_with(None)
        await engine.dispose()


@pytest.mark.both_backends  # PostgreSQL's sessions begin their own way (db.database._Admitted)
async def test_a_database_session_of_the_work_after_the_answers_begins_once_they_are_answered(
    sessions: Sessions, turns: lanes.Turns
) -> None:
    """A redraw's write that came first begins only once the direct message's orders are written and
    the form has read what it shows (both answered)."""
    form = turns.owe(lanes.ANSWER, "form")
    reply = turns.owe(lanes.REPLY, "direct message")
    seen: list[str] = []

    async def write(who: str) -> None:
        async with sessions.begin() as s:
            await (await s.connection()).execute(
                text("INSERT INTO written SELECT count(*), :who FROM written"), {"who": who}
            )

    async def written() -> list[str]:
        async with sessions.read() as s:
            rows = await (await s.connection()).execute(text("SELECT who FROM written ORDER BY n"))
            return [row[0] for row in rows.all()]

    async def direct_message() -> None:
        with lanes.working_for(reply), urgent_writes():
            await write("direct message")
        turns.pay(reply.key)

    async def form_read() -> None:
        with lanes.working_for(form):
            seen.extend(await written())
        turns.pay(form.key)

    redraw = asyncio.create_task(write("redraw"))
    await settle()
    await asyncio.gather(form_read(), direct_message(), redraw)
    assert "redraw" not in seen
    assert await written() == ["direct message", "redraw"]


@pytest.mark.both_backends
async def test_inside_a_session_nothing_waits(sessions: Sessions, turns: lanes.Turns) -> None:
    """A step inside a session (holding SQLite's writer lock) never waits for the answers owed."""
    async with sessions.begin() as s:
        owed = turns.owe(lanes.ANSWER, "a form")  # comes while the session holds the writer lock
        await asyncio.wait_for(lanes.turn(), timeout=5)
        await (await s.connection()).execute(text("INSERT INTO written VALUES (0, 'inside')"))
    assert turns.waited == 0
    turns.pay(owed.key)


async def test_the_work_after_an_answer_does_not_wait_for_a_reply_set_aside_behind_it(
    turns: lanes.Turns,
) -> None:
    """A player's next direct message waits for their lock, held by the task handling their earlier one:
    that task's steps after its own reply go on (they waited PATIENCE for each message otherwise), and a
    reply owed to someone else still holds them back."""
    next_message = turns.owe(lanes.REPLY, "their next message")
    with lanes.working_for(next_message), lanes.behind_own_work():
        assert await turns.turn(patience=30.0) == 0.0  # went on: nothing before it is owed but that
        someone_else = turns.owe(lanes.REPLY, "someone else's message")
        later = asyncio.create_task(turns.turn(patience=30.0))
        await settle()
        assert not later.done()  # waits for someone else's reply, owed before it
        turns.pay(someone_else.key)
        await settle()
        assert later.done()
    assert not next_message.aside
    waiting = asyncio.create_task(turns.turn(patience=30.0))
    await settle()
    assert not waiting.done()  # once it has the lock, its reply is waited for again
    turns.pay(next_message.key)
    await settle()
    assert waiting.done()
