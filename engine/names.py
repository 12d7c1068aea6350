"""Reading place and power names the way players write them.

A name is matched as a sequence of words, so "Mid-Atlantic Ocean", "mid atlantic", "MAO" and "Mid" all
find the same province. Lookup order, most trusted first:

1. an exact name, code or alias from the map file (longest match wins: "English Channel" before
   "English");
2. a unique prefix of a name's words ("Liverp", "Norw Sea", "Gulf of Bot"), at least three letters;
3. a single swap of two neighbouring letters of a name ("Rhur"), when exactly one province fits.

A prefix that fits several provinces is *ambiguous* and is never guessed ("Nor" could be Norway,
Norwegian Sea, North Sea, North Africa or North Atlantic Ocean): a wrong guess would move a unit
somewhere its player did not mean.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from engine.mapdata import GameMap

MIN_PREFIX = 3

_WORD_RE = re.compile(r"[a-z0-9]+|-")
_DASHES = str.maketrans(
    {c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043\ufe58\ufe63\uff0d"}
)


def fold(text: str) -> str:
    """Lower-case, strip accents, turn every kind of dash into '-'."""
    text = text.translate(_DASHES).lower()
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def name_words(text: str) -> tuple[str, ...]:
    """The words of a name as the parser sees them: "St. Petersburg" -> ("st", "petersburg")."""
    return tuple(_WORD_RE.findall(fold(text).replace(".", " ").replace("'", "")))


@dataclass(frozen=True, slots=True)
class Match:
    """Provinces a run of words may name. ``codes`` has one entry unless the words are ambiguous."""

    codes: tuple[str, ...]
    length: int  # how many words were used
    how: str  # "exact", "prefix" or "typo"


MAX_SUGGESTED_LENGTH = 40  # longer than any place name: nothing is close to it
SUGGESTIONS_PER_REQUEST = 100
_BUDGET: ContextVar[list[int] | None] = ContextVar("suggestion_budget", default=None)


@contextmanager
def suggestion_budget(searches: int = SUGGESTIONS_PER_REQUEST) -> Iterator[None]:
    """Within this block at most ``searches`` "did you mean" searches are made: a request full of
    unreadable lines costs milliseconds, not seconds; the lines are refused all the same, the
    later ones without suggestions."""
    token = _BUDGET.set([searches])
    try:
        yield
    finally:
        _BUDGET.reset(token)


@dataclass(slots=True)
class NameIndex:
    """Every way of writing each province and power of one map."""

    game_map: GameMap
    exact: dict[tuple[str, ...], frozenset[str]]
    powers: dict[tuple[str, ...], str]
    spellings: tuple[tuple[tuple[str, ...], str], ...]  # (words, code) for prefix matching
    longest: int
    openers: frozenset[str]  # first words of names longer than one word
    display: dict[str, str]  # lower-case spelling -> code, for "did you mean"

    # --- places ----------------------------------------------------------------------------------

    def exact_at(self, words: list[str], i: int) -> Match | None:
        """The longest exact name starting at ``words[i]``."""
        top = min(self.longest, len(words) - i) if words[i] in self.openers else 1
        for n in range(top, 0, -1):
            codes = self.exact.get(tuple(words[i : i + n]))
            if codes is not None:
                return Match(tuple(sorted(codes)), n, "exact")
        return None

    def prefix_at(self, words: list[str], i: int) -> Match | None:
        """Names whose words begin with ``words[i]`` (and the following words, while they narrow)."""
        first = words[i]
        if len(first) < MIN_PREFIX or first == "-":
            return None
        candidates = [(w, c) for w, c in self.spellings if w[0].startswith(first)]
        if not candidates:
            return None
        used = 1
        while i + used < len(words):
            nxt = words[i + used]
            if nxt == "-":  # "Mid-Atl": a hyphen inside a name, if some candidate continues after it
                if i + used + 1 >= len(words):
                    break
                narrowed = [
                    (w, c)
                    for w, c in candidates
                    if len(w) > used + 1 and w[used] == "-" and _word_fits(w[used + 1], words[i + used + 1])
                ]
                step = 2
            else:
                narrowed = [(w, c) for w, c in candidates if len(w) > used and _word_fits(w[used], nxt)]
                step = 1
            if not narrowed:
                break
            candidates = narrowed
            used += step
        codes = tuple(sorted({c for _, c in candidates}))
        return Match(codes, used, "prefix")

    def typo_at(self, words: list[str], i: int) -> Match | None:
        """A single swap of neighbouring letters that gives exactly one province ("Rhur" -> RUH)."""
        word = words[i]
        if len(word) < 4 or not word.isalpha():
            return None
        found: set[str] = set()
        for k in range(len(word) - 1):
            if word[k] == word[k + 1]:
                continue
            swapped = word[:k] + word[k + 1] + word[k] + word[k + 2 :]
            found.update(self.exact.get((swapped,), ()))
        if len(found) == 1:
            return Match((found.pop(),), 1, "typo")
        return None

    def suggest(self, text: str, limit: int = 3) -> list[str]:
        """Readable names close to ``text``: ["Ruhr (RUH)", ...]. Within a
        :func:`suggestion_budget` only so many searches are made (each costs a fuzzy comparison
        with every name); past it, and for words longer than any name, none."""
        key = " ".join(name_words(text))
        if len(key) > MAX_SUGGESTED_LENGTH:
            return []
        budget = _BUDGET.get()
        if budget is not None:
            if budget[0] <= 0:
                return []
            budget[0] -= 1
        close = difflib.get_close_matches(key, list(self.display), n=12, cutoff=0.6)
        out: list[str] = []
        for spelling in close:
            label = self.label(self.display[spelling])
            if label not in out:
                out.append(label)
            if len(out) == limit:
                break
        return out

    def label(self, code: str) -> str:
        """``Norway (NWY)``."""
        prov = self.game_map.provinces.get(code)
        return code if prov is None else f"{prov.name} ({code})"

    # --- powers ----------------------------------------------------------------------------------

    def power_at(self, words: list[str], i: int) -> tuple[str, int] | None:
        """A power named at ``words[i]`` (name, adjective or alias) and how many words it used."""
        for n in (3, 2, 1):
            if i + n <= len(words):
                power = self.powers.get(tuple(words[i : i + n]))
                if power is not None:
                    return power, n
        return None


def _word_fits(name_word: str, typed: str) -> bool:
    return name_word == typed or (len(typed) >= MIN_PREFIX and name_word.startswith(typed))


_INDEXES: dict[int, NameIndex] = {}


def name_index(game_map: GameMap) -> NameIndex:
    """The (cached) name index of a map."""
    index = _INDEXES.get(id(game_map))
    if index is None or index.game_map is not game_map:
        index = _build(game_map)
        _INDEXES[id(game_map)] = index
    return index


def _build(game_map: GameMap) -> NameIndex:
    exact: dict[tuple[str, ...], set[str]] = {}
    spellings: list[tuple[tuple[str, ...], str]] = []
    display: dict[str, str] = {}
    for code, prov in game_map.provinces.items():
        texts = [code, prov.name, *prov.aliases]
        for text in texts:
            words = name_words(text)
            if not words:
                continue
            variants = {words}
            squashed = "".join(w for w in words if w != "-")
            variants.add((squashed,))  # "StPetersburg", "MidAtlantic"
            if "-" in words:
                variants.add(tuple(w for w in words if w != "-"))  # "Mid Atlantic"
            for v in variants:
                exact.setdefault(v, set()).add(code)
            if text != code:
                spellings.append((words, code))
                if "-" in words:
                    spellings.append((tuple(w for w in words if w != "-"), code))
            display[" ".join(w for w in words if w != "-")] = code
    powers: dict[tuple[str, ...], str] = {}
    for power in game_map.powers:
        for text in (power, *game_map.power_aliases.get(power, ())):
            words = name_words(text)
            if words:
                powers[words] = power
                powers[tuple(w for w in words if w != "-")] = power
    return NameIndex(
        game_map=game_map,
        exact={k: frozenset(v) for k, v in exact.items()},
        powers=powers,
        spellings=tuple(spellings),
        longest=max(len(k) for k in exact),
        openers=frozenset(k[0] for k in exact if len(k) > 1),
        display=display,
    )
