"""The CPU work of closing a phase, run off the event loop (a worker process or a thread).

Plain data in, plain data out (gm.phases.contract), so that it crosses a process boundary cheaply:
the request carries the board JSON and the order lines, the answer the adjudication JSON, the next
board and the PNGs;
the built-in player's orders are chosen here too (gm.builtin.orders). This module imports only the
engine, and the renderer in the functions that draw (no database, no asyncio): the bot imports this
module for its names, and only its worker processes draw, so the bot process never loads the
renderer and Pillow (about 8 MiB resident).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, cast

from engine import Board, load_map
from engine.adjudication import adjudicate
from engine.player import DEFAULT_LEVEL
from engine.variants import game_map, power_display_name
from gm.builtin.orders import built_in_orders
from gm.messages.maps import ORDERS_MAP, POSITION_MAP, ending_words, final_title, fog_kind
from gm.phases.contract import BuiltInPlay, CloseAnswer, CloseRequest, WorkSeconds

log = logging.getLogger(__name__)


def close_work(request: CloseRequest) -> CloseAnswer:
    """Adjudicate one phase (the built-in player's orders chosen first) and, if asked, render its
    maps (gm.phases.contract says what each field means)."""
    board = Board.from_json(request.board, load_map(request.map or request.variant or "standard"))
    started, cpu = time.perf_counter(), time.process_time()
    orders, disorder, played = _with_built_in_orders(board, request)
    adjudication = adjudicate(
        board,
        orders,
        civil_disorder=frozenset(disorder),
        victory_centers=request.victory_centers,
    )
    adjudicated = time.perf_counter()
    maps = _maps(board, adjudication, request) if request.render else {}
    rendered = time.perf_counter()
    return CloseAnswer(
        result=cast(dict[str, Any], adjudication.to_json()),
        next_board=cast(dict[str, Any], adjudication.board.to_json()),
        maps=maps,
        seconds=WorkSeconds(
            adjudicate=adjudicated - started,
            render=rendered - adjudicated,
            cpu=time.process_time() - cpu,
        ),
        built_in=played,
    )


def _with_built_in_orders(
    board: Board, request: CloseRequest
) -> tuple[dict[str, list[str]], set[str], BuiltInPlay]:
    """The orders to adjudicate, the powers left in civil disorder, and what the built-in player
    did: its orders for ``request.built_in`` join the others, and those powers leave civil disorder
    this phase (the ones it failed for hold in it)."""
    orders = {power: list(lines) for power, lines in request.orders.items()}
    disorder = set(request.civil_disorder)
    if not request.built_in:
        return orders, disorder, BuiltInPlay()
    wanted = set(request.built_in)
    played, failed = built_in_orders(
        board,
        wanted,
        seed=int(request.seed or 0),
        holding=disorder - wanted,
        fogged=request.fogged,
        level=request.builtin_level or DEFAULT_LEVEL,
        bounced=dict(request.bounced),
    )
    orders.update(played)
    return orders, disorder - set(played), BuiltInPlay(played=tuple(sorted(played)), failed=failed)


def _maps(board: Board, adjudication: Any, request: CloseRequest) -> dict[str, bytes]:
    """The phase's maps (:func:`render_maps`) and, in a fogged game, each power's own view of them."""
    over = game_over_title(board, adjudication.to_json(), request.last_year)
    maps = render_maps(
        board,
        adjudication,
        final_title=over,
        orders_title=request.orders_title,
        position=request.position_map,
    )
    if request.fog:
        maps.update(fog_maps(board, adjudication, list(request.fog), position=over is None))
    return maps


def position_map_work(request: dict[str, Any]) -> bytes:
    """A position map drawn on its own (``/map`` of a phase whose map was never stored):
    ``{"board": <board JSON>, "variant": name, "title": str | None}`` -> PNG bytes; with ``"fog"``
    (the provinces a power sees) and ``"viewer"`` (that power), its view under the fog of war.

    The last :data:`DRAWN_KEPT` pictures are kept by their request: every game of a variant opens on
    the same position, so each new game's opening map (drawn as it starts, gm.facade.setup) is the
    same picture, drawn once per process instead of once per game."""
    key = json.dumps(request, sort_keys=True, separators=(",", ":"), default=str)
    with _drawn_lock:
        png = _drawn.get(key)
        if png is not None:
            _drawn.move_to_end(key)
            return png
    png = _draw_position(request)
    with _drawn_lock:
        _drawn[key] = png
        while len(_drawn) > DRAWN_KEPT:
            _drawn.popitem(last=False)
    return png


DRAWN_KEPT = 8  # pictures of 150-400 KB each: a server's openings (a variant, or a fogged power's view)
_drawn: OrderedDict[str, bytes] = OrderedDict()
_drawn_lock = threading.Lock()  # the bot without worker processes draws in threads


def _draw_position(request: dict[str, Any]) -> bytes:
    from render import RenderOptions, marks_from_results, render_map

    board = Board.from_json(request["board"], game_map(request.get("variant") or "standard"))
    title = request.get("title")
    if request.get("fog") is not None:  # one player's view (gm.reading.fog): ``fog`` what it sees
        fog = frozenset(request["fog"])
        # with ``results``: the orders they saw and their results, drawn on the board after them
        marks = marks_from_results(request["results"], board.game_map) if request.get("results") else None
        return render_map(
            board, marks, options=RenderOptions(title=title, fog=fog, viewer=request.get("viewer"))
        )
    return render_map(board, options=RenderOptions(title=title, show_adjustments=False) if title else None)


def warm_up() -> None:
    """Run once by each worker process as the bot starts: load the standard map and build the
    renderer's layers at the default width, so the first close does not pay for them."""
    from render.basemap import base_map
    from render.compose import DEFAULT_WIDTH

    load_map("standard")
    base_map(DEFAULT_WIDTH, "default", True, "standard")


def render_maps(
    board: Board,
    adjudication: Any,
    *,
    final_title: str | None = None,
    orders_title: str | None = None,
    position: bool = True,
) -> dict[str, bytes]:
    """The orders map of the phase (titled ``orders_title``, default the phase's name) and the
    position map of the next one (or, with ``final_title``, the final position of a game this phase
    ended; none when ``position`` is False: a sandbox's results).

    The orders map is drawn on the *resulting* board: the renderer starts each arrow where its unit
    stood and shows the dislodged units beside their attackers, which the start board cannot show.
    It is titled with the phase it shows the orders of, not the resulting board's phase.
    """
    from render import RenderOptions, marks_from_results, render_map

    marks = marks_from_results(adjudication.to_json(), board.game_map)
    title = orders_title or board.phase.long_name
    maps = {ORDERS_MAP: render_map(adjudication.board, marks, options=RenderOptions(title=title))}
    if position:
        after = RenderOptions(title=final_title, show_adjustments=False) if final_title is not None else None
        maps[POSITION_MAP] = render_map(adjudication.board, options=after)
    return maps


def fog_maps(
    board: Board, adjudication: Any, powers: list[str], *, position: bool = True
) -> dict[str, bytes]:
    """Each of ``powers``' own view (the fog of war, gm.rules.fog) of the phase's orders map and of the
    next position (none with ``position`` False: the game is over, and the final post shows it all)."""
    from engine.fog import fog_board, fog_result
    from gm.rules.fog import seen_by, seen_in_phase
    from render import RenderOptions, marks_from_results, render_map

    result = adjudication.to_json()
    after = adjudication.board
    maps = {}
    for power in powers:
        name = power_display_name(power)
        seen = seen_in_phase(board, after, [power])
        marks = marks_from_results(fog_result(result, board.game_map, power, seen), board.game_map)
        title = f"{board.phase.long_name} \u00b7 {name}'s view"
        options = RenderOptions(title=title, fog=seen, viewer=power)
        maps[fog_kind(ORDERS_MAP, power)] = render_map(fog_board(after, power, seen), marks, options=options)
        if position and adjudication.next_phase is not None:
            now = seen_by(after, [power])
            title = f"{after.phase.long_name} \u00b7 {name}'s view"
            options = RenderOptions(title=title, fog=now, viewer=power)
            maps[fog_kind(POSITION_MAP, power)] = render_map(fog_board(after, power, now), options=options)
    return maps


def game_over_title(board: Board, result: Mapping[str, Any], last_year: int | None) -> str | None:
    """The final position's title when this phase ends the game (a solo, or a short game's last
    Fall), else None. The same rule as gm.phases.closer's (a short game ends when the next phase is past
    its last year's Fall)."""
    winner = result.get("winner")
    if winner:
        return final_title(board.phase.long_name, ending_words("solo", str(winner)))
    nxt = result.get("next_phase")
    if last_year is None or not nxt:
        return None
    year, kind = int(nxt[1:5]), nxt[-1]
    if year > last_year or (year == last_year and kind == "A"):
        counts = {p: len(c) for p, c in (result.get("centers") or {}).items()}  # the board after it
        best = max(counts.values(), default=0)
        leaders = [p for p in board.game_map.powers if best and counts.get(p, 0) == best]
        winner_of_year = leaders[0] if len(leaders) == 1 else None
        return final_title(board.phase.long_name, ending_words("last_year", winner_of_year, leaders))
    return None
