"""Who reads a running fogged game, and what (the game's ``fog`` setting, gm.rules.fog).

While a fogged game runs, what shows its boards to a member (/map, /history, /game export, the
preview of one's orders, a sandbox made from it) shows the view of the powers that member plays, and
refuses anyone who plays none of them. Once the game is over (or without fog) everything is shown.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game
from engine import Board
from engine.fog import fog_board, fog_result
from engine.legal import forget_board
from engine.variants import game_map
from gm.errors import GameError, NotAllowed
from gm.reading.lookup import ENDED_STATES, load_player_and_powers
from gm.rules.fog import fogged_change, fogged_missed, fogged_orders, seen_by, seen_in_phase
from gm.settings import FOG_MODES, FOG_OFF


def fog_on(game: Game) -> bool:
    """The game is fogged and not over: its boards are shown power by power. Read from the stored
    settings' ``fog`` alone (every order and every tap asks: reading the whole settings costs 75 µs)."""
    fog = (game.settings or {}).get("fog")
    return game.status not in ENDED_STATES and fog in FOG_MODES and fog != FOG_OFF


async def fog_viewer(session: AsyncSession, game: Game, user_id: int | None) -> tuple[str, ...] | None:
    """None: show the whole game (no fog, or it is over); else the powers whose view ``user_id`` gets.
    Refused (NotAllowed) for a member who plays none of the game's powers, or no member at all."""
    if not fog_on(game):
        return None
    refusal = NotAllowed(
        f"{game.name} is played under the fog of war: while it runs, each player sees only what "
        "their own powers see, and nobody else sees its boards.",
        "Everything is revealed in the final post when the game ends.",
    )
    if user_id is None:
        raise refusal
    try:
        _, powers = await load_player_and_powers(session, game, user_id)
    except GameError:  # not a player (any more)
        raise refusal from None
    if not powers:
        raise refusal
    return tuple(powers)


def board_for(game: Game, board: Board, powers: Collection[str]) -> Board:
    """``board`` as the player of ``powers`` sees it while ``game`` is fogged and running (its order
    menus and the gate its orders pass: no menu or refusal tells where an unseen unit stands); else
    ``board`` itself."""
    if not fog_on(game) or not powers:
        return board
    key = (game.id, frozenset(powers))
    held = _views.pop(key, None)
    if held is not None and held[0] is board:
        _views[key] = held  # the most recently read last
        return held[1]
    if held is not None:  # the game has moved on: its old view is wanted no more
        forget_board(held[1])
    elif len(_views) >= VIEWS_KEPT:
        forget_board(_views.pop(next(iter(_views)))[1])
    view = fog_board(board, next(iter(powers)), seen_by(board, powers))
    _views[key] = (board, view)
    return view


VIEWS_KEPT = 64
"""How many fogged views :func:`board_for` keeps: one per game and player's powers, the least recently
read dropped first. The engine remembers a board's legal orders by identity, so a view built anew on
every tap would be listed anew on every tap (and crowd the live games' boards out of the engine's
memory); the same view object for the same board lets it list each view once."""
_views: dict[tuple[int | None, frozenset[str]], tuple[Board, Board]] = {}


def board_view(
    board: Mapping[str, Any], variant: str, powers: Collection[str]
) -> tuple[dict[str, Any], list[str]]:
    """A board's JSON as the player of ``powers`` sees it, and the provinces it sees."""
    full = Board.from_json(board, game_map(variant))
    seen = seen_by(full, powers)
    units = {
        p: [u for u in us if u.split()[-1].split("/")[0] in seen]
        for p, us in (board.get("units") or {}).items()
    }
    centers = {p: [c for c in cs if c in seen] for p, cs in (board.get("centers") or {}).items()}
    dislodged = {
        p: {u: e for u, e in entries.items() if u.split()[-1].split("/")[0] in seen}
        for p, entries in (board.get("dislodged") or {}).items()
    }
    view = {
        **board,
        "units": {p: us for p, us in units.items() if us},
        "centers": {p: cs for p, cs in centers.items() if cs},
    }
    if "dislodged" in board:
        view["dislodged"] = {p: es for p, es in dislodged.items() if es}
    return view, sorted(seen)


def results_view(
    results: Mapping[str, Any], before: Mapping[str, Any], variant: str, powers: Collection[str]
) -> dict[str, Any]:
    """A closed phase's stored results as the player of ``powers`` may read them (gm.phases.fogged
    sent it the same): the orders it saw, what changed in what it saw, its own missed orders, the
    board after as it sees it."""
    variant_map = game_map(variant)
    start = Board.from_json(before, variant_map)
    after_json = results.get("board_after") or before
    after = Board.from_json(after_json, variant_map)
    seen = seen_in_phase(start, after, powers)
    view = fog_result(results, variant_map, next(iter(powers), ""), seen)  # units, centers, dislodged
    view["orders"] = fogged_orders(results.get("orders") or [], variant_map, powers, seen)
    view["adjustments"] = {p: n for p, n in (results.get("adjustments") or {}).items() if p in powers}
    if results.get("changes"):
        view["changes"] = fogged_change(results["changes"], powers, seen)
    if results.get("missed"):
        view["missed"] = fogged_missed(results["missed"], powers)
    view["board_after"] = board_view(after_json, variant, powers)[0]
    shown = {line["power"] for line in view["orders"]}
    view["built_in"] = [p for p in results.get("built_in") or () if p in shown]
    return view
