"""Properties of the parser over generated input.

1. Canonical text reads back as the order that printed it, for every order the map allows to be
   written: every unit type at every location with every kind of order.
2. Random text, and real orders mangled the way typing mangles them, only ever give an Order or an
   OrderParseError. The check runs on the reader *inside* the safety net of parse_order, so a bug
   cannot hide behind the net's catch-all.
"""

from __future__ import annotations

import contextlib
import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import parser
from engine.errors import OrderParseError
from engine.mapdata import GameMap, load_map
from engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
    format_order,
)
from engine.parser import _read_line, parse_order, read_line
from tests.helpers.profiles import examples

GM = load_map("standard")


def _units(gm: GameMap) -> list[Unit]:
    out = []
    for prov in gm.provinces.values():
        if prov.is_land:
            out.append(Unit("A", prov.code))
        if prov.has_coast:
            out.extend(Unit("F", loc) for loc in prov.locations)
    return sorted(out, key=str)


UNITS = _units(GM)
LOCATIONS = sorted(GM.locations)
PROVINCES = sorted(GM.provinces)


def _simple_orders() -> list[tuple[Order, str]]:
    """Every unit with every order that names at most one place besides its own."""
    orders: list[tuple[Order, str]] = [(Waive(), "A")]
    for u in UNITS:
        orders += [(Hold(u), "M"), (Disband(u), "R"), (Build(u), "A"), (Remove(u), "A")]
        for dest in sorted(GM.neighbours(u.type or "A", u.location)):
            orders += [(Move(u, dest), "M"), (Retreat(u, dest), "R")]
            if u.type == "A":
                orders.append((Move(u, dest, True), "M"))
    return orders


SIMPLE = _simple_orders()


def test_every_simple_canonical_order_reads_back() -> None:
    assert len(SIMPLE) > 1500
    for order, kind in SIMPLE:
        text = format_order(order)
        assert parse_order(text, GM, kind) == order, text
        assert read_line(text, GM, kind).order == order, text  # the tolerant reader agrees
        assert parse_order(text.lower(), GM, kind) == order, text


def test_every_support_and_convoy_between_neighbours_reads_back() -> None:
    count = 0
    for u in UNITS:
        for dest in sorted(GM.neighbours(u.type or "A", u.location)):
            dest_prov = dest.split("/")[0]
            for other in UNITS:
                if other.province == u.province or not GM.can_reach(
                    other.type or "A", other.location, dest_prov
                ):
                    continue
                orders: list[Order] = [SupportMove(u, other, dest_prov), SupportHold(u, other)]
                if u.type == "F" and GM.is_sea(u.province) and other.type == "A":
                    orders.append(Convoy(u, other, dest_prov))
                for order in orders:
                    text = format_order(order)
                    assert parse_order(text, GM, "M") == order, text
                    count += 1
    assert count > 5000


@settings(max_examples=examples(400), suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    unit=st.sampled_from(UNITS),
    other=st.sampled_from(UNITS + [Unit(None, p) for p in PROVINCES]),
    dest=st.sampled_from(LOCATIONS),
    kind=st.sampled_from(["support-move", "support-hold", "convoy", "move", "typeless"]),
)
def test_any_canonical_order_reads_back_even_if_illegal(
    unit: Unit, other: Unit, dest: str, kind: str
) -> None:
    order: Order
    if kind == "support-move":
        order = SupportMove(unit, other, dest)
    elif kind == "support-hold":
        order = SupportHold(unit, other)
    elif kind == "convoy":
        order = Convoy(unit, other, dest)
    elif kind == "move":
        order = Move(unit, dest, unit.type == "A")
    else:
        order = Move(Unit(None, unit.location), dest)
    text = format_order(order)
    assert parse_order(text, GM, "M") == order
    assert read_line(text, GM, "M").order == order


REAL_ORDERS = [
    "A Par-Bur", "F Con-Bul EC", "F Nth C A Yor-Nwy", "A Ukr S F Sev-Rum", "A Tri Holds", "F Lon-Holds",
    "A Ser S Turkish A Bul–Rum", "F Swe S StP–Nwy", "F Mid-Atlantic Ocean - Spain(nc)",
    "F North Sea Convoys A London - Belgium", "A Liverpool Supports A Yorkshire - Yorkshire",
    "F Gulf of Lyon Supports F Western Mediterranean - Spain(sc)", "A Spain - Portugal via convoy",
    "France: A Par-Bur", "Build F St Petersburg(nc)", "remove A Gal", "WAIVE", "A PAR S A MAR - BUR",
    "F STP/NC B", "A LON - NWY VIA", "A StP–Mos", "F Spain (north coast) - MAO", "A Lon-Nth-Nwy",
]  # fmt: skip
ALPHABET = st.sampled_from([*"AFSCHDBRW-–>/():;,.' \"ncsex0123456789", "\u00e9", "\U0001f642", "\x00"])


def _mutate(text: str, data: st.DataObject) -> str:
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(
            st.sampled_from(["delete", "double", "swap", "insert", "drop-word", "dup-word", "swap-words"])
        )
        words = text.split(" ")
        if op.endswith("word") or op == "swap-words":
            if not words:
                continue
            i = data.draw(st.integers(0, len(words) - 1))
            if op == "drop-word":
                del words[i]
            elif op == "dup-word":
                words.insert(i, words[i])
            else:
                j = data.draw(st.integers(0, len(words) - 1))
                words[i], words[j] = words[j], words[i]
            text = " ".join(words)
            continue
        if not text and op != "insert":
            continue
        i = data.draw(st.integers(0, max(0, len(text) - 1)))
        if op == "delete":
            text = text[:i] + text[i + 1 :]
        elif op == "double":
            text = text[:i] + text[i : i + 1] * 2 + text[i + 1 :]
        elif op == "swap" and i + 1 < len(text):
            text = text[:i] + text[i + 1] + text[i] + text[i + 2 :]
        elif op == "insert":
            text = text[:i] + data.draw(ALPHABET) + text[i:]
    return text


def _only_orders_or_parse_errors(text: str, kind: str | None) -> None:
    try:
        result = _read_line(text, GM, kind)  # no safety net: any other exception fails the test
    except OrderParseError as err:
        assert err.reason and err.hint is not None
    else:
        assert isinstance(result.order, Order)
        format_order(result.order)  # and it prints
    with contextlib.suppress(OrderParseError):
        parse_order(text, GM, kind)


@settings(max_examples=examples(1500), suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(data=st.data(), kind=st.sampled_from([None, "M", "R", "A"]))
def test_mangled_real_orders_give_an_order_or_a_reason(data: st.DataObject, kind: str | None) -> None:
    text = _mutate(data.draw(st.sampled_from(REAL_ORDERS)), data)
    _only_orders_or_parse_errors(text, kind)


@settings(max_examples=examples(1000), suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(text=st.text(max_size=80), kind=st.sampled_from([None, "M", "R", "A"]))
def test_random_text_gives_an_order_or_a_reason(text: str, kind: str | None) -> None:
    _only_orders_or_parse_errors(text, kind)


SALAD = [
    "A", "F", "S", "C", "H", "D", "B", "R", "-", "VIA", "WAIVE", "via", "convoy", "to", "supports", "build",
    "Par", "Bur", "Spa", "nc", "(sc)", "/ec", "StP", "North", "Sea", "Mid-Atlantic", "Ocean", "Nor",
    "France:", "Turkish", "English", "Channel", "Gulf", "of", "Lyon", ",", ";", "holds", "remove",
    "retreat", "by",
]  # fmt: skip


@settings(max_examples=examples(1000), suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(words=st.lists(st.sampled_from(SALAD), max_size=10), kind=st.sampled_from([None, "M", "R", "A"]))
def test_random_word_salad_gives_an_order_or_a_reason(words: list[str], kind: str | None) -> None:
    _only_orders_or_parse_errors(" ".join(words), kind)


@pytest.mark.parametrize("kind", [None, "M", "R", "A"])
def test_fast_and_tolerant_readers_agree_on_plain_text(kind: str | None) -> None:
    # The fast path for canonical text must read each text as the tolerant reader does.
    texts = ["A PAR - BUR", "F MID - SPA/NC", "A PAR", "WAIVE", "PAR - BUR", "A KIEL - BER", "F STP/SC - BOT"]
    table = parser._canon(GM)
    taken = 0
    for text in texts:
        fast = parser._fast(text, table, kind)
        if fast is None:
            continue  # declined: the tolerant reader decides alone
        taken += 1
        assert fast == parser._read_line(text, GM, kind).order, text
    assert taken >= 4


def test_orders_read_by_the_fast_path_are_ordinary_immutable_values() -> None:
    # The fast path builds orders without the dataclasses' __init__ (engine.orders' quick
    # constructors): they must be the very same values, equal, hashing alike, and still frozen.
    parser.forget_lines()
    for text in ("A PAR H", "A PAR - BUR", "A LON - NWY VIA", "A PAR S A MAR - BUR", "A PAR S F BRE",
                 "F NTH C A LON - NWY"):  # fmt: skip
        fast = parse_order(text, GM, "M")
        built = parser._read_line(text, GM, "M").order  # the tolerant reader builds them as usual
        assert fast == built and hash(fast) == hash(built) and type(fast) is type(built), text
        assert str(fast) == text
        with pytest.raises(dataclasses.FrozenInstanceError):
            fast.unit = built.unit  # type: ignore[misc]  # deliberately: frozen, refused
