"""Sizes and positions in pixels for a picture of a given width.

Everything scales with the width, so a map rendered at 800 px is the 1600 px one shrunk. Sizes are
chosen in map units (the Standard map is 628 units wide) to fit the smallest provinces (Holland,
Belgium, Denmark) and to stay legible on a phone when the 1600 px picture fills its screen.
"""

from __future__ import annotations

from dataclasses import dataclass

from render.geometry import MapGeometry, Point

MIN_WIDTH, MAX_WIDTH = 320, 4000

# In map units.
ARMY_RADIUS = 5.3
FLEET_HALF_WIDTH = 7.4
FLEET_HALF_HEIGHT = 4.9
CENTER_RADIUS = 2.5
LABEL_SIZE = 5.6
LABEL_HALO = 0.55
COAST_LINE = 0.9
LAND_LINE = 0.6
SEA_LINE = 0.5
ARROW_WIDTH = 1.45
ARROW_HEAD_LENGTH = 5.4
ARROW_HEAD_WIDTH = 5.6
SUPPORT_WIDTH = 1.05
DISLODGED_OFFSET = (7.2, -6.6)  # up and to the right: names sit below the spots
BADGE_RADIUS = 3.0  # the +, - and ! badges at a unit's upper right
TITLE_HEIGHT = 27.0
FOOTER_HEIGHT = 7.0
# A move between neighbours this far apart, both this close to an edge of the map (Youngstown's
# off-board boxes), goes off the map's edge and comes in at another (render.orders), as do a variant's
# special crossings (1900's Cape of Good Hope)
WRAP_DISTANCE = 300.0
WRAP_EDGE = 60.0
CROSSING_NOTE_OFFSET = 14.0  # a note at the map's edge keeps this far from where moves cross it
LEGEND_ROW = 11.0  # one row of the powers' legend under the map (variants with many powers)


def badge_offset(unit_type: str | None) -> Point:
    """Where a unit's badge sits, from the unit's center: at its upper right."""
    if unit_type == "F":
        return (FLEET_HALF_WIDTH * 0.9, -FLEET_HALF_HEIGHT * 0.95)
    return (ARMY_RADIUS * 0.85, -ARMY_RADIUS * 0.85)


@dataclass(frozen=True, slots=True)
class Layout:
    width: int
    scale: float  # pixels per map unit
    title_height: int
    map_height: int
    footer_height: int
    legend_height: int = 0  # the band under the map naming each power (render.legend), when there is one

    @classmethod
    def for_width(cls, width: int, geometry: MapGeometry) -> Layout:
        if not MIN_WIDTH <= width <= MAX_WIDTH:
            raise ValueError(f"width must be between {MIN_WIDTH} and {MAX_WIDTH} pixels, not {width}")
        scale = width / geometry.width
        return cls(
            width=width,
            scale=scale,
            title_height=round(TITLE_HEIGHT * scale),
            map_height=round(geometry.height * scale),
            footer_height=max(12, round(FOOTER_HEIGHT * scale)),
        )

    @property
    def height(self) -> int:
        return self.title_height + self.map_height + self.legend_height + self.footer_height

    @property
    def footer_top(self) -> int:
        return self.title_height + self.map_height + self.legend_height

    def px(self, p: Point) -> Point:
        """Map units -> pixels in the whole picture (below the title bar)."""
        return (p[0] * self.scale, p[1] * self.scale + self.title_height)

    def map_px(self, p: Point) -> Point:
        """Map units -> pixels in the map area alone (for the cached base layers)."""
        return (p[0] * self.scale, p[1] * self.scale)

    def size(self, units: float) -> float:
        return units * self.scale
