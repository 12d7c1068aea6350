"""The end of a game, whatever ends it: a solo win, the last year of a short game, a draw or a
concession voted by the surviving powers, or a moderator.

:func:`finish_game` runs inside the transaction that ends the game (a phase close, a vote, a moderator
command): it writes the result, the status and the time, logs it, and queues the final post. The
post waits (its map references are ``required``) for the final map and the animated GIF, which
gm.endings.final_post renders off the event loop right after the commit, or at the next start-up after a
crash.

Result (``game.result``, plain JSON)::

    {"kind": "solo" | "last_year" | "draw" | "concession" | "moderator",
     "winner": "FRANCE" | None, "shared": ["ENGLAND", "FRANCE"],   # a draw's or a tied short game's
     "centers": {power: n}, "survivors": [powers with units or centers],
     "phase": "F1905M", "ended_by": user id | None, "note": str | None,
     "scoring": "draw_size", "scores": {power: points},   # by the game's scoring system
     "built_in": [powers the built-in player played], "built_in_end": [those it played at the end]}

The scores (gm.rules.scoring, the game's ``scoring`` setting) are added by :func:`finish_game`, shown
in the final post, and kept with the result for the server's leaderboard (gm.reports.stats).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import update
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import (
    Game,
    GameStatus,
    PhaseRecord,
    PhaseStatus,
    Proposal,
    ProposalStatus,
)
from engine.variants import game_map
from gm.anonymity import reveal_lines
from gm.builtin.seats import built_in_record
from gm.delivery.outbox import Target, enqueue
from gm.game_log import log_event
from gm.messages import payloads as say
from gm.messages.kinds import GameOver
from gm.messages.maps import ANIMATION, CHART, FINAL_MAP, ending_words
from gm.reading.lookup import game_phases
from gm.rules.scoring import SYSTEM_NAMES, FinalResult, score, score_text
from gm.settings import GameSettings

KINDS = ("solo", "last_year", "draw", "concession", "moderator")


def center_counts(board: dict[str, Any], powers: Iterable[str]) -> dict[str, int]:
    centers = board.get("centers", {})
    return {p: len(centers.get(p, ())) for p in powers}


def survivors(board: dict[str, Any], powers: Iterable[str]) -> list[str]:
    """Powers that still have units, centers or a unit that must retreat on ``board`` (engine JSON).

    A dislodged unit counts: it may retreat onto a vacant center and keep its power in the game.
    """
    units, centers = board.get("units", {}), board.get("centers", {})
    dislodged = board.get("dislodged") or {}
    return [p for p in powers if units.get(p) or centers.get(p) or dislodged.get(p)]


def short_game_leaders(board: dict[str, Any], powers: Sequence[str]) -> list[str]:
    """The powers with the most centers (one: the winner; several: they share the result)."""
    counts = center_counts(board, powers)
    best = max(counts.values(), default=0)
    return [p for p in powers if counts[p] == best and best > 0]


def make_result(
    kind: str,
    board: dict[str, Any],
    powers: Sequence[str],
    *,
    phase_name: str,
    winner: str | None = None,
    shared: Sequence[str] = (),
    ended_by: int | None = None,
    note: str | None = None,
) -> dict[str, Any]:
    if kind not in KINDS:
        raise ValueError(f"unknown way to end a game: {kind!r}")
    if kind == "last_year" and winner is None and not shared:
        leaders = short_game_leaders(board, powers)
        winner, shared = (leaders[0], ()) if len(leaders) == 1 else (None, leaders)
    return {
        "kind": kind,
        "winner": winner,
        "shared": list(shared),
        "centers": center_counts(board, powers),
        "survivors": survivors(board, powers),
        "phase": phase_name,
        "ended_by": ended_by,
        "note": note,
    }


def result_lines(result: dict[str, Any]) -> list[str]:
    """The result in words (the final post's first lines)."""
    kind, winner, shared = result["kind"], result.get("winner"), result.get("shared") or []
    centers = result.get("centers", {})
    if kind == "solo":
        return [f"{say.power_name(str(winner))} wins with {centers.get(winner, 0)} centers."]
    if kind == "last_year":
        year = result.get("phase", "")[1:5]
        lines = [f"The last year ({year}) has been played; the most centers decide."]
        if winner:
            lines.append(f"{say.power_name(winner)} wins with {centers.get(winner, 0)} centers.")
        elif shared:
            best = centers.get(shared[0], 0)
            lines.append(f"{say.powers_text(shared)} share the win with {best} centers each.")
        return lines
    if kind == "draw":
        return [f"The game is drawn by agreement, shared by {say.powers_text(shared)}."]
    if kind == "concession":
        return [f"The other powers conceded: {say.power_name(str(winner))} wins."]
    lines = ["A moderator ended the game."]
    if result.get("note"):
        lines.append(f"Reason: {result['note']}")
    return lines


def built_in_lines(result: dict[str, Any]) -> list[str]:
    """What the final post says of the built-in player, when it played in the game."""
    ever, end = result.get("built_in") or [], result.get("built_in_end") or []
    if not ever:
        return []
    uncounted = "the server's records credit their results to no one"
    if set(end) == set(ever):  # the same powers, whichever order they were recorded in
        return [f"The built-in player played {say.powers_text(ever)} to the end; {uncounted}."]
    if end:
        return [
            f"The built-in player took part: it played {say.powers_text(ever)}, and "
            f"{say.powers_text(end)} to the end ({uncounted})."
        ]
    return [
        f"The built-in player took part: it played {say.powers_text(ever)} for a while, "
        "until their players came back or others took the seats."
    ]


def scored(result: dict[str, Any], system: str, *, map_centers: int) -> dict[str, Any]:
    """``result`` with its powers' scores under ``system`` (``scoring`` and ``scores``)."""
    if not result.get("centers"):  # ended before anyone played: nothing to score
        return result
    points = score(FinalResult.from_result(result), system, map_centers=map_centers)
    return {**result, "scoring": system, "scores": {p: round(v, 4) for p, v in points.items()}}


def score_lines(result: dict[str, Any]) -> list[str]:
    """``Scores (draw-size): England 50, France 50; every other power 0.``"""
    scores: dict[str, float] = result.get("scores") or {}
    system = result.get("scoring")
    if not scores or system not in SYSTEM_NAMES:
        return []
    ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    shown = [f"{say.power_name(p)} {score_text(v)}" for p, v in ranked if v > 0]
    rest = "; every other power 0" if any(v <= 0 for v in scores.values()) and shown else ""
    if not shown:
        shown = ["every power 0"]
    return [f"Scores ({SYSTEM_NAMES[system]}): {', '.join(shown)}{rest}."]


async def finish_game(
    session: AsyncSession,
    game: Game,
    last_phase: PhaseRecord,
    result: dict[str, Any],
    *,
    now: datetime,
    final_map: tuple[int, str, str],
) -> None:
    """Write the end of ``game`` and queue its final post (in the caller's transaction).

    ``final_map``: (phase id, phase name, map kind) of the picture of the final position.
    A phase still open (a vote or a moderator ended the game) stops taking orders and loses its deadline;
    proposals still open lapse.
    """
    system = GameSettings.from_json(game.settings).scoring
    result = scored(result, system, map_centers=len(game_map(game.variant).supply_centers))
    result = {**result, **await built_in_record(session, game)}
    await _record_end(session, game, last_phase, result, now=now)
    await _queue_final_post(session, game, last_phase, result, now=now, final_map=final_map)


async def _record_end(
    session: AsyncSession, game: Game, last_phase: PhaseRecord, result: dict[str, Any], *, now: datetime
) -> None:
    """The result, the status and the time on the game; the last phase, if still open, without its
    deadline; the open proposals lapsed; the game's log told."""
    game.status = GameStatus.CANCELLED if result["kind"] == "moderator" else GameStatus.FINISHED
    game.finished_at = now
    game.result = result
    if last_phase.status == PhaseStatus.OPEN:
        last_phase.deadline = None
        last_phase.remaining_seconds = None
    await session.exec(
        update(Proposal)
        .where(col(Proposal.game_id) == game.row_id, col(Proposal.status) == ProposalStatus.OPEN)
        .values(status=ProposalStatus.LAPSED, decided_at=now)
    )
    log_event(
        session,
        game.row_id,
        "game_over",
        at=now,
        actor_id=result.get("ended_by"),
        detail={"kind": result["kind"], "winner": result.get("winner"), "shared": result.get("shared")},
    )


async def _queue_final_post(
    session: AsyncSession,
    game: Game,
    last_phase: PhaseRecord,
    result: dict[str, Any],
    *,
    now: datetime,
    final_map: tuple[int, str, str],
) -> None:
    """The final post: the result in words, the final centers, the final map, the game's animation
    and its chart of centers by year (each picture required: the post waits for it)."""
    game_id = game.row_id
    table = await centers_by_year(session, game)
    map_phase_id, map_phase_name, map_kind = final_map
    how = ending_words(result["kind"], result.get("winner"), result.get("shared") or ())
    enqueue(
        session,
        GameOver(
            game_id=game_id,
            game_name=game.name,
            title=f"{game.name} is over: {how}",
            lines=await _final_lines(session, game, result),
            fields={say.power_name(p): str(n) for p, n in result["centers"].items() if n},
            phase=last_phase.name,
            maps=[
                say.map_ref(map_phase_id, map_phase_name, map_kind, required=True),
                say.map_ref(last_phase.row_id, f"game-{game_id}", ANIMATION, required=True, extension="gif"),
                say.map_ref(last_phase.row_id, f"game-{game_id}", CHART, required=True),
            ],
            result=result,
            centers_by_year=table,
            powers=list(game_map(game.variant).powers),
        ),
        phase_id=last_phase.id,
        target=Target.game_channel(),
        key=f"game_over:{game_id}",
        now=now,
    )


async def _final_lines(session: AsyncSession, game: Game, result: dict[str, Any]) -> list[str]:
    """The final post's lines: the result, the scores, the built-in player's part, the fog lifted (a
    fogged game), the players revealed (an anonymous game, gm.anonymity)."""
    settings = GameSettings.from_json(game.settings)
    fog_lifts = (
        "The fog of war lifts: every phase's orders, results and maps, in full, are in "
        "[[cmd:history]] and [[cmd:game export]]."
    )
    revealed = await reveal_lines(session, game.row_id) if settings.anonymous else []
    return [
        *result_lines(result),
        *score_lines(result),
        *built_in_lines(result),
        *([fog_lifts] if settings.fogged else []),
        *revealed,
        "Final centers, and the whole game in pictures:",
    ]


def final_map_of(last_phase: PhaseRecord, *, at_close: bool) -> tuple[int, str, str]:
    """Which picture shows the final position: the ``final`` map of the last phase, titled with the
    game's end (gm.messages.maps.final_title): drawn by the close that ended the game, or, when a vote
    or a moderator ended it during the phase (``at_close`` False), drawn for the final post from the
    position the phase was played from (gm.endings.final_post)."""
    return (last_phase.row_id, last_phase.name, FINAL_MAP)


async def centers_by_year(session: AsyncSession, game: Game) -> dict[str, Any]:
    """Supply centers per power at the start and at the end of every year played (plain data)::

    {"years": ["start", "1901", "1902"], "rows": [{"power": "AUSTRIA", "centers": [3, 4, 5]}, ...]}
    """
    phases = await game_phases(session, game.row_id)
    powers = game_map(game.variant).powers
    columns: list[tuple[str, dict[str, int]]] = []
    if phases:
        columns.append(("start", center_counts(phases[0].board, powers)))
    for phase in phases:
        if phase.status != PhaseStatus.CLOSED or not phase.results:
            continue
        after = phase.results.get("board_after") or {}
        label = phase.name[1:5]
        counts = center_counts(after, powers)
        if columns and columns[-1][0] == label:
            columns[-1] = (label, counts)
        else:
            columns.append((label, counts))
    return {
        "years": [label for label, _ in columns],
        "rows": [{"power": p, "centers": [counts[p] for _, counts in columns]} for p in powers],
    }
