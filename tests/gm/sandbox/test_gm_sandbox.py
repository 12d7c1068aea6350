"""Sandboxes at the gm facade: made from a running game (its public position only, and the owner's own
current orders at their choice), ordered for several powers with the game's own gate, adjudicated,
stepped back; retreats and builds; the limits (three per member, 30 days unused, leaving the server);
a game untouched by its sandboxes; and refusals of bad input (an unknown sandbox, someone else's)."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlmodel import SQLModel, func, select

from db.database import SessionFactory
from db.models import (
    GameLogEntry,
    OrderRecord,
    OrderSubmission,
    OutboxEntry,
    PhaseMap,
    PhaseRecord,
    Player,
    ReadyFlag,
    Sandbox,
    SandboxPhase,
)
from gm.errors import GameNotStarted, NotAllowed, OrdersClosed, UnknownGame, UnknownPhase
from gm.facade import Gamemaster
from gm.meant_for import MeantFor
from gm.sandbox.model import SandboxLimit, SandboxMenu, UnknownSandbox
from tests.gm.conftest import (
    GUILD,
    T0,
    close,
    current_phase,
    make_game,
    make_started_game,
    player_of,
    submit,
    user,
)
from tests.helpers.gm import RecordingSender

pytestmark = pytest.mark.both_backends  # on PostgreSQL too: the sandbox limit's advisory lock

OTHER_GUILD = 777


class Clock:
    """The facade's clock, moved by the tests."""

    def __init__(self, now: datetime = T0) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def gamemaster(sessions: SessionFactory, clock: Clock | None = None, *, maps: bool = False) -> Gamemaster:
    return Gamemaster(sessions, RecordingSender(), workers=0, render_maps=maps, clock=clock or Clock())


async def counts(sessions: SessionFactory, *tables: type[SQLModel]) -> dict[str, int]:
    found = {}
    async with sessions() as s:
        for table in tables:
            found[table.__name__] = (await s.exec(select(func.count()).select_from(table))).one()
        await s.commit()
    return found


GAME_TABLES = (
    PhaseRecord,
    OrderRecord,
    OrderSubmission,
    ReadyFlag,
    GameLogEntry,
    OutboxEntry,
    PhaseMap,
    Player,
)


def orders_of(menu: SandboxMenu) -> dict[str, str]:
    assert menu.menu is not None
    return dict(menu.menu.powers[0].orders)


async def test_a_sandbox_of_a_running_game_three_powers_adjudicated_then_a_step_back(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    game_id = started.game.id
    france = player_of(started, "FRANCE")
    await submit(sessions, started, "FRANCE", "A Par-Pic")  # the game's own orders: never touched
    gm = gamemaster(sessions, maps=True)
    before = await counts(sessions, *GAME_TABLES)

    menu, notes = await gm.new_sandbox(france, guild_id=GUILD, game_id=game_id)
    assert notes == [] and menu.phase_name == "S1901M" and menu.step == 0
    assert menu.sandbox.title == f"game #{game_id} Test game at Spring 1901 Movement"
    assert [p.power for p in menu.powers] == [
        "AUSTRIA",
        "ENGLAND",
        "FRANCE",
        "GERMANY",
        "ITALY",
        "RUSSIA",
        "TURKEY",
    ]
    assert menu.power == "FRANCE" and orders_of(menu) == {}, (
        "the owner's power shown; no orders copied unless asked"
    )
    box = menu.sandbox

    typed = await gm.sandbox_orders(
        box.id, france, "A Par-Bur\nF Bre-MAO\nA Mar-Tus\nA Mun-Ruh\nF Lon-NTH\nA Lvp-Yor"
    )
    assert [o.accepted for o in typed.lines] == [True, True, False, True, True, True]
    refused = typed.lines[2]
    assert refused.power == "FRANCE" and "TUS" in (refused.reason or "") and refused.hint
    assert [o.power for o in typed.lines if o.accepted] == [
        "FRANCE",
        "FRANCE",
        "GERMANY",
        "ENGLAND",
        "ENGLAND",
    ]
    picked = await gm.sandbox_orders(box.id, france, "A MAR S A PAR - BUR", power="FRANCE")
    assert picked.menu.power == "FRANCE"
    assert orders_of(picked.menu) == {
        "PAR": "A PAR - BUR",
        "BRE": "F BRE - MAO",
        "MAR": "A MAR S A PAR - BUR",
    }
    germany = await gm.sandbox_menu(box.id, france, power="GERMANY")
    assert orders_of(germany) == {"MUN": "A MUN - RUH"} and germany.menu is not None
    assert set(germany.menu.powers[0].missing) == {"F KIE", "A BER"}
    wrong = await gm.sandbox_orders(box.id, france, "A Par-Bur", power="GERMANY")
    assert not wrong.lines[0].accepted, "a pick for one power is judged for that power only"

    results = await gm.sandbox_adjudicate(box.id, france, meant_for=MeantFor(menu.phase_id))
    assert results.phase_name == "S1901M" and results.png is not None and results.png[:4] == b"\x89PNG"
    outcome = {o["order"]: o["status"] for o in results.result["orders"] if o["order"]}
    assert outcome["A PAR - BUR"] == "succeeded" and outcome["A MUN - RUH"] == "succeeded"
    assert outcome["A VIE H"] == "succeeded", "a power without orders holds"
    after = results.menu
    assert after.phase_name == "F1901M" and after.step == 1 and after.phase_id != menu.phase_id
    assert orders_of(await gm.sandbox_menu(box.id, france, power="FRANCE")) == {}
    units = await board_units(sessions, box.id, after.step)
    assert "A BUR" in units["FRANCE"] and "A RUH" in units["GERMANY"] and "A YOR" in units["ENGLAND"]

    with pytest.raises(OrdersClosed, match="adjudicated or stepped back"):
        await gm.sandbox_orders(box.id, france, "A Par H", meant_for=MeantFor(menu.phase_id))
    back = await gm.sandbox_step_back(box.id, france, power="FRANCE", meant_for=MeantFor(after.phase_id))
    assert back.phase_name == "S1901M" and back.step == 0 and back.phase_id == menu.phase_id
    assert orders_of(back)["MAR"] == "A MAR S A PAR - BUR", "the orders are as they were, to change"
    changed = await gm.sandbox_orders(box.id, france, "A Par-Pic", meant_for=MeantFor(back.phase_id))
    assert changed.lines[0].accepted and orders_of(changed.menu)["PAR"] == "A PAR - PIC"
    again = await gm.sandbox_adjudicate(box.id, france, meant_for=MeantFor(back.phase_id))
    assert "A PIC" in (await board_units(sessions, box.id, again.menu.step))["FRANCE"]
    await gm.sandbox_step_back(box.id, france)
    with pytest.raises(NotAllowed, match="no step before it"):
        await gm.sandbox_step_back(box.id, france)

    assert await counts(sessions, *GAME_TABLES) == before, "the game got no row from its sandbox"
    phase = await current_phase(sessions, game_id)
    assert phase.name == "S1901M" and phase.status == "open"
    async with sessions() as s:
        kept = (await s.exec(select(OrderRecord.text).where(OrderRecord.phase_id == phase.id))).all()
    assert kept == ["A PAR - PIC"]


async def board_units(sessions: SessionFactory, sandbox_id: int, step: int) -> dict[str, list[str]]:
    async with sessions() as s:
        row = (
            await s.exec(
                select(SandboxPhase).where(SandboxPhase.sandbox_id == sandbox_id, SandboxPhase.step == step)
            )
        ).one()
        await s.commit()
    units: dict[str, list[str]] = row.board["units"]
    return units


async def test_retreats_and_builds_are_ordered_and_adjudicated_as_in_a_game(sessions: SessionFactory) -> None:
    owner = user(9)
    gm = gamemaster(sessions)
    menu, _ = await gm.new_sandbox(owner, guild_id=None, variant="standard")
    box = menu.sandbox
    assert box.title == "the start of Standard" and box.guild_id is None
    await gm.sandbox_orders(box.id, owner, "A Par-Bur\nF Bre-MAO\nA Mun-Ruh\nA Ber-Mun\nF Kie-Den")
    spring = await gm.sandbox_adjudicate(box.id, owner)
    await gm.sandbox_orders(box.id, owner, "F MAO-Spa/nc\nA Ruh-Bur\nA Mun S A Ruh-Bur\nF Den H")
    fall = await gm.sandbox_adjudicate(box.id, owner)
    assert spring.menu.phase_name == "F1901M" and fall.menu.phase_name == "F1901R"
    retreat = fall.menu
    assert [p.power for p in retreat.powers] == ["FRANCE"] and retreat.menu is not None
    entry = retreat.menu.powers[0].legal.entries[0]
    assert entry.location == "BUR" and "A BUR R PIC" in [o.text for o in entry.orders]
    retreated = await gm.sandbox_orders(box.id, owner, "A Bur-Pic", power="FRANCE")
    assert retreated.lines[0].accepted and retreated.lines[0].order == "A BUR R PIC"
    winter = (await gm.sandbox_adjudicate(box.id, owner)).menu
    assert winter.phase_name == "W1901A"
    due = {p.power: p.due for p in winter.powers}
    assert due["FRANCE"] == 1 and due["GERMANY"] == 1
    built = await gm.sandbox_orders(box.id, owner, "A Par B\nF Kie B\nF Bre B")
    assert [o.accepted for o in built.lines] == [True, True, False], "one build due: the second is refused"
    assert "build" in (built.lines[2].reason or "")
    spring2 = (await gm.sandbox_adjudicate(box.id, owner)).menu
    units = await board_units(sessions, box.id, spring2.step)
    assert spring2.phase_name == "S1902M" and "A PAR" in units["FRANCE"] and "F KIE" in units["GERMANY"]
    assert "A PIC" in units["FRANCE"]


async def test_only_the_owners_own_orders_of_an_open_phase_are_copied(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    game_id = started.game.id
    france, germany = player_of(started, "FRANCE"), player_of(started, "GERMANY")
    await submit(sessions, started, "FRANCE", "A Par-Bur\nF Bre-MAO")
    await submit(sessions, started, "GERMANY", "A Mun-Bur\nF Kie-Hol")
    gm = gamemaster(sessions)

    mine, notes = await gm.new_sandbox(france, guild_id=GUILD, game_id=game_id, my_orders=True)
    assert notes == ["Your 2 orders of France were copied in (nobody else's)."]
    stored = await step_orders(sessions, mine.sandbox.id)
    assert stored == {"FRANCE": {"PAR": "A PAR - BUR", "BRE": "F BRE - MAO"}}, "Germany's orders stay secret"
    theirs, _ = await gm.new_sandbox(germany, guild_id=GUILD, game_id=game_id, my_orders=True)
    assert await step_orders(sessions, theirs.sandbox.id) == {
        "GERMANY": {"MUN": "A MUN - BUR", "KIE": "F KIE - HOL"}
    }
    plain, notes = await gm.new_sandbox(france, guild_id=GUILD, game_id=game_id)
    assert notes == [] and await step_orders(sessions, plain.sandbox.id) == {}

    onlooker = user(50)  # a member of the server who plays in no game
    looking, notes = await gm.new_sandbox(onlooker, guild_id=GUILD, game_id=game_id, my_orders=True)
    assert await step_orders(sessions, looking.sandbox.id) == {}
    assert notes == ["You hold no power in Test game, so you have no orders to copy."]

    await close(sessions, game_id)  # the orders of Spring 1901 are public now, and no longer current
    past, notes = await gm.new_sandbox(
        onlooker, guild_id=GUILD, game_id=game_id, phase="S1901M", my_orders=True
    )
    assert past.phase_name == "S1901M" and await step_orders(sessions, past.sandbox.id) == {}
    assert "Only the current phase's orders can be copied" in notes[0]
    box = past.sandbox.id
    units = await board_units(sessions, box, 0)
    assert "A PAR" in units["FRANCE"], "the board at the start of the phase asked for"
    await gm.delete_sandbox(box, onlooker)
    latest, _ = await gm.new_sandbox(onlooker, guild_id=GUILD, game_id=game_id)
    assert latest.phase_name == "F1901M"
    assert "A BUR" not in (await board_units(sessions, latest.sandbox.id, 0))["FRANCE"], "it bounced"


async def step_orders(sessions: SessionFactory, sandbox_id: int) -> dict[str, Any]:
    async with sessions() as s:
        row = (await s.exec(select(SandboxPhase).where(SandboxPhase.sandbox_id == sandbox_id))).one()
        await s.commit()
    return row.orders


async def test_three_sandboxes_each_the_oldest_replaced_only_when_confirmed(sessions: SessionFactory) -> None:
    clock = Clock()
    gm = gamemaster(sessions, clock)
    owner, other = user(20), user(21)
    made = []
    for variant in ("standard", "ancmed", "fleetrome"):
        clock.now += timedelta(minutes=1)
        made.append((await gm.new_sandbox(owner, guild_id=GUILD, variant=variant))[0].sandbox)
    clock.now += timedelta(minutes=1)
    await gm.sandbox_menu(made[0].id, owner)  # used again: the oldest in use is now the second
    await gm.new_sandbox(other, guild_id=GUILD, variant="standard")
    clock.now += timedelta(minutes=1)
    with pytest.raises(SandboxLimit) as asked:
        await gm.new_sandbox(owner, guild_id=GUILD, variant="modern")
    assert asked.value.oldest.id == made[1].id and "#" + str(made[1].id) in asked.value.message
    with pytest.raises(SandboxLimit):
        await gm.new_sandbox(owner, guild_id=GUILD, variant="modern", replace=made[2].id)
    assert len(await gm.sandboxes_of(owner)) == 3, "nothing was replaced without the right confirmation"
    fourth, _ = await gm.new_sandbox(owner, guild_id=GUILD, variant="modern", replace=made[1].id)
    mine = await gm.sandboxes_of(owner)
    assert [s.id for s in mine] == [fourth.sandbox.id, made[0].id, made[2].id], "most recently used first"
    assert len(await gm.sandboxes_of(other)) == 1, "another member's are theirs"
    with pytest.raises(UnknownSandbox):
        await gm.sandbox_menu(made[1].id, owner)
    async with sessions() as s:
        assert (await s.exec(select(SandboxPhase).where(SandboxPhase.sandbox_id == made[1].id))).all() == []


async def test_two_new_sandboxes_at_once_never_make_a_fourth(sessions: SessionFactory) -> None:
    gm = gamemaster(sessions, Clock())
    owner = user(22)
    for _ in range(2):
        await gm.new_sandbox(owner, guild_id=GUILD, variant="standard")
    for _ in range(5):  # two taps at once, from two devices: one gets the third, the other is asked
        made = await asyncio.gather(
            *(gm.new_sandbox(owner, guild_id=GUILD, variant="standard") for _ in range(2)),
            return_exceptions=True,
        )
        assert sorted(type(m).__name__ for m in made) == ["SandboxLimit", "tuple"], made
        assert len(await gm.sandboxes_of(owner)) == 3
        await gm.delete_sandbox((await gm.sandboxes_of(owner))[0].id, owner)


async def test_sandboxes_unused_for_30_days_are_swept(sessions: SessionFactory) -> None:
    clock = Clock()
    gm = gamemaster(sessions, clock)
    owner = user(30)
    old = (await gm.new_sandbox(owner, guild_id=GUILD, variant="standard"))[0].sandbox
    kept = (await gm.new_sandbox(owner, guild_id=GUILD, variant="standard"))[0].sandbox
    assert old.expires_at == T0 + timedelta(days=30)
    clock.now = T0 + timedelta(days=20)
    await gm.sandbox_orders(kept.id, owner, "A Par-Bur")  # used: 30 more days from now
    clock.now = T0 + timedelta(days=29, hours=23)
    assert await gm.runtime.sweep_sandboxes() == 0
    clock.now = T0 + timedelta(days=30, minutes=1)
    assert await gm.runtime.sweep_sandboxes() == 1
    assert [s.id for s in await gm.sandboxes_of(owner)] == [kept.id]
    clock.now = T0 + timedelta(days=50, minutes=1)
    restarted = gamemaster(sessions, clock)
    await restarted.runtime.start()  # the sweep runs at start-up, then every hour
    try:
        assert await restarted.sandboxes_of(owner) == []
        assert "sandbox_sweep" in restarted.runtime.scheduler.job_ids()
    finally:
        await restarted.runtime.shutdown()
    assert await counts(sessions, Sandbox, SandboxPhase) == {"Sandbox": 0, "SandboxPhase": 0}


async def test_a_member_who_leaves_the_server_loses_its_sandboxes(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    gm = gamemaster(sessions)
    france = player_of(started, "FRANCE")
    here, _ = await gm.new_sandbox(france, guild_id=GUILD, game_id=started.game.id)
    elsewhere, _ = await gm.new_sandbox(france, guild_id=OTHER_GUILD, variant="standard")
    in_dms, _ = await gm.new_sandbox(france, guild_id=None, variant="ancmed")
    someone, _ = await gm.new_sandbox(user(40), guild_id=GUILD, game_id=started.game.id)
    assert here.sandbox.guild_id == GUILD
    assert await gm.sandboxes_member_left(GUILD, france) == 1
    left = {s.id for s in await gm.sandboxes_of(france)}
    assert left == {elsewhere.sandbox.id, in_dms.sandbox.id}
    assert len(await gm.sandboxes_of(user(40))) == 1, "the others' stay"
    assert someone.sandbox.id not in left


async def test_bad_input_is_refused_with_its_reason(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    gm = gamemaster(sessions)
    france, england = player_of(started, "FRANCE"), player_of(started, "ENGLAND")
    menu, _ = await gm.new_sandbox(france, guild_id=GUILD, game_id=started.game.id)
    box = menu.sandbox

    with pytest.raises(UnknownSandbox, match="You have no sandbox #999") as none:
        await gm.sandbox_menu(999, france)
    with pytest.raises(UnknownSandbox):
        await gm.sandbox_orders(2**70, france, "A Par-Bur")
    with pytest.raises(UnknownSandbox):  # a sheet of another database's sandbox that had the number
        await gm.sandbox_orders(box.id, france, "A Par-Bur", meant_for=MeantFor(tag="zzzzzz"))
    for attempt in (
        gm.sandbox_menu(box.id, england),
        gm.sandbox_orders(box.id, england, "A Par-Bur"),
        gm.sandbox_withdraw(box.id, england, "FRANCE"),
        gm.sandbox_adjudicate(box.id, england),
        gm.sandbox_step_back(box.id, england),
        gm.sandbox_map(box.id, england),
        gm.delete_sandbox(box.id, england),
    ):
        with pytest.raises(UnknownSandbox) as theirs:  # one answer: sandbox numbers are guessable
            await attempt
        assert str(theirs.value).replace(f"#{box.id}", "#999") == str(none.value)
    assert len(await gm.sandboxes_of(france)) == 1 and await gm.sandboxes_of(england) == []
    assert await step_orders(sessions, box.id) == {}, "nothing was changed"

    with pytest.raises(NotAllowed, match="no power"):
        await gm.sandbox_orders(box.id, france, "A Par-Bur", power="NARNIA")
    with pytest.raises(OrdersClosed):
        await gm.sandbox_orders(box.id, france, "A Par-Bur", meant_for=MeantFor(menu.phase_id + 1000))
    with pytest.raises(UnknownGame, match="no game"):
        await gm.new_sandbox(user(60), guild_id=OTHER_GUILD, game_id=started.game.id)
    with pytest.raises(UnknownGame, match="no variant"):
        await gm.new_sandbox(france, guild_id=GUILD, variant="narnia")
    with pytest.raises(NotAllowed, match="name one of the two"):
        await gm.new_sandbox(france, guild_id=GUILD, game_id=started.game.id, variant="standard")
    with pytest.raises(UnknownPhase, match="has no phase"):
        await gm.new_sandbox(france, guild_id=GUILD, game_id=started.game.id, phase="F1905M")
    forming = await make_game(sessions, players=2, name="Waiting")
    with pytest.raises(GameNotStarted, match="no position yet"):
        await gm.new_sandbox(france, guild_id=GUILD, game_id=forming.id)
    assert len(await gm.sandboxes_of(france)) == 1
