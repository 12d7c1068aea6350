"""Each community variant played through gm, from /game create's use case to a few years in: the
seats for its number of players, the welcome naming its powers, its first phase, then movement with
a bounce, a dislodgement with its retreat options, a retreat, and winter builds in the right places,
each outcome checked by hand against the map (the adjacency is quoted where it decides).

Ancient Mediterranean adds a convoy through the port of Baleares, 1900 a move round the Cape of Good
Hope, Chaos (34 players) a build in a supply centre that is not the power's home, Youngstown the power
Japan ordering into the Sea of Japan, Fleet Rome its fleet in Rome.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import col, select

from db.database import SessionFactory
from db.models import OutboxEntry, PhaseRecord
from engine.variants import get_variant
from gm.errors import InvalidSettings
from gm.settings import GameSettings
from gm.setup import games
from tests.gm.conftest import (
    CREATOR,
    GUILD,
    T0,
    close,
    current_phase,
    make_started_game,
    messages,
    player_of,
    submit,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


# --- helpers ------------------------------------------------------------------------------------------


async def start(sessions: SessionFactory, variant: str, **settings: Any) -> games.StartResult:
    played = get_variant(variant)
    (players,) = played.player_counts
    options: dict[str, Any] = {"players": players, "civil_disorder_after": 0, **settings}
    return await make_started_game(sessions, settings=GameSettings(**options), variant=variant)


async def order(sessions: SessionFactory, started: games.StartResult, orders: dict[str, str]) -> None:
    """Submit each power's lines; every line must be accepted."""
    for power, text in orders.items():
        report = await submit(sessions, started, power, text)
        refused = [(line.line, line.reason) for line in report.refused]
        assert not refused, f"{power}: {refused}"


async def refused(sessions: SessionFactory, started: games.StartResult, power: str, text: str) -> str:
    """The reason the one line ``text`` is refused for ``power``."""
    report = await submit(sessions, started, power, text)
    (line,) = report.lines
    assert not line.accepted, f"{text} was accepted"
    return line.reason or ""


async def play(
    sessions: SessionFactory, started: games.StartResult, orders: dict[str, str], phase: str
) -> PhaseRecord:
    """Order, close the phase ``phase`` (checked: it is the open one) and return it with its results."""
    now = await current_phase(sessions, started.game.id)
    assert now.name == phase, f"the open phase is {now.name}, not {phase}"
    await order(sessions, started, orders)
    await close(sessions, started.game.id)
    async with sessions() as s:
        done = await s.get(PhaseRecord, now.id)
        assert done is not None and done.results is not None
        return done


def outcome(record: PhaseRecord) -> dict[str, str]:
    """Canonical order -> its status, for the phase's results."""
    assert record.results is not None
    return {line["order"]: line["status"] for line in record.results["orders"] if line["order"]}


async def board(sessions: SessionFactory, started: games.StartResult) -> dict[str, Any]:
    return (await current_phase(sessions, started.game.id)).board


def units(position: dict[str, Any], power: str) -> list[str]:
    return sorted(position["units"].get(power, []))


def centres(position: dict[str, Any], power: str) -> list[str]:
    return sorted(position["centers"].get(power, []))


async def welcome_titles(sessions: SessionFactory) -> list[str]:
    return sorted(m.payload["title"] for m in await messages(sessions, "welcome"))


async def result_lines(sessions: SessionFactory) -> list[str]:
    """Every line of every results post so far."""
    return [line for m in await messages(sessions, "phase_results") for line in m.payload.get("lines", [])]


# --- Modern Diplomacy: 10 powers ------------------------------------------------------------------------


async def test_modern_ten_players_two_years(sessions: SessionFactory) -> None:
    started = await start(sessions, "modern")
    assert started.phase.name == "S1995M"
    assert len({player_of(started, p) for p in started.assignments}) == 10  # one seat each
    titles = await welcome_titles(sessions)
    assert (
        len(titles) == 10
        and "You play Ukraine in Test game" in titles
        and "You play Poland in Test game" in titles
    )

    # Spring 1995: Marseilles and Milan both go for Piedmont: 1 against 1, both stay.
    spring = await play(
        sessions,
        started,
        {
            "FRANCE": "A Mar - Pie\nA Lyo - Swi",
            "ITALY": "A Mil - Pie\nA Rom - Tus",
            "GERMANY": "A Mun - Swi",
        },
        "S1995M",
    )
    assert outcome(spring)["A MAR - PIE"] == outcome(spring)["A MIL - PIE"] == "failed"
    assert outcome(spring)["A LYO - SWI"] == outcome(spring)["A MUN - SWI"] == "failed"  # Switzerland too
    assert outcome(spring)["A ROM - TUS"] == "succeeded"

    # Fall 1995: Italy walks into Piedmont with support; Germany takes neutral Switzerland.
    fall = await play(
        sessions,
        started,
        {"ITALY": "A Tus - Pie\nA Mil S A Tus - Pie", "GERMANY": "A Mun - Swi"},
        "F1995M",
    )
    assert outcome(fall)["A TUS - PIE"] == outcome(fall)["A MUN - SWI"] == "succeeded"
    position = await board(sessions, started)
    assert "SWI" in centres(position, "GERMANY")

    # Winter 1995: Germany (5 centres, 4 units) builds once, only in a home centre left empty.
    assert "not one of your home centers" in await refused(sessions, started, "GERMANY", "Build A Swi")
    winter = await play(sessions, started, {"GERMANY": "Build A Mun"}, "W1995A")
    assert outcome(winter)["A MUN B"] == "succeeded"

    # Spring 1996: Piedmont, supported from Switzerland by Germany, dislodges Marseilles. It may go to
    # Auvergne or Monaco: not Piedmont (the attack came from there), not Lyon (French army) nor
    # Switzerland (German army). (MAR borders AUV, LYO, MON, PIE, SWI.)
    spring = await play(
        sessions,
        started,
        {"ITALY": "A Pie - Mar", "GERMANY": "A Swi S A Pie - Mar", "FRANCE": "A Mar H"},
        "S1996M",
    )
    assert outcome(spring)["A PIE - MAR"] == "succeeded" and outcome(spring)["A MAR H"] == "failed"
    retreat = await current_phase(sessions, started.game.id)
    assert retreat.name == "S1996R"
    assert retreat.board["dislodged"]["FRANCE"]["A MAR"]["retreats"] == ["AUV", "MON"]
    assert "cannot retreat to Lyon" in await refused(sessions, started, "FRANCE", "A Mar R Lyo")
    await play(sessions, started, {"FRANCE": "A Mar R Auv"}, "S1996R")
    assert "A AUV" in units(await board(sessions, started), "FRANCE")

    # Fall 1996 and Winter: Italy keeps Marseilles; France (3 centres, 4 units) removes one, Italy builds.
    await play(sessions, started, {}, "F1996M")
    position = await board(sessions, started)
    assert "MAR" in centres(position, "ITALY") and "MAR" not in centres(position, "FRANCE")
    winter = await play(sessions, started, {"FRANCE": "Remove A Auv", "ITALY": "Build A Rom"}, "W1996A")
    assert outcome(winter)["A AUV D"] == outcome(winter)["A ROM B"] == "succeeded"
    assert (await current_phase(sessions, started.game.id)).name == "S1997M"
    lines = await result_lines(sessions)
    assert "Germany takes SWI." in lines and "Italy takes MAR from France." in lines


# --- Youngstown: 10 powers, Europe and Asia -------------------------------------------------------------


async def test_youngstown_ten_players_and_japan(sessions: SessionFactory) -> None:
    started = await start(sessions, "youngstown")
    assert started.phase.name == "S1901M"
    titles = await welcome_titles(sessions)
    assert {
        "You play Japan in Test game",
        "You play China in Test game",
        "You play India in Test game",
    } <= set(titles)

    # Spring 1901: Vienna and Venice bounce in Tyrolia; Japan (the power) sails into Japan (the sea).
    spring = await play(
        sessions,
        started,
        {
            "AUSTRIA": "A Vie - Tyr",
            "ITALY": "A Ven - Tyr",
            "GERMANY": "A Mun - Boh\nA Ber - Sax",
            "RUSSIA": "A War - Gal",
            "JAPAN": "Japan: F Tokyo - Japan",
        },
        "S1901M",
    )
    assert outcome(spring)["A VIE - TYR"] == outcome(spring)["A VEN - TYR"] == "failed"
    assert outcome(spring)["F TOK - JAP"] == outcome(spring)["A WAR - GAL"] == "succeeded"
    assert units(await board(sessions, started), "JAPAN") == ["F JAP", "F KYO", "F OSA"]

    # Fall 1901: Bohemia, supported by Russia from Galicia, dislodges Vienna (2 against 1). Vienna
    # borders BOH (the attacker's), BUD, KLU, TRI (Austrian), GAL (Russian) and TYR: only Tyrolia.
    fall = await play(
        sessions, started, {"GERMANY": "A Boh - Vie", "RUSSIA": "A Gal S A Boh - Vie"}, "F1901M"
    )
    assert outcome(fall)["A BOH - VIE"] == "succeeded"
    retreat = await current_phase(sessions, started.game.id)
    assert retreat.board["dislodged"]["AUSTRIA"]["A VIE"]["retreats"] == ["TYR"]
    await play(sessions, started, {"AUSTRIA": "A Vie - Tyr"}, "F1901R")

    # Winter 1901: Germany took Vienna (5 centres, 4 units): one build, in Berlin or Munich, not in
    # Vienna; Austria (3 centres, 4 units) removes one.
    position = await board(sessions, started)
    assert "VIE" in centres(position, "GERMANY") and len(centres(position, "AUSTRIA")) == 3
    assert "not one of your home centers" in await refused(sessions, started, "GERMANY", "Build A Vie")
    winter = await play(sessions, started, {"GERMANY": "Build A Mun", "AUSTRIA": "Remove A Tyr"}, "W1901A")
    assert outcome(winter)["A MUN B"] == outcome(winter)["A TYR D"] == "succeeded"

    # 1902 goes by with everyone holding; the game is still far from its 37 centres.
    await play(sessions, started, {}, "S1902M")
    await play(sessions, started, {}, "F1902M")
    assert (await current_phase(sessions, started.game.id)).name == "S1903M"
    assert "Germany takes VIE from Austria." in await result_lines(sessions)


# --- Ancient Mediterranean: 5 powers, the port of Baleares ------------------------------------------------


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_ancient_mediterranean_five_players_and_a_convoy_through_baleares(
    sessions: SessionFactory,
) -> None:
    started = await start(sessions, "ancmed")
    assert started.phase.name == "S0001M" and len(started.assignments) == 5
    assert "You play Carthage in Test game" in await welcome_titles(sessions)

    # Spring 1: Sparta and Neapolis both sail for the Ionian Sea and bounce. Carthage heads for Spain.
    spring = await play(
        sessions,
        started,
        {
            "GREECE": "F Spa - Ion\nA Mac - Ill\nA Ath - Epi",
            "ROME": "F Nea - Ion\nA Rav - Ven\nA Rom - Apu",
            "CARTHAGE": "F Tha - Pun\nA Car - Mau",
        },
        "S0001M",
    )
    assert outcome(spring)["F SPA - ION"] == outcome(spring)["F NEA - ION"] == "failed"
    assert outcome(spring)["A CAR - MAU"] == outcome(spring)["F THA - PUN"] == "succeeded"

    # Fall 1: Rome takes Dalmatia and sails for the Tyrrhenian; Carthage takes Saguntum.
    await play(
        sessions,
        started,
        {
            "ROME": "A Ven - Dal\nF Nea - Tyn",
            "GREECE": "A Ill - Vin",
            "CARTHAGE": "A Mau - Sag\nF Pun - Ber",
        },
        "F0001M",
    )
    position = await board(sessions, started)
    assert "DAL" in centres(position, "ROME") and "SAG" in centres(position, "CARTHAGE")

    # Winter 1: Rome (4 centres, 3 units) builds at home (Ravenna, left empty), not in Dalmatia.
    assert "not one of your home centers" in await refused(sessions, started, "ROME", "Build A Dal")
    winter = await play(sessions, started, {"ROME": "Build A Rav", "CARTHAGE": "Build F Tha"}, "W0001A")
    assert outcome(winter)["A RAV B"] == outcome(winter)["F THA B"] == "succeeded"

    # Spring 2: Epirus, supported from Vindelicia, dislodges Rome's Dalmatia (DAL borders EPI, ILL,
    # VEN, VIN): not to Epirus (the attack's) nor Vindelicia (Greek); Illyria and Venetia are empty.
    spring = await play(
        sessions,
        started,
        {
            "GREECE": "A Epi - Dal\nA Vin S A Epi - Dal",
            "CARTHAGE": "F Ber - Bal",
            "ROME": "F Tyn - Lig",
        },
        "S0002M",
    )
    assert outcome(spring)["A EPI - DAL"] == outcome(spring)["F BER - BAL"] == "succeeded"
    retreat = await current_phase(sessions, started.game.id)
    assert retreat.board["dislodged"]["ROME"]["A DAL"]["retreats"] == ["ILL", "VEN"]
    await play(sessions, started, {"ROME": "A Dal - Ven"}, "S0002R")

    # Fall 2: Saguntum to Etruria through the port of Baleares and the Ligurian Sea, Carthage's fleet
    # and Rome's convoying together: no chain of seas alone joins them (SAG touches BAL, BER, IBE).
    fall = await play(
        sessions,
        started,
        {"CARTHAGE": "A Sag - Etr\nF Bal C A Sag - Etr", "ROME": "F Lig C A Sag - Etr"},
        "F0002M",
    )
    assert outcome(fall)["A SAG - ETR"] == outcome(fall)["F BAL C A SAG - ETR"] == "succeeded"
    assert outcome(fall)["F LIG C A SAG - ETR"] == "succeeded"
    position = await board(sessions, started)
    assert "A ETR" in units(position, "CARTHAGE") and "BAL" in centres(position, "CARTHAGE")


# --- Diplomacy 1900: 7 powers, the Cape of Good Hope ------------------------------------------------------


async def test_1900_round_the_cape_and_a_british_build_at_home(sessions: SessionFactory) -> None:
    started = await start(sessions, "1900")
    assert started.phase.name == "S1900M"

    # Spring 1900: Egypt's fleet sails round the Cape into the empty Mid-Atlantic (half strength is
    # enough against nobody); Vienna and Milan bounce in Tyrolia.
    spring = await play(
        sessions,
        started,
        {
            "BRITAIN": "F Egy - Mao",
            "AUSTRIA": "A Vie - Tyr",
            "ITALY": "A Mil - Tyr",
            "GERMANY": "A Mun - Boh",
            "TURKEY": "A Dam - Pal",
        },
        "S1900M",
    )
    assert outcome(spring)["F EGY - MAO"] == "succeeded"
    assert outcome(spring)["A VIE - TYR"] == outcome(spring)["A MIL - TYR"] == "failed"
    # no support round the Cape: the fleet now in the Mid-Atlantic cannot support into Egypt
    assert outcome(spring)["A DAM - PAL"] == "succeeded"
    why = await refused(sessions, started, "BRITAIN", "F Mao S A Pal - Egy")
    assert why == "F MAO cannot support into Egypt (EGY): no support goes round the Cape of Good Hope"

    # Fall 1900: Britain takes neutral Portugal; Italy walks into Tyrolia.
    await play(sessions, started, {"BRITAIN": "F Mao - Por", "ITALY": "A Mil - Tyr"}, "F1900M")
    position = await board(sessions, started)
    assert "POR" in centres(position, "BRITAIN") and "EGY" in centres(position, "BRITAIN")

    # Winter 1900: Britain (5 centres, 4 units) builds in Liverpool, its empty home centre; Egypt is
    # owned (and empty) but no home centre of Britain's.
    assert "not one of your home centers" in await refused(sessions, started, "BRITAIN", "Build F Egy")
    winter = await play(sessions, started, {"BRITAIN": "Build F Lvp"}, "W1900A")
    assert outcome(winter)["F LVP B"] == "succeeded"

    # Spring 1901: Bohemia, supported by Italy from Tyrolia, dislodges Vienna (VIE borders BOH, BUD,
    # TRI, TYR): Trieste is Austrian, Tyrolia Italian, Bohemia the attack's; Budapest was left for
    # Serbia the same turn, so Budapest is its only retreat.
    spring = await play(
        sessions,
        started,
        {"GERMANY": "A Boh - Vie", "ITALY": "A Tyr S A Boh - Vie", "AUSTRIA": "A Bud - Ser"},
        "S1901M",
    )
    assert outcome(spring)["A BOH - VIE"] == outcome(spring)["A BUD - SER"] == "succeeded"
    retreat = await current_phase(sessions, started.game.id)
    assert retreat.board["dislodged"]["AUSTRIA"]["A VIE"]["retreats"] == ["BUD"]
    await play(sessions, started, {"AUSTRIA": "A Vie R Bud"}, "S1901R")
    await play(sessions, started, {}, "F1901M")
    position = await board(sessions, started)
    assert "VIE" in centres(position, "GERMANY") and "SER" in centres(position, "AUSTRIA")


# --- Fleet Rome: the Standard game with a fleet in Rome ---------------------------------------------------


async def test_fleet_rome_sails_from_rome(sessions: SessionFactory) -> None:
    started = await start(sessions, "fleetrome")
    position = await board(sessions, started)
    assert units(position, "ITALY") == ["A VEN", "F NAP", "F ROM"]

    spring = await play(
        sessions,
        started,
        {
            "ITALY": "F Rom - Tys\nA Ven - Tyr",
            "AUSTRIA": "A Vie - Gal\nA Bud - Ser\nF Tri - Alb",
            "RUSSIA": "A War - Gal",
        },
        "S1901M",
    )
    assert outcome(spring)["F ROM - TYS"] == outcome(spring)["A VEN - TYR"] == "succeeded"
    assert outcome(spring)["A VIE - GAL"] == outcome(spring)["A WAR - GAL"] == "failed"

    await play(
        sessions,
        started,
        {"ITALY": "F Tys - Tun", "RUSSIA": "A War - Gal", "AUSTRIA": "F Alb - Gre"},
        "F1901M",
    )
    position = await board(sessions, started)
    assert "TUN" in centres(position, "ITALY") and centres(position, "AUSTRIA") == [
        "BUD",
        "GRE",
        "SER",
        "TRI",
        "VIE",
    ]

    # Winter 1901: Italy builds in Rome (its home, empty since the fleet left) or Venice; a fleet
    # again in Rome.
    winter = await play(
        sessions, started, {"ITALY": "Build F Rom", "AUSTRIA": "Build A Bud\nBuild F Tri"}, "W1901A"
    )
    assert (
        outcome(winter)["F ROM B"] == outcome(winter)["A BUD B"] == outcome(winter)["F TRI B"] == "succeeded"
    )

    # Spring 1902: Tyrolia, supported by Russia from Galicia, dislodges Vienna (VIE borders BOH, BUD,
    # GAL, TRI, TYR): Budapest and Trieste hold the new Austrian units, Galicia is Russian, Tyrolia
    # the attack's: only Bohemia is left.
    spring = await play(
        sessions, started, {"ITALY": "A Tyr - Vie", "RUSSIA": "A Gal S A Tyr - Vie"}, "S1902M"
    )
    assert outcome(spring)["A TYR - VIE"] == "succeeded"
    retreat = await current_phase(sessions, started.game.id)
    assert retreat.board["dislodged"]["AUSTRIA"]["A VIE"]["retreats"] == ["BOH"]
    await play(sessions, started, {"AUSTRIA": "A Vie R Boh"}, "S1902R")
    assert "A BOH" in units(await board(sessions, started), "AUSTRIA")


# --- Chaos: 34 players, one centre each, builds anywhere ---------------------------------------------------


async def test_chaos_is_refused_with_private_threads_for_its_34_players(sessions: SessionFactory) -> None:
    async with sessions() as s:
        with pytest.raises(InvalidSettings) as caught:
            await games.create_game(
                s,
                guild_id=GUILD,
                creator_id=CREATOR,
                name="Chaos",
                settings=GameSettings(players=34, press="threads"),
                variant="chaos",
                now=T0,
            )
    assert (
        "offered for up to 10 players; 34 players would need 561 private threads" in caught.value.problems[0]
    )
    assert "press public" in caught.value.problems[0]


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_chaos_thirty_four_players_build_anywhere(sessions: SessionFactory) -> None:
    started = await start(sessions, "chaos", press="public")
    assert started.phase.name == "W1900A"
    assert len({player_of(started, p) for p in started.assignments}) == 34
    titles = await welcome_titles(sessions)
    assert "You play St Petersburg in Test game" in titles and "You play Paris in Test game" in titles

    # Winter 1900: each power builds its first unit in its one centre; Paris cannot build in Brest,
    # which is Brest's.
    assert "do not control it" in await refused(sessions, started, "PARIS", "Build A Bre")
    winter = await play(
        sessions,
        started,
        {
            "PARIS": "Paris: Build A Paris",
            "BREST": "Build A Bre",
            "MUNICH": "Build A Mun",
            "SPAIN": "Build A Spa",
        },
        "W1900A",
    )
    assert {outcome(winter)[b] for b in ("A PAR B", "A BRE B", "A MUN B", "A SPA B")} == {"succeeded"}

    # Spring 1901: Paris and Munich bounce in Burgundy; Brest walks to Picardy.
    spring = await play(
        sessions,
        started,
        {"PARIS": "A Par - Bur", "MUNICH": "A Mun - Bur", "BREST": "A Bre - Pic"},
        "S1901M",
    )
    assert outcome(spring)["A PAR - BUR"] == outcome(spring)["A MUN - BUR"] == "failed"
    assert outcome(spring)["A BRE - PIC"] == "succeeded"

    # Fall 1901: Paris takes Brest, Spain takes Marseilles, Munich Burgundy (no centre).
    await play(
        sessions,
        started,
        {"PARIS": "A Par - Bre", "SPAIN": "A Spa - Mar", "MUNICH": "A Mun - Bur"},
        "F1901M",
    )
    position = await board(sessions, started)
    assert centres(position, "PARIS") == ["BRE", "PAR"] and centres(position, "BREST") == []

    # Winter 1901: Paris builds at home (Paris is empty, Brest holds its army); Brest, with no centre
    # left, removes its army.
    winter = await play(sessions, started, {"PARIS": "Build A Par", "BREST": "Remove A Pic"}, "W1901A")
    assert outcome(winter)["A PAR B"] == outcome(winter)["A PIC D"] == "succeeded"

    await play(sessions, started, {"PARIS": "A Bre - Gas\nA Par - Pic"}, "S1902M")

    # Fall 1902: Burgundy, supported by Paris's army in Gascony, dislodges Spain's army in Marseilles
    # (MAR borders BUR, GAS, PIE, SPA): Burgundy is the attack's, Gascony Parisian; Piedmont and
    # Spain (left empty) remain. Paris also takes Belgium, empty though Belgium's own.
    fall = await play(
        sessions,
        started,
        {"MUNICH": "A Bur - Mar", "PARIS": "A Gas S Munich A Bur - Mar\nA Pic - Bel", "SPAIN": "A Mar H"},
        "F1902M",
    )
    assert outcome(fall)["A BUR - MAR"] == outcome(fall)["A PIC - BEL"] == "succeeded"
    retreat = await current_phase(sessions, started.game.id)
    assert retreat.board["dislodged"]["SPAIN"]["A MAR"]["retreats"] == ["PIE", "SPA"]
    await play(sessions, started, {"SPAIN": "A Mar R Spa"}, "F1902R")

    # Winter 1902: Paris owns Paris, Brest and Belgium with two armies (Gascony, Belgium): one build,
    # in Paris or in Brest, which is not its home: it builds a fleet there.
    position = await board(sessions, started)
    assert centres(position, "PARIS") == ["BEL", "BRE", "PAR"]
    assert centres(position, "MUNICH") == ["MAR", "MUN"]
    winter = await play(sessions, started, {"PARIS": "Build F Bre", "MUNICH": "Build A Mun"}, "W1902A")
    assert outcome(winter)["F BRE B"] == outcome(winter)["A MUN B"] == "succeeded"
    assert units(await board(sessions, started), "PARIS") == ["A BEL", "A GAS", "F BRE"]
    assert (await current_phase(sessions, started.game.id)).name == "S1903M"
    lines = await result_lines(sessions)
    assert any(line.startswith("Paris builds F BRE") for line in lines)
    async with sessions() as s:
        opened = (
            await s.exec(
                select(OutboxEntry).where(OutboxEntry.kind == "phase_opened").order_by(col(OutboxEntry.id))
            )
        ).all()
    assert opened, "the players were called to order"


# --- victory targets and the winner's name ----------------------------------------------------------


async def place_variant(sessions: SessionFactory, started: games.StartResult, board: dict[str, Any]) -> None:
    """Put a position (the engine's JSON board, of the game's variant) on the open phase."""
    async with sessions() as s:
        phase = await s.get(PhaseRecord, started.phase.id)
        assert phase is not None
        phase.board = {"variant": started.game.variant, **board}
        phase.name = board["phase"]
        await s.commit()


@pytest.mark.parametrize(
    ("variant", "winner", "owned", "mover", "into", "name"),
    [
        # Modern: 33 of 64 win; Italy holds 32 and takes Marseilles
        ("modern", "ITALY", 32, "A PIE", "MAR", "Italy"),
        # Chaos: 18 of 34; St Petersburg holds 17 and takes Moscow
        ("chaos", "STPETERSBURG", 17, "A LVN", "MOS", "St Petersburg"),
    ],
)
@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_the_variants_victory_target_ends_the_game_and_names_the_winner(
    sessions: SessionFactory, variant: str, winner: str, owned: int, mover: str, into: str, name: str
) -> None:
    extra = {"press": "public"} if variant == "chaos" else {}
    started = await start(sessions, variant, **extra)
    gm = get_variant(variant).game_map()
    centres = sorted(c for c in gm.supply_centers if c != into)[:owned]
    assert len(centres) == owned and into not in centres
    first = get_variant(variant).first_year()
    await place_variant(
        sessions,
        started,
        {"phase": f"F{first}M", "units": {winner: [mover]}, "centers": {winner: centres}},
    )
    # one short of the target: not over before the move
    assert owned == get_variant(variant).target() - 1
    await order(sessions, started, {winner: f"{mover} - {into}"})
    outcome = await close(sessions, started.game.id)
    assert outcome.game_over and outcome.winner == winner
    (over,) = await messages(sessions, "game_over")
    assert f"{name} wins with {owned + 1} centers." in over.payload["lines"]
    assert over.payload["fields"] == [{"name": name, "value": str(owned + 1)}]
