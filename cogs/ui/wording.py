"""How orders read in menus: province names, and an order as a short label a player recognises on a
phone (``A PAR → BUR · Burgundy``, ``A PIC → WAL · Wales, by convoy``, ``A MUN → BUR · Germany's``).

Used by the order sheet (cogs.ui.sheet_draw), a game's and a sandbox's.
"""

from __future__ import annotations

from gm.public import GameMap, LegalOrder, OrderKind, OrderMenu, Unit, power_name

COASTS = {"NC": "north coast", "SC": "south coast", "EC": "east coast", "WC": "west coast"}
LABEL_LIMIT = 100  # Discord's limit for a select option's label and description


class Names:
    """Province names for labels: ``BUR · Burgundy``, ``STP/NC · St Petersburg (north coast)``."""

    def __init__(self, the_map: GameMap) -> None:
        self.map = the_map

    def place(self, location: str) -> str:
        code, _, coast = location.partition("/")
        province = self.map.provinces.get(code)
        name = province.name if province is not None else code
        return f"{name} ({COASTS.get(coast, coast)})" if coast else name


def cut(text: str, limit: int = LABEL_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def whose(menu: OrderMenu, unit: Unit) -> str:
    """``France`` for a unit of the caller's France, ``Germany`` for a German one ("" unknown)."""
    owner = menu.owner(unit.province)
    return power_name(owner) if owner else ""


def helped_label(menu: OrderMenu, order: LegalOrder) -> str:
    """What a support or convoy helps, and whose unit it is: ``A MUN → BUR (Germany)``,
    ``A PAR holds (France)``."""
    helped = order.helped
    if helped is None:
        return order.text
    what = f"{helped.text} holds" if order.helped_holds else f"{helped.text} → {order.target}"
    owner = whose(menu, helped)
    return f"{what} ({owner})" if owner else what


def order_label(menu: OrderMenu, order: LegalOrder, names: Names) -> str:
    """The order as it reads on its own (a select showing it, the sheet's lines)."""
    unit = order.unit
    who = unit.text if unit is not None else ""
    kind = order.kind
    if kind == OrderKind.HOLD:
        return f"{who} holds"
    if kind in (OrderKind.MOVE, OrderKind.RETREAT):
        target = order.target or ""
        via = ", by convoy" if order.via_convoy else ""
        return cut(f"{who} → {target} · {names.place(target)}{via}")
    if kind == OrderKind.SUPPORT:
        return cut(f"{who} supports {helped_label(menu, order)}")
    if kind == OrderKind.CONVOY:
        return cut(f"{who} convoys {helped_label(menu, order)}")
    if kind == OrderKind.DISBAND:
        return f"{who} disbands"
    if kind == OrderKind.REMOVE:
        return f"Remove {who}"
    if kind == OrderKind.BUILD and unit is not None:
        what = "an army" if unit.type == "A" else "a fleet"
        return cut(f"Build {what} in {names.place(unit.location)} ({unit.text})")
    if kind == OrderKind.WAIVE:
        return "Waive a build"
    return order.text
