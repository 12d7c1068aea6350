"""The rules engine: map model, order language, adjudication. Pure Python, standard library only."""

from engine.board import Board, BoardError, Dislodged
from engine.errors import InvalidOrder, OrderError, OrderParseError
from engine.mapdata import GameMap, Province, load_map
from engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
    format_order,
)
from engine.phase import Phase

__all__ = [
    "Board",
    "BoardError",
    "Build",
    "Convoy",
    "Disband",
    "Dislodged",
    "GameMap",
    "Hold",
    "InvalidOrder",
    "Move",
    "Order",
    "OrderError",
    "OrderParseError",
    "Phase",
    "Province",
    "Remove",
    "Retreat",
    "SupportHold",
    "SupportMove",
    "Unit",
    "Waive",
    "format_order",
    "load_map",
]

# The order language (appended; keep below the imports above to avoid import cycles).
from engine.parser import parse_order, split_orders
from engine.validation import read_order, validate_order

__all__ += ["parse_order", "read_order", "split_orders", "validate_order"]

from engine.adjudication import Adjudication, OrderResult, adjudicate, adjudicate_json  # noqa: E402

__all__ += ["Adjudication", "OrderResult", "adjudicate", "adjudicate_json"]

from engine.legal import LegalOrder, LegalOrders, OrderKind, UnitOrders, legal_orders  # noqa: E402

__all__ += ["LegalOrder", "LegalOrders", "OrderKind", "UnitOrders", "legal_orders"]
