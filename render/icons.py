"""Unit icons, supply-center markers and badges, drawn once per size and colour and cached.

An army is a round token with a cannon on it, a fleet a wider rounded token with a ship; both in the
power's unit colour with a white rim and a thin dark edge so they read on any fill. With the
colour-blind palette each icon also carries the power's initial in a small white disc.
Sprites are drawn at ``SUPERSAMPLE`` times the size and shrunk, so their edges are smooth.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render.palette import RGB
from render.text import BOLD, font

SUPERSAMPLE = 4
EDGE: RGB = (30, 30, 34)
RIM: RGB = (255, 255, 255)


def _rotated(
    points: list[tuple[float, float]], angle: float, cx: float, cy: float
) -> list[tuple[float, float]]:
    c, s = math.cos(angle), math.sin(angle)
    return [(cx + x * c - y * s, cy + x * s + y * c) for x, y in points]


def _cannon(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: RGB) -> None:
    """A field gun seen from the side: a tapered barrel raised 25 degrees over a spoked wheel."""
    barrel = [(-0.50 * r, -0.13 * r), (0.62 * r, -0.09 * r), (0.62 * r, 0.09 * r), (-0.50 * r, 0.15 * r)]
    draw.polygon(_rotated(barrel, math.radians(-25), cx - 0.02 * r, cy - 0.02 * r), fill=ink)
    wx, wy, wr = cx - 0.12 * r, cy + 0.25 * r, 0.30 * r
    draw.ellipse((wx - wr, wy - wr, wx + wr, wy + wr), outline=ink, width=max(1, round(0.11 * r)))
    for k in range(4):
        a = math.radians(45 * k)
        dx, dy = math.cos(a) * wr, math.sin(a) * wr
        draw.line((wx - dx, wy - dy, wx + dx, wy + dy), fill=ink, width=max(1, round(0.06 * r)))
    trail = [(-0.12 * r, 0.22 * r), (-0.70 * r, 0.50 * r), (-0.66 * r, 0.58 * r), (-0.08 * r, 0.32 * r)]
    draw.polygon([(cx + x, cy + y) for x, y in trail], fill=ink)


def _ship(draw: ImageDraw.ImageDraw, cx: float, cy: float, h: float, ink: RGB) -> None:
    """A two-masted ship: hull with a raised bow, two sails. ``h`` is the token's half height."""
    hull = [(-0.95 * h, 0.12 * h), (1.05 * h, 0.12 * h), (0.80 * h, 0.55 * h), (-0.78 * h, 0.55 * h)]
    draw.polygon([(cx + x, cy + y) for x, y in hull], fill=ink)
    mast_w = max(1, round(0.09 * h))
    for mx, top, span in ((-0.18 * h, -0.70 * h, 0.62 * h), (0.42 * h, -0.52 * h, 0.50 * h)):
        draw.line((cx + mx, cy + 0.14 * h, cx + mx, cy + top), fill=ink, width=mast_w)
        sail = [(mx + 0.08 * h, top + 0.06 * h), (mx + 0.08 * h, 0.02 * h), (mx + 0.08 * h + span, 0.02 * h)]
        draw.polygon([(cx + x, cy + y) for x, y in sail], fill=ink)


@lru_cache(maxsize=256)
def unit_sprite(
    unit_type: str, colour: RGB, ink: RGB, radius: float, half_w: float, half_h: float, letter: str = ""
) -> Image.Image:
    """An RGBA icon centred in its image. ``radius`` sizes the army, ``half_w``/``half_h`` the fleet."""
    k = SUPERSAMPLE
    w, h = (radius, radius) if unit_type == "A" else (half_w, half_h)
    pad = max(2.0, 0.25 * h) + (0.45 * h if letter else 0.0)
    size = (math.ceil((w + pad) * 2 * k), math.ceil((h + pad) * 2 * k))
    img = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    cx, cy = size[0] / 2, size[1] / 2
    edge = max(1.0, 0.10 * h) * k
    rim = max(1.0, 0.16 * h) * k
    ww, hh = w * k, h * k
    if unit_type == "A":
        shapes = [(ww + edge, EDGE), (ww, RIM), (ww - rim, colour)]
        for r, fill in shapes:
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(*fill, 255))
        _cannon(draw, cx, cy, ww - rim, ink)
    else:
        for grow, fill in ((edge, EDGE), (0.0, RIM), (-rim, colour)):
            box = (cx - ww - grow, cy - hh - grow, cx + ww + grow, cy + hh + grow)
            draw.rounded_rectangle(box, radius=hh + grow, fill=(*fill, 255))
        _ship(draw, cx, cy, hh - rim, ink)
    if letter:
        br = 0.58 * h * k
        bx, by = cx + ww - 0.35 * br, cy - hh + 0.35 * br
        draw.ellipse((bx - br - edge, by - br - edge, bx + br + edge, by + br + edge), fill=(*EDGE, 255))
        draw.ellipse((bx - br, by - br, bx + br, by + br), fill=(255, 255, 255, 255))
        draw.text((bx, by), letter, font=font(round(1.35 * br), BOLD), fill=(*EDGE, 255), anchor="mm")
    return img.reduce(k)


@lru_cache(maxsize=64)
def center_sprite(fill: RGB, ring: RGB, radius: float) -> Image.Image:
    """A supply-center marker: a disc in the owner's colour inside a dark ring and a white rim."""
    k = SUPERSAMPLE
    size = math.ceil((radius + 2) * 2 * k)
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    c = size / 2
    for r, colour in ((radius + 0.9, RIM), (radius, ring), (radius * 0.66, fill)):
        rr = r * k
        draw.ellipse((c - rr, c - rr, c + rr, c + rr), fill=(*colour, 255))
    dot = radius * 0.22 * k
    draw.ellipse((c - dot, c - dot, c + dot, c + dot), fill=(*ring, 255))
    return img.reduce(k)


@lru_cache(maxsize=64)
def badge_sprite(symbol: str, colour: RGB, radius: float) -> Image.Image:
    """A round badge with a white symbol: '+' (build), '-' (removal), 'x' (cross), '!' (dislodged)."""
    k = SUPERSAMPLE
    size = math.ceil((radius + 2) * 2 * k)
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    c, r = size / 2, radius * k
    draw.ellipse((c - r - k, c - r - k, c + r + k, c + r + k), fill=(255, 255, 255, 255))
    draw.ellipse((c - r, c - r, c + r, c + r), fill=(*colour, 255))
    bar, arm = max(1.0, 0.30 * r), 0.58 * r
    white = (255, 255, 255, 255)
    if symbol in "+-":
        draw.rectangle((c - arm, c - bar / 2, c + arm, c + bar / 2), fill=white)
        if symbol == "+":
            draw.rectangle((c - bar / 2, c - arm, c + bar / 2, c + arm), fill=white)
    elif symbol == "x":
        for sx in (-1, 1):
            pts = [(-arm, -arm), (arm, arm)]
            draw.line([(c + sx * x, c + y) for x, y in pts], fill=white, width=round(bar))
    elif symbol == "!":
        draw.rectangle((c - bar / 2, c - arm, c + bar / 2, c + 0.2 * r), fill=white)
        draw.ellipse((c - bar / 2, c + 0.38 * r, c + bar / 2, c + 0.38 * r + bar), fill=white)
    return img.reduce(k)


@lru_cache(maxsize=16)
def cross_sprite(colour: RGB, radius: float) -> Image.Image:
    """The mark of a failed order: a bold X with a white outline (its shape, not its colour, says it)."""
    k = SUPERSAMPLE
    size = math.ceil((radius + 2) * 2 * k)
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    c, arm = size / 2, radius * k * 0.78
    for width, fill in ((0.62 * radius * k, (255, 255, 255, 255)), (0.34 * radius * k, (*colour, 255))):
        for sx in (-1, 1):
            draw.line((c - arm, c - sx * arm, c + arm, c + sx * arm), fill=fill, width=round(width))
            cap = width / 2
            for x, y in ((c - arm, c - sx * arm), (c + arm, c + sx * arm)):
                draw.ellipse((x - cap, y - cap, x + cap, y + cap), fill=fill)
    return img.reduce(k)


def paste_centred(
    target: Image.Image, sprite: Image.Image, at: tuple[float, float], opacity: float = 1.0
) -> None:
    """Paste an RGBA sprite with its center at ``at`` (pixels)."""
    x = round(at[0] - sprite.width / 2)
    y = round(at[1] - sprite.height / 2)
    if opacity < 1.0:
        alpha = sprite.getchannel("A").point(lambda v: round(v * opacity))
        target.paste(sprite, (x, y), alpha)
    else:
        target.paste(sprite, (x, y), sprite)
