"""gm.phases.worker.position_map_work keeps the pictures it drew by their request: a new game's opening
map is the picture every game of its variant opens on, drawn once; a different position or title is
drawn anew."""

from __future__ import annotations

import copy

from engine.board import initial_board
from gm.phases import worker


def opening() -> dict:
    return {"board": initial_board("standard").to_json(), "variant": "standard", "title": None}


def test_a_kept_opening_is_the_picture_drawn_anew() -> None:
    first = worker.position_map_work(opening())
    again = worker.position_map_work(opening())  # another game's start: the same request
    assert again == first
    assert worker._draw_position(opening()) == first  # what drawing it once more would give


def test_another_position_or_title_is_not_the_opening() -> None:
    shown = worker.position_map_work(opening())
    moved = opening()
    moved["board"] = copy.deepcopy(moved["board"])
    moved["board"]["units"]["FRANCE"] = ["F BRE", "A BUR", "A MAR"]  # Paris went to Burgundy
    elsewhere = worker.position_map_work(moved)
    titled = worker.position_map_work({**opening(), "title": "Spring 1901 · the end"})
    assert elsewhere != shown and titled != shown and elsewhere != titled
    assert elsewhere == worker._draw_position(moved)
    assert worker.position_map_work(opening()) == shown  # the opening still the opening's picture
