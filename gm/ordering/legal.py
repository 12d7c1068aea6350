"""What a player may order now, unit by unit, for the order sheet ("orders by tap").

:func:`order_menu` answers with an :class:`OrderMenu`: for each of the caller's powers in the open
phase, the engine's :func:`engine.legal.legal_orders` (every order the rules allow each unit, build
site or removal, in menu steps: kinds, targets, choices) and the power's current orders, so that a
menu can show each unit's order beside it. Only the caller's powers, and only their orders: the
rest of the board is public, the others' orders are not.

A chosen order is submitted as its canonical text through the same path as typed orders
(gm.ordering.submission.submit_orders, with the power and the phase the menu was for), so it is
judged, stored, acknowledged and logged exactly as if it had been typed, and may let the phase close
early the same way. The menu is read without locking anything: it only shows what may be chosen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from sqlmodel.ext.asyncio.session import AsyncSession

from engine.legal import LegalOrders, UnitOrders, legal_orders
from engine.mapdata import province_of
from gm.meant_for import ANY_PHASE, MeantFor
from gm.ordering.progress import PhaseState, phase_state
from gm.ordering.required import WAIVE_PREFIX
from gm.ordering.submission import (
    OpenGame,
    OrdersView,
    held_for_reading,
    open_phase_for,
    require_same_game,
    view_of,
)
from gm.reading.fog import board_for

WAIVE_KEY = "*"
"""An :class:`OrderMenu` key ``*FRANCE`` is France's WAIVE (a build given up), which has no unit."""


@dataclass(frozen=True, slots=True)
class PowerMenu:
    """One of the caller's powers: what it may order, and what it has ordered so far."""

    power: str
    legal: LegalOrders
    orders: Mapping[str, str]  # order key (gm.ordering.required) -> canonical text, as submitted
    missing: tuple[str, ...]  # units without orders (``A PAR``), or ``2 builds`` / ``1 removal``

    def current(self, entry: UnitOrders) -> str | None:
        """The order now given to this unit (or build site), if any."""
        return self.orders.get(province_of(entry.location))

    @property
    def waived(self) -> int:
        """How many builds the power has given up so far (WAIVE orders)."""
        return sum(1 for key in self.orders if key.startswith(WAIVE_PREFIX))

    @property
    def waive_key(self) -> str | None:
        """The menu key of the power's WAIVE, when it may waive a build now."""
        return None if self.legal.waive is None else f"{WAIVE_KEY}{self.power}"


@dataclass(frozen=True, slots=True)
class OrderMenu:
    """The caller's powers in the open phase, with their legal and current orders.

    ``view`` is what /orders show says (the phase, the deadline, what is missing). Each unit or
    build site is found by its *key*: its location as the engine writes it (``PAR``, ``STP/SC``, a
    build site's province), or ``*POWER`` for that power's WAIVE.
    """

    view: OrdersView
    powers: tuple[PowerMenu, ...]
    variant: str = "standard"
    game_tag: str = ""  # the game's random tag: a builder carries it (submission.require_same_game)
    # province -> the power whose unit stands there (the board is public): whose unit a support helps
    owners: Mapping[str, str] = field(default_factory=dict)
    # drawn on a fogged player's view: a menu after a write is read again, not made from the write's board
    fogged: bool = False

    @property
    def ready(self) -> bool:
        """Whether every one of the caller's powers has said it is ready."""
        return bool(self.view.powers) and all(p.ready for p in self.view.powers)

    def owner(self, province: str) -> str | None:
        """The power whose unit stands in ``province`` (a location's coast is ignored)."""
        return self.owners.get(province_of(province))

    @property
    def game_id(self) -> int:
        return self.view.game_id

    @property
    def phase_name(self) -> str:
        return self.view.phase.name

    def keys(self) -> list[tuple[PowerMenu, str]]:
        """Every unit, build site and WAIVE the caller may order, power by power, in menu order."""
        found = []
        for power in self.powers:
            found += [(power, entry.location) for entry in power.legal.entries]
            if power.waive_key is not None:
                found.append((power, power.waive_key))
        return found

    def find(self, key: str) -> tuple[PowerMenu, UnitOrders | None] | None:
        """The power and entry of a key (the entry is None for a WAIVE); None when the key names
        nothing the caller may order now."""
        for power in self.powers:
            if key == power.waive_key:
                return power, None
            entry = power.legal.entry(key) if not key.startswith(WAIVE_KEY) else None
            if entry is not None and entry.location == key:
                return power, entry
        return None


async def order_menu(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    *,
    meant_for: MeantFor[str] = ANY_PHASE,
    held: OpenGame | None = None,
) -> OrderMenu:
    """The caller's legal and current orders in the open phase (refused like a submission would be:
    not a player, no power, the phase closed or being adjudicated, not ``meant_for``'s phase, or
    another game than the builder's tag in ``meant_for``). ``held``: the game as the process holds
    it (gm.ordering.current), whose row, phase and seats are then not read again."""
    opened = held_for_reading(held, user_id, meant_for) if held is not None else None
    if opened is None:
        game, _player, powers, phase = await open_phase_for(
            session, game_id, user_id, None, meant_for, lock=False
        )
        player_of = None
    else:
        game, powers, phase, player_of = opened
    require_same_game(game, meant_for)
    state = await phase_state(session, phase, game.variant, player_of=player_of)
    seen = board_for(game, state.board, powers)
    if seen is state.board:
        return menu_of(state, view_of(state, game, phase, powers), powers, game.variant)
    state = replace(state, board=seen)  # the fog of war: what they see
    return replace(menu_of(state, view_of(state, game, phase, powers), powers, game.variant), fogged=True)


def menu_of(state: PhaseState, view: OrdersView, powers: Sequence[str], variant: str) -> OrderMenu:
    """The menu of ``powers`` in ``state`` (a phase's state read or written in a transaction), whose
    ``view`` is the caller's orders: what :func:`order_menu` answers, without reading anything (the
    board as given: a fogged game's caller passes the view, or reads through :func:`order_menu`)."""
    menus = tuple(
        PowerMenu(
            power=power,
            legal=legal_orders(state.board, power),
            orders=dict(state.orders.get(power, {})),
            missing=state.missing(power),
        )
        for power in powers
    )
    owners = {unit.province: power for power, units in state.board.units.items() for unit in units}
    return OrderMenu(view=view, powers=menus, variant=variant, game_tag=view.game_tag, owners=owners)
