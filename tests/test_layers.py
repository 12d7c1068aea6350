"""The layers import one way: bot -> cogs -> gm -> render -> engine, with db at the ground. Every import
in every module (those inside functions too) is read from the source and checked against the rule of
its layer, so a shortcut across layers fails here before it spreads."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

FORBIDDEN: dict[str, set[str]] = {
    # layer -> top-level packages its modules may not import
    "engine": {"render", "gm", "db", "cogs", "bot", "config", "discord", "sqlmodel", "sqlalchemy", "PIL"},
    "render": {"gm", "db", "cogs", "bot", "config", "discord", "sqlmodel", "sqlalchemy"},
    "gm": {"cogs", "bot", "discord"},
    "db": {"engine", "render", "gm", "cogs", "bot", "discord"},
    "cogs": {"bot", "db", "sqlmodel", "sqlalchemy"},
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
