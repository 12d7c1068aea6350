"""The documentation names only what the repository has.

Every dotted name of ours (``gm.facade``, ``engine.variants.Variant``, ``render.palette.palette_for``,
``cogs.``, ``db.``, ``ops.``, ``harness.``) in the Markdown files and in the code's docstrings and
comments is a module of the repository, or a name one of them defines: a renamed or removed module
leaves no stale name behind. So is every path written there (``gm/delivery/outbox.py``), and every
section of docs/ARCHITECTURE.md a docstring sends its reader to. And no file sends its reader to a
file outside the repository (a clone has nothing beside it): no design document of old, no reference
folder next to the checkout.

Modules are found as files and their definitions by a pattern (``def name``, ``class name``,
``name =``, an import), never imported, so the check is quick and loads neither discord.py nor the
database.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("gm", "engine", "render", "cogs", "db", "ops", "harness")
DOTTED = re.compile(rf"(?<![\w./\-])((?:{'|'.join(PACKAGES)})(?:\.[A-Za-z_]\w*)+\*?)")
# A design page that is not in the repository, the reference folder beside the checkout, the
# rulebooks' and DATC's files there, an absolute path of a machine.
OUTSIDE = re.compile(r"DESIGN\.md|\.\./shared|/work/|\bshared/(?:maps|seeds|datc)|\bseeds/\d")

# A path in the repository: a file or a folder, or a module's attribute (tests/engine/x.random_units).
PATH = re.compile(
    r"(?<![\w./\-])((?:engine|render|gm|cogs|db|ops|harness|scripts|bench|tests|data|docs|migrations|deploy)"
    r"/[\w./\-]*[\w/])(?![\w*<{])"
)
# A section of this project's design page named in a docstring: docs/ARCHITECTURE.md, "Layers".
SECTION = re.compile(r'docs/ARCHITECTURE\.md,?\s+"([^"]+)"')
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"

CODE_DIRS = (
    "engine",
    "render",
    "gm",
    "cogs",
    "db",
    "ops",
    "harness",
    "scripts",
    "bench",
    "tests",
    "migrations",
)
THIS = Path(__file__).resolve()


def markdown_files() -> list[Path]:
    found = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for folder in ("data", *CODE_DIRS):
        found += sorted((ROOT / folder).rglob("*.md"))
    return found


def python_files() -> list[Path]:
    found = [ROOT / "bot.py", ROOT / "config.py"]
    for folder in CODE_DIRS:
        found += sorted(p for p in (ROOT / folder).rglob("*.py") if p.resolve() != THIS)
    return found


def data_files() -> list[Path]:
    """Text files with comments of their own: the DATC cases."""
    return sorted((ROOT / "tests").rglob("*.datc"))


# --- what a dotted name names -------------------------------------------------------------------------


@functools.cache
def _source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _defined(name: str, sources: list[Path]) -> bool:
    """Whether one of ``sources`` defines ``name`` (``name*``: a name starting so): a class or
    function, an assignment or annotation at the start of a line, or an import (on the line of
    ``import`` or alone on its line in a parenthesised one)."""
    word = re.escape(name.rstrip("*")) + (r"\w*" if name.endswith("*") else r"\b")
    definition = re.compile(
        rf"^\s*(?:(?:async\s+)?def\s+|class\s+){word}"
        rf"|^\s*{word}\s*(?::|=|\+=)"
        rf"|^\s*(?:from\s+\S+\s+)?import\b.*\b{word}"
        rf"|^\s+{word}(?:\s+as\s+\w+)?,?$",
        re.MULTILINE,
    )
    return any(definition.search(_source(path)) for path in sources)


@functools.cache
def exists(dotted: str) -> bool:
    """Whether ``dotted`` is a module of the repository or a name defined in one.

    The module is the longest prefix that is a file (``a/b.py`` or ``a/b/__init__.py``); the name
    after it must be defined in that file, and any further names (a class's method, perhaps
    inherited) in its folder. A final ``*`` stands for any ending (``NOTIFY_*``)."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:i])
        for module in (base.parent / f"{base.name}.py", base / "__init__.py"):
            if module.is_file():
                rest = parts[i:]
                if rest and not _defined(rest[0], [module]):
                    return False
                folder = sorted(module.parent.glob("*.py"))
                return all(_defined(name, folder) for name in rest[1:])
    return False


# --- where the names are written ------------------------------------------------------------------------


def _comments(source: str) -> Iterator[str]:
    """The comments of a Python source: what follows a # that is not inside a quote on its line."""
    for line in source.splitlines():
        at = line.find("#")
        while at >= 0:
            before = line[:at]
            if before.count('"') % 2 == 0 and before.count("'") % 2 == 0:
                yield line[at + 1 :]
                break
            at = line.find("#", at + 1)


def _docstrings(source: str) -> Iterator[str]:
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                yield doc


def prose(path: Path) -> str:
    """What a reader of ``path`` reads as text: a Markdown or data file whole, a Python file's
    docstrings and comments."""
    source = _source(path)
    if path.suffix != ".py":
        return source
    return "\n".join([*_docstrings(source), *_comments(source)])


def path_exists(text: str) -> bool:
    if (ROOT / text).exists():
        return True
    module, _, _attribute = text.rpartition(".")
    return bool(module) and (ROOT / f"{module}.py").is_file()


def stale_names(path: Path) -> list[str]:
    source = _source(path)
    if all(exists(name) for name in DOTTED.findall(source)):  # the usual case: nothing to place
        return []
    return sorted({name for name in DOTTED.findall(prose(path)) if not exists(name)})


# --- the checks ---------------------------------------------------------------------------------------------


def test_the_name_check_knows_a_module_a_name_and_a_stale_one() -> None:
    assert exists("gm.facade") and exists("engine.variants.Variant.game_map")
    assert exists("render.palette.palette_for") and exists("engine.adjudicate_json")
    assert not exists("gm.variants") and not exists("engine.variants.NoSuchThing")
    assert not exists("gm.facade.Gamemaster.no_such_use_case")
    text = "see gm.messages.refs and `engine.board.Board`; not data/gm.x or a.gm.y\n"
    assert DOTTED.findall(text) == ["gm.messages.refs", "engine.board.Board"]


def test_every_dotted_name_in_the_docs_and_docstrings_exists() -> None:
    stale = {}
    for path in [*markdown_files(), *python_files(), *data_files()]:
        names = stale_names(path)
        if names:
            stale[str(path.relative_to(ROOT))] = names
    assert stale == {}, f"names of modules or definitions that do not exist: {stale}"


def test_every_path_in_the_docs_and_docstrings_exists() -> None:
    stale = {}
    for path in [*markdown_files(), *python_files(), *data_files()]:
        if all(path_exists(name) for name in PATH.findall(_source(path))):  # the usual case
            continue
        missing = sorted({name for name in PATH.findall(prose(path)) if not path_exists(name)})
        if missing:
            stale[str(path.relative_to(ROOT))] = missing
    assert stale == {}, f"paths that do not exist in the repository: {stale}"


def test_every_section_of_the_design_page_named_exists() -> None:
    headings = {
        line.lstrip("#").strip() for line in _source(ARCHITECTURE).splitlines() if line.startswith("#")
    }
    named: dict[str, list[str]] = {}
    for path in [*markdown_files(), *python_files()]:
        for written in SECTION.findall(_source(path)):
            section = " ".join(written.split())  # a docstring may break the name over two lines
            if section not in headings:
                named.setdefault(str(path.relative_to(ROOT)), []).append(section)
    assert named == {}, f"sections of docs/ARCHITECTURE.md that do not exist: {named}"
    assert {"The engine's contract", "Names and order text", "What a status means"} <= headings


@pytest.mark.parametrize("kind", ["markdown", "python", "data"])
def test_nothing_points_outside_the_repository(kind: str) -> None:
    files = {"markdown": markdown_files, "python": python_files, "data": data_files}[kind]()
    found = {}
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE.search(line):
                found[f"{path.relative_to(ROOT)}:{number}"] = line.strip()
    assert found == {}, f"references to files outside the repository: {found}"
