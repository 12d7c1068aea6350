"""Looking back (/history) and at the board (/map): public data only.

A phase's orders are shown once it has closed, never before (its board is public all along). Maps are
the PNGs stored when the phase closed; a map that was never rendered (the first phase's opening
position) is rendered once, off the event loop (in the worker processes), and stored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game, PhaseMap, PhaseRecord, PhaseStatus
from engine import Board, Phase
from engine.fog import fog_board
from engine.variants import game_map, power_display_name
from gm.builtin.seats import robot_seat
from gm.errors import UnknownPhase
from gm.messages.maps import (
    FINAL_MAP,
    ORDERS_MAP,
    POSITION_MAP,
    ending_words,
    final_title,
    fog_kind,
    fog_view,
)
from gm.reading.fog import board_view, fog_on, fog_viewer, results_view
from gm.reading.info import PhaseInfo
from gm.reading.lookup import game_phases, load_game, power_assignments
from gm.rules.fog import seen_in_phase

PRIVATE_RESULT_KEYS = ("bookkeeping",)  # a rollback's notes on player rows, by database id: not for show


def public_results(results: dict[str, Any]) -> dict[str, Any]:
    """A closed phase's results as they may be shown: everything but gm's internal bookkeeping."""
    return {k: v for k, v in results.items() if k not in PRIVATE_RESULT_KEYS}


@dataclass(frozen=True, slots=True)
class PhaseHistory:
    game_id: int
    game_name: str
    phase: PhaseInfo
    board: dict[str, Any]  # the position at the phase's start (engine JSON)
    results: dict[str, Any] | None  # None until the phase has closed: orders stay secret till then
    maps: tuple[str, ...]  # kinds of stored maps for this phase: "position", "orders", "final"
    phases: tuple[str, ...]  # every phase of the game so far, oldest first


@dataclass(frozen=True, slots=True)
class MapImage:
    filename: str
    png: bytes


async def phase_history(
    session: AsyncSession, game_id: int, phase_name: str | None = None, *, viewer: int | None = None
) -> PhaseHistory:
    """A phase of a game (default: the last closed one, else the current one). A running fogged game
    shows ``viewer``'s view only (gm.reading.fog: refused to a member who plays none of its powers)."""
    game = await load_game(session, game_id)
    powers = await fog_viewer(session, game, viewer)
    phases = await game_phases(session, game_id)
    if not phases:
        raise UnknownPhase(f"{game.name} has not started, so it has no history yet.")
    phase = _pick(phases, phase_name, game.name)
    kinds = (await session.exec(select(PhaseMap.kind).where(PhaseMap.phase_id == phase.id))).all()
    board, results = phase.board, shown_results(phase)
    if powers is not None:  # the fog of war: the viewer's own view, its own maps
        board = board_view(board, game.variant, powers)[0]
        results = results_view(results, phase.board, game.variant, powers) if results is not None else None
        views = [fog_view(kind) for kind in kinds]
        kinds = [view[0] for view in views if view is not None and view[1] == powers[0]]
    return PhaseHistory(
        game_id=game_id,
        game_name=game.name,
        phase=PhaseInfo.of(phase),
        board=board,
        results=results,
        maps=tuple(sorted(kinds)),
        phases=tuple(p.name for p in phases),
    )


@dataclass(frozen=True, slots=True)
class MapToDraw:
    """A map that was never rendered (:func:`find_map`): what to draw (``request``, for
    gm.phases.worker.position_map_work) and where to store it (:func:`store_map`)."""

    phase_id: int
    kind: str
    filename: str
    request: dict[str, Any]
    store: bool = True  # False: drawn for this request alone (a player of several powers' joint view)


async def find_map(
    session: AsyncSession,
    game_id: int,
    phase_name: str | None = None,
    *,
    with_orders: bool = False,
    viewer: int | None = None,
    seat: str | None = None,
) -> MapImage | MapToDraw | None:
    """The map of a phase (default: the current one), as stored; or what to draw when it never was
    (:class:`MapToDraw`). Only reads. See gm.facade.core.GamemasterCore.phase_map. A running fogged
    game shows ``viewer``'s own view (gm.reading.fog); with ``seat`` (a power), the view a newcomer to
    its seat gets in their welcome (:func:`seat_view_power`) instead."""
    game = await load_game(session, game_id)
    if seat is not None and fog_on(game):
        powers: tuple[str, ...] | None = (await seat_view_power(session, game, seat),)
    else:
        powers = await fog_viewer(session, game, viewer)
    phases = await game_phases(session, game_id)
    if not phases:
        raise UnknownPhase(f"{game.name} has not started, so there is no map yet.")
    phase = _pick(phases, phase_name, game.name, default_latest=True)
    ended_at_close = phase_name is None and phase.status == PhaseStatus.CLOSED and bool(phase.results)
    kind = ORDERS_MAP if with_orders else FINAL_MAP if ended_at_close else POSITION_MAP
    board = phase.results["board_after"] if kind == FINAL_MAP and phase.results else phase.board
    if with_orders and phase.status != PhaseStatus.CLOSED:
        raise UnknownPhase(
            f"The {phase.name} orders are secret until the phase closes.", "Ask for the map without orders."
        )
    if powers is not None and len(powers) > 1:  # the view of all their powers together
        return _joint_view(phase, kind, powers, game.variant)
    if powers is not None:  # the fog of war: the viewer's own view (gm.phases.worker.fog_maps)
        kind = fog_kind(kind, powers[0])
    stored = (
        await session.exec(select(PhaseMap.png).where(PhaseMap.phase_id == phase.id, PhaseMap.kind == kind))
    ).first()
    filename = f"{phase.name}-{kind}.png"
    if stored is not None:
        return MapImage(filename, stored)
    if kind == ORDERS_MAP:
        return None
    title = None
    if kind == FINAL_MAP:  # the same picture the close would have stored
        result = game.result or {}
        winner = result.get("winner") or (phase.results or {}).get("winner")
        words = ending_words(str(result.get("kind") or "solo"), winner, result.get("shared") or ())
        title = final_title(Phase.parse(phase.name).long_name, words)
    request: dict[str, Any] = {"board": board, "variant": game.variant, "title": title}
    if powers is not None:  # the opening position as the viewer's first power sees it
        view, seen = board_view(board, game.variant, powers[:1])
        name = power_display_name(powers[0])
        title = f"{Phase.parse(phase.name).long_name} \u00b7 {name}'s view"
        request = {**request, "board": view, "title": title, "fog": seen, "viewer": powers[0]}
    return MapToDraw(phase.row_id, kind, filename, request)


async def seat_view_power(session: AsyncSession, game: Game, power: str) -> str:
    """Under the fog of war, the power whose view of the position a newcomer to the seat holding
    ``power`` gets in their welcome (gm.moderation.replacement): the seat's first power, whose view
    the close stores (a seat's joint view is drawn on request only)."""
    robot = await robot_seat(session, game, power)
    if robot:
        return min(robot)
    assignments = await power_assignments(session, game.row_id)
    holder = next((a.player_id for a in assignments if a.power == power), None)
    return min([a.power for a in assignments if holder is not None and a.player_id == holder] or [power])


def _joint_view(phase: PhaseRecord, kind: str, powers: tuple[str, ...], variant: str) -> MapToDraw:
    """What a player of several ``powers`` sees of a phase under the fog of war: its opening position,
    or with ORDERS_MAP its orders and their results (the close stores each power's view alone, and
    their views together for a seat of several powers would be one more map per seat; drawn on
    request instead, and not stored: a map's stored kind is short)."""
    names = " and ".join(power_display_name(p) for p in powers)
    viewer = powers[0]  # its title bar counts this power's centers
    if kind == ORDERS_MAP and phase.results:
        variant_map = game_map(variant)
        before = Board.from_json(phase.board, variant_map)
        after = Board.from_json(phase.results.get("board_after") or phase.board, variant_map)
        seen = seen_in_phase(before, after, powers)
        results = results_view(phase.results, phase.board, variant, powers)
        request = {
            "board": fog_board(after, viewer, seen).to_json(),
            "variant": variant,
            "title": f"{Phase.parse(phase.name).long_name} \u00b7 {names}'s view",
            "fog": sorted(seen),
            "viewer": viewer,
            "results": {"orders": results["orders"], "phase": phase.name},
        }
        return MapToDraw(
            phase.row_id, kind, f"{phase.name}-{fog_kind(kind, viewer)}.png", request, store=False
        )
    view, seen_now = board_view(phase.board, variant, powers)
    title = f"{Phase.parse(phase.name).long_name} \u00b7 {names}'s view"
    request = {"board": view, "variant": variant, "title": title, "fog": seen_now, "viewer": viewer}
    return MapToDraw(
        phase.row_id, kind, f"{phase.name}-{fog_kind(POSITION_MAP, viewer)}.png", request, store=False
    )


async def opening_views(session: AsyncSession, game_id: int) -> list[MapToDraw]:
    """A fogged game's first phase as each of its players' powers sees it, those not stored yet: drawn
    at the start, for each power's channel (gm.setup.games's OpeningView)."""
    game = await load_game(session, game_id)
    if not fog_on(game):
        return []
    phases = await game_phases(session, game_id)
    if not phases:
        return []
    phase = phases[0]
    stored = set((await session.exec(select(PhaseMap.kind).where(PhaseMap.phase_id == phase.id))).all())
    todo = []
    for assignment in await power_assignments(session, game_id):
        power = assignment.power
        kind = fog_kind(POSITION_MAP, power)
        if assignment.player_id is None or kind in stored:
            continue
        view, seen = board_view(phase.board, game.variant, [power])
        title = f"{Phase.parse(phase.name).long_name} \u00b7 {power_display_name(power)}'s view"
        request = {"board": view, "variant": game.variant, "title": title, "fog": seen, "viewer": power}
        todo.append(MapToDraw(phase.row_id, kind, f"{phase.name}-{kind}.png", request))
    return todo


def store_map(session: AsyncSession, todo: MapToDraw, png: bytes) -> MapImage:
    """Keep a map drawn for :func:`find_map`. A concurrent request may have stored the same picture
    first: the commit then fails on the unique (phase, kind), and the caller keeps that one
    (gm.facade.core.GamemasterCore.phase_map)."""
    session.add(PhaseMap(phase_id=todo.phase_id, kind=todo.kind, png=png, created_at=datetime.now(UTC)))
    return MapImage(todo.filename, png)


def shown_results(phase: PhaseRecord) -> dict[str, Any] | None:
    """The phase's public results once it has closed; None before (its orders are secret till then)."""
    closed = phase.status == PhaseStatus.CLOSED
    return public_results(phase.results) if closed and phase.results is not None else None


def find_phase(phases: list[PhaseRecord], phase_name: str | None, game_name: str) -> PhaseRecord:
    """The phase of ``phases`` a player names (``S1901M``, ``spring 1901``, ``fall 1901 retreats``);
    the latest when ``phase_name`` is None. Refused (UnknownPhase, listing the phases) otherwise."""
    return _pick(phases, phase_name, game_name, default_latest=True)


def _pick(
    phases: list[PhaseRecord] | Any, phase_name: str | None, game_name: str, *, default_latest: bool = False
) -> PhaseRecord:
    if phase_name is None:
        closed = [p for p in phases if p.status == PhaseStatus.CLOSED]
        return phases[-1] if default_latest or not closed else closed[-1]
    wanted = phase_name.strip().upper()
    for phase in reversed(phases):
        if phase.name == wanted:
            return phase
    for phase in reversed(phases):  # "S1901", "spring 1901", "Fall 1901 retreats", "winter 1901"
        if _means(phase_name, phase.name):
            return phase
    raise UnknownPhase(
        f"{game_name} has no phase {phase_name!r}.", "Its phases so far: " + ", ".join(p.name for p in phases)
    )


_SEASONS = {"S": ("spring", "s"), "F": ("fall", "autumn", "f"), "W": ("winter", "w")}
_KINDS = {
    "M": ("movement", "moves", "m"),
    "R": ("retreats", "retreat", "r"),
    "A": ("adjustments", "builds", "a"),
}


def _means(text: str, name: str) -> bool:
    """Whether a player's ``text`` names the phase ``name`` (S1901M): its season and year, written
    as a code or in words, with its kind optional (a season's movement phase when left out)."""
    words = re.findall(r"[a-z]+|\d{4}", text.casefold())
    if len(words) == 1 and re.fullmatch(r"[a-z]\d{4}[a-z]?", text.strip().casefold()):
        code = text.strip().casefold()
        words = [code[0], code[1:5], *([code[5]] if len(code) == 6 else [])]
    season, year, kind = name[0], name[1:5], name[5]
    if len(words) < 2 or words[0] not in _SEASONS[season] or words[1] != year:
        return False
    if len(words) == 2:
        return kind == "M" or season == "W"
    return len(words) == 3 and words[2] in _KINDS[kind]
