"""The layers import one way: bot -> cogs -> gm -> render -> engine, with db at the ground. Every import
in every module (those inside functions too) is read from the source and checked against the rule of
its layer, so a shortcut across layers fails here before it spreads."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.helpers.import_graph import cycles, import_edges, import_graph, module_files

ROOT = Path(__file__).resolve().parents[1]

FORBIDDEN: dict[str, set[str]] = {
    # layer -> top-level packages its modules may not import
    "engine": {"render", "gm", "db", "cogs", "bot", "config", "discord", "sqlmodel", "sqlalchemy", "PIL"},
    "render": {"gm", "db", "cogs", "bot", "config", "discord", "sqlmodel", "sqlalchemy"},
    "gm": {"cogs", "bot", "discord"},
    "db": {"engine", "render", "gm", "cogs", "bot", "discord"},
    "cogs": {"bot", "db", "sqlmodel", "sqlalchemy", "render", "engine"},  # engine's values: via gm.public
    "ops": {"cogs", "bot", "engine", "render"},  # the process around the bot: no game logic, no cogs
}


def imports_of(path: Path) -> set[str]:
    """The top-level package of every module ``path`` imports (relative imports are its own layer)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def modules(layer: str) -> list[Path]:
    return sorted((ROOT / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_each_layer_imports_only_downwards(layer: str) -> None:
    files = modules(layer)
    assert files, f"no modules found in {layer}/"
    crossings = {
        str(path.relative_to(ROOT)): sorted(imports_of(path) & FORBIDDEN[layer])
        for path in files
        if imports_of(path) & FORBIDDEN[layer]
    }
    assert crossings == {}, f"{layer}/ imports across its layer: {crossings}"


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    module = tmp_path / "sample.py"
    module.write_text("def late():\n    from gm.setup.games import get_game\n    import discord.ui\n")
    assert imports_of(module) == {"gm", "discord"}


# --- inside gm: one order of its folders ------------------------------------------------------------

GM_LAYERS: list[tuple[str, ...]] = [
    # bottom to top: a module of gm may import its own folder and any folder of a lower line, never
    # one of its own line or above (gm/__init__.py's docstring and docs/ARCHITECTURE.md, "Inside gm",
    # list the same lines top to bottom)
    ("gm.actor", "gm.clock", "gm.errors", "gm.game_log", "gm.meant_for", "gm.messages"),
    ("gm.checking",),
    ("gm.rules",),
    ("gm.settings",),
    ("gm.anonymity",),
    ("gm.delivery",),
    ("gm.builtin",),
    ("gm.reading",),
    ("gm.follow_ups",),
    ("gm.ordering",),
    ("gm.endings",),
    ("gm.phases",),
    ("gm.setup",),
    ("gm.moderation",),
    ("gm.reports",),
    ("gm.sandbox",),
    ("gm.relaying",),
    ("gm.facade", "gm.public"),  # the adapters' two doors: neither imports the other
]
LEVEL = {folder: level for level, line in enumerate(GM_LAYERS) for folder in line}


def gm_folder(module: str) -> str:
    """``gm.setup.games`` -> ``gm.setup``; a module at gm's root (``gm.clock``) is a folder of its own."""
    return ".".join(module.split(".")[:2])


def test_every_gm_folder_has_its_place_in_the_order() -> None:
    folders = {gm_folder(m) for m in module_files(["gm"]) if m != "gm"}
    assert folders == set(LEVEL), (
        f"gm folders missing from GM_LAYERS: {sorted(folders - set(LEVEL))}; "
        f"listed but gone: {sorted(set(LEVEL) - folders)}"
    )


def test_gm_folders_import_only_their_own_or_lower_ones() -> None:
    """Every import of every gm module (in functions and under TYPE_CHECKING too) goes to its own
    folder or to one on a lower line of GM_LAYERS: no two folders import each other."""
    wrong = [
        f"{module} (line {line}) imports {target}: {gm_folder(target)} is not below {gm_folder(module)}"
        for module, targets in import_edges(module_files(["gm"])).items()
        if module != "gm"
        for target, line in sorted(targets.items())
        if target != "gm"
        and gm_folder(target) != gm_folder(module)
        and LEVEL[gm_folder(target)] >= LEVEL[gm_folder(module)]
    ]
    assert not wrong, "imports against gm's order (GM_LAYERS):\n" + "\n".join(wrong)


def written_order(text: str) -> list[tuple[str, ...]]:
    """The folders of each ``- gm.clock, gm.errors  what they do`` line of ``text``, top to bottom."""
    lines = []
    for line in text.splitlines():
        match = re.match(r"\s*- ((?:gm\.\w+(?:, )?)+)\s", line + " ")
        if match:
            lines.append(tuple(sorted(re.findall(r"gm\.\w+", match.group(1)))))
    return lines


def test_the_order_is_written_the_same_in_gm_docstring_and_the_architecture_page() -> None:
    import gm

    expected = [tuple(sorted(line)) for line in reversed(GM_LAYERS)]
    assert written_order(gm.__doc__ or "") == expected, "gm/__init__.py's docstring lists another order"
    page = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = page.split("### Inside gm", 1)[1].split("\n#", 1)[0]
    assert written_order(section) == expected, 'docs/ARCHITECTURE.md\'s "Inside gm" lists another order'


# --- no import cycles anywhere ------------------------------------------------------------------------

# every package of ours, the test tools too (cogs' own cycles are also named, with their imports of gm,
# by tests/test_adapter_imports.py); scripts/ is left out: its tools import one another by bare name
# (scripts/ is on their path), which this graph does not resolve
ACYCLIC = ["engine", "render", "db", "gm", "cogs", "ops", "bot", "config", "harness", "bench", "tests"]


def test_no_import_cycles() -> None:
    """No module imports itself through others, counting every import (in functions and under
    TYPE_CHECKING too): each layer reads bottom to top, and a cycle is a knot nobody can move."""
    found = cycles(import_graph(ACYCLIC))
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(cycle) for cycle in found)


def test_the_cycle_finder_names_a_cycle_hidden_in_a_function(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.b import x\n")
    (package / "b.py").write_text("x = 1\ndef late():\n    from pkg import c\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.a\n")
    (package / "d.py").write_text("import pkg.a\n")
    assert cycles(import_graph(["pkg"], tmp_path)) == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"]]
