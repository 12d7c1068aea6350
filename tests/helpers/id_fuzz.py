"""Custom ids that a component's template matches, with chosen or random values in its named groups:
what a modified client could send to a DynamicItem (tests/e2e/test_bot_id_fuzz.py).

A template is read with Python's own regular-expression parser (``re._parser``, the one ``re`` uses),
and one string is drawn from it: a named group takes one of the values ``pools`` gives for its name
when one of them fits the group, else a random string of its own pattern; the rest is drawn from the
pattern itself. Every id returned matches its template in full.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Mapping, Sequence
from re import _constants as sre  # type: ignore[attr-defined]  # the parser's opcodes
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

PRINTABLE = string.ascii_letters + string.digits + "-_.:#@!*/ éß漢\u200b"
HUGE = str(2**64)
NUMBERS = ("0", "1", "7", "42", str(2**31), str(2**63 - 1), str(2**63), HUGE, "0" * 30 + "5")
"""Numbers of every size, some no id could have."""
WORDS = ("abc", "-", "x" * 60, "ÉCLAIR", "'; drop", "PAR", "FRANCE", "STP/NC", "*FRANCE", "A PAR H", "0")
"""Values of the wrong kind for the groups that take text."""


def sample(template: str, rng: random.Random, pools: Mapping[str, Sequence[str]] | None = None) -> str:
    """One id matching ``template`` in full (see the module docstring); ``pools`` by group name."""
    parsed = sre_parse.parse(template)
    names = {number: name for name, number in parsed.state.groupdict.items()}
    pattern = re.compile(template)
    for _ in range(200):
        drawn = _draw(list(parsed), rng, names, pools or {})
        if pattern.fullmatch(drawn):
            return drawn
    raise AssertionError(f"could not draw an id matching {template!r}")


def _draw(
    items: list[Any], rng: random.Random, names: dict[int, str], pools: Mapping[str, Sequence[str]]
) -> str:
    return "".join(_one(op, arg, rng, names, pools) for op, arg in items)


def _one(
    op: Any, arg: Any, rng: random.Random, names: dict[int, str], pools: Mapping[str, Sequence[str]]
) -> str:
    if op is sre.LITERAL:
        return chr(arg)
    if op is sre.NOT_LITERAL:
        return rng.choice([c for c in PRINTABLE if c != chr(arg)])
    if op is sre.ANY:
        return rng.choice(PRINTABLE)
    if op is sre.IN:
        return _in_class(arg, rng)
    if op is sre.CATEGORY:
        return _in_class([(sre.CATEGORY, arg)], rng)
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", None)):
        low, high, sub = arg
        count = rng.randint(low, min(high, low + 6)) if high != sre.MAXREPEAT else rng.randint(low, low + 6)
        return "".join(_draw(list(sub), rng, names, pools) for _ in range(count))
    if op is sre.SUBPATTERN:
        group, _add, _del, sub = arg
        name = names.get(group) if group is not None else None
        own = _draw(list(sub), rng, names, pools)
        if name is not None and pools.get(name) and rng.random() < 0.8:
            fitting = [v for v in pools[name] if re.fullmatch(_text(sub), v)]
            if fitting:
                return rng.choice(fitting)
        return own
    if op is sre.BRANCH:
        _, branches = arg
        return _draw(list(rng.choice(branches)), rng, names, pools)
    if op is sre.AT:
        return ""
    raise NotImplementedError(f"template opcode {op}")


def _text(sub: Any) -> str:
    """A group's own pattern, back as text (to check a pooled value fits it)."""
    return _unparse(list(sub))


def _unparse(items: list[Any]) -> str:
    out = []
    for op, arg in items:
        if op is sre.LITERAL:
            out.append(re.escape(chr(arg)))
        elif op is sre.NOT_LITERAL:
            out.append(f"[^{re.escape(chr(arg))}]")
        elif op is sre.ANY:
            out.append(".")
        elif op is sre.IN:
            out.append("[" + "".join(_class_text(arg)) + "]")
        elif op is sre.CATEGORY:
            out.append(_CATEGORIES[arg])
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
            low, high, sub = arg
            top = "" if high == sre.MAXREPEAT else str(high)
            out.append(f"(?:{_unparse(list(sub))}){{{low},{top}}}")
        elif op is sre.SUBPATTERN:
            out.append(f"(?:{_unparse(list(arg[3]))})")
        elif op is sre.BRANCH:
            out.append("(?:" + "|".join(_unparse(list(b)) for b in arg[1]) + ")")
    return "".join(out)


_CATEGORIES = {sre.CATEGORY_DIGIT: r"\d", sre.CATEGORY_WORD: r"\w", sre.CATEGORY_SPACE: r"\s"}


def _class_text(items: list[Any]) -> list[str]:
    out = []
    for op, arg in items:
        if op is sre.NEGATE:
            out.append("^")
        elif op is sre.LITERAL:
            out.append(re.escape(chr(arg)))
        elif op is sre.RANGE:
            out.append(f"{re.escape(chr(arg[0]))}-{re.escape(chr(arg[1]))}")
        elif op is sre.CATEGORY:
            out.append(_CATEGORIES[arg])
    return out


def _in_class(items: list[Any], rng: random.Random) -> str:
    pattern = re.compile("[" + "".join(_class_text(items)) + "]")
    choices = [c for c in PRINTABLE if pattern.fullmatch(c)]
    return rng.choice(choices)


__all__ = ["HUGE", "NUMBERS", "WORDS", "sample"]
