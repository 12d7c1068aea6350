"""The end of a game: the final post with its map, centers table and GIF; the GIF itself; export."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image
from PIL.GifImagePlugin import GifImageFile
from sqlmodel import select

from db.database import SessionFactory
from db.models import PhaseMap
from engine import Board
from gm.delivery.outbox import deliver_pending
from gm.endings import final_post as archive
from gm.endings import votes
from gm.facade import Gamemaster
from gm.moderation import actions as moderation
from gm.ordering import submission as orders
from gm.reports.export import export_game
from gm.reports.status import game_status
from gm.settings import GameSettings
from gm.setup.games import StartResult
from render.animation import AnimationAnswer, AnimationRequest, BoardFrame, make_gif
from tests.gm.conftest import (
    T0,
    close,
    france_one_move_from_a_solo,
    make_started_game,
    messages,
    player_of,
    submit,
)
from tests.helpers.endings import JUDGE, with_channel
from tests.helpers.gm import RecordingSender


def opened_gif(data: bytes) -> GifImageFile:
    image = Image.open(io.BytesIO(data))
    assert isinstance(image, GifImageFile), f"not a GIF: {image.format}"
    return image


async def play_a_year(sessions: SessionFactory, started: StartResult) -> None:
    await submit(sessions, started, "FRANCE", "A Par-Bur\nA Mar-Spa\nF Bre-Mid")
    await close(sessions, started.game.id)
    await submit(sessions, started, "FRANCE", "A Spa-Por\nF Mid-Spa/nc\nA Bur-Bel")
    await close(sessions, started.game.id)


async def test_the_final_post_waits_for_its_gif_then_goes_with_map_table_and_animation(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    await with_channel(sessions, started.game.id)
    await play_a_year(sessions, started)  # Spring and Fall 1901; the game ends as France should build
    async with sessions.begin() as s:
        result = await moderation.end_game(s, started.game.id, JUDGE, now=T0)
    sender = RecordingSender()
    report = await deliver_pending(sessions, sender, clock=lambda: T0)
    assert "phase_results" in {m.kind for m in sender.sent}  # the channel is known ...
    assert report.pending >= 1 and "game_over" not in {m.kind for m in sender.sent}  # ... but no GIF yet

    gm = Gamemaster(sessions, sender, workers=0, render_maps=False, clock=lambda: T0)
    await gm.runtime.apply(result.follow_ups)
    (post,) = [m for m in sender.sent if m.kind == "game_over"]
    names = [a.filename for a in post.attachments]
    assert names[0] == "W1901A-final.png" and names[1] == f"game-{started.game.id}-animation.gif"
    gif = opened_gif(post.attachments[1].data)
    phases = post.payload["centers_by_year"]
    assert gif.format == "GIF" and gif.width == 800 and gif.info.get("loop") == 0
    assert gif.n_frames == 3  # S1901M, F1901M, W1901A: every phase's opening position
    durations = []
    for frame in range(gif.n_frames):
        gif.seek(frame)
        durations.append(gif.info["duration"])
    assert durations == [1200, 1200, 4000]
    assert len(post.attachments[1].data) < 8_000_000
    assert phases["years"] == ["start", "1901"]
    france = next(row for row in phases["rows"] if row["power"] == "FRANCE")
    assert france["centers"] == [3, 6]  # Spain, Portugal and Belgium taken in 1901
    await gm.runtime.shutdown()


async def test_a_solo_at_a_close_posts_the_final_position_and_the_game_as_a_gif(
    sessions: SessionFactory,
) -> None:
    started = await make_started_game(sessions)
    await france_one_move_from_a_solo(sessions, started)
    await with_channel(sessions, started.game.id)
    sender = RecordingSender()
    gm = Gamemaster(sessions, sender, workers=0, render_maps=True, clock=lambda: T0)
    outcome = await gm.runtime.close_phase(started.phase.id)
    assert outcome.game_over and outcome.winner == "FRANCE"
    (post,) = [m for m in sender.sent if m.kind == "game_over"]
    assert [a.filename for a in post.attachments] == [
        "F1901M-final.png",
        f"game-{started.game.id}-animation.gif",
        f"game-{started.game.id}-chart.png",
    ]
    assert opened_gif(post.attachments[1].data).n_frames == 2  # the phase, then the final position
    assert post.payload["result"]["winner"] == "FRANCE"
    async with sessions() as s:
        status = await game_status(s, started.game.id)
    by_power = {p.power: p for p in status.powers}
    assert by_power["FRANCE"].centers == 18, "the status shows the final position, not the last phase's start"
    await gm.runtime.shutdown()


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_when_the_pictures_fail_the_final_post_goes_without_them(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await with_channel(sessions, started.game.id)
    async with sessions.begin() as s:
        await moderation.end_game(s, started.game.id, JUDGE, now=T0)

    def broken(request: AnimationRequest) -> AnimationAnswer:
        raise RuntimeError("renderer crashed")

    report = await archive.publish_final_post(sessions, started.game.id, work=broken, clock=lambda: T0)
    assert report.failed and "renderer crashed" in report.failed
    sender = RecordingSender()
    await deliver_pending(sessions, sender, clock=lambda: T0)
    (post,) = [m for m in sender.sent if m.kind == "game_over"]
    assert post.payload["pictures_failed"] is True
    assert [a.filename for a in post.attachments] == [f"game-{started.game.id}-chart.png"], (
        "the chart is not the map's"
    )


@pytest.mark.both_backends  # runs SQL on PostgreSQL that no other marked test runs
async def test_a_final_post_left_waiting_by_a_crash_is_finished_at_start_up(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await with_channel(sessions, started.game.id)
    async with sessions.begin() as s:  # the game ended, then the bot died before making the GIF
        await moderation.end_game(s, started.game.id, JUDGE, now=T0)
    sender = RecordingSender()
    gm = Gamemaster(sessions, sender, workers=0, render_maps=False, clock=lambda: T0)
    await gm.runtime.start()
    try:
        assert [m.kind for m in sender.sent].count("game_over") == 1
        async with sessions() as s:
            kinds = (await s.exec(select(PhaseMap.kind))).all()
        assert "animation" in kinds
        again = await archive.publish_pending(sessions, clock=lambda: T0)  # already done: nothing to do
        assert again == []
    finally:
        await gm.runtime.shutdown()


def test_a_gif_over_the_size_limit_is_made_narrower_then_shorter() -> None:
    start = Board.initial().to_json()
    boards: list[BoardFrame] = [
        {"board": {**start, "phase": name}, "map": "standard"}
        for name in ("S1901M", "F1901M", "S1902M", "F1902M")
    ]
    full, width, kept = make_gif(boards)
    assert (width, kept) == (800, 4)
    smaller, width, kept = make_gif(boards, max_bytes=len(full) - 1)
    assert width < 800 and kept == 4 and len(smaller) < len(full)
    tiny, width, kept = make_gif(boards, max_bytes=1000)
    assert width == 400 and kept == 2  # every other frame, always the last; as small as it goes
    assert opened_gif(tiny).n_frames == 2


async def test_export_is_json_and_never_shows_open_orders_or_votes(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await submit(sessions, started, "FRANCE", "A Par-Bur")
    await close(sessions, started.game.id)
    report = await submit(sessions, started, "FRANCE", "A Bur-Mun")
    assert report.accepted
    async with sessions.begin() as s:
        await votes.propose(s, started.game.id, player_of(started, "ITALY"), "draw", now=T0)
    async with sessions() as s:
        data = await export_game(s, started.game.id)
    text = json.dumps(data)
    assert "BUR - MUN" not in text and "Bur-Mun" not in text
    spring, fall = data["phases"]
    assert spring["name"] == "S1901M" and any(
        o["order"] == "A PAR - BUR" for o in spring["results"]["orders"]
    )
    assert "bookkeeping" not in spring["results"]
    assert fall["name"] == "F1901M" and fall["results"] is None and fall["board"]["phase"] == "F1901M"
    assert data["proposals"] == [
        {
            "phase": "F1901M",
            "kind": "draw",
            "beneficiary": None,
            "status": "open",
            "opened_at": T0.isoformat(),
            "decided_at": None,
        }
    ]
    assert "yes" not in text
    assert data["powers"]["FRANCE"] == player_of(started, "FRANCE")
    assert [e["action"] for e in data["log"]][:2] == ["created", "joined"]


async def test_status_shows_who_is_done_but_not_what_they_ordered(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await submit(sessions, started, "FRANCE", "A Par-Bur\nA Mar-Spa\nF Bre-Mid")
    async with sessions.begin() as s:
        await orders.set_ready(s, started.game.id, player_of(started, "GERMANY"), now=T0)
        status = await game_status(s, started.game.id)
    by_power = {p.power: p for p in status.powers}
    assert by_power["GERMANY"].ready and by_power["GERMANY"].done
    assert not by_power["FRANCE"].ready and not by_power["FRANCE"].done  # orders in, but not said ready
    assert (
        by_power["FRANCE"].must_act
        and by_power["FRANCE"].centers == 3
        and by_power["FRANCE"].state == "playing"
    )
    assert "BUR" not in repr(status)


async def test_the_status_of_a_finished_game_shows_the_final_standing_not_absences(
    sessions: SessionFactory,
) -> None:
    """Everyone but France misses both phases of a one-year game: the second miss comes with the
    last close, which announces no civil disorder (nothing is left to play), so the status does not
    claim it either."""
    started = await make_started_game(sessions, settings=GameSettings(last_year=1901, civil_disorder_after=2))
    for _ in range(2):
        await submit(sessions, started, "FRANCE", "A Par H")
        outcome = await close(sessions, started.game.id)
    assert outcome.game_over
    assert [m for m in await messages(sessions, "civil_disorder") if m.target_kind == "game_channel"] == []
    async with sessions() as s:
        status = await game_status(s, started.game.id)
    states = {p.power: p.state for p in status.powers}
    assert set(states.values()) == {"survived"}
    assert not any(p.must_act for p in status.powers)
    assert status.result is not None and status.result["kind"] == "last_year"
