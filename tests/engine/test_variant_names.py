"""Power names that are also place names: Chaos's 34 powers are named after their home centres
(the power Ankara, the province Ankara), Youngstown has the power Japan and the Sea of Japan (alias
"Japan"), and its English Channel answers to "English" like England's adjective. The parser and the
power lookups must read each the way a player means it."""

from __future__ import annotations

import pytest

from engine import Board, initial_board, read_order
from engine.errors import InvalidOrder, OrderParseError
from engine.names import name_index, name_words
from engine.orders import Hold, Move, SupportMove, Unit
from engine.parser import read_line, split_orders
from engine.variants import all_variants, get_variant


def collisions(variant: str) -> list[tuple[str, str, str]]:
    """(power, its name or adjective, the place that name also is) for the variant."""
    v = get_variant(variant)
    gm = v.game_map()
    index = name_index(gm)
    out = []
    for power in gm.powers:
        info = v.powers[power]
        for text in (info.name, info.adjective):
            words = list(name_words(text))
            match = index.exact_at(words, 0)
            if match is not None and match.length == len(words):
                out.append((power, text, match.codes[0]))
    return out


def test_the_clashes_are_the_known_ones() -> None:
    assert len(collisions("chaos")) == 35  # every power's name, and Norwegian (the Norwegian Sea)
    assert {(p, c) for p, _, c in collisions("youngstown")} == {("JAPAN", "JAP"), ("ENGLAND", "ENG")}
    for variant in ("standard", "ancmed", "modern", "1900", "fleetrome"):
        assert collisions(variant) == [], variant


@pytest.mark.parametrize("variant", [v.name for v in all_variants()])
def test_a_line_addressed_to_any_power_is_read_as_that_powers(variant: str) -> None:
    """For every power of every variant: "Name: A Xxx H" and "Name A Xxx H" are that power's hold of
    a unit in its first home centre, whether the name is also a place's or not."""
    v = get_variant(variant)
    gm = v.game_map()
    for power in gm.powers:
        home = gm.home_centers[power][0] if gm.home_centers[power] else next(iter(gm.start_centers[power]))
        unit = Unit("A" if gm.provinces[home].is_land else "F", home)
        name = v.power_name(power)
        for text in (f"{name}: {unit} H", f"{name} {unit} H", f"{name.upper()}: {unit} H"):
            line = read_line(text, gm, "M")
            assert (line.power, line.order) == (power, Hold(unit)), (variant, text)


def test_chaos_places_named_like_powers_are_places_inside_an_order() -> None:
    gm = get_variant("chaos").game_map()
    assert read_line("A Ankara - Constantinople", gm, "M").order == Move(Unit("A", "ANK"), "CON")
    assert read_line("A Ankara - Constantinople", gm, "M").power is None
    line = read_line("Ankara: A Ankara - Constantinople", gm, "M")
    assert (line.power, line.order) == ("ANKARA", Move(Unit("A", "ANK"), "CON"))
    line = read_line("St Petersburg: F St Petersburg(sc) - Gulf of Bothnia", gm, "M")
    assert (line.power, line.order) == ("STPETERSBURG", Move(Unit("F", "STP/SC"), "BOT"))
    # the adjective, or the name, before a supported or convoyed unit is a note for the reader
    assert read_line("F Bla S Ankaran A Con - Bul", gm, "M").order == SupportMove(
        Unit("F", "BLA"), Unit("A", "CON"), "BUL"
    )
    assert read_line("A Gas S Munich A Bur - Mar", gm, "M").order == SupportMove(
        Unit("A", "GAS"), Unit("A", "BUR"), "MAR"
    )
    assert str(read_line("F Bla C Ankara A Ank - Sev", gm, "M").order) == "F BLA C A ANK - SEV"
    assert read_line("A Gas - Munich", gm, "M").order == Move(Unit("A", "GAS"), "MUN")


def test_youngstown_japan_the_sea_and_japan_the_power() -> None:
    gm = get_variant("youngstown").game_map()
    assert read_line("F Tokyo - Japan", gm, "M").order == Move(Unit("F", "TOK"), "JAP")
    line = read_line("Japan F Tokyo - Japan", gm, "M")
    assert (line.power, line.order) == ("JAPAN", Move(Unit("F", "TOK"), "JAP"))
    line = read_line("England: F London - English Channel", gm, "M")
    assert (line.power, line.order) == ("ENGLAND", Move(Unit("F", "LON"), "ENG"))
    assert split_orders("Japan:\nF Tok - Japan\nA Kyo H", gm) == ["Japan: F Tok - Japan", "Japan: A Kyo H"]


def test_a_line_addressed_to_another_chaos_power_is_refused() -> None:
    board = Board.from_json(
        {"variant": "chaos", "phase": "S1901M", "units": {"ANKARA": ["F ANK"], "SMYRNA": ["A SMY"]}}
    )
    assert read_order("Ankara: F Ank - Bla", board, "ANKARA") == Move(Unit("F", "ANK"), "BLA")
    with pytest.raises(InvalidOrder, match="addressed to ANKARA, but you play SMYRNA"):
        read_order("Ankara A Smy - Con", board, "SMYRNA")
    with pytest.raises(OrderParseError):
        read_line("Ankara", board.game_map, "M")  # a power (or a place) and no order


def test_the_chaos_opening_builds_read_with_the_powers_names() -> None:
    board = initial_board("chaos")
    assert str(read_order("Ankara: Build F Ankara", board, "ANKARA")) == "F ANK B"
    assert str(read_order("Paris A Paris B", board, "PARIS")) == "A PAR B"


def test_power_codes_from_what_players_type() -> None:
    chaos = get_variant("chaos")
    assert chaos.power_code("St. Petersburg") == chaos.power_code("st petersburg") == "STPETERSBURG"
    assert chaos.power_code("Ankaran") == chaos.power_code("ANKARA") == "ANKARA"
    assert chaos.power_code("Ankara ") == "ANKARA" and chaos.power_code("Atlantis") is None
    assert chaos.power_name("STPETERSBURG") == "St Petersburg"
    young = get_variant("youngstown")
    assert young.power_code("Japanese") == young.power_code("japan") == "JAPAN"
    assert get_variant("standard").power_code("") is None
