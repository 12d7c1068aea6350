"""The hard level's look-ahead (engine.player.lookahead): coordinated attacks on held centres, the
opening remembered, a lone unit played as the normal level plays it, empty home centres covered in
the fall, plans aimed at one neighbour. Its strength and speed:
bench/player_strength.py and bench/player_sanity.py."""

from __future__ import annotations

from collections.abc import Collection

import pytest

from engine import Board, adjudicate, initial_board, legal_orders
from engine.legal import LegalOrder, OrderKind
from engine.mapdata import province_of
from engine.orders import Move, SupportMove
from engine.player import choose_orders, coalition, lookahead, openings
from engine.player.values import values

# Germany's armies in Ruhr and Holland next to France's army alone in Belgium (France's centre)
BELGIUM = {
    "phase": "F1902M",
    "units": {
        "GERMANY": ["A RUH", "A HOL", "A MUN", "F KIE"],
        "FRANCE": ["A BEL", "A MAR", "F BRE"],
        "ENGLAND": ["F LON", "F EDI", "A LVP"],
    },
    "centers": {
        "GERMANY": ["BER", "KIE", "MUN", "HOL"],
        "FRANCE": ["PAR", "BRE", "MAR", "BEL"],
        "ENGLAND": ["LON", "EDI", "LVP"],
    },
}


def holds(board: Board, power: str) -> list[str]:
    return [f"{u.type} {u.location} H" for u in board.units[power]]


@pytest.mark.parametrize("seed", range(3))
def test_hard_supports_its_attack_on_a_held_centre_where_a_lone_attack_would_bounce(seed: int) -> None:
    board = Board.from_json(BELGIUM)
    lone = adjudicate(board, {"GERMANY": ["A RUH - BEL"], "FRANCE": holds(board, "FRANCE")})
    assert lone.board.occupant["BEL"][0] == "FRANCE"  # a lone attack bounces
    orders = choose_orders(board, "GERMANY", seed, level="hard")
    moves = [o.order for o in orders if isinstance(o.order, Move) and province_of(o.order.dest) == "BEL"]
    assert len(moves) == 1, [o.text for o in orders]
    supports = [
        o.order
        for o in orders
        if isinstance(o.order, SupportMove)
        and o.order.supported.province == moves[0].unit.province
        and province_of(o.order.dest) == "BEL"
    ]
    assert supports, [o.text for o in orders]
    result = adjudicate(board, {"GERMANY": [o.order for o in orders], "FRANCE": holds(board, "FRANCE")})
    assert result.board.occupant["BEL"][0] == "GERMANY"  # France's army dislodged


def test_hard_opening_is_legal_repeats_itself_and_varies_with_the_seed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(openings, "BOOK_POWERS", ())  # by default Germany opens from the book
    board = initial_board("standard")
    for power in board.game_map.powers:
        legal = legal_orders(board, power)
        seen = set()
        for seed in range(4):
            orders = choose_orders(board, power, seed, level="hard")
            assert all(legal.find(o.text) is not None for o in orders)
            assert len(orders) == len(board.units[power])
            again = choose_orders(initial_board("standard"), power, seed, level="hard")
            assert [o.text for o in again] == [o.text for o in orders]
            seen.add(tuple(sorted(o.text for o in orders)))
        if power == "GERMANY":
            assert len(seen) > 1  # not one opening for every game


def test_hard_plays_a_lone_unit_as_the_normal_level_does() -> None:
    """Chaos: every power one unit; nothing to coordinate, so hard orders what normal orders (the
    normal level's lone unit now and then attacks a neighbour's centre: centres change hands)."""
    board = initial_board("chaos")
    builds = {p: [o.order for o in choose_orders(board, p, 1)] for p in board.game_map.powers}
    board = adjudicate(board, builds).board  # Chaos opens with builds
    assert board.phase.kind == "M"
    for power in board.game_map.powers:
        assert len(board.units[power]) == 1
        hard = [o.text for o in choose_orders(board, power, 1, level="hard")]
        assert hard == [o.text for o in choose_orders(board, power, 1, level="normal")], power


# Fall 1901 (self-play, seed 0): Austria's Budapest and Vienna empty, Russia's army in Galicia next
# to both, Austria's three units in Trieste, Serbia and Albania
AUSTRIA_EMPTY = {
    "phase": "F1901M",
    "units": {
        "AUSTRIA": ["A TRI", "A SER", "F ALB"],
        "ENGLAND": ["F LON", "F NTH", "A LVP"],
        "FRANCE": ["F BRE", "A PAR", "A SPA"],
        "GERMANY": ["F HOL", "A KIE", "A MUN"],
        "ITALY": ["F ION", "A VEN", "A TYR"],
        "RUSSIA": ["A GAL", "A UKR", "F RUM", "F BOT"],
        "TURKEY": ["F BLA", "A BUL", "A CON"],
    },
    "centers": {
        "AUSTRIA": ["BUD", "TRI", "VIE"],
        "ENGLAND": ["EDI", "LON", "LVP"],
        "FRANCE": ["BRE", "MAR", "PAR"],
        "GERMANY": ["BER", "KIE", "MUN"],
        "ITALY": ["NAP", "ROM", "VEN"],
        "RUSSIA": ["MOS", "SEV", "STP", "WAR"],
        "TURKEY": ["ANK", "CON", "SMY"],
    },
}


def _entered(orders: tuple[LegalOrder, ...]) -> set[str]:
    return {province_of(o.order.dest) for o in orders if isinstance(o.order, Move)}


@pytest.mark.parametrize("seed", range(6))
def test_hard_moves_a_unit_into_an_empty_home_centre_a_neighbour_could_take_in_the_fall(seed: int) -> None:
    board = Board.from_json(AUSTRIA_EMPTY)
    orders = choose_orders(board, "AUSTRIA", seed, level="hard")
    assert _entered(orders) & {"BUD", "VIE"}, [o.text for o in orders]


def test_without_cover_hard_left_both_empty_home_centres_open(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same board as it played before hard covered its home centres (what the test above guards)."""
    monkeypatch.setattr(lookahead, "COVER", None)
    monkeypatch.setattr(lookahead, "COVER_GRAB", False)
    orders = choose_orders(Board.from_json(AUSTRIA_EMPTY), "AUSTRIA", 0, level="hard")
    assert not _entered(orders) & {"BUD", "VIE"}, [o.text for o in orders]


# Fall 1907 (one hard Italy against six baselines, seed 2): France leads with 11 centres; Austria's
# Trieste held by a lone fleet next to Italy's armies in Tyrolia and Venice, Tunis empty
ITALY_AIMS = {
    "phase": "F1907M",
    "units": {
        "AUSTRIA": ["F TRI", "A BUD", "A SER", "A RUH"],
        "ENGLAND": ["A LON", "F EDI", "F NWY", "A YOR", "F BEL"],
        "FRANCE": [
            "F NTH",
            "A MUN",
            "A KIE",
            "F HOL",
            "F TYS",
            "F SWE",
            "F DEN",
            "A BRE",
            "F ENG",
            "A PIC",
            "A BUR",
        ],
        "ITALY": ["F GRE", "A VEN", "A TYR", "F ION"],
        "RUSSIA": ["A RUM", "A SIL", "F BAL"],
        "TURKEY": ["F BLA", "A BUL", "A SEV", "F CON", "F AEG"],
    },
    "centers": {
        "AUSTRIA": ["BUD", "SER", "TRI", "VIE"],
        "ENGLAND": ["EDI", "HOL", "LON", "LVP", "NWY"],
        "FRANCE": ["BEL", "BER", "BRE", "DEN", "KIE", "MAR", "MUN", "PAR", "POR", "SPA", "SWE"],
        "GERMANY": ["MOS"],
        "ITALY": ["GRE", "NAP", "ROM", "VEN"],
        "RUSSIA": ["RUM", "STP", "WAR"],
        "TURKEY": ["ANK", "BUL", "CON", "SEV", "SMY"],
    },
}


def _taken(board: Board, orders: tuple[LegalOrder, ...], power: str) -> set[str]:
    """The centres not ``power``'s that its orders take should every other unit hold."""
    after = adjudicate(board, {power: [o.order for o in orders]}).board
    return {c for c in board.game_map.supply_centers if after.occupant.get(c, ("",))[0] == power} - set(
        board.centers[power]
    )


@pytest.mark.parametrize("seed", range(3))
def test_hard_tries_plans_aimed_at_a_neighbour_and_takes_trieste_with_support(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the plans aimed at a neighbour alone: without the defaults' defence against France's 11 centres
    # (a big leader; the truce, under which Austria's Trieste counts half a centre to take) and their
    # cover at any cost up to a centre, which keeps Italy's fleet home
    monkeypatch.setattr(coalition, "AT", None)
    monkeypatch.setattr(lookahead, "TRUCE_SCORE", None)
    monkeypatch.setattr(lookahead, "COVER", 0.5)
    board = Board.from_json(ITALY_AIMS)
    orders = choose_orders(board, "ITALY", seed, level="hard")
    texts = {o.text for o in orders}
    assert {"A TYR - TRI", "A VEN S A TYR - TRI"} <= texts, texts
    assert _taken(board, orders, "ITALY") == {"TRI", "TUN"}


def test_without_plans_aimed_at_a_neighbour_hard_went_home(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same board as hard played it before its plans aimed at a neighbour (``FOCUS``)."""
    monkeypatch.setattr(lookahead, "FOCUS", 0)
    board = Board.from_json(ITALY_AIMS)
    orders = choose_orders(board, "ITALY", 0, level="hard")
    assert _taken(board, orders, "ITALY") == set(), [o.text for o in orders]


def test_book_powers_plays_the_books_opening_for_the_powers_named_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``openings.BOOK_POWERS``: the powers named open from the book (Russia's Black Sea fleet), the
    others as the look-ahead does with ``BOOK`` off."""
    board = initial_board("standard")
    before = {
        p: sorted(o.text for o in choose_orders(board, p, 0, level="hard")) for p in ("RUSSIA", "ENGLAND")
    }
    monkeypatch.setattr(openings, "BOOK_POWERS", ("RUSSIA",))
    lookahead._OPENINGS.clear()
    russia = sorted(o.text for o in choose_orders(board, "RUSSIA", 0, level="hard"))
    assert russia == sorted(openings.STANDARD["RUSSIA"]) != before["RUSSIA"]
    assert sorted(o.text for o in choose_orders(board, "ENGLAND", 0, level="hard")) == before["ENGLAND"]
    lookahead._OPENINGS.clear()


# Fall 1901 (one hard Russia against six baselines, seed 5): Turkey's armies in Armenia and Bulgaria
# and its fleet in the Black Sea around Sevastopol
RUSSIA_FALL_1901 = {
    "variant": "standard",
    "phase": "F1901M",
    "units": {
        "AUSTRIA": ["A VIE", "A BUD", "F TRI"],
        "ENGLAND": ["F NTH", "F NWG", "A YOR"],
        "FRANCE": ["F ENG", "A BUR", "A MAR"],
        "GERMANY": ["F DEN", "A SIL", "A MUN"],
        "ITALY": ["F ION", "A ROM", "A VEN"],
        "RUSSIA": ["A GAL", "A UKR", "F SEV", "F BOT"],
        "TURKEY": ["F BLA", "A BUL", "A ARM"],
    },
    "centers": {
        "AUSTRIA": ["BUD", "TRI", "VIE"],
        "ENGLAND": ["EDI", "LON", "LVP"],
        "FRANCE": ["BRE", "MAR", "PAR"],
        "GERMANY": ["BER", "KIE", "MUN"],
        "ITALY": ["NAP", "ROM", "VEN"],
        "RUSSIA": ["MOS", "SEV", "STP", "WAR"],
        "TURKEY": ["ANK", "CON", "SMY"],
    },
}


def test_hard_germany_opens_from_the_book_by_default() -> None:
    """``openings.BOOK_POWERS`` names Germany by default (against six baselines the book helped
    Germany alone: the README), whatever the seed."""
    lookahead._OPENINGS.clear()
    for seed in range(4):
        orders = choose_orders(initial_board("standard"), "GERMANY", seed, level="hard")
        assert sorted(o.text for o in orders) == sorted(openings.STANDARD["GERMANY"])


def test_choice_plays_another_opening_of_the_literature_for_the_power_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``openings.CHOICE``: a power named there opens with the named opening of ``openings.OTHERS``
    (Russia's army from Moscow to St Petersburg), the others as before; off by default."""
    assert openings.CHOICE == {}
    board = initial_board("standard")
    england = sorted(o.text for o in choose_orders(board, "ENGLAND", 0, level="hard"))
    monkeypatch.setattr(openings, "CHOICE", {"RUSSIA": "north"})
    lookahead._OPENINGS.clear()
    russia = sorted(o.text for o in choose_orders(board, "RUSSIA", 0, level="hard"))
    assert russia == sorted(openings.OTHERS["RUSSIA"]["north"])
    assert "A MOS - STP" in russia
    assert sorted(o.text for o in choose_orders(board, "ENGLAND", 0, level="hard")) == england
    lookahead._OPENINGS.clear()


def test_every_other_opening_is_legal() -> None:
    """Each opening of ``openings.OTHERS`` is a complete set of legal orders for its power."""
    board = initial_board("standard")
    for power, lines in openings.OTHERS.items():
        legal = legal_orders(board, power)
        for name, texts in lines.items():
            found = [legal.find(t) for t in texts]
            assert None not in found and len(found) == len(legal.entries), (power, name)


def _blocked_fall(france: list[str]) -> tuple[Board, Board]:
    """Fall: Germany's army in Holland takes Belgium while its units hold Berlin, Kiel and Munich:
    five centres, four units, its build blocked by its own units."""
    board = Board.from_json(
        {
            "phase": "F1905M",
            "units": {"GERMANY": ["A BER", "A MUN", "F KIE", "A HOL"], "FRANCE": ["A PAR"]},
            "centers": {"GERMANY": ["BER", "KIE", "MUN", "HOL"], "FRANCE": france},
        }
    )
    orders = {"GERMANY": ["A BER H", "A MUN H", "F KIE H", "A HOL - BEL"], "FRANCE": ["A PAR H"]}
    after = adjudicate(board, orders).board
    assert lookahead._builds_blocked(board, after, "GERMANY", 5) == 1
    return board, after


@pytest.mark.parametrize(("france", "extra"), [(["PAR", "BRE", "MAR", "SPA", "POR"], 16.0), (["PAR"], 0.0)])
def test_blocked_behind_weighs_a_blocked_build_more_while_another_power_is_bigger(
    france: list[str], extra: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With BLOCKED_BEHIND=30 a build our units block costs 30 instead of 14 while France owns more
    centres than Germany (five against four), and 14 still while Germany is the biggest, or while the
    bigger power owns fewer centres than BLOCKED_BEHIND_AT."""
    board, after = _blocked_fall(france)
    view = values(board, "GERMANY", ())
    monkeypatch.setattr(lookahead, "BLOCKED_BEHIND", None)  # hard's default since the flip is 40 from 10
    monkeypatch.setattr(lookahead, "BLOCKED_BEHIND_AT", 0)
    default = lookahead._score(board, after, "GERMANY", view, ())
    monkeypatch.setattr(lookahead, "BLOCKED_BEHIND", 30.0)
    assert lookahead._score(board, after, "GERMANY", view, ()) == pytest.approx(default - extra)
    monkeypatch.setattr(lookahead, "BLOCKED_BEHIND_AT", 6)  # France's five centres are too few then
    assert lookahead._score(board, after, "GERMANY", view, ()) == pytest.approx(default)


# Fall 1905: Germany's units stand on Berlin, Munich, Kiel and Holland; France's A BUR beside Munich,
# Russia's armies beside Berlin
GRAB_UNITS = {
    "GERMANY": ["A BER", "A MUN", "F KIE", "A HOL"],
    "FRANCE": ["A PAR", "A BUR"],
    "RUSSIA": ["A WAR", "A SIL"],
}
GRAB_BOARD = {
    "phase": "F1905M",
    "units": GRAB_UNITS,
    "centers": {
        "GERMANY": ["BER", "KIE", "MUN", "HOL"],
        "FRANCE": ["PAR", "BRE", "MAR"],
        "RUSSIA": ["WAR", "MOS", "SEV", "STP"],
    },
}


@pytest.mark.parametrize(("empty", "entered"), [((), set()), (("MUN",), {"MUN"})])
def test_grab_reply_enters_our_empty_centres_only(empty: tuple[str, ...], entered: set[str]) -> None:
    """The grab reply (the cover's third reply) enters our empty centres only, not the home centres
    our units stand on: Munich once Germany's army has left it (France's A BUR walks in), nothing
    while Germany stands on all three."""
    germany = [u for u in ("A BER", "A MUN", "F KIE", "A HOL") if u[2:] not in empty]
    board = Board.from_json({**GRAB_BOARD, "units": {**GRAB_UNITS, "GERMANY": germany}})
    hold = {
        other: [
            o.order for e in legal_orders(board, other).entries for o in e.orders if o.kind == OrderKind.HOLD
        ]
        for other in ("FRANCE", "RUSSIA")
    }
    grab = lookahead._grab(board, "GERMANY", hold)
    moves = {province_of(o.dest) for os in (grab or {}).values() for o in os if isinstance(o, Move)}
    assert moves == entered, grab


def _leader_board(france: int) -> Board:
    """Fall 1910: France owns ``france`` centres (Holland among them, empty), England Denmark (empty),
    Germany three centres and four units with Berlin empty and Russia's army in Prussia beside it;
    Germany's army in Kiel can take Holland or Denmark, or cover Berlin."""
    centres = ["HOL", "PAR", "BRE", "MAR", "BEL", "SPA", "POR", "TUN", "NAP", "ROM", "VEN", "LVP"]
    return Board.from_json(
        {
            "phase": "F1910M",
            "units": {
                "FRANCE": ["A PIC", "F MAO", "A GAS", "F WES", "A PIE", "F NAP", "A ROM", "A VEN"],
                "ENGLAND": ["F LON", "F EDI", "A YOR"],
                "GERMANY": ["A KIE", "F BAL", "A MUN", "A TYR"],
                "RUSSIA": ["A PRU", "A WAR"],
            },
            "centers": {
                "FRANCE": centres[:france],
                "ENGLAND": ["LON", "EDI", "DEN", "NWY"],
                "GERMANY": ["BER", "KIE", "MUN"],
                "RUSSIA": ["WAR", "MOS", "SEV", "STP"],
            },
        }
    )


@pytest.mark.parametrize(("france", "gap"), [(12, 1.5), (9, 0.0)])
def test_truce_makes_a_leaders_centre_worth_more_to_take_than_anothers(
    france: int, gap: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With TRUCE_SCORE=0.5 LEADER_SCORE=1.0 (hard's defaults), while France leads with 10 centres or
    more, Holland (France's) counts two centres to take and Denmark (England's) half of one: taking
    Holland scores 1.5 centres more than taking Denmark, beside what it scored without the truce;
    below 10 centres France is no leader and nothing changes."""
    board = _leader_board(france)
    to_hol = adjudicate(board, {"GERMANY": ["A KIE - HOL", "F BAL H"]}).board
    to_den = adjudicate(board, {"GERMANY": ["A KIE - DEN", "F BAL H"]}).board
    assert to_hol.occupant["HOL"][0] == to_den.occupant["DEN"][0] == "GERMANY"
    view = values(board, "GERMANY", ())

    def difference() -> float:
        weights = lookahead._weights(board, "GERMANY", ())
        hol = lookahead._score(board, to_hol, "GERMANY", view, (), weights)
        return hol - lookahead._score(board, to_den, "GERMANY", view, (), weights)

    assert (lookahead.TRUCE_SCORE, lookahead.LEADER_SCORE) == (0.5, 1.0)
    truce = difference()
    monkeypatch.setattr(lookahead, "TRUCE_SCORE", None)  # off
    assert truce == pytest.approx(difference() + gap * lookahead.CENTRE)


@pytest.mark.parametrize(("cover", "covered"), [(1.0, False), (2.0, True)])
def test_cover_is_made_unless_it_costs_more_than_the_tolerance_given(cover: float, covered: bool) -> None:
    """An empty home centre a neighbour could enter (Berlin, Russia's army beside it) is covered when
    the plan with the cover scores at most ``cover`` centres below the plan without it."""
    board = _leader_board(12)
    legal = legal_orders(board, "GERMANY")
    entries = {e.unit.province: e for e in legal.entries if e.unit is not None}
    holds = {p: o for p, e in entries.items() for o in e.orders if o.kind == OrderKind.HOLD}
    plan = {"KIE": next(o for o in entries["KIE"].orders if o.text == "A KIE - HOL"), "BAL": holds["BAL"]}

    def judge(orders: Collection[LegalOrder]) -> float:  # a cover into Berlin costs a centre and a half
        texts = {o.text for o in orders}
        return 100.0 - 1.5 * lookahead.CENTRE * any(t.endswith("- BER") for t in texts)

    view = values(board, "GERMANY", ())
    chosen = lookahead._cover(board, "GERMANY", entries, plan, 100.0, judge, {}, view, holds, cover)
    assert any(o.text.endswith("- BER") for o in chosen.values()) is covered


def test_hard_covers_with_cover_leaders_tolerance_while_a_leader_stands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While a leader stands (TRUCE_SCORE's weights) the look-ahead covers an empty home centre with
    COVER_LEADER's tolerance, two centres (a leader's centre counts two to take); else COVER's one."""
    seen: list[object] = []
    real = lookahead._cover

    def spy(*args: object) -> object:
        if args[1] == "GERMANY":  # not the leader's own plan, which the coalition predicts
            seen.append(args[-1])
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(lookahead, "_cover", spy)
    assert (lookahead.COVER, lookahead.COVER_LEADER) == (1.0, 2.0)
    choose_orders(_leader_board(12), "GERMANY", 0, level="hard")
    assert seen and set(seen) == {2.0}
    seen.clear()
    choose_orders(_leader_board(9), "GERMANY", 0, level="hard")
    assert seen and set(seen) == {1.0}


# Spring 1902, France of four units (from a game against six baselines, seed 3)
FRANCE_SPRING_1902 = {
    "variant": "standard",
    "phase": "S1902M",
    "units": {
        "AUSTRIA": ["A VIE", "A SER", "F GRE", "A TRI"],
        "ENGLAND": ["F LON", "F NTH", "A YOR"],
        "FRANCE": ["F ENG", "A BUR", "A MUN", "A MAR"],
        "GERMANY": ["F DEN", "A SIL", "A TYR"],
        "ITALY": ["F ION", "A ROM", "A VEN"],
        "RUSSIA": ["A BUD", "A MOS", "F SEV", "F BOT", "A WAR"],
        "TURKEY": ["F BLA", "A RUM", "A ARM", "F CON"],
    },
    "centers": {
        "AUSTRIA": ["GRE", "SER", "TRI", "VIE"],
        "ENGLAND": ["EDI", "LON", "LVP"],
        "FRANCE": ["BRE", "MAR", "MUN", "PAR"],
        "GERMANY": ["BER", "DEN", "KIE"],
        "ITALY": ["NAP", "ROM", "VEN"],
        "RUSSIA": ["BUD", "MOS", "SEV", "STP", "WAR"],
        "TURKEY": ["ANK", "CON", "RUM", "SMY"],
    },
}


def _plan(board: Board, power: str, seed: int) -> list[str]:
    orders = choose_orders(board, power, seed, level="hard")
    legal = legal_orders(board, power)
    assert all(legal.find(o.text) is not None for o in orders)
    return sorted(o.text for o in orders)


def test_top_betters_the_next_best_candidates_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``TOP=3`` the second or third candidate, bettered, scores best: France moves on Berlin
    and Ruhr instead of Kiel and back into Munich."""
    board = Board.from_json(FRANCE_SPRING_1902)
    monkeypatch.setattr(lookahead, "TOP", 1)  # one candidate bettered (hard's default is TOP=9)
    alone = _plan(board, "FRANCE", 7)
    assert "A MUN - KIE" in alone and "A BUR - MUN" in alone
    monkeypatch.setattr(lookahead, "TOP", 3)
    assert _plan(board, "FRANCE", 7) == ["A BUR - RUH", "A MAR - SPA", "A MUN - BER", "F ENG - BEL"]


@pytest.mark.parametrize(("munich", "blocked"), [("FRANCE", 0), ("GERMANY", 1)])
def test_a_home_centre_taken_back_is_no_blocked_build(munich: str, blocked: int) -> None:
    """Germany's army in Tyrolia moves into Munich while Berlin and Kiel are left free: seven centres
    and four units, three builds due, two free home centres. Munich taken back from France is no
    blocked build (the army has to stand there to take it, and the third build is owed only because
    it does); Munich Germany's own before the fall, the army moving onto it blocks the third build."""
    germany = ["BER", "KIE", "HOL", "DEN", "BEL", "SWE"] + (["MUN"] if munich == "GERMANY" else [])
    france = ["PAR", "BRE"] + (["MUN"] if munich == "FRANCE" else [])
    board = Board.from_json(
        {
            "phase": "F1905M",
            "units": {"GERMANY": ["A BER", "F KIE", "A TYR", "A HOL"], "FRANCE": ["A PAR"]},
            "centers": {"GERMANY": germany, "FRANCE": france},
        }
    )
    orders = {"GERMANY": ["A BER - SIL", "F KIE - HEL", "A TYR - MUN", "A HOL H"], "FRANCE": ["A PAR H"]}
    after = adjudicate(board, orders).board
    assert after.occupant["MUN"][0] == "GERMANY"
    assert lookahead._builds_blocked(board, after, "GERMANY", 7) == blocked


@pytest.mark.parametrize(("french_army", "cost"), [("A PIC", 14.0), ("A BUR", 0.0)])
def test_a_unit_left_on_a_quiet_home_centre_in_spring_costs_the_build_it_would_block(
    french_army: str, cost: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Spring: Germany owns seven centres with four units, three builds due in the fall, and keeps
    Berlin and Kiel free but its army in Munich. Nobody else can reach Munich (France's army in
    Picardy): the army there blocks the third build, which costs SPRING_BLOCKED. France's army in
    Burgundy could walk into Munich: the army guards it, and nothing is charged."""
    board = Board.from_json(
        {
            "phase": "S1905M",
            "units": {"GERMANY": ["A BER", "F KIE", "A MUN", "A HOL"], "FRANCE": [french_army]},
            "centers": {"GERMANY": ["BER", "KIE", "MUN", "HOL", "DEN", "BEL", "SWE"], "FRANCE": ["PAR"]},
        }
    )
    orders = {"GERMANY": ["A BER - SIL", "F KIE - HEL", "A MUN H", "A HOL H"], "FRANCE": [f"{french_army} H"]}
    after = adjudicate(board, orders).board
    view = values(board, "GERMANY", ())
    monkeypatch.setattr(lookahead, "SPRING_BLOCKED", 0.0)
    without = lookahead._score(board, after, "GERMANY", view, ())
    monkeypatch.setattr(lookahead, "SPRING_BLOCKED", 14.0)
    assert lookahead._score(board, after, "GERMANY", view, ()) == pytest.approx(without - cost)
