"""What the built-in player remembers between phases: the moves that bounced into an empty province.

A move that bounced (it failed) into a province empty before and after the phase met another move
of the same strength there. Repeating it phase after phase is the classic machine stalemate; the
player is told, for each of its moves, how many movement phases in a row ending with the last one
it bounced so (:func:`bounce_streaks`), and stops repeating it (engine.player.movement).

The caller keeps the history (a game's phases are in its records; a bench keeps its own): for each
past movement phase, the board at its start, each order's (power, text, status) and the provinces
occupied after it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from engine.board import Board
from engine.mapdata import province_of

# power -> move text -> movement phases in a row (the last included) it bounced into an empty province
Streaks = dict[str, dict[str, int]]


def empty_bounces(
    before: Board, results: Iterable[tuple[str, str | None, str]], occupied_after: Collection[str]
) -> dict[str, set[str]]:
    """Power -> the texts of its moves that failed into a province empty before and after the phase
    ``before`` starts (``results``: each order's power, canonical text and status)."""
    out: dict[str, set[str]] = {}
    for power, text, status in results:
        words = (text or "").split()
        if text is None or status != "failed" or len(words) < 4 or words[2] != "-":
            continue  # not a move (a support's text has a dash further on)
        dest = province_of(words[3])
        if dest in before.occupant or dest in occupied_after:
            continue
        out.setdefault(power, set()).add(text)
    return out


def bounce_streaks(phases: Sequence[Mapping[str, Collection[str]]]) -> Streaks:
    """The streaks after the movement phases ``phases`` (oldest first), each as :func:`empty_bounces`
    gave it: a move counts the phases in a row, the last one included, it bounced so."""
    streaks: Streaks = {}
    for bounced in phases:
        streaks = next_streaks(streaks, bounced)
    return streaks


def next_streaks(streaks: Mapping[str, Mapping[str, int]], bounced: Mapping[str, Collection[str]]) -> Streaks:
    """The streaks after one more movement phase whose bounces into empty provinces were ``bounced``."""
    return {
        power: {text: streaks.get(power, {}).get(text, 0) + 1 for text in sorted(texts)}
        for power, texts in bounced.items()
    }
