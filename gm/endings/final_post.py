"""The pictures of a game's final post: the final map and the animated GIF of every phase, made after
the transaction that ended the game (gm.endings.ending) and stored like the other maps (``phase_map``).

The final post is queued with ``required`` references to both pictures, so it waits for them; this
module renders what is missing off the event loop (a worker process, or a thread) and stores it. When
rendering fails the references are made optional, and the post goes out without the pictures rather
than never. It is idempotent: at start-up the Gamemaster calls :func:`publish_pending` for every final
post still waiting (a crash between the end of a game and its GIF).

It runs by itself, after the use case that ended the game, so it owns its transactions (one of the
few below gm.facade that do, docs/ARCHITECTURE.md "Transactions"): a read session, no transaction
while drawing, then each picture stored in a unit of work of its own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from db.database import SessionFactory
from db.models import Game, OutboxEntry, PhaseMap, PhaseRecord
from engine import Phase
from engine.variants import get_variant
from gm.clock import Clock, utcnow
from gm.delivery.pool import run_off_loop
from gm.delivery.shards import EVERYTHING, Ownership
from gm.messages.kinds import read_message
from gm.messages.maps import ANIMATION, CHART, FINAL_MAP, POSITION_MAP, ending_words, final_title
from gm.reading.lookup import game_phases

log = logging.getLogger(__name__)

if TYPE_CHECKING:  # the renderer itself is loaded by the worker processes only (gm.phases.worker)
    from render.animation import AnimationAnswer, AnimationRequest, BoardFrame, Frame, PictureFrame

    Work = Callable[[AnimationRequest], AnimationAnswer]


@dataclass(frozen=True, slots=True)
class ArchiveReport:
    game_id: int
    stored: tuple[str, ...]  # kinds of pictures stored now
    frames: int = 0
    gif_bytes: int = 0
    width: int = 0
    seconds: float = 0.0
    failed: str | None = None  # why the pictures could not be made (the post goes without them)


async def publish_final_post(
    sessions: SessionFactory,
    game_id: int,
    *,
    executor: Executor | None = None,
    work: Work | None = None,
    clock: Clock = utcnow,
) -> ArchiveReport:
    """Make and store the pictures the game's final post waits for (``work``: the animation's
    function, render.animation.animation_work unless a test gives another)."""
    async with sessions.read() as session:
        entry = (
            await session.exec(select(OutboxEntry).where(OutboxEntry.dedup_key == f"game_over:{game_id}"))
        ).first()
        game = await session.get(Game, game_id)
        if entry is None or game is None or entry.sent_at is not None or entry.failed_at is not None:
            return ArchiveReport(game_id, ())
        refs = [r for r in entry.payload.get("maps", []) if r.get("required")]
        phases = await game_phases(session, game_id)
        stored = {
            (m.phase_id, m.kind): m.png
            for m in (
                await session.exec(
                    select(PhaseMap).where(
                        col(PhaseMap.phase_id).in_([p.id for p in phases]),
                        col(PhaseMap.kind).in_((POSITION_MAP, FINAL_MAP, ANIMATION)),
                    )
                )
            ).all()
        }
    missing = [r for r in refs if (r["phase_id"], r["kind"]) not in stored]
    if not missing:
        return ArchiveReport(game_id, ())
    charts = [r for r in missing if r["kind"] == CHART]
    missing = [r for r in missing if r["kind"] != CHART]
    chart_kinds = await _make_charts(sessions, game, entry, charts, executor, clock)
    if not missing:
        return ArchiveReport(game_id, chart_kinds)
    map_name = get_variant(game.variant).map_name
    request = _request(phases, stored, missing, map_name, _final_title(phases[-1], entry.payload))
    try:
        answer = await run_off_loop(executor, work or _animation_work(), request)
    except Exception as exc:
        log.exception("the final pictures of game %s could not be made; posting without them", game_id)
        await _give_up_on_pictures(sessions, entry.row_id, missing)
        return ArchiveReport(game_id, chart_kinds, failed=repr(exc))
    final = answer.get("final_png")
    drawn = {ANIMATION: answer["gif"], FINAL_MAP: final, POSITION_MAP: final}
    kinds = chart_kinds + await _store(sessions, missing, drawn, clock())
    return ArchiveReport(
        game_id,
        kinds,
        frames=answer["frames"],
        gif_bytes=len(answer["gif"]),
        width=answer["width"],
        seconds=answer["seconds"],
    )


async def publish_pending(
    sessions: SessionFactory,
    *,
    executor: Executor | None = None,
    clock: Clock = utcnow,
    ownership: Ownership = EVERYTHING,
) -> list[ArchiveReport]:
    """:func:`publish_final_post` for every game whose final post is still waiting (of the games on
    the servers ``ownership`` gives this process)."""
    async with sessions.read() as session:
        keys = (
            await session.exec(
                select(OutboxEntry.game_id)
                .join(Game, col(Game.id) == col(OutboxEntry.game_id))
                .where(
                    OutboxEntry.kind == "game_over",
                    col(OutboxEntry.sent_at).is_(None),
                    col(OutboxEntry.failed_at).is_(None),
                    ownership.guild_clause(col(Game.guild_id)),
                )
            )
        ).all()
    return [
        await publish_final_post(sessions, game_id, executor=executor, clock=clock)
        for game_id in sorted({k for k in keys if k is not None})
    ]


async def _make_charts(
    sessions: SessionFactory,
    game: Game,
    entry: OutboxEntry,
    charts: list[dict[str, Any]],
    executor: Executor | None,
    clock: Clock,
) -> tuple[str, ...]:
    """The final post's chart of the centers per year (render.chart), from the table the post
    carries; when it cannot be drawn the post goes without it (never without the rest)."""
    if not charts:
        return ()
    table = entry.payload.get("centers_by_year") or {}
    request = chart_request(table, variant=game.variant, title=f"{game.name}: supply centers per year")
    try:
        png = await run_off_loop(executor, chart_work, request)
    except Exception:
        log.exception("the chart of game %s could not be drawn; posting without it", game.id)
        await _give_up_on_pictures(sessions, entry.row_id, charts, failed=False)
        return ()
    return await _store(sessions, charts, {CHART: png}, clock())


def chart_request(
    table: Mapping[str, Any], *, variant: str, title: str, palette: str = "default"
) -> dict[str, Any]:
    """What :func:`chart_work` draws: gm.endings.ending.centers_by_year's table, for a variant."""
    return {
        "years": list(table.get("years") or []),
        "rows": [{"power": r["power"], "centers": list(r["centers"])} for r in table.get("rows") or []],
        "variant": variant,
        "title": title,
        "palette": palette,
    }


def chart_work(request: Mapping[str, Any]) -> bytes:
    """The chart's PNG (run off the event loop: a worker process, or a thread)."""
    from render.chart import ChartRow, render_chart

    rows = [ChartRow(r["power"], r["centers"]) for r in request["rows"]]
    return render_chart(
        request["years"],
        rows,
        variant=request["variant"],
        title=request["title"],
        palette=request.get("palette") or "default",
    )


def _final_title(last: PhaseRecord, payload: Mapping[str, Any]) -> str:
    """The final map's title: the game is over, how, and the position it shows."""
    result = payload.get("result") or {}
    words = ending_words(str(result.get("kind") or ""), result.get("winner"), result.get("shared") or ())
    at_close = (last.results or {}).get("board_after") is not None
    return final_title(Phase.parse(last.name).long_name, words, at_close=at_close)


def _request(
    phases: list[PhaseRecord] | Any,
    stored: Mapping[tuple[int, str], bytes],
    missing: list[dict[str, Any]],
    map_name: str,
    title: str | None = None,
) -> AnimationRequest:
    """Every phase's opening position, then the final position when the game ended at a close."""
    frames: list[Frame] = []
    for phase in phases:
        png = stored.get((phase.id or 0, POSITION_MAP))  # stored phases have ids
        frames.append(_frame(png, phase.board, map_name))
    last = phases[-1]
    final_board = (last.results or {}).get("board_after")
    if final_board is not None:
        png = stored.get((last.id or 0, FINAL_MAP))
        frames.append(_frame(png, final_board, map_name))
    final = None
    if any(r["kind"] in (FINAL_MAP, POSITION_MAP) for r in missing):
        final = _board_frame(final_board if final_board is not None else last.board, map_name)
        if title:
            final["title"] = title
    return {"frames": frames, "final": final}


def _frame(png: bytes | None, board: Mapping[str, object], map_name: str) -> Frame:
    """A stored picture when there is one, else the board to draw."""
    if png is not None:
        picture: PictureFrame = {"png": png}
        return picture
    return _board_frame(board, map_name)


def _animation_work() -> Work:
    from render.animation import animation_work

    return animation_work


def _board_frame(board: Mapping[str, object], map_name: str) -> BoardFrame:
    return {"board": board, "map": map_name}


async def _store(
    sessions: SessionFactory,
    missing: list[dict[str, Any]],
    pictures: Mapping[str, bytes | None],
    now: datetime,
) -> tuple[str, ...]:
    """Store each missing picture drawn (``pictures``: by kind); the kinds stored."""
    kinds = []
    for ref in missing:
        data = pictures.get(ref["kind"])
        if data is None:
            continue
        try:
            async with sessions.begin() as session:
                session.add(PhaseMap(phase_id=ref["phase_id"], kind=ref["kind"], png=data, created_at=now))
        except IntegrityError:  # made by a concurrent publisher meanwhile: the same picture
            continue
        kinds.append(ref["kind"])
    return tuple(kinds)


async def _give_up_on_pictures(
    sessions: SessionFactory, entry_id: int, missing: list[dict[str, Any]], *, failed: bool = True
) -> None:
    """Let the post go without the pictures that could not be made (``failed``: the map and the
    animation, which the post then says could not be drawn; the chart goes without a word)."""
    gone = {(r["phase_id"], r["kind"]) for r in missing}
    async with sessions.begin() as session:
        entry = await session.get(OutboxEntry, entry_id)
        if entry is not None:
            post = read_message(entry.kind, entry.payload)
            maps = [{**r, "required": False} if (r["phase_id"], r["kind"]) in gone else r for r in post.maps]
            failed = failed or bool(getattr(post, "pictures_failed", False))
            # why the ignore below: read_message is typed as the base Message; this row is a FinalPost
            entry.payload = replace(post, maps=maps, pictures_failed=failed).to_payload()  # type: ignore[call-arg]
