"""What a closed phase means for the players: what changed, who missed orders, and the messages
(phase results, the next phase's orders call, the end of the game) that announce it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from db.models import Game, PhaseRecord
from engine.adjudication import standing_centers
from engine.board import Board
from engine.rules import build_sites
from gm.endings.ending import survivors
from gm.messages import payloads as say
from gm.messages.kinds import PhaseOpened, PhaseResults
from gm.messages.maps import ORDERS_MAP, POSITION_MAP
from gm.ordering.progress import PhaseState
from gm.ordering.required import Duty, duties, missing
from gm.phases.contract import CloseAnswer
from gm.settings import GameSettings


@dataclass(frozen=True, slots=True)
class Missed:
    """Powers with an active player that owed orders: sent none at all, or left some units out."""

    none: tuple[str, ...]
    partial: dict[str, tuple[str, ...]]  # power -> what it left unordered

    def to_json(self) -> dict[str, Any]:
        return {"none": list(self.none), "partial": {p: list(u) for p, u in self.partial.items()}}


@dataclass(frozen=True, slots=True)
class ClosedPhase:
    """A phase a close has just written: what its announcements (gm.phases.announcing, and under
    the fog of war gm.phases.fogged) and the close's later steps (gm.phases.finishing) read."""

    game: Game  # locked for the close's transaction
    settings: GameSettings
    phase: PhaseRecord  # the phase closed
    state: PhaseState  # its seats and orders as they were at the close
    answer: CloseAnswer  # the worker's adjudication and maps
    change: dict[str, Any]  # what changed hands (:func:`changes`)
    counts: dict[str, int]  # each power's centers after it
    missed: Missed
    game_over: dict[str, Any] | None  # the game's result when this phase ended it
    now: datetime
    next_phase: PhaseRecord | None = None  # the phase it opened (None: the game is over)

    @property
    def result(self) -> dict[str, Any]:
        return self.answer.result


def who_missed(state: PhaseState) -> Missed:
    none, partial = [], {}
    for power, duty in state.duties.items():
        if not duty.has_work or not state.active(power):
            continue
        ordered = state.orders.get(power, {})
        if not ordered and power not in state.ready:
            none.append(power)
        elif ordered and (gaps := state.missing(power)):
            partial[power] = gaps
    return Missed(tuple(none), partial)


def changes(before: dict[str, Any], result: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """Dislodgements, center captures, builds, removals/disbands and eliminations, from board JSON."""
    owner_before = {c: p for p, cs in before.get("centers", {}).items() for c in cs}
    owner_after = {c: p for p, cs in after.get("centers", {}).items() for c in cs}
    captures = [
        {"center": c, "from": owner_before.get(c), "to": p}
        for c, p in sorted(owner_after.items())
        if owner_before.get(c) != p
    ]
    dislodged = [
        {
            "power": p,
            "unit": u,
            "attacker_from": info.get("attacker_from"),
            "retreats": info.get("retreats", []),
        }
        for p, units in sorted(result.get("dislodged", {}).items())
        for u, info in units.items()
    ]
    built, removed = [], []
    for line in result.get("orders", []):
        text = line.get("order") or ""
        if line.get("status") != "succeeded":
            continue
        if text.endswith(" B"):
            built.append({"power": line["power"], "unit": text[:-2]})
        elif text.endswith(" D"):
            removed.append({"power": line["power"], "unit": text[:-2]})
    powers = {*before.get("units", {}), *before.get("centers", {}), *(before.get("dislodged") or {})}
    eliminated = sorted(set(survivors(before, powers)) - set(survivors(after, powers)))
    found: dict[str, Any] = {
        "dislodged": dislodged,
        "captures": captures,
        "built": built,
        "removed": removed,
        "eliminated": eliminated,
    }
    if standing := standing_captures(after):
        found["standing"] = standing
    return found


def standing_captures(after: dict[str, Any]) -> list[dict[str, Any]]:
    """In a fall's retreat phase (``after``: its board JSON), the centers that change hands after the
    retreats as the units stand now (engine.adjudication.standing_centers): centers change hands at
    the end of the fall, its retreats included, so a fall's moves take none yet. Else none."""
    phase = str(after.get("phase") or "")
    if not (phase.startswith("F") and phase.endswith("R")):
        return []
    board = Board.from_json(after)
    owner_now = {c: p for p, cs in board.centers.items() for c in cs}
    return [
        {"center": c, "from": owner_now.get(c), "to": p}
        for p, cs in sorted(standing_centers(board).items())
        for c in sorted(cs)
        if owner_now.get(c) != p
    ]


def standing_counts(counts: dict[str, int], change: dict[str, Any]) -> dict[str, int]:
    """``counts`` with the centers ``change`` says change hands after the retreats moved over; only
    the powers ``counts`` gives (a fogged player's results count its own power only)."""
    moved = dict(counts)
    for capture in change.get("standing", ()):
        if capture["to"] in moved:
            moved[capture["to"]] += 1
        if capture["from"] in moved:
            moved[capture["from"]] -= 1
    return moved


def change_lines(change: dict[str, Any]) -> list[str]:
    """What changed, as sentences a player reads in the results post, grouped power by power."""
    lines = []
    for d in change["dislodged"]:
        by = f" by the attack from {d['attacker_from']}" if d["attacker_from"] else ""
        fate = (
            f"it may retreat to {_and(d['retreats'], 'or')}"
            if d["retreats"]
            else "it has nowhere to retreat and is disbanded"
        )
        lines.append(f"{say.power_name(d['power'])}'s {d['unit']} was dislodged{by}; {fate}.")
    taken: dict[str, list[str]] = {}
    for c in sorted(change["captures"], key=lambda c: (c["to"], c["center"])):
        was = f" from {say.power_name(c['from'])}" if c["from"] else ""
        taken.setdefault(c["to"], []).append(f"{c['center']}{was}")
    lines += [f"{say.power_name(power)} takes {_and(items)}." for power, items in taken.items()]
    if change.get("standing"):
        pending: dict[str, list[str]] = {}
        for c in sorted(change["standing"], key=lambda c: (c["to"], c["center"])):
            was = f" from {say.power_name(c['from'])}" if c["from"] else ""
            pending.setdefault(c["to"], []).append(f"{c['center']}{was}")
        takes = "; ".join(f"{say.power_name(power)} takes {_and(items)}" for power, items in pending.items())
        lines.append(f"Centers change hands after the retreats; as the units stand, {takes}.")
    lines += [f"{say.power_name(b['power'])} builds {b['unit']}." for b in change["built"]]
    lines += [f"{say.power_name(r['power'])} loses {r['unit']}." for r in change["removed"]]
    lines += [f"{say.power_name(p)} is eliminated." for p in change["eliminated"]]
    return lines


def _and(items: list[str], word: str = "and") -> str:
    """``A, B and C`` (or ``... or C``)."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {word} {items[-1]}"


def results_payload(
    *,
    game_id: int,
    game_name: str,
    phase_id: int,
    phase_name: str,
    result: dict[str, Any],
    change: dict[str, Any],
    counts: dict[str, int],
    missed: Missed,
    next_phase: tuple[int, str, datetime | None] | None,
    maps: list[str],
    game_over: dict[str, Any] | None,
) -> PhaseResults:
    by_power: dict[str, list[dict[str, Any]]] = {}
    for line in result.get("orders", []):
        by_power.setdefault(line["power"], []).append(
            {k: line.get(k) for k in ("input", "order", "status", "reason")}
        )
    lines = change_lines(change) or ["Nothing changed hands."]
    if missed.none:
        lines.append("No orders from " + ", ".join(say.power_name(p) for p in missed.none) + ".")
    for power, gaps in missed.partial.items():
        lines.append(f"{say.power_name(power)} left {', '.join(gaps)} without orders.")
    map_refs = [say.map_ref(phase_id, phase_name, ORDERS_MAP)] if ORDERS_MAP in maps else []
    if next_phase is not None and POSITION_MAP in maps:
        map_refs.append(say.map_ref(next_phase[0], next_phase[1], POSITION_MAP))
    # a fall's moves before its retreats: the counts as the units stand, as its map shows them
    fields = {say.power_name(p): str(n) for p, n in standing_counts(counts, change).items() if n}
    return PhaseResults(
        game_id=game_id,
        game_name=game_name,
        title=f"{game_name}: {say.long_name(phase_name)} results",
        lines=lines,
        fields=fields,
        phase=phase_name,
        deadline=next_phase[2] if next_phase else None,
        maps=map_refs,
        orders=by_power,
        changes=change,
        centers=counts,
        missed=missed.to_json(),
        next_phase=next_phase[1] if next_phase else None,
        game_over=game_over,
    )


def opened_payloads(
    *,
    game_id: int,
    game_name: str,
    board: Any,
    adjustments: dict[str, int] | None,
    deadline: datetime | None,
    before: Any | None = None,
) -> dict[str, PhaseOpened]:
    """power -> the message calling it to order in the new phase, for powers that have something to do:
    a personal summary first (what happened to its units and centers since ``before``, the board the
    previous phase started from), then what it must order."""
    out = {}
    phase_name = str(board.phase)
    for power, duty in duties(board, adjustments).items():
        if not duty.has_work:
            continue
        out[power] = PhaseOpened(
            game_id=game_id,
            game_name=game_name,
            title=f"{say.power_name(power)}: {say.long_name(phase_name)} orders",
            lines=[*summary_lines(power, board, before), *_duty_lines(duty, board)],
            phase=phase_name,
            deadline=deadline,
            power=power,
            todo=list(missing(duty, {})),
        )
    return out


def summary_lines(power: str, board: Any, before: Any | None) -> list[str]:
    """What changed for ``power`` since ``before``: centers gained and lost (plain facts of the board)."""
    if before is None:
        return []
    now_owned = set(board.centers.get(power, ()))
    was_owned = set(before.centers.get(power, ()))
    lines = []
    gained, lost = sorted(now_owned - was_owned), sorted(was_owned - now_owned)
    if gained:
        lines.append(f"You gained {_and(gained, 'and')}.")
    if lost:
        lines.append(f"You lost {_and(lost, 'and')}.")
    return lines


def _duty_lines(duty: Duty, board: Any) -> list[str]:
    if duty.kind == "M":
        return ["Your units: " + ", ".join(duty.units)]
    if duty.kind == "R":
        dislodged = {str(d.unit): d for d in board.dislodged_of(duty.power)}
        lines = []
        for u in duty.units:
            entry = dislodged[u]
            by = f" by the attack from {entry.attacker_from}" if entry.attacker_from else ""
            lines.append(
                f"Your {u} was dislodged{by}: retreat to {_and(list(entry.retreats), 'or')}, or disband."
            )
        return lines
    if duty.builds:
        vacant = list(build_sites(board, duty.power))  # home centres, or any owned (Chaos)
        where = f": in {_and(vacant, 'or')}" if vacant else ""
        return [f"You may build {say.plural(duty.builds, 'unit')}{where} (or WAIVE)."]
    return [f"You must remove {say.plural(duty.removals, 'unit')}."]
