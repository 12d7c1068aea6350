"""The rules engine: map model, order language, adjudication. Pure Python, standard library only."""

from engine.board import Board, BoardError, Dislodged, initial_board
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
from engine.variants import (
    STANDARD,
    CoinFlip,
    PowerInfo,
    UnknownVariant,
    Variant,
    all_variants,
    geometry_file,
    get_variant,
    variant_for_players,
)

__all__ = [
    "STANDARD",
    "Board",
    "BoardError",
    "Build",
    "CoinFlip",
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
    "PowerInfo",
    "Province",
    "Remove",
    "Retreat",
    "SupportHold",
    "SupportMove",
    "Unit",
    "UnknownVariant",
    "Variant",
    "Waive",
    "all_variants",
    "format_order",
    "geometry_file",
    "get_variant",
    "initial_board",
    "load_map",
    "variant_for_players",
]

# The order language (appended; keep below the imports above to avoid import cycles).
from engine.parser import parse_order, split_orders
from engine.validation import read_order, validate_order

__all__ += ["parse_order", "read_order", "split_orders", "validate_order"]

from engine.adjudication import Adjudication, OrderResult, adjudicate, adjudicate_json  # noqa: E402

__all__ += ["Adjudication", "OrderResult", "adjudicate", "adjudicate_json"]

from engine.legal import LegalOrder, LegalOrders, OrderKind, UnitOrders, legal_orders  # noqa: E402

__all__ += ["LegalOrder", "LegalOrders", "OrderKind", "UnitOrders", "legal_orders"]

from engine.entry import accepts, enter_order  # noqa: E402

__all__ += ["accepts", "enter_order"]
