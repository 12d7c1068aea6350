"""The variants: one folder each under data/variants/<name>/, read here and nowhere else.

A folder holds ``variant.json`` (title, which map and drawing, first phase, victory target, the seats
for each number of players, the powers' names, letters and colours, closed territory, a coin flip,
and the rule switches the variant needs), and, unless it borrows them from another variant (``"map":
"standard"``), ``map.json`` (the board's facts, engine.mapdata) and ``geometry.json`` (the drawing,
render.geometry), with a ``NOTICE.txt`` crediting their source. gm, render and the adapters all ask
this registry; adding a variant is adding a folder (plus a rule hook when it needs a new rule).

A board names its variant (``Board.variant``, the JSON's ``"variant"``); the adjudicator reads the
rules from the :class:`Variant` of that name. Closed provinces are a property of a phase:
:meth:`Variant.closed_at` gives the set for one phase (the two-player 1914 game closes Italy until
Spring 1915), and ``Board.closed`` holds it for the board's phase.

Rule switches (``rules`` in variant.json) are named options the engine either implements
(:data:`SUPPORTED_RULES`) or not: a variant asking for a switch the engine does not know is listed
but not playable (:meth:`Variant.playable`), so it is never played by the wrong rules.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from engine.mapdata import DATA_DIR, GameMap, load_map
from engine.phase import Phase
from engine.rules import STANDARD_RULES, SUPPORTED, Switches, read_switches

VARIANTS_DIR = DATA_DIR / "variants"
STANDARD = "standard"

SUPPORTED_RULES: frozenset[str] = SUPPORTED
"""The rule switches the engine implements (see each one in engine.rules)."""

_OPEN: frozenset[str] = frozenset()
_SEASONS = {"S": "Spring", "F": "Fall", "W": "Winter"}

Seats = tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class Colours:
    """How a power is drawn in one palette, as #rrggbb: ``unit`` for its units, order arrows and
    title-bar chip; ``fill`` for the provinces whose centers it owns and ``ink`` for the glyph on its
    units, or None where the renderer derives them from ``unit`` (render.palette)."""

    unit: str
    fill: str | None = None
    ink: str | None = None


DEFAULT_PALETTE = "default"
PALETTES: tuple[str, ...] = (DEFAULT_PALETTE, "colorblind")
"""The palettes a variant.json may colour its powers for: a power's ``colour``, ``fill`` and ``ink``
are its default palette's; an object under another palette's name (``"colorblind": {"colour": ...,
"fill": ..., "ink": ...}``) gives its colours in that one."""


@dataclass(frozen=True, slots=True)
class PowerInfo:
    """How a power is named and drawn: ``name`` (Austria), ``adjective`` (Austrian), ``letter`` (on
    its units), ``colour`` (#rrggbb, its units' in the default palette), its home centers, and its
    colours in each palette its variant.json colours it for (``palettes``, see :meth:`colours`)."""

    code: str
    name: str
    adjective: str
    letter: str
    colour: str
    home_centers: tuple[str, ...] = ()
    palettes: Mapping[str, Colours] = field(default_factory=dict)

    def colours(self, palette: str = DEFAULT_PALETTE) -> Colours:
        """The power's colours in ``palette``: those its variant.json gives for that palette, else
        its ``colour`` alone (the renderer derives the fill and the ink for that palette's land)."""
        return self.palettes.get(palette) or Colours(self.colour)


@dataclass(frozen=True, slots=True)
class CoinFlip:
    """A power left neutral at the start that joins one of two seats, decided by a coin.

    The coin is flipped once the Fall turn of ``flip_after_year`` is over (before that winter's
    adjustments); the winning seat takes the power over from Spring of ``joins_in_year``.
    """

    power: str
    sides: tuple[tuple[str, ...], tuple[str, ...]]  # the seats that may win it, heads first
    flip_after_year: int
    joins_in_year: int

    def flip_due(self, next_phase: str) -> bool:
        """True once play has gone past the Fall turn of ``flip_after_year``."""
        nxt = Phase.parse(next_phase)
        return nxt.year > self.flip_after_year or (nxt.year == self.flip_after_year and nxt.kind == "A")

    def join_due(self, next_phase: str) -> bool:
        return Phase.parse(next_phase).year >= self.joins_in_year


@dataclass(frozen=True, slots=True)
class Variant:
    """A playable set-up: the map it is played on and how it differs from that map's own set-up."""

    name: str
    title: str
    map_name: str  # the folder whose map.json the variant is played on
    geometry_name: str = STANDARD  # the folder whose geometry.json draws it
    description: str = ""
    start_phase: str | None = None  # None: the map's own first phase
    victory_centers: int | None = None  # None: the map's own target
    seats: Mapping[int, Seats] = field(default_factory=dict)  # players -> the seats; {}: every power one
    closed: frozenset[str] = _OPEN  # provinces no unit may enter ...
    open_from: Phase | None = None  # ... before this phase (e.g. S1915M); None: always
    neutral: tuple[str, ...] = ()  # powers whose units only hold while the provinces are closed
    coin_flip: CoinFlip | None = None
    rules: Mapping[str, Any] = field(default_factory=dict)  # rule switch -> its setting
    powers: Mapping[str, PowerInfo] = field(default_factory=dict)
    start_units: Mapping[str, tuple[str, ...]] | None = None  # None: the map's own
    start_centers: Mapping[str, tuple[str, ...]] | None = None
    switches: Switches = field(init=False, repr=False, compare=False)  # ``rules`` as the engine reads them

    def __post_init__(self) -> None:
        object.__setattr__(self, "switches", read_switches(self.rules) if self.rules else STANDARD_RULES)

    def game_map(self) -> GameMap:
        return load_map(self.map_name)

    def first_phase(self) -> Phase:
        return Phase.parse(self.start_phase or self.game_map().start_phase)

    def first_year(self) -> int:
        return self.first_phase().year

    def target(self, game_map: GameMap | None = None) -> int:
        """The number of supply centers that wins."""
        if self.victory_centers is not None:
            return self.victory_centers
        return (game_map or self.game_map()).victory_centers

    # --- seats ------------------------------------------------------------------------------------

    def all_seats(self) -> Mapping[int, Seats]:
        """players -> seats; a variant that names none is played with every power a seat."""
        if self.seats:
            return self.seats
        powers = self.game_map().powers
        return {len(powers): tuple((p,) for p in powers)}

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(self.all_seats()))

    def seats_for(self, players: int) -> Seats:
        """The seats for ``players`` players; KeyError when the variant is not played by that many."""
        return self.all_seats()[players]

    def neutral_powers(self, players: int) -> tuple[str, ...]:
        """The powers nobody holds at the start with ``players`` players."""
        seated = {p for seat in self.seats_for(players) for p in seat}
        return tuple(p for p in self.game_map().powers if p not in seated)

    def power_name(self, code: str) -> str:
        info = self.powers.get(code)
        return info.name if info is not None else code.title()

    def power_code(self, text: str) -> str | None:
        """The power ``text`` names: its code, name or adjective in any case, spaces and dots
        ignored (``St. Petersburg``, ``stpetersburg``, ``Japanese``); None for no power."""
        key = _squashed(text)
        if not key:
            return None
        table = self._power_table()
        return table.get(key)

    def _power_table(self) -> dict[str, str]:
        hit = _POWER_TABLES.get(self.name)
        if hit is not None and hit[0] is self:
            return hit[1]
        table: dict[str, str] = {}
        for code in self.game_map().powers:
            info = self.powers.get(code)
            for text in (code, *((info.name, info.adjective) if info else ())):
                table.setdefault(_squashed(text), code)
        _POWER_TABLES[self.name] = (self, table)
        return table

    # --- rules ------------------------------------------------------------------------------------

    def unsupported_rules(self) -> tuple[str, ...]:
        return tuple(sorted(set(self.rules) - SUPPORTED_RULES))

    def playable(self) -> bool:
        """Whether the engine implements every rule switch the variant asks for."""
        return not self.unsupported_rules()

    def closed_at(self, phase: Phase) -> frozenset[str]:
        """The provinces no unit may enter in ``phase`` (empty when nothing is closed then)."""
        if not self.closed:
            return _OPEN
        if self.open_from is not None and phase.sort_key() >= self.open_from.sort_key():
            return _OPEN
        return self.closed

    def closure_reason(self) -> str:
        """Why no unit may enter a closed province: "Italy is neutral until Spring 1915: ..."."""
        return f"{self.neutral_until()}: its territory cannot be entered"

    def neutral_reason(self) -> str:
        """Why a neutral power's orders are refused while its territory is closed."""
        return f"{self.neutral_until()}: its units hold"

    def neutral_until(self) -> str:
        """ "Italy is neutral until Spring 1915": what closes the territory, and until when."""
        who = " and ".join(p.title() for p in self.neutral) or "This territory"
        opens = self.open_from
        if opens is None:
            return f"{who} is neutral"
        return f"{who} is neutral until {_SEASONS[opens.season]} {opens.year}"


_POWER_TABLES: dict[str, tuple[Variant, dict[str, str]]] = {}


def _squashed(text: str) -> str:
    """``St. Petersburg`` -> ``STPETERSBURG``: a power's name as its code is spelt."""
    return "".join(ch for ch in str(text).upper() if ch.isalnum())


class UnknownVariant(ValueError):
    """A variant name the engine does not know."""


def get_variant(name: str) -> Variant:
    """The variant called ``name``; UnknownVariant (a ValueError) naming the known ones otherwise."""
    hit = VARIANTS.get(name)
    if hit is None:
        raise UnknownVariant(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}")
    return hit


def all_variants() -> tuple[Variant, ...]:
    """Every variant: the Standard one first, then the folders' by title, then those built in code."""
    return tuple(
        sorted(
            VARIANTS.values(),
            key=lambda v: (v.name != STANDARD, v.name in _IN_CODE, v.title.casefold()),
        )
    )


def variant_for_players(players: int) -> Variant | None:
    """The playable variant played by exactly ``players`` players, preferring the Standard one."""
    return next((v for v in all_variants() if v.playable() and players in v.player_counts), None)


def geometry_file(name: str) -> Path:
    """The geometry.json that draws map or variant ``name`` (a variant may borrow another's)."""
    variant = VARIANTS.get(name)
    folder = variant.geometry_name if variant is not None else name
    return VARIANTS_DIR / folder / "geometry.json"


# --- reading the folders --------------------------------------------------------------------------


def _power_palettes(power: Mapping[str, Any]) -> Mapping[str, Colours]:
    """A power's colours by palette: its own ``colour``/``fill``/``ink`` for the default palette,
    and an object of the same three under another palette's name (:data:`PALETTES`)."""
    out = {}
    for palette in PALETTES:
        given = power if palette == DEFAULT_PALETTE else power.get(palette)
        if given and given.get("colour"):
            out[palette] = Colours(str(given["colour"]), given.get("fill"), given.get("ink"))
    return MappingProxyType(out)


def read_variant(folder: Path) -> Variant:
    """The variant of one folder (its variant.json), as the registry reads it at import."""
    raw = json.loads((folder / "variant.json").read_text(encoding="utf-8"))
    name = str(raw.get("name") or folder.name)
    if name != folder.name:
        raise ValueError(f"{folder / 'variant.json'}: name {name!r} is not its folder's")
    map_name = folder.name if raw.get("map", "map.json") == "map.json" else str(raw["map"])
    own_drawing = raw.get("geometry", "geometry.json") == "geometry.json"
    geometry = folder.name if own_drawing else str(raw["geometry"])
    closed = raw.get("closed") or {}
    flip = raw.get("coin_flip")
    start = raw.get("start") or {}
    return Variant(
        name=name,
        title=str(raw.get("title") or name),
        map_name=map_name,
        geometry_name=geometry,
        description=str(raw.get("description") or ""),
        start_phase=raw.get("start_phase"),
        victory_centers=raw.get("victory_centers"),
        seats=MappingProxyType(
            {int(n): tuple(tuple(seat) for seat in seats) for n, seats in (raw.get("seats") or {}).items()}
        ),
        closed=frozenset(closed.get("provinces", ())),
        open_from=Phase.parse(closed["until"]) if closed.get("until") else None,
        neutral=tuple(closed.get("neutral", ())),
        coin_flip=CoinFlip(
            power=flip["power"],
            sides=(tuple(flip["sides"][0]), tuple(flip["sides"][1])),
            flip_after_year=int(flip["flip_after_year"]),
            joins_in_year=int(flip["joins_in_year"]),
        )
        if flip
        else None,
        rules=MappingProxyType(dict(raw.get("rules") or {})),
        powers=MappingProxyType(
            {
                code: PowerInfo(
                    code=code,
                    name=str(p.get("name") or code.title()),
                    adjective=str(p.get("adjective") or p.get("name") or code.title()),
                    letter=str(p.get("letter") or code[:1]),
                    colour=str(p.get("colour") or "#aaaaaa"),
                    home_centers=tuple(p.get("home_centers", ())),
                    palettes=_power_palettes(p),
                )
                for code, p in (raw.get("powers") or {}).items()
            }
        ),
        start_units=MappingProxyType({p: tuple(u) for p, u in start["units"].items()})
        if "units" in start
        else None,
        start_centers=MappingProxyType({p: tuple(c) for p, c in start["centers"].items()})
        if "centers" in start
        else None,
    )


def _all_variants() -> dict[str, Variant]:
    found = {}
    for folder in sorted(VARIANTS_DIR.iterdir()):
        if (folder / "variant.json").is_file():
            variant = read_variant(folder)
            found[variant.name] = variant
    return found


_REGISTRY: dict[str, Variant] = _all_variants()
VARIANTS: Mapping[str, Variant] = MappingProxyType(_REGISTRY)
"""Every variant by name: the folders under data/variants, and any :func:`register` added."""


_IN_CODE: set[str] = set()


def register(variant: Variant) -> Variant:
    """Make a variant built in code known (tests; the folders are the way to add a real one)."""
    _REGISTRY[variant.name] = variant
    _IN_CODE.add(variant.name)
    _PORTS.clear()
    return variant


def unregister(name: str) -> None:
    """Forget a variant :func:`register` made known (a test's clean-up: the registry is the process's,
    so a test variant left behind would be seen by every later test of that process)."""
    if name in _IN_CODE:
        del _REGISTRY[name]
        _IN_CODE.discard(name)
        _PORTS.clear()


_PORTS: dict[str, frozenset[str]] = {}


def convoy_ports(map_name: str) -> frozenset[str]:
    """The provinces of map ``map_name`` where a fleet convoys as if at sea (the ``convoy_ports``
    switch, engine.rules): those of every variant played on the map, as a port is a fact of the
    board. Empty for most maps."""
    hit = _PORTS.get(map_name)
    if hit is None:
        hit = frozenset().union(
            *(v.switches.convoy_ports for v in _REGISTRY.values() if v.map_name == map_name)
        )
        _PORTS[map_name] = hit
    return hit


def read_power(variant_name: str, text: str) -> str:
    """The code of the power ``text`` names in variant ``variant_name`` (its code, name or adjective,
    as Variant.power_code reads them); otherwise ``text`` upper-cased, for the caller to refuse."""
    variant = VARIANTS.get(variant_name)
    found = variant.power_code(text) if variant is not None else None
    return found or str(text).strip().upper()


def power_display_name(code: str) -> str:
    """How a power is named to players (``St Petersburg`` for Chaos's STPETERSBURG), read from the
    variant that has it (every variant names a code the same way); ``code`` capitalised otherwise."""
    for variant in _REGISTRY.values():
        info = variant.powers.get(code)
        if info is not None:
            return info.name
    return str(code).capitalize()


def game_map(variant_name: str) -> GameMap:
    """The map a game of variant ``variant_name`` is played on."""
    return get_variant(variant_name).game_map()
