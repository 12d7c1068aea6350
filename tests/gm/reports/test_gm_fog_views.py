"""What shows a running fogged game's boards shows the asker's view only (gm.reading.fog): /history,
/map, /game export, the preview of one's orders, a sandbox, the order menus and the order gate, the
status's counts; a member who plays none of its powers is refused; once the game is over, all of it."""

from __future__ import annotations

import pytest
from sqlmodel import select

from db.database import SessionFactory
from db.models import Game, GameStatus, PhaseMap, PlayerStatus
from engine import initial_board
from engine.fog import visible_provinces
from gm.errors import NotAllowed
from gm.ordering.legal import order_menu
from gm.ordering.preview import preview_of
from gm.reports.export import export_game
from gm.reports.history import phase_history
from gm.reports.status import game_status
from gm.settings import GameSettings
from gm.setup import games
from tests.gm.conftest import make_closer, make_started_game, place, player_of, set_player_status, submit
from tests.helpers.gm import gamemaster

STRANGER = 999_999


def units_in(board: dict) -> set[str]:
    return {u for us in (board.get("units") or {}).values() for u in us}


async def fogged_game(sessions: SessionFactory, fog: str = "counts") -> games.StartResult:
    return await make_started_game(sessions, settings=GameSettings(players=7, fog=fog))


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_history_map_and_export_show_the_askers_view_and_refuse_others(
    sessions: SessionFactory,
) -> None:
    started = await fogged_game(sessions)
    france = player_of(started, "FRANCE")
    await submit(sessions, started, "FRANCE", "A Par-Bur")
    await submit(sessions, started, "RUSSIA", "A War-Gal")
    await make_closer(sessions, render_maps=True).close(started.phase.id)
    seen = visible_provinces(initial_board("standard"), "FRANCE")
    async with sessions() as s:
        past = await phase_history(s, started.game.id, "S1901M", viewer=france)
        now = await phase_history(s, started.game.id, viewer=france)
        data = await export_game(s, started.game.id, viewer=france)
        for refused in (phase_history(s, started.game.id, viewer=STRANGER), export_game(s, started.game.id)):
            with pytest.raises(NotAllowed, match="fog of war"):
                await refused
    assert past.results is not None
    shown = {o["power"] for o in past.results["orders"]}
    assert "FRANCE" in shown and "GERMANY" in shown  # A MUN H: Munich borders Burgundy, where France went
    assert "RUSSIA" not in shown and "TURKEY" not in shown
    assert all(u.split()[-1][:3] in seen for u in units_in(past.board))
    assert "A MOS" not in units_in(past.board) and "A PAR" in units_in(past.board)
    assert "A GAL" not in units_in(past.results["board_after"])
    assert now.phase.name == "S1901M" and past.maps == ("orders",)  # its own orders map, by the usual name
    assert data["fog_view"] == ["FRANCE"]
    assert all("A MOS" not in units_in(p["board"]) for p in data["phases"])

    master = gamemaster(sessions)
    picture = await master.phase_map(started.game.id, "S1901M", with_orders=True, viewer=france)
    assert picture is not None and picture.filename == "S1901M-orders-FRANCE.png"
    opening = await master.phase_map(started.game.id, "S1901M", viewer=france)  # never stored: drawn now
    assert opening is not None and opening.filename == "S1901M-pos-FRANCE.png"
    with pytest.raises(NotAllowed):
        await master.phase_map(started.game.id, viewer=STRANGER)

    async with sessions() as s:  # the end reveals everything
        game = await s.get(Game, started.game.id)
        assert game is not None
        game.status = GameStatus.FINISHED
        await s.commit()
    async with sessions() as s:
        whole = await phase_history(s, started.game.id, "S1901M", viewer=STRANGER)
    assert whole.results is not None and "RUSSIA" in {o["power"] for o in whole.results["orders"]}
    assert "A MOS" in units_in(whole.board)


async def test_menus_the_gate_and_the_preview_know_only_what_the_player_sees(
    sessions: SessionFactory,
) -> None:
    started = await fogged_game(sessions)
    france = player_of(started, "FRANCE")
    async with sessions() as s:
        menu = await order_menu(s, started.game.id, france)
        _, request = await preview_of(s, started.game.id, france)
    texts = {o.text for p in menu.powers for entry in p.legal.entries for o in entry.orders}
    assert "A MAR S A PAR - BUR" in texts
    assert not any("MUN" in t for t in texts)  # Germany's army in Munich is out of sight
    assert set(menu.owners) <= visible_provinces(initial_board("standard"), "FRANCE")
    assert request["fog"] and request["viewer"] == "FRANCE" and "GERMANY" not in request["board"]["units"]
    report = await submit(sessions, started, "FRANCE", "A Mar S A Mun-Bur")
    assert not report.lines[0].accepted

    plain = await make_started_game(sessions)  # without fog the same support is taken
    assert (await submit(sessions, plain, "FRANCE", "A Mar S A Mun-Bur")).lines[0].accepted


@pytest.mark.parametrize("fog", ["counts", "silent"])
async def test_the_status_hides_the_counts_the_game_channel_does_not_give(
    sessions: SessionFactory, fog: str
) -> None:
    started = await fogged_game(sessions, fog)
    async with sessions() as s:
        view = await game_status(s, started.game.id)
    assert all(p.units is None for p in view.powers)
    if fog == "counts":
        assert {p.power: p.centers for p in view.powers}["RUSSIA"] == 4
    else:
        assert all(p.centers is None for p in view.powers)


async def test_a_sandbox_of_a_fogged_game_holds_the_owners_view(sessions: SessionFactory) -> None:
    started = await fogged_game(sessions)
    master = gamemaster(sessions)
    made, notes = await master.new_sandbox(
        player_of(started, "FRANCE"), guild_id=started.game.guild_id, game_id=started.game.id
    )
    assert any("fog of war" in n for n in notes)
    async with sessions() as s:
        from db.models import SandboxPhase

        step = (await s.exec(select(SandboxPhase).where(SandboxPhase.sandbox_id == made.sandbox.id))).one()
    assert "A MOS" not in units_in(step.board) and "A PAR" in units_in(step.board)
    with pytest.raises(NotAllowed):
        await master.new_sandbox(STRANGER, guild_id=started.game.guild_id, game_id=started.game.id)


async def test_a_player_who_left_keeps_no_view(sessions: SessionFactory) -> None:
    started = await fogged_game(sessions)
    france = player_of(started, "FRANCE")
    await set_player_status(sessions, started, "FRANCE", PlayerStatus.LEFT)
    async with sessions() as s:
        with pytest.raises(NotAllowed, match="fog of war"):
            await phase_history(s, started.game.id, viewer=france)


@pytest.mark.parametrize("fog", ["off", "counts"])
async def test_a_convoy_through_a_fleet_out_of_sight_cannot_be_entered(
    sessions: SessionFactory, fog: str
) -> None:
    started = await make_started_game(sessions, settings=GameSettings(players=7, fog=fog))
    await place(
        sessions,
        started.phase.id,
        {
            "phase": "S1901M",
            "units": {"FRANCE": ["A BRE"], "ENGLAND": ["F ENG", "F NTH"]},
            "centers": {"FRANCE": ["BRE"], "ENGLAND": ["LON"]},
        },
    )
    report = await submit(sessions, started, "FRANCE", "A Bre-Nwy via convoy")
    assert report.lines[0].accepted == (fog == "off")  # the North Sea is out of France's sight


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_a_player_of_several_powers_sees_all_their_powers_views_in_one_map(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions, settings=GameSettings(players=3, fog="counts"))
    seats: dict[int, list[str]] = {}
    for power, user in started.assignments.items():
        if user is not None:
            seats.setdefault(user, []).append(power)
    user, powers = next((u, sorted(ps)) for u, ps in seats.items() if len(ps) > 1)
    master = gamemaster(sessions)
    opening = await master.phase_map(started.game.id, viewer=user)
    assert opening is not None and opening.filename == f"S1901M-pos-{powers[0]}.png"
    first = await render_view(powers[:1])
    together = await render_view(powers)
    assert opening.png == together != first, "the view of every power they play, not only the first's"
    await make_closer(sessions, render_maps=True).close(started.phase.id)
    orders = await master.phase_map(started.game.id, "S1901M", with_orders=True, viewer=user)
    async with sessions() as s:  # what the close stored: each power's view alone
        alone = (await s.exec(select(PhaseMap.png).where(PhaseMap.kind == f"orders-{powers[0]}"))).first()
    assert orders is not None and alone is not None and orders.png != alone
    assert orders.filename == f"S1901M-orders-{powers[0]}.png"


async def render_view(powers: list[str]) -> bytes:
    from gm.phases.worker import position_map_work
    from gm.reading.fog import board_view

    board = initial_board("standard")
    view, seen = board_view(board.to_json(), "standard", powers)
    title = "Spring 1901 Movement \u00b7 " + " and ".join(p.title() for p in powers) + "'s view"
    return position_map_work(
        {"board": view, "variant": "standard", "title": title, "fog": seen, "viewer": powers[0]}
    )
