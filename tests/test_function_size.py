"""No function in gm/ grows past 60 lines or a cyclomatic complexity of 15 (ruff's C901, mccabe).

The functions over either bound today are listed by name in :data:`KNOWN`: the list may only
shrink. A new long or tangled function fails here; split it into named steps (gm.phases.finishing
shows the way). To see the figures: ``python tests/test_function_size.py``."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 60
MAX_COMPLEXITY = 15

# path:function of the functions still over a bound: none (23 before the close became named steps,
# then 11, 9, and 0 once gm/delivery, gm/endings, gm/setup and submit_orders were split). A new long or
# tangled function is split into named steps, never added here.
KNOWN: set[str] = set()


def long_functions(root: Path = ROOT) -> dict[str, int]:
    """``path:qualified name`` -> lines, for every function of gm/ over :data:`MAX_LINES` lines
    (decorators left out, docstring included)."""
    found = {}
    for file in sorted((root / "gm").rglob("*.py")):
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for name, node in _functions(tree, ""):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > MAX_LINES:
                found[f"{file.relative_to(root)}:{name}"] = lines
    return found


def _functions(node: ast.AST, prefix: str) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    out: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            out.append((prefix + child.name, child))
            out.extend(_functions(child, f"{prefix}{child.name}."))
        elif isinstance(child, ast.ClassDef):
            out.extend(_functions(child, f"{prefix}{child.name}."))
    return out


def complex_functions(root: Path = ROOT) -> dict[str, int]:
    """``path:function`` -> complexity, for every function of gm/ over :data:`MAX_COMPLEXITY`."""
    ruff = Path(sys.executable).with_name("ruff")
    done = subprocess.run(
        [str(ruff), "check", "gm", "--isolated", "--select", "C901", "--output-format", "json", "--config",
         f"lint.mccabe.max-complexity={MAX_COMPLEXITY}", "--exit-zero"],
        cwd=root, capture_output=True, text=True, check=True,
    )  # fmt: skip
    found = {}
    for hit in json.loads(done.stdout):
        name = hit["message"].split("`")[1]
        found[f"{Path(hit['filename']).relative_to(root)}:{name}"] = int(
            hit["message"].split("(")[1].split()[0]
        )
    return found


def over_bounds(root: Path = ROOT) -> set[str]:
    """Every function over either bound (complexity named by its bare function name)."""
    return set(long_functions(root)) | {_qualified(root, key) for key in complex_functions(root)}


def _qualified(root: Path, key: str) -> str:
    """ruff names a method by its bare name: find the qualified one among the long functions' names."""
    path, name = key.split(":")
    tree = ast.parse((root / path).read_text(encoding="utf-8"))
    for qualified, _ in _functions(tree, ""):
        if qualified.split(".")[-1] == name:
            return f"{path}:{qualified}"
    return key


def test_no_function_in_gm_grows_past_the_bounds() -> None:
    new = sorted(over_bounds() - KNOWN)
    assert new == [], f"over {MAX_LINES} lines or complexity {MAX_COMPLEXITY}; split into named steps: {new}"


def test_the_list_of_known_long_functions_is_kept_short() -> None:
    gone = sorted(KNOWN - over_bounds())
    assert gone == [], f"no longer over the bounds; take them out of KNOWN: {gone}"


if __name__ == "__main__":
    lines, complexity = long_functions(), complex_functions()
    for key, count in sorted(lines.items(), key=lambda kv: -kv[1]):
        print(f"{count:4d} lines       {key}")
    for key, count in sorted(complexity.items(), key=lambda kv: -kv[1]):
        print(f"{count:4d} complexity  {key}")
    print(f"{len(over_bounds())} functions over {MAX_LINES} lines or complexity {MAX_COMPLEXITY}")
