"""Plane geometry for order arrows: gentle curves, trimming, points along a path, arrowheads."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

Point = tuple[float, float]


def length(path: Sequence[Point]) -> float:
    return sum(math.dist(a, b) for a, b in itertools.pairwise(path))


def curve(a: Point, b: Point, bend: float = 0.12, steps: int = 16) -> list[Point]:
    """A quadratic curve from ``a`` to ``b`` bowed to the left of the direction of travel.

    Bowing always to the same side keeps two opposite moves (A to B, B to A) apart.
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy)
    if d < 1e-9:
        return [a, b]
    cx = (a[0] + b[0]) / 2 + dy / d * bend * d
    cy = (a[1] + b[1]) / 2 - dx / d * bend * d
    out = []
    for i in range(steps + 1):
        t = i / steps
        u = 1 - t
        out.append(
            (u * u * a[0] + 2 * u * t * cx + t * t * b[0], u * u * a[1] + 2 * u * t * cy + t * t * b[1])
        )
    return out


def through(points: Sequence[Point], steps: int = 10) -> list[Point]:
    """A smooth curve through every point (centripetal-free Catmull-Rom; fine for a few points)."""
    if len(points) < 3:
        return list(points)
    pts = [points[0], *points, points[-1]]
    out: list[Point] = [points[0]]
    for i in range(1, len(pts) - 2):
        p0, p1, p2, p3 = pts[i - 1], pts[i], pts[i + 1], pts[i + 2]
        for s in range(1, steps + 1):
            t = s / steps
            t2, t3 = t * t, t * t * t
            out.append(
                (
                    _catmull_rom(p0[0], p1[0], p2[0], p3[0], t, t2, t3),
                    _catmull_rom(p0[1], p1[1], p2[1], p3[1], t, t2, t3),
                )
            )
    return out


def _catmull_rom(a: float, b: float, c: float, d: float, t: float, t2: float, t3: float) -> float:
    """One coordinate of the segment from ``b`` to ``c`` at ``t`` (``t2``, ``t3``: its powers)."""
    return 0.5 * (2 * b + (-a + c) * t + (2 * a - 5 * b + 4 * c - d) * t2 + (-a + 3 * b - 3 * c + d) * t3)


def trim(path: Sequence[Point], start: float, end: float) -> list[Point]:
    """The part of ``path`` that is at least ``start`` from its beginning and ``end`` from its end
    (measured along it). A path too short to trim that much keeps a short middle piece."""
    total = length(path)
    if total < 1e-9:
        return list(path)
    if start + end > total * 0.9:
        scale = total * 0.9 / (start + end)
        start, end = start * scale, end * scale
    return _cut(path, start, total - end)


def _cut(path: Sequence[Point], a: float, b: float) -> list[Point]:
    out: list[Point] = []
    pos = 0.0
    for p, q in itertools.pairwise(path):
        seg = math.dist(p, q)
        if seg < 1e-12:
            continue
        lo, hi = pos, pos + seg
        if hi >= a and lo <= b:
            t0 = max(0.0, (a - lo) / seg)
            t1 = min(1.0, (b - lo) / seg)
            s = (p[0] + (q[0] - p[0]) * t0, p[1] + (q[1] - p[1]) * t0)
            e = (p[0] + (q[0] - p[0]) * t1, p[1] + (q[1] - p[1]) * t1)
            if not out:
                out.append(s)
            out.append(e)
        pos = hi
    return out or [path[0], path[-1]]


def point_at(path: Sequence[Point], fraction: float) -> Point:
    """The point ``fraction`` (0..1) of the way along ``path``."""
    total = length(path)
    target = total * min(max(fraction, 0.0), 1.0)
    pos = 0.0
    for p, q in itertools.pairwise(path):
        seg = math.dist(p, q)
        if pos + seg >= target and seg > 0:
            t = (target - pos) / seg
            return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)
        pos += seg
    return path[-1]


def arrowhead(
    path: Sequence[Point], head_length: float, head_width: float
) -> tuple[list[Point], list[Point]]:
    """Split off an arrowhead at the end of ``path``: (shaft ending at the head's base, head triangle)."""
    total = length(path)
    head_length = min(head_length, total * 0.6)
    shaft = _cut(path, 0.0, max(total - head_length * 0.8, 0.0))
    tip = path[-1]
    base = point_at(path, max(0.0, (total - head_length) / total)) if total > 0 else tip
    dx, dy = tip[0] - base[0], tip[1] - base[1]
    d = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / d * head_width / 2, dx / d * head_width / 2
    head = [tip, (base[0] + nx, base[1] + ny), (base[0] - nx, base[1] - ny)]
    return shaft, head
