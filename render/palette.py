"""Colours of the map: two palettes (the usual one and a colour-blind-safe one), each power's colours
in them read from its variant's data.

A palette here is the map's own colours: sea, land, lines, labels, the title bar. The powers' colours
come from data/variants/<name>/variant.json only (engine.variants.PowerInfo.colours): each power has
a stronger ``colour`` for its armies, fleets and order arrows, so units stand out on their own
territory, a lighter ``fill`` for the provinces whose supply center it owns, and an ``ink`` for the
glyph on its units; under ``"colorblind"`` the same three for the colour-blind palette. What the data
leaves out is derived by one rule (:func:`power_colours`): the colour-blind palette takes the power's
``colour`` where the variant gives none of its own, the fill is that colour lightened as far as keeps
it apart from the palette's land and sea, the ink white or near-black, whichever contrasts more.
The colour-blind palette also puts each power's initial on its units (``letters_on_units``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from engine.variants import PowerInfo, Variant

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class PowerColours:
    fill: RGB
    unit: RGB
    ink: RGB  # the glyph drawn on a unit icon
    letter: str


@dataclass(frozen=True, slots=True)
class Palette:
    name: str
    sea: RGB
    land: RGB  # land no power owns a center in (and all land without a center)
    island: RGB
    impassable: RGB
    impassable_hatch: RGB
    closed_hatch: RGB  # over provinces a variant closes for a while (neutral Italy), on any fill
    coast_line: RGB
    land_line: RGB
    sea_line: RGB
    label: RGB
    sea_label: RGB
    halo: RGB
    neutral_center: RGB
    center_ring: RGB
    fail: RGB  # the cross on a failed order (the cross's shape is what says "failed")
    title_bg: RGB
    title_text: RGB
    title_dim: RGB
    letters_on_units: bool
    powers: dict[str, PowerColours]  # none in DEFAULT and COLORBLIND: palette_for adds a variant's

    def power(self, name: str) -> PowerColours:
        """The colours of a power; an unknown power (another variant) gets a neutral grey."""
        return self.powers.get(name) or PowerColours((170, 170, 170), (90, 90, 90), (255, 255, 255), name[:1])


_WHITE: RGB = (255, 255, 255)
_INK_DARK: RGB = (25, 25, 25)

DEFAULT = Palette(
    name="default",
    sea=(160, 196, 222),
    land=(238, 229, 207),
    island=(222, 212, 188),
    impassable=(214, 209, 198),
    impassable_hatch=(168, 160, 148),
    closed_hatch=(96, 88, 80),
    coast_line=(66, 84, 104),
    land_line=(92, 84, 76),
    sea_line=(236, 244, 250),
    label=(40, 40, 44),
    sea_label=(36, 72, 108),
    halo=(255, 255, 255),
    neutral_center=(250, 250, 246),
    center_ring=(40, 40, 40),
    fail=(214, 28, 28),
    title_bg=(30, 38, 48),
    title_text=(245, 245, 245),
    title_dim=(168, 178, 190),
    letters_on_units=False,
    powers={},
)

# The colour-blind palette's land and sea are muted, leaving strong hues to the powers (the Standard
# powers' are Okabe & Ito's "Color Universal Design" set, in their variant.json); units carry the
# power's initial.
COLORBLIND = Palette(
    name="colorblind",
    sea=(170, 191, 208),
    land=(240, 236, 226),
    island=(224, 220, 210),
    impassable=(212, 210, 206),
    impassable_hatch=(150, 150, 150),
    closed_hatch=(80, 80, 80),
    coast_line=(60, 66, 74),
    land_line=(80, 80, 80),
    sea_line=(246, 250, 252),
    label=(30, 30, 30),
    sea_label=(40, 60, 80),
    halo=(255, 255, 255),
    neutral_center=(255, 255, 255),
    center_ring=(20, 20, 20),
    fail=(20, 20, 20),
    title_bg=(24, 24, 24),
    title_text=(250, 250, 250),
    title_dim=(180, 180, 180),
    letters_on_units=True,
    powers={},
)

PALETTES: dict[str, Palette] = {p.name: p for p in (DEFAULT, COLORBLIND)}


def get_palette(name: str) -> Palette:
    try:
        return PALETTES[name]
    except KeyError:
        raise ValueError(f"unknown palette {name!r}; choose from {', '.join(PALETTES)}") from None


# --- a variant's own colours ------------------------------------------------------------------------

MANY_POWERS = 7
"""Past this many powers units carry their power's letter whatever the palette: colours alone no
longer tell 10 powers (let alone Chaos's 34, which share 12 colours) apart at a glance."""

FILL_MIN_DISTANCE = 20.0  # CIE76 distance a territory's fill keeps from the unowned land
FILL_MIN_SEA_DISTANCE = 15.0  # and from the sea


def palette_for(variant: Variant, name: str = "default") -> Palette:
    """The palette ``name`` for a game of ``variant``: its land, sea and lines, with each power of
    the variant coloured as its variant.json says for that palette (see :func:`power_colours`)."""
    key = (variant.name, name)
    hit = _VARIANT_PALETTES.get(key)
    if hit is None or hit[0] is not variant:
        base = get_palette(name)
        powers = variant.game_map().powers
        pal = replace(
            base,
            name=f"{name}:{variant.name}",
            letters_on_units=base.letters_on_units or len(powers) > MANY_POWERS,
            powers={code: power_colours(variant.powers.get(code), code, base) for code in powers},
        )
        hit = _VARIANT_PALETTES[key] = (variant, pal)
    return hit[1]


_VARIANT_PALETTES: dict[tuple[str, str], tuple[Variant, Palette]] = {}


def power_colours(info: PowerInfo | None, code: str, palette: Palette) -> PowerColours:
    """A power's colours in ``palette`` (one of :data:`PALETTES`) from its variant.json
    (``info.colours(palette.name)``): the unit colour as given, the fill and the ink as given or else
    derived from the unit colour (:func:`territory_fill` on the palette's land and sea,
    :func:`ink_for`), and its ``letter``. A power the variant does not describe is drawn in grey."""
    given = info.colours(palette.name) if info is not None else None
    unit = hex_rgb(given.unit) if given is not None else (90, 90, 90)
    fill = hex_rgb(given.fill) if given and given.fill else territory_fill(unit, palette.land, palette.sea)
    ink = hex_rgb(given.ink) if given and given.ink else ink_for(unit)
    return PowerColours(fill=fill, unit=unit, ink=ink, letter=info.letter if info is not None else code[:1])


def hex_rgb(text: str) -> RGB:
    """``#D55E00`` -> (213, 94, 0)."""
    value = text.lstrip("#")
    if len(value) != 6:
        raise ValueError(f"not a #rrggbb colour: {text!r}")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


def territory_fill(unit: RGB, land: RGB, sea: RGB) -> RGB:
    """The unit colour mixed with white, as much as keeps it apart from the unowned ``land`` and from
    the ``sea`` (a blue territory must not read as water): the lightest mix at least
    ``FILL_MIN_DISTANCE`` from the land and ``FILL_MIN_SEA_DISTANCE`` from the sea, or else the one
    farthest from both (a pale colour, light grey or sky blue, is mixed less, or not at all)."""
    mixes = [_mix(unit, _WHITE, share) for share in (0.55, 0.45, 0.35, 0.25, 0.15, 0.0)]
    for fill in mixes:
        if delta_e(fill, land) >= FILL_MIN_DISTANCE and delta_e(fill, sea) >= FILL_MIN_SEA_DISTANCE:
            return fill
    return max(mixes, key=lambda fill: min(delta_e(fill, land), delta_e(fill, sea)))


def ink_for(colour: RGB) -> RGB:
    """White or near-black, whichever contrasts more with ``colour`` (WCAG contrast ratio)."""
    lum = relative_luminance(colour)
    on_white = (1.05) / (lum + 0.05)
    on_dark = (lum + 0.05) / (relative_luminance(_INK_DARK) + 0.05)
    return _WHITE if on_white >= on_dark else _INK_DARK


def relative_luminance(colour: RGB) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""

    def lin(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def delta_e(a: RGB, b: RGB) -> float:
    """CIE76 colour difference (Euclidean distance in CIELAB, D65)."""
    la, lb = _lab(a), _lab(b)
    return math.dist(la, lb)


def _lab(colour: RGB) -> tuple[float, float, float]:
    def lin(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return math.cbrt(t) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def _mix(a: RGB, b: RGB, share_of_b: float) -> RGB:
    r, g, bl = (round(x + (y - x) * share_of_b) for x, y in zip(a, b, strict=True))
    return (r, g, bl)
