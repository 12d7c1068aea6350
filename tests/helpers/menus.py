"""Order menus and crowded boards for the order builder's and the sheet's screen tests."""

from __future__ import annotations

from datetime import UTC, datetime

from engine import Board
from engine.legal import legal_orders
from engine.variants import game_map
from gm.ordering.legal import OrderMenu, PowerMenu
from gm.ordering.submission import OrdersView, PowerOrders
from gm.reading.info import PhaseInfo


def menu_of(board: Board, powers: list[str], variant: str) -> OrderMenu:
    phase = PhaseInfo(
        1,
        1,
        0,
        str(board.phase),
        board.phase.long_name,
        board.phase.kind,
        "open",
        datetime(2030, 1, 1, tzinfo=UTC),
    )
    view = OrdersView(
        1,
        "A game with a name as long as a game name may be, or nearly" * 2,
        phase,
        tuple(PowerOrders(p, (), (), False) for p in powers),
    )
    menus = tuple(PowerMenu(p, legal_orders(board, p), {}, ()) for p in powers)
    return OrderMenu(view, menus, variant)


def every_order(menu: OrderMenu) -> set[str]:
    return {legal.text for power in menu.powers for legal in power.legal}


def crowded(variant: str, power: str, *, fleets_at_sea: bool) -> Board:
    """``power`` on every land province (armies) and, when asked, every sea (fleets); others nowhere."""
    the_map = game_map(variant)
    units = []
    for code, province in sorted(the_map.provinces.items()):
        if province.is_land:
            units.append(f"A {code}")
        elif fleets_at_sea:
            units.append(f"F {code}")
    data = Board.initial(the_map, variant=variant).to_json()
    data["units"] = {power: units}
    return Board.from_json(data, the_map)
