"""Reader for our DATC case files (``*.datc`` in this folder).

The format, one statement per line (``#`` starts a comment)::

    === 6.A.5 | Move to own sector with convoy
    variant 1900                          # optional; the Standard game by default
    phase S1901M                          # optional; S1901M by default
    units ENGLAND: F NTH, A YOR, A LVP    # the position, canonical codes
    centers RUSSIA: STP, WAR              # optional supply-center ownership
    retreating ITALY: A VIE from TRI to BOH, GAL   # dislodged units of a retreat phase
    England: A Yorkshire - Yorkshire      # an order, in the DATC's own words
    ! A YOR - YOR: invalid                # status of the result line(s) with that canonical order
    ! units GERMANY: F YOR, A WAL         # the power's units afterwards, exactly ("none" allowed)
    ! dislodged: A YOR                    # every unit dislodged, exactly ("none" allowed)
    ! retreats A YOR: LON, BEL            # a dislodged unit's retreat options, exactly
    ! next: F1901R                        # the next phase
    ! adjustments: GERMANY 1, RUSSIA -1   # adjustments due for the coming winter, exactly
    then                                  # the next phase, from the board the last one produced

A status line may list several statuses, one per result line with that order, in report order
(``! A MOS B: invalid, succeeded``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.variants import all_variants

HERE = Path(__file__).resolve().parent
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
ANY_POWER = frozenset(p for v in all_variants() for p in v.game_map().powers)


@dataclass
class Step:
    """One phase of a case: the orders and what must come out."""

    orders: dict[str, list[str]] = field(default_factory=dict)
    statuses: list[tuple[str, list[str]]] = field(default_factory=list)
    units: dict[str, list[str]] = field(default_factory=dict)
    dislodged: list[str] | None = None
    retreats: dict[str, list[str]] = field(default_factory=dict)
    next_phase: str | None = None
    adjustments: dict[str, int] | None = None


@dataclass
class Case:
    id: str
    title: str
    source: str
    phase: str = "S1901M"
    variant: str = "standard"
    units: dict[str, list[str]] = field(default_factory=dict)
    centers: dict[str, list[str]] = field(default_factory=dict)
    retreating: dict[str, dict[str, dict]] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)

    def request(self) -> dict:
        return {
            "variant": self.variant,
            "phase": self.phase,
            "units": self.units,
            "centers": self.centers,
            "dislodged": self.retreating,
        }


def _items(text: str) -> list[str]:
    text = text.strip()
    if text.lower() == "none" or not text:
        return []
    return [t.strip() for t in text.split(",") if t.strip()]


def load_cases() -> list[Case]:
    cases: list[Case] = []
    for path in sorted(HERE.glob("*.datc")):
        cases.extend(_read(path))
    return cases


def _read(path: Path) -> list[Case]:
    out: list[Case] = []
    case: Case | None = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{path.name}:{number}"
        if line.startswith("==="):
            ident, _, title = line[3:].partition("|")
            case = Case(ident.strip(), title.strip(), where)
            case.steps.append(Step())
            out.append(case)
            continue
        if case is None:
            raise ValueError(f"{where}: statement before the first case")
        step = case.steps[-1]
        word, _, rest = line.partition(" ")
        if line == "then":
            case.steps.append(Step())
        elif word == "phase":
            case.phase = rest.strip()
        elif word == "variant":
            case.variant = rest.strip()
        elif word == "units":
            power, _, units = rest.partition(":")
            case.units[power.strip()] = _items(units)
        elif word == "centers":
            power, _, centers = rest.partition(":")
            case.centers[power.strip()] = _items(centers)
        elif word == "retreating":
            power, _, spec = rest.partition(":")
            unit, _, tail = spec.partition(" from ")
            attacker, _, options = tail.partition(" to ")
            case.retreating.setdefault(power.strip(), {})[unit.strip()] = {
                "attacker_from": attacker.strip(),
                "retreats": _items(options),
            }
        elif word == "!":
            _expect(step, rest.strip(), where)
        elif ":" in line and line.split(":", 1)[0].strip().upper() in ANY_POWER:
            power, _, text = line.partition(":")
            step.orders.setdefault(power.strip().upper(), []).append(text.strip())
        else:
            raise ValueError(f"{where}: cannot read {raw!r}")
    return out


def _expect(step: Step, text: str, where: str) -> None:
    head, _, body = text.partition(":")
    head = head.strip()
    if head.startswith("units "):
        step.units[head[6:].strip()] = _items(body)
    elif head == "dislodged":
        step.dislodged = _items(body)
    elif head.startswith("retreats "):
        step.retreats[head[9:].strip()] = _items(body)
    elif head == "next":
        step.next_phase = body.strip()
    elif head == "adjustments":
        step.adjustments = {p.split()[0]: int(p.split()[1]) for p in _items(body)}
    elif body.strip():
        step.statuses.append((head, _items(body)))
    else:
        raise ValueError(f"{where}: cannot read expectation {text!r}")
