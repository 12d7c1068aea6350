"""Read a DPjudge ``.map`` file (with the files it includes) into our map facts
(data/variants/standard/map.json form).

Standard library only, so that the tests can read a source map without the build-time tools. Used by
scripts/convert_variant.py; see that file for how to run the conversion.

The input format, in our words, as far as the variants we convert use it (the maps themselves are
never committed: see data/variants/README.md):

- ``#`` starts a comment line. ``USE file`` / ``USES file`` read another file in place; ``MAP name``
  does the same with ``name.map`` and makes it the base map.
- ``Full Name = abbr alias alias ...``: a place and how players may write it. The first word is the
  code used everywhere else; ``abbr/nc`` names a coast of a split-coast province. ``+`` stands for a
  space, a trailing ``?`` marks an alias too ambiguous to guess from.
- ``WATER|COAST|LAND|PORT|SHUT LOC ABUTS LOC ...``: the terrain of a place and what it touches.
  PORT is coastal land whose fleet may also convoy; SHUT is impassable (Switzerland). A split-coast
  province has one line per coast (``SPA/NC``, fleets) and one in lower case (``spa``, armies).
  In an ABUTS list the case of a name says who may cross: ``VEN`` anybody the terrain allows,
  ``ven`` (lower case) armies only, ``Ven`` (capitalised) fleets only. A name may carry a special
  mark: ``*MAO`` is a Cape of Good Hope crossing (1900). A later line for the same place replaces the
  earlier one.
- ``POWER (ADJECTIVE) HOME HOME ...``: a power, its adjective (``ADJ:X`` gives its one-letter
  abbreviation too) and home centres; ``UNOWNED`` (or ``NEUTRAL``) lists the other centres. A home
  written ``*SIB`` is not a centre but a "partisan" site of that power. After a power line:
  ``A LOC`` / ``F LOC`` are its starting units (a unit replaces any other unit in that province),
  ``OWNS LOC ...`` the centres it owns at the start when they are not just its homes.
- ``BEGIN SPRING 1901 MOVEMENT``: the first phase; ``VICTORY n``: centres to win (else a majority of
  the centres); ``RULE X``: a judge rule the map needs (``BUILD_ANY``: build in any owned centre).
- ``FLAGS``, ``FLAG``, ``NOTIFY``: pictures and e-mail, nothing to do with the game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

TERRAINS = ("WATER", "COAST", "LAND", "PORT", "SHUT", "AMEND")
KIND_OF_TERRAIN = {"WATER": "sea", "COAST": "coast", "PORT": "coast", "LAND": "land", "SHUT": "impassable"}
_IGNORED = {"FLAGS", "FLAG", "NOTIFY", "TEXTONLY", "ROTATE", "DIRECTIVE", "DIRECTIVES"}
_PHASE_WORDS = {"SPRING": "S", "FALL": "F", "SUMMER": "S", "AUTUMN": "F", "WINTER": "W"}
_KIND_WORDS = {"MOVEMENT": "M", "RETREATS": "R", "ADJUSTMENTS": "A"}


class MapFormatError(ValueError):
    """Something in a .map file this reader does not understand or cannot accept."""


@dataclass
class Abut:
    """One entry of an ABUTS list: where to, and who may cross."""

    target: str  # upper case, with the coast if any: "SPA/NC"
    army: bool  # an army may cross (lower or upper case)
    fleet: bool  # a fleet may cross (upper case or capitalised)
    marks: str = ""  # special marks, e.g. "*" (Cape of Good Hope)


@dataclass
class Place:
    code: str  # as written on its terrain line: "SPA/NC", "spa" or "VEN"
    terrain: str
    abuts: list[Abut]


@dataclass
class PowerDef:
    name: str  # normalised: upper case, no spaces ("STPETERSBURG")
    written: str  # as in the file ("St+Petersburg")
    adjective: str
    letter: str | None
    homes: list[str] = field(default_factory=list)
    partisan: list[str] = field(default_factory=list)  # "*SIB": not a centre, a build site in DPjudge
    units: list[str] = field(default_factory=list)
    owns: list[str] | None = None  # None: owns its homes


@dataclass
class DpMap:
    """Everything read from one .map file and its includes."""

    files: list[Path] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)  # code (upper, maybe with coast) -> full name
    aliases: dict[str, list[str]] = field(default_factory=dict)  # code -> aliases as written
    places: dict[str, Place] = field(default_factory=dict)  # upper-case code -> place (split: "SPA")
    coast_places: dict[str, Place] = field(default_factory=dict)  # "SPA/NC" -> its fleet place
    powers: dict[str, PowerDef] = field(default_factory=dict)
    unowned: list[str] = field(default_factory=list)
    phase: str | None = None  # "SPRING 1901 MOVEMENT"
    victory: int | None = None
    rules: list[str] = field(default_factory=list)
    root: str | None = None  # the base map named by MAP


def _norm_power(word: str) -> str:
    return re.sub(r"[\s+.\-]", "", word.upper())


def read_map(path: Path) -> DpMap:
    """Read ``path`` and everything it includes (relative to its folder)."""
    dp = DpMap()
    _read_into(dp, Path(path))
    return dp


def _read_into(dp: DpMap, path: Path) -> None:
    if path in dp.files:
        raise MapFormatError(f"{path.name} is included twice")
    dp.files.append(path)
    power: PowerDef | None = None
    for lineno, line in enumerate(path.read_text(encoding="latin-1").splitlines(), 1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        where = f"{path.name}:{lineno}"
        up = words[0].upper()
        if up in ("USE", "USES", "MAP"):
            if up == "MAP":
                dp.root = words[1].split(".")[0]
            for name in words[1:]:
                _read_into(dp, path.parent / (name if "." in name else name + ".map"))
        elif up in _IGNORED:
            continue
        elif up == "BEGIN":
            dp.phase = " ".join(words[1:]).upper()
        elif up == "VICTORY":
            dp.victory = int(words[1])
        elif up in ("RULE", "RULES"):
            dp.rules.extend(w.upper() for w in words[1:])
        elif "=" in line:
            _read_name(dp, line, where)
        elif up in TERRAINS and len(words) > 1:
            _read_terrain(dp, words, where)
        elif up in ("A", "F"):
            if power is None or len(words) != 2:
                raise MapFormatError(f"{where}: unit outside a power block: {line.strip()!r}")
            unit = f"{up} {words[1].upper()}"
            for other in dp.powers.values():  # a unit replaces any unit in the same province
                other.units = [u for u in other.units if u[2:5] != unit[2:5]]
            power.units.append(unit)
        elif up in ("OWNS", "CENTERS"):
            if power is None:
                raise MapFormatError(f"{where}: {up} outside a power block")
            if up == "CENTERS" or power.owns is None:
                power.owns = []
            power.owns.extend(w.upper() for w in words[1:] if w.upper() not in power.owns)
        elif up in ("UNOWNED", "NEUTRAL"):
            power = None
            dp.unowned.extend(w.upper() for w in words[1:])
        elif up in ("DROP", "UNPLAYED", "INHABITS", "HOME", "HOMES", "DUMMY", "DUMMIES", "TEAM", "LEAGUE"):
            raise MapFormatError(f"{where}: {up} is not supported by this converter")
        else:
            power = _read_power(dp, words, where)


def _read_name(dp: DpMap, line: str, where: str) -> None:
    full, _, rest = line.partition("=")
    words = rest.split()
    if not words:
        raise MapFormatError(f"{where}: a name without a code")
    code = words[0].upper()
    dp.names[code] = full.strip().replace("+", " ")
    dp.aliases[code] = words[1:]


def _read_terrain(dp: DpMap, words: list[str], where: str) -> None:
    terrain, code = words[0].upper(), words[1]
    if terrain == "AMEND":
        raise MapFormatError(f"{where}: AMEND is not supported by this converter")
    if len(words) > 2 and words[2].upper() != "ABUTS":
        raise MapFormatError(f"{where}: no ABUTS after {code}")
    abuts = []
    for raw in words[3:]:
        if raw.startswith("-"):
            raise MapFormatError(f"{where}: removing an adjacency ({raw}) is not supported")
        if ":" in raw or "(" in raw:
            raise MapFormatError(f"{where}: power or ownership restrictions ({raw}) are not supported")
        marks, name = "", raw
        while name and not name[0].isalnum():
            marks, name = marks + name[0], name[1:]
        while name and not name[-1].isalnum():
            marks, name = marks + name[-1], name[:-1]
        lower, capitalised = name == name.lower(), name == name.title() and name != name.upper()
        abuts.append(Abut(name.upper(), army=not capitalised, fleet=not lower, marks=marks))
    place = Place(code, terrain, abuts)
    upper = code.upper()
    if "/" in upper:
        dp.coast_places[upper] = place
    else:
        dp.places[upper] = place


def _read_power(dp: DpMap, words: list[str], where: str) -> PowerDef:
    name = _norm_power(words[0])
    rest = words[1:]
    adjective, letter = name, None
    if rest and rest[0].startswith("("):
        inner = rest[0][1:-1]
        adjective, _, abbrev = inner.partition(":")
        letter = abbrev[:1].upper() or None
        adjective = adjective.replace("+", " ") or name
        rest = rest[1:]
    power = dp.powers.get(name)
    if power is None:
        power = dp.powers[name] = PowerDef(name=name, written=words[0], adjective=adjective, letter=letter)
    for home in (w.upper() for w in rest):
        if home.startswith("*"):
            power.partisan.append(home[1:])
        elif home[0].isalnum():
            power.homes.append(home)
        else:
            raise MapFormatError(f"{where}: home centre mark {home!r} is not supported")
    return power


# --- our facts ------------------------------------------------------------------------------------


def split_coasts(dp: DpMap) -> dict[str, list[str]]:
    """Province -> its named coasts, from the coast places (``SPA/NC`` -> ``SPA: [NC]``)."""
    out: dict[str, list[str]] = {}
    for loc in dp.coast_places:
        prov, coast = loc.split("/")
        out.setdefault(prov, []).append(coast)
    return {p: sorted(cs) for p, cs in out.items()}


def kinds(dp: DpMap) -> dict[str, str]:
    """Province code -> sea, coast, land or impassable."""
    return {code: KIND_OF_TERRAIN[p.terrain] for code, p in dp.places.items()}


def _army_ok(dp: DpMap, abut: Abut) -> bool:
    prov = abut.target.split("/")[0]
    place = dp.places.get(prov)
    return abut.army and place is not None and place.terrain not in ("WATER", "SHUT")


def _fleet_ok(dp: DpMap, abut: Abut) -> bool:
    # A fleet moves to a location written exactly: a coast of a split-coast province, or a province
    # that has no coasts. It never enters land or impassable places.
    prov = abut.target.split("/")[0]
    place = dp.places.get(prov)
    if not abut.fleet or place is None or place.terrain in ("LAND", "SHUT"):
        return False
    if "/" in abut.target:
        return abut.target in dp.coast_places
    return prov not in split_coasts(dp)


def directed_adjacency(dp: DpMap) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """Army moves (province -> province) and fleet moves (location -> location), as each side lists them."""
    coasts = split_coasts(dp)
    army: set[tuple[str, str]] = set()
    fleet: set[tuple[str, str]] = set()
    for code, place in dp.places.items():
        if place.terrain in ("LAND", "COAST", "PORT"):
            for abut in place.abuts:
                if _army_ok(dp, abut):
                    army.add((code, abut.target.split("/")[0]))
        if place.terrain in ("WATER", "COAST", "PORT") and code not in coasts:
            for abut in place.abuts:
                if _fleet_ok(dp, abut):
                    fleet.add((code, abut.target))
    for loc, place in dp.coast_places.items():
        for abut in place.abuts:
            if _fleet_ok(dp, abut):
                fleet.add((loc, abut.target))
    return army, fleet


def one_way(pairs: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """Moves listed on one side only (DPjudge would still allow them one way)."""
    return sorted((a, b) for a, b in pairs if (b, a) not in pairs)


def symmetric_pairs(pairs: set[tuple[str, str]]) -> list[tuple[str, str]]:
    return sorted({(min(a, b), max(a, b)) for a, b in pairs if (b, a) in pairs})


def special_crossings(dp: DpMap) -> list[dict]:
    """Adjacencies with a special mark (``*``: the Cape of Good Hope rules of 1900)."""
    seen: dict[tuple[str, str], set[str]] = {}
    for code, place in [*dp.places.items(), *dp.coast_places.items()]:
        for abut in place.abuts:
            if abut.marks:
                one, other = sorted((code.upper(), abut.target))
                seen.setdefault((one, other), set()).update(abut.marks)
    return [{"between": list(k), "marks": "".join(sorted(v))} for k, v in sorted(seen.items())]


def supply_centers(dp: DpMap) -> list[str]:
    """Every centre: homes, unowned ones, and centres a power owns at the start."""
    out = set(dp.unowned)
    for p in dp.powers.values():
        out.update(p.homes)
        out.update(p.owns or ())
    return sorted(out)


def victory_centers(dp: DpMap) -> int:
    return dp.victory if dp.victory is not None else len(supply_centers(dp)) // 2 + 1


def start_phase(dp: DpMap) -> str:
    """Our phase name for BEGIN (``SPRING 1901 MOVEMENT`` -> ``S1901M``); DPjudge's default otherwise."""
    words = (dp.phase or "SPRING 1901 MOVEMENT").split()
    if len(words) != 3 or words[0] not in _PHASE_WORDS or words[2] not in _KIND_WORDS:
        raise MapFormatError(f"cannot read the first phase {dp.phase!r}")
    return f"{_PHASE_WORDS[words[0]]}{int(words[1]):04d}{_KIND_WORDS[words[2]]}"


def _alias_text(alias: str) -> str | None:
    if alias.endswith("?"):
        return None  # DPjudge's "unclear" aliases: too ambiguous to accept
    text = alias.replace("+", " ").strip()
    if "/" in text or "(" in text:
        return None
    return text.upper() if len(text) <= 3 else " ".join(w.capitalize() for w in text.split())


def province_aliases(dp: DpMap) -> dict[str, list[str]]:
    """Province -> its aliases, without ones that repeat its code or name or name another place."""
    raw: dict[str, list[str]] = {}
    for code in dp.places:
        seen = {code.lower(), dp.names.get(code, code).lower()}
        out = []
        for alias in dp.aliases.get(code, []):
            text = _alias_text(alias)
            if text and text.lower() not in seen:
                seen.add(text.lower())
                out.append(text)
        raw[code] = out
    owners: dict[str, set[str]] = {}
    for code in dp.places:
        for text in (code, dp.names.get(code, code), *raw[code]):
            owners.setdefault(text.lower(), set()).add(code)
    return {code: [a for a in aliases if owners[a.lower()] == {code}] for code, aliases in raw.items()}


def map_document(dp: DpMap, name: str, title: str, note: str) -> dict:
    """Our map facts (data/variants/standard/map.json's schema) from a DPjudge map."""
    kind_of = kinds(dp)
    coasts = split_coasts(dp)
    centres = set(supply_centers(dp))
    home_of: dict[str, str] = {}
    for power in dp.powers.values():
        for home in power.homes:
            if home in home_of:
                raise MapFormatError(f"{home} is a home centre of both {home_of[home]} and {power.name}")
            home_of[home] = power.name
    aliases = province_aliases(dp)
    order = {"sea": 0, "coast": 1, "land": 2}
    provinces = []
    for code in sorted(
        (c for c, k in kind_of.items() if k != "impassable"), key=lambda c: (order[kind_of[c]], c)
    ):
        provinces.append(
            {
                "code": code,
                "name": dp.names.get(code, code),
                "kind": kind_of[code],
                "supply_center": code in centres,
                "home": home_of.get(code),
                "aliases": aliases[code],
                "coasts": coasts.get(code, []),
            }
        )
    army, fleet = directed_adjacency(dp)
    powers = sorted(dp.powers)
    units = {p: list(dp.powers[p].units) for p in powers}
    centers = {
        p: list(owns if (owns := dp.powers[p].owns) is not None else dp.powers[p].homes) for p in powers
    }
    power_aliases = {}
    for p in powers:
        adj = dp.powers[p].adjective
        written = dp.powers[p].written.replace("+", " ")
        extra = [" ".join(w.capitalize() for w in t.split()) for t in (written, adj)]
        power_aliases[p] = [t for i, t in enumerate(extra) if t.upper() != p and t not in extra[:i]]
    return {
        "name": name,
        "title": title,
        "note": note,
        "powers": powers,
        "power_aliases": power_aliases,
        "victory_centers": victory_centers(dp),
        "start": {"phase": start_phase(dp), "units": units, "centers": centers},
        "provinces": provinces,
        "army_adjacency": symmetric_pairs(army),
        "fleet_adjacency": symmetric_pairs(fleet),
    }


def dumps_map(doc: dict) -> str:
    """The map facts as JSON laid out like data/variants/standard/map.json: one province or pair per line."""
    import json

    def one(value) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = ["{"]
    keys = list(doc)
    for i, key in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        value = doc[key]
        if key in ("provinces", "army_adjacency", "fleet_adjacency"):
            lines.append(f"  {one(key)}: [")
            lines.extend(
                f"    {one(item)}{',' if j < len(value) - 1 else ''}" for j, item in enumerate(value)
            )
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {one(key)}: {one(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"
