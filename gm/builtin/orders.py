"""The built-in player's orders at a close, in the worker process that adjudicates (gm.phases.worker):
the engine's player, given the board, the powers it plays and the powers in civil disorder (public
in a game: their units only hold). A power it fails for is left in civil disorder for the phase,
with the reason, for the bot's log; the close never stops for it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from engine import Board
from engine.fog import fog_board
from engine.mapdata import province_of
from engine.player import DEFAULT_LEVEL, choose_orders
from engine.player.memory import Streaks, bounce_streaks, empty_bounces
from engine.variants import game_map


def built_in_orders(
    board: Board,
    powers: Collection[str],
    *,
    seed: int,
    holding: Collection[str],
    fogged: bool = False,
    level: str = DEFAULT_LEVEL,
    bounced: Mapping[str, Mapping[str, int]] | None = None,
) -> tuple[dict[str, list[str]], dict[str, str]]:
    """(power -> its order lines, power -> why no orders could be chosen) for each of ``powers``.

    ``seed`` makes the choice repeatable (the game's id: a close redone after a crash or a rollback
    gives the same orders); ``holding`` are the powers in civil disorder. ``fogged``: the game is
    played under the fog of war, and each power's orders are chosen on the board as it sees it
    (engine.fog.fog_board); what it sees is all real, so they are as legal on the whole board.
    ``level`` is the game's ``builtin_level``; ``bounced`` what the player remembers
    (:func:`bounce_memory`)."""
    orders: dict[str, list[str]] = {}
    failed: dict[str, str] = {}
    memory = bounced or {}
    for power in sorted(powers):
        try:
            seen = fog_board(board, power) if fogged else board
            chosen = choose_orders(
                seen, power, seed, frozenset(holding), level=level, bounced=memory.get(power)
            )
            orders[power] = [o.text for o in chosen]
        except Exception as exc:  # a failure of the player must never stop a close
            failed[power] = f"{type(exc).__name__}: {exc}"
    return orders, failed


def bounce_memory(history: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]], variant: str) -> Streaks:
    """Power -> move text -> the movement phases in a row, the last one included, that the move
    bounced into an empty province (engine.player.memory), from the game's latest phases, oldest
    first: each the board JSON at its start and its results JSON (the adjudication's)."""
    played = game_map(variant)
    phases = []
    for board_json, results in history:
        board = Board.from_json(dict(board_json), played)
        lines = [
            (str(o.get("power")), o.get("order"), str(o.get("status")))
            for o in results.get("orders", ())
            if isinstance(o, Mapping)
        ]
        after = {
            province_of(text.split()[-1]) for texts in (results.get("units") or {}).values() for text in texts
        }
        phases.append(empty_bounces(board, lines, after))
    return bounce_streaks(phases)
