"""Every sentence the adjudicator shows a player, in one place.

Reasons are short and concrete, name units and places by their canonical codes, and read well on a
phone: "bounced: A MUN - BUR had equal strength (yours 1, theirs 1)", "support cut by A BOH (attacked
from BOH)", "dislodged by A TYR - MUN (yours 1, theirs 2)", "convoy failed: F ION was dislodged".
Strengths always come as "yours" (the unit the line is about) then "theirs" (or "your A PAR's"
when both units are the player's). Invalid orders
say what is wrong and, where it helps, how to write it instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from engine.adjudicator.movement import MOVE
from engine.orders import Convoy, Move, Order, SupportHold, SupportMove, Unit, format_order

if TYPE_CHECKING:
    from engine.adjudicator.movement import MovementResolver

SUCCEEDED = "succeeded"
FAILED = "failed"
INVALID = "invalid"

_KIND = {"A": "an army", "F": "a fleet"}
_PHASE_ORDERS = {
    "M": "hold, move, support and convoy orders",
    "R": "retreats and disbands (e.g. 'A PAR R BUR', 'A PAR D')",
    "A": "builds, removals and waives (e.g. 'A PAR B', 'A PAR D', 'WAIVE')",
}


def _names(items: Iterable[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# --- invalid orders (legality) ---------------------------------------------------------------------


def no_unit(prov: str) -> str:
    return f"there is no unit in {prov}"


def not_yours(unit: Unit, owner: str | None) -> str:
    return f"{unit} is not yours (it belongs to {owner})"


def wrong_type(named: Unit, actual: Unit) -> str:
    return f"there is no {_KIND[named.type or 'A'].split()[1]} in {actual.province}, it is {actual}"


def unknown_place(text: str) -> str:
    return f"{text} is not a place on this map"


def wrong_phase(order: Order, phase_kind: str) -> str:
    return f"'{format_order(order)}' cannot be ordered now: this phase takes {_PHASE_ORDERS[phase_kind]}"


def unreachable(unit: Unit, dest: str) -> str:
    return f"{unit} cannot reach {dest} in one move"


def no_convoy_route(unit: Unit, dest: str) -> str:
    return f"{unit} cannot reach {dest}: not adjacent, and no chain of fleets at sea could convoy it"


def supported_cannot_reach(supported: Unit, dest: str) -> str:
    return f"{supported} cannot reach {dest}, so it cannot be supported there"


def support_needs_own_convoy(unit: Unit, supported: Unit, dest: str) -> str:
    return (
        f"{supported} could reach {dest} only by a convoy through {unit.province}, "
        f"and {unit} cannot convoy and support at once"
    )


def convoy_off_route(fleet: Unit, army: Unit, dest: str) -> str:
    return f"{fleet} is not needed on any convoy route from {army.province} to {dest}"


def unknown_power(name: str, powers: Sequence[str]) -> str:
    return f"unknown power {name!r}; the powers are {_names(powers)}"


def not_text(given: str) -> str:
    return f"not an order: {given} is not a line of text (write e.g. 'A PAR - BUR')"


def in_civil_disorder(power: str) -> str:
    return f"ignored: {power} is in civil disorder"


def another_counts(reason: str, counted: Order) -> str:
    """An invalid line of a unit that has a valid order too: which one the unit carried out."""
    return f"{reason}; the unit's other order {format_order(counted)} counts"


def replaced(later: Order) -> str:
    return f"replaced by a later order: {format_order(later)}"


def with_hint(reason: str, hint: str | None) -> str:
    return reason if not hint else f"{reason} ({hint})"


def no_order(reason: str) -> str:
    return f"no order: {reason}"


def no_valid_order(reason: str) -> str:
    """The default line of a unit whose orders were all invalid (they end with :func:`as_hold`)."""
    return f"no valid order: {reason}"


def as_hold(reason: str) -> str:
    """An invalid order that was the unit's only one: the unit's default line says what became of it."""
    return f"{reason}; treated as a hold"


def as_disband(reason: str) -> str:
    """An invalid retreat that was the unit's only order: the unit is disbanded (its default line)."""
    return f"{reason}; treated as a disband"


# --- movement results --------------------------------------------------------------------------------


def _move_text(r: MovementResolver, i: int) -> str:
    return format_order(r.orders[i])


def _versus(r: MovementResolver, i: int, mine: int, j: int, theirs: int) -> str:
    """``(yours 1, theirs 1)``: unit ``i``'s strength first, then the other unit ``j``'s, named as
    another power's or the player's own."""
    other = "theirs" if r.power[j] != r.power[i] else f"your {r.units[j]}'s"
    return f"(yours {mine}, {other} {theirs})"


def _failed_move(r: MovementResolver, i: int) -> str:
    """Why move ``i`` did not succeed: the first test it failed, in the resolver's order."""
    if not r.path(i):
        return _broken_route(r, i)
    attack = r.attack_strength(i)
    dst = r.dst[i]
    d = r.occ.get(dst, -1)
    opp = r.opp[i]
    if attack == 0 and d >= 0:
        if r.kind[d] == MOVE:
            return f"bounced: your own {r.units[d]} could not leave {dst}"
        return f"bounced: your own {r.units[d]} held {dst}"
    note = _uncounted_support_note(r, i, d) if d >= 0 and not r.moved(d) else ""
    if opp >= 0:
        defend = r.defend_strength(opp)
        if attack <= defend:
            what = "had equal strength" if attack == defend else "was stronger"
            return f"bounced: {_move_text(r, opp)} {what}, head to head {_versus(r, i, attack, opp, defend)}"
    elif d >= 0:
        hold = r.hold_strength(dst)
        if attack <= hold:
            unit = r.units[d]
            if r.kind[d] == MOVE:  # it tried to leave and could not
                return f"bounced: {unit} could not leave {dst} {_versus(r, i, attack, d, hold)}{note}"
            return f"bounced: {unit} held {dst} {_versus(r, i, attack, d, hold)}{note}"
    best, best_strength = -1, -1
    for m in r.moves_into[dst]:
        if m != i:
            s = r.prevent_strength(m)
            if s > best_strength:
                best, best_strength = m, s
    if best >= 0 and best_strength >= attack:
        what = "had equal strength" if best_strength == attack else "was stronger"
        return f"bounced: {_move_text(r, best)} {what} {_versus(r, i, attack, best, best_strength)}{note}"
    return "failed"


def _uncounted_support_note(r: MovementResolver, i: int, d: int) -> str:
    defender = r.power[d]
    own = [s for s in r.sups[i] if r.power[s] == defender and r.result[s]]
    if not own:
        return ""
    names = _names(str(r.units[s]) for s in own)
    return f"; {names} gave support that does not count against its own power's {r.units[d]}"


_PARADOX = "convoy failed: a convoy paradox, settled by the Szykman rule (the army stays where it is)"


def _broken_route(r: MovementResolver, i: int) -> str:
    if r.broken_by_paradox[i]:
        return _PARADOX
    fleets = r.convoy_fleets[i]
    if not fleets:
        return f"no convoy: no fleet was ordered to convoy {r.units[i]} to {r.dst[i]}"
    lost = sorted(sea for sea in fleets if not r.result[r.occ[sea]])
    if lost:
        names = _names(str(r.units[r.occ[sea]]) for sea in lost)
        verb = "was" if len(lost) == 1 else "were"
        return f"convoy failed: {names} {verb} dislodged"
    return f"convoy failed: the convoying fleets do not reach from {r.prov[i]} to {r.dst[i]}"


def dislodged_text(r: MovementResolver, attacker: int, victim: int) -> str:
    attack = r.attack_strength(attacker)
    against = r.defend_strength(victim) if r.opp[attacker] == victim else r.hold_strength(r.prov[victim])
    return f"dislodged by {_move_text(r, attacker)} {_versus(r, victim, against, attacker, attack)}"


def movement_result(r: MovementResolver, i: int, dislodged_by: int) -> tuple[str, str]:
    """(status, reason) of unit ``i``'s order after resolution; ``dislodged_by`` is a unit or -1."""
    order = r.orders[i]
    hit = dislodged_text(r, dislodged_by, i) if dislodged_by >= 0 else ""
    if type(order) is Move:
        if r.result[i]:
            how = " by convoy" if r.via[i] else ""
            d = r.occ.get(r.dst[i], -1)
            if d >= 0 and not r.moved(d):
                how += f", dislodging {r.units[d]}"
            return SUCCEEDED, f"moved to {order.dest}{how}"
        why = _failed_move(r, i)
        return FAILED, f"{why}; {hit}" if hit else why
    if type(order) is SupportMove or type(order) is SupportHold:
        status, why = _support_result(r, i, order)
        if hit and why == "support cut":
            return status, f"support cut: {hit}"
        return status, f"{why}; {hit}" if hit else why
    if type(order) is Convoy:
        status, why = _convoy_result(r, i, order)
        if hit and why == "convoy failed":
            return status, f"convoy failed: {hit}"
        return status, f"{why}; {hit}" if hit else why
    if hit:
        return FAILED, hit
    return SUCCEEDED, _held(r, i)


def _held(r: MovementResolver, i: int) -> str:
    movers = r.moves_into.get(r.prov[i])
    if movers is None:
        return "held"
    me = r.power[i]
    attackers = [m for m in movers if r.power[m] != me and r.path(m)]
    if not attackers:
        return "held"
    if len(attackers) == 1:
        m = attackers[0]
        versus = _versus(r, i, r.hold_strength(r.prov[i]), m, r.attack_strength(m))
        return f"held against {_move_text(r, m)} {versus}"
    return f"held against {_names(_move_text(r, m) for m in attackers)}"


def _support_result(r: MovementResolver, i: int, order: SupportMove | SupportHold) -> tuple[str, str]:
    j = r.target[i]
    if not r.matched[i]:
        return FAILED, _void_support(r, j, order)
    if not r.result[i]:
        spared = r.support_dst[i]
        for m in r.moves_into.get(r.prov[i], ()):
            if r.power[m] != r.power[i] and r.prov[m] != spared and r.path(m):
                return FAILED, f"support cut by {r.units[m]} (attacked from {r.prov[m]})"
        return FAILED, "support cut"
    if isinstance(order, SupportMove):
        d = r.occ.get(r.dst[j], -1)
        if d >= 0 and r.power[d] == r.power[i] and not r.moved(d):
            return SUCCEEDED, f"given, but it cannot help dislodge your own {r.units[d]}"
    return SUCCEEDED, f"supported {format_order(r.orders[j]) if r.kind[j] == MOVE else r.units[j]}"


def _void_support(r: MovementResolver, j: int, order: SupportMove | SupportHold) -> str:
    other = r.orders[j]
    if isinstance(order, SupportHold):
        return f"void: {r.units[j]} did not stay, it was ordered {format_order(other)}"
    if r.kind[j] != MOVE:
        return f"void: {r.units[j]} did not move to {order.dest}, it was ordered to stay"
    return f"void: {r.units[j]} was ordered {format_order(other)}, not to {order.dest}"


def _convoy_result(r: MovementResolver, i: int, order: Convoy) -> tuple[str, str]:
    j = r.target[i]
    army = r.units[j]
    if not r.matched[i]:
        other = r.orders[j]
        if r.kind[j] == MOVE:
            return FAILED, f"void: {army} was ordered {format_order(other)}, not to {order.dest}"
        return FAILED, f"void: {army} was not ordered to move"
    if not r.via[j]:
        return FAILED, f"not used: {army} went over land"
    if not r.result[i]:
        if r.result[j]:
            return FAILED, f"{army} arrived by another route"
        return FAILED, "convoy failed"
    if r.result[j]:
        return SUCCEEDED, f"convoyed {army} to {r.dst[j]}"
    if r.broken_by_paradox[j]:
        return FAILED, _PARADOX
    return FAILED, f"{army} did not arrive: {_failed_move(r, j)}"


# --- retreats ----------------------------------------------------------------------------------------


def retreated(dest: str) -> str:
    return f"retreated to {dest}"


def retreat_bounced(dest: str, others: Sequence[Unit]) -> str:
    return f"bounced with {_names(str(u) for u in others)} retreating to {dest}; disbanded"


def disbanded() -> str:
    return "disbanded"


def no_retreat_ordered() -> str:
    return "no retreat ordered: disbanded"


def no_valid_retreat() -> str:
    return "no valid retreat order: disbanded"


def nowhere_to_retreat() -> str:
    return "nowhere to retreat: disbanded"


def disorder_disbanded(power: str) -> str:
    return f"{power} is in civil disorder: disbanded"


# --- adjustments -------------------------------------------------------------------------------------


def built(unit: Unit) -> str:
    return f"built {unit}"


def removed(unit: Unit) -> str:
    return f"removed {unit}"


def waived() -> str:
    return "build waived"


def no_builds(power: str, centers: int, units: int) -> str:
    return f"{power} has no build this winter ({centers} centers, {units} units)"


def no_removals(power: str) -> str:
    return f"{power} has no unit to remove this winter"


def too_many_builds(power: str, allowed: int) -> str:
    return f"{power} may build only {allowed} unit{'s' if allowed != 1 else ''} this winter"


def too_many_removals(power: str, required: int) -> str:
    return f"{power} must remove only {required} unit{'s' if required != 1 else ''} this winter"


def build_not_home(prov: str, power: str) -> str:
    return f"{prov} is not a home supply center of {power}; builds go in your own home centers"


def build_not_owned(prov: str, power: str) -> str:
    return f"{power} does not own {prov} now, so cannot build there"


def build_occupied(prov: str, unit: Unit) -> str:
    return f"{prov} is occupied by {unit}; builds need an empty home center"


def build_fleet_inland(prov: str) -> str:
    return f"a fleet cannot be built in inland {prov}"


def build_coast_needed(prov: str, options: Sequence[str]) -> str:
    return f"say which coast for a fleet in {prov}: {_names(options)}"


def disorder_removed(unit: Unit, distance: int | None) -> str:
    if distance is None:
        return f"removed {unit} by the civil-disorder rule (no supply center left to measure from)"
    steps = "move" if distance == 1 else "moves"
    return f"removed {unit} by the civil-disorder rule: farthest from its supply centers ({distance} {steps})"
