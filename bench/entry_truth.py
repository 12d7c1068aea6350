"""Does order entry tell the truth? Counts over random positions; prints figures, asserts nothing.

    .venv/bin/python bench/entry_truth.py [--positions 3000] [--lines 12] [--seed 1]

For ``--positions`` random positions (tests/helpers/positions.py: every variant, every kind of phase,
in turn), every power with something to order judges, through gm's ``judge_line`` (the gate of every
way to order: DM, form, /order, tap):

- ``--lines`` typed lines of its own (random, of every kind) in the position, with, in a winter,
  some orders given already; each line *accepted* is checked against the position's legal orders
  (``engine.legal_orders``, what the order builder lists): an accepted line that is not one of them
  would be voided at the close;
- every listed legal order, by its text, with no orders given: each should be accepted;
- every concrete order a refusal's hint tells the player to write ("write A PAR - BUR"), resubmitted
  in the same position with the same orders given: each should be accepted.

The script only uses what gm and the engine had before order entry checked the fleets, so it runs
on older code too (to compare: run it from a checkout of that code).
"""

from __future__ import annotations

import argparse
import inspect
import random
import sys
import time
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.adjudicator.adjustments import adjustment_counts
from engine.board import Board
from engine.legal import legal_orders
from gm.ordering.judging import LineOutcome, judge_line
from gm.ordering.progress import PhaseState
from gm.ordering.required import duties, order_key
from tests.helpers.positions import KINDS, VARIANTS, hinted_orders, random_board, typed_lines


def state_of(board: Board, power: str, given: Mapping[str, str]) -> PhaseState:
    return PhaseState(
        board=board,
        duties=duties(board, adjustment_counts(board)),
        orders={power: dict(given)},
        inputs={},
        ready=frozenset(),
        player_of={},
    )


# (older code's judge_line also took the phase's row, which it did not use)
_OLD_SIGNATURE = "phase" in inspect.signature(judge_line).parameters


def judge(line: str, state: PhaseState, power: str, given: Mapping[str, str]) -> LineOutcome:
    current = {power: dict(given)}
    outcome, _ = judge_line(line, state, [power], current, *((None,) if _OLD_SIGNATURE else ()))
    return outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=3000)
    parser.add_argument("--lines", type=int, default=12, help="typed lines per power and position")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    counts: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    started = time.perf_counter()

    def example(kind: str, text: str) -> None:
        if len(examples.setdefault(kind, [])) < 4:
            examples[kind].append(text)

    for n in range(args.positions):
        variant = VARIANTS[n % len(VARIANTS)]
        kind = KINDS[(n // len(VARIANTS)) % len(KINDS)]
        board = random_board(variant, kind, rng)
        for power in board.game_map.powers:
            legal = legal_orders(board, power)
            given: dict[str, str] = {}
            if kind == "A" and len(legal) and rng.random() < 0.6:  # some winter orders given already
                for item in rng.sample(list(legal), min(len(legal), rng.randint(1, 3))):
                    state = state_of(board, power, given)
                    outcome = judge(item.text, state, power, given)
                    if outcome.accepted and outcome.order is not None:
                        key = order_key(item.order, given.keys())
                        given[key] = outcome.order
            state = state_of(board, power, given)
            if not board.units.get(power) and not board.dislodged_of(power) and not legal.due:
                continue
            counts["positions x powers"] += 1
            for line in typed_lines(board, power, rng, args.lines):
                outcome = judge(line, state, power, given)
                counts["typed lines"] += 1
                if outcome.accepted:
                    counts["accepted"] += 1
                    if legal.find(outcome.order or "") is None:
                        counts["accepted, not a legal order"] += 1
                        example(
                            "accepted, not a legal order",
                            f"{variant} {board.phase}: {line!r} -> {outcome.order}",
                        )
                    continue
                counts["refused"] += 1
                if not outcome.reason or not outcome.hint:
                    counts["refused without reason or hint"] += 1
                for hinted in hinted_orders(outcome.hint):
                    counts["concrete hints"] += 1
                    again = judge(hinted, state, power, given)
                    if not again.accepted:
                        counts["concrete hints refused"] += 1
                        example(
                            "concrete hints refused",
                            f"{variant} {board.phase} {power}: {line!r}: {outcome.hint!r} -> {again.reason}",
                        )
            if legal.reason is None:
                empty = state_of(board, power, {})
                for item in legal:
                    counts["legal orders"] += 1
                    if not judge(item.text, empty, power, {}).accepted:
                        counts["legal orders refused"] += 1
                        example("legal orders refused", f"{variant} {board.phase}: {item.text}")
    elapsed = time.perf_counter() - started
    print(f"{args.positions} positions ({', '.join(VARIANTS)}; phases {', '.join(KINDS)}), seed {args.seed}")
    for key in (
        "positions x powers",
        "typed lines",
        "accepted",
        "accepted, not a legal order",
        "refused",
        "refused without reason or hint",
        "concrete hints",
        "concrete hints refused",
        "legal orders",
        "legal orders refused",
    ):
        print(f"  {key:32} {counts[key]:>8}")
    for kind, texts in examples.items():
        print(f"e.g. {kind}:")
        for text in texts:
            print(f"  {text}")
    print(f"({elapsed:.1f} s)")


if __name__ == "__main__":
    main()
