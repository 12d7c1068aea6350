"""Anonymous games: the words of a message name a power's player only to that player (gm.anonymity)."""

from __future__ import annotations

from gm.anonymity import veil_payload, veil_text

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
