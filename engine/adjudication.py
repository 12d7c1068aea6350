"""Adjudicating one phase: orders in, results and the next board out.

``adjudicate(board, orders)`` resolves the phase the board is in (movement, retreats or
adjustments), reports every order line with a status and a reason, and returns the board at the
start of the next phase. ``adjudicate_json`` is the same over the engine's JSON contract
(docs/ARCHITECTURE.md, "The engine's contract"); the CLI (``python -m engine adjudicate``) is a thin
wrapper over it.

Phase sequence: a phase with nothing to do is skipped. A retreat phase follows a movement phase
only when some dislodged unit has somewhere to go; an adjustment phase follows the fall only when
some power builds or removes. Supply centers change hands at the end of the fall turn: after the
fall movement when no retreat phase follows, otherwise after the fall retreats. A power that
then owns the variant's target number of centers wins, and the game has no next phase.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, NamedTuple, NotRequired, TypedDict

from engine.adjudicator import explain
from engine.adjudicator.adjustments import adjustment_counts, check_adjustment_order, resolve_adjustments
from engine.adjudicator.convoys import BoardConvoys, convoying_fleets, sea_graph
from engine.adjudicator.intake import Line, OrderLines, read_orders
from engine.adjudicator.legality import check_movement_order, check_retreat_order
from engine.adjudicator.movement import MovementResolver
from engine.adjudicator.retreats import dislodged_units, resolve_retreats
from engine.board import Board, BoardError, Dislodged, DislodgedJSON, describe_json
from engine.mapdata import province_of
from engine.names import suggestion_budget
from engine.orders import (
    FORMATTERS,
    AdjustmentOrder,
    Build,
    Disband,
    Hold,
    Order,
    Remove,
    Unit,
    Waive,
    format_order,
    shared_unit,
)
from engine.phase import Phase

SUCCEEDED = explain.SUCCEEDED
FAILED = explain.FAILED
INVALID = explain.INVALID


class OrderResultJSON(TypedDict):
    power: str
    input: str | None
    order: str | None  # canonical text
    status: str
    reason: str


class AdjudicationJSON(TypedDict):
    """The contract's output object (docs/ARCHITECTURE.md), as :meth:`Adjudication.to_json` writes it."""

    variant: NotRequired[str]  # only when not "standard"
    phase: str
    next_phase: str | None
    orders: list[OrderResultJSON]
    units: dict[str, list[str]]  # the next board's
    centers: dict[str, list[str]]
    dislodged: dict[str, dict[str, DislodgedJSON]]  # power -> unit text -> its entry
    adjustments: dict[str, int]
    winner: str | None


class OrderResult(NamedTuple):
    """One order line's outcome. ``input`` is None for default orders and civil-disorder removals."""

    power: str
    input: str | None
    order: Order | None
    status: str  # "succeeded" | "failed" | "invalid"
    reason: str

    def to_json(self) -> OrderResultJSON:
        return {
            "power": self.power,
            "input": self.input,
            "order": None if self.order is None else format_order(self.order),
            "status": self.status,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Adjudication:
    """The outcome of one phase.

    ``board`` is the position at the start of ``next_phase`` (its ``phase`` is that phase; when
    the game is won, ``next_phase`` is None and ``board.phase`` is where play would have gone).
    ``dislodged`` lists the units dislodged in a movement phase, with their retreat options
    (empty when they have nowhere to go and were destroyed). ``adjustments`` gives builds (+) and
    removals (-) for the coming adjustment phase, if that is next.
    """

    phase: Phase
    next_phase: Phase | None
    results: tuple[OrderResult, ...]
    board: Board
    dislodged: dict[str, tuple[Dislodged, ...]] = field(default_factory=dict)
    adjustments: dict[str, int] = field(default_factory=dict)
    winner: str | None = None

    def to_json(self) -> AdjudicationJSON:
        """The contract's output object (docs/ARCHITECTURE.md, "The engine's contract")."""
        state = self.board.to_json()
        out: AdjudicationJSON = {
            "phase": str(self.phase),
            "next_phase": None if self.next_phase is None else str(self.next_phase),
            "orders": [
                {
                    "power": r.power,
                    "input": r.input,
                    "order": None if r.order is None else FORMATTERS[type(r.order)](r.order),
                    "status": r.status,
                    "reason": r.reason,
                }
                for r in self.results
            ],  # OrderResult.to_json and format_order for each, written out: two calls fewer a line
            "units": state["units"],
            "centers": state["centers"],
            "dislodged": {
                power: {
                    d.unit.text: {"attacker_from": d.attacker_from, "retreats": list(d.retreats)}
                    for d in entries
                }
                for power, entries in sorted(self.dislodged.items())
                if entries
            },
            "adjustments": dict(sorted(self.adjustments.items())),
            "winner": self.winner,
        }
        if self.board.variant != "standard":
            out = {"variant": self.board.variant, **out}
        return out


def adjudicate(
    board: Board,
    orders: OrderLines,
    *,
    civil_disorder: Collection[str] = frozenset(),
    victory_centers: int | None = None,
) -> Adjudication:
    """Resolve the phase ``board`` is in.

    ``orders`` maps each power to its order lines (text in any notation, or Order objects; a single
    string is split into lines). Powers in ``civil_disorder`` have their lines ignored: their
    units hold, their dislodged units disband, and their removals follow the civil-disorder rule.
    ``victory_centers`` overrides the variant's target (18 on the Standard map, 24 in ww1914).
    Never raises for bad orders: every line comes back with a status and a reason.
    """
    cd = frozenset(p.upper() for p in civil_disorder)
    target = victory_centers if victory_centers is not None else board.rules.target(board.game_map)
    kind = board.phase.kind
    if kind == "M":
        return _movement(board, orders, cd, target)
    if kind == "R":
        return _retreats(board, orders, cd, target)
    return _adjustments(board, orders, cd)


def adjudicate_json(request: Mapping[str, object]) -> AdjudicationJSON:
    """The engine's JSON contract (docs/ARCHITECTURE.md, "One phase in JSON"): ``{"phase", "units",
    "centers", "dislodged"?, "orders"}`` in, results and the next position out. Raises BoardError (a
    ValueError), naming the field, when the request itself cannot be used (a wrong shape, an unknown
    phase, power or province); bad orders never raise.

    ``"variant"`` (default ``standard``) names the variant (engine.variants): its map, its closed
    provinces, its victory target. The output names it too, unless it is ``standard`` (so the
    standard output is exactly the contract's).
    Optional extensions: ``"civil_disorder": [powers]`` and ``"victory_centers": n``.
    """
    if not isinstance(request, Mapping):
        raise BoardError("the request must be a JSON object with a phase, units, centers and orders")
    board = Board.from_json(request)
    powers = board.game_map.powers
    with suggestion_budget():
        return adjudicate(
            board,
            _orders_field(request.get("orders")),
            civil_disorder=_powers_field(request.get("civil_disorder"), "civil_disorder", powers),
            victory_centers=_count_field(request.get("victory_centers"), "victory_centers"),
        ).to_json()


def _orders_field(value: object) -> Mapping[str, Any]:
    """``"orders"``: power -> lines (a list, or one text to split). A power's null means no orders;
    what is inside a list is the players' business (a non-text item comes back as an invalid line)."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise BoardError(
            '"orders" must be an object mapping each power to its order lines, '
            f'e.g. {{"FRANCE": ["A Par-Bur"]}}; got {describe_json(value)}'
        )
    return value


def _powers_field(value: object, name: str, powers: Sequence[str]) -> frozenset[str]:
    if value is None:
        return frozenset()
    if not isinstance(value, list | tuple):
        raise BoardError(f'"{name}" must be a list of powers, e.g. ["ITALY"]; got {describe_json(value)}')
    out: set[str] = set()
    for item in value:
        power = item.strip().upper() if type(item) is str else None
        if power is None or power not in powers:
            raise BoardError(
                f'"{name}": {describe_json(item)} is not a power; powers are {", ".join(powers)}'
            )
        out.add(power)
    return frozenset(out)


def _count_field(value: object, name: str) -> int | None:
    if value is None:
        return None
    if type(value) is not int or value < 1:
        raise BoardError(
            f'"{name}" must be a whole number of supply centers, e.g. 18; got {describe_json(value)}'
        )
    return value


# --- movement ---------------------------------------------------------------------------------------


def _movement(board: Board, orders: OrderLines, cd: frozenset[str], target: int) -> Adjudication:
    game_map = board.game_map
    graph = sea_graph(game_map)
    convoys = BoardConvoys(graph, convoying_fleets(graph, board.occupant))  # the fleets at sea

    def check(order: Order, power: str) -> Order:
        return check_movement_order(order, board, convoys)

    lines, chosen = read_orders(board, orders, check, cd)
    units = board.all_units()
    unit_orders: list[Order] = []
    unit_lines: list[Line] = []
    defaults: list[Line] = []
    held: list[tuple[str, str]] = []  # (power, province) of each default line's unit
    for power, unit in units:
        line = chosen.get((power, unit.province))
        order = None if line is None else line.order  # a chosen line has its (valid) order
        if line is None or order is None:
            order = Hold(unit)
            line = Line(power, None, order)
            defaults.append(line)
            held.append((power, unit.province))
        unit_lines.append(line)
        unit_orders.append(order)
    resolver = MovementResolver(game_map, graph, units, unit_orders, board.rules.switches.crossings)
    resolver.resolve_all()
    hits = resolver.dislodgements()
    dislodged = dislodged_units(resolver, hits, board.closed)
    attacker = {d.victim: d.attacker for d in hits}
    for i, line in enumerate(unit_lines):
        line.status, line.reason = explain.movement_result(resolver, i, attacker.get(i, -1))
    tried = _explain_invalid(lines, chosen, board, explain.as_hold)
    for line, key in zip(defaults, held, strict=True):
        unordered = key not in tried
        line.reason = (explain.no_order if unordered else explain.no_valid_order)(line.reason)

    new_units: dict[str, list[Unit]] = {}
    moves = resolver.dst  # the province each move goes to, "" for other orders
    move_orders = resolver.moves
    succeeded = resolver.result
    for i, (power, unit) in enumerate(units):
        if i in attacker:
            continue  # dislodged
        if moves[i] and succeeded[i]:  # it moved (resolver.moved(i), inline)
            unit = shared_unit(unit.type, move_orders[i].dest if unit.type == "F" else moves[i])
        units_of = new_units.get(power)
        if units_of is None:
            new_units[power] = [unit]
        else:
            units_of.append(unit)
    by_power: dict[str, list[Dislodged]] = {}
    for i in sorted(dislodged):
        by_power.setdefault(dislodged[i].power, []).append(dislodged[i])
    gone = {p: tuple(ds) for p, ds in by_power.items()}
    results = _results(board, lines, defaults)
    if any(d.retreats for d in dislodged.values()):
        nxt = board.phase.successor()
        after = _board(board, nxt, new_units, board.centers, gone)
        return Adjudication(board.phase, nxt, results, after, gone)
    return _end_of_turn(board, new_units, results, gone, target)


# --- retreats ---------------------------------------------------------------------------------------


def _retreats(board: Board, orders: OrderLines, cd: frozenset[str], target: int) -> Adjudication:
    def check(order: Order, power: str) -> Order:
        return check_retreat_order(order, board, power)

    lines, chosen = read_orders(board, orders, check, cd)
    entries = [d for _, ds in board.dislodged.items() for d in ds]
    by_prov: dict[str, Order] = {}
    for d in entries:
        line = chosen.get((d.power, d.unit.province))
        if line is not None and line.order is not None:
            by_prov[d.unit.province] = line.order
    outcomes = resolve_retreats(entries, by_prov, board.rules.switches.crossings)
    tried = _explain_invalid(lines, chosen, board, explain.as_disband, dislodged_only=True)
    defaults = []
    new_units = {p: list(us) for p, us in board.units.items()}
    for outcome in outcomes:
        d = outcome.dislodged
        line = chosen.get((d.power, d.unit.province))
        reason = outcome.reason
        if line is None:
            line = Line(d.power, None, Disband(d.unit))
            defaults.append(line)
            if d.power in cd:
                reason = explain.disorder_disbanded(d.power)
            elif d.retreats and (d.power, d.unit.province) in tried:
                reason = explain.no_valid_retreat()
        line.status, line.reason = outcome.status, reason
        if outcome.dest is not None:
            dest = outcome.dest
            unit = shared_unit(d.unit.type, dest if d.unit.type == "F" else province_of(dest))
            new_units.setdefault(d.power, []).append(unit)
    results = _results(board, lines, defaults)
    if board.phase.season == "F":
        return _end_of_turn(board, new_units, results, {}, target)
    nxt = board.phase.successor()
    return Adjudication(board.phase, nxt, results, _board(board, nxt, new_units, board.centers, {}))


# --- adjustments ------------------------------------------------------------------------------------


def _adjustments(board: Board, orders: OrderLines, cd: frozenset[str]) -> Adjudication:
    due = adjustment_counts(board)

    def check(order: Order, power: str) -> Order:
        return check_adjustment_order(order, board, power, due.get(power, 0))

    lines, chosen = read_orders(board, orders, check, cd)
    picked = {id(line) for line in chosen.values()}
    # (the check lets only builds, removals and waives through)
    valid = [
        (line, order)
        for line in lines
        if isinstance(order := line.order, AdjustmentOrder)
        and not line.status
        and (id(line) in picked or isinstance(order, Waive))
    ]
    outcomes = resolve_adjustments(board, [(line.power, order) for line, order in valid], due)
    new_units = {p: list(us) for p, us in board.units.items()}
    removed: set[str] = set()
    extra = []
    for k, outcome in enumerate(outcomes):
        if k < len(valid):
            valid[k][0].status, valid[k][0].reason = outcome.status, outcome.reason
        else:
            extra.append(Line(outcome.power, None, outcome.order, outcome.status, outcome.reason))
        if outcome.status != SUCCEEDED:
            continue
        if isinstance(outcome.order, Build):
            new_units.setdefault(outcome.power, []).append(outcome.order.unit)
        elif isinstance(outcome.order, Remove):
            removed.add(outcome.order.unit.province)
    if removed:
        new_units = {p: [u for u in us if u.province not in removed] for p, us in new_units.items()}
    results = _results(board, lines, extra)
    nxt = board.phase.successor()
    return Adjudication(board.phase, nxt, results, _board(board, nxt, new_units, board.centers, {}))


# --- shared -----------------------------------------------------------------------------------------


def _end_of_turn(
    board: Board,
    new_units: dict[str, list[Unit]],
    results: tuple[OrderResult, ...],
    gone: dict[str, tuple[Dislodged, ...]],
    target: int,
) -> Adjudication:
    """After a turn's last phase: centers change hands in the fall, then win or adjust or go on."""
    phase = board.phase
    centers = board.centers
    if phase.season == "F":
        centers = _update_centers(board, new_units)
    if phase.season == "S":
        nxt = Phase("F", phase.year, "M")
        return Adjudication(phase, nxt, results, _board(board, nxt, new_units, centers, {}), gone)
    winter = Phase("W", phase.year, "A")
    after = _board(board, winter, new_units, centers, {})
    winner = _winner(after, target)
    due = adjustment_counts(after)
    if winner is not None:
        return Adjudication(phase, None, results, after, gone, {}, winner)
    if due:
        return Adjudication(phase, winter, results, after, gone, due)
    spring = Phase("S", phase.year + 1, "M")  # nothing to adjust: skip the winter
    return Adjudication(phase, spring, results, _board(board, spring, new_units, centers, {}), gone)


def _update_centers(board: Board, units: dict[str, list[Unit]]) -> dict[str, frozenset[str]]:
    """Every supply center with a unit on it now belongs to that unit's power."""
    scs = board.game_map.supply_centers
    taken = [(u.province, power) for power, us in units.items() for u in us if u.province in scs]
    if all(prov in board.centers.get(power, ()) for prov, power in taken):
        return board.centers  # nothing changed hands (the usual case in a real game)
    owner = {c: p for p, cs in board.centers.items() for c in cs}
    owner.update(taken)
    out: dict[str, set[str]] = {p: set() for p in board.centers}
    for c, p in owner.items():
        out.setdefault(p, set()).add(c)
    return {p: frozenset(cs) for p, cs in out.items()}


def standing_centers(board: Board) -> dict[str, frozenset[str]]:
    """Who owns each supply center as ``board``'s units stand: a center with a unit on it is that
    unit's power's, the others keep their owner. Centers change hands so at the end of a fall, after
    its retreats: in a fall's retreat phase, this is who will own them unless a retreat goes into one
    (render draws a fall's results so, gm says so in the results post)."""
    return dict(_update_centers(board, {p: list(us) for p, us in board.units.items()}))


def _winner(board: Board, target: int) -> str | None:
    counts = sorted(((len(cs), p) for p, cs in board.centers.items()), reverse=True)
    if not counts or counts[0][0] < target:
        return None
    if len(counts) > 1 and counts[1][0] == counts[0][0]:
        return None
    return counts[0][1]


def _board(
    board: Board,
    phase: Phase,
    units: Mapping[str, list[Unit]],
    centers: Mapping[str, frozenset[str]],
    dislodged: Mapping[str, tuple[Dislodged, ...]],
) -> Board:
    return Board(
        game_map=board.game_map,
        phase=phase,
        units={p: tuple(us) for p, us in units.items() if us},
        centers={p: cs for p, cs in centers.items() if cs},
        dislodged=dict(dislodged),
        variant=board.variant,
    )


def _explain_invalid(
    lines: list[Line],
    chosen: Mapping[tuple[str, str], Line],
    board: Board,
    consequence: Callable[[str], str],
    dislodged_only: bool = False,
) -> set[tuple[str, str]]:
    """Say what became of the unit when its only orders were invalid ("...; treated as a hold").
    Returns those units, as (power, province), for their default lines ("no valid order: ...")."""
    ordered = chosen.keys()
    tried: set[tuple[str, str]] = set()
    for line in lines:
        if line.status != INVALID or line.order is None or line.order.unit is None:
            continue
        if line.reason.startswith("replaced by"):
            continue
        key = (line.power, line.order.unit.province)
        if key in ordered:
            counted = chosen[key].order
            if counted is not None:
                line.reason = explain.another_counts(line.reason, counted)
            continue
        if dislodged_only:
            mine = any(d.unit.province == key[1] for d in board.dislodged_of(line.power))
        else:
            mine = board.owner_at(key[1]) == line.power
        if mine:
            line.reason = consequence(line.reason)
            tried.add(key)
    return tried


def _results(board: Board, lines: list[Line], defaults: list[Line]) -> tuple[OrderResult, ...]:
    """Input lines then default lines, grouped by power in the map's order (unknown powers last)."""
    groups: dict[str, list[OrderResult]] = {p: [] for p in board.game_map.powers}
    unknown: list[OrderResult] = []
    new = tuple.__new__  # OrderResult(...) without the named tuple's own __new__: one call fewer a line
    for ln in (*lines, *defaults):
        groups.get(ln.power, unknown).append(
            new(OrderResult, (ln.power, ln.input, ln.order, ln.status, ln.reason))
        )
    return tuple(chain(*groups.values(), unknown))
