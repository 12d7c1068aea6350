"""Fewer than seven players (the rulebook's alternate way to play) and variants with their own events."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlmodel import select

from db.database import SessionFactory
from db.models import GameLogEntry, PhaseRecord, PowerAssignment
from engine.variants import CoinFlip, Variant, get_variant, register, unregister
from gm.errors import InvalidSettings
from gm.moderation.actions import Actor
from gm.moderation.rollback import rollback_last_phase
from gm.ordering import reminders
from gm.ordering import submission as orders
from gm.phases import coin
from gm.settings import GameSettings
from gm.setup import configure, games
from tests.gm.conftest import (
    CREATOR,
    GUILD,
    T0,
    close,
    current_phase,
    france_one_move_from_a_solo,
    make_closer,
    make_game,
    make_started_game,
    messages,
    place,
    player_of,
    submit,
    user,
)

ALLIES = ("ENGLAND", "FRANCE", "RUSSIA")
CENTRAL = ("AUSTRIA", "GERMANY", "TURKEY")


async def test_six_players_leave_italy_to_nobody(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, players=6, settings=GameSettings(players=6))
    assert started.assignments["ITALY"] is None
    assert all(started.assignments[p] is not None for p in started.assignments if p != "ITALY")
    (announced,) = await messages(sessions, "game_started")
    assert "Italy: nobody (units hold)" in announced.payload["lines"]
    await make_closer(sessions).close(started.phase.id)
    opened = {m.target_power for m in await messages(sessions, "phase_opened")}
    assert "ITALY" not in opened and len(opened) == 6


VENICE = {
    "phase": "S1901M",
    "units": {"FRANCE": ["A PIE", "A TYR"], "ITALY": ["A VEN", "A ROM"], "AUSTRIA": ["A TRI"]},
    "centers": {"FRANCE": ["PAR"], "ITALY": ["VEN", "ROM", "NAP"], "AUSTRIA": ["TRI", "VIE"]},
}


@pytest.mark.parametrize("supported", [True, False])
async def test_a_neutral_unit_holds_can_be_supported_and_is_disbanded_when_dislodged(
    sessions: SessionFactory, supported: bool
) -> None:
    started = await make_started_game(sessions, players=6, settings=GameSettings(players=6))
    await place(sessions, started.phase.id, VENICE)
    await submit(sessions, started, "FRANCE", "A Pie-Ven\nA Tyr S A Pie-Ven")
    if supported:
        report = await submit(sessions, started, "AUSTRIA", "A Tri S A Ven")
        assert report.lines[0].order == "A TRI S A VEN"
    await close(sessions, started.game.id)
    async with sessions() as s:
        spring = await s.get(PhaseRecord, started.phase.id)
    assert spring is not None and spring.results is not None
    lines = {o["order"]: o for o in spring.results["orders"]}
    if supported:  # two against two: Venice holds
        assert lines["A TRI S A VEN"]["status"] == "succeeded"
        assert lines["A VEN H"]["status"] == "succeeded"
        assert lines["A PIE - VEN"]["status"] == "failed"
    else:  # dislodged, and since nobody plays Italy it is disbanded (the retreat phase closed at once)
        assert lines["A VEN H"]["status"] == "failed"
        now = await current_phase(sessions, started.game.id)
        assert now.name == "F1901M" and now.board["units"]["ITALY"] == ["A ROM"]


async def test_a_neutral_power_never_builds_and_removes_by_the_civil_disorder_rule(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions, players=6, settings=GameSettings(players=6))
    await place(
        sessions,
        started.phase.id,
        {
            "phase": "W1901A",
            "units": {"ITALY": ["A VEN"], "GERMANY": ["A MUN", "A KIE", "F BAL"], "FRANCE": ["A PAR"]},
            "centers": {"ITALY": ["VEN", "ROM", "NAP"], "GERMANY": ["MUN", "KIE"], "FRANCE": ["PAR"]},
        },
        adjustments={"ITALY": 2, "GERMANY": -1},
    )
    await submit(sessions, started, "GERMANY", "A Kie D")
    await close(sessions, started.game.id)
    after = (await current_phase(sessions, started.game.id)).board
    assert after["units"]["ITALY"] == ["A VEN"]  # Italy was owed two builds: none made
    assert sorted(after["units"]["GERMANY"]) == ["A MUN", "F BAL"]


async def test_five_players_leave_italy_and_germany_to_nobody(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, players=5, settings=GameSettings(players=5))
    assert {p for p, u in started.assignments.items() if u is None} == {"ITALY", "GERMANY"}
    assert len({u for u in started.assignments.values() if u is not None}) == 5


async def test_four_players_hold_the_rulebooks_pairs_and_order_both_powers(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, players=4, settings=GameSettings(players=4))
    seats: dict[int | None, list[str]] = {}
    for power, uid in started.assignments.items():
        seats.setdefault(uid, []).append(power)
    assert sorted(sorted(v) for v in seats.values()) == [
        ["AUSTRIA", "FRANCE"],
        ["ENGLAND"],
        ["GERMANY", "TURKEY"],
        ["ITALY", "RUSSIA"],
    ]
    seat = player_of(started, "AUSTRIA")
    async with sessions.begin() as s:
        report = await orders.submit_orders(
            s, started.game.id, seat, "A Vie-Gal\nA Par-Bur\nF Bre-Mid", now=T0
        )
    assert [(o.power, o.order) for o in report.lines] == [
        ("AUSTRIA", "A VIE - GAL"),
        ("FRANCE", "A PAR - BUR"),
        ("FRANCE", "F BRE - MAO"),
    ]
    assert {p.power: p.missing for p in report.view.powers} == {
        "AUSTRIA": ("A BUD", "F TRI"),
        "FRANCE": ("A MAR",),
    }
    reminded = await reminders_for(sessions, started.phase.id)
    (dm,) = [m for m in reminded if m.target_user_id == seat]
    assert dm.payload["missing"] == {"AUSTRIA": ["A BUD", "F TRI"], "FRANCE": ["A MAR"]}
    async with sessions.begin() as s:
        view = await orders.set_ready(s, started.game.id, seat, now=T0)
    assert all(p.ready for p in view.powers) and len(view.powers) == 2
    async with sessions.begin() as s:  # one power only, by name
        report = await orders.submit_orders(s, started.game.id, seat, "A Mar-Spa", power="france", now=T0)
    assert report.view.powers[0].power == "FRANCE" and report.view.powers[0].missing == ()


async def reminders_for(sessions: SessionFactory, phase_id: int) -> list:
    async with sessions.begin() as s:
        await reminders.queue_reminders(s, phase_id, 1.0, now=T0)
    return await messages(sessions, "reminder")


async def test_three_players_hold_the_rulebooks_triples(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, players=3, settings=GameSettings(players=3))
    seats: dict[int | None, set[str]] = {}
    for power, uid in started.assignments.items():
        seats.setdefault(uid, set()).add(power)
    assert sorted(sorted(v) for v in seats.values()) == [
        ["AUSTRIA", "ENGLAND", "GERMANY"],
        ["FRANCE", "TURKEY"],
        ["ITALY", "RUSSIA"],
    ]
    (welcome,) = [
        m for m in await messages(sessions, "welcome") if m.target_user_id == player_of(started, "ENGLAND")
    ]
    assert sorted(welcome.payload["powers"]) == ["AUSTRIA", "ENGLAND", "GERMANY"]


async def test_the_two_player_1914_game_and_a_variant_the_engine_cannot_play(
    sessions: SessionFactory,
) -> None:
    ww1 = get_variant("ww1914")
    assert ww1.player_counts == (2,) and ww1.target() == 24 and ww1.first_year() == 1914
    assert ww1.neutral_powers(2) == ("ITALY",)
    async with sessions() as s:
        with pytest.raises(InvalidSettings, match="For 2 players choose the variant 'ww1914'"):
            await games.create_game(
                s, guild_id=GUILD, creator_id=CREATOR, name="Two", settings=GameSettings(players=2), now=T0
            )
    unknown_rule = register(
        Variant(name="test-teleport", title="Teleport", map_name="standard", rules={"teleport": True})
    )
    try:
        async with sessions() as s:
            cannot = r"cannot be played yet: .* does not support its rules \(teleport\)"
            with pytest.raises(InvalidSettings, match=cannot):
                await games.create_game(
                    s,
                    guild_id=GUILD,
                    creator_id=CREATOR,
                    name="Far",
                    settings=GameSettings(players=7),
                    variant=unknown_rule.name,
                    now=T0,
                )
    finally:
        unregister(unknown_rule.name)  # every later test of this process sees the registry
    # the game opens in 1914, and Italy joins a side in 1915
    started = await make_started_game(sessions, settings=GameSettings(players=2), variant="ww1914")
    assert started.phase.name == "S1914M" and started.assignments["ITALY"] is None
    report = await submit(sessions, started, "AUSTRIA", "A Vie-Tyr\nA Bud-Ser")
    assert [line.accepted for line in report.lines] == [True, True]
    await close(sessions, started.game.id)
    await close(sessions, started.game.id)
    phase = await current_phase(sessions, started.game.id)
    assert phase.name in ("W1914A", "S1915M")
    (flip,) = await messages(sessions, "coin_flip")
    winner = player_of(started, flip.payload["side"][0])
    if phase.name == "W1914A":
        await close(sessions, started.game.id)
    async with sessions() as s:
        view = await orders.my_orders(s, started.game.id, winner)
    assert view.phase.name == "S1915M" and "ITALY" in [p.power for p in view.powers]


@pytest.fixture
def flip_variant() -> Iterator[Variant]:
    """A two-player Standard variant with the 1914 coin flip, known for one test only."""
    variant = register(
        Variant(
            name="test-flip",
            title="Coin flip test (Standard rules, 2 players)",
            map_name="standard",
            seats={2: (ALLIES, CENTRAL)},
            victory_centers=24,
            coin_flip=CoinFlip(
                power="ITALY", sides=(ALLIES, CENTRAL), flip_after_year=1901, joins_in_year=1902
            ),
        )
    )
    yield variant
    unregister(variant.name)


def force_coin(monkeypatch: pytest.MonkeyPatch, tails: bool) -> None:
    monkeypatch.setattr(coin.secrets, "randbelow", lambda n: 1 if tails else 0)


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_the_coin_flip_gives_italy_to_one_side_once_and_a_rollback_keeps_the_toss(
    sessions: SessionFactory, monkeypatch: pytest.MonkeyPatch, flip_variant: Variant
) -> None:
    started = await make_started_game(sessions, settings=GameSettings(players=2), variant=flip_variant.name)
    central = player_of(started, "AUSTRIA")
    assert started.assignments["ITALY"] is None and player_of(started, "TURKEY") == central
    force_coin(monkeypatch, tails=True)
    await close(sessions, started.game.id)  # Spring 1901
    assert await messages(sessions, "coin_flip") == []
    await close(sessions, started.game.id)  # Fall 1901: flipped, and Italy joins from Spring 1902
    (flip,) = await messages(sessions, "coin_flip")
    assert flip.payload["result"] == "tails" and flip.payload["side"] == list(CENTRAL)
    fall_results = (await messages(sessions, "phase_results"))[-1]
    assert fall_results.payload["phase"] == "F1901M" and fall_results.row_id < flip.row_id, (
        "results come first"
    )
    (joined,) = await messages(sessions, "power_joined")
    assert joined.payload["user_id"] == central and joined.payload["power"] == "ITALY"
    assert joined.payload["lines"] == [
        "From Spring 1902 Movement the player of Austria, Germany and Turkey orders Italy too."
    ]
    async with sessions() as s:
        view = await orders.my_orders(s, started.game.id, central)
    assert [p.power for p in view.powers] == ["AUSTRIA", "GERMANY", "ITALY", "TURKEY"]
    assert view.phase.name == "S1902M"

    force_coin(monkeypatch, tails=False)  # a rollback must not re-toss
    async with sessions.begin() as s:
        await rollback_last_phase(s, started.game.id, Actor(user(41), is_server_moderator=True), now=T0)
    async with sessions() as s:
        italy = (await s.exec(select(PowerAssignment).where(PowerAssignment.power == "ITALY"))).one()
    assert italy.player_id is None  # back to neutral for the replayed Fall 1901
    await close(sessions, started.game.id)
    async with sessions() as s:
        view = await orders.my_orders(s, started.game.id, central)
        flips = (await s.exec(select(GameLogEntry).where(GameLogEntry.action == "coin_flip"))).all()
    assert "ITALY" in [p.power for p in view.powers] and len(flips) == 1


async def test_the_variants_victory_target_is_used(sessions: SessionFactory, flip_variant: Variant) -> None:
    started = await make_started_game(sessions, settings=GameSettings(players=2), variant=flip_variant.name)
    await france_one_move_from_a_solo(sessions, started)
    outcome = await make_closer(sessions).close(started.phase.id)
    assert not outcome.game_over and outcome.next_phase is not None  # 18 is not enough: 24 win here


async def test_an_unknown_variant_is_refused(sessions: SessionFactory) -> None:
    async with sessions() as s:
        with pytest.raises(InvalidSettings, match="There is no variant called 'atlantis'"):
            await games.create_game(
                s, guild_id=GUILD, creator_id=user(1), name="x", variant="atlantis", now=T0
            )


async def test_a_two_player_game_keeps_its_variant_when_its_settings_change(
    sessions: SessionFactory, flip_variant: Variant
) -> None:
    game = await make_game(sessions, players=1, settings=GameSettings(players=2), variant=flip_variant.name)
    async with sessions.begin() as s:
        changed = await configure.update_settings(s, game.id, CREATOR, {"movement_minutes": 120}, now=T0)
    assert changed.settings.movement_minutes == 120 and changed.variant == flip_variant.name
    async with sessions() as s:
        with pytest.raises(InvalidSettings, match="played by 2 players, not 3"):
            await configure.update_settings(s, game.id, CREATOR, {"players": 3}, now=T0)
