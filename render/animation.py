"""The animated GIF of a whole game, made with Pillow's own GIF writer. CPU work: run it off the event
loop (gm.endings.final_post sends it to the worker pool). Plain data in and out; no database, no asyncio.

Frames are the stored maps (PNG) of every phase, oldest first, or boards (engine JSON) to render where
no map was stored. Each is scaled to ``width`` pixels, all share one 256-colour palette taken from the
first frames (flat map colours survive; no dithering, which would defeat the GIF compression), each
shows for ``frame_ms`` and the last for ``last_ms``. When the result is over ``max_bytes`` (Discord's
upload limit, with a margin) it is made again narrower, then with every other frame.
"""

from __future__ import annotations

import io
import time
from collections.abc import Mapping, Sequence
from typing import NotRequired, TypedDict, final

from PIL import Image

from engine import Board, load_map

WIDTH = 800
FRAME_MS = 1200
LAST_MS = 4000
MAX_BYTES = 8 * 1000 * 1000  # Discord lets bots upload 10 MB on an unboosted server; keep a margin
NARROWER = (800, 640, 512, 400)


@final
class PictureFrame(TypedDict):
    png: bytes  # a stored map


@final
class BoardFrame(TypedDict):
    board: Mapping[str, object]  # the engine's JSON form of a board, to render
    map: NotRequired[str | None]  # its map's name (none: standard)
    title: NotRequired[str]  # the picture's title (none: the board's phase); never a chip of builds then


Frame = PictureFrame | BoardFrame


class AnimationRequest(TypedDict):
    frames: list[Frame]
    final: NotRequired[BoardFrame | None]  # a full-size picture of the final position to render too
    width: NotRequired[int | None]  # none: WIDTH
    max_bytes: NotRequired[int | None]  # none: MAX_BYTES


class AnimationAnswer(TypedDict):
    gif: bytes
    final_png: bytes | None  # the final position, when the request asked for it
    frames: int  # the number of frames kept
    width: int  # the width used
    seconds: float


def animation_work(request: AnimationRequest) -> AnimationAnswer:
    """The GIF of ``request["frames"]`` and, when asked for, the full-size picture of ``"final"``
    (a final position no stored map shows)."""
    started = time.perf_counter()
    gif, width, used = make_gif(
        request["frames"],
        width=int(request.get("width") or WIDTH),
        max_bytes=int(request.get("max_bytes") or MAX_BYTES),
    )
    final = request.get("final")
    final_png = _render_png(final) if final else None
    return {
        "gif": gif,
        "final_png": final_png,
        "frames": used,
        "width": width,
        "seconds": time.perf_counter() - started,
    }


def make_gif(
    frames: Sequence[Frame],
    *,
    width: int = WIDTH,
    frame_ms: int = FRAME_MS,
    last_ms: int = LAST_MS,
    max_bytes: int = MAX_BYTES,
) -> tuple[bytes, int, int]:
    """The GIF bytes, the width used and the number of frames kept.

    Frames are decoded (or drawn) one at a time at the width being tried, so memory holds paletted
    frames only (about 0.6 MB each at 800 pixels)."""
    if not frames:
        raise ValueError("an animation needs at least one frame")
    widths = [width] + [w for w in NARROWER if w < width]
    kept = list(frames)
    gif = b""
    while True:
        for w in widths:
            gif = _encode(kept, w, frame_ms, last_ms)
            if len(gif) <= max_bytes:
                return gif, w, len(kept)
        if len(kept) <= 2:
            return gif, widths[-1], len(kept)
        kept = [*kept[:-1:2], kept[-1]]  # every other frame, always the final position


def _encode(frames: list[Frame], width: int, frame_ms: int, last_ms: int) -> bytes:
    palette = _palette_source(_load(frames[0], width), _load(frames[-1], width))
    paletted = [_load(f, width).quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    durations = [frame_ms] * (len(paletted) - 1) + [last_ms]
    out = io.BytesIO()
    paletted[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=paletted[1:],
        duration=durations,
        loop=0,
        disposal=1,
    )
    return out.getvalue()


def _palette_source(first: Image.Image, last: Image.Image) -> Image.Image:
    """A paletted image whose palette covers the colours of the first and the last frame."""
    strip = Image.new("RGB", (max(first.width, last.width), first.height + last.height))
    strip.paste(first, (0, 0))
    strip.paste(last, (0, first.height))
    return strip.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def _load(frame: Frame, width: int) -> Image.Image:
    """One frame as an RGB picture ``width`` pixels wide."""
    if "png" in frame:
        with Image.open(io.BytesIO(frame["png"])) as im:
            rgb = im.convert("RGB")
    else:
        from render import RenderOptions, render_image

        board = Board.from_json(frame["board"], load_map(frame.get("map") or "standard"))
        rgb = render_image(board, options=RenderOptions(width=width)).convert("RGB")
    if rgb.width == width:
        return rgb
    height = max(1, round(rgb.height * width / rgb.width))
    return rgb.resize((width, height), Image.Resampling.LANCZOS)


def _render_png(frame: BoardFrame) -> bytes:
    from render import RenderOptions, render_map

    board = Board.from_json(frame["board"], load_map(frame.get("map") or "standard"))
    title = frame.get("title")
    return render_map(board, options=RenderOptions(title=title, show_adjustments=False) if title else None)
