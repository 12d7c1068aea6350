"""The module import graph of the repository, read from the source (nothing is imported).

Every import counts: at module level, inside a function, under ``if TYPE_CHECKING:``. A late or
type-only import still ties two modules together, so hiding one in a function never breaks a cycle
or a layer. ``from package import name`` goes to ``package.name`` when that is a module of ours,
else to the package; imports of anything outside the given packages (the standard library,
sqlmodel, discord) are left out.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def module_files(packages: Iterable[str], root: Path = ROOT) -> dict[str, Path]:
    """Module name -> file, for each of ``packages``: a folder (every module in it) or a module file
    at the root (``bot`` for bot.py)."""
    found: dict[str, Path] = {}
    for package in packages:
        folder = root / package
        files = sorted(folder.rglob("*.py")) if folder.is_dir() else [root / f"{package}.py"]
        for path in files:
            if not path.exists():
                raise FileNotFoundError(f"no package or module {package!r} in {root}")
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imported_names(module: str, path: Path) -> Iterable[tuple[str, int]]:
    """Every dotted name ``module`` imports (a module, or a name in one), with its line."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            for alias in node.names:
                yield f"{source}.{alias.name}", node.lineno


def _resolve(name: str, modules: Mapping[str, Path]) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_edges(modules: Mapping[str, Path]) -> dict[str, dict[str, int]]:
    """Module -> {module of ours it imports: the first line that does}."""
    edges: dict[str, dict[str, int]] = {}
    for module, path in modules.items():
        targets: dict[str, int] = {}
        for name, line in imported_names(module, path):
            target = _resolve(name, modules)
            if target is not None and target != module:
                targets.setdefault(target, line)
        edges[module] = targets
    return edges


def import_graph(packages: Iterable[str], root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the modules of ``packages`` it imports."""
    return {module: set(targets) for module, targets in import_edges(module_files(packages, root)).items()}


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """One cycle (``[a, b, c, a]``) in each strongly connected group of modules: empty when the
    graph has none. Iterative (Tarjan), so a long chain cannot overflow the stack."""
    nodes = sorted(set(graph) | {t for targets in graph.values() for t in targets})
    succ = {n: sorted(graph.get(n, ())) for n in nodes}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []
    counter = 0
    for start in nodes:
        if start in index:
            continue
        work: list[tuple[str, int]] = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            descended = False
            for j in range(i, len(succ[node])):
                nxt = succ[node][j]
                if nxt not in index:
                    work.append((node, j + 1))
                    work.append((nxt, 0))
                    descended = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if descended:
                continue
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(group)
    return [_cycle_in(group, succ) for group in groups]


def _cycle_in(group: set[str], succ: Mapping[str, list[str]]) -> list[str]:
    """A concrete cycle through the group's first module (breadth first: a shortest one)."""
    start = min(group)
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in succ[node]:
                if nxt not in group:
                    continue
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if nxt not in previous:
                    previous[nxt] = node
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"no cycle through {start} in {sorted(group)}")
