"""The playable set-ups: which map, how many players, who holds which powers, the victory target, and
the special events of a variant. A game's ``variant`` column names one of these.

- ``standard``: the Standard map for 7 players, and the rulebook's "Alternate way to play" for fewer:
  six (Italy neutral), five (Italy and Germany neutral), four (England alone; Austria/France,
  Germany/Turkey, Italy/Russia) and three (England/Germany/Austria, Russia/Italy, France/Turkey). A
  neutral power is held by nobody and treated as in civil disorder: its units hold, may be supported
  by anyone, are disbanded when dislodged, and it never builds.
- ``ww1914``: the two-player World War I game: England/France/Russia against Austria/Germany/Turkey,
  Italy neutral and closed, the game begins in 1914, 24 centers win, and before the Fall 1914
  adjustments a coin decides which side Italy joins in Spring 1915.

Rules the adjudicator must enforce (Italian territory closed, the 1914 start) live in the engine's
``engine.variants``; a gm variant names the engine variant it is played under (``engine_variant``,
written in every board's JSON) and gm asks for its rules through :func:`engine_rules`. The interface
gm relies on::

    engine.variants.VARIANTS: Mapping[str, object]   # the variant names the engine knows
    engine.variants.initial_board(name: str) -> engine.Board
        # the opening position (phase S1914M for ww1914), with ``board.variant == name``;
        # engine.read_order and engine.adjudicate honour ``board.variant`` (no unit enters Italy)

A variant with ``engine_rules_required`` cannot be created while the engine does not know it: gm
refuses it (:class:`gm.errors.InvalidSettings`) rather than play it by the standard rules. What stays
gm's business: the seats, the victory target passed to the adjudicator, and the coin flip (who gets
Italy), since the engine only knows that Italy's territory opens in Spring 1915.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType

from engine import Board, GameMap, Phase, load_map

STANDARD = "standard"
WW1914 = "ww1914"


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
    name: str
    title: str
    map_name: str
    seats: Mapping[int, tuple[tuple[str, ...], ...]]  # players -> the seats (powers held by one player)
    victory_centers: int | None = None  # None: the map's own target
    coin_flip: CoinFlip | None = None
    engine_rules_required: bool = False  # closed provinces or another start: engine.variants must know it
    start_year: int | None = None  # None: the map's own start
    engine_variant: str = STANDARD  # the rules the engine plays (the boards' "variant")
    description: str = ""

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(self.seats))

    def game_map(self) -> GameMap:
        return load_map(self.map_name)

    def seats_for(self, players: int) -> tuple[tuple[str, ...], ...]:
        """The seats for ``players`` players; KeyError when the variant is not played by that many."""
        return self.seats[players]

    def neutral_powers(self, players: int) -> tuple[str, ...]:
        """The powers nobody holds at the start with ``players`` players."""
        seated = {p for seat in self.seats_for(players) for p in seat}
        return tuple(p for p in self.game_map().powers if p not in seated)

    def first_year(self) -> int:
        if self.start_year is not None:
            return self.start_year
        return Phase.parse(self.game_map().start_phase).year

    def target(self) -> int:
        return self.victory_centers if self.victory_centers is not None else self.game_map().victory_centers

    def initial_board(self) -> Board:
        """The opening position: the engine's, for variants with rules of their own."""
        if self.engine_rules_required:
            rules = engine_rules(self.engine_variant)
            if rules is None:
                raise LookupError(f"the engine does not support the {self.name} variant yet")
            board: Board = rules.initial_board(self.engine_variant)
            return board
        return Board.initial(self.game_map(), variant=self.engine_variant)

    def playable(self) -> bool:
        return not self.engine_rules_required or engine_rules(self.engine_variant) is not None


def _every_power_a_seat(game_map: GameMap) -> tuple[tuple[str, ...], ...]:
    return tuple((power,) for power in game_map.powers)


def _standard() -> Variant:
    seven = _every_power_a_seat(load_map(STANDARD))
    return Variant(
        name=STANDARD,
        title="Standard",
        map_name=STANDARD,
        seats={
            7: seven,
            6: tuple(s for s in seven if s != ("ITALY",)),
            5: tuple(s for s in seven if s not in (("ITALY",), ("GERMANY",))),
            4: (("ENGLAND",), ("AUSTRIA", "FRANCE"), ("GERMANY", "TURKEY"), ("ITALY", "RUSSIA")),
            3: (("ENGLAND", "GERMANY", "AUSTRIA"), ("RUSSIA", "ITALY"), ("FRANCE", "TURKEY")),
        },
        description="The Standard map: 7 players, or 3 to 6 by the rulebook's alternate way to play.",
    )


def _ww1914() -> Variant:
    allies = ("ENGLAND", "FRANCE", "RUSSIA")
    central = ("AUSTRIA", "GERMANY", "TURKEY")
    return Variant(
        name=WW1914,
        title="World War I (two players)",
        map_name=STANDARD,
        seats={2: (allies, central)},
        victory_centers=24,
        coin_flip=CoinFlip(power="ITALY", sides=(allies, central), flip_after_year=1914, joins_in_year=1915),
        engine_rules_required=True,
        engine_variant=WW1914,
        start_year=1914,
        description=(
            "Two players from 1914: England/France/Russia against Austria/Germany/Turkey; Italy is "
            "neutral and closed until a coin flip gives it to one side in 1915; 24 centers win."
        ),
    )


_REGISTRY: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    """Make a variant available to games (the built-in ones are registered on import)."""
    _REGISTRY[variant.name] = variant
    return variant


register(_standard())
register(_ww1914())


def get_variant(name: str) -> Variant:
    """The variant called ``name``; a map without a registered variant is played with every power a seat.

    KeyError (from engine.load_map's ValueError) when there is no such variant or map.
    """
    known = _REGISTRY.get(name)
    if known is not None:
        return known
    try:
        game_map = load_map(name)
    except ValueError:
        raise KeyError(name) from None
    seats = {len(game_map.powers): _every_power_a_seat(game_map)}
    return Variant(name=name, title=game_map.title, map_name=name, seats=seats, engine_variant=name)


def game_map(variant_name: str) -> GameMap:
    """The map a game of ``variant_name`` is played on."""
    return get_variant(variant_name).game_map()


def variants() -> tuple[Variant, ...]:
    """Every registered variant, for the adapters' choices."""
    return tuple(_REGISTRY.values())


def variant_for_players(players: int) -> Variant | None:
    """The registered variant played by exactly ``players`` players, preferring the standard one."""
    standard = _REGISTRY[STANDARD]
    if players in standard.seats:
        return standard
    return next((v for v in _REGISTRY.values() if players in v.seats), None)


def engine_rules(name: str) -> ModuleType | None:
    """``engine.variants`` when it exists and knows ``name``, else None (see the module docstring)."""
    try:
        module = importlib.import_module("engine.variants")
    except ImportError:
        return None
    known = getattr(module, "VARIANTS", {})
    return module if name in known and hasattr(module, "initial_board") else None
