"""The one set of words for what the gamemaster says: power names (from the variants' own names),
lists of powers, plurals, lengths of time, phase names. The adapters use these too, so a power or a
duration is written the same way everywhere."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from engine import Phase
from engine.variants import power_display_name


def long_name(phase_name: str) -> str:
    return Phase.parse(phase_name).long_name


def power_name(power: str) -> str:
    """``France`` for ``FRANCE``, ``Constantinople`` for Chaos's ``CONSTANTINOPLE``: the variants' own
    names, else the code capitalised."""
    return power_display_name(power)


def powers_text(powers: Iterable[str]) -> str:
    """``France``, ``France and Italy``, ``England, Germany and Austria``."""
    names = [power_name(p) for p in powers]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def duration(minutes: int) -> str:
    """``2 hours``, ``1 day 6 hours``, ``45 minutes``: the one way gm words a length of time."""
    days, rest = divmod(int(minutes), 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = [plural(days, "day") if days else "", plural(hours, "hour") if hours else ""]
    parts.append(plural(mins, "minute") if mins or not (days or hours) else "")
    return " ".join(p for p in parts if p)


def seconds_text(seconds: float) -> str:
    """``12 seconds`` under a minute, else :func:`duration` in whole minutes."""
    whole = max(0, int(seconds))
    return plural(whole, "second") if whole < 60 else duration(whole // 60)


def clean_name(text: str) -> str:
    """A name as it is stored and shown: NFKC (``Ａｌｐｈａ`` is ``Alpha``), without the characters
    that show nothing or turn the text around (Unicode's format and control characters: zero-width
    spaces and joiners, the direction marks, embeddings, overrides and isolates), its spaces single.
    Two names that look alike are then the same text."""
    normal = unicodedata.normalize("NFKC", text)
    kept = "".join(c for c in normal if unicodedata.category(c) not in ("Cf", "Cc") or c.isspace())
    return " ".join(kept.split())


def name_key(text: str) -> str:
    """What two names are compared by: cleaned (:func:`clean_name`) and casefolded."""
    return clean_name(text).casefold()


# The engine words a result for the power that gave the order ("yours", "your own"); everyone reads
# the results post, so there each phrase names the power instead. Applied in this order.
_FOR_EVERYONE: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), words)
    for pattern, words in (
        (r"\(yours ([^,()]+), theirs ([^()]+)\)", r"(\1 against \2)"),
        (r"\(yours ([^,()]+), your ([AF] [A-Z/]+)'s ([^()]+)\)", r"(\1 against \2's \3)"),
        (r"\byour own\b", "{p}'s own"),
        (r"\bis not yours\b", "is not {p}'s"),
        (r"\bbut you play\b", "but it came from"),
        (r"\bdid you mean\b", "perhaps"),
        (r"\byou have\b", "{p} has"),
        (r"\byou do not\b", "{p} does not"),
        (r"\byou (may|must|can|cannot)\b", r"{p} \1"),
        (r"\byours?\b", "{p}'s"),
        (r"\byou\b", "{p}"),
    )
)


def public_reason(reason: str, power: str) -> str:
    """An order's result as everyone reads it (the results post): ``bounced: A MUN - BUR had equal
    strength (1 against 1)``, ``bounced: France's own A BUR held BUR``, where the engine tells the
    power that gave the order ``(yours 1, theirs 1)`` and ``your own A BUR``."""
    name = power_name(power).replace("\\", "")
    for pattern, words in _FOR_EVERYONE:
        reason = pattern.sub(words.replace("{p}", name), reason)
    return reason
