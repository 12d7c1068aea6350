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

VARIANTS_DIR = DATA_DIR / "variants"
STANDARD = "standard"

SUPPORTED_RULES: frozenset[str] = frozenset()
"""The rule switches the engine implements (see each one's docstring in engine.rules)."""

_OPEN: frozenset[str] = frozenset()
_SEASONS = {"S": "Spring", "F": "Fall", "W": "Winter"}

Seats = tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class PowerInfo:
    """How a power is named and drawn: ``name`` (Austria), ``adjective`` (Austrian), ``letter`` (on
    its units), ``colour`` (#rrggbb) and its home centers."""

    code: str
    name: str
    adjective: str
    letter: str
    colour: str
    home_centers: tuple[str, ...] = ()


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
        """"Italy is neutral until Spring 1915": what closes the territory, and until when."""
        who = " and ".join(p.title() for p in self.neutral) or "This territory"
        opens = self.open_from
        if opens is None:
            return f"{who} is neutral"
        return f"{who} is neutral until {_SEASONS[opens.season]} {opens.year}"


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


def _read_variant(folder: Path) -> Variant:
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
            variant = _read_variant(folder)
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
    return variant


def game_map(variant_name: str) -> GameMap:
    """The map a game of variant ``variant_name`` is played on."""
    return get_variant(variant_name).game_map()
