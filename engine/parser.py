"""The order language: reading what players type into :mod:`engine.orders` values.

``parse_order`` reads one order in any of the notations players use (docs/ARCHITECTURE.md,
"Names and order text"): canonical text (``A PAR - BUR``), the rulebook's (``A Par-Bur``,
``F Con-Bul EC``, ``A Tri Holds``), full names (``F North Sea Convoys A London - Belgium``), aliases,
any case, unicode dashes, words for the verbs, coasts in every common form. It raises
:class:`OrderParseError` (with a reason and a hint) and nothing else.

Canonical text takes a fast path (a split and a few dictionary lookups) because the adjudicator parses
every order of every phase; everything else goes through the tolerant reader below it.

``split_orders`` turns a pasted block into one line per order.
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from dataclasses import dataclass
from typing import NamedTuple

from engine.errors import OrderParseError
from engine.mapdata import GameMap, load_map, province_of
from engine.names import Match, NameIndex, fold, name_index
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
    quick_convoy,
    quick_hold,
    quick_move,
    quick_support_hold,
    quick_support_move,
    shared_unit,
)
from engine.variants import convoy_ports

MAX_ORDER_LENGTH = 300
_PHASE_KINDS = (None, "M", "R", "A")

# Symbol kinds of the tolerant reader.
TYPE = "type"
LOC = "place"
POWER = "power"
MOVE = "move"
HOLD = "hold"
SUPPORT = "support"
CONVOY = "convoy"
VIA = "via"
BY = "by"
BUILD = "build"
DISBAND = "disband"
REMOVE = "remove"
RETREAT = "retreat"
WAIVE = "waive"
SEP = "separator"
COAST = "coast"

_KEYWORDS: dict[str, tuple[str, str | None]] = {}
for _kind, _value, _spellings in (
    (TYPE, "A", "a army armies"),
    (TYPE, "F", "f fleet fleets"),
    (MOVE, None, "- to m mv move moves moving attack attacks attacking into"),
    (HOLD, None, "h hold holds holding stand stands standing"),
    (SUPPORT, None, "s sup supp support supports supporting"),
    (CONVOY, None, "c con convoy convoys convoying"),
    (VIA, None, "via convoyed"),
    (BY, None, "by"),
    (BUILD, None, "b build builds building"),
    (DISBAND, None, "d disband disbands disbanding disbanded"),
    (REMOVE, None, "remove removes removing"),
    (RETREAT, None, "r retreat retreats retreating"),
    (WAIVE, None, "waive waives waived"),
    (SEP, None, ", ; and & | /"),
):
    for _word in _spellings.split():
        _KEYWORDS[_word] = (_kind, _value)
_KEYWORDS.pop("con")  # "Con" is Constantinople; only the longer words mean "convoy"
# Joined forms from old rulebooks: "A Bur SA Tyr-Mun".
_JOINED = {"sa": (SUPPORT, "A"), "sf": (SUPPORT, "F"), "ca": (CONVOY, "A"), "cf": (CONVOY, "F")}
_FILLERS = frozenset({"the", "in", "at", "from", "unit", "my", "our", "new", "an"})
_COAST_WORDS = {"nc": "NC", "sc": "SC", "ec": "EC", "wc": "WC"}
_COMPASS = {
    "north": "NC",
    "south": "SC",
    "east": "EC",
    "west": "WC",
    "n": "NC",
    "s": "SC",
    "e": "EC",
    "w": "WC",
}
_COAST_NAMES = {"NC": "north", "SC": "south", "EC": "east", "WC": "west"}

# "(nc)", "/nc", "/n", "(north coast)", "/ n.c." -> " /nc"; bare "nc" and "north coast" are read later.
_SLASH_COAST_RE = re.compile(
    r"\s*[/(]\s*(?:(north|south|east|west)(?:ern)?(?:\s*coast)?|([nsew])\s*\.?\s*(?:c\s*\.?)?)(?![a-z])\s*\)?"
)
_TOKEN_RE = re.compile(r"/(?:nc|sc|ec|wc)|[a-z0-9][a-z0-9.']*|->|=>|-->|[-,;&|:]|\S")
_LEAD_RE = re.compile(r"^\s*(?:[-*\u2022\u00b7\u2023\u25aa>]+|\(?\d{1,3}\s*[.):])\s*")
_QUOTES = "\"'`\u201c\u201d\u2018\u2019\u00ab\u00bb"
_TRAILING = ".,;:!?"
_ARROWS = ("->", "=>", "-->", "\u2192", "\u21d2", "\u27f6")


# --- the fast path for canonical text ---------------------------------------------------------------


@dataclass(slots=True)
class _Canon:
    """Per-map tables for the fast path, and the lines of that map read so far.

    ``units[t][TOKEN]`` is the shared Unit for unit type ``t`` ("A", "F", or None when not given)
    standing at the upper-case location or plain name ``TOKEN``; ``locations[TOKEN]`` the location.
    ``lines[kind][text]`` is every line read for that kind of phase (see :func:`read_line`); orders
    are immutable, so sharing them is safe.
    """

    game_map: GameMap
    units: dict[str | None, dict[str, Unit]]
    locations: dict[str, str]
    lines: dict[str | None, dict[str, ParsedLine]]


_CANON: dict[int, tuple[GameMap, _Canon]] = {}
# the map asked for last, and its table (none before the first)
_LAST: list[tuple[GameMap, _Canon] | tuple[None, None]] = [(None, None)]
_FAST_VERBS = {
    "H": "H",
    "HOLD": "H",
    "HOLDS": "H",
    "D": "D",
    "B": "B",
    "-": "-",
    "R": "R",
    "S": "S",
    "C": "C",
}
_WAIVE = Waive()
_CACHE_SIZE = 16384  # lines remembered per map and kind of phase, before starting afresh


def _canon(game_map: GameMap) -> _Canon:
    last = _LAST[0]
    if last[0] is game_map:
        return last[1]
    hit = _CANON.get(id(game_map))
    if hit is None or hit[0] is not game_map:
        hit = _CANON[id(game_map)] = (game_map, _build_canon(game_map))
    _LAST[0] = hit
    return hit[1]


def _build_canon(game_map: GameMap) -> _Canon:
    locations = {loc: loc for loc in game_map.locations}
    # One-word names and aliases that name one province (MID, NRG, GOL, KIEL, PORT...) are plain enough.
    index = name_index(game_map)
    for words, codes in index.exact.items():
        if len(words) == 1 and len(codes) == 1 and words[0].isalpha() and words[0] not in _KEYWORDS:
            locations.setdefault(words[0].upper(), next(iter(codes)))
    units = {t: {key: shared_unit(t, loc) for key, loc in locations.items()} for t in ("A", "F", None)}
    return _Canon(game_map, units, locations, {kind: {} for kind in _PHASE_KINDS})


def forget_lines() -> None:
    """Empty the memory of lines read (for benchmarks of text never seen, and for tests)."""
    for _, table in _CANON.values():
        for cache in table.lines.values():
            cache.clear()


def _fast(text: str, table: _Canon, phase_kind: str | None) -> Order | None:
    """Canonical (and plain three-letter) orders; None means "let the tolerant reader decide".
    Movement orders are built with the quick constructors of engine.orders (the same objects)."""
    s = text.upper()
    if "-" in s:
        s = s.replace("-", " - ")
    if "\u2013" in s:
        s = s.replace("\u2013", " - ")
    toks = s.split()
    n = len(toks)
    if n == 0:
        return None
    first = toks[0]
    if first == "A" or first == "F":
        units = table.units[first]
        i = 1
        if n == 1:
            return None
    else:
        units = table.units[None]
        i = 0
    unit = units.get(toks[i])
    if unit is None:
        return None if n != 1 or first != "WAIVE" else _WAIVE
    i += 1
    left = n - i
    if left == 0:
        return Build(unit) if phase_kind == "A" else None
    verb = _FAST_VERBS.get(toks[i])
    if verb is None:
        return None
    if left == 1:
        if verb == "H":
            return quick_hold(unit)
        if verb == "D":
            return Remove(unit) if phase_kind == "A" else Disband(unit)
        if verb == "B":
            return Build(unit)
        return None
    if verb == "-" or verb == "R":
        dest = table.locations.get(toks[i + 1])
        if dest is None:
            return None
        if left == 2:
            if verb == "R" or phase_kind == "R":
                return Retreat(unit, dest)
            return quick_move(unit, dest)
        if left == 3 and verb == "-" and toks[i + 2] == "VIA":
            return quick_move(unit, dest, True)
        return None
    if verb != "S" and verb != "C":
        return None
    i += 1
    second = toks[i]
    if second == "A" or second == "F":
        i += 1
        if i >= n:
            return None
        other = table.units[second].get(toks[i])
    else:
        other = table.units[None].get(second)
    if other is None:
        return None
    i += 1
    left = n - i
    if left == 0:
        return quick_support_hold(unit, other) if verb == "S" else None
    if left == 1 and verb == "S" and _FAST_VERBS.get(toks[i]) == "H":
        return quick_support_hold(unit, other)
    if left != 2 or toks[i] != "-":
        return None
    dest = table.locations.get(toks[i + 1])
    if dest is None:
        return None
    if verb == "S":
        return quick_support_move(unit, other, dest)
    return quick_convoy(unit, other, dest)


# --- the tolerant reader ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sym:
    """One meaningful piece of an order line: a keyword, a unit type, a place or a power."""

    kind: str
    value: str | None
    text: str  # what the player wrote, for messages


class ParsedLine(NamedTuple):
    """An order with what the line said around it: the power it was addressed as, if any, and
    whether it was a bare unit (``A Mun``) that only the adjustment phase makes a build.
    (A named tuple: immutable like the orders, and quicker to build for every new line read.)"""

    order: Order
    power: str | None
    bare: bool


def parse_order(text: str, game_map: GameMap | None = None, phase_kind: str | None = None) -> Order:
    """Read one order. ``phase_kind`` ('M', 'R', 'A' or None) decides what a bare or plain order means:
    in 'R' a move is a Retreat, in 'A' a bare unit is a Build and a disband a Remove.

    Raises OrderParseError (with ``reason`` and ``hint``), never anything else.
    """
    return read_line(text, game_map, phase_kind).order


def read_line(text: str, game_map: GameMap | None = None, phase_kind: str | None = None) -> ParsedLine:
    """Like :func:`parse_order`, also telling the power the line was addressed to and whether the
    order was a bare unit. Raises OrderParseError only.

    Lines read are remembered per process, by map, kind of phase and text, since the same lines
    come back again and again (every game's "A PAR - BUR", edited order lists, retries); what a
    text means does not depend on the board, only on the map and the kind of phase. A line not
    seen before takes the fast path for canonical text when it can, else the tolerant reader.
    """
    gm = game_map if game_map is not None else load_map()
    last = _LAST[0]
    table = last[1] if last[0] is gm else _canon(gm)  # _canon(gm), one call fewer for the usual map
    cache = table.lines.get(phase_kind) if type(text) is str else None
    if cache is None:  # not text, or not a kind of phase: the tolerant reader refuses it
        return _read_safely(text, table.game_map, phase_kind)
    line = cache.get(text)
    if line is not None:
        return line
    hit = _fast(text, table, phase_kind) if len(text) <= MAX_ORDER_LENGTH else None
    if hit is not None:
        # A build the fast path read without a closing "B" was a bare unit ("A MUN").
        bare = type(hit) is Build and text.split()[-1].upper() != "B"
        line = tuple.__new__(ParsedLine, (hit, None, bare))  # ParsedLine(...) without its __new__
    else:
        line = _read_safely(text, table.game_map, phase_kind)
    if len(cache) >= _CACHE_SIZE:
        cache.clear()
    cache[text] = line
    return line


def _read_safely(text: str, gm: GameMap, phase_kind: str | None) -> ParsedLine:
    """The tolerant reader behind a safety net: a bug in it refuses the line, it does not raise."""
    try:
        return _read_line(text, gm, phase_kind)
    except OrderParseError:
        raise
    except Exception as exc:  # a bug here must not take a whole phase down; say what to do instead
        raise OrderParseError(
            f"could not read this order ({type(exc).__name__})",
            "write it as e.g. 'A PAR - BUR'; if it is right, tell a moderator",
        ) from exc


def _read_line(text: str, game_map: GameMap | None, phase_kind: str | None) -> ParsedLine:
    """The tolerant reader. Only raises OrderParseError for bad input; anything else is a bug."""
    if not isinstance(text, str):
        raise OrderParseError(f"an order must be text, not {type(text).__name__}", "write e.g. 'A PAR - BUR'")
    gm = game_map if game_map is not None else load_map()
    if phase_kind not in _PHASE_KINDS:
        raise OrderParseError(f"unknown phase kind {phase_kind!r}", "use 'M', 'R', 'A' or None")
    cleaned = _clean(text)
    if not cleaned:
        raise OrderParseError("this line is empty", "write an order, e.g. 'A PAR - BUR'")
    if len(cleaned) > MAX_ORDER_LENGTH:
        raise OrderParseError(
            f"this line is too long to be one order ({len(cleaned)} characters)",
            "put each order on its own line",
        )
    index = name_index(gm)
    words = _words(cleaned)
    power, words = _leading_power(words, index)
    syms = _symbols(words, index)
    order, bare = _Grammar(syms, gm, index, phase_kind).order()
    return ParsedLine(order, power, bare)


def _visible(text: str) -> str:
    """Drop invisible format characters (zero-width spaces and joiners, direction marks, a byte-order
    mark, soft hyphens: Unicode category Cf) that copying from chats and web pages brings along, and
    make every other kind of space (no-break, thin...) a plain one."""
    if text.isascii():
        return text
    return "".join(" " if c.isspace() else c for c in text if unicodedata.category(c) != "Cf")


def _clean(text: str) -> str:
    s = _visible(text).strip()
    for _ in range(3):
        before = s
        s = s.strip().strip(_QUOTES).strip().rstrip(_TRAILING)
        s = _LEAD_RE.sub("", s, count=1) if _LEAD_RE.match(s) and not _starts_like_dash_order(s) else s
        if s == before:
            break
    return s.strip()


def _starts_like_dash_order(s: str) -> bool:
    """'- A Par-Bur' is a bullet; '-> Bur' is not a bullet but nonsense either way."""
    return s.startswith(("->", "-->"))


def _words(cleaned: str) -> list[str]:
    s = fold(cleaned)
    for arrow in _ARROWS:
        s = s.replace(arrow, " - ")
    s = _SLASH_COAST_RE.sub(lambda m: " /" + _compass(m.group(1) or m.group(2)).lower() + " ", s)
    out: list[str] = []
    for tok in _TOKEN_RE.findall(s):
        if tok[0].isalnum():
            tok = tok.replace(".", "").replace("'", "")
            if not tok:
                continue
        elif tok in ("(", ")", "[", "]", "{", "}", "!", "?", "."):
            continue
        out.append(tok)
    return out


def _compass(word: str) -> str:
    return _COMPASS[word]


def _leading_power(words: list[str], index: NameIndex) -> tuple[str | None, list[str]]:
    """'France: A Par-Bur' -> ('FRANCE', [...]); 'France A Par-Bur' likewise (no colon needed when a
    unit follows). A name before a colon that is not a power is refused."""
    if ":" in words:
        colon = words.index(":")
        head = [w for w in words[:colon] if w != "-"]
        hit = index.power_at(head, 0) if head else None
        if hit is None or hit[1] != len(head):
            raise OrderParseError(
                f"'{' '.join(words[:colon])}:' is not a power",
                f"start the line with the order itself, or with a power: {', '.join(index.game_map.powers)}",
            )
        return hit[0], words[colon + 1 :]
    if words and words[0] not in _KEYWORDS:
        hit = index.power_at(words, 0)
        if hit is not None and len(words) > hit[1]:
            nxt = words[hit[1]]
            # a power's name, then a unit: "France A Par-Bur"; also where the name is a place's too
            # ("Ankara A Ank-Con": Chaos's powers are named after their home centres), as no order
            # starts with a place and then a unit type
            if _KEYWORDS.get(nxt, ("",))[0] == TYPE:
                return hit[0], words[hit[1] :]
    return None, words


def _symbols(words: list[str], index: NameIndex) -> list[Sym]:
    """Resolve words into keywords, unit types, places (with coasts) and powers."""
    syms: list[Sym] = []
    i = 0
    n = len(words)
    while i < n:
        w = words[i]
        if w.startswith("/") and len(w) == 3:
            syms.append(Sym(COAST, w[1:].upper(), w))
            i += 1
            continue
        if w in _COAST_WORDS:
            syms.append(Sym(COAST, _COAST_WORDS[w], w))
            i += 1
            continue
        if w in ("north", "south", "east", "west") and i + 1 < n and words[i + 1] == "coast":
            syms.append(Sym(COAST, _COMPASS[w], f"{w} coast"))
            i += 2
            continue
        match = index.exact_at(words, i)
        if match is not None and not (match.length == 1 and w in _KEYWORDS):
            syms.append(_place(words, i, match, index))
            i += match.length
            continue
        if w in _KEYWORDS:
            kind, value = _KEYWORDS[w]
            syms.append(Sym(kind, value, w))
            i += 1
            continue
        if w in _JOINED:
            kind, value = _JOINED[w]
            syms.append(Sym(kind, None, w[0]))
            syms.append(Sym(TYPE, value, w[1]))
            i += 1
            continue
        if w in (">", "->", "=>", "-->"):
            syms.append(Sym(MOVE, None, w))
            i += 1
            continue
        if w in _FILLERS:
            i += 1
            continue
        power = index.power_at(words, i)
        if power is not None:
            syms.append(Sym(POWER, power[0], " ".join(words[i : i + power[1]])))
            i += power[1]
            continue
        match = index.prefix_at(words, i) or index.typo_at(words, i)
        if match is not None:
            syms.append(_place(words, i, match, index))
            i += match.length
            continue
        raise _unknown(words, i, index)
    return syms


def _place(words: list[str], i: int, match: Match, index: NameIndex) -> Sym:
    written = " ".join(words[i : i + match.length]).replace(" - ", "-")
    if len(match.codes) > 1:
        readings = ", ".join(index.label(c) for c in match.codes)
        raise OrderParseError(
            f"'{written}' could mean several places: {readings}",
            f"write the three-letter code, e.g. {' or '.join(match.codes[:2])}",
        )
    return Sym(LOC, match.codes[0], written)


def _unknown(words: list[str], i: int, index: NameIndex) -> OrderParseError:
    w = words[i]
    if w in ("swi", "switzerland", "swiss"):
        return OrderParseError(
            "Switzerland is impassable: no unit can enter or support into it",
            "choose another province",
        )
    if w == ":":
        return OrderParseError("a ':' may only follow a power's name at the start", "remove the ':'")
    if not any(c.isalnum() for c in w):
        return OrderParseError(f"unexpected '{w}' in this order", "orders use letters and '-' only")
    if w in index.openers and i + 1 < len(words) and words[i + 1].isalpha() and words[i + 1] not in _KEYWORDS:
        # the first word of a longer name ("St Petersberg"): the misspelling is further on
        phrase = f"{w} {words[i + 1]}"
        close = index.suggest(phrase)
        if close:
            return OrderParseError(f"unknown place '{phrase}'", f"did you mean {' or '.join(close)}?")
    close = index.suggest(w)
    hint = (
        f"did you mean {' or '.join(close)}?" if close else "use the province's name or its three-letter code"
    )
    return OrderParseError(f"unknown place or word '{w}'", hint)


_EXAMPLES = {
    None: "{u} H' or '{u} - <place>",
    "M": "{u} H' or '{u} - <place>",
    "R": "{u} R <place>' or '{u} D",
    "A": "{u} B' or '{u} D",
}
_EXPECT_AFTER_UNIT = {
    None: "an order after it: H (hold), - place (move), S (support) or C (convoy)",
    "M": "an order after it: H (hold), - place (move), S (support) or C (convoy)",
    "R": "R place (retreat) or D (disband) after it",
    "A": "B (build) or D (remove) after it",
}


def _shown(sym: Sym) -> str:
    if sym.kind in (TYPE, LOC, POWER) and sym.value:
        return sym.value
    return sym.text.upper() if len(sym.text) == 1 else sym.text


class _Grammar:
    """Recursive descent over the symbols of one line."""

    def __init__(self, syms: list[Sym], gm: GameMap, index: NameIndex, phase_kind: str | None) -> None:
        self.syms = syms
        self.pos = 0
        self.gm = gm
        self.index = index
        self.phase_kind = phase_kind

    # --- helpers -------------------------------------------------------------------------------------

    def peek(self, k: int = 0) -> Sym | None:
        j = self.pos + k
        return self.syms[j] if j < len(self.syms) else None

    def kind(self, k: int = 0) -> str | None:
        s = self.peek(k)
        return None if s is None else s.kind

    def take(self) -> Sym:
        s = self.syms[self.pos]
        self.pos += 1
        return s

    def skip(self, *kinds: str) -> bool:
        if self.kind() in kinds:
            self.pos += 1
            return True
        return False

    def so_far(self) -> str:
        shown = (_shown(s) for s in self.syms[: self.pos])
        return " ".join(shown) or "(nothing)"

    def incomplete(self, expected: str, example: str) -> OrderParseError:
        got = self.peek()
        if got is None:
            reason = f"this order stops too early: read '{self.so_far()}' and expected {expected}"
        else:
            reason = f"read '{self.so_far()}' and expected {expected}, not '{_shown(got)}'"
        return OrderParseError(reason, f"e.g. '{example}'")

    # --- pieces --------------------------------------------------------------------------------------

    def location(self, what: str, example: str) -> str:
        s = self.peek()
        if s is None or s.kind != LOC:
            if s is not None and s.kind == POWER:
                raise OrderParseError(
                    f"'{s.text}' is a power, not a place",
                    f"name a province, e.g. '{example}'",
                )
            raise self.incomplete(what, example)
        self.pos += 1
        code = s.value or ""
        if self.kind() == COAST:
            coast_sym = self.take()
            return self.with_coast(code, coast_sym.value or "", s.text)
        return code

    def with_coast(self, code: str, coast: str, written: str) -> str:
        prov = self.gm.provinces[code]
        if coast in prov.coasts:
            return f"{code}/{coast}"
        # A coast the province does not have is ignored, as DATC 4.B.6 prefers ("such garbage in the
        # orders is just ignored"): A LVP - CLY/SC is A LVP - CLY. Where the province has two coasts,
        # validation then asks for one of them as for a move naming none (6.B.1).
        return code

    def unit(self, role: str, example: str) -> Unit:
        self.skip(POWER)  # "A Ser S Turkish A Bul-Rum": the nationality is a note for the reader
        here = self.peek()
        if (
            here is not None
            and here.kind == LOC
            and self.kind(1) == TYPE
            and self.kind(2) == LOC
            and (named := self.index.power_at(here.text.split(), 0)) is not None
            and named[1] == len(here.text.split())
        ):
            self.pos += 1  # "A Gas S Munich A Bur-Mar" (Chaos): a power named like its home centre
        t: str | None = None
        if self.kind() == TYPE:
            t = self.take().value
            nxt = self.peek()
            if (
                t == "A"
                and self.syms[self.pos - 1].text == "a"
                and nxt is not None
                and nxt.text in ("army", "fleet")
            ):
                t = self.take().value  # "build a fleet in Kiel": 'a' was an article
        loc = self.location(f"the province of {role}", example)
        return shared_unit(t, loc)

    # --- orders --------------------------------------------------------------------------------------

    def order(self) -> tuple[Order, bool]:
        while self.kind() == SEP:  # stray leading separator
            self.pos += 1
        if self.peek() is None:
            raise OrderParseError("there is no order on this line", "write e.g. 'A PAR - BUR'")
        if all(s.kind == POWER for s in self.syms):
            raise OrderParseError(
                f"'{self.syms[0].text}' is a power's name, not an order",
                "write the order after it, e.g. 'France: A PAR - BUR'",
            )
        order, bare = self.head()
        self.finish(order)
        return order, bare

    def head(self) -> tuple[Order, bool]:
        k = self.kind()
        if k == WAIVE:
            self.pos += 1
            self.skip(BUILD)
            return Waive(), False
        if k == BUILD:
            self.pos += 1
            if self.kind() == WAIVE:  # "build: waive"
                self.pos += 1
                return Waive(), False
            return Build(self.unit("the new unit", "Build F KIE")), False
        if k == DISBAND:
            self.pos += 1
            return self.disband(self.unit("the unit to disband", "Disband A PAR")), False
        if k == REMOVE:
            self.pos += 1
            return self.remove(self.unit("the unit to remove", "Remove A PAR")), False
        if k == RETREAT and self.kind(1) in (TYPE, LOC, POWER):
            self.pos += 1
            unit = self.unit("the retreating unit", "Retreat A PAR to BUR")
            self.skip(MOVE)
            return Retreat(unit, self.location("where it retreats to", f"{unit} R BUR")), False
        if k in (MOVE, SUPPORT, CONVOY, HOLD, VIA, BY, RETREAT, COAST, SEP):
            s = self.peek()
            assert s is not None
            raise OrderParseError(
                f"an order starts with the unit, not with '{s.text}'",
                "e.g. 'A PAR - BUR' (unit type, its province, then the order)",
            )
        unit = self.unit("the unit", "A PAR - BUR")
        return self.after_unit(unit)

    def after_unit(self, unit: Unit) -> tuple[Order, bool]:
        k = self.kind()
        if k is None:
            if self.phase_kind == "A":
                return Build(unit), True
            raise self.incomplete(
                _EXPECT_AFTER_UNIT[self.phase_kind], _EXAMPLES[self.phase_kind].format(u=unit)
            )
        if k == HOLD:
            self.pos += 1
            return Hold(unit), False
        if k == MOVE:
            self.pos += 1
            while self.skip(MOVE):
                pass
            if self.kind() == HOLD:  # "F Lon-Holds"
                self.pos += 1
                return Hold(unit), False
            if self.kind() == RETREAT:  # "A Par - retreat Bur"? read as a retreat
                self.pos += 1
                self.skip(MOVE)
                return Retreat(unit, self.location("where it retreats to", f"{unit} R BUR")), False
            return self.move(unit), False
        if k == RETREAT:
            self.pos += 1
            self.skip(MOVE)
            return Retreat(unit, self.location("where it retreats to", f"{unit} R BUR")), False
        if k == SUPPORT:
            self.pos += 1
            return self.support(unit), False
        if k == CONVOY:
            self.pos += 1
            return self.convoy(unit), False
        if k == DISBAND:
            self.pos += 1
            return self.disband(unit), False
        if k == REMOVE:
            self.pos += 1
            return self.remove(unit), False
        if k == BUILD:
            self.pos += 1
            return Build(unit), False
        if k in (LOC, TYPE, POWER) and self.phase_kind == "A" and unit.type is not None:
            return Build(unit), True  # "A Mun, F Kie" split badly: finish() reports the second order
        if k == LOC and self.phase_kind == "R":  # "A Ber Mun": the dash left out
            return Retreat(unit, self.location("where it retreats to", f"{unit} R BUR")), False
        if k == LOC and self.phase_kind in (None, "M"):  # "A Ber Mun": a move without its dash
            return self.move(unit), False
        raise self.incomplete(_EXPECT_AFTER_UNIT[self.phase_kind], _EXAMPLES[self.phase_kind].format(u=unit))

    def at_sea(self, province: str) -> bool:
        """A sea, or a convoy port (engine.rules): where a written convoy route may run."""
        return self.gm.is_sea(province) or province in convoy_ports(self.gm.name)

    def move(self, unit: Unit) -> Order:
        dest = self.location("where it moves to", f"{unit} - BUR")
        via = False
        # "A Lon-Nth-Nwy": a convoy route written out; the seas in between are only a route.
        while self.kind() == MOVE and (then := self.peek(1)) is not None and then.kind == LOC:
            if not self.at_sea(province_of(dest)):
                raise OrderParseError(
                    f"this order names two destinations ({dest} and then {then.text})",
                    "a unit moves one province at a time; an army's convoy route goes only through seas",
                )
            self.pos += 1
            dest = self.location("where it moves to", f"{unit} - BUR")
            via = True
        if self.kind() == VIA or (self.kind() == BY and self.kind(1) == CONVOY):
            self.pos += 1
            self.skip(CONVOY)
            via = True
            while (sea := self.peek()) is not None and sea.kind == LOC and self.at_sea(sea.value or ""):
                self.pos += 1  # "via Nth": the route is the fleets' business
                self.skip(SEP)
        elif self.kind() == CONVOY and self.kind(1) is None:  # "A Lon-Nwy convoy"
            self.pos += 1
            via = True
        if via:
            return Move(unit, dest, True)
        if self.phase_kind == "R":
            return Retreat(unit, dest)
        return Move(unit, dest)

    def support(self, unit: Unit) -> Order:
        example = f"{unit} S A MAR - BUR"
        other = self.unit("the supported unit", example)
        if self.kind() == MOVE:
            self.pos += 1
            while self.skip(MOVE):
                pass
            if self.kind() == HOLD:
                self.pos += 1
                return SupportHold(unit, other)
            dest = self.location("where the supported unit moves to", example)
            if self.skip(VIA) or (self.kind() == BY and self.kind(1) == CONVOY and self.skip(BY)):
                self.skip(CONVOY)  # "S A Lon - Bel via convoy": the supported move's own business
            return SupportMove(unit, other, dest)
        self.skip(HOLD)
        return SupportHold(unit, other)

    def convoy(self, unit: Unit) -> Order:
        example = f"{unit} C A LON - NWY"
        army = self.unit("the convoyed army", example)
        if self.kind() != MOVE:
            raise self.incomplete("'-' and the army's destination", example)
        while self.skip(MOVE):
            pass
        return Convoy(unit, army, self.location("where the army goes", example))

    def disband(self, unit: Unit) -> Order:
        return Remove(unit) if self.phase_kind == "A" else Disband(unit)

    def remove(self, unit: Unit) -> Order:
        return Disband(unit) if self.phase_kind == "R" else Remove(unit)

    def finish(self, order: Order) -> None:
        while self.kind() == SEP and self.kind(1) is None:
            self.pos += 1  # trailing separator
        rest = self.syms[self.pos :]
        if not rest:
            return
        first = rest[0]
        if first.kind == SEP:
            rest = rest[1:]
        if first.kind == SEP or first.kind in (TYPE, LOC, POWER, BUILD, DISBAND, REMOVE, WAIVE):
            second = " ".join(s.text for s in rest)
            with contextlib.suppress(OrderParseError):
                second = str(_Grammar(rest, self.gm, self.index, self.phase_kind).order()[0])
            raise OrderParseError(
                f"this line holds more than one order: '{order}' and '{second}'",
                "put each order on its own line",
            )
        extra = " ".join(s.text for s in rest)
        raise OrderParseError(
            f"read the order '{order}' but did not understand what follows it: '{extra}'",
            "remove the extra words, or put each order on its own line",
        )


# --- splitting a pasted block ----------------------------------------------------------------------

_BULLET_RE = re.compile(r"^\s*(?:[*\u2022\u00b7\u2023\u25aa>]+|-(?![->])|\(?\d{1,3}\s*[.):]|#\d{1,3}\b)\s*")
_FENCE_RE = re.compile(r"^\s*```\w*\s*$")
_HEADER_RE = re.compile(r"^\s*\**\s*([A-Za-z][A-Za-z\- ]{1,30}?)\s*\**\s*:\s*\**\s*(.*)$")


def split_orders(text: str, game_map: GameMap | None = None) -> list[str]:
    """Cut a pasted block into order lines: newlines, ';' and ',' separate orders; bullets ("- ",
    "* ", "1.") and code fences are dropped; blank pieces are dropped. A power's name keeps its
    place so nothing the player wrote is lost: a heading alone on its line ("France:") goes in front
    of each order below it, and a name in front of orders on the same line ("Italy: A Ven-Tyr")
    in front of those orders only (and of the next line's, when the line ends with ',' or ';' as
    the list runs on). A piece that is not an order stays a line of its own for the parser to
    refuse with a reason.
    """
    if not isinstance(text, str):
        return []
    index = name_index(game_map if game_map is not None else load_map())
    out: list[str] = []
    heading = ""
    carried = None  # a name whose list of orders ran on past the end of its line ("...,")
    for raw_line in text.splitlines():
        if _FENCE_RE.match(raw_line):
            continue
        line = _BULLET_RE.sub("", _visible(raw_line), count=1).strip()
        if not line:
            continue
        prefix = heading if carried is None else carried
        carried = None
        m = _HEADER_RE.match(line)
        if m is not None:
            words = _power_words(m.group(1))
            hit = index.power_at(words, 0)
            if hit is not None and hit[1] == len(words):
                line = m.group(2).strip()
                if not line:
                    heading = f"{m.group(1).strip()}: "  # a heading: for the lines below
                    continue
                prefix = f"{m.group(1).strip()}: "  # for this line's orders only
        if line.endswith((",", ";")):
            carried = prefix  # the list goes on on the next line (the rulebook's layout)
        for piece in re.split(r"[;,]", line):
            piece = _BULLET_RE.sub("", piece, count=1).strip()
            if piece:
                out.append(prefix + piece)
    return out


def _power_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z]+", fold(text))]
