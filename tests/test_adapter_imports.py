"""The adapter's rule, read from the source: the Discord adapter (cogs/) reaches gm through two doors
only, the facade (gm.facade.Gamemaster) and the names an adapter may use beside it (gm.public); cogs'
own modules import one another without a cycle; and the facade's public face is its use cases, the
machinery (closes, deliveries, background work, start and stop) being the composition root's, through
gm.facade.runtime.Runtime.

Every import counts: at module level, inside functions and under ``if TYPE_CHECKING``."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path

import pytest

from gm.facade import Gamemaster
from tests.helpers.import_graph import imported_names

ROOT = Path(__file__).resolve().parents[1]

GM_DOORS = {"gm.facade", "gm.public"}
"""The gm modules an adapter may import."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def gm_modules_imported(path: Path) -> set[str]:
    """The gm modules ``path`` imports: for ``from <package> import <name>`` the package, or the
    name when it is a module of it."""
    found: set[str] = set()
    for dotted, _ in imported_names(module_name(path), path):
        if dotted != "gm" and not dotted.startswith("gm."):
            continue
        while dotted and not _is_module(dotted):
            dotted = dotted.rpartition(".")[0]
        if dotted:
            found.add(dotted)
    # a from-import yields its package and, when the name is a module, that module: keep the deeper
    return {m for m in found if not any(other.startswith(m + ".") for other in found)} | (found & GM_DOORS)


def _is_module(dotted: str) -> bool:
    base = ROOT.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def cogs_graph() -> dict[str, set[str]]:
    """cogs' modules and, for each, the cogs modules it imports (any import, anywhere in it)."""
    files = {module_name(path): path for path in sorted((ROOT / "cogs").rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        targets: set[str] = set()
        for dotted, _ in imported_names(name, path):
            while dotted and dotted not in files:
                dotted = dotted.rpartition(".")[0]
            if dotted and dotted != name:
                targets.add(dotted)
        graph[name] = targets
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected sets of more than one module (Tarjan), each sorted: every import cycle
    lies within one of them."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def adapter_files() -> list[Path]:
    return sorted((ROOT / "cogs").rglob("*.py"))


def test_cogs_import_only_the_facade_and_the_public_module() -> None:
    files = adapter_files()
    assert files
    beside = {
        module_name(path): sorted(gm_modules_imported(path) - GM_DOORS)
        for path in files
        if gm_modules_imported(path) - GM_DOORS
    }
    assert beside == {}, f"cogs import gm modules besides gm.facade and gm.public: {beside}"


def machinery_reached(source: str) -> list[int]:
    """Lines of ``source`` that reach the gamemaster's machinery: any ``.runtime``, or a machinery
    name (:data:`MACHINERY`) on something called ``gamemaster`` (``self.gamemaster.spawn(...)``)."""
    return sorted(
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute)
        and (
            node.attr == "runtime"
            or (node.attr in MACHINERY and ast.unparse(node.value).split(".")[-1] == "gamemaster")
        )
    )


def test_cogs_never_reach_the_machinery() -> None:
    """Only the composition root (bot.py) holds the runtime (start, stop, closes, deliveries); a cog's
    own background work is cogs.shared.base.Services'."""
    reaching = [
        f"{module_name(path)}:{line}"
        for path in adapter_files()
        for line in machinery_reached(path.read_text(encoding="utf-8"))
    ]
    assert reaching == [], f"cogs reach the gamemaster's machinery: {reaching}"


def test_the_machinery_check_sees_a_spawn_and_the_runtime() -> None:
    source = (
        "def f(self, services):\n"
        "    self.gamemaster.spawn(work(), 'x')\n"
        "    services.gamemaster.runtime.idle()\n"
        "    self.gamemaster.submit_orders(1, 2, 'A Par H')\n"
    )
    assert machinery_reached(source) == [2, 3]


def test_no_import_cycle_among_cogs_modules() -> None:
    found = cycles(cogs_graph())
    assert found == [], "import cycles among cogs modules:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_cycle_finder_sees_a_loop_and_a_self_import() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": set()}
    assert cycles(graph) == [["a", "b", "c"], ["e"]]


def test_the_import_reader_sees_functions_and_type_checking(tmp_path: Path) -> None:
    cogs = tmp_path / "cogs"
    cogs.mkdir()
    module = cogs / "sample.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from gm.facade import Gamemaster\n"
        "def late():\n    from . import other\n    import gm.public\n"
    )
    names = {name for name, _ in imported_names("cogs.sample", module)}
    assert {"gm.facade.Gamemaster", "cogs.other", "gm.public"} <= names


MACHINERY = {
    "abandon",
    "apply",
    "close_at_deadline",
    "close_phase",
    "closer",
    "deliver",
    "finish_phase",
    "follow_up",
    "game_started",
    "idle",
    "last_delivery",
    "launch",
    "on_close",
    "orders_changed",
    "players_changed",
    "publish_final",
    "request_close",
    "scheduler",
    "sender",
    "sessions",
    "shield_running_games",
    "shutdown",
    "spawn",
    "start",
    "wind_down",
    "winding_down",
}
"""Names of the machinery (gm.facade.runtime.Runtime's): none may be on the facade's public face."""


def public_names(obj: object) -> set[str]:
    return {name for name in dir(obj) if not name.startswith("_")}


def test_the_facade_shows_no_machinery(tmp_path: Path) -> None:
    from db.database import make_engine, make_session_factory

    shown = public_names(Gamemaster)
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'unused.db'}")
    instance = Gamemaster(make_session_factory(engine), workers=0)
    shown |= public_names(instance)
    assert sorted(shown & MACHINERY) == [], "machinery on the facade's public face"


def test_the_facade_shows_use_cases_and_the_runtime_handle_only(tmp_path: Path) -> None:
    """Every public name of the facade is a use case (a method), or ``runtime``, the composition
    root's handle on the machinery: no public attribute holding a part (the sessions, the scheduler)."""
    from db.database import make_engine, make_session_factory

    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'unused.db'}")
    instance = Gamemaster(make_session_factory(engine), workers=0)
    not_calls = sorted(
        name for name in public_names(instance) - {"runtime"} if not callable(getattr(instance, name))
    )
    assert not_calls == [], f"public attributes of the facade that are not use cases: {not_calls}"
    assert "runtime" in public_names(instance)


@pytest.mark.parametrize("name", sorted(GM_DOORS))
def test_the_doors_exist(name: str) -> None:
    assert _is_module(name), f"{name} is not a module"


def test_the_public_module_only_re_exports() -> None:
    """gm.public defines nothing: a docstring, imports from gm and engine, and ``__all__`` naming
    exactly what it imports (so a name an adapter uses is defined once, where it belongs)."""
    import gm.public

    tree = ast.parse((ROOT / "gm" / "public.py").read_text(encoding="utf-8"))
    imported: set[str] = set()
    others: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in ("gm", "engine"):
            imported.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module == "__future__":
            continue
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        elif isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["__all__"]:
            continue
        else:
            others.append(ast.unparse(node).splitlines()[0])
    assert others == [], f"gm.public defines more than re-exports: {others}"
    assert sorted(gm.public.__all__) == sorted(imported)
